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
char     *triage_format_time                (GDateTime        *when,
                                             GDateTime        *now);
char     *triage_format_number              (double            value,
                                             int               digits);
int       triage_number_digits              (double            value);
char     *triage_format_cut_text            (const char       *text,
                                             gsize             max_chars);
char     *triage_format_json_value          (JsonNode         *node,
                                             gsize             max_chars);
char     *triage_format_attachment_details  (const AtpAttachment *attachment);
JsonNode *triage_json_number_new            (double            value);

#define TRIAGE_COUNTDOWN_CRITICAL (5 * G_TIME_SPAN_MINUTE)

G_END_DECLS
