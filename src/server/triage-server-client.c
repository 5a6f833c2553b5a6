/* triage-server-client.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-server-client"

#include <string.h>

#include "triage-server-protocol.h"
#include "triage-server-afp.h"
#include "triage-server-aitp.h"

#define DEFAULT_LIMIT 50
/* ATP's pages are up to 100; a client that knows this server asks for up to
 * 1,000 (the app's resync: ten answers and ten commits of the delivered
 * marks for 10,000 pending instead of a hundred). */
#define MAX_LIMIT     1000

/* REST reads count as delivery. The reader has the new status in the
 * answer (ATP's status updates come "via WebSocket or included in REST
 * responses"), and no stream is owed it: a stream open when the row was
 * made was pushed it, which delivered it then; a stream opened since lists
 * (or is sent) the pending set itself. So the move is not pushed (profile
 * §3 as docs/protocol.md decides it): a resync of 10,000 new rows was 10,000
 * status updates built, logged, sent and parsed, about a change its own
 * client had just read. */
static void
mark_delivered (TriageServer          *self,
                TriageNotificationRow *row)
{
  if (row->status == ATP_STATUS_CREATED &&
      triage_store_mark_delivered (self->store, row->id, g_get_real_time ()))
    row->status = ATP_STATUS_DELIVERED;
  else if (row->status == ATP_STATUS_DELIVERED)
    triage_stream_fresh_read (self, row->id);
}

/* The same for a list page, in one statement: a page of 1,000 new rows was
 * 1,000 UPDATEs. */
static void
mark_page_delivered (TriageServer *self,
                     GPtrArray    *rows)
{
  g_autoptr(GPtrArray) created = g_ptr_array_new ();
  g_autoptr(GHashTable) by_id = g_hash_table_new (g_str_hash, g_str_equal);
  g_auto(GStrv) moved = NULL;

  for (guint i = 0; i < rows->len; i++)
    {
      TriageNotificationRow *row = rows->pdata[i];

      if (row->status != ATP_STATUS_CREATED)
        {
          if (row->status == ATP_STATUS_DELIVERED)
            triage_stream_fresh_read (self, row->id);
          continue;
        }
      g_ptr_array_add (created, row->id);
      g_hash_table_insert (by_id, row->id, row);
    }
  if (created->len == 0)
    return;
  g_ptr_array_add (created, NULL);
  moved = triage_store_mark_delivered_all (self->store, (const char * const *) created->pdata,
                                           g_get_real_time ());
  for (guint i = 0; moved[i] != NULL; i++)
    {
      TriageNotificationRow *row = g_hash_table_lookup (by_id, moved[i]);

      if (row != NULL)
        row->status = ATP_STATUS_DELIVERED;
    }
}

/* The cursor carries the list's total, counted for its first page: a resync
 * of 10,000 pending counted all 10,000 again for each of its ten pages (a
 * quarter of the server's work on a page). A cursor of before ("v1:<seq>")
 * has none: that page counts again. */
#define CURSOR_VERSION "v2"

static gboolean
decode_cursor (const char *cursor,
               gint64     *seq,
               gint64     *total)
{
  g_autofree char *version = NULL;

  return triage_server_cursor_decode (cursor, &version, seq, total) &&
         ((strcmp (version, "v1") == 0 && *total < 0) ||
          (strcmp (version, CURSOR_VERSION) == 0 && *total >= 0));
}

/* A list row as an item of its page: the stored JSON with the row's status
 * and reason (as notification_node () makes it), parsed by the page's one parser:
 * a parser made and dropped for each of a page's 1,000 rows was a third of
 * the time its JSON took (json_from_string ()). NULL when it does not read
 * (a damaged row): it is left out of the page, and said once. */
static JsonNode *
page_item (JsonParser            *parser,
           TriageNotificationRow *row)
{
  JsonNode *node = NULL;

  if (!json_parser_load_from_data (parser, row->json, -1, NULL) ||
      (node = json_parser_steal_root (parser)) == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      g_clear_pointer (&node, json_node_unref);
      triage_server_log_unreadable (row->id);
      return NULL;
    }
  triage_server_set_status (json_node_get_object (node), row);
  return node;
}

