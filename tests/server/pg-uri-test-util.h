/* pg-uri-test-util.h — the tests' PostgreSQL database reached another way:
 * through a proxy, a host name, a second host
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * For the PostgreSQL tests that give a server ("far") a URI of their own to
 * the database another server ("near") made, on the tests' PostgreSQL
 * (triage-test-postgres.c: a Unix socket only).
 */

#pragma once

#include <libpq-fe.h>

#include <gio/gio.h>

/* The path of the Unix socket of @direct (a URI of the tests' PostgreSQL). */
static inline char *
pg_uri_socket_path (const char *direct)
{
  PQconninfoOption *options = PQconninfoParse (direct, NULL);
  const char *dir = NULL, *port = NULL;
  char *path;

  g_assert_nonnull (options);
  for (PQconninfoOption *option = options; option->keyword != NULL; option++)
    {
      if (g_str_equal (option->keyword, "host"))
        dir = option->val;
      else if (g_str_equal (option->keyword, "port"))
        port = option->val;
    }
  g_assert_nonnull (dir);
  g_assert_nonnull (port);
  path = g_strdup_printf ("%s/.s.PGSQL.%s", dir, port);
  PQconninfoFree (options);
  return path;
}

/* @direct's database, user and options (its schema) as a URI to @host (a
 * name or an address) at @port, and then to @direct's own socket if
 * @then_socket; with @connect_timeout (0: none given) and the operator's
 * @operator_options (server settings, or NULL) after @direct's options. */
static inline char *
pg_uri_through (const char *direct,
                const char *host,
                guint       port,
                gboolean    then_socket,
                guint       connect_timeout,
                const char *operator_options)
{
  PQconninfoOption *options = PQconninfoParse (direct, NULL);
  const char *dir = NULL, *pg_port = NULL, *dbname = NULL, *user = NULL, *search = NULL;
  g_autofree char *all = NULL, *escaped_options = NULL, *hosts = NULL, *ports = NULL;
  g_autofree char *timeout = NULL;
  char *uri;

  g_assert_nonnull (options);
  for (PQconninfoOption *option = options; option->keyword != NULL; option++)
    {
      if (g_str_equal (option->keyword, "host"))
        dir = option->val;
      else if (g_str_equal (option->keyword, "port"))
        pg_port = option->val;
      else if (g_str_equal (option->keyword, "dbname"))
        dbname = option->val;
      else if (g_str_equal (option->keyword, "user"))
        user = option->val;
      else if (g_str_equal (option->keyword, "options"))
        search = option->val;
    }
  g_assert_nonnull (dir);
  g_assert_nonnull (pg_port);
  if (then_socket)
    {
      g_autofree char *escaped_dir = g_uri_escape_string (dir, NULL, FALSE);

      hosts = g_strdup_printf ("%s,%s", host, escaped_dir);
      ports = g_strdup_printf ("%u,%s", port, pg_port);
    }
  else
    {
      hosts = g_strdup (host);
      ports = g_strdup_printf ("%u", port);
    }
  timeout = connect_timeout > 0 ? g_strdup_printf ("&connect_timeout=%u", connect_timeout)
                                : g_strdup ("");
  all = g_strjoin (" ", search ? search : "", operator_options ? operator_options : "", NULL);
  escaped_options = g_uri_escape_string (all, NULL, FALSE);
  uri = g_strdup_printf ("postgresql:///%s?host=%s&port=%s&user=%s%s&options=%s", dbname, hosts,
                         ports, user, timeout, escaped_options);
  PQconninfoFree (options);
  return uri;
}
