/* triage-server-address.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-connection"

#include <glib/gi18n.h>
#include <string.h>

#include "atp-client.h"
#include "triage-server-address.h"

/*
 * What is wrong with a server address, in the person's words. libatp decides
 * whether an address is one (atp_client_check_url ()); its reasons are
 * written for a terminal and untranslated. The window, the
 * tray and Preferences put this sentence between "The server address is not
 * valid" and "Correct it in Preferences", so it names the one problem and
 * ends as a sentence.
 */

static gboolean
has_space (const char *url)
{
  for (const char *p = url; *p != '\0'; p++)
    if (g_ascii_isspace (*p))
      return TRUE;

  return FALSE;
}

/* "https://host:99999", "https://host:abc": after the host (past an IPv6
 * literal's brackets), a colon and what is not a port. */
static gboolean
has_bad_port (const char *url)
{
  const char *authority = strstr (url, "://") + 3;
  g_autofree char *host_port = g_strndup (authority, strcspn (authority, "/?#"));
  const char *after_host = strrchr (host_port, ']');
  const char *colon = strrchr (after_host != NULL ? after_host : host_port, ':');
  guint64 port = 0;

  if (colon == NULL)
    return FALSE;

  return !g_ascii_string_to_unsigned (colon + 1, 10, 1, 65535, &port, NULL);
}

/* The address typed without its scheme ("triage.example.com:8443"), when
 * https:// in front makes it one. */
static char *
dup_with_https (const char *url)
{
  g_autofree char *guess = g_strconcat ("https://", url, NULL);
  g_autoptr(GUri) uri = g_uri_parse (guess, G_URI_FLAGS_NONE, NULL);

  if (uri == NULL || g_uri_get_host (uri) == NULL || *g_uri_get_host (uri) == '\0' ||
      !atp_client_check_url (guess, NULL))
    return NULL;

  return g_steal_pointer (&guess);
}

/**
 * triage_server_address_dup_problem:
 * @url: a server address, as entered
 *
 * Returns: (transfer full) (nullable): what is wrong with @url, one or two
 *   translated sentences, ended; %NULL if it is a server address
 */
char *
triage_server_address_dup_problem (const char *url)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GUri) uri = NULL;
  const char *scheme;
  const char *host;
  g_autofree char *fixed = NULL;
  g_autoptr(GString) reason = NULL;

  if (url == NULL || *url == '\0')
    return g_strdup (_("No server address is entered."));

  /* "https://triage example.com": no host name has a space (libatp
   * refuses it too, in a terminal's words). */
  if (has_space (url))
    /* Translators: %s is the server address as entered */
    return g_strdup_printf (_("“%s” contains a space, which a server address cannot have."), url);

  if (atp_client_check_url (url, &error))
    return NULL;

  /* "triage.example.com", or "localhost:8443" (which parses as a scheme). */
  if (strstr (url, "://") == NULL)
    {
      fixed = dup_with_https (url);
      if (fixed != NULL)
        /* Translators: the first %s is the server address as entered, the
         * second the same with https:// in front */
        return g_strdup_printf (_("“%s” does not begin with https://: enter %s."), url, fixed);
      /* Translators: %s is the server address as entered */
      return g_strdup_printf (_("“%s” is not a server address: one looks like "
                                "https://triage.example.com."), url);
    }

  uri = g_uri_parse (url, G_URI_FLAGS_NONE, NULL);
  if (uri == NULL && has_bad_port (url))
    /* Translators: %s is the server address as entered */
    return g_strdup_printf (_("“%s” has a port that is not one: a port is a number from 1 "
                              "to 65535."), url);
  if (uri == NULL)
    /* Translators: %s is the server address as entered */
    return g_strdup_printf (_("“%s” is not a server address: one looks like "
                              "https://triage.example.com."), url);

  scheme = g_uri_get_scheme (uri);
  if (g_ascii_strcasecmp (scheme, "https") != 0 && g_ascii_strcasecmp (scheme, "wss") != 0 &&
      g_ascii_strcasecmp (scheme, "http") != 0 && g_ascii_strcasecmp (scheme, "ws") != 0)
    /* Translators: the first %s is the server address as entered, the second
     * how it begins ("htp") */
    return g_strdup_printf (_("“%s” begins with %s://, which is not a way to reach a server: "
                              "an address begins with https:// (or http:// for a server on "
                              "this computer)."), url, scheme);

  host = g_uri_get_host (uri);
  if (host == NULL || *host == '\0')
    /* Translators: %s is the server address as entered */
    return g_strdup_printf (_("“%s” names no server: enter its host name after the //, as in "
                              "https://triage.example.com."), url);

  if (g_uri_get_userinfo (uri) != NULL)
    /* Translators: %s is the server address as entered */
    return g_strdup_printf (_("“%s” holds a user name or password, which a server address "
                              "cannot have: remove it (your token has a field of its own)."), url);

  if (g_uri_get_query (uri) != NULL || g_uri_get_fragment (uri) != NULL)
    /* Translators: %s is the server address as entered */
    return g_strdup_printf (_("“%s” holds a query (?) or a fragment (#), which a server "
                              "address cannot have: remove it."), url);

  if (g_ascii_strcasecmp (scheme, "http") == 0 || g_ascii_strcasecmp (scheme, "ws") == 0)
    /* Translators: %s is the server address as entered */
    return g_strdup_printf (_("“%s” is not encrypted: it must begin with https:// (plain "
                              "http:// reaches only a server on this computer)."), url);

  /* A reason this file does not know yet: libatp's own, ended once. */
  reason = g_string_new (error->message);
  while (reason->len > 0 && (reason->str[reason->len - 1] == ':' ||
                             g_ascii_isspace (reason->str[reason->len - 1])))
    g_string_truncate (reason, reason->len - 1);
  if (reason->len > 0 && reason->str[reason->len - 1] != '.')
    g_string_append_c (reason, '.');

  return g_string_free (g_steal_pointer (&reason), FALSE);
}
