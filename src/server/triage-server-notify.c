/* triage-server-notify.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-server-notify"

#include <string.h>

#include "triage-server-protocol.h"

static gint64
now_us (void)
{
  return g_get_real_time ();
}

char *
format_us (gint64 us)
{
  g_autoptr(GDateTime) time = g_date_time_new_from_unix_utc (us / G_USEC_PER_SEC);
  g_autoptr(GDateTime) exact = g_date_time_add (time, us % G_USEC_PER_SEC);

  return atp_format_timestamp (exact);
}

/* A status update of notification @id, stamped now: what streams and webhooks send. */
JsonNode *
status_update_node (const char *id,
                    int         status,
                    const char *reason)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autoptr(AtpStatusUpdate) update = atp_status_update_new (id, status, reason, now);

  return atp_status_update_to_json (update);
}

/* A stored notification that does not read is said once (per id, for as
 * long as the server runs: a list or a stream meets it again each time). */
static void
log_unreadable (const char *id,
                const char *what)
{
  static GHashTable *said;

  if (said == NULL)
    said = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  if (g_hash_table_contains (said, id))
    return;
  /* Bounded: a database with more damaged rows than that says some again. */
  if (g_hash_table_size (said) >= 1024)
    g_hash_table_remove_all (said);
  g_hash_table_add (said, g_strdup (id));
  g_message ("notification %s in the database: its stored %s does not read as a JSON object "
             "(a damaged row?); it is left out of lists and streams, and a read of it is "
             "answered 500 NOTIFICATION_UNREADABLE", id, what);
}

/* What a read of @row says of where it stands, set in @object (its stored
 * JSON): its status, and the service's reason once it withdrew it (the
 * status update's `reason`, which a client away at the time never saw). */
void
triage_server_set_status (JsonObject                  *object,
                          const TriageNotificationRow *row)
{
  json_object_set_string_member (object, "status", atp_status_to_string (row->status));
  if (row->reason != NULL)
    json_object_set_string_member (object, "reason", row->reason);
}

/* The notification as clients and services see it: stored JSON + status (and
 * reason) (+ response). NULL when its stored JSON does not read (a damaged row, an
 * edit by hand): one bad row must not take the server down, nor every
 * other request with it; the caller leaves it out or answers
 * reply_unreadable (). */
JsonNode *
notification_node (TriageNotificationRow *row,
                   gboolean               with_response)
{
  JsonNode *node = json_from_string (row->json, NULL);
  JsonObject *object;

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      g_clear_pointer (&node, json_node_unref);
      triage_server_log_unreadable (row->id);
      return NULL;
    }
  object = json_node_get_object (node);
  triage_server_set_status (object, row);
  if (with_response && row->response != NULL)
    {
      JsonNode *response = json_from_string (row->response, NULL);

      /* The request still reads: shown without the answer it cannot show. */
      if (response != NULL)
        json_object_set_member (object, "response", response);
      else
        log_unreadable (row->id, "response");
    }
  return node;
}

void
triage_server_log_unreadable (const char *id)
{
  log_unreadable (id, "JSON");
}

/* 500 NOTIFICATION_UNREADABLE for notification @id, whose stored JSON does
 * not read (notification_node ()): not 503, nor the INTERNAL_ERROR of a
 * failure that may pass, as trying again will not mend it. */
void
reply_unreadable (SoupServerMessage *msg,
                  const char        *id)
{
  g_autoptr(JsonObject) details = json_object_new ();
  g_autofree char *message = g_strdup_printf ("The stored notification %s cannot be read (its "
                                              "row in the server's database is damaged)", id);

  json_object_set_string_member (details, "notification_id", id);
  reply_error_details (msg, ATP_ERROR_NOTIFICATION_UNREADABLE, message, details);
}

static void
reply_node (SoupServerMessage *msg,
            guint              status,
            JsonNode          *node)
{
  reply_text (msg, status, atp_json_to_string (node, NULL));
}

/* ---- service endpoints ---- */

