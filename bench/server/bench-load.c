/* bench-load.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The load of the server benchmarks: agents POST notifications over
 * keep-alive HTTP connections (to one server or several), a person's
 * WebSocket stream receives them. A phase runs closed loop (each answer sends
 * the next request) for a time or a number of requests, or open loop at a
 * fixed rate, and says what it came to: 201s, frames received once, twice or
 * never, and the latencies.
 */

#define G_LOG_DOMAIN "bench-load"

#include <string.h>
#include <unistd.h>
#include <json-glib/json-glib.h>

#include "bench-load.h"

typedef struct _Poster Poster;

struct _BenchLoad
{
  GMainLoop  *loop;
  char       *api_key;
  GPtrArray  *posters;       /* Poster*, one keep-alive connection each */
  char       *failover;      /* where a poster goes when its server is gone */
  GHashTable *sent;          /* id → gint64 send time (µs), until its frame comes */
  GHashTable *seen;          /* ids whose frame came */
  BenchPhase  phase;
  guint       waiting;       /* open loop: requests due while every poster was busy */
  guint       in_flight;
  guint       expected;      /* frames to wait for at the end of a phase */
  gboolean    closed;        /* closed loop: each answer sends the next request */
  gint64      deadline;      /* closed loop by time: stop posting after this (monotonic µs) */
  guint       to_send;       /* closed loop by count: requests still to send */
  guint       at;            /* ... and when this many are left, call then */
  GSourceFunc then;
  gpointer    then_data;
  gint64      started;       /* open loop: start time (monotonic µs) */
  guint       sent_count;    /* open loop: requests sent */
  int         rate;
};

struct _Poster
{
  BenchLoad *load;
  char      *url;
  GSocket   *socket;
  GSource   *source;
  GString   *out;
  gsize      written;
  GString   *in;
  gint64     started;
  gboolean   busy;
};

/* ---- the stream side ---- */

#define NOTIFICATION_PREFIX "{\"type\":\"notification\",\"data\":{\"id\":\""
#define UUID_LENGTH         36
#define HEARTBEAT_PREFIX    "{\"type\":\"heartbeat\""

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
  BenchLoad *self = user_data;
  gsize length;
  const char *text = g_bytes_get_data (message, &length);
  g_autofree char *id = NULL;
  gpointer sent;
  double ms;

  /* A client that answers nothing is closed after the idle timeout (60 s):
   * a long phase would lose its stream. */
  if (type == SOUP_WEBSOCKET_DATA_TEXT && length > strlen (HEARTBEAT_PREFIX) &&
      strncmp (text, HEARTBEAT_PREFIX, strlen (HEARTBEAT_PREFIX)) == 0)
    {
      soup_websocket_connection_send_text (ws, "{\"type\":\"heartbeat_ack\"}");
      return;
    }
  if (type != SOUP_WEBSOCKET_DATA_TEXT || (id = frame_notification_id (text, length)) == NULL)
    return;
  if (!g_hash_table_lookup_extended (self->sent, id, NULL, &sent))
    {
      self->phase.duplicates += g_hash_table_contains (self->seen, id);
      return;
    }
  ms = (g_get_monotonic_time () - GPOINTER_TO_SIZE (sent)) / 1000.0;
  g_array_append_val (self->phase.latencies, ms);
  g_hash_table_remove (self->sent, id);
  g_hash_table_add (self->seen, g_steal_pointer (&id));
  self->phase.received++;
  if (self->expected > 0 && self->phase.received >= self->expected)
    g_main_loop_quit (self->loop);
}

