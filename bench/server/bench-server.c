/* bench-server.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * triage-server under load, measured end to end like an agent and a desktop
 * see it: services POST notifications over HTTP, a user's WebSocket stream
 * receives them. Prints, in one run:
 *
 *   - the raw SQLite commit rate with the server's durability settings (WAL,
 *     synchronous=FULL, one row per transaction) on the same disk;
 *   - closed-loop throughput with K posting clients: durable notifications/s
 *     (201 received) and the ratio to the raw commit rate, plus POST → stream
 *     receipt latency;
 *   - open-loop latency at a fixed rate (p50/p99 POST sent → frame received);
 *   - server RSS with N idle WebSocket connections (total and per connection).
 *
 * Run by bench/server/run.sh, never by meson test.
 */

#define G_LOG_DOMAIN "bench-server"

#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <libsoup/soup.h>
#include <sqlite3.h>

#include "bench-stats.h"
#include "triage-test-server.h"

static int clients = 10;
static int seconds = 5;
static int rate = 200;
static int idle_connections = 1000;

typedef struct _Poster Poster;

typedef struct
{
  GMainLoop   *loop;
  GPtrArray   *posters;       /* Poster*, one keep-alive connection each */
  guint        waiting;       /* open loop: requests due while every poster was busy */
  guint        delayed;       /* open loop: how many had to wait so */
  const char  *url;
  char        *api_key;
  GHashTable  *sent;          /* id → gint64 send time (µs) */
  GArray      *latencies;     /* double ms */
  gint64       deadline;      /* stop posting after this (monotonic µs) */
  guint        posted;        /* 201 received */
  guint        failed;
  guint        in_flight;
  guint        received;
  guint        expected;      /* frames to wait for at the end of a phase */
  gboolean     closed;        /* closed loop: each answer sends the next request */
  gint64       started;       /* open loop: start time (monotonic µs) */
  guint        sent_count;    /* open loop: requests sent */
} Load;

/* A realistic request: title, description, metadata, three actions. */
#define BODY_TEMPLATE \
  "{\"id\":\"%s\",\"context\":{\"title\":\"Deploy build %u to production?\"," \
  "\"description\":\"The pipeline for main finished: 412 tests passed, the canary " \
  "has been healthy for 30 minutes. Approve to roll out to all regions.\"," \
  "\"project\":\"web\",\"metadata\":{\"commit\":\"4f2a9c1\",\"author\":\"ci\"}}," \
  "\"actions\":[{\"id\":\"approve\",\"label\":\"Approve\",\"response_type\":\"simple\"," \
  "\"flags\":[\"irreversible\"]},{\"id\":\"deny\",\"label\":\"Deny\"," \
  "\"response_type\":\"simple\"},{\"id\":\"reason\",\"label\":\"Reason\"," \
  "\"response_type\":\"text\",\"constraints\":{\"max_length\":500}}]}"

/* ---- raw SQLite ---- */

static double
raw_commit_rate (const char *dir,
                 double      duration)
{
  g_autofree char *path = g_build_filename (dir, "raw.db", NULL);
  g_autofree char *body = NULL;
  sqlite3 *db = NULL;
  sqlite3_stmt *insert = NULL;
  guint count = 0;
  gint64 start, end;

  body = g_strdup_printf (BODY_TEMPLATE, "00000000-0000-4000-8000-000000000000", 1u);
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
  return count / ((g_get_monotonic_time () - start) / (double) G_USEC_PER_SEC);
}

/* ---- the stream side ---- */

#define NOTIFICATION_PREFIX "{\"type\":\"notification\",\"data\":{\"id\":\""
#define UUID_LENGTH         36

/* The notification id a frame carries, or NULL for any other frame. The
 * server's frames start with the type and the notification's id: those are
 * read without a JSON parser, so that the load generator spends its CPU on
 * load; anything else is parsed in full. */
