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
 * checks on a wall clock timer (triage_wall_timeout_add()) for the next
 * local midnight, which counts the time asleep and is called too when the
 * wall clock is set (NTP after a sleep, the person setting the time) and
 * when the machine wakes (logind's PrepareForSleep(false), for whatever
 * else moved meanwhile: the time zone of a laptop that travelled).
 */

/* After midnight, never before it. */
#define AFTER_MIDNIGHT_MS 100

struct _TriageDayClock
{
  GObject parent_instance;

  GDate   today;        /* the local date at the last check */
  guint   timeout_id;   /* the wall clock timer */
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
triage_day_clock_dispose (GObject *object)
{
  TriageDayClock *self = (TriageDayClock *)object;

  g_clear_handle_id (&self->timeout_id, g_source_remove);

  G_OBJECT_CLASS (triage_day_clock_parent_class)->dispose (object);
}

static void
triage_day_clock_class_init (TriageDayClockClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = triage_day_clock_dispose;

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
  local_today (&self->today);
  arm (self);
}

/**
 * triage_day_clock_new:
 *
 * A clock of its own (for tests); triage_day_clock_get_default() is the
 * one the app shares.
 *
 * Returns: (transfer full): a new clock
 */
TriageDayClock *
triage_day_clock_new (void)
{
  return g_object_new (TRIAGE_TYPE_DAY_CLOCK, NULL);
}

/**
 * triage_day_clock_get_default:
 *
 * The clock all the app's parts share while one of them holds it. Each
 * call checks again, so a part that starts to hold it finds it armed for
 * the local midnight of now (the time zone may have changed since).
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

  return default_clock;
}
