/* triage-test-logind.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "triage-test-logind.h"

#define LOGIND_NAME      "org.freedesktop.login1"
#define LOGIND_PATH      "/org/freedesktop/login1"
#define LOGIND_INTERFACE "org.freedesktop.login1.Manager"

GSubprocess *
triage_test_logind_start_bus (void)
{
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  g_autoptr(GDataInputStream) output = NULL;
  g_autofree char *address = NULL;
  g_autoptr(GError) error = NULL;
  GSubprocess *daemon;

  g_subprocess_launcher_set_child_setup (launcher, triage_test_die_with_parent, NULL, NULL);
  daemon = g_subprocess_launcher_spawn (launcher, &error, "dbus-daemon", "--session", "--nofork",
                                        "--nopidfile", "--print-address=1", NULL);
  g_assert_no_error (error);
  output = g_data_input_stream_new (g_subprocess_get_stdout_pipe (daemon));
  address = g_data_input_stream_read_line (output, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (address);
  g_setenv ("DBUS_SYSTEM_BUS_ADDRESS", address, TRUE);

  return daemon;
}

GDBusConnection *
triage_test_logind_new (void)
{
  g_autoptr(GDBusConnection) logind = NULL;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GError) error = NULL;
  guint32 owned;

  logind = g_dbus_connection_new_for_address_sync (g_getenv ("DBUS_SYSTEM_BUS_ADDRESS"),
                                                   G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT |
                                                   G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION,
                                                   NULL, NULL, &error);
  g_assert_no_error (error);
  /* The test's own bus answers at once: a synchronous call is fine. */
  reply = g_dbus_connection_call_sync (logind, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                       "org.freedesktop.DBus", "RequestName",
                                       g_variant_new ("(su)", LOGIND_NAME,
                                                      G_BUS_NAME_OWNER_FLAGS_DO_NOT_QUEUE),
                                       G_VARIANT_TYPE ("(u)"), G_DBUS_CALL_FLAGS_NONE, -1, NULL,
                                       &error);
  g_assert_no_error (error);
  g_variant_get (reply, "(u)", &owned);
  g_assert_cmpuint (owned, ==, 1);   /* the primary owner */

  return g_steal_pointer (&logind);
}

void
triage_test_logind_prepare_for_sleep (GDBusConnection *logind,
                                      gboolean         going_to_sleep)
{
  g_autoptr(GError) error = NULL;

  g_dbus_connection_emit_signal (logind, NULL, LOGIND_PATH, LOGIND_INTERFACE, "PrepareForSleep",
                                 g_variant_new ("(b)", going_to_sleep), &error);
  g_assert_no_error (error);
}

gboolean
triage_test_logind_wake_cb (gpointer logind)
{
  triage_test_logind_prepare_for_sleep (logind, FALSE);

  return G_SOURCE_CONTINUE;
}

/* Counts the PrepareForSleep(true) heard, from any sender: no name to look
 * up before it hears. GDBus hands a signal to all the subscriptions it
 * matches before it reads the next, and the main context calls them in that
 * order: once this one heard, every listener of this connection has handled
 * the signals sent before (once its own subscription let logind's in). */
static void
on_sleep_heard (GDBusConnection *bus,
                const char      *sender,
                const char      *path,
                const char      *interface,
                const char      *signal,
                GVariant        *parameters,
                gpointer         data)
{
  gboolean going_to_sleep = FALSE;

  if (!g_variant_is_of_type (parameters, G_VARIANT_TYPE ("(b)")))
    return;

  g_variant_get (parameters, "(b)", &going_to_sleep);
  if (going_to_sleep)
    (*(guint *) data)++;
}

void
triage_test_logind_sleep_and_wait (GDBusConnection *logind)
{
  g_autoptr(GDBusConnection) system = NULL;
  g_autoptr(GError) error = NULL;
  guint heard = 0;
  guint subscription;

  /* The process's shared connection, the one the monitor listens on. */
  system = g_bus_get_sync (G_BUS_TYPE_SYSTEM, NULL, &error);
  g_assert_no_error (error);
  subscription = g_dbus_connection_signal_subscribe (system, NULL, LOGIND_INTERFACE,
                                                     "PrepareForSleep", LOGIND_PATH, NULL,
                                                     G_DBUS_SIGNAL_FLAGS_NONE, on_sleep_heard,
                                                     &heard, NULL);
  triage_test_logind_prepare_for_sleep (logind, TRUE);
  triage_test_wait_until (heard == 1, "PrepareForSleep(true) to be heard");
  g_dbus_connection_signal_unsubscribe (system, subscription);
}
