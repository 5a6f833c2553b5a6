/* midnight-test-util.h — a local midnight a few seconds away, for what
 * changes when the day does
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * TZ is set to a zone (a POSIX rule, to the second) whose local time is
 * @seconds before midnight now; GLib reads TZ again whenever it changes.
 * Returns the TZ to give back to midnight_test_restore_zone ().
 */

#pragma once

#include <glib.h>

/* TZ: a zone @offset seconds east of UTC. */
static inline void
midnight_test_set_offset (int offset)
{
  /* POSIX writes the offset west of Greenwich: "-01:00:00" is UTC+1. */
  g_autofree char *zone = g_strdup_printf ("XXX%c%02d:%02d:%02d", offset >= 0 ? '-' : '+',
                                           ABS (offset) / 3600, ABS (offset) / 60 % 60,
                                           ABS (offset) % 60);

  g_setenv ("TZ", zone, TRUE);
}

static inline char *
midnight_test_set_zone (int seconds)
{
  g_autoptr(GDateTime) utc = g_date_time_new_now_utc ();
  char *old_zone = g_strdup (g_getenv ("TZ"));
  int now = g_date_time_get_hour (utc) * 3600 + g_date_time_get_minute (utc) * 60 +
            g_date_time_get_second (utc);
  int offset = ((86400 - seconds - now) % 86400 + 86400) % 86400;

  if (offset > 43200)
    offset -= 86400;
  midnight_test_set_offset (offset);

  return old_zone;
}

/* The local clock @seconds on from now, the local date with it: TZ moved
 * east by @seconds. (midnight_test_set_zone () again may name a time of
 * the day before: it keeps to UTC±12, and moves over it a day back.) */
static inline void
midnight_test_advance_zone (int seconds)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();

  midnight_test_set_offset ((int) (g_date_time_get_utc_offset (now) / G_USEC_PER_SEC) + seconds);
}

static inline void
midnight_test_restore_zone (char *old_zone)
{
  if (old_zone != NULL)
    g_setenv ("TZ", old_zone, TRUE);
  else
    g_unsetenv ("TZ");
  g_free (old_zone);
}