gboolean
triage_server_is_same_post (TriageNotificationRow *existing,
                            TriageServiceRow      *service,
                            JsonNode              *body)
{
  g_autoptr(JsonNode) first = NULL;

  if (g_strcmp0 (existing->service_id, service->id) != 0)
    return FALSE;
  first = json_from_string (existing->body, NULL);
  return first != NULL && atp_json_node_equal (first, body);
}

/* A POST of an id that exists: the same submission again from the same
 * service gets the original answer, byte for byte; anything else is a 409. */
static void
reply_existing (SoupServerMessage     *msg,
                TriageNotificationRow *existing,
                TriageServiceRow      *service,
                const char            *body,
                gsize                  length)
{
  g_autoptr(JsonNode) new = atp_json_parse (body, (gssize) length, ATP_MAX_NOTIFICATION_SIZE, NULL);

  if (new != NULL && triage_server_is_same_post (existing, service, new))
    reply_text (msg, 201, g_strdup (existing->answer));
  else
    reply_error (msg, ATP_ERROR_NOTIFICATION_ALREADY_EXISTS,
                 "A different notification with this id already exists");
}

gboolean
triage_server_answer_stored_repeat (TriageServer      *self,
                                    SoupServerMessage *msg,
                                    TriageServiceRow  *service,
                                    int                protocol,
                                    const char        *id,
                                    JsonNode          *body)
{
  g_autoptr(TriageNotificationRow) existing = NULL;
  g_autofree char *lower = NULL;

  if (id == NULL || body == NULL)
    return FALSE;
  lower = g_ascii_strdown (id, -1);
  /* Not read (the database did not answer): the refusal is true all the same. */
  existing = triage_store_get_notification (self->store, lower, NULL);
  if (existing == NULL || existing->protocol != protocol ||
      !triage_server_is_same_post (existing, service, body))
    return FALSE;
  reply_text (msg, 201, g_strdup (existing->answer));
  return TRUE;
}

