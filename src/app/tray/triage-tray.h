/* triage-tray.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* Themed icons (adwaita-icon-theme) for the three states, and the do-not-disturb overlay. */
#define TRIAGE_TRAY_ICON_IDLE    "mail-read-symbolic"
#define TRIAGE_TRAY_ICON_PENDING "mail-unread-symbolic"
#define TRIAGE_TRAY_ICON_URGENT  "mail-mark-important-symbolic"
#define TRIAGE_TRAY_ICON_DND     "notifications-disabled-symbolic"

/* Requests listed in the menu; the rest are summed up in one "N more…" item. */
#define TRIAGE_TRAY_MAX_MENU_REQUESTS 10

/* D-Bus paths of the exported objects. */
#define TRIAGE_TRAY_ITEM_PATH "/StatusNotifierItem"
#define TRIAGE_TRAY_MENU_PATH "/MenuBar"

/**
 * TriageTrayItem:
 * @id: the notification id, the parameter of the `open-request` action
 * @title: the request's title (untrusted; the tray makes it safe for a menu label)
 * @deadline: (nullable): its deadline
 *
 * A pending request as listed in the tray menu.
 */
typedef struct
{
  char      *id;
  char      *title;
  GDateTime *deadline;
} TriageTrayItem;

#define TRIAGE_TYPE_TRAY_ITEM (triage_tray_item_get_type ())

GType           triage_tray_item_get_type (void) G_GNUC_CONST;
TriageTrayItem *triage_tray_item_new      (const char           *id,
                                           const char           *title,
                                           GDateTime            *deadline);
TriageTrayItem *triage_tray_item_copy     (const TriageTrayItem *item);
void            triage_tray_item_free     (TriageTrayItem       *item);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TriageTrayItem, triage_tray_item_free)

#define TRIAGE_TYPE_TRAY (triage_tray_get_type ())

G_DECLARE_FINAL_TYPE (TriageTray, triage_tray, TRIAGE, TRAY, GObject)

TriageTray *triage_tray_new                 (GDBusConnection *connection,
                                             GActionGroup    *actions);
void        triage_tray_set_pending         (TriageTray      *self,
                                             guint            count,
                                             gboolean         urgent,
                                             GPtrArray       *items);
void        triage_tray_set_do_not_disturb  (TriageTray      *self,
                                             gboolean         do_not_disturb);
gboolean    triage_tray_get_do_not_disturb  (TriageTray      *self);
gboolean    triage_tray_get_registered      (TriageTray      *self);
const char *triage_tray_get_bus_name        (TriageTray      *self);

G_END_DECLS