void
bench_load_listen (BenchLoad               *self,
                   SoupWebsocketConnection *stream)
{
  g_signal_connect (stream, "message", G_CALLBACK (on_frame), self);
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

void
bench_connect_streams (SoupSession              *session,
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

static void poster_start (Poster *poster);
static void poster_watch (Poster *poster, GIOCondition condition);

/* Counts a finished request and chains the next one. */
static void
request_done (Poster  *poster,
              gboolean created)
{
  BenchLoad *self = poster->load;
  double ms = (g_get_monotonic_time () - poster->started) / 1000.0;

  poster->busy = FALSE;
  self->in_flight--;
  if (created)
    {
      self->phase.posted++;
      g_array_append_val (self->phase.answers, ms);
    }
  else if (self->phase.failed++ == 0)
    g_printerr ("bench-server: POST failed: %.*s\n",
                (int) MIN (poster->in->len, 200), poster->in->str);
  if (self->closed)
    {
      gboolean more = self->deadline != 0 ? g_get_monotonic_time () < self->deadline
                                          : self->to_send > 0;

      if (more)
        poster_start (poster);
      else if (self->in_flight == 0)
        g_main_loop_quit (self->loop);
    }
  else if (self->waiting > 0)
    {
      self->waiting--;
      poster_start (poster);
    }
}

static void
poster_connect (Poster     *poster,
                const char *url)
{
  g_autoptr(GSocketClient) client = g_socket_client_new ();
  g_autoptr(GSocketConnection) connection = NULL;
  g_autoptr(GError) error = NULL;

  connection = g_socket_client_connect_to_uri (client, url, 80, NULL, &error);
  if (connection == NULL)
    g_error ("cannot connect to %s: %s", url, error->message);
  g_clear_object (&poster->socket);
  g_free (poster->url);
  poster->url = g_strdup (url);
  poster->socket = g_object_ref (g_socket_connection_get_socket (connection));
  /* The socket outlives the connection object only if the stream is not closed with it. */
  g_object_set_data_full (G_OBJECT (poster->socket), "connection", g_steal_pointer (&connection),
                          g_object_unref);
  g_socket_set_blocking (poster->socket, FALSE);
}

/* The server went away (or could not store the request): with a failover
 * server, the same request (the same id) goes there, as an agent's retry
 * would; without, the benchmark cannot go on. */
static void
poster_lost (Poster     *poster,
             const char *what)
{
  BenchLoad *self = poster->load;

  if (self->failover == NULL || g_strcmp0 (poster->url, self->failover) == 0)
    g_error ("%s", what);
  poster_connect (poster, self->failover);
  self->phase.retried++;
  poster->written = 0;
  g_string_truncate (poster->in, 0);
  poster_watch (poster, G_IO_OUT);
}

/* A whole answer in @in: its length, or 0 while more is needed. */
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
        {
          poster_lost (poster, error->message);
          return G_SOURCE_REMOVE;
        }
      poster->written += MAX (n, 0);
      poster_watch (poster, poster->written < poster->out->len ? G_IO_OUT : G_IO_IN);
      return G_SOURCE_REMOVE;
    }
  n = g_socket_receive (socket, buffer, sizeof buffer, NULL, &error);
  if (n < 0 && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_WOULD_BLOCK))
    return G_SOURCE_CONTINUE;
  if (n <= 0)
    {
      g_autofree char *what = g_strdup_printf ("the server closed a keep-alive connection: %s",
                                               error ? error->message : "end of stream");

      g_clear_pointer (&poster->source, g_source_unref);
      poster_lost (poster, what);
      return G_SOURCE_REMOVE;
    }
  g_string_append_len (poster->in, buffer, n);
  if ((whole = answer_length (poster->in)) == 0)
    return G_SOURCE_CONTINUE;
  if (whole != poster->in->len)
    g_error ("an answer nobody asked for");
  g_clear_pointer (&poster->source, g_source_unref);
  if (g_str_has_prefix (poster->in->str, "HTTP/1.1 5") && poster->load->failover != NULL)
    poster_lost (poster, poster->in->str);
  else
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
  BenchLoad *self = poster->load;
  g_autofree char *id = g_uuid_string_random ();
  g_autofree char *body = g_strdup_printf (BENCH_BODY_TEMPLATE, id, ++serial);

  g_string_printf (poster->out, "POST /api/v1/notifications HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                   "Authorization: Bearer %s\r\nContent-Type: application/json\r\n"
                   "Content-Length: %zu\r\n\r\n%s", self->api_key, strlen (body), body);
  poster->written = 0;
  g_string_truncate (poster->in, 0);
  poster->busy = TRUE;
  poster->started = g_get_monotonic_time ();
  g_hash_table_insert (self->sent, g_steal_pointer (&id), GSIZE_TO_POINTER (poster->started));
  self->in_flight++;
  if (self->to_send > 0 && --self->to_send == self->at && self->then != NULL)
    self->then (self->then_data);
  on_poster_ready (poster->socket, G_IO_OUT, poster);
}

static void
poster_free (Poster *poster)
{
  if (poster->source != NULL)
    {
      g_source_destroy (poster->source);
      g_source_unref (poster->source);
    }
  g_clear_object (&poster->socket);
  g_string_free (poster->out, TRUE);
  g_string_free (poster->in, TRUE);
  g_free (poster->url);
  g_free (poster);
}

/* @count more posters, each on a connection of its own to @url. */
void
bench_load_add_posters (BenchLoad  *self,
                        const char *url,
                        guint       count)
{
  for (guint i = 0; i < count; i++)
    {
      Poster *poster = g_new0 (Poster, 1);

      poster->load = self;
      poster->out = g_string_new (NULL);
      poster->in = g_string_new (NULL);
      poster_connect (poster, url);
      g_ptr_array_add (self->posters, poster);
    }
}