static gboolean
drop_page_cb (gpointer data)
{
  return G_SOURCE_REMOVE;
}

/* The query of a list read, checked into @list (and the total its cursor
 * carries into @total, -1 when none); FALSE after answering 400. */
static gboolean
parse_list_query (SoupServerMessage *msg,
                  GHashTable        *query,
                  TriageListQuery   *list,
                  gint64            *total)
{
  const char *status = query ? g_hash_table_lookup (query, "status") : NULL;
  const char *cursor = query ? g_hash_table_lookup (query, "cursor") : NULL;
  const char *sort = query ? g_hash_table_lookup (query, "sort") : NULL;
  AtpStatus wanted;

  list->service_id = query ? g_hash_table_lookup (query, "service_id") : NULL;
  list->project = query ? g_hash_table_lookup (query, "project") : NULL;
  list->newest = TRUE;
  *total = -1;
  if (!triage_server_parse_protocols (msg, query, &list->protocol_mask))
    return FALSE;
  if (status != NULL)
    {
      if (strcmp (status, "pending") == 0)
        list->status_mask = TRIAGE_PENDING_MASK;
      else if (atp_status_from_string (status, &wanted))
        list->status_mask = 1u << wanted;
      else
        {
          reply_error_field (msg, ATP_ERROR_INVALID_PARAMETER,
                             "status must be pending, created, delivered, acknowledged, responded, "
                             "expired or invalidated", "status");
          return FALSE;
        }
    }
  if (!triage_server_parse_limit (msg, query, DEFAULT_LIMIT, MAX_LIMIT, &list->limit))
    return FALSE;
  if (sort != NULL && strcmp (sort, "newest") != 0)
    {
      if (strcmp (sort, "oldest") != 0)
        {
          reply_error_field (msg, ATP_ERROR_INVALID_PARAMETER, "sort must be newest or oldest",
                             "sort");
          return FALSE;
        }
      list->newest = FALSE;
    }
  if (cursor != NULL && !decode_cursor (cursor, &list->after, total))
    {
      reply_error_field (msg, ATP_ERROR_INVALID_PARAMETER, "cursor is not a cursor from this server",
                         "cursor");
      return FALSE;
    }
  return TRUE;
}

/* The page made by the database in one statement (its rows' stored JSON and
 * their statuses now), when the backend can (SQLite): nothing of it goes
 * through json-glib. FALSE when it cannot. */
static gboolean
reply_page_from_store (TriageServer      *self,
                       SoupServerMessage *msg,
                       GPtrArray         *rows,
                       const char        *next,
                       gboolean           has_more,
                       gint64             total)
{
  g_autofree char *pagination = NULL;
  char *page;

  /* A cursor is base64: nothing in it to escape. */
  pagination = g_strdup_printf ("{\"next_cursor\":%s%s%s,\"has_more\":%s,"
                                "\"total_count\":%" G_GINT64_FORMAT "}",
                                next ? "\"" : "", next ? next : "null", next ? "\"" : "",
                                has_more ? "true" : "false", total);
  page = triage_store_page_json (self->store, rows, pagination);
  if (page == NULL)
    return FALSE;
  reply_text (msg, 200, page);
  return TRUE;
}

/* The page made here (PostgreSQL): each row's stored JSON parsed, its status
 * set, and the whole written again. */