/* The "id" an ATP submission gives, NULL when none (or not a string). */
static const char *
submitted_id (JsonNode *tree)
{
  JsonNode *member;

  if (!JSON_NODE_HOLDS_OBJECT (tree))
    return NULL;
  member = json_object_get_member (json_node_get_object (tree), "id");
  if (member == NULL || json_node_get_value_type (member) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (member);
}

/* Whether @tree is an envelope of another protocol this server knows (AITP,
 * AFP), refused as such: said before the envelope is read, whose member of
 * that protocol may be missing too (that was 400 MISSING_REQUIRED_FIELD
 * "aitp: required field is missing", the wrong endpoint unsaid). A name no
 * protocol has is the envelope's own error ("must be one of"). */
static gboolean
refuse_other_protocol (SoupServerMessage *msg,
                       JsonNode          *tree)
{
  g_autofree char *message = NULL;
  JsonNode *member;
  AtpProtocol protocol;

  if (!JSON_NODE_HOLDS_OBJECT (tree) ||
      (member = json_object_get_member (json_node_get_object (tree), "protocol")) == NULL ||
      json_node_get_value_type (member) != G_TYPE_STRING ||
      !atp_protocol_from_string (json_node_get_string (member), &protocol) ||
      protocol == ATP_PROTOCOL_ATP)
    return FALSE;
  message = g_strdup_printf ("protocol: this endpoint takes ATP notifications; a request of "
                             "protocol %s goes to its own endpoint",
                             atp_protocol_to_string (protocol));
  reply_error_field (msg, ATP_ERROR_INVALID_FIELD_VALUE, message, "protocol");
  return TRUE;
}

/* How long before the server's now a deadline may have passed and its
 * notification still be taken (it expires at once): the agent's clock a
 * little off, a short deadline on a busy machine, the POST's way here. */
#define DEADLINE_GRACE_US (60 * G_USEC_PER_SEC)

/* A deadline no one could answer before, said as libatp says a deadline
 * before the timestamp the agent gave, field first: not after @timestamp
 * (which the server set to now), or (@now not NULL) after it but more than
 * DEADLINE_GRACE_US before the server's @now when the notification came
 * (both long past; stored, it expired at once, and its agent waited for an
 * expiry). ATP says nothing of the latter; AITP's and AFP's endpoints
 * refuse a past deadline the same way. */
static void
reply_past_deadline (SoupServerMessage *msg,
                     GDateTime         *deadline,
                     GDateTime         *timestamp,
                     GDateTime         *now)
{
  g_autofree char *deadline_text = atp_format_timestamp (deadline);
  g_autofree char *other_text = atp_format_timestamp (now != NULL ? now : timestamp);
  g_autofree char *message = NULL;

  if (now != NULL)
    message = g_strdup_printf ("deadline: passed before the notification came (%s is more than "
                               "a minute before the server's now, %s): no one could answer it in "
                               "time; is the agent's clock right?", deadline_text, other_text);
  else
    message = g_strdup_printf ("deadline: must be after the notification's timestamp, which the "
                               "server set to now (%s is not after %s)", deadline_text,
                               other_text);
  reply_error_field (msg, ATP_ERROR_INVALID_FIELD_VALUE, message, "deadline");
}

static gint64
to_us (GDateTime *time)
{
  return g_date_time_to_unix (time) * G_USEC_PER_SEC + g_date_time_get_microsecond (time);
}

/* triage_server_add_request_text () with what it reads of the envelope
 * (@deadline: unix µs, 0 for none). */
static TriageStoreInsert
add_request (TriageServer *self,
             const char   *id,
             const char   *service_id,
             int           protocol,
             const char   *protocol_id,
             const char   *project,
             gint64        deadline,
             const char   *body,
             const char   *json,
             const char   *answer)
{
  TriageStoreInsert inserted;

  inserted = triage_store_insert_notification (self->store, id, service_id, protocol, protocol_id,
                                               body, json, answer, project, now_us (), deadline);
  if (inserted != TRIAGE_STORE_INSERTED)
    return inserted;
  triage_server_count_when_stored (self, protocol, ATP_STATUS_CREATED, 0, 0);
  /* A creation is no transition: it is published with the JSON just stored. */
  triage_server_publish (self, id, protocol, ATP_STATUS_CREATED, NULL, json);
  if (deadline > 0)
    triage_server_reschedule (self);
  return inserted;
}

void
handle_post_notification (TriageServer      *self,
                          SoupServerMessage *msg)
{
  g_autoptr(TriageServiceRow) service = authenticate_service (self, msg);
  SoupMessageBody *request = soup_server_message_get_request_body (msg);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) tree = NULL;
  g_autoptr(AtpNotification) submission = NULL;
  g_autoptr(GDateTime) created = NULL, now = NULL;
  g_autoptr(TriageNotificationRow) existing = NULL;
  g_autofree char *id = NULL, *answer_text = NULL, *json = NULL, *received = NULL;
  g_autofree char *project = NULL;
  TriageStoreInsert inserted;
  const char *body;
  gsize length, json_length;
  gint64 deadline;
  int protocol;

  if (service == NULL || !triage_server_rate_check (self, msg, TRIAGE_LIMIT_SENDS, service->id))
    return;
  bytes = soup_message_body_flatten (request);
  body = g_bytes_get_data (bytes, &length);
  if (length > ATP_MAX_NOTIFICATION_SIZE)
    {
      reply_error (msg, ATP_ERROR_PAYLOAD_TOO_LARGE, "The notification is too large");
      return;
    }
  /* The tree parsed is kept: completed, it is the notification stored. */
  tree = atp_json_parse (body ? body : "", (gssize) length, ATP_MAX_NOTIFICATION_SIZE, &error);
  if (tree != NULL && refuse_other_protocol (msg, tree))
    return;
  if (tree != NULL)
    submission = atp_notification_new_from_json (tree, ATP_PARSE_SUBMISSION, &error);
  /* A client reads it inside a list page, two levels deeper. */
  if (submission != NULL &&
      !triage_server_check_nesting (tree, NULL, TRIAGE_MAX_ENVELOPE_DEPTH,
                                    ATP_ERROR_INVALID_FIELD_VALUE, &error))
    g_clear_pointer (&submission, atp_notification_unref);
  if (submission == NULL)
    {
      /* Stored before a rule it breaks was added: a retry gets its first answer. */
      if (tree == NULL ||
          !triage_server_answer_stored_repeat (self, msg, service, ATP_PROTOCOL_ATP,
                                               submitted_id (tree), tree))
        reply_gerror (msg, error);
      return;
    }
  id = submission->id ? g_ascii_strdown (submission->id, -1) : atp_new_uuid ();
  now = g_date_time_new_now_utc ();
  created = submission->timestamp ? g_date_time_ref (submission->timestamp) : g_date_time_ref (now);
  if (submission->deadline != NULL &&
      (g_date_time_compare (submission->deadline, created) <= 0 ||
       g_date_time_difference (now, submission->deadline) > DEADLINE_GRACE_US))
    {
      /* An id that exists is answered as such, whatever the new body says
       * (an agent's retry of a POST whose answer it lost, after the deadline). */
      existing = triage_store_get_notification (self->store, id, &error);
      if (existing != NULL)
        reply_existing (msg, existing, service, body, length);
      else if (error != NULL)
        reply_unread (msg, error);
      else
        reply_past_deadline (msg, submission->deadline, created,
                             g_date_time_compare (submission->deadline, created) <= 0 ? NULL : now);
      return;
    }
  /* The submission is ours alone: completed in place, not copied. */
  atp_notification_complete (submission, id, created, service->id, service->name, NULL,
                             ATP_STATUS_CREATED);
  /* The envelope is the agent's JSON completed, written once: that text is
   * stored and sent to the streams (no tree built again from the
   * submission, written and freed). */
  atp_notification_complete_json (submission, tree);
  json = atp_json_to_string (tree, &json_length);
  /* As stored and sent it must fit a client's WebSocket frame: numbers are
   * written in full ("1e14" is 100000000000000), so a body under the limit
   * can make an envelope several times over it. */
  if (json_length > ATP_MAX_NOTIFICATION_SIZE)
    {
      g_autofree char *message =
        g_strdup_printf ("The notification as clients receive it (with the members the server "
                         "adds, and numbers written in full) has %" G_GSIZE_FORMAT " bytes, more "
                         "than the %d a notification may have", json_length,
                         ATP_MAX_NOTIFICATION_SIZE);

      reply_error (msg, ATP_ERROR_PAYLOAD_TOO_LARGE, message);
      return;
    }
  /* When the server took it, which is when it goes to the recipients'
   * clients: the agent's timestamp says when the agent made it, which may
   * be long past or far ahead (docs/protocol.md). */
  received = atp_format_timestamp (now);
  answer_text = atp_json_strings_to_string ("notification_id", id, "status", "created",
                                            "estimated_delivery", received, NULL);
  /* The parsed forms are freed before the insert, which opens the batch's
   * transaction: freed at the end of this function, the tree and the
   * submission of a request of 20,000 options (hundreds of thousands of
   * blocks; seconds under the sanitizers, which record a stack for each)
   * held it open past PostgreSQL's idle_in_transaction_session_timeout.
   * What the insert needs of the submission is kept. */
  project = g_strdup (submission->context.project);
  deadline = submission->deadline ? to_us (submission->deadline) : 0;
  protocol = submission->protocol;
  g_clear_pointer (&tree, json_node_unref);
  g_clear_pointer (&submission, atp_notification_unref);
  /* Stored, or found there: a retry (of this client, or through another
   * server of the database a moment ago) gets the original answer. No look
   * before: most ids are new, and a look costs a round trip to PostgreSQL. */
  inserted = add_request (self, id, service->id, protocol, NULL, project, deadline, body, json,
                          answer_text);
  if (inserted == TRIAGE_STORE_INSERT_EXISTS)
    {
      existing = triage_store_get_notification (self->store, id, &error);
      if (existing != NULL)
        reply_existing (msg, existing, service, body, length);
      else if (error != NULL)
        reply_unread (msg, error);
      else
        reply_error (msg, ATP_ERROR_INTERNAL_ERROR, "Cannot store the notification");
      return;
    }
  if (inserted != TRIAGE_STORE_INSERTED)
    {
      reply_error (msg, ATP_ERROR_STORAGE_UNAVAILABLE,
                   "Cannot store the notification now; nothing was changed, try again later");
      return;
    }
  reply_text (msg, 201, g_steal_pointer (&answer_text));
}

