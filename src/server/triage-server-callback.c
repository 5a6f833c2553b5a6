/* triage-server-callback.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A service's callback_url: the one rule that registration checks and the
 * webhook sender checks again, so a URL is sent to exactly as it was taken
 * and one stored before a rule was added is found out before any attempt.
 */

#define G_LOG_DOMAIN "triage-server-callback"

#include <string.h>

#include "triage-server-private.h"

/* The URL is kept as written: parsed with every part left encoded, a
 * "%2F" or "%26" of the path or query goes out as it came, not decoded and
 * written again as "/" or "&". */
#define CALLBACK_URI_FLAGS G_URI_FLAGS_ENCODED

gboolean
triage_server_is_loopback_host (const char *host)
{
  g_autoptr(GInetAddress) address = NULL;

  if (host == NULL)
    return FALSE;
  if (g_ascii_strcasecmp (host, "localhost") == 0)
    return TRUE;
  address = g_inet_address_new_from_string (host);
  return address != NULL && g_inet_address_get_is_loopback (address);
}

/* Whether @host (as GUri gives it: an IDN in its ASCII form, an IPv6
 * literal without brackets) names a host a webhook can be sent to: GUri
 * takes "https://" (no host) and "https://exa mple.com/" as they are, and
 * every delivery to them would fail for good, six attempts later. */
static gboolean
is_host_name (const char *host)
{
  gboolean alnum = FALSE;

  if (host == NULL || *host == '\0')
    return FALSE;
  if (g_hostname_is_ip_address (host))
    return TRUE;
  for (const char *p = host; *p; p++)
    {
      if (g_ascii_isalnum (*p))
        alnum = TRUE;
      else if (*p != '-' && *p != '.' && *p != '_')
        return FALSE;
    }
  return alnum;
}

static const char *
control_name (guchar c)
{
  switch (c)
    {
    case 0x00: return "a NUL";
    case '\t': return "a tab";
    case '\n': return "a line feed";
    case '\r': return "a carriage return";
    case 0x7f: return "a DEL";
    default:   return "a control character";
    }
}

static gboolean
is_control (guchar c)
{
  return c < 0x20 || c == 0x7f;
}

/* The byte @p[0] percent-encodes ("%0A" → 0x0A), or -1. */
static int
percent_byte (const char *p)
{
  int high, low;

  if (p[0] != '%' || (high = g_ascii_xdigit_value (p[1])) < 0 ||
      (low = g_ascii_xdigit_value (p[2])) < 0)
    return -1;
  return high * 16 + low;
}

/* A C1 control (U+0080–U+009F: "\xc2\x85" NEXT LINE) at @p, as it is or as
 * its two bytes percent-encoded ("%C2%85"): its code point, and in @length
 * how many bytes of the URL it takes; else 0. GUri would take a raw one and
 * percent-encode it, and a receiver decode it back. */
static gunichar
c1_control_at (const char *p,
               gsize      *length)
{
  int trail;

  if ((guchar) p[0] == 0xc2 && (guchar) p[1] >= 0x80 && (guchar) p[1] <= 0x9f)
    {
      *length = 2;
      return (guchar) p[1];
    }
  if (percent_byte (p) == 0xc2 && (trail = percent_byte (p + 3)) >= 0x80 && trail <= 0x9f)
    {
      *length = 6;
      return trail;
    }
  return 0;
}

/* A control character (C0, DEL or C1), as it is or percent-encoded
 * (%0D%0A in a path would be a header of the request once a decoder met
 * it), is refused: no receiver needs one, and a URL that holds one is a
 * mistake or an attack. */
static gboolean
check_controls (const char  *url,
                GError     **error)
{
  for (const char *p = url; *p != '\0'; p++)
    {
      gunichar c1;
      gsize length;
      int c;

      if (is_control ((guchar) *p))
        {
          g_set_error (error, ATP_ERROR, ATP_ERROR_INVALID_CALLBACK_URL,
                       "callback_url must not contain control characters, as they are or "
                       "percent-encoded: it has %s (U+%04X) at byte %d", control_name (*p),
                       (guchar) *p, (int) (p - url) + 1);
          return FALSE;
        }
      if ((c1 = c1_control_at (p, &length)) != 0)
        {
          g_autofree char *written = length == 2 ? g_strdup ("") : g_strndup (p, length);

          g_set_error (error, ATP_ERROR, ATP_ERROR_INVALID_CALLBACK_URL,
                       "callback_url must not contain control characters, as they are or "
                       "percent-encoded: it has a C1 control character (%s%sU+%04X) at byte %d",
                       written, *written != '\0' ? ", " : "", c1, (int) (p - url) + 1);
          return FALSE;
        }
      c = percent_byte (p);
      if (c >= 0 && is_control ((guchar) c))
        {
          g_set_error (error, ATP_ERROR, ATP_ERROR_INVALID_CALLBACK_URL,
                       "callback_url must not contain control characters, as they are or "
                       "percent-encoded: it has %s (%.3s) at byte %d", control_name (c), p,
                       (int) (p - url) + 1);
          return FALSE;
        }
    }
  return TRUE;
}

/**
 * triage_server_parse_callback_url:
 * @url: a callback_url, as registered or as stored
 * @error: an %ATP_ERROR_INVALID_CALLBACK_URL naming what is wrong
 *
 * Checks @url against the rule of a callback_url: an `https` URL (`http`
 * only to a loopback address) naming a host, without control characters.
 *
 * Returns: (transfer full) (nullable): @url parsed with every part left as
 *   written, %NULL when it breaks the rule
 */
GUri *
triage_server_parse_callback_url (const char  *url,
                                  GError     **error)
{
  g_autoptr(GUri) uri = NULL;
  const char *scheme;

  if (!check_controls (url, error))
    return NULL;
  uri = g_uri_parse (url, CALLBACK_URI_FLAGS, NULL);
  scheme = uri ? g_uri_get_scheme (uri) : NULL;
  if (uri != NULL && scheme != NULL && !is_host_name (g_uri_get_host (uri)))
    {
      g_set_error_literal (error, ATP_ERROR, ATP_ERROR_INVALID_CALLBACK_URL,
                           "callback_url must name a host (a name of letters, digits, '-', "
                           "'.', '_', or an IP address)");
      return NULL;
    }
  if (uri == NULL || scheme == NULL ||
      !(g_ascii_strcasecmp (scheme, "https") == 0 ||
        (g_ascii_strcasecmp (scheme, "http") == 0 &&
         triage_server_is_loopback_host (g_uri_get_host (uri)))))
    {
      g_set_error_literal (error, ATP_ERROR, ATP_ERROR_INVALID_CALLBACK_URL,
                           "callback_url must be an https URL (http only on a loopback address)");
      return NULL;
    }
  return g_steal_pointer (&uri);
}
