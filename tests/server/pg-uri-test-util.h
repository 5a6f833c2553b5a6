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

/* What a URI of the tests' PostgreSQL (@direct) names: its socket's
 * folder and port, database, user and options (the schema). */
typedef struct
{
  char *dir;
  char *port;
  char *dbname;
  char *user;
  char *options;
} PgUriParts;

static inline void
pg_uri_parts (const char *direct,
              PgUriParts *parts)
{
  PQconninfoOption *options = PQconninfoParse (direct, NULL);
  struct { const char *keyword; char **value; } wanted[] = {
    { "host", &parts->dir }, { "port", &parts->port }, { "dbname", &parts->dbname },
    { "user", &parts->user }, { "options", &parts->options },
  };

  g_assert_nonnull (options);
  for (PQconninfoOption *option = options; option->keyword != NULL; option++)
    for (guint i = 0; i < G_N_ELEMENTS (wanted); i++)
      if (g_str_equal (option->keyword, wanted[i].keyword))
        *wanted[i].value = g_strdup (option->val ? option->val : "");
  PQconninfoFree (options);
  g_assert_nonnull (parts->dir);
  g_assert_nonnull (parts->port);
}

static inline void
pg_uri_parts_clear (PgUriParts *parts)
{
  g_free (parts->dir);
  g_free (parts->port);
  g_free (parts->dbname);
  g_free (parts->user);
  g_free (parts->options);
}

/* The path of the Unix socket of @direct (a URI of the tests' PostgreSQL). */
static inline char *
pg_uri_socket_path (const char *direct)
{
  PgUriParts parts = { NULL };
  char *path;

  pg_uri_parts (direct, &parts);
  path = g_strdup_printf ("%s/.s.PGSQL.%s", parts.dir, parts.port);
  pg_uri_parts_clear (&parts);
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
  PgUriParts parts = { NULL };
  g_autofree char *all = NULL, *escaped_options = NULL, *hosts = NULL, *ports = NULL;
  g_autofree char *timeout = NULL;
  char *uri;

  pg_uri_parts (direct, &parts);
  if (then_socket)
    {
      g_autofree char *escaped_dir = g_uri_escape_string (parts.dir, NULL, FALSE);

      hosts = g_strdup_printf ("%s,%s", host, escaped_dir);
      ports = g_strdup_printf ("%u,%s", port, parts.port);
    }
  else
    {
      hosts = g_strdup (host);
      ports = g_strdup_printf ("%u", port);
    }
  timeout = connect_timeout > 0 ? g_strdup_printf ("&connect_timeout=%u", connect_timeout)
                                : g_strdup ("");
  all = g_strjoin (" ", parts.options ? parts.options : "",
                   operator_options ? operator_options : "", NULL);
  escaped_options = g_uri_escape_string (all, NULL, FALSE);
  uri = g_strdup_printf ("postgresql:///%s?host=%s&port=%s&user=%s%s&options=%s", parts.dbname,
                         hosts, ports, parts.user, timeout, escaped_options);
  pg_uri_parts_clear (&parts);
  return uri;
}