TriageStoreInsert
triage_server_add_request (TriageServer    *self,
                           AtpNotification *envelope,
                           const char      *protocol_id,
                           const char      *body,
                           const char      *answer)
{
  g_autofree char *json = atp_notification_to_string (envelope, NULL);

  return triage_server_add_request_text (self, envelope, protocol_id, body, json, answer);
}

TriageStoreInsert
triage_server_add_request_text (TriageServer    *self,
                                AtpNotification *envelope,
                                const char      *protocol_id,
                                const char      *body,
                                const char      *json,
                                const char      *answer)
{
  return add_request (self, envelope->id, envelope->service.id, envelope->protocol, protocol_id,
                      envelope->context.project,
                      envelope->deadline ? to_us (envelope->deadline) : 0, body, json, answer);
}

/* A notification whose lookup failed (@error: the database did not answer)
 * is not known to be missing: the caller is told to try again (503
 * STORAGE_UNAVAILABLE, Retry-After: 1), never 404 (a client told
 * NOTIFICATION_NOT_FOUND drops the person's answer for good). */
void
reply_unread (SoupServerMessage *msg,
              const GError      *error)
{
  reply_unanswered (msg, "a notification", "Cannot read the notification now (the server's "
                    "database did not answer); nothing was changed, try again later", error);
}