static char *
frame_notification_id (const char *text,
                       gsize       length)
{
  g_autoptr(JsonParser) parser = NULL;
  JsonObject *frame, *data;

  if (length > strlen (NOTIFICATION_PREFIX) + UUID_LENGTH &&
      strncmp (text, NOTIFICATION_PREFIX, strlen (NOTIFICATION_PREFIX)) == 0 &&
      text[strlen (NOTIFICATION_PREFIX) + UUID_LENGTH] == '"')
    return g_strndup (text + strlen (NOTIFICATION_PREFIX), UUID_LENGTH);
  if (length > 0 && strstr (text, "\"type\":\"notification\"") == NULL)
    return NULL;
  parser = json_parser_new ();
  if (!json_parser_load_from_data (parser, text, length, NULL) ||
      !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    return NULL;
  frame = json_node_get_object (json_parser_get_root (parser));
  if (g_strcmp0 (json_object_get_string_member_with_default (frame, "type", ""), "notification") != 0)
    return NULL;
  data = json_object_get_object_member (frame, "data");
  return data ? g_strdup (json_object_get_string_member_with_default (data, "id", NULL)) : NULL;
}

static void
on_frame (SoupWebsocketConnection *ws,
          int                      type,
          GBytes                  *message,
          gpointer                 user_data)
{
  Load *load = user_data;
  gsize length;
  const char *text = g_bytes_get_data (message, &length);
  g_autofree char *id = NULL;
  gpointer sent;

  if (type != SOUP_WEBSOCKET_DATA_TEXT || (id = frame_notification_id (text, length)) == NULL ||
      !g_hash_table_lookup_extended (load->sent, id, NULL, &sent))
    return;
  {
    double ms = (g_get_monotonic_time () - GPOINTER_TO_SIZE (sent)) / 1000.0;

    g_array_append_val (load->latencies, ms);
  }
  g_hash_table_remove (load->sent, id);
  load->received++;
  if (load->expected > 0 && load->received >= load->expected)
    g_main_loop_quit (load->loop);
}

static void
on_connected (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  SoupWebsocketConnection **out = user_data;
  g_autoptr(GError) error = NULL;

  *out = soup_session_websocket_connect_finish (SOUP_SESSION (source), result, &error);
  if (*out == NULL)
    g_printerr ("bench-server: WebSocket: %s\n", error->message);
}

static void
connect_streams (SoupSession              *session,
                 const char               *url,
                 const char               *token,
                 SoupWebsocketConnection **streams,
                 guint                     n)
{
  g_autofree char *ws_url = g_strconcat (url, "/api/v1/client/stream", NULL);
  g_autofree char *auth = g_strconcat ("Bearer ", token, NULL);
  gint64 give_up = g_get_monotonic_time () + 120 * G_USEC_PER_SEC;
  guint open = 0;

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(SoupMessage) msg = soup_message_new ("GET", ws_url);

      soup_message_headers_replace (soup_message_get_request_headers (msg), "Authorization", auth);
      streams[i] = NULL;
      soup_session_websocket_connect_async (session, msg, NULL, NULL, G_PRIORITY_DEFAULT,
                                            NULL, on_connected, &streams[i]);
    }
  while (g_get_monotonic_time () < give_up)
    {
      open = 0;
      for (guint i = 0; i < n; i++)
        open += streams[i] != NULL;
      if (open == n)
        break;
      g_main_context_iteration (NULL, TRUE);
    }
  if (open != n)
    g_error ("only %u of %u WebSocket connections opened", open, n);
}

/* ---- the posting side ----
 *
 * A bare HTTP/1.1 client on keep-alive connections: libsoup's client costs
 * more CPU per request than the server does to serve it, and the two share
 * this machine's two cores, so a benchmark built on it would measure itself.
 * It speaks only what triage-server answers to a POST: a status line, headers
 * with a Content-Length, a body. */

struct _Poster
{
  Load    *load;
  GSocket *socket;
  GSource *source;
  GString *out;
  gsize    written;
  GString *in;
  gboolean busy;
};

static void poster_start (Poster *poster);

static void
poster_watch (Poster      *poster,
              GIOCondition condition);

