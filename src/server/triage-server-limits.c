/* triage-server-limits.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The rate limits of profile §4. Each rate is kept per key (an address, a
 * service, a user) with the generic cell rate algorithm: one "theoretical
 * arrival time" per key, so a full allowance may be used at once, and the
 * wait until the next allowed request is exact (the Retry-After header). The
 * store keeps that state: in memory for one server, in the database when
 * several share it.
 */

#define G_LOG_DOMAIN "triage-server-limits"

#include <string.h>

#include "triage-metrics.h"
#include "triage-server-private.h"

const char * const triage_limit_names[TRIAGE_N_LIMITS] = {
  "registrations", "sends", "status-updates", "polling", "responses", "websockets", "sse",
};

const guint triage_limit_defaults[TRIAGE_N_LIMITS] = { 10, 100, 200, 60, 100, 5, 10 };

/* The window each rate is counted over; 0 for the caps on open streams. */
static const gint64 limit_windows_us[TRIAGE_N_LIMITS] = {
  [TRIAGE_LIMIT_REGISTRATIONS] = G_TIME_SPAN_HOUR,
  [TRIAGE_LIMIT_SENDS] = G_TIME_SPAN_MINUTE,
  [TRIAGE_LIMIT_STATUS_UPDATES] = G_TIME_SPAN_MINUTE,
  [TRIAGE_LIMIT_POLLING] = G_TIME_SPAN_MINUTE,
  [TRIAGE_LIMIT_RESPONSES] = G_TIME_SPAN_MINUTE,
};

/* Fills @limits from the defaults, then "NAME=N" overrides; --no-limits wins. */
gboolean
triage_limits_parse (guint               limits[TRIAGE_N_LIMITS],
                     const char * const *specs,
                     gboolean            no_limits,
                     GError            **error)
{
  for (guint i = 0; i < TRIAGE_N_LIMITS; i++)
    limits[i] = no_limits ? 0 : triage_limit_defaults[i];
  for (guint s = 0; specs != NULL && specs[s] != NULL; s++)
    {
      const char *eq = strchr (specs[s], '=');
      guint64 value;
      guint i;

      for (i = 0; i < TRIAGE_N_LIMITS; i++)
        if (eq != NULL && strlen (triage_limit_names[i]) == (gsize) (eq - specs[s]) &&
            strncmp (specs[s], triage_limit_names[i], eq - specs[s]) == 0)
          break;
      if (i == TRIAGE_N_LIMITS)
        {
          g_autofree char *known = g_strjoinv (", ", (char **) triage_limit_names);

          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       "unknown limit \"%s\" (expected NAME=N with NAME one of %s)", specs[s], known);
          return FALSE;
        }
      if (!g_ascii_string_to_unsigned (eq + 1, 10, 0, G_MAXUINT, &value, NULL))
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       "limit %s: \"%s\" is not a whole number (0 = unlimited)",
                       triage_limit_names[i], eq + 1);
          return FALSE;
        }
      if (!no_limits)
        limits[i] = (guint) value;
    }
  return TRUE;
}

/* Takes @interval of @key's allowance under @limit, if what it has taken
 * ends within @window; else answers @msg with 429 RATE_LIMIT_EXCEEDED and a
 * Retry-After in whole seconds. */
static gboolean
take (TriageServer      *self,
      SoupServerMessage *msg,
      TriageLimit        limit,
      const char        *key,
      gint64             interval,
      gint64             window)
{
  guint rate = self->limits[limit];
  g_autofree char *name = g_strdup_printf ("%s\n%s", triage_limit_names[limit], key);
  gint64 wait;

  if (!triage_store_take_rate (self->store, name, interval, window, &wait))
    {
      g_autofree char *seconds = g_strdup_printf ("%" G_GINT64_FORMAT,
                                                  MAX (1, (wait + G_USEC_PER_SEC - 1) / G_USEC_PER_SEC));
      g_autofree char *message = g_strdup_printf ("Too many requests: at most %u %s per %s",
                                                  rate, triage_limit_names[limit],
                                                  limit_windows_us[limit] > G_TIME_SPAN_MINUTE
                                                  ? "hour" : "minute");

      triage_metrics_rate_limited (limit);
      soup_message_headers_replace (soup_server_message_get_response_headers (msg),
                                    "Retry-After", seconds);
      reply_error (msg, ATP_ERROR_RATE_LIMIT_EXCEEDED, message);
      return FALSE;
    }
  return TRUE;
}

/* Counts one request of @key against @limit. When it is over, answers @msg
 * with 429 RATE_LIMIT_EXCEEDED and a Retry-After in whole seconds, and returns
 * FALSE. Trusted local peers are never limited: they are the user who owns
 * the server and its database. */
gboolean
triage_server_rate_check (TriageServer      *self,
                          SoupServerMessage *msg,
                          TriageLimit        limit,
                          const char        *key)
{
  guint rate = self->limits[limit];

  g_return_val_if_fail (limit_windows_us[limit] > 0, TRUE);

  if (rate == 0 || triage_server_trusts (msg))
    return TRUE;
  return take (self, msg, limit, key, MAX (1, limit_windows_us[limit] / rate),
               limit_windows_us[limit]);
}

/* Whether @key has room for one more request under @limit, taking none of
 * it, answering @msg 429 when not. The store only takes: a microsecond is
 * taken, in a window one request short (the same bound, and the same wait). */
gboolean
triage_server_rate_peek (TriageServer      *self,
                         SoupServerMessage *msg,
                         TriageLimit        limit,
                         const char        *key)
{
  guint rate = self->limits[limit];
  gint64 window = limit_windows_us[limit];

  g_return_val_if_fail (window > 0, TRUE);

  if (rate == 0 || triage_server_trusts (msg))
    return TRUE;
  return take (self, msg, limit, key, 1, window - MAX (1, window / rate) + 1);
}
