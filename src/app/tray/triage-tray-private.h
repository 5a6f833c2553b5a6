/* triage-tray-private.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "triage-tray.h"

G_BEGIN_DECLS

/*
 * TriageTray spans two files: triage-tray.c (the object, the
 * StatusNotifierItem and its registration with the watcher) and
 * triage-tray-menu.c (the menu it builds and serves over
 * com.canonical.dbusmenu).
 */

struct _TriageTray
{
  GObject          parent_instance;

  GDBusConnection *connection;
  GActionGroup    *actions;

  char            *bus_name;
  guint            item_registration_id;
  guint            menu_registration_id;
  guint            own_name_id;
  guint            watch_name_id;
  char            *watcher_owner;      /* unique name of the watcher, when present */
  GCancellable    *register_cancellable;
  guint            name_owned : 1;
  guint            registered : 1;
  guint            do_not_disturb : 1;
  guint            urgent : 1;

  guint            count;
  GPtrArray       *items;              /* TriageTrayItem */

  /* the menu as last built */
  GArray          *menu;               /* MenuItem */
  guint            revision;
  GHashTable      *request_menu_ids;   /* request id → menu item id, stable across rebuilds */
  int              next_request_id;
};

/* triage-tray.c */
gboolean            triage_tray_action_available    (TriageTray  *self,
                                                     const char  *action);
void                triage_tray_activate_after_reply (TriageTray *self,
                                                     const char  *action,
                                                     GVariant    *parameter);

/* triage-tray-menu.c */
void                triage_tray_menu_init           (TriageTray  *self);
void                triage_tray_menu_rebuild        (TriageTray  *self);
void                triage_tray_menu_changed        (TriageTray  *self);
guint               triage_tray_menu_export         (TriageTray  *self,
                                                     GError     **error);

G_END_DECLS
