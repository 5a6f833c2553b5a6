/* atp-timestamp.c — RFC 3339 timestamps as ATP writes and reads them
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "atp-json"

#include "atp-json.h"

#include <string.h>

#include "atp-error.h"
#include "atp-private.h"
#include "atp-types.h"

/* ------------------------------------------------------------------------ */
/* Times                                                                     */
/* ------------------------------------------------------------------------ */

static gboolean
read_digits (const char **p,
             guint        n,
             int         *value)
{
  int v = 0;

  for (guint i = 0; i < n; i++)
    {
      char c = (*p)[i];

      if (c < '0' || c > '9')
        return FALSE;
      v = v * 10 + (c - '0');
    }

  *p += n;
  *value = v;
  return TRUE;
}

/**
 * atp_parse_timestamp:
 * @text: (nullable): an RFC 3339 date-time
 *
 * Accepts exactly `YYYY-MM-DD"T"hh:mm:ss[.fraction](Z|±hh:mm)` (a lower-case
 * `t`/`z` too, as RFC 3339 allows); the offset is required. Fractions beyond
 * microseconds are truncated. Leap seconds (`:60`) are refused.
 *
 * Returns: (transfer full) (nullable): the time with its offset, %NULL if @text is not one
 */
GDateTime *
atp_parse_timestamp (const char *text)
{
  g_autoptr(GTimeZone) tz = NULL;
  g_autoptr(GDateTime) whole = NULL;
  g_autoptr(GDateTime) utc = NULL;
  const char *p = text;
  int year, month, day, hour, minute, second;
  gint64 usec = 0;

  if (text == NULL)
    return NULL;

  if (!read_digits (&p, 4, &year) || *p++ != '-' ||
      !read_digits (&p, 2, &month) || *p++ != '-' ||
      !read_digits (&p, 2, &day) ||
      (*p != 'T' && *p != 't'))
    return NULL;
  p++;
  if (!read_digits (&p, 2, &hour) || *p++ != ':' ||
      !read_digits (&p, 2, &minute) || *p++ != ':' ||
      !read_digits (&p, 2, &second))
    return NULL;

  if (*p == '.')
    {
      guint n = 0;

      p++;
      if (*p < '0' || *p > '9')
        return NULL;
      while (*p >= '0' && *p <= '9')
        {
          if (n < 6)
            usec = usec * 10 + (*p - '0');
          n++;
          p++;
        }
      for (; n < 6; n++)
        usec *= 10;
    }

  if (*p == 'Z' || *p == 'z')
    {
      p++;
      tz = g_time_zone_new_utc ();
    }
  else if (*p == '+' || *p == '-')
    {
      int sign = *p == '-' ? -1 : 1;
      int off_h, off_m;

      p++;
      if (!read_digits (&p, 2, &off_h) || *p++ != ':' || !read_digits (&p, 2, &off_m))
        return NULL;
      if (off_h > 23 || off_m > 59)
        return NULL;
      tz = g_time_zone_new_offset (sign * (off_h * 3600 + off_m * 60));
    }
  else
    {
      return NULL;
    }

  if (*p != '\0' || tz == NULL)
    return NULL;

  if (year < 1 || month < 1 || month > 12 || day < 1 || day > 31 ||
      hour > 23 || minute > 59 || second > 59)
    return NULL;

  whole = g_date_time_new (tz, year, month, day, hour, minute, second);
  if (whole == NULL)
    return NULL;

  /* A time that is in range locally but not in UTC (0001-01-01T00:30+01:00)
   * could not be written back: GDateTime refuses to convert it. */
  utc = g_date_time_to_utc (whole);
  if (utc == NULL)
    return NULL;

  /* g_date_time_new() would round a fractional second through a double. */
  return g_date_time_add (whole, usec);
}

/* The date and time of day of the second this thread wrote last: the times
 * written one after another mostly fall in one second (a server under load
 * stamps each request twice, hundreds a second), and printf's reading of
 * the format was most of the cost of writing one. */
#define PREFIX_LENGTH 19
static __thread gint64 prefix_second = G_MININT64;
static __thread char prefix[PREFIX_LENGTH + 1];

/**
 * atp_format_timestamp:
 * @time: a time
 *
 * Returns: (transfer full): @time in UTC as `YYYY-MM-DDThh:mm:ss[.uuuuuu]Z`,
 *   with six fraction digits only when the microseconds are not zero
 */
char *
atp_format_timestamp (GDateTime *time)
{
  g_autoptr(GDateTime) utc = NULL;
  int year, month, day, usec;
  gint64 second;
  char *text, *end;

  g_return_val_if_fail (time != NULL, NULL);

  /* Most times are in UTC already (now, or a parsed one ending in Z): a
   * copy made to convert it is only a reference. */
  utc = g_date_time_get_utc_offset (time) == 0 ? g_date_time_ref (time) : g_date_time_to_utc (time);
  if (utc == NULL)
    {
      /* Only a time built elsewhere, at the very edge of year 1 or 9999:
       * keep its own offset rather than fail. */
      gint64 offset = g_date_time_get_utc_offset (time) / G_TIME_SPAN_MINUTE;

      g_date_time_get_ymd (time, &year, &month, &day);
      return g_strdup_printf ("%04d-%02d-%02dT%02d:%02d:%02d%c%02d:%02d",
                              year, month, day,
                              g_date_time_get_hour (time),
                              g_date_time_get_minute (time),
                              g_date_time_get_second (time),
                              offset < 0 ? '-' : '+',
                              (int) (ABS (offset) / 60), (int) (ABS (offset) % 60));
    }
  usec = g_date_time_get_microsecond (utc);
  second = g_date_time_to_unix (utc);
  if (second != prefix_second)
    {
      g_date_time_get_ymd (utc, &year, &month, &day);
      g_snprintf (prefix, sizeof prefix, "%04d-%02d-%02dT%02d:%02d:%02d", year, month, day,
                  g_date_time_get_hour (utc), g_date_time_get_minute (utc),
                  g_date_time_get_second (utc));
      prefix_second = second;
    }
  /* "YYYY-MM-DDThh:mm:ss" (years 1 to 9999 only), ".uuuuuu" if any, "Z". */
  text = g_malloc (PREFIX_LENGTH + 9);
  memcpy (text, prefix, PREFIX_LENGTH);
  end = text + PREFIX_LENGTH;
  if (usec != 0)
    {
      *end++ = '.';
      for (int i = 5; i >= 0; i--, usec /= 10)
        end[i] = '0' + usec % 10;
      end += 6;
    }
  end[0] = 'Z';
  end[1] = '\0';
  return text;
}
