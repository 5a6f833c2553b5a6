/* triage-notifier-private.h — the notifier's helpers, shared by its files
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gdk-pixbuf/gdk-pixbuf.h>

#include "triage-notifier.h"

G_BEGIN_DECLS

/* What the notification server does ("body-markup", "actions") */
typedef struct
{
  gboolean reads_markup;
  gboolean shows_buttons;
} TriageNotifierServerCaps;

/* triage-notifier-content.c */
TriageNotifierServerCaps triage_notifier_get_server_caps (void);
char      *triage_notifier_dup_server_body (const TriageNotifierServerCaps *caps,
                                            const char                     *text,
                                            gboolean                        request);
char      *triage_notifier_escape_body     (const char      *text);
char      *triage_notifier_dup_bubble_text (const char      *text);
char      *triage_notifier_dup_plain_body  (AtpNotification *notification);
GdkPixbuf *triage_notifier_load_icon       (GBytes          *bytes,
                                            const char      *type,
                                            GError         **error);

/* triage-notifier-shown.c: the bubbles up (main thread) */
typedef void (*TriageNotifierDeadlineFunc) (gpointer    owner,
                                            const char *id);

GHashTable *triage_notifier_shown_new             (void);
void        triage_notifier_shown_add             (GHashTable                *shown_table,
                                                   const char                *id,
                                                   GDateTime                 *deadline,
                                                   TriageNotifierDeadlineFunc func,
                                                   gpointer                   owner);
gboolean    triage_notifier_shown_past_deadline   (GHashTable                *shown_table,
                                                   const char                *id);
gboolean    triage_notifier_shown_forget_deadline (GHashTable                *shown_table,
                                                   const char                *id);

G_END_DECLS
