/* triage-atp-format.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

#include "atp.h"

G_BEGIN_DECLS

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

char     *triage_format_selection_count     (guint             selected,
                                             gint64            min_selections,
                                             gint64            max_selections);
char     *triage_format_character_count     (glong             length,
                                             gint64            min_length,
                                             gint64            max_length);
char     *triage_humanize_response_error    (const GError     *error);
char     *triage_describe_response          (const AtpAction  *action,
                                             JsonNode         *response_data);
const char *triage_atp_label                (const char       *label,
                                             const char       *stand_in);
const char *triage_atp_action_label         (const AtpAction  *action);
const char *triage_atp_answer_label         (const AtpAction  *action,
                                             gboolean          answer);

G_END_DECLS
