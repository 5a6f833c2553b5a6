/* bench-server.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * triage-server under load, measured end to end like an agent and a desktop
 * see it: services POST notifications over HTTP, a user's WebSocket stream
 * receives them (bench-load.c). Prints, in one run:
 *
 *   - the raw SQLite commit rate with the server's durability settings (WAL,
 *     synchronous=FULL, one row per transaction) on the same disk;
 *   - closed-loop throughput with K posting clients: durable notifications/s
 *     (201 received) and the ratio to the raw commit rate, plus POST → stream
 *     receipt latency; one client alone: the time a POST takes;
 *   - open-loop latency at a fixed rate (p50/p99 POST sent → frame received);
 *   - server RSS with N idle WebSocket connections (total and per connection).
 *
 * With --database postgresql://…, the same server on PostgreSQL, then
 * several servers on that one database (--instances): the raw PostgreSQL
 * commit rate, throughput with one server (against SQLite's) and with
 * several (against one) in rounds back to back (--rounds), where the CPU
 * and the disk's time went, POST to one server → WebSocket
 * on another, and 10,000 requests with a server killed halfway (lost,
 * duplicated). Everything happens in a schema of its own, dropped at the end.
 *
 * Run by bench/server/run.sh, never by meson test.
 */

#define G_LOG_DOMAIN "bench-server"

#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include <libpq-fe.h>
#include <sqlite3.h>

#include "bench-cpu-use.h"
#include "bench-load.h"
#include "bench-stats.h"
#include "triage-test-postgres.h"
#include "triage-test-server.h"

static int clients = 10;
static int seconds = 5;
static int rate = 200;
static int idle_connections = 1000;
static int instances = 2;
static int kill_requests = 10000;
static int rounds = 3;
static char *database;

/* A deployment: servers on one database, the user "bench" with a stream on
 * one of them, a service that sends to them, posters spread over them. */
typedef struct
{
  GPtrArray               *servers;   /* TriageTestServer* */
  char                    *token;
  char                    *service_id;
  char                    *api_key;
  SoupSession             *session;
  SoupWebsocketConnection *stream;
  BenchLoad               *load;
} Deployment;

static const char * const server_args[] = { "--no-limits", NULL };

/* Deployments one after the other on one database: a user and a service
 * each. */
static guint deployments;

static Deployment *
deployment_new (const char *database_uri,
                guint       count)
{
  TriageTestServerOptions options = { .extra_args = server_args, .database = database_uri };
  g_autofree char *user = g_strdup_printf ("bench-%u", ++deployments);
  const char * const recipients[] = { user, NULL };
  Deployment *self = g_new0 (Deployment, 1);
  g_autoptr(GError) error = NULL;

  self->servers = g_ptr_array_new_with_free_func ((GDestroyNotify) triage_test_server_free);
  for (guint i = 0; i < count; i++)
    {
      TriageTestServer *server = i == 0 ? triage_test_server_new (&options, &error)
                                        : triage_test_server_new_peer (self->servers->pdata[0],
                                                                       &options, &error);

      if (server == NULL)
        g_error ("cannot start triage-server: %s", error->message);
      g_ptr_array_add (self->servers, server);
    }
  if (!triage_test_server_create_user (self->servers->pdata[0], user, &self->token, &error) ||
      !triage_test_server_create_service (self->servers->pdata[0], user, recipients, NULL,
                                          &self->service_id, &self->api_key, NULL, &error))
    g_error ("setup: %s", error->message);
  self->session = soup_session_new_with_options ("max-conns", idle_connections + 16,
                                                 "max-conns-per-host", idle_connections + 16,
                                                 NULL);
  self->load = bench_load_new (self->api_key);
  return self;
}

static const char *
url_of (Deployment *self,
        guint       i)
{
  return triage_test_server_get_url (self->servers->pdata[i]);
}

