/* triage-server-requests.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every HTTP request, from the moment it has been read to the moment its
 * answer has been written (or the connection broke): how many are open (the
 * drain waits for them), its request id (one per request: X-Request-ID and
 * the request_id of an error body), who made it, and its log line.
 *
 * A request answered before its body is read (413, 411, 503 while stopping)
 * never counts as open; it is still logged, with no duration.
 *
 * And the time a client has to send a whole request (--request-timeout): a
 * connection that sends half a request and then nothing, or sits idle
 * between requests, is shut down once it is up, so that clients that never
 * finish cannot hold sockets and memory for ever. One timer checks them all,
 * once a second, while any is being read: a timer per connection would make
 * every turn of the main loop look at each of them (GLib prepares and checks
 * every source on every iteration), which with a thousand slow clients cost
 * every other request milliseconds (bench/server/bench-hostile.py).
 *
 * A request's headers have much less: HEADER_TIMEOUT_S from its start (for
 * a connection's first request, from the moment it is accepted). Clients
 * send them in one go; a peer that opens connections and sends a line, or
 * nothing, held each for the whole --request-timeout (300 s), and thousands
 * of them starved everyone else. A slow body keeps --request-timeout.
 */

#define G_LOG_DOMAIN "triage-server"

#include "triage-metrics.h"
#include "triage-server-private.h"

#define REQUEST_ID_HEADER "X-Request-ID"

/* Seconds a request's headers may take (at most --request-timeout). */
#define HEADER_TIMEOUT_S 10

static GQuark started_quark;   /* monotonic µs + 1 when the request was read; absent = not counted */
static GQuark caller_quark;    /* "user:ID", "service:ID" or "admin" */
static GQuark logged_quark;    /* set once the request's line is written */
static GQuark reading_quark;   /* its link in TriageServer.reading while the request is being read */

/* The request id of @msg, made when first asked for. */
const char *
triage_server_request_id (SoupServerMessage *msg)
{
  SoupMessageHeaders *headers = soup_server_message_get_response_headers (msg);
  const char *id = soup_message_headers_get_one (headers, REQUEST_ID_HEADER);

  if (id == NULL)
    {
      g_autofree char *made = atp_new_uuid ();

      soup_message_headers_replace (headers, REQUEST_ID_HEADER, made);
      id = soup_message_headers_get_one (headers, REQUEST_ID_HEADER);
    }
  return id;
}

/* Who @msg acts for, once its token (or local trust) said so: for the log,
 * never the token itself. */
void
triage_server_note_caller (SoupServerMessage *msg,
                           const char        *kind,
                           const char        *id)
{
  g_object_set_qdata_full (G_OBJECT (msg), caller_quark,
                           id ? g_strconcat (kind, ":", id, NULL) : g_strdup (kind), g_free);
}

static gboolean sweep_deadlines (gpointer data);

struct _TriageServerDeadline
{
  TriageServer       *server;
  GObject            *owner;     /* unowned: the entry dies with it */
  TriageDeadlineFunc  expire;
  GQueue             *queue;     /* server->reading, or server->heading till the headers are read */
  gint64              deadline;  /* monotonic µs */
  gint64              whole;     /* monotonic µs: --request-timeout after it began */
  GList               link;      /* in queue, whose data is this */
};

static TriageServerDeadline *
deadline_new (TriageServer       *self,
              GObject            *owner,
              TriageDeadlineFunc  expire,
              GQueue             *queue,
              gint64              deadline)
{
  TriageServerDeadline *entry = g_new0 (TriageServerDeadline, 1);

  entry->server = self;
  entry->owner = owner;
  entry->expire = expire;
  entry->queue = queue;
  entry->deadline = deadline;
  entry->whole = g_get_monotonic_time () + (gint64) self->request_timeout * G_USEC_PER_SEC;
  entry->link.data = entry;
  g_queue_push_tail_link (queue, &entry->link);
  if (self->reading_sweep == 0)
    self->reading_sweep = g_timeout_add_seconds (1, sweep_deadlines, self);
  return entry;
}