/* Counts a finished request and chains the next one. */
static void
request_done (Poster  *poster,
              gboolean created)
{
  Load *load = poster->load;

  poster->busy = FALSE;
  load->in_flight--;
  if (created)
    load->posted++;
  else if (load->failed++ == 0)
    g_printerr ("bench-server: POST failed: %.*s\n",
                (int) MIN (poster->in->len, 200), poster->in->str);
  if (load->closed)
    {
      if (g_get_monotonic_time () < load->deadline)
        poster_start (poster);
      else if (load->in_flight == 0)
        g_main_loop_quit (load->loop);
    }
  else if (load->waiting > 0)
    {
      load->waiting--;
      poster_start (poster);
    }
}

/* A whole answer in poster->in: its length, or 0 while more is needed. */
static gsize
answer_length (GString *in)
{
  const char *end = strstr (in->str, "\r\n\r\n");
  const char *length;

  if (end == NULL)
    return 0;
  length = g_strstr_len (in->str, end - in->str, "Content-Length: ");
  if (length == NULL)
    g_error ("an answer without Content-Length: %s", in->str);
  if (in->len < (gsize) (end + 4 - in->str) + g_ascii_strtoull (length + 16, NULL, 10))
    return 0;
  return end + 4 - in->str + g_ascii_strtoull (length + 16, NULL, 10);
}

static gboolean
on_poster_ready (GSocket      *socket,
                 GIOCondition  condition,
                 gpointer      user_data)
{
  Poster *poster = user_data;
  g_autoptr(GError) error = NULL;
  char buffer[16384];
  gssize n;
  gsize whole;

  if (poster->written < poster->out->len)
    {
      n = g_socket_send (socket, poster->out->str + poster->written,
                         poster->out->len - poster->written, NULL, &error);
      if (n < 0 && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_WOULD_BLOCK))
        g_error ("send: %s", error->message);
      poster->written += MAX (n, 0);
      poster_watch (poster, poster->written < poster->out->len ? G_IO_OUT : G_IO_IN);
      return G_SOURCE_REMOVE;
    }
  n = g_socket_receive (socket, buffer, sizeof buffer, NULL, &error);
  if (n < 0 && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_WOULD_BLOCK))
    return G_SOURCE_CONTINUE;
  if (n <= 0)
    g_error ("the server closed a keep-alive connection: %s", error ? error->message : "end of stream");
  g_string_append_len (poster->in, buffer, n);
  if ((whole = answer_length (poster->in)) == 0)
    return G_SOURCE_CONTINUE;
  if (whole != poster->in->len)
    g_error ("an answer nobody asked for");
  g_clear_pointer (&poster->source, g_source_unref);
  request_done (poster, g_str_has_prefix (poster->in->str, "HTTP/1.1 201 "));
  return G_SOURCE_REMOVE;
}

static void
poster_watch (Poster      *poster,
              GIOCondition condition)
{
  if (poster->source != NULL)
    {
      g_source_destroy (poster->source);
      g_source_unref (poster->source);
    }
  poster->source = g_socket_create_source (poster->socket, condition | G_IO_ERR | G_IO_HUP, NULL);
  g_source_set_callback (poster->source, G_SOURCE_FUNC (on_poster_ready), poster, NULL);
  g_source_attach (poster->source, NULL);
}

static void
poster_start (Poster *poster)
{
  static guint serial;
  Load *load = poster->load;
  g_autofree char *id = g_uuid_string_random ();
  g_autofree char *body = g_strdup_printf (BODY_TEMPLATE, id, ++serial);

  g_string_printf (poster->out, "POST /api/v1/notifications HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                   "Authorization: Bearer %s\r\nContent-Type: application/json\r\n"
                   "Content-Length: %zu\r\n\r\n%s", load->api_key, strlen (body), body);
  poster->written = 0;
  g_string_truncate (poster->in, 0);
  poster->busy = TRUE;
  g_hash_table_insert (load->sent, g_steal_pointer (&id), GSIZE_TO_POINTER (g_get_monotonic_time ()));
  load->in_flight++;
  on_poster_ready (poster->socket, G_IO_OUT, poster);
}

