/* atp-sleep-monitor.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "atp-sleep-monitor"

#include "atp-sleep-monitor.h"

/*
 * The parts that a sleep leaves stale (a WebSocket dead without knowing
 * it, a timer on the monotonic clock, which stopped, the day shown) each
 * subscribed to logind on their own. One subscription now, on the system
 * bus got asynchronously, shared while any part holds the monitor.
 */

#define LOGIND_NAME      "org.freedesktop.login1"
#define LOGIND_PATH      "/org/freedesktop/login1"
#define LOGIND_INTERFACE "org.freedesktop.login1.Manager"

struct _AtpSleepMonitor
{
  GObject          parent_instance;

  GCancellable    *cancellable;
  GDBusConnection *system_bus;
  guint            subscription;
};

G_DEFINE_FINAL_TYPE (AtpSleepMonitor, atp_sleep_monitor, G_TYPE_OBJECT)

enum {
  WOKE,
  N_SIGNALS
};

static guint signals [N_SIGNALS];

static void
on_prepare_for_sleep (GDBusConnection *bus,
                      const char      *sender,
                      const char      *path,
                      const char      *interface,
                      const char      *signal,
                      GVariant        *parameters,
                      gpointer         data)
{
  AtpSleepMonitor *self = data;
  gboolean going_to_sleep = FALSE;

  if (!g_variant_is_of_type (parameters, G_VARIANT_TYPE ("(b)")))
    return;

  g_variant_get (parameters, "(b)", &going_to_sleep);
  if (going_to_sleep)
    return;

  g_debug ("The machine woke from sleep");
  g_signal_emit (self, signals [WOKE], 0);
}

static void
got_system_bus_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      data)
{
  g_autoptr(AtpSleepMonitor) self = data;
  g_autoptr(GError) error = NULL;

  self->system_bus = g_bus_get_finish (result, &error);
  if (self->system_bus == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_debug ("No system bus, so no word of waking from sleep: %s", error->message);
      return;
    }

  /* Unsubscribed in dispose, on this thread: GDBus calls no callback of a
   * subscription gone, so @self needs no reference of its own. */
  self->subscription =
    g_dbus_connection_signal_subscribe (self->system_bus, LOGIND_NAME, LOGIND_INTERFACE,
                                        "PrepareForSleep", LOGIND_PATH, NULL,
                                        G_DBUS_SIGNAL_FLAGS_NONE, on_prepare_for_sleep,
                                        self, NULL);
}

static void
atp_sleep_monitor_dispose (GObject *object)
{
  AtpSleepMonitor *self = ATP_SLEEP_MONITOR (object);

  g_cancellable_cancel (self->cancellable);
  if (self->subscription != 0)
    g_dbus_connection_signal_unsubscribe (self->system_bus, self->subscription);
  self->subscription = 0;
  g_clear_object (&self->system_bus);

  G_OBJECT_CLASS (atp_sleep_monitor_parent_class)->dispose (object);
}

static void
atp_sleep_monitor_finalize (GObject *object)
{
  AtpSleepMonitor *self = ATP_SLEEP_MONITOR (object);

  g_clear_object (&self->cancellable);

  G_OBJECT_CLASS (atp_sleep_monitor_parent_class)->finalize (object);
}

static void
atp_sleep_monitor_class_init (AtpSleepMonitorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = atp_sleep_monitor_dispose;
  object_class->finalize = atp_sleep_monitor_finalize;

  /**
   * AtpSleepMonitor::woke:
   * @self: the monitor
   *
   * The machine woke from sleep (logind's `PrepareForSleep(false)`).
   */
  signals [WOKE] =
    g_signal_new ("woke", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
atp_sleep_monitor_init (AtpSleepMonitor *self)
{
  self->cancellable = g_cancellable_new ();
}

/**
 * atp_sleep_monitor_get_default:
 *
 * The process's one monitor, while a part holds it; the first call (on
 * the main thread) asks for the system bus, asynchronously, so a wake
 * right after it may go unheard.
 *
 * Returns: (transfer full): the shared monitor
 */
AtpSleepMonitor *
atp_sleep_monitor_get_default (void)
{
  static AtpSleepMonitor *default_monitor;

  if (default_monitor != NULL)
    return g_object_ref (default_monitor);

  default_monitor = g_object_new (ATP_TYPE_SLEEP_MONITOR, NULL);
  g_object_add_weak_pointer (G_OBJECT (default_monitor), (gpointer *) &default_monitor);
  g_bus_get (G_BUS_TYPE_SYSTEM, default_monitor->cancellable, got_system_bus_cb,
             g_object_ref (default_monitor));

  return default_monitor;
}
