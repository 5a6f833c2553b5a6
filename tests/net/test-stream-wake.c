/* test-stream-wake.c — AtpStream waking up with the machine (logind's PrepareForSleep)
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <signal.h>
#include <sys/prctl.h>

#include "stream-test-common.h"

/* Waking up. A bus of the test's own stands in for the system bus (started in
 * main(), before anything asks for the system bus), and the test plays logind
 * on it. */

static void
die_with_parent (gpointer data)
{
  prctl (PR_SET_PDEATHSIG, SIGKILL);
}

GSubprocess *
stream_test_start_fake_system_bus (void)
{
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  g_autoptr(GDataInputStream) output = NULL;
  g_autofree char *address = NULL;
  g_autoptr(GError) error = NULL;
  GSubprocess *daemon;

  g_subprocess_launcher_set_child_setup (launcher, die_with_parent, NULL, NULL);
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

static void
emit_prepare_for_sleep (GDBusConnection *logind,
                        gboolean         sleeping)
{
  g_autoptr(GError) error = NULL;

  g_dbus_connection_emit_signal (logind, NULL, "/org/freedesktop/login1",
                                 "org.freedesktop.login1.Manager", "PrepareForSleep",
                                 g_variant_new ("(b)", sleeping), &error);
  g_assert_no_error (error);
}

static gboolean
emit_wake_cb (gpointer data)
{
  emit_prepare_for_sleep (data, FALSE);
  return G_SOURCE_CONTINUE;
}

/* Counts the PrepareForSleep(true) signals heard on this process's system bus
 * connection, the one the stream listens on. Signal callbacks run in the
 * order the signals arrived, so once this one has heard a signal, the stream
 * has handled every signal sent before it. */
static void
on_sleep_heard (GDBusConnection *bus,
                const char      *sender,
                const char      *path,
                const char      *interface,
                const char      *signal,
                GVariant        *parameters,
                gpointer         user_data)
{
  gboolean sleeping = FALSE;

  g_variant_get (parameters, "(b)", &sleeping);
  if (sleeping)
    (*(guint *) user_data)++;
}

/* Sends PrepareForSleep(true) and waits until the stream has handled it and
 * everything sent before it. */
static void
sleep_and_wait_heard (GDBusConnection *logind,
                      guint           *heard)
{
  guint before = *heard;

  emit_prepare_for_sleep (logind, TRUE);
  net_test_wait_until (*heard == before + 1, "PrepareForSleep(true) to be heard");
}

static void
test_wake_reconnects (StreamFixture *fixture,
                      gconstpointer  data)
{
  g_autoptr(GDBusConnection) logind = NULL;
  g_autoptr(GDBusConnection) system = NULL;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GError) error = NULL;
  guint waking, subscription, sleeps_heard = 0;
  guint before;

  logind = g_dbus_connection_new_for_address_sync (g_getenv ("DBUS_SYSTEM_BUS_ADDRESS"),
                                                   G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT |
                                                   G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION,
                                                   NULL, NULL, &error);
  g_assert_no_error (error);
  reply = g_dbus_connection_call_sync (logind, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                       "org.freedesktop.DBus", "RequestName",
                                       g_variant_new ("(su)", "org.freedesktop.login1", 4),
                                       G_VARIANT_TYPE ("(u)"), G_DBUS_CALL_FLAGS_NONE, -1, NULL, &error);
  g_assert_no_error (error);

  /* This fixture's stream watches the system. */
  atp_stream_stop (fixture->stream);
  g_assert_finalize_object (fixture->stream);
  fixture->stream = stream_test_new_stream (fixture, fixture->net.user, TRUE);
  atp_stream_start (fixture->stream);
  stream_test_wait_state (fixture, ATP_STREAM_STATE_CONNECTED);
  g_assert_cmpuint (fixture->connecting, ==, 1);

  /* The same connection as the stream's (the process's shared one). */
  system = g_bus_get_sync (G_BUS_TYPE_SYSTEM, NULL, &error);
  g_assert_no_error (error);
  subscription = g_dbus_connection_signal_subscribe (system, "org.freedesktop.login1",
                                                     "org.freedesktop.login1.Manager",
                                                     "PrepareForSleep", "/org/freedesktop/login1",
                                                     NULL, G_DBUS_SIGNAL_FLAGS_NONE, on_sleep_heard,
                                                     &sleeps_heard, NULL);

  /* It finds the system bus on its own time: wake until it hears, and it
   * connects anew, though its connection looked fine. Wakes sent meanwhile
   * may still be on their way: they are handled before the sleep signal that
   * follows them. */
  waking = g_timeout_add (100, emit_wake_cb, logind);
  net_test_wait_until (fixture->connecting >= 2, "a reconnect after waking up");
  g_source_remove (waking);
  sleep_and_wait_heard (logind, &sleeps_heard);
  stream_test_wait_state (fixture, ATP_STREAM_STATE_CONNECTED);

  /* Going to sleep changes nothing; waking up reconnects at once. */
  before = fixture->connecting;
  sleep_and_wait_heard (logind, &sleeps_heard);
  g_assert_cmpuint (fixture->connecting, ==, before);
  g_assert_cmpint (atp_stream_get_state (fixture->stream), ==, ATP_STREAM_STATE_CONNECTED);
  emit_prepare_for_sleep (logind, FALSE);
  net_test_wait_until (fixture->connecting == before + 1, "a reconnect after the second wake");
  stream_test_wait_state (fixture, ATP_STREAM_STATE_CONNECTED);
  g_dbus_connection_signal_unsubscribe (system, subscription);
}

void
stream_test_add_wake (void)
{
  STREAM_TEST_ADD ("/stream/wake-reconnects", NULL, test_wake_reconnects);
}