static Poster *
poster_new (Load *load)
{
  g_autoptr(GSocketClient) client = g_socket_client_new ();
  g_autoptr(GSocketConnection) connection = NULL;
  g_autoptr(GError) error = NULL;
  Poster *poster = g_new0 (Poster, 1);

  connection = g_socket_client_connect_to_uri (client, load->url, 80, NULL, &error);
  if (connection == NULL)
    g_error ("cannot connect to %s: %s", load->url, error->message);
  poster->load = load;
  poster->socket = g_object_ref (g_socket_connection_get_socket (connection));
  /* The socket outlives the connection object only if the stream is not closed with it. */
  g_object_set_data_full (G_OBJECT (poster->socket), "connection", g_steal_pointer (&connection),
                          g_object_unref);
  g_socket_set_blocking (poster->socket, FALSE);
  poster->out = g_string_new (NULL);
  poster->in = g_string_new (NULL);
  return poster;
}

static void
poster_free (Poster *poster)
{
  if (poster->source != NULL)
    {
      g_source_destroy (poster->source);
      g_source_unref (poster->source);
    }
  g_object_unref (poster->socket);
  g_string_free (poster->out, TRUE);
  g_string_free (poster->in, TRUE);
  g_free (poster);
}

/* Sends one notification on an idle connection, or counts it as due. */
static void
post_one (Load *load)
{
  for (guint i = 0; i < load->posters->len; i++)
    {
      Poster *poster = load->posters->pdata[i];

      if (!poster->busy)
        {
          poster_start (poster);
          return;
        }
    }
  load->waiting++;
  load->delayed++;
}

/* Open loop: keeps the number sent at rate × time elapsed, whatever the timer's
 * granularity. */
static gboolean
on_tick (gpointer user_data)
{
  Load *load = user_data;
  gint64 now = g_get_monotonic_time ();
  guint due;

  if (now >= load->deadline)
    return G_SOURCE_REMOVE;
  due = (guint) ((now - load->started) * rate / G_USEC_PER_SEC) + 1;
  while (load->sent_count < due)
    {
      post_one (load);
      load->sent_count++;
    }
  return G_SOURCE_CONTINUE;
}

static gboolean
on_timeout (gpointer user_data)
{
  g_main_loop_quit (user_data);
  return G_SOURCE_REMOVE;
}

/* Waits (bounded) until every frame for the phase's posts has arrived. */
static void
drain (Load *load)
{
  guint timeout;

  load->deadline = 0;
  load->expected = load->received + g_hash_table_size (load->sent);
  if (g_hash_table_size (load->sent) == 0)
    return;
  timeout = g_timeout_add_seconds (10, on_timeout, load->loop);
  g_main_loop_run (load->loop);
  if (g_hash_table_size (load->sent) == 0)
    g_source_remove (timeout);
  load->expected = 0;
}

static void
reset (Load *load)
{
  g_hash_table_remove_all (load->sent);
  load->delayed = 0;
  g_array_set_size (load->latencies, 0);
  load->posted = load->failed = load->received = 0;
}

/* CPU time (user + system) a process has used so far, in µs. */
static gint64
cpu_us (GPid pid)
{
  g_autofree char *path = pid ? g_strdup_printf ("/proc/%d/stat", (int) pid) : g_strdup ("/proc/self/stat");
  g_autofree char *stat = NULL;
  g_auto(GStrv) fields = NULL;
  const char *after_name;

  if (!g_file_get_contents (path, &stat, NULL, NULL) || (after_name = strrchr (stat, ')')) == NULL)
    return 0;
  /* Fields after the name: state is 3rd of the whole line, utime 14th, stime 15th. */
  fields = g_strsplit (after_name + 2, " ", 0);
  if (g_strv_length (fields) < 13)
    return 0;
  return (g_ascii_strtoll (fields[11], NULL, 10) + g_ascii_strtoll (fields[12], NULL, 10)) *
         G_USEC_PER_SEC / sysconf (_SC_CLK_TCK);
}