/* 409 for @id, ended with @status; `details` name the notification and, for
 * an expiry, when it expired (its deadline, unix µs; 0 = not known), as in
 * ATP's own example of an error. The message calls it @noun, the word of
 * the protocol its reader speaks (ATP's codes kept). */
void
reply_terminal_conflict (SoupServerMessage *msg,
                         const char        *id,
                         int                status,
                         gint64             deadline,
                         const char        *noun)
{
  g_autoptr(JsonObject) details = json_object_new ();
  g_autofree char *message = NULL;

  json_object_set_string_member (details, "notification_id", id);
  if (status == ATP_STATUS_EXPIRED)
    {
      if (deadline != 0)
        {
          g_autofree char *expired_at = format_us (deadline);

          json_object_set_string_member (details, "expired_at", expired_at);
        }
      message = g_strdup_printf ("The %s has expired", noun);
      reply_error_details (msg, ATP_ERROR_NOTIFICATION_EXPIRED, message, details);
    }
  else if (status == ATP_STATUS_INVALIDATED)
    {
      message = g_strdup_printf ("The %s was invalidated", noun);
      reply_error_details (msg, ATP_ERROR_NOTIFICATION_INVALIDATED, message, details);
    }
  else
    {
      message = g_strdup_printf ("The %s was already responded to", noun);
      reply_error_details (msg, ATP_ERROR_NOTIFICATION_ALREADY_RESPONDED, message, details);
    }
}

