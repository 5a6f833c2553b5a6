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
 *
 * And the cap on open connections per client address ("connections"),
 * counted when libsoup starts a connection's first request, before a byte
 * of it is read: a peer that opened thousands of connections and sent
 * nothing made GLib's main loop look at every one of them on each turn,
 * and nobody else was answered. A connection is counted till its socket is
 * closed or gone (over loopback, till its first request's headers are in).
 */

#define G_LOG_DOMAIN "triage-server-limits"

#include <string.h>
#include <unistd.h>

#include "triage-metrics.h"
#include "triage-server-private.h"

const char * const triage_limit_names[TRIAGE_N_LIMITS] = {
  "registrations", "sends", "status-updates", "polling", "responses", "websockets", "sse",
  "connections",
};

const guint triage_limit_defaults[TRIAGE_N_LIMITS] = { 10, 100, 200, 60, 100, 5, 10, 256 };

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

/* What each rate counts, as a 429 names it. */
static const char * const limit_phrases[TRIAGE_N_LIMITS] = {
  [TRIAGE_LIMIT_REGISTRATIONS] = "service registrations from this address",
  [TRIAGE_LIMIT_SENDS] = "sends by this service",
  [TRIAGE_LIMIT_STATUS_UPDATES] = "status updates by this service",
  [TRIAGE_LIMIT_POLLING] = "reads of this user's notifications",
  [TRIAGE_LIMIT_RESPONSES] = "responses by this user",
};

/* Counts one request of @key, @what (as a 429 names it), against @limit.
 * When it is over, answers @msg with 429 RATE_LIMIT_EXCEEDED, a message that
 * says what was limited and when to try again, and that wait in whole
 * seconds as Retry-After, and returns FALSE. Trusted local peers are never
 * limited: they are the user who owns the server and its database. */
gboolean
triage_server_rate_check_as (TriageServer      *self,
                             SoupServerMessage *msg,
                             TriageLimit        limit,
                             const char        *key,
                             const char        *what)
{
  guint rate = self->limits[limit];
  gint64 window = limit_windows_us[limit];
  g_autofree char *name = NULL;
  g_autofree char *seconds = NULL;
  g_autofree char *message = NULL;
  gint64 wait;

  g_return_val_if_fail (window > 0, TRUE);

  if (rate == 0 || triage_server_trusts (msg))
    return TRUE;
  name = g_strdup_printf ("%s\n%s", triage_limit_names[limit], key);
  if (triage_store_take_rate (self->store, name, MAX (1, window / rate), window, &wait))
    return TRUE;
  seconds = g_strdup_printf ("%" G_GINT64_FORMAT,
                             MAX (1, (wait + G_USEC_PER_SEC - 1) / G_USEC_PER_SEC));
  message = g_strdup_printf ("Too many %s: at most %u %s; try again in %s s", what, rate,
                             window > G_TIME_SPAN_MINUTE ? "an hour" : "a minute", seconds);
  triage_metrics_rate_limited (limit);
  soup_message_headers_replace (soup_server_message_get_response_headers (msg), "Retry-After",
                                seconds);
  reply_error (msg, ATP_ERROR_RATE_LIMIT_EXCEEDED, message);
  return FALSE;
}

/* triage_server_rate_check_as () naming what @limit counts. */
gboolean
triage_server_rate_check (TriageServer      *self,
                          SoupServerMessage *msg,
                          TriageLimit        limit,
                          const char        *key)
{
  return triage_server_rate_check_as (self, msg, limit, key, limit_phrases[limit]);
}

/* One counted connection: qdata of its socket, out of its address's array
 * when the socket is freed (or found closed). */
typedef struct
{
  GHashTable *table;    /* TriageServer.connections */
  char       *key;
  GSocket    *socket;   /* unowned: this dies with it */
  gboolean    headers;  /* counted only till its request's headers are in */
} Counted;

static GQuark counted_quark;

/* Out of its address's array (if it is still there). */
static void
uncount (Counted *counted)
{
  GPtrArray *open = g_hash_table_lookup (counted->table, counted->key);

  if (open != NULL && g_ptr_array_remove_fast (open, counted) && open->len == 0)
    g_hash_table_remove (counted->table, counted->key);
}

static void
counted_free (gpointer data)
{
  Counted *counted = data;

  uncount (counted);
  g_free (counted->key);
  g_free (counted);
}

/* @address, or the IPv4 address an IPv4-mapped IPv6 one (::ffff:192.0.2.7,
 * a dual-stack socket's) stands for. */
static GInetAddress *
unmapped_address (GInetAddress *address)
{
  const guint8 *bytes = g_inet_address_to_bytes (address);

  if (g_inet_address_get_family (address) == G_SOCKET_FAMILY_IPV6 &&
      memcmp (bytes, "\0\0\0\0\0\0\0\0\0\0\xff\xff", 12) == 0)
    return g_inet_address_new_from_bytes (bytes + 12, G_SOCKET_FAMILY_IPV4);
  return g_object_ref (address);
}

/**
 * triage_server_address_key:
 * @address: a client's address
 *
 * The key an address's limits are kept under: an IPv4 address (an
 * IPv4-mapped IPv6 one too) as it is, an IPv6 address by its /64, which one
 * host usually has whole: counted apart, its addresses were as many fresh
 * allowances as it cared to rotate through.
 *
 * Returns: (transfer full): "192.0.2.7", "2001:0db8:0001:0002::/64"
 */
char *
triage_server_address_key (GInetAddress *address)
{
  g_autoptr(GInetAddress) unmapped = unmapped_address (address);
  const guint8 *bytes = g_inet_address_to_bytes (unmapped);

  if (g_inet_address_get_family (unmapped) == G_SOCKET_FAMILY_IPV4)
    return g_inet_address_to_string (unmapped);
  return g_strdup_printf ("%02x%02x:%02x%02x:%02x%02x:%02x%02x::/64", bytes[0], bytes[1], bytes[2],
                          bytes[3], bytes[4], bytes[5], bytes[6], bytes[7]);
}

/* The key @msg's client is counted under by the rate limits of an address:
 * triage_server_address_key (), "local" over the Unix socket. */
char *
triage_server_peer_key (SoupServerMessage *msg)
{
  GSocketAddress *remote = soup_server_message_get_remote_address (msg);

  if (!G_IS_INET_SOCKET_ADDRESS (remote))
    return g_strdup ("local");
  return triage_server_address_key (
    g_inet_socket_address_get_address (G_INET_SOCKET_ADDRESS (remote)));
}

/* The key @msg's connection is counted under, or NULL when it is not
 * counted: the owner over the local socket (as for the rate limits). A
 * loopback peer (@headers) only till its request's headers are in: it is
 * the machine's own users, or the TLS proxy in front, whose streams and
 * long-polls for a whole team come from one address (it sends each
 * request's headers at once, and knows the clients' addresses to cap them). */
static char *
connection_key (SoupServerMessage *msg,
                gboolean          *headers)
{
  GSocket *socket = soup_server_message_get_socket (msg);
  GSocketAddress *remote = soup_server_message_get_remote_address (msg);
  g_autoptr(GCredentials) credentials = NULL;
  g_autoptr(GInetAddress) address = NULL;
  uid_t uid;

  if (socket != NULL && g_socket_get_family (socket) == G_SOCKET_FAMILY_UNIX)
    {
      credentials = g_socket_get_credentials (socket, NULL);
      if (credentials == NULL || (uid = g_credentials_get_unix_user (credentials, NULL)) == (uid_t) -1)
        return g_strdup ("unix");
      return uid == getuid () ? NULL : g_strdup_printf ("unix:%u", (guint) uid);
    }
  if (!G_IS_INET_SOCKET_ADDRESS (remote))
    return NULL;
  address = unmapped_address (g_inet_socket_address_get_address (G_INET_SOCKET_ADDRESS (remote)));
  *headers = g_inet_address_get_is_loopback (address);
  return triage_server_address_key (address);
}

/* Counts @msg's connection against its address's cap, if it is a new one
 * (the first request of a connection; later ones were counted with it).
 * FALSE when the address has as many open as the cap: the caller closes it. */
gboolean
triage_server_connection_admit (TriageServer      *self,
                                SoupServerMessage *msg)
{
  guint cap = self->limits[TRIAGE_LIMIT_CONNECTIONS];
  GSocket *socket = soup_server_message_get_socket (msg);
  g_autofree char *key = NULL;
  gboolean headers = FALSE;
  GPtrArray *open;
  Counted *counted;

  if (cap == 0 || socket == NULL)
    return TRUE;
  if (counted_quark == 0)
    counted_quark = g_quark_from_static_string ("triage-connection-counted");
  if (g_object_get_qdata (G_OBJECT (socket), counted_quark) != NULL ||
      (key = connection_key (msg, &headers)) == NULL)
    return TRUE;
  if (self->connections == NULL)
    self->connections = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                               (GDestroyNotify) g_ptr_array_unref);
  open = g_hash_table_lookup (self->connections, key);
  /* At the cap: connections closed but not yet freed do not count (the
   * array is looked at whole only here, at most cap entries). */
  if (open != NULL && open->len >= cap)
    {
      g_ptr_array_ref (open);
      for (guint i = open->len; i > 0; i--)
        {
          Counted *old = open->pdata[i - 1];

          if (i - 1 < open->len && g_socket_is_closed (old->socket))
            g_object_set_qdata (G_OBJECT (old->socket), counted_quark, NULL);
        }
      g_ptr_array_unref (open);
      open = g_hash_table_lookup (self->connections, key);
      if (open != NULL && open->len >= cap)
        {
          g_debug ("%s has %u connections open (--limit connections=%u): closing a new one",
                   key, open->len, cap);
          triage_metrics_rate_limited (TRIAGE_LIMIT_CONNECTIONS);
          return FALSE;
        }
    }
  if (open == NULL)
    {
      open = g_ptr_array_new ();
      g_hash_table_insert (self->connections, g_strdup (key), open);
    }
  counted = g_new (Counted, 1);
  counted->table = self->connections;
  counted->key = g_steal_pointer (&key);
  counted->socket = socket;
  counted->headers = headers;
  g_ptr_array_add (open, counted);
  g_object_set_qdata_full (G_OBJECT (socket), counted_quark, counted, counted_free);
  return TRUE;
}

/* @msg's headers are in: a loopback peer's connection no longer counts (its
 * entry stays, so that its next requests are not counted either). */
void
triage_server_connection_headers_read (SoupServerMessage *msg)
{
  GSocket *socket = soup_server_message_get_socket (msg);
  Counted *counted;

  if (socket != NULL && counted_quark != 0 &&
      (counted = g_object_get_qdata (G_OBJECT (socket), counted_quark)) != NULL &&
      counted->headers)
    {
      uncount (counted);
      counted->headers = FALSE;
    }
}
