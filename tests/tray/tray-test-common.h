/* tray-test-common.h — what the parts of test-tray share
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The tray item on a private bus (a dbus-daemon of its own), seen from a second connection
 * that plays the StatusNotifierWatcher and the tray host.
 */

#pragma once

#include "triage-tray.h"

G_BEGIN_DECLS

#define WATCHER_NAME   "org.kde.StatusNotifierWatcher"
#define WATCHER_PATH   "/StatusNotifierWatcher"
#define ITEM_INTERFACE "org.kde.StatusNotifierItem"
#define MENU_INTERFACE "com.canonical.dbusmenu"

typedef struct
{
  GSubprocess        *bus;               /* a private dbus-daemon */
  char               *bus_address;
  GDBusConnection    *item_connection;   /* the application's */
  GDBusConnection    *peer;              /* the watcher's and host's */
  GSimpleActionGroup *actions;
  GPtrArray          *activations;       /* "show", "open-request:ID", … */
  TriageTray         *tray;

  /* the fake watcher */
  GDBusNodeInfo      *watcher_info;
  guint               watcher_object_id;
  guint               watcher_name_id;
  gboolean            watcher_owned;
  GPtrArray          *registrations;     /* service strings received */
  char               *last_sender;

  /* signals seen by the host */
  guint               item_signal_id;
  guint               menu_signal_id;
  GPtrArray          *signals;           /* "NewStatus:Active", "NewIcon", "LayoutUpdated:REV" */
  guint               registered_notifies;
} Fixture;

gboolean tray_test_watchdog_cb (gpointer user_data);
gboolean tray_test_tick_cb     (gpointer user_data);

/* Polls @condition, waking up at least every 10 ms, for at most 30 s (as the
 * other tests wait: a loaded machine can take seconds for a D-Bus round trip). */
#define WAIT_UNTIL(condition) \
  G_STMT_START { \
    guint _watchdog = g_timeout_add_seconds (30, tray_test_watchdog_cb, (gpointer) #condition); \
    guint _tick = g_timeout_add (10, tray_test_tick_cb, NULL); \
    while (!(condition)) \
      g_main_context_iteration (NULL, TRUE); \
    g_source_remove (_tick); \
    g_source_remove (_watchdog); \
  } G_STMT_END

/* Calls the item from the peer; both live in this thread, so the call must be async. */
GVariant   *tray_test_call              (Fixture            *fixture,
                                         const char         *path,
                                         const char         *interface,
                                         const char         *method,
                                         GVariant           *parameters,
                                         const GVariantType *reply_type,
                                         GError            **error);
GVariant   *tray_test_get_item_property (Fixture    *fixture,
                                         const char *name);
char       *tray_test_get_item_string   (Fixture    *fixture,
                                         const char *name);
char       *tray_test_get_tooltip_body  (Fixture    *fixture);
gboolean    tray_test_has_signal        (Fixture    *fixture,
                                         const char *entry);
guint       tray_test_count_signals     (Fixture    *fixture,
                                         const char *prefix);
/* Round trip through the item, so every signal it sent before has arrived. */
void        tray_test_sync_with_item    (Fixture    *fixture);
gboolean    tray_test_has_activation    (Fixture    *fixture,
                                         const char *entry);
void        tray_test_start_watcher     (Fixture    *fixture);
void        tray_test_stop_watcher      (Fixture    *fixture);
void        tray_test_setup             (Fixture       *fixture,
                                         gconstpointer  data);
TriageTray *tray_test_create_tray       (Fixture    *fixture);
gboolean    tray_test_item_name_owned   (Fixture    *fixture);
void        tray_test_teardown          (Fixture       *fixture,
                                         gconstpointer  data);
GPtrArray  *tray_test_make_items        (guint       n);

#define TRAY_TEST_ADD(path, func) \
  g_test_add (path, Fixture, NULL, tray_test_setup, func, tray_test_teardown)

/* test-tray-menu.c adds its tests; main() calls it after its own, so the test
 * paths and their order stay as they were in one file. */
void tray_test_add_menu (void);

G_END_DECLS