static void
reply_page_built (SoupServerMessage *msg,
                  GPtrArray         *rows,
                  const char        *next,
                  gboolean           has_more,
                  gint64             total)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(JsonArray) items = json_array_sized_new (rows->len);
  g_autoptr(JsonObject) answer = json_object_new ();

  for (guint i = 0; i < rows->len; i++)
    {
      JsonNode *item = page_item (parser, rows->pdata[i]);

      /* One damaged row does not cost the person the rest of the page. */
      if (item != NULL)
        json_array_add_element (items, item);
    }
  json_object_set_array_member (answer, "notifications", g_steal_pointer (&items));
  json_object_set_object_member (answer, "pagination",
                                 triage_server_pagination_new (next, has_more, total));
  reply_text (msg, 200, object_to_string (answer));
  /* The page's JSON (1,000 items) is freed once the main loop has nothing
   * more urgent: freed here, it held the answer back by a sixth of the time
   * a page took, and a resync asks for the next page as soon as this one's
   * headers are in (bench/app's full day). */
  g_idle_add_full (G_PRIORITY_LOW, drop_page_cb, g_steal_pointer (&answer),
                   (GDestroyNotify) json_object_unref);
}

/* Answers a list read; FALSE when the answer need not wait for a commit. */
static gboolean
handle_list (TriageServer      *self,
             SoupServerMessage *msg,
             GHashTable        *query)
{
  g_autofree char *user = authenticate_user (self, msg, NULL);
  const char *cursor = query ? g_hash_table_lookup (query, "cursor") : NULL;
  TriageListQuery list = { .user = user, .limit = DEFAULT_LIMIT };
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *next = NULL;
  gboolean has_more = FALSE, durable;
  gint64 total = -1;

  /* A page after the first continues a read already counted (a resync of
   * thousands of pending items is one read, not a burst of polls). */
  if (user == NULL ||
      (cursor == NULL && !triage_server_rate_check (self, msg, TRIAGE_LIMIT_POLLING, user)) ||
      !parse_list_query (msg, query, &list, &total))
    return TRUE;

  rows = triage_store_list (self->store, &list, total < 0 ? &total : NULL, &has_more, &error);
  if (rows == NULL)
    {
      reply_unanswered (msg, "a list of notifications", "Cannot read the notifications now (the "
                        "server's database did not answer); try again later", error);
      return TRUE;
    }
  /* What the page read may go out before the next commit when nothing that
   * is not durable yet is more than a delivered mark: a lost mark is
   * harmless (the row is still created and is delivered again). So neither
   * this page's own marks hold its answer back, nor those of the page read
   * just before, still open when a resync asks for the next page as soon as
   * one is in: each page waited for the commit (an fsync) of the one
   * before. Anything else open (a new notification, an answer, another
   * status) holds the answer until it is durable, as every answer. */
  durable = triage_store_reads_durable (self->store);
  mark_page_delivered (self, rows);
  if (has_more && rows->len > 0)
    {
      next = triage_server_cursor_encode (CURSOR_VERSION,
                                          ((TriageNotificationRow *) rows->pdata[rows->len - 1])->seq,
                                          total);
      triage_server_set_next_cursor (msg, next);
    }
  if (!reply_page_from_store (self, msg, rows, next, has_more, total))
    reply_page_built (msg, rows, next, has_more, total);
  return !durable;
}

static void
handle_client_get (TriageServer      *self,
                   SoupServerMessage *msg,
                   const char        *id)
{
  g_autofree char *user = authenticate_user (self, msg, NULL);
  g_autofree char *lower = g_ascii_strdown (id, -1);
  g_autoptr(TriageNotificationRow) row = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;

  if (user == NULL || !triage_server_rate_check (self, msg, TRIAGE_LIMIT_POLLING, user))
    return;
  if (!triage_store_is_recipient (self->store, lower, user, &error) ||
      (row = triage_store_get_notification (self->store, lower, &error)) == NULL)
    {
      if (error != NULL)
        reply_unread (msg, error);
      else
        reply_error (msg, ATP_ERROR_NOTIFICATION_NOT_FOUND, "No such notification");
      return;
    }
  /* Read before it is marked delivered: one that cannot be shown is not. */
  if ((node = notification_node (row, TRUE)) == NULL)
    {
      reply_unreadable (msg, row->id);
      return;
    }
  mark_delivered (self, row);
  json_object_set_string_member (json_node_get_object (node), "status",
                                 atp_status_to_string (row->status));
  reply_text (msg, 200, atp_json_to_string (node, NULL));
}