void
bench_load_clear_posters (BenchLoad *self)
{
  g_ptr_array_set_size (self->posters, 0);
}

/* Where posters go, with the request they were sending, once their server
 * is gone; NULL: nowhere (the benchmark stops). */
void
bench_load_set_failover (BenchLoad  *self,
                         const char *url)
{
  g_free (self->failover);
  self->failover = g_strdup (url);
}

/* Sends one notification on an idle connection, or counts it as due. */
static void
post_one (BenchLoad *self)
{
  for (guint i = 0; i < self->posters->len; i++)
    {
      Poster *poster = self->posters->pdata[i];

      if (!poster->busy)
        {
          poster_start (poster);
          return;
        }
    }
  self->waiting++;
  self->phase.delayed++;
}

/* ---- phases ---- */

static void
reset (BenchLoad *self)
{
  g_hash_table_remove_all (self->sent);
  g_hash_table_remove_all (self->seen);
  g_array_set_size (self->phase.latencies, 0);
  g_array_set_size (self->phase.answers, 0);
  self->phase.posted = self->phase.failed = self->phase.retried = self->phase.received = 0;
  self->phase.duplicates = self->phase.missing = self->phase.delayed = 0;
  self->waiting = 0;
  self->deadline = 0;
  self->to_send = 0;
  self->then = NULL;
}

static gboolean
on_timeout (gpointer user_data)
{
  g_main_loop_quit (user_data);
  return G_SOURCE_REMOVE;
}

/* Waits (bounded) until every frame for the phase's posts has arrived, and
 * a moment more for any that would come twice. */
static void
drain (BenchLoad *self)
{
  guint timeout;

  self->deadline = 0;
  self->closed = FALSE;
  self->expected = self->phase.received + g_hash_table_size (self->sent);
  if (g_hash_table_size (self->sent) > 0)
    {
      timeout = g_timeout_add_seconds (10, on_timeout, self->loop);
      g_main_loop_run (self->loop);
      if (g_hash_table_size (self->sent) == 0)
        g_source_remove (timeout);
    }
  self->expected = 0;
  timeout = g_timeout_add (200, on_timeout, self->loop);
  g_main_loop_run (self->loop);
  self->phase.missing = g_hash_table_size (self->sent);
}

static const BenchPhase *
run_closed (BenchLoad *self)
{
  gint64 start = g_get_monotonic_time ();

  self->closed = TRUE;
  for (guint i = 0; i < self->posters->len; i++)
    post_one (self);
  g_main_loop_run (self->loop);
  self->phase.seconds = (g_get_monotonic_time () - start) / (double) G_USEC_PER_SEC;
  drain (self);
  return &self->phase;
}

/* Closed loop for @seconds: every poster sends its next request as soon as
 * the last is answered. */
const BenchPhase *
bench_load_closed (BenchLoad *self,
                   double     seconds)
{
  reset (self);
  self->deadline = g_get_monotonic_time () + (gint64) (seconds * G_USEC_PER_SEC);
  return run_closed (self);
}

/* Closed loop for @total requests; @then is called once when @at are left. */
const BenchPhase *
bench_load_count (BenchLoad  *self,
                  guint       total,
                  guint       at,
                  GSourceFunc then,
                  gpointer    data)
{
  reset (self);
  self->to_send = total;
  self->at = at;
  self->then = then;
  self->then_data = data;
  return run_closed (self);
}

/* Open loop: keeps the number sent at rate × time elapsed, whatever the timer's
 * granularity. */
static gboolean
on_tick (gpointer user_data)
{
  BenchLoad *self = user_data;
  gint64 now = g_get_monotonic_time ();
  guint due;

  if (now >= self->deadline)
    return G_SOURCE_REMOVE;
  due = (guint) ((now - self->started) * self->rate / G_USEC_PER_SEC) + 1;
  while (self->sent_count < due)
    {
      post_one (self);
      self->sent_count++;
    }
  return G_SOURCE_CONTINUE;
}

/* Open loop at @rate requests a second for @seconds. */
const BenchPhase *
bench_load_open (BenchLoad *self,
                 int        rate,
                 double     seconds)
{
  reset (self);
  self->rate = rate;
  self->started = g_get_monotonic_time ();
  self->sent_count = 0;
  self->deadline = self->started + (gint64) (seconds * G_USEC_PER_SEC);
  g_timeout_add_full (G_PRIORITY_HIGH, 1, on_tick, self, NULL);
  g_timeout_add ((guint) (seconds * 1000), on_timeout, self->loop);
  g_main_loop_run (self->loop);
  self->phase.seconds = seconds;
  self->waiting = 0;
  drain (self);
  return &self->phase;
}

