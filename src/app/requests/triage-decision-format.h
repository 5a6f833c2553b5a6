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
 * The words every request view puts on a request, whatever its protocol:
 * durations, the countdown, times, numbers, values, attachments. No GTK
 * here, so the rules are tested without a display. What only one protocol
 * says is in its folder (atp/triage-atp-format.h).
 */

char     *triage_format_duration            (GTimeSpan         remaining);
char     *triage_format_countdown           (GTimeSpan         remaining);
char     *triage_format_countdown_spoken    (GTimeSpan         remaining);
char     *triage_format_time                (GDateTime        *when,
                                             GDateTime        *now);
char     *triage_format_number              (double            value,
                                             int               digits);
int       triage_number_digits              (double            value);
gboolean  triage_format_is_hidden_char      (gunichar          c);
char     *triage_format_visible_text        (const char       *text);
gboolean  triage_format_is_rtl_letter       (gunichar          c);
char     *triage_format_in_sentence         (const char       *text);
char     *triage_format_cut_text            (const char       *text,
                                             gsize             max_chars);
gboolean  triage_format_is_break_char       (gunichar          c);
char     *triage_format_shown_text          (const char       *text,
                                             gsize             max_chars);
const char *triage_format_get_description (AtpNotification *notification);
char     *triage_format_json_value          (JsonNode         *node,
                                             gsize             max_chars);
char     *triage_format_attachment_details  (const AtpAttachment *attachment);
char     *triage_format_fold                (const char       *text);
JsonNode *triage_json_number_new            (double            value);

#define TRIAGE_COUNTDOWN_CRITICAL (5 * G_TIME_SPAN_MINUTE)

/*
 * How much of an agent's text a widget shows (see triage_format_cut_text()).
 * Pango lays out a label's whole text each time it is measured, and a line
 * with no place to wrap costs more than in proportion to its length: a 100 kB
 * title would stall the app for seconds, and every measure of a wrapping
 * label lays it out again (a 2,000-character description cost 35 ms a
 * view): a view shows a few lines' worth, and the whole text is a click away
 * (triage-whole-text.c). Search and the history keep it all.
 */
#define TRIAGE_SHOWN_TITLE_CHARS        150     /* a heading: the title, an action's label */
#define TRIAGE_SHOWN_DESCRIPTION_CHARS  600     /* a paragraph: the description */
#define TRIAGE_SHOWN_VALUE_CHARS        200     /* a metadata value */
#define TRIAGE_SHOWN_ROW_CHARS          200     /* one line of a list row or a bubble title */
#define TRIAGE_SHOWN_LABEL_CHARS        80      /* a button's or an option's label */
#define TRIAGE_SHOWN_NAME_CHARS         100     /* a service's name, a project */
#define TRIAGE_SHOWN_BUBBLE_BUTTON_CHARS 32     /* a bubble's button: one line that never wraps */
/* A wrapping label gets a place to break after this many characters without one. */
#define TRIAGE_SHOWN_RUN_CHARS          24

G_END_DECLS