/* Queues @expire (@owner) for --request-timeout from now. All entries of a
 * queue have the same timeout, so each is in deadline order. The caller keeps
 * the entry with @owner and frees it with triage_server_deadline_free() when
 * the wait is over, and @expire must do so. */
TriageServerDeadline *
triage_server_deadline_new (TriageServer       *self,
                            GObject            *owner,
                            TriageDeadlineFunc  expire)
{
  return deadline_new (self, owner, expire, &self->reading,
                       g_get_monotonic_time () + (gint64) self->request_timeout * G_USEC_PER_SEC);
}

/* The wait is over (or its owner gone): it leaves the queue. */
void
triage_server_deadline_free (gpointer data)
{
  TriageServerDeadline *entry = data;

  g_queue_unlink (entry->queue, &entry->link);
  g_free (entry);
}

/* Once a second while any connection is waited for: only the queues' heads
 * are looked at; each expiry frees its entry. */
static gboolean
sweep_deadlines (gpointer data)
{
  TriageServer *self = data;
  gint64 now = g_get_monotonic_time ();
  TriageServerDeadline *oldest;

  while ((oldest = g_queue_peek_head (&self->heading)) != NULL && oldest->deadline <= now)
    oldest->expire (oldest->owner);
  while ((oldest = g_queue_peek_head (&self->reading)) != NULL && oldest->deadline <= now)
    oldest->expire (oldest->owner);
  if (g_queue_is_empty (&self->reading) && g_queue_is_empty (&self->heading))
    {
      self->reading_sweep = 0;
      return G_SOURCE_REMOVE;
    }
  return G_SOURCE_CONTINUE;
}

/* The request was not read in time: its connection is shut down, which ends
 * libsoup's read (the message is aborted and the connection dropped). */
static void
read_timed_out (GObject *owner)
{
  SoupServerMessage *msg = SOUP_SERVER_MESSAGE (owner);
  GSocket *socket = soup_server_message_get_socket (msg);
  TriageServerDeadline *entry = g_object_get_qdata (owner, reading_quark);

  g_debug ("a client did not send %s in time: closing its connection",
           entry->queue == &entry->server->heading ? "a request's headers" : "a whole request");
  g_object_set_qdata (owner, reading_quark, NULL);   /* frees the entry */
  if (socket != NULL)
    g_socket_shutdown (socket, TRUE, TRUE, NULL);
}

/* The headers are in: what is left of the request (its body) has the rest of
 * --request-timeout. Entries that began later may be there already: the
 * entry goes in before them, looked for from the tail (those that began
 * within the last HEADER_TIMEOUT_S seconds). */
static void
on_got_headers (SoupServerMessage *msg,
                gpointer           user_data)
{
  TriageServerDeadline *entry = g_object_get_qdata (G_OBJECT (msg), reading_quark);
  GQueue *reading;
  GList *before;

  triage_server_connection_headers_read (msg);
  if (entry == NULL || entry->queue == &entry->server->reading)
    return;
  reading = &entry->server->reading;
  g_queue_unlink (entry->queue, &entry->link);
  entry->queue = reading;
  entry->deadline = entry->whole;
  for (before = reading->tail;
       before != NULL && ((TriageServerDeadline *) before->data)->deadline > entry->deadline;
       before = before->prev)
    ;
  g_queue_insert_after_link (reading, before, &entry->link);   /* NULL: at the head */
}

/* A new request begins to be read (the first of a connection: as soon as it
 * is accepted; on a kept-alive connection: at the next request's first
 * byte). A new connection past its address's cap is shut down at once.
 * Its headers have HEADER_TIMEOUT_S (a client sends them in one go), the
 * whole request --request-timeout. The entry dies with the message. */
