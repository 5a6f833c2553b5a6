/* triage-tray.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "triage-tray-item.h"

G_BEGIN_DECLS

/* Themed icons (adwaita-icon-theme) for the three states, the do-not-disturb overlay
 * and a problem. */
#define TRIAGE_TRAY_ICON_IDLE    "mail-read-symbolic"
#define TRIAGE_TRAY_ICON_PENDING "mail-unread-symbolic"
#define TRIAGE_TRAY_ICON_URGENT  "mail-mark-important-symbolic"
#define TRIAGE_TRAY_ICON_DND     "notifications-disabled-symbolic"
/* Requests cannot arrive until the person fixes something. */
#define TRIAGE_TRAY_ICON_PROBLEM "network-error-symbolic"

/* Requests listed in the menu; the rest are summed up in one "N more…" item. */
#define TRIAGE_TRAY_MAX_MENU_REQUESTS 10

/* D-Bus paths of the exported objects. */
#define TRIAGE_TRAY_ITEM_PATH "/StatusNotifierItem"
#define TRIAGE_TRAY_MENU_PATH "/MenuBar"

#define TRIAGE_TYPE_TRAY (triage_tray_get_type ())

G_DECLARE_FINAL_TYPE (TriageTray, triage_tray, TRIAGE, TRAY, GObject)

TriageTray *triage_tray_new                 (GDBusConnection *connection,
                                             GActionGroup    *actions);
void        triage_tray_set_pending         (TriageTray      *self,
                                             guint            count,
                                             gboolean         urgent,
                                             GPtrArray       *items);
void        triage_tray_set_problem         (TriageTray      *self,
                                             const char      *problem,
                                             const char      *detail);
void        triage_tray_set_do_not_disturb  (TriageTray      *self,
                                             gboolean         do_not_disturb);
gboolean    triage_tray_get_do_not_disturb  (TriageTray      *self);
gboolean    triage_tray_get_registered      (TriageTray      *self);
const char *triage_tray_get_bus_name        (TriageTray      *self);

G_END_DECLS
