/* triage-tray-private.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "triage-day-clock.h"
#include "triage-tray.h"

G_BEGIN_DECLS

/*
 * TriageTray spans four files: triage-tray.c (the object, its actions and
 * its registration with the watcher), triage-tray-sni.c (the
 * org.kde.StatusNotifierItem interface), triage-tray-menu.c (the menu it
 * builds and serves over com.canonical.dbusmenu) and triage-tray-dbus.c
 * (what those two interfaces share to be served over GDBus).
 */

typedef struct _TriageTrayInterface TriageTrayInterface;

/* One exported interface: the vtable's user data. */
typedef struct
{
  TriageTray                *tray;
  const TriageTrayInterface *iface;
  GDBusNodeInfo             *info;
  guint                      registration_id;
} TriageTrayExport;

struct _TriageTray
{
  GObject          parent_instance;

  GDBusConnection *connection;
  GActionGroup    *actions;

  char            *bus_name;
  TriageTrayExport item_export;
  TriageTrayExport menu_export;
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
  TriageDayClock  *day_clock;          /* the app's, from the first deadline listed */

  /* requests cannot arrive: what to say (NULL while all is well), and why */
  char            *problem;
  char            *problem_detail;

  /* the menu as last built */
  GArray          *menu;               /* MenuItem */
  guint            revision;
  GHashTable      *request_menu_ids;   /* request id → menu item id, stable across rebuilds */
  int              next_request_id;
};

/* triage-tray-dbus.c */
typedef void      (*TriageTrayMethod)      (TriageTray            *self,
                                            GVariant              *parameters,
                                            GDBusMethodInvocation *invocation);
/* Returns NULL for a property the interface does not have. */
typedef GVariant *(*TriageTrayGetProperty) (TriageTray            *self,
                                            const char            *property_name);

typedef struct
{
  const char       *name;
  TriageTrayMethod  call;
} TriageTrayMethodEntry;

struct _TriageTrayInterface
{
  const char                  *name;
  const char                  *path;
  const char                  *xml;           /* introspection data: this interface alone */
  const TriageTrayMethodEntry *methods;       /* up to an entry without name */
  TriageTrayGetProperty        get_property;
};

gboolean            triage_tray_dbus_export         (TriageTray                 *self,
                                                     TriageTrayExport           *export,
                                                     const TriageTrayInterface  *iface,
                                                     GError                    **error);
void                triage_tray_dbus_unexport       (TriageTray                 *self,
                                                     TriageTrayExport           *export);
void                triage_tray_dbus_emit           (TriageTray                 *self,
                                                     const TriageTrayInterface  *iface,
                                                     const char                 *signal,
                                                     GVariant                   *parameters);

/* triage-tray.c */
gboolean            triage_tray_action_available    (TriageTray  *self,
                                                     const char  *action);
void                triage_tray_activate_after_reply (TriageTray *self,
                                                     const char  *action,
                                                     GVariant    *parameter);

/* triage-tray-sni.c */
extern const TriageTrayInterface triage_tray_sni_interface;

const char         *triage_tray_sni_get_status      (TriageTray  *self);
const char         *triage_tray_sni_get_icon_name   (TriageTray  *self);
char               *triage_tray_sni_get_tooltip     (TriageTray  *self);
const char         *triage_tray_sni_get_title       (TriageTray  *self);

/* triage-tray-menu.c */
extern const TriageTrayInterface triage_tray_menu_interface;

void                triage_tray_menu_init           (TriageTray  *self);
void                triage_tray_menu_rebuild        (TriageTray  *self);
void                triage_tray_menu_changed        (TriageTray  *self);

G_END_DECLS
