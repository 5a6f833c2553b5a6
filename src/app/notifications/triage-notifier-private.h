/* triage-notifier-private.h — the notifier's helpers, shared by its files
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gdk-pixbuf/gdk-pixbuf.h>

#include "triage-notifier.h"

G_BEGIN_DECLS

/* triage-notifier-content.c */
char      *triage_notifier_escape_body     (const char      *text);
char      *triage_notifier_dup_bubble_text (const char      *text);
char      *triage_notifier_dup_plain_body  (AtpNotification *notification);
GdkPixbuf *triage_notifier_load_icon       (GBytes          *bytes,
                                            const char      *type,
                                            GError         **error);

G_END_DECLS
