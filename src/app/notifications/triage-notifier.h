/* triage-notifier.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "atp.h"
#include "triage-bubble-body.h"
#include "triage-protocol.h"

G_BEGIN_DECLS

/* The notification category (a vendor category, as the spec asks for). */
#define TRIAGE_NOTIFIER_CATEGORY "x-triage.request"
/* The category of the app's notices about itself, and the prefix of their ids. */
#define TRIAGE_NOTIFIER_NOTICE_CATEGORY "x-triage.notice"
#define TRIAGE_NOTIFIER_NOTICE_PREFIX   "notice:"

/* Longest description shown in a bubble, in characters (in the lines a
 * bubble has: triage-bubble-body.h). */
#define TRIAGE_NOTIFIER_MAX_BODY TRIAGE_BUBBLE_MAX_BODY
/* Longest text a settled request's bubble says (what became of it, and the
 * reason its service or server gave), in characters. */
#define TRIAGE_NOTIFIER_MAX_SETTLED_BODY (2 * TRIAGE_NOTIFIER_MAX_BODY)

/* Largest inline service icon accepted, encoded. */
#define TRIAGE_NOTIFIER_MAX_ICON_SIZE (256 * 1024)

/* Action keys of a bubble. */
#define TRIAGE_NOTIFIER_ACTION_DEFAULT "default"
#define TRIAGE_NOTIFIER_ACTION_OPEN    "open"
#define TRIAGE_NOTIFIER_ACTION_RESPOND "respond:"   /* followed by a TriageBubbleAnswer key */

#define TRIAGE_TYPE_NOTIFIER (triage_notifier_get_type ())

G_DECLARE_FINAL_TYPE (TriageNotifier, triage_notifier, TRIAGE, NOTIFIER, GObject)

TriageNotifier *triage_notifier_new                (const char      *app_name,
                                                    const char      *desktop_entry);
void            triage_notifier_show               (TriageNotifier  *self,
                                                    AtpNotification *notification,
                                                    gboolean         urgent);
void            triage_notifier_show_notice        (TriageNotifier  *self,
                                                    const char      *key,
                                                    const char      *summary,
                                                    const char      *body);
void            triage_notifier_settle             (TriageNotifier  *self,
                                                    const char      *notification_id,
                                                    const char      *outcome);
void            triage_notifier_withdraw           (TriageNotifier  *self,
                                                    const char      *notification_id);
guint           triage_notifier_get_n_shown        (TriageNotifier  *self);

char           *triage_notifier_dup_summary        (AtpNotification *notification);
char           *triage_notifier_dup_body           (AtpNotification *notification);
GBytes         *triage_notifier_decode_icon        (const char      *icon,
                                                    char           **mime_type,
                                                    GError         **error);

G_END_DECLS
