/* triage-wall-timeout.c — a timer for a moment of the wall clock
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-wall-timeout"

#include <errno.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "atp-sleep-monitor.h"
#include "triage-wall-timeout.h"

/*
 * A GLib timeout runs on the monotonic clock, which stops while the machine
 * sleeps: a timer for a moment of the wall clock (local midnight, a
 * request's deadline) fired as late as the laptop had slept. This source
 * waits on a timerfd on CLOCK_REALTIME instead, which counts the time
 * asleep and fires on waking when the moment passed meanwhile; armed with
 * TFD_TIMER_CANCEL_ON_SET, it fires too when the wall clock is set (NTP
 * after a sleep, the person setting the time), which may move it over the
 * moment either way. Without a timerfd (none left to the process), a
 * monotonic ready time does, which a sleep leaves late: so every timer
 * fires when logind says the machine woke (AtpSleepMonitor), whatever its
 * moment, and its owner asks the wall clock, as when the clock is set.
 */

typedef struct
{
  GSource          source;
  int              fd;             /* -1: the source's ready time instead */
  AtpSleepMonitor *sleep_monitor;
  gulong           woke_handler;
} WallSource;

static gboolean
wall_source_dispatch (GSource    *source,
                      GSourceFunc callback,
                      gpointer    data)
{
  WallSource *self = (WallSource *) source;
  guint64 expirations;

  if (self->fd >= 0 && read (self->fd, &expirations, sizeof expirations) < 0 &&
      errno != ECANCELED && errno != EAGAIN)
    g_debug ("Reading a wall clock timer failed: %s", g_strerror (errno));
  /* Once, whatever @callback returns: past its moment, the timer would
   * still wake at every setting of the clock (a ready time, at once). */
  if (callback != NULL)
    callback (data);

  return G_SOURCE_REMOVE;
}

static void
wall_source_finalize (GSource *source)
{
  WallSource *self = (WallSource *) source;

  if (self->fd >= 0)
    close (self->fd);
  self->fd = -1;
  g_clear_signal_handler (&self->woke_handler, self->sleep_monitor);
  g_clear_object (&self->sleep_monitor);
}

static GSourceFuncs wall_source_funcs = {
  .dispatch = wall_source_dispatch,
  .finalize = wall_source_finalize,
};

/* Due now, whatever its moment: its owner asks the wall clock. */
static void
on_woke (AtpSleepMonitor *monitor,
         GSource         *source)
{
  g_source_set_ready_time (source, 0);
}

/* A timerfd that fires at @wall_us or when the wall clock is set; -1 if
 * there is none. */
static int
open_timer_fd (gint64 wall_us)
{
  struct itimerspec spec = { 0 };
  int fd;

  fd = timerfd_create (CLOCK_REALTIME, TFD_NONBLOCK | TFD_CLOEXEC);
  if (fd < 0)
    {
      g_debug ("No timerfd, a timeout instead: %s", g_strerror (errno));
      return -1;
    }

  /* A moment of zero would disarm it: the past is any moment before now. */
  wall_us = MAX (wall_us, 1);
  spec.it_value.tv_sec = wall_us / G_USEC_PER_SEC;
  spec.it_value.tv_nsec = (wall_us % G_USEC_PER_SEC) * 1000;
  if (timerfd_settime (fd, TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET, &spec, NULL) < 0)
    {
      g_debug ("Cannot set a wall clock timer, a timeout instead: %s", g_strerror (errno));
      close (fd);
      return -1;
    }

  return fd;
}

/**
 * triage_wall_timeout_add:
 * @wall_us: the moment, in Unix microseconds of the wall clock
 *   (g_get_real_time()); a moment past is due at once
 * @func: (scope async): called once, at @wall_us or after it (also after
 *   a sleep over it), or earlier when the wall clock is set or the machine
 *   wakes from sleep; its return value is ignored
 * @data: for @func
 *
 * Like g_timeout_add(), at the default priority, but for a moment of the
 * wall clock rather than a span of the monotonic clock, on the main thread.
 * The wall clock may be set back over @wall_us, and a machine waking calls
 * every timer, so @func asks the wall clock (g_get_real_time()) whether its
 * moment came, and adds a timer again if not.
 *
 * Returns: the source's id, for g_source_remove()
 */
guint
triage_wall_timeout_add (gint64      wall_us,
                         GSourceFunc func,
                         gpointer    data)
{
  g_autoptr(GSource) source = NULL;
  WallSource *self;

  g_return_val_if_fail (func != NULL, 0);

  source = g_source_new (&wall_source_funcs, sizeof (WallSource));
  self = (WallSource *) source;
  g_source_set_static_name (source, "[triage] wall clock timeout");
  self->fd = open_timer_fd (wall_us);
  if (self->fd >= 0)
    g_source_add_unix_fd (source, self->fd, G_IO_IN);
  else
    g_source_set_ready_time (source, g_get_monotonic_time () +
                                     MAX (wall_us - g_get_real_time (), 0));
  g_source_set_callback (source, func, data, NULL);
  /* The source is finalized as soon as it is destroyed (the context holds
   * the only reference), and takes its handler with it. */
  self->sleep_monitor = atp_sleep_monitor_get_default ();
  self->woke_handler = g_signal_connect (self->sleep_monitor, "woke", G_CALLBACK (on_woke), source);

  return g_source_attach (source, NULL);
}