BenchLoad *
bench_load_new (const char *api_key)
{
  BenchLoad *self = g_new0 (BenchLoad, 1);

  self->loop = g_main_loop_new (NULL, FALSE);
  self->api_key = g_strdup (api_key);
  self->posters = g_ptr_array_new_with_free_func ((GDestroyNotify) poster_free);
  self->sent = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->phase.latencies = g_array_new (FALSE, FALSE, sizeof (double));
  self->phase.answers = g_array_new (FALSE, FALSE, sizeof (double));
  return self;
}

void
bench_load_free (BenchLoad *self)
{
  g_ptr_array_unref (self->posters);
  g_main_loop_unref (self->loop);
  g_hash_table_unref (self->sent);
  g_hash_table_unref (self->seen);
  g_array_unref (self->phase.latencies);
  g_array_unref (self->phase.answers);
  g_free (self->api_key);
  g_free (self->failover);
  g_free (self);
}

/* ---- processes ---- */

/* CPU time (user + system) a process has used so far, in µs (0: this one). */
gint64
bench_cpu_us (GPid pid)
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

/* The main thread of @pid (its main loop): ns on a core, and ns it was
 * ready to run but waited for one (its run queue), from its schedstat. */
void
bench_main_thread_ns (GPid    pid,
                      gint64 *on_cpu,
                      gint64 *waiting)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/task/%d/schedstat", (int) pid, (int) pid);
  g_autofree char *text = NULL;
  g_auto(GStrv) fields = NULL;

  *on_cpu = *waiting = 0;
  if (!g_file_get_contents (path, &text, NULL, NULL) ||
      g_strv_length (fields = g_strsplit (text, " ", 3)) < 2)
    return;
  *on_cpu = g_ascii_strtoll (fields[0], NULL, 10);
  *waiting = g_ascii_strtoll (fields[1], NULL, 10);
}

/* CPU time @pid's threads have used, in ns: the schedstat of each task in
 * /proc, finer than bench_cpu_us()'s clock ticks and without the waits for
 * the disk and the scheduler. */
gint64
bench_threads_cpu_ns (GPid pid)
{
  g_autofree char *tasks = g_strdup_printf ("/proc/%d/task", (int) pid);
  g_autoptr(GDir) dir = g_dir_open (tasks, 0, NULL);
  const char *name;
  gint64 total = 0;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (tasks, name, "schedstat", NULL);
      g_autofree char *text = NULL;

      if (g_file_get_contents (path, &text, NULL, NULL))
        total += g_ascii_strtoll (text, NULL, 10);
    }
  return total;
}

/* One HTTP call with a JSON @body to @url's @path as @token, which must
 * answer @expected (anything else ends the benchmark); sets @ms (nullable) to
 * the round trip. Returns the answer's body. */
GBytes *
bench_call (SoupSession *session,
            const char  *url,
            const char  *method,
            const char  *path,
            const char  *token,
            const char  *body,
            guint        expected,
            double      *ms)
{
  g_autofree char *uri = g_strconcat (url, path, NULL);
  g_autoptr(SoupMessage) msg = soup_message_new (method, uri);
  g_autofree char *auth = g_strconcat ("Bearer ", token, NULL);
  g_autoptr(GBytes) request = g_bytes_new (body, strlen (body));
  g_autoptr(GBytes) answer = NULL;
  g_autoptr(GError) error = NULL;
  gint64 start;

  soup_message_headers_replace (soup_message_get_request_headers (msg), "Authorization", auth);
  soup_message_set_request_body_from_bytes (msg, "application/json", request);
  start = g_get_monotonic_time ();
  answer = soup_session_send_and_read (session, msg, NULL, &error);
  if (ms != NULL)
    *ms = (g_get_monotonic_time () - start) / 1000.0;
  if (answer == NULL)
    g_error ("%s %s: %s", method, path, error->message);
  if (soup_message_get_status (msg) != expected)
    g_error ("%s %s: HTTP %u: %.*s", method, path, soup_message_get_status (msg),
             (int) g_bytes_get_size (answer), (const char *) g_bytes_get_data (answer, NULL));
  return g_steal_pointer (&answer);
}

gsize
bench_rss_kib (GPid pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/status", (int) pid);
  g_autofree char *status = NULL;
  const char *line;

  if (!g_file_get_contents (path, &status, NULL, NULL) || (line = strstr (status, "VmRSS:")) == NULL)
    return 0;
  return (gsize) g_ascii_strtoull (line + 6, NULL, 10);
}