static void
on_request_started (SoupServer        *soup,
                    SoupServerMessage *msg,
                    gpointer           user_data)
{
  TriageServer *self = user_data;
  int header_timeout = MIN (HEADER_TIMEOUT_S, self->request_timeout);

  if (!triage_server_connection_admit (self, msg))
    {
      g_socket_shutdown (soup_server_message_get_socket (msg), TRUE, TRUE, NULL);
      return;
    }
  triage_server_keepalive_unwatch (msg);
  g_object_set_qdata_full (G_OBJECT (msg), reading_quark,
                           deadline_new (self, G_OBJECT (msg), read_timed_out, &self->heading,
                                         g_get_monotonic_time () +
                                         (gint64) header_timeout * G_USEC_PER_SEC),
                           triage_server_deadline_free);
  g_signal_connect (msg, "got-headers", G_CALLBACK (on_got_headers), NULL);
}

static void
on_request_read (SoupServer        *soup,
                 SoupServerMessage *msg,
                 gpointer           user_data)
{
  TriageServer *self = user_data;

  g_object_set_qdata (G_OBJECT (msg), reading_quark, NULL);   /* read in time */
  g_object_set_qdata (G_OBJECT (msg), started_quark,
                      GSIZE_TO_POINTER ((gsize) g_get_monotonic_time () + 1));
  self->inflight++;
}

static void
finished (TriageServer      *self,
          SoupServerMessage *msg,
          gboolean           aborted)
{
  gpointer started = g_object_steal_qdata (G_OBJECT (msg), started_quark);
  gint64 duration = 0;
  guint status = soup_server_message_get_status (msg), route;
  GUri *uri;

  if (g_object_get_qdata (G_OBJECT (msg), logged_quark) != NULL)
    return;
  if (started != NULL)
    {
      self->inflight--;
      duration = g_get_monotonic_time () - ((gint64) GPOINTER_TO_SIZE (started) - 1);
    }
  /* A keep-alive connection closed while it waited for its next request. */
  else if (aborted)
    return;
  uri = soup_server_message_get_uri (msg);
  route = triage_server_route (uri ? g_uri_get_path (uri) : NULL);
  /* The client left first: nothing was delivered, whatever status the answer
   * had (a long-poll woken after its client went away carries its 200, and
   * libsoup turns a write that fails into a 500). */
  if (aborted)
    status = 499;
  triage_metrics_http (route, soup_server_message_get_method (msg), status, duration);
  triage_server_log_request (triage_server_request_id (msg), soup_server_message_get_method (msg),
                             triage_server_route_name (route), status, duration,
                             g_object_get_qdata (G_OBJECT (msg), caller_quark));
  g_object_set_qdata (G_OBJECT (msg), logged_quark, GINT_TO_POINTER (1));
}

/* The answer is written (or the connection broke). A WebSocket upgrade never
 * finishes as a request: its handler calls this once it has the connection. */
void
triage_server_request_done (TriageServer      *self,
                            SoupServerMessage *msg)
{
  if (g_object_get_qdata (G_OBJECT (msg), started_quark) != NULL)
    finished (self, msg, FALSE);
}

static void
on_request_finished (SoupServer        *soup,
                     SoupServerMessage *msg,
                     gpointer           user_data)
{
  triage_server_uncork_answer (msg);
  finished (user_data, msg, FALSE);
  triage_server_keepalive_watch (user_data, msg);
}

static void
on_request_aborted (SoupServer        *soup,
                    SoupServerMessage *msg,
                    gpointer           user_data)
{
  triage_server_uncork_answer (msg);
  finished (user_data, msg, TRUE);
}

void
triage_server_setup_requests (TriageServer *self)
{
  G_STATIC_ASSERT (sizeof (gsize) >= sizeof (gint64));
  started_quark = g_quark_from_static_string ("triage-request-started");
  caller_quark = g_quark_from_static_string ("triage-request-caller");
  logged_quark = g_quark_from_static_string ("triage-request-logged");
  reading_quark = g_quark_from_static_string ("triage-request-reading");
  triage_server_setup_keepalive ();
  g_signal_connect (self->soup, "request-started", G_CALLBACK (on_request_started), self);
  g_signal_connect (self->soup, "request-read", G_CALLBACK (on_request_read), self);
  g_signal_connect (self->soup, "request-finished", G_CALLBACK (on_request_finished), self);
  g_signal_connect (self->soup, "request-aborted", G_CALLBACK (on_request_aborted), self);
}
