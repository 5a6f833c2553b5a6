/* bench-notifyd.c — the notification server of bench-app
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The app's bubbles go to this server, on the benchmark's session bus: it
 * answers Notify like a desktop's and takes the time each bubble arrives, on
 * GDBus's worker thread, and counts the bubbles closed or replaced.
 */

#include "bench-notifyd.h"

static const char notify_xml[] =
  "<node>"
  "  <interface name='org.freedesktop.Notifications'>"
  "    <method name='GetCapabilities'><arg type='as' direction='out'/></method>"
  "    <method name='Notify'>"
  "      <arg type='s' direction='in'/><arg type='u' direction='in'/>"
  "      <arg type='s' direction='in'/><arg type='s' direction='in'/>"
  "      <arg type='s' direction='in'/><arg type='as' direction='in'/>"
  "      <arg type='a{sv}' direction='in'/><arg type='i' direction='in'/>"
  "      <arg type='u' direction='out'/>"
  "    </method>"
  "    <method name='CloseNotification'><arg type='u' direction='in'/></method>"
  "    <method name='GetServerInformation'>"
  "      <arg type='s' direction='out'/><arg type='s' direction='out'/>"
  "      <arg type='s' direction='out'/><arg type='s' direction='out'/>"
  "    </method>"
  "    <signal name='NotificationClosed'><arg type='u'/><arg type='u'/></signal>"
  "    <signal name='ActionInvoked'><arg type='u'/><arg type='s'/></signal>"
  "  </interface>"
  "</node>";

typedef struct
{
  GMutex      lock;
  GHashTable *arrivals;     /* summary -> gint64* monotonic time its Notify arrived */
  guint       closes;       /* bubbles closed, or replaced by what became of their request */
  guint       next_id;
  gboolean    owned;
} BenchNotifyd;

static BenchNotifyd bench;

static void
on_method_call (GDBusConnection       *connection,
                const char            *sender,
                const char            *path,
                const char            *interface,
                const char            *method,
                GVariant              *parameters,
                GDBusMethodInvocation *invocation,
                gpointer               user_data)
{
  if (g_str_equal (method, "Notify"))
    g_dbus_method_invocation_return_value (invocation, g_variant_new ("(u)", ++bench.next_id));
  else if (g_str_equal (method, "GetCapabilities"))
    {
      const char *caps[] = { "actions", "body", "body-markup", NULL };

      g_dbus_method_invocation_return_value (invocation, g_variant_new ("(^as)", caps));
    }
  else if (g_str_equal (method, "GetServerInformation"))
    g_dbus_method_invocation_return_value (invocation,
                                           g_variant_new ("(ssss)", "bench", "triage", "1", "1.2"));
  else
    g_dbus_method_invocation_return_value (invocation, NULL);
}

static const GDBusInterfaceVTable vtable = { on_method_call, NULL, NULL, { 0 } };

/* Runs on GDBus's worker thread as each message arrives: the arrival time is
 * taken there, not when the main loop gets round to dispatching the call. */
static GDBusMessage *
arrival_filter (GDBusConnection *connection,
                GDBusMessage    *message,
                gboolean         incoming,
                gpointer         user_data)
{
  GVariant *body;
  const char *summary = NULL;
  guint32 replaces = 0;

  if (incoming &&
      g_dbus_message_get_message_type (message) == G_DBUS_MESSAGE_TYPE_METHOD_CALL &&
      g_strcmp0 (g_dbus_message_get_member (message), "CloseNotification") == 0)
    {
      g_mutex_lock (&bench.lock);
      bench.closes++;
      g_mutex_unlock (&bench.lock);
      return message;
    }

  if (!incoming ||
      g_dbus_message_get_message_type (message) != G_DBUS_MESSAGE_TYPE_METHOD_CALL ||
      g_strcmp0 (g_dbus_message_get_member (message), "Notify") != 0 ||
      (body = g_dbus_message_get_body (message)) == NULL ||
      !g_variant_is_of_type (body, G_VARIANT_TYPE ("(susssasa{sv}i)")))
    return message;

  /* A Notify that replaces a bubble: the app saying what became of a request. */
  g_variant_get_child (body, 1, "u", &replaces);
  if (replaces != 0)
    {
      g_mutex_lock (&bench.lock);
      bench.closes++;
      g_mutex_unlock (&bench.lock);
      return message;
    }

  g_variant_get_child (body, 3, "&s", &summary);
  g_mutex_lock (&bench.lock);
  if (!g_hash_table_contains (bench.arrivals, summary))
    {
      gint64 *now = g_new (gint64, 1);

      *now = g_get_monotonic_time ();
      g_hash_table_insert (bench.arrivals, g_strdup (summary), now);
    }
  g_mutex_unlock (&bench.lock);

  return message;
}

gint64
bench_notifyd_arrival_of (const char *summary)
{
  gint64 *time;
  gint64 result;

  g_mutex_lock (&bench.lock);
  time = g_hash_table_lookup (bench.arrivals, summary);
  result = time ? *time : 0;
  g_mutex_unlock (&bench.lock);

  return result;
}

static void
on_bus_acquired (GDBusConnection *connection,
                 const char      *name,
                 gpointer         user_data)
{
  g_autoptr(GDBusNodeInfo) info = g_dbus_node_info_new_for_xml (notify_xml, NULL);

  g_dbus_connection_register_object (connection, "/org/freedesktop/Notifications",
                                     info->interfaces[0], &vtable, NULL, NULL, NULL);
}

static void
on_name_acquired (GDBusConnection *connection,
                  const char      *name,
                  gpointer         user_data)
{
  bench.owned = TRUE;
}

static void
on_name_lost (GDBusConnection *connection,
              const char      *name,
              gpointer         user_data)
{
  if (!bench.owned)
    g_error ("Could not own %s: is another notification server running on this bus?", name);
}

guint
bench_notifyd_get_closes (void)
{
  guint closes;

  g_mutex_lock (&bench.lock);
  closes = bench.closes;
  g_mutex_unlock (&bench.lock);

  return closes;
}

gboolean
bench_notifyd_closed_at_least (gpointer data)
{
  return bench_notifyd_get_closes () >= GPOINTER_TO_UINT (data);
}

gboolean
bench_notifyd_notified (gpointer data)
{
  return bench_notifyd_arrival_of (data) != 0;
}

gboolean
bench_notifyd_owned (gpointer data)
{
  return bench.owned;
}

/* Answers as org.freedesktop.Notifications on @bus, taking the time of each
 * Notify as it arrives; bench_notifyd_owned() says when the name is its. */
void
bench_notifyd_start (GDBusConnection *bus)
{
  bench.arrivals = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_dbus_connection_add_filter (bus, arrival_filter, NULL, NULL);
  on_bus_acquired (bus, NULL, NULL);
  g_bus_own_name_on_connection (bus, "org.freedesktop.Notifications",
                                G_BUS_NAME_OWNER_FLAGS_REPLACE, on_name_acquired,
                                on_name_lost, NULL, NULL);
}

void
bench_notifyd_stop (void)
{
  g_clear_pointer (&bench.arrivals, g_hash_table_unref);
}