static char *
respond_answer (const char *id,
                const char *action_id,
                const char *responded_at)
{
  g_autoptr(JsonObject) answer = json_object_new ();

  json_object_set_string_member (answer, "notification_id", id);
  json_object_set_string_member (answer, "action_id", action_id);
  json_object_set_string_member (answer, "status", "responded");
  json_object_set_string_member (answer, "responded_at", responded_at);
  return object_to_string (answer);
}

/* A retry is the same answer from the same person as the one recorded (the
 * protocol completes it as of when it was first given): it gets the original
 * answer (TRUE). Anyone else was late. */
static gboolean
reply_if_retry (SoupServerMessage          *msg,
                TriageNotificationRow      *row,
                const TriageServerProtocol *protocol,
                AtpNotification            *request,
                const char                 *user,
                const char                 *action_id,
                JsonNode                   *data)
{
  g_autoptr(JsonNode) stored = NULL;
  g_autoptr(AtpResponse) previous = NULL;
  g_autoptr(JsonNode) completed = NULL;

  if (row->status != ATP_STATUS_RESPONDED || row->response == NULL ||
      (stored = json_from_string (row->response, NULL)) == NULL ||
      (previous = atp_response_new_from_json (stored, NULL)) == NULL ||
      g_strcmp0 (previous->responder_id, user) != 0 ||
      !protocol->check_answer (request, action_id, data, previous->responded_at, &completed, NULL) ||
      !atp_response_same_answer (previous, action_id, completed))
    return FALSE;
  reply_text (msg, 200, respond_answer (row->id, action_id,
                                        json_object_get_string_member (json_node_get_object (stored),
                                                                       "responded_at")));
  return TRUE;
}

/* POST /api/v1/client/respond: the one way every answer comes in, whatever
 * the request's protocol; the protocol checks it and says what is stored. */
