/* triage-decision-format.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

#include "atp.h"

G_BEGIN_DECLS

/*
 * The words the decision view puts on a request: flags, durations, counts,
 * values, answers. No GTK here, so the rules are tested without a display.
 */

/**
 * TriageFlagInfo:
 * @icon_name: a symbolic icon
 * @label: the flag as a word or two, translated (an unknown flag: its name made readable)
 * @consequence: (nullable): one sentence saying what the flag means for the person
 * @style_class: (nullable): the badge's colour class ("error", "warning", "accent");
 *   colour is never the only sign, the icon and the word always come with it
 * @known: whether the flag is one of ATP's seven
 *
 * How a flag is shown. The strings are static or owned by the caller's
 * #TriageFlagInfo (free with triage_flag_info_clear()).
 */
typedef struct
{
  const char *icon_name;
  char       *label;
  char       *consequence;
  const char *style_class;
  gboolean    known;
} TriageFlagInfo;

void      triage_flag_info_init             (TriageFlagInfo   *info,
                                             const char       *flag_name);
void      triage_flag_info_clear            (TriageFlagInfo   *info);

char     *triage_format_duration            (GTimeSpan         remaining);
char     *triage_format_countdown           (GTimeSpan         remaining);
char     *triage_format_time                (GDateTime        *when,
                                             GDateTime        *now);
char     *triage_format_selection_count     (guint             selected,
                                             gint64            min_selections,
                                             gint64            max_selections);
char     *triage_format_character_count     (glong             length,
                                             gint64            min_length,
                                             gint64            max_length);
char     *triage_format_number              (double            value,
                                             int               digits);
int       triage_number_digits              (double            value);
char     *triage_format_json_value          (JsonNode         *node,
                                             gsize             max_chars);
char     *triage_format_attachment_details  (const AtpAttachment *attachment);
char     *triage_humanize_response_error    (const GError     *error);
char     *triage_describe_response          (const AtpAction  *action,
                                             JsonNode         *response_data);
JsonNode *triage_json_number_new            (double            value);

#define TRIAGE_COUNTDOWN_CRITICAL (5 * G_TIME_SPAN_MINUTE)

G_END_DECLS