/* Unless its server closed it (or died). */
static void
stream_close (Deployment *self)
{
  if (self->stream != NULL &&
      soup_websocket_connection_get_state (self->stream) == SOUP_WEBSOCKET_STATE_OPEN)
    soup_websocket_connection_close (self->stream, SOUP_WEBSOCKET_CLOSE_NORMAL, NULL);
  g_clear_object (&self->stream);
}

/* The person's stream, on server @i, once the server is done opening it:
 * the handshake is answered before it reads where the stream starts in the
 * event log and its snapshot, and a commit of another server between the
 * two would be in both (a known race, docs/protocol.md) and counted twice;
 * the server answers the request after it only once that is done. */
static void
deployment_listen (Deployment *self,
                   guint       i)
{
  g_autoptr(GBytes) ready = NULL;

  stream_close (self);
  bench_connect_streams (self->session, url_of (self, i), self->token, &self->stream, 1);
  ready = bench_call (self->session, url_of (self, i), "GET", "/healthz", self->token, "", 200, NULL);
  bench_load_listen (self->load, self->stream);
}

/* @count posters spread over the servers @first to @last. */
static void
deployment_post_to (Deployment *self,
                    guint       first,
                    guint       last,
                    guint       count)
{
  bench_load_clear_posters (self->load);
  for (guint i = 0; i < count; i++)
    bench_load_add_posters (self->load, url_of (self, first + i % (last - first + 1)), 1);
}

static void
deployment_free (Deployment *self)
{
  bench_load_free (self->load);
  stream_close (self);
  for (guint i = 0; i < self->servers->len; i++)
    triage_test_server_stop (self->servers->pdata[i]);
  g_ptr_array_unref (self->servers);
  g_object_unref (self->session);
  g_free (self->token);
  g_free (self->service_id);
  g_free (self->api_key);
  g_free (self);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Deployment, deployment_free)

/* ---- where the CPU goes (bench-cpu-use.c) ---- */

static BenchCpu
cpu_now (Deployment *deployment)
{
  GPid pids[BENCH_CPU_MAX_SERVERS];
  guint n = MIN (deployment->servers->len, BENCH_CPU_MAX_SERVERS);

  for (guint i = 0; i < n; i++)
    pids[i] = triage_test_server_get_pid (deployment->servers->pdata[i]);
  return bench_cpu_now (pids, n, database != NULL);
}

static char *
cpu_since (Deployment     *deployment,
           const BenchCpu *before,
           guint           notifications)
{
  BenchCpu after = cpu_now (deployment);

  return bench_cpu_since (before, &after, notifications);
}

/* ---- raw commit rates ---- */