static void
handle_respond (TriageServer      *self,
                SoupServerMessage *msg)
{
  g_autofree char *user = authenticate_user (self, msg, NULL);
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(TriageNotificationRow) row = NULL;
  g_autoptr(AtpNotification) notification = NULL;
  g_autoptr(GError) error = NULL, unstored = NULL;
  g_autoptr(AtpResponse) response = NULL;
  g_autoptr(GDateTime) now = NULL;
  g_autoptr(JsonNode) response_node = NULL;
  g_autoptr(JsonNode) completed = NULL;
  g_autofree char *id = NULL, *response_text = NULL, *now_text = NULL;
  const TriageServerProtocol *protocol;
  const char *raw_id, *action_id;
  JsonObject *object;
  JsonNode *data;
  gboolean failed = FALSE;

  if (user == NULL || !triage_server_rate_check (self, msg, TRIAGE_LIMIT_RESPONSES, user) ||
      (root = parse_body (msg)) == NULL)
    return;
  object = json_node_get_object (root);
  raw_id = get_string (msg, object, "notification_id", TRUE, &failed);
  if (failed)
    return;
  action_id = get_string (msg, object, "action_id", FALSE, &failed);
  if (failed)
    return;
  data = json_object_get_member (object, "response_data");
  id = g_ascii_strdown (raw_id, -1);
  if (!triage_store_is_recipient (self->store, id, user, &error) ||
      (row = triage_store_get_notification (self->store, id, &error)) == NULL)
    {
      /* Not known to be missing: the answer is not refused, only not yet
       * taken (a client told 404 drops it). */
      if (error != NULL)
        reply_unread (msg, error);
      else
        reply_error (msg, ATP_ERROR_NOTIFICATION_NOT_FOUND, "No such notification");
      return;
    }
  notification = atp_notification_new_from_data (row->json, -1, ATP_PARSE_DEFAULT, &error);
  protocol = triage_server_protocol (row->protocol);
  if (notification == NULL || protocol == NULL)
    {
      triage_server_log_unreadable (row->id);
      reply_unreadable (msg, row->id);
      return;
    }
  if (action_id == NULL && (action_id = protocol->default_action_id) == NULL)
    {
      get_string (msg, object, "action_id", TRUE, &failed);
      return;
    }
  if (reply_if_retry (msg, row, protocol, notification, user, action_id, data))
    return;
  if (atp_status_is_terminal (row->status))
    {
      reply_terminal_conflict (msg, id, row->status, row->deadline, "notification");
      return;
    }
  now = g_date_time_new_now_utc ();
  if (!protocol->check_answer (notification, action_id, data, now, &completed, &error))
    {
      if (g_error_matches (error, ATP_ERROR, ATP_ERROR_INVALID_ACTION_ID))
        reply_error_field (msg, ATP_ERROR_INVALID_ACTION_ID, error->message, "action_id");
      else if (row->protocol == ATP_PROTOCOL_ATP)
        reply_gerror (msg, error);
      else
        reply_gerror_field (msg, error);
      return;
    }
  if (notification->deadline != NULL && g_date_time_compare (now, notification->deadline) >= 0)
    {
      triage_server_reschedule (self);
      reply_terminal_conflict (msg, id, ATP_STATUS_EXPIRED, row->deadline, "notification");
      return;
    }
  response = atp_response_new (id, action_id, completed, now, user, ATP_RESPONDER_HUMAN);
  response_node = atp_response_to_json (response);
  response_text = atp_json_to_string (response_node, NULL);
  if (!triage_store_transition (self->store, id, TRIAGE_PENDING_MASK, ATP_STATUS_RESPONDED,
                                response_text, NULL, g_date_time_to_unix (now) * G_USEC_PER_SEC +
                                g_date_time_get_microsecond (now), &unstored))
    {
      /* Answered meanwhile: by this very retry sent to another server too? */
      g_autoptr(GError) unread = NULL;
      g_autoptr(TriageNotificationRow) current = NULL;

      /* Not stored: nothing is known of it, the answer is not refused. */
      if (unstored != NULL)
        {
          reply_unanswered (msg, "the answer's change of status", "The answer could not be "
                            "stored now (the server's database did not answer); nothing was "
                            "changed, try again later", unstored);
          return;
        }
      current = triage_store_get_notification (self->store, id, &unread);
      /* Unread: not known to have ended, the answer is not refused. */
      if (unread != NULL)
        {
          reply_unread (msg, unread);
          return;
        }
      if (current == NULL ||
          !reply_if_retry (msg, current, protocol, notification, user, action_id, data))
        reply_terminal_conflict (msg, id, current ? current->status : ATP_STATUS_RESPONDED,
                                 current ? current->deadline : 0, "notification");
      return;
    }
  triage_server_changed (self, id, ATP_STATUS_RESPONDED, NULL);
  now_text = atp_format_timestamp (now);
  reply_text (msg, 200, respond_answer (id, action_id, now_text));
}