static void
closed_loop (Load  *load,
             double raw,
             GPid   server)
{
  gint64 start = g_get_monotonic_time ();
  gint64 server_cpu = cpu_us (server), own_cpu = cpu_us (0);
  double elapsed;

  reset (load);
  load->closed = TRUE;
  load->deadline = start + seconds * G_USEC_PER_SEC;
  for (int i = 0; i < clients; i++)
    post_one (load);
  g_main_loop_run (load->loop);
  elapsed = (g_get_monotonic_time () - start) / (double) G_USEC_PER_SEC;
  server_cpu = cpu_us (server) - server_cpu;
  own_cpu = cpu_us (0) - own_cpu;
  load->closed = FALSE;
  drain (load);
  printf ("closed loop, %d clients, %d s: %.0f notifications/s durable (201), "
          "ratio to raw SQLite %.2f; %u received on the stream, %u missing, %u failed\n",
          clients, seconds, load->posted / elapsed, load->posted / elapsed / raw,
          load->received, g_hash_table_size (load->sent), load->failed);
  printf ("  POST -> stream latency under full load: p50 %.1f ms, p99 %.1f ms\n",
          bench_percentile (load->latencies, 0.50), bench_percentile (load->latencies, 0.99));
  /* Two cores are shared by the server and this load generator. */
  printf ("  CPU per notification: server %.0f µs (%.0f%% of a core), load generator %.0f µs\n",
          load->posted ? (double) server_cpu / load->posted : 0, 100.0 * server_cpu / (elapsed * G_USEC_PER_SEC),
          load->posted ? (double) own_cpu / load->posted : 0);
}

static void
open_loop (Load *load)
{
  reset (load);
  load->started = g_get_monotonic_time ();
  load->sent_count = 0;
  load->deadline = load->started + seconds * G_USEC_PER_SEC;
  g_timeout_add_full (G_PRIORITY_HIGH, 1, on_tick, load, NULL);
  g_timeout_add_seconds (seconds, on_timeout, load->loop);
  g_main_loop_run (load->loop);
  load->waiting = 0;
  drain (load);
  printf ("open loop at %d/s for %d s: %u posted, %u received, POST -> stream latency "
          "p50 %.2f ms, p99 %.2f ms, max %.2f ms (%u waited for a free connection)\n",
          rate, seconds, load->posted, load->received,
          bench_percentile (load->latencies, 0.50), bench_percentile (load->latencies, 0.99),
          bench_percentile (load->latencies, 1.0), load->delayed);
}

static gsize
rss_kib (GPid pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/status", (int) pid);
  g_autofree char *status = NULL;
  const char *line;

  if (!g_file_get_contents (path, &status, NULL, NULL) || (line = strstr (status, "VmRSS:")) == NULL)
    return 0;
  return (gsize) g_ascii_strtoull (line + 6, NULL, 10);
}

static void
settle (guint ms)
{
  gint64 until = g_get_monotonic_time () + ms * 1000;

  while (g_get_monotonic_time () < until)
    g_main_context_iteration (NULL, FALSE), g_usleep (1000);
}

