/* triage-day-clock.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-day-clock"

#include "triage-day-clock.h"
#include "triage-wall-timeout.h"

/*
 * What a request says of a day ("due tomorrow", triage_format_deadline())
 * changes at local midnight, and the app stays in the tray for days. One
 * clock for all that shows it (the inbox's rows, the tray's menu):
 * ::day-changed once the local date is another than at the last check.
 *
 * A GLib timeout runs on the monotonic clock, which stops while the machine
 * sleeps: a laptop asleep over midnight woke to "due tomorrow" of what was
 * now due that day, until the timeout ran out, hours later. So the clock
 * checks
 * - at the next local midnight of the wall clock, and when the wall clock
 *   is set (NTP after a sleep, the person setting the time): a wall clock
 *   timer (triage_wall_timeout_add()), which counts the time asleep and
 *   fires on waking when midnight passed meanwhile;
 * - on waking, as logind tells it (PrepareForSleep(false) on the system
 *   bus), for whatever else moved meanwhile.
 * Without a system bus (a container, a session of its own), the timer
 * alone.
 */

#define LOGIND_NAME      "org.freedesktop.login1"
#define LOGIND_PATH      "/org/freedesktop/login1"
#define LOGIND_INTERFACE "org.freedesktop.login1.Manager"

/* After midnight, never before it. */
#define AFTER_MIDNIGHT_MS 100

struct _TriageDayClock
{
  GObject          parent_instance;

  GCancellable    *cancellable;
  GDBusConnection *system_bus;
  guint            sleep_subscription;
  GDate            today;        /* the local date at the last check */
  guint            timeout_id;   /* the wall clock timer */
};

G_DEFINE_FINAL_TYPE (TriageDayClock, triage_day_clock, G_TYPE_OBJECT)

enum {
  DAY_CHANGED,
  N_SIGNALS
};

static guint signals [N_SIGNALS];

static void check (TriageDayClock *self);

static void
local_today (GDate *date)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();

  g_date_clear (date, 1);
  g_date_set_dmy (date, g_date_time_get_day_of_month (now), g_date_time_get_month (now),
                  g_date_time_get_year (now));
}

static gboolean
timeout_cb (gpointer data)
{
  TriageDayClock *self = data;

  self->timeout_id = 0;
  check (self);

  return G_SOURCE_REMOVE;
}

/* The next local midnight. */
static GDateTime *
next_midnight (GDateTime *now)
{
  g_autoptr(GDateTime) today = g_date_time_new_local (g_date_time_get_year (now),
                                                      g_date_time_get_month (now),
                                                      g_date_time_get_day_of_month (now),
                                                      0, 0, 0);

  return g_date_time_add_days (today, 1);
}

/* Just after the next local midnight, on the wall clock. */
static void
arm (TriageDayClock *self)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autoptr(GDateTime) midnight = next_midnight (now);
  gint64 wall_us = g_date_time_to_unix (midnight) * G_USEC_PER_SEC +
                   AFTER_MIDNIGHT_MS * G_TIME_SPAN_MILLISECOND;

  g_clear_handle_id (&self->timeout_id, g_source_remove);
  self->timeout_id = triage_wall_timeout_add (wall_us, timeout_cb, self);
}

/* Tells a new day, and waits for the next. */
static void
check (TriageDayClock *self)
{
  GDate today;

  local_today (&today);
  if (g_date_compare (&today, &self->today) != 0)
    {
      self->today = today;
      g_signal_emit (self, signals [DAY_CHANGED], 0);
    }

  arm (self);
}

static void
on_prepare_for_sleep (GDBusConnection *connection,
                      const char      *sender_name,
                      const char      *object_path,
                      const char      *interface_name,
                      const char      *signal_name,
                      GVariant        *parameters,
                      gpointer         data)
{
  TriageDayClock *self = data;
  gboolean going_to_sleep;

  if (!g_variant_is_of_type (parameters, G_VARIANT_TYPE ("(b)")))
    return;

  g_variant_get (parameters, "(b)", &going_to_sleep);
  if (!going_to_sleep)
    check (self);
}