static double
raw_sqlite_rate (const char *dir,
                 double      duration)
{
  g_autofree char *path = g_build_filename (dir, "raw.db", NULL);
  g_autofree char *body = NULL;
  sqlite3 *db = NULL;
  sqlite3_stmt *insert = NULL;
  guint count = 0;
  gint64 start, end;

  body = g_strdup_printf (BENCH_BODY_TEMPLATE, "00000000-0000-4000-8000-000000000000", 1u);
  if (sqlite3_open (path, &db) != SQLITE_OK ||
      sqlite3_exec (db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;"
                    "CREATE TABLE n (seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT UNIQUE,"
                    " body TEXT, json TEXT, answer TEXT, status INTEGER, created_at INTEGER);",
                    NULL, NULL, NULL) != SQLITE_OK)
    g_error ("raw SQLite: %s", sqlite3_errmsg (db));
  sqlite3_prepare_v2 (db, "INSERT INTO n (id, body, json, answer, status, created_at)"
                      " VALUES (?, ?, ?, ?, 0, ?)", -1, &insert, NULL);
  start = g_get_monotonic_time ();
  end = start + (gint64) (duration * G_USEC_PER_SEC);
  while (g_get_monotonic_time () < end)
    {
      g_autofree char *id = g_uuid_string_random ();

      sqlite3_exec (db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
      sqlite3_bind_text (insert, 1, id, -1, SQLITE_STATIC);
      sqlite3_bind_text (insert, 2, body, -1, SQLITE_STATIC);
      sqlite3_bind_text (insert, 3, body, -1, SQLITE_STATIC);
      sqlite3_bind_text (insert, 4, "{\"status\":\"created\"}", -1, SQLITE_STATIC);
      sqlite3_bind_int64 (insert, 5, g_get_real_time ());
      if (sqlite3_step (insert) != SQLITE_DONE)
        g_error ("raw SQLite insert: %s", sqlite3_errmsg (db));
      sqlite3_reset (insert);
      if (sqlite3_exec (db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
        g_error ("raw SQLite commit: %s", sqlite3_errmsg (db));
      count++;
    }
  sqlite3_finalize (insert);
  sqlite3_close (db);
  g_unlink (path);
  return count / ((g_get_monotonic_time () - start) / (double) G_USEC_PER_SEC);
}

/* The same on PostgreSQL: one row per transaction (each INSERT commits),
 * with the database's own durability settings. */
static double
raw_postgres_rate (const char *uri,
                   double      duration)
{
  g_autofree char *body = g_strdup_printf (BENCH_BODY_TEMPLATE,
                                           "00000000-0000-4000-8000-000000000000", 1u);
  PGconn *conn = PQconnectdb (uri);
  PGresult *result;
  guint count = 0;
  gint64 start, end;

  if (PQstatus (conn) != CONNECTION_OK)
    g_error ("raw PostgreSQL: %s", PQerrorMessage (conn));
  PQclear (PQexec (conn, "CREATE TABLE raw (seq BIGSERIAL PRIMARY KEY, id TEXT UNIQUE, body TEXT,"
                         " json TEXT, answer TEXT, status INTEGER, created_at BIGINT)"));
  start = g_get_monotonic_time ();
  end = start + (gint64) (duration * G_USEC_PER_SEC);
  while (g_get_monotonic_time () < end)
    {
      g_autofree char *id = g_uuid_string_random ();
      const char *params[] = { id, body, body, "{\"status\":\"created\"}" };

      result = PQexecParams (conn, "INSERT INTO raw (id, body, json, answer, status, created_at)"
                                   " VALUES ($1, $2, $3, $4, 0, 0)", 4, NULL, params, NULL, NULL, 0);
      if (PQresultStatus (result) != PGRES_COMMAND_OK)
        g_error ("raw PostgreSQL insert: %s", PQresultErrorMessage (result));
      PQclear (result);
      count++;
    }
  PQclear (PQexec (conn, "DROP TABLE raw"));
  PQfinish (conn);
  return count / ((g_get_monotonic_time () - start) / (double) G_USEC_PER_SEC);
}

/* ---- phases ---- */

static double
throughput (Deployment *deployment,
            const char *what,
            double      compare,
            const char *compared_to)
{
  BenchCpu before = cpu_now (deployment);
  const BenchPhase *phase = bench_load_closed (deployment->load, seconds);
  g_autofree char *cpu = cpu_since (deployment, &before, phase->posted);
  double per_second = phase->posted / phase->seconds;

  printf ("%s, %d clients, %d s: %.0f notifications/s durable (201)", what, clients, seconds,
          per_second);
  if (compare > 0)
    printf (", %.2f × %s", per_second / compare, compared_to);
  printf ("; %u received on the stream, %u missing, %u failed\n", phase->received, phase->missing,
          phase->failed);
  printf ("  POST -> 201 p50 %.1f ms, POST -> stream p50 %.1f ms, p99 %.1f ms\n",
          bench_percentile (phase->answers, 0.50), bench_percentile (phase->latencies, 0.50),
          bench_percentile (phase->latencies, 0.99));
  printf ("  CPU: %s\n", cpu);
  return per_second;
}

/* One client alone: what a POST costs in time, the commit included. */
static void
serial (Deployment *deployment,
        const char *what)
{
  const BenchPhase *phase;

  deployment_post_to (deployment, 0, 0, 1);
  phase = bench_load_closed (deployment->load, MIN (seconds, 3));
  printf ("%s, one client: POST -> 201 p50 %.2f ms, p99 %.2f ms (%.0f/s)\n", what,
          bench_percentile (phase->answers, 0.50), bench_percentile (phase->answers, 0.99),
          phase->posted / phase->seconds);
}

static void
latency (Deployment *deployment,
         const char *what)
{
  const BenchPhase *phase = bench_load_open (deployment->load, rate, seconds);

  printf ("%s at %d/s for %d s: %u posted, %u received, POST -> stream latency "
          "p50 %.2f ms, p99 %.2f ms, max %.2f ms (%u waited for a free connection)\n",
          what, rate, seconds, phase->posted, phase->received,
          bench_percentile (phase->latencies, 0.50), bench_percentile (phase->latencies, 0.99),
          bench_percentile (phase->latencies, 1.0), phase->delayed);
}

static void
settle (guint ms)
{
  gint64 until = g_get_monotonic_time () + ms * 1000;

  while (g_get_monotonic_time () < until)
    g_main_context_iteration (NULL, FALSE), g_usleep (1000);
}

static void
idle_memory (Deployment *deployment)
{
  TriageTestServer *server = deployment->servers->pdata[0];
  g_autofree char *token = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree SoupWebsocketConnection **streams = g_new0 (SoupWebsocketConnection *, idle_connections);
  GPid pid = triage_test_server_get_pid (server);
  gsize before, after;

  if (!triage_test_server_create_user (server, "bench-idle", &token, &error))
    g_error ("create user: %s", error->message);
  settle (200);
  before = bench_rss_kib (pid);
  bench_connect_streams (deployment->session, triage_test_server_get_url (server), token, streams,
                         idle_connections);
  settle (1000);
  after = bench_rss_kib (pid);
  printf ("%d idle WebSocket connections: server RSS %.1f MiB (%.1f MiB before them), "
          "%.1f KiB per connection\n",
          idle_connections, after / 1024.0, before / 1024.0,
          (double) (after - MIN (after, before)) / idle_connections);
  for (int i = 0; i < idle_connections; i++)
    {
      soup_websocket_connection_close (streams[i], SOUP_WEBSOCKET_CLOSE_NORMAL, NULL);
      g_object_unref (streams[i]);
    }
}

/* ---- PostgreSQL ---- */

static char *
sql_line (const char *uri,
          const char *sql)
{
  g_autoptr(GError) error = NULL;
  char *rows = triage_test_postgres_run_sql (uri, sql, &error);

  if (rows == NULL)
    g_error ("%s", error->message);
  return g_strstrip (rows);
}

static gint64
commits (const char *uri)
{
  g_autofree char *rows = sql_line (uri, "SELECT xact_commit FROM pg_stat_database"
                                         " WHERE datname = current_database ()");

  return g_ascii_strtoll (rows, NULL, 10);
}

/* The database's WAL (pg_stat_wal): the times it flushed it to disk (a
 * durable commit costs one, unless commits made at the same time share it),
 * the bytes written, and the ms spent flushing (0 unless
 * track_wal_io_timing is on, as run.sh's cluster has it). */
typedef struct
{
  gint64 flushes;
  gint64 bytes;
  double sync_ms;
  gint64 wall;
} Wal;

static Wal
wal_now (const char *uri)
{
  g_autofree char *rows = sql_line (uri, "SELECT wal_sync || ' ' || wal_bytes || ' ' ||"
                                         " wal_sync_time FROM pg_stat_wal");
  g_auto(GStrv) fields = g_strsplit (rows, " ", 3);
  Wal wal = { 0, 0, 0, g_get_monotonic_time () };

  if (g_strv_length (fields) == 3)
    {
      wal.flushes = g_ascii_strtoll (fields[0], NULL, 10);
      wal.bytes = g_ascii_strtoll (fields[1], NULL, 10);
      wal.sync_ms = g_ascii_strtod (fields[2], NULL);
    }
  return wal;
}

/* Flushes and bytes per notification since @before; with the time, the
 * share of the wall time the disk spent flushing (near 1: the disk is the
 * bottleneck). */
static void
print_wal (const char *uri,
           Wal         before,
           double      notifications)
{
  Wal after = wal_now (uri);
  double flushes = (double) (after.flushes - before.flushes);

  printf ("  WAL flushes per notification: %.2f, %.0f bytes per notification", flushes / notifications,
          (after.bytes - before.bytes) / notifications);
  if (after.sync_ms > before.sync_ms && flushes > 0)
    printf ("; flushing %.2f ms each, %.0f %% of the time",
            (after.sync_ms - before.sync_ms) / flushes,
            100 * (after.sync_ms - before.sync_ms) * 1000 / (double) (after.wall - before.wall));
  printf ("\n");
}

/* Where the database's time went, statement by statement, in run.sh's
 * throw-away cluster (it loads pg_stat_statements; the statistics of a
 * database of one's own are left alone): counted from the reset, each
 * statement's calls, plans and time per notification, the costliest first. */
static gboolean
statements_reset (const char *base_uri)
{
  g_autofree char *done = NULL;

  if (g_getenv ("BENCH_POSTMASTER_PID") == NULL)
    return FALSE;
  done = triage_test_postgres_run_sql (base_uri, "SELECT pg_stat_statements_reset ()", NULL);
  return done != NULL;
}

static void
print_statements (const char *base_uri,
                  double      notifications)
{
  g_autofree char *query = NULL, *rows = NULL;
  g_auto(GStrv) lines = NULL;

  query = g_strdup_printf ("SELECT round (calls / %f, 2), round (plans / %f, 2),"
                           " round (((total_plan_time + total_exec_time) * 1000 / %f)::numeric, 1),"
                           " round (rows / %f, 2), left (regexp_replace (query, '\\s+', ' ', 'g'), 64)"
                           " FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database"
                           " WHERE datname = current_database ())"
                           " ORDER BY total_plan_time + total_exec_time DESC LIMIT 20",
                           notifications, notifications, notifications, notifications);
  rows = triage_test_postgres_run_sql (base_uri, query, NULL);
  if (rows == NULL)
    return;
  /* Plans are counted when pg_stat_statements.track_planning is on. */
  printf ("  statements per notification (calls, plans made, µs planning and executing, rows;"
          " the costliest first):\n");
  lines = g_strsplit (g_strstrip (rows), "\n", 0);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto(GStrv) fields = g_strsplit (lines[i], "|", 5);

      if (g_strv_length (fields) == 5)
        printf ("    %5s %5s %7s µs %5s  %s\n", fields[0], fields[1], fields[2], fields[3], fields[4]);
    }
}

static gboolean
kill_first (gpointer data)
{
  Deployment *deployment = data;

  kill (triage_test_server_get_pid (deployment->servers->pdata[0]), SIGKILL);
  return G_SOURCE_REMOVE;
}

/* 10,000 requests to A and B, A killed halfway: the posters on A send what
 * they were sending again, to B, with its id (an agent's retry). */
static void
killed_halfway (const char *uri)
{
  g_autoptr(Deployment) deployment = deployment_new (uri, 2);
  g_autofree char *stored = NULL, *query = NULL, *twice = NULL;
  const BenchPhase *phase;

  deployment_listen (deployment, 1);
  deployment_post_to (deployment, 0, 1, clients);
  bench_load_set_failover (deployment->load, url_of (deployment, 1));
  phase = bench_load_count (deployment->load, kill_requests, kill_requests / 2, kill_first,
                            deployment);
  query = g_strdup_printf ("SELECT COUNT (*) FROM notifications WHERE service_id = '%s'",
                           deployment->service_id);
  stored = sql_line (uri, query);
  twice = sql_line (uri, "SELECT COUNT (*) FROM (SELECT notification_id FROM events"
                         " WHERE type = 'notification' GROUP BY notification_id, user_id"
                         " HAVING COUNT (*) > 1) AS twice");
  printf ("%d requests to 2 servers, the first killed (SIGKILL) after %d: %u answered 201 "
          "(%u sent again to the other), %s stored: %" G_GINT64_FORMAT " lost; the stream on the "
          "other: %u received, %u duplicated, %u missing (%s logged twice)\n",
          kill_requests, kill_requests / 2, phase->posted, phase->retried, stored,
          MAX (0, (gint64) phase->posted - g_ascii_strtoll (stored, NULL, 10)),
          phase->received, phase->duplicates, phase->missing, twice);
}

static void
postgres (const char *base_uri,
          double      sqlite_rate)
{
  g_autofree char *schema = g_strdup_printf ("triage_bench_%d", (int) getpid ());
  g_autofree char *uri = NULL, *create = NULL, *drop = NULL;
  g_autoptr(GString) ratios = g_string_new (NULL);
  double one_sum = 0, several_sum = 0;

  if (strstr (base_uri, "options=") != NULL)
    g_error ("--database: give a URI without options= (the benchmark sets the search_path)");
  create = g_strdup_printf ("CREATE SCHEMA %s", schema);
  drop = g_strdup_printf ("DROP SCHEMA %s CASCADE", schema);
  g_free (sql_line (base_uri, create));
  uri = g_strdup_printf ("%s%coptions=-csearch_path%%3D%s", base_uri,
                         strchr (base_uri, '?') ? '&' : '?', schema);
  printf ("raw PostgreSQL (one insert per transaction, the database's durability settings): "
          "%.0f commits/s\n", raw_postgres_rate (uri, seconds));

  /* One server, then several, in rounds back to back: the load of a shared
   * machine drifts over a minute, and a ratio of two phases far apart
   * measures the drift. Each phase has servers of its own, none idle beside
   * it (an idle server's listener would read every event too). */
  for (int round = 1; round <= rounds; round++)
    {
      gboolean last = round == rounds;
      gboolean profile;
      double one, several;
      gint64 before;

      {
        g_autoptr(Deployment) deployment = deployment_new (uri, 1);
        g_autofree char *what = g_strdup_printf ("PostgreSQL, one server (round %d)", round);
        Wal wal;

        deployment_listen (deployment, 0);
        deployment_post_to (deployment, 0, 0, clients);
        before = commits (uri);
        wal = wal_now (uri);
        profile = statements_reset (base_uri);
        one = throughput (deployment, what, sqlite_rate, "SQLite");
        printf ("  database transactions per notification: %.2f (group commit)\n",
                (commits (uri) - before) / (one * seconds));
        print_wal (uri, wal, one * seconds);
        if (profile)
          print_statements (base_uri, one * seconds);
        if (last)
          {
            latency (deployment, "PostgreSQL, one server, open loop");
            serial (deployment, "PostgreSQL");
          }
      }
      {
        g_autoptr(Deployment) deployment = deployment_new (uri, (guint) instances);
        g_autofree char *what = g_strdup_printf ("PostgreSQL, %d servers (round %d)", instances,
                                                 round);
        Wal wal;

        /* The person's stream on the second server from the start: one opened
         * after the throughput run would begin with a snapshot of everything it
         * left pending (hundreds of frames), and the latency would measure that. */
        deployment_listen (deployment, 1);
        deployment_post_to (deployment, 0, (guint) instances - 1, clients);
        before = commits (uri);
        wal = wal_now (uri);
        profile = statements_reset (base_uri);
        several = throughput (deployment, what, one, "one server, this round");
        printf ("  database transactions per notification: %.2f\n",
                (commits (uri) - before) / (several * seconds));
        /* Batches of several servers that commit side by side share a flush. */
        print_wal (uri, wal, several * seconds);
        if (profile)
          print_statements (base_uri, several * seconds);
        if (last)
          {
            /* Agents on one server, the person on another. */
            deployment_post_to (deployment, 0, 0, clients);
            latency (deployment, "PostgreSQL, POST on server 1 -> WebSocket on server 2, open loop");
          }
      }
      one_sum += one;
      several_sum += several;
      g_string_append_printf (ratios, "%s%.2f", round > 1 ? ", " : "", several / one);
    }
  printf ("PostgreSQL, %d %s back to back: one server %.0f notifications/s (%.2f × SQLite), "
          "%d servers %.0f /s: %.2f × one server (the rounds: %s)\n", rounds,
          rounds == 1 ? "round" : "rounds", one_sum / rounds,
          one_sum / rounds / sqlite_rate, instances, several_sum / rounds, several_sum / one_sum,
          ratios->str);
  killed_halfway (uri);
  g_free (sql_line (base_uri, drop));
}

int
main (int    argc,
      char **argv)
{
  GOptionEntry entries[] = {
    { "clients", 'k', 0, G_OPTION_ARG_INT, &clients, "Posting clients in the closed loop (10)", "K" },
    { "seconds", 's', 0, G_OPTION_ARG_INT, &seconds, "Seconds per measurement (5)", "S" },
    { "rate", 'r', 0, G_OPTION_ARG_INT, &rate, "Notifications/s in the open loop (200)", "R" },
    { "idle", 'i', 0, G_OPTION_ARG_INT, &idle_connections, "Idle WebSocket connections (1000)", "N" },
    { "database", 'd', 0, G_OPTION_ARG_STRING, &database,
      "Also on this PostgreSQL database (a postgresql:// URI)", "URI" },
    { "instances", 'n', 0, G_OPTION_ARG_INT, &instances, "Servers on PostgreSQL at once (2)", "N" },
    { "rounds", 0, 0, G_OPTION_ARG_INT, &rounds,
      "Rounds of one server then several on PostgreSQL (3)", "N" },
    { "kill-requests", 0, 0, G_OPTION_ARG_INT, &kill_requests,
      "Requests of the run with a server killed (10000)", "N" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("- triage-server load benchmark");
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL, *sqlite_path = NULL;
  struct rlimit files;
  double raw, sqlite_rate;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) ||
      clients < 2 || seconds < 1 || rate < 1 || idle_connections < 0 || instances < 2 ||
      kill_requests < 2 || rounds < 1)
    {
      g_printerr ("bench-server: %s\n", error ? error->message
                                              : "values must be positive (2 or more clients, instances)");
      return 2;
    }
  if (database != NULL && !g_str_has_prefix (database, "postgresql://") &&
      !g_str_has_prefix (database, "postgres://"))
    {
      g_printerr ("bench-server: --database takes a postgresql:// URI\n");
      return 2;
    }
  /* 1,000 connections need more descriptors than the usual soft limit of 1,024,
   * here and in the server (which inherits the raised limit). */
  if (getrlimit (RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < files.rlim_max)
    {
      files.rlim_cur = files.rlim_max;
      setrlimit (RLIMIT_NOFILE, &files);
    }

  setvbuf (stdout, NULL, _IOLBF, 0);
  dir = g_dir_make_tmp ("bench-server-XXXXXX", &error);
  if (dir == NULL)
    g_error ("%s", error->message);
  raw = raw_sqlite_rate (dir, seconds);
  printf ("raw SQLite (WAL, synchronous=FULL, one insert per transaction): %.0f commits/s\n", raw);

  sqlite_path = g_build_filename (dir, "server.db", NULL);
  {
    g_autoptr(Deployment) deployment = deployment_new (sqlite_path, 1);

    deployment_listen (deployment, 0);
    deployment_post_to (deployment, 0, 0, clients);
    sqlite_rate = throughput (deployment, "SQLite", raw, "raw SQLite");
    latency (deployment, "SQLite, open loop");
    serial (deployment, "SQLite");
    if (idle_connections > 0)
      idle_memory (deployment);
  }
  if (database != NULL)
    postgres (database, sqlite_rate);

  {
    g_autofree char *wal = g_strconcat (sqlite_path, "-wal", NULL);
    g_autofree char *shm = g_strconcat (sqlite_path, "-shm", NULL);

    g_unlink (sqlite_path), g_unlink (wal), g_unlink (shm);
    g_rmdir (dir);
  }
  return 0;
}