static void
idle_memory (TriageTestServer *server,
             SoupSession      *session)
{
  g_autofree char *token = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree SoupWebsocketConnection **streams = g_new0 (SoupWebsocketConnection *, idle_connections);
  GPid pid = triage_test_server_get_pid (server);
  gsize before, after;

  if (!triage_test_server_create_user (server, "idle", &token, &error))
    g_error ("create user: %s", error->message);
  settle (200);
  before = rss_kib (pid);
  connect_streams (session, triage_test_server_get_url (server), token, streams, idle_connections);
  settle (1000);
  after = rss_kib (pid);
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

int
main (int    argc,
      char **argv)
{
  GOptionEntry entries[] = {
    { "clients", 'k', 0, G_OPTION_ARG_INT, &clients, "Posting clients in the closed loop (10)", "K" },
    { "seconds", 's', 0, G_OPTION_ARG_INT, &seconds, "Seconds per measurement (5)", "S" },
    { "rate", 'r', 0, G_OPTION_ARG_INT, &rate, "Notifications/s in the open loop (200)", "R" },
    { "idle", 'i', 0, G_OPTION_ARG_INT, &idle_connections, "Idle WebSocket connections (1000)", "N" },
    { NULL }
  };
  const char * const extra[] = { "--no-limits", NULL };
  TriageTestServerOptions options = { .extra_args = extra };
  g_autoptr(GOptionContext) context = g_option_context_new ("- triage-server load benchmark");
  g_autoptr(GError) error = NULL;
  g_autoptr(TriageTestServer) server = NULL;
  g_autoptr(SoupSession) stream_session = NULL;
  g_autofree char *token = NULL, *service_id = NULL, *secret = NULL;
  g_autofree char *dir = NULL;
  SoupWebsocketConnection *stream = NULL;
  const char * const recipients[] = { "bench", NULL };
  struct rlimit files;
  Load load = { 0 };
  double raw;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) ||
      clients < 1 || seconds < 1 || rate < 1 || idle_connections < 0)
    {
      g_printerr ("bench-server: %s\n", error ? error->message : "values must be positive");
      return 2;
    }
  /* 1,000 connections need more descriptors than the usual soft limit of 1,024,
   * here and in the server (which inherits the raised limit). */
  if (getrlimit (RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < files.rlim_max)
    {
      files.rlim_cur = files.rlim_max;
      setrlimit (RLIMIT_NOFILE, &files);
    }

  dir = g_dir_make_tmp ("bench-server-XXXXXX", &error);
  if (dir == NULL)
    g_error ("%s", error->message);
  raw = raw_commit_rate (dir, seconds);
  printf ("raw SQLite (WAL, synchronous=FULL, one insert per transaction): %.0f commits/s\n", raw);

  server = triage_test_server_new (&options, &error);
  if (server == NULL)
    g_error ("cannot start triage-server: %s", error->message);
  if (!triage_test_server_create_user (server, "bench", &token, &error) ||
      !triage_test_server_create_service (server, "bench", recipients, NULL, &service_id,
                                          &load.api_key, &secret, &error))
    g_error ("setup: %s", error->message);

  stream_session = soup_session_new_with_options ("max-conns", idle_connections + 16,
                                                  "max-conns-per-host", idle_connections + 16,
                                                  NULL);
  load.loop = g_main_loop_new (NULL, FALSE);
  load.posters = g_ptr_array_new_with_free_func ((GDestroyNotify) poster_free);
  load.url = triage_test_server_get_url (server);
  for (int i = 0; i < clients; i++)
    g_ptr_array_add (load.posters, poster_new (&load));
  load.sent = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  load.latencies = g_array_new (FALSE, FALSE, sizeof (double));

  connect_streams (stream_session, load.url, token, &stream, 1);
  g_signal_connect (stream, "message", G_CALLBACK (on_frame), &load);

  closed_loop (&load, raw, triage_test_server_get_pid (server));
  open_loop (&load);
  if (idle_connections > 0)
    idle_memory (server, stream_session);

  soup_websocket_connection_close (stream, SOUP_WEBSOCKET_CLOSE_NORMAL, NULL);
  g_object_unref (stream);
  g_ptr_array_unref (load.posters);
  g_main_loop_unref (load.loop);
  g_hash_table_unref (load.sent);
  g_array_unref (load.latencies);
  g_free (load.api_key);
  triage_test_server_stop (server);
  {
    g_autofree char *raw_db = g_build_filename (dir, "raw.db", NULL);
    g_autofree char *wal = g_strconcat (raw_db, "-wal", NULL);
    g_autofree char *shm = g_strconcat (raw_db, "-shm", NULL);

    g_unlink (raw_db), g_unlink (wal), g_unlink (shm);
    g_rmdir (dir);
  }
  return 0;
}
