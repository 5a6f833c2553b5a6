/* triage-ask-private.h — what triage-ask's sources share, not part of its API
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "triage-ask.h"

G_BEGIN_DECLS

/* A %G_OPTION_ERROR_BAD_VALUE with the message; returns FALSE. */
gboolean  triage_ask_usage_error           (GError     **error,
                                            const char  *format,
                                            ...) G_GNUC_PRINTF (2, 3);

/* Whether @text has the form of a duration (1d2h, 90) that the parser refused:
 * then it is longer than the ten years a duration may have. */

/* Option values are read as G_OPTION_ARG_FILENAME (GOption would convert them
 * from the locale's character set, which fails in the C locale) and made UTF-8
 * here: kept when valid, converted from a legacy locale's character set, else
 * refused naming @option. @value may point to %NULL. */
gboolean  triage_ask_value_to_utf8         (const char  *option,
                                            char       **value,
                                            GError     **error);

/* Writes @length bytes of JSON text (lines of it) on standard output with DEL,
 * the C1 controls, U+2028 and U+2029 escaped (\u0085): a person's words cannot
 * drive a terminal, and a reader splitting on every Unicode line break sees
 * the lines there are. FALSE, errno set, when it could not be written. */
gboolean  triage_ask_write_json_text       (const char  *text,
                                            gsize        length);

/* An action of the notification as the options build it (triage-ask-actions.c). */
typedef struct
{
  char       *id;
  char       *type;
  JsonObject *object;     /* the action as it is built */
  char       *label_spec; /* the --label that set the label, or NULL */
} TriageAskAction;

void      triage_ask_action_free           (TriageAskAction *action);
/* --action ID:TYPE[:FLAG...], added to @actions and @by_id (id → action). */
gboolean  triage_ask_action_add            (GPtrArray   *actions,
                                            GHashTable  *by_id,
                                            const char  *spec,
                                            GError     **error);
/* --label ID=TEXT */
gboolean  triage_ask_action_set_label      (GHashTable  *by_id,
                                            const char  *spec,
                                            GError     **error);
/* --option ID=VALUE[:LABEL] */
gboolean  triage_ask_action_add_option     (GHashTable  *by_id,
                                            const char  *spec,
                                            GError     **error);
/* --constraint ID.NAME=VALUE */
gboolean  triage_ask_action_set_constraint (GHashTable  *by_id,
                                            const char  *spec,
                                            GError     **error);
/* --metadata KEY=VALUE|KEY:=JSON, into @context's metadata. */
gboolean  triage_ask_add_metadata          (JsonObject  *context,
                                            const char  *spec,
                                            GError     **error);
/* --attach FILE, into @context's attachments. */
gboolean  triage_ask_add_attachment        (JsonObject  *context,
                                            const char  *path,
                                            GError     **error);

G_END_DECLS