void
handle_patch_notification (TriageServer      *self,
                           SoupServerMessage *msg,
                           const char        *id)
{
  g_autoptr(TriageServiceRow) service = authenticate_service (self, msg);
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(TriageNotificationRow) row = NULL;
  g_autoptr(JsonObject) answer = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *updated = NULL;
  g_autofree char *reason = NULL;
  const char *status;
  gboolean failed = FALSE;
  gint64 now = now_us ();

  if (service == NULL ||
      !triage_server_rate_check (self, msg, TRIAGE_LIMIT_STATUS_UPDATES, service->id) ||
      (root = parse_body (msg)) == NULL)
    return;
  status = get_string_or (msg, json_node_get_object (root), "status", TRUE, ATP_ERROR_INVALID_STATUS,
                          &failed);
  if (failed)
    return;
  /* A reason that says nothing ("", blanks) is none. */
  if (!get_reason (msg, json_node_get_object (root), &reason))
    return;
  if (strcmp (status, "invalidated") != 0)
    {
      reply_error_field (msg, ATP_ERROR_INVALID_STATUS,
                         "A service can only set the status to \"invalidated\"", "status");
      return;
    }
  row = triage_store_get_notification (self->store, id, &error);
  if (error != NULL)
    {
      reply_unread (msg, error);
      return;
    }
  if (row == NULL || row->protocol != ATP_PROTOCOL_ATP)
    {
      reply_error (msg, ATP_ERROR_NOTIFICATION_NOT_FOUND, "No such notification");
      return;
    }
  if (strcmp (row->service_id, service->id) != 0)
    {
      reply_error (msg, ATP_ERROR_SERVICE_NOT_OWNER, "The notification belongs to another service");
      return;
    }
  if (!triage_server_invalidate (self, msg, row, reason, now, "notification"))
    return;
  updated = format_us (now);
  answer = json_object_new ();
  json_object_set_string_member (answer, "notification_id", id);
  json_object_set_string_member (answer, "status", "invalidated");
  json_object_set_string_member (answer, "updated_at", updated);
  reply_text (msg, 200, object_to_string (answer));
}

gboolean
triage_server_invalidate (TriageServer          *self,
                          SoupServerMessage     *msg,
                          TriageNotificationRow *row,
                          const char            *reason,
                          gint64                 now,
                          const char            *noun)
{
  g_autoptr(TriageNotificationRow) current = NULL;
  g_autoptr(GError) error = NULL;

  if (triage_store_transition (self->store, row->id, TRIAGE_PENDING_MASK, ATP_STATUS_INVALIDATED,
                               NULL, reason, now, &error))
    {
      triage_server_changed (self, row->id, ATP_STATUS_INVALIDATED, reason);
      return TRUE;
    }
  /* Not stored: nothing is known of it, it is not said to have ended. */
  if (error != NULL)
    {
      reply_unanswered (msg, "the invalidation's change of status", "The invalidation could not "
                        "be stored now (the server's database did not answer); nothing was "
                        "changed, try again later", error);
      return FALSE;
    }
  current = triage_store_get_notification (self->store, row->id, &error);
  /* Unread: not known to have ended. */
  if (error != NULL)
    {
      reply_unread (msg, error);
      return FALSE;
    }
  reply_terminal_conflict (msg, row->id, current ? current->status : ATP_STATUS_RESPONDED,
                           current ? current->deadline : 0, noun);
  return FALSE;
}

void
handle_get_notification (TriageServer      *self,
                         SoupServerMessage *msg,
                         const char        *id,
                         GHashTable        *query)
{
  g_autoptr(TriageServiceRow) service = authenticate_service (self, msg);
  g_autoptr(TriageNotificationRow) row = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;
  guint wait = 0;

  if (service == NULL || !triage_server_parse_wait (msg, query, &wait))
    return;
  row = triage_store_get_notification (self->store, id, &error);
  if (error != NULL)
    {
      reply_unread (msg, error);
      return;
    }
  /* A request of another protocol is read at that protocol's endpoint. */
  if (row == NULL || row->protocol != ATP_PROTOCOL_ATP)
    {
      reply_error (msg, ATP_ERROR_NOTIFICATION_NOT_FOUND, "No such notification");
      return;
    }
  if (strcmp (row->service_id, service->id) != 0)
    {
      reply_error (msg, ATP_ERROR_SERVICE_NOT_OWNER, "The notification belongs to another service");
      return;
    }
  /* A damaged row is said at once: a long-poll of it would wait its whole
   * time for the same answer. */
  if ((node = notification_node (row, TRUE)) == NULL)
    reply_unreadable (msg, row->id);
  else if (wait > 0 && atp_status_is_pending (row->status))
    triage_server_wait (self, msg, id, wait);
  else
    reply_node (msg, 200, node);
}

void
triage_server_shutdown_rest (TriageServer *self)
{
  g_clear_handle_id (&self->deadline_source, g_source_remove);
  g_clear_handle_id (&self->reschedule_source, g_source_remove);
  triage_server_free_waiters (self);
}