static void
watch_sleep (TriageDayClock  *self,
             GDBusConnection *system_bus)
{
  self->system_bus = g_object_ref (system_bus);
  self->sleep_subscription =
    g_dbus_connection_signal_subscribe (system_bus, LOGIND_NAME, LOGIND_INTERFACE,
                                        "PrepareForSleep", LOGIND_PATH, NULL,
                                        G_DBUS_SIGNAL_FLAGS_NONE, on_prepare_for_sleep,
                                        self, NULL);
}

static void
got_system_bus_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      data)
{
  g_autoptr(TriageDayClock) self = data;
  g_autoptr(GDBusConnection) bus = NULL;
  g_autoptr(GError) error = NULL;

  bus = g_bus_get_finish (result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (bus == NULL)
    {
      g_debug ("No system bus, so no word of waking from sleep: %s", error->message);
      return;
    }

  watch_sleep (self, bus);
}

static void
triage_day_clock_dispose (GObject *object)
{
  TriageDayClock *self = (TriageDayClock *)object;

  g_cancellable_cancel (self->cancellable);
  if (self->sleep_subscription != 0)
    g_dbus_connection_signal_unsubscribe (self->system_bus, self->sleep_subscription);
  self->sleep_subscription = 0;
  g_clear_object (&self->system_bus);
  g_clear_handle_id (&self->timeout_id, g_source_remove);

  G_OBJECT_CLASS (triage_day_clock_parent_class)->dispose (object);
}

static void
triage_day_clock_finalize (GObject *object)
{
  TriageDayClock *self = (TriageDayClock *)object;

  g_clear_object (&self->cancellable);

  G_OBJECT_CLASS (triage_day_clock_parent_class)->finalize (object);
}

static void
triage_day_clock_class_init (TriageDayClockClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = triage_day_clock_dispose;
  object_class->finalize = triage_day_clock_finalize;

  /**
   * TriageDayClock::day-changed:
   * @self: the clock
   *
   * The local date is another than at the last check: at midnight, on
   * waking after it, or once the wall clock was set to another day.
   */
  signals [DAY_CHANGED] =
    g_signal_new ("day-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
triage_day_clock_init (TriageDayClock *self)
{
  self->cancellable = g_cancellable_new ();
  local_today (&self->today);
  arm (self);
}

/**
 * triage_day_clock_new:
 * @system_bus: (nullable): where logind says the machine woke, or %NULL
 *   for the timers alone
 *
 * A clock of its own (tests give it a bus of their own);
 * triage_day_clock_get_default() is the one the app shares.
 *
 * Returns: (transfer full): a new clock
 */
TriageDayClock *
triage_day_clock_new (GDBusConnection *system_bus)
{
  TriageDayClock *self;

  g_return_val_if_fail (system_bus == NULL || G_IS_DBUS_CONNECTION (system_bus), NULL);

  self = g_object_new (TRIAGE_TYPE_DAY_CLOCK, NULL);
  if (system_bus != NULL)
    watch_sleep (self, system_bus);

  return self;
}

/**
 * triage_day_clock_get_default:
 *
 * The clock all the app's parts share while one of them holds it, on the
 * system bus (got asynchronously; none is fine). Each call checks again, so
 * a part that starts to hold it finds it armed for the local midnight of
 * now (the time zone may have changed since).
 *
 * Returns: (transfer full): the shared clock
 */
TriageDayClock *
triage_day_clock_get_default (void)
{
  static TriageDayClock *default_clock;

  if (default_clock != NULL)
    {
      check (default_clock);
      return g_object_ref (default_clock);
    }

  default_clock = g_object_new (TRIAGE_TYPE_DAY_CLOCK, NULL);
  g_object_add_weak_pointer (G_OBJECT (default_clock), (gpointer *) &default_clock);
  g_bus_get (G_BUS_TYPE_SYSTEM, default_clock->cancellable, got_system_bus_cb,
             g_object_ref (default_clock));

  return default_clock;
}