static void
api_handler (SoupServer        *soup,
             SoupServerMessage *msg,
             const char        *path,
             GHashTable        *query,
             gpointer           user_data)
{
  TriageServer *self = user_data;
  const char *method = soup_server_message_get_method (msg);
  const char *rest;
  gboolean wait = TRUE;

  if (strcmp (path, "/api/v1/services") == 0)
    {
      g_autofree char *address = triage_server_peer_key (msg);

      /* Counted once the admin token is right: a flood without it (its own
       * allowance, check_admin ()) takes nothing of the administrator's. */
      if (strcmp (method, "POST") != 0)
        reply_method_not_allowed (msg, "POST");
      else if (check_admin (self, msg) &&
               triage_server_rate_check (self, msg, TRIAGE_LIMIT_REGISTRATIONS, address) &&
               check_schema (self, msg))
        handle_create_service (self, msg);
    }
  else if (strcmp (path, "/api/v1/admin/users") == 0)
    {
      if (strcmp (method, "POST") != 0)
        reply_method_not_allowed (msg, "POST");
      else if (check_admin (self, msg) && check_schema (self, msg))
        handle_create_user (self, msg);
    }
  else if (strcmp (path, "/api/v1/notifications") == 0)
    {
      if (strcmp (method, "POST") != 0)
        reply_method_not_allowed (msg, "POST");
      else
        handle_post_notification (self, msg);
    }
  else if (g_str_has_prefix (path, "/api/v1/notifications/") &&
           *(rest = path + strlen ("/api/v1/notifications/")) != '\0' && strchr (rest, '/') == NULL)
    {
      g_autofree char *id = g_ascii_strdown (rest, -1);

      if (strcmp (method, "GET") == 0)
        handle_get_notification (self, msg, id, query);
      else if (strcmp (method, "PATCH") == 0)
        handle_patch_notification (self, msg, id);
      else
        reply_method_not_allowed (msg, "GET, PATCH");
    }
  else if (strcmp (path, "/api/v1/client/notifications") == 0)
    {
      if (strcmp (method, "GET") != 0)
        reply_method_not_allowed (msg, "GET");
      else
        wait = handle_list (self, msg, query);
    }
  else if (g_str_has_prefix (path, "/api/v1/client/notifications/") &&
           *(rest = path + strlen ("/api/v1/client/notifications/")) != '\0' &&
           strchr (rest, '/') == NULL)
    {
      if (strcmp (method, "GET") != 0)
        reply_method_not_allowed (msg, "GET");
      else
        handle_client_get (self, msg, rest);
    }
  else if (strcmp (path, "/api/v1/client/respond") == 0)
    {
      if (strcmp (method, "POST") != 0)
        reply_method_not_allowed (msg, "POST");
      else
        handle_respond (self, msg);
    }
  else if (!triage_server_afp_route (self, msg, method, path, query) &&
           !triage_server_aitp_route (self, msg, method, path, query))
    reply_error (msg, ATP_ERROR_NOT_FOUND, "No such endpoint");

  /* Answered now (not a long-poll): held until what it reports on is durable. */
  if (wait && soup_server_message_get_status (msg) != 0)
    triage_server_send_when_durable (self, msg, FALSE);
}

/* Before the body is read: a body larger than any request may be is refused
 * from its Content-Length, and one without a length (chunked) is refused
 * outright, so nobody can make the server hold more than that in memory; a
 * path or query that is not UTF-8 text is refused too, on every endpoint. */
static void
early_handler (SoupServer        *soup,
               SoupServerMessage *msg,
               const char        *path,
               GHashTable        *query,
               gpointer           user_data)
{
  TriageServer *self = user_data;
  SoupMessageHeaders *headers = soup_server_message_get_request_headers (msg);

  /* The drain's last seconds: what is open finishes, nothing new starts. */
  if (self->stopping)
    {
      soup_message_headers_replace (soup_server_message_get_response_headers (msg),
                                    "Connection", "close");
      reply_error (msg, ATP_ERROR_SERVICE_UNAVAILABLE, "This server is shutting down");
    }
  else if (soup_message_headers_get_encoding (headers) == SOUP_ENCODING_CHUNKED)
    reply_error_full (msg, SOUP_STATUS_LENGTH_REQUIRED, "INVALID_REQUEST",
                      "A request body needs a Content-Length (chunked bodies are not accepted)",
                      NULL);
  else if (soup_message_headers_get_content_length (headers) > ATP_MAX_NOTIFICATION_SIZE)
    reply_error (msg, ATP_ERROR_PAYLOAD_TOO_LARGE, "The request body is too large");
  else
    triage_server_check_request_text (msg, path, query);

  /* libsoup 3.2 still reads the body of a request answered here (unless its
   * client waits for 100 Continue) before it sends the answer: dropped as it
   * comes, never held, whatever its length says or however long it goes on. */
  if (soup_server_message_get_status (msg) != 0)
    soup_message_body_set_accumulate (soup_server_message_get_request_body (msg), FALSE);
}

void
triage_server_setup_rest (TriageServer *self)
{
  self->waiters = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  soup_server_add_early_handler (self->soup, NULL, early_handler, self, NULL);
  soup_server_add_handler (self->soup, NULL, api_handler, self, NULL);
}
