/* triage-test-server.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>
#include <libsoup/soup.h>

G_BEGIN_DECLS

/* The database: by default a new one of the backend the environment names
 * (TRIAGE_TEST_BACKEND=postgresql: a database in the tests' own PostgreSQL,
 * see triage-test-postgres.h; else a SQLite file in the server's folder). */
typedef struct
{
  gboolean            unix_socket;   /* listen on a temp Unix socket instead of 127.0.0.1:0 */
  gboolean            tls;           /* https:// with the test certificate of tests/server/tls */
  const char * const *extra_args;    /* NULL-terminated, e.g. "--heartbeat-interval", "1" */
  gboolean            bulk;          /* takes thousands of requests: see start_process () */
  const char         *database;      /* this database instead (a path or postgresql:// URI) */
  const char         *log_file;      /* the server's standard error goes here (each start anew) */
  const char * const *environment;   /* NULL-terminated "NAME=value", set in the server's environment */
} TriageTestServerOptions;

typedef struct _TriageTestServer TriageTestServer;

TriageTestServer *triage_test_server_new             (const TriageTestServerOptions *opts,
                                                      GError                       **error);
TriageTestServer *triage_test_server_new_peer        (TriageTestServer             *other,
                                                      const TriageTestServerOptions *opts,
                                                      GError                       **error);
gboolean          triage_test_server_stop            (TriageTestServer *self);
void              triage_test_server_kill            (TriageTestServer *self);
gboolean          triage_test_server_restart         (TriageTestServer *self,
                                                      GError          **error);
GTlsDatabase     *triage_test_server_new_tls_database (GError         **error);
SoupSession      *triage_test_server_get_session     (TriageTestServer *self);
const char       *triage_test_server_get_url         (TriageTestServer *self);
const char       *triage_test_server_get_socket_path (TriageTestServer *self);
const char       *triage_test_server_get_admin_token (TriageTestServer *self);
const char       *triage_test_server_get_database    (TriageTestServer *self);
gboolean          triage_test_server_is_postgres     (TriageTestServer *self);
char             *triage_test_server_run_sql         (TriageTestServer *self,
                                                      const char       *sql,
                                                      GError          **error);
GPid              triage_test_server_get_pid         (TriageTestServer *self);
void              triage_test_server_set_file_size_limit (TriageTestServer *self,
                                                          guint64           limit);
gboolean          triage_test_server_create_user     (TriageTestServer *self,
                                                      const char       *id,
                                                      char            **token,
                                                      GError          **error);
gboolean          triage_test_server_create_service  (TriageTestServer   *self,
                                                      const char         *name,
                                                      const char * const *recipients,
                                                      const char         *callback_url,
                                                      char              **service_id,
                                                      char              **api_key,
                                                      char              **webhook_secret,
                                                      GError            **error);
void              triage_test_server_free            (TriageTestServer *self);

/* Sync HTTP request; @token may be NULL, @body may be NULL. */
gboolean          triage_test_http                   (TriageTestServer *self,
                                                      const char       *method,
                                                      const char       *path,
                                                      const char       *token,
                                                      const char       *body,
                                                      guint            *status,
                                                      char            **body_out,
                                                      GError          **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TriageTestServer, triage_test_server_free)

/* A helper program of the tests (a Python script under tests/, run with
 * /usr/bin/python3 and @args) that prints "listening on URL" once it serves;
 * it dies with the test and ends when its standard input closes. */
GSubprocess *triage_test_spawn_peer (const char         *script,
                                     const char * const *args,
                                     char              **url);

void         triage_test_remove_tree (const char         *path);
/* A GSpawnChildSetupFunc: the child is killed when the test ends, however. */
void         triage_test_die_with_parent (gpointer        data);

/* Waiting in tests: no wait comes near the watchdog; reaching it fails the
 * test at once (with what it waited for), never hangs it. */
#define TRIAGE_TEST_WATCHDOG_S 30

gboolean triage_test_watchdog_cb (gpointer what);
void     triage_test_sleep       (guint    ms);

/* Runs the default main context until @cond holds. */
#define triage_test_wait_until(cond, what) \
  triage_test_wait_until_within (cond, what, TRIAGE_TEST_WATCHDOG_S)

/* The same, for the few waits that are long by nature (thousands of requests):
 * the watchdog fires after @seconds. */
#define triage_test_wait_until_within(cond, what, seconds)                               \
  G_STMT_START {                                                                         \
    guint _watchdog = g_timeout_add_seconds ((seconds), triage_test_watchdog_cb,         \
                                             (gpointer) (what));                         \
    while (!(cond))                                                                      \
      g_main_context_iteration (NULL, TRUE);                                             \
    g_source_remove (_watchdog);                                                         \
  } G_STMT_END

G_END_DECLS
