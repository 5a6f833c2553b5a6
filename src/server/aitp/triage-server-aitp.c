/* triage-server-aitp.c — the agent endpoints of AITP-02 Decisions
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * POST /api/v1/aitp/decisions asks a person to decide (the body is an AITP
 * message holding request_decision), GET /api/v1/aitp/decisions/{id}[?wait=N]
 * reads it back (with the decision message once answered), PATCH withdraws
 * it. A decision is an ordinary request of the one path
 * (docs/architecture.md): a notification row whose envelope carries the
 * message as its `aitp` member, with the lifecycle, recipients, deadline,
 * streams and respond endpoint every request has.
 */

#define G_LOG_DOMAIN "triage-server-aitp"

#include "triage-server-aitp.h"

#include <string.h>

/* The same request_decision id posted again by the service: the first
 * answer when the body is the same JSON, else a conflict. TRUE when answered. */
static gboolean
answer_repeat (TriageServer      *self,
               SoupServerMessage *msg,
               TriageServiceRow  *service,
               AtpAitpRequest    *request,
               JsonNode          *body)
{
  g_autoptr(TriageNotificationRow) existing = NULL;
  g_autoptr(GError) error = NULL;

  existing = triage_store_find_request (self->store, service->id, ATP_PROTOCOL_AITP, request->id,
                                        &error);
  /* Unread: not known to be new (stored now, a retry would be asked twice). */
  if (error != NULL)
    {
      reply_unanswered (msg, "an earlier decision of a request_decision.id",
                        "Cannot check whether this decision was asked before (the server's "
                        "database did not answer); nothing was stored, try again later", error);
      return TRUE;
    }
  if (existing == NULL)
    return FALSE;

  if (triage_server_is_same_post (existing, service, body))
    reply_text (msg, 201, g_strdup (existing->answer));
  else
    {
      g_autofree char *message =
        g_strdup_printf ("request_decision.id: this service already asked for a decision \"%s\", "
                         "with another body (decision %s)", request->id, existing->id);

      reply_error_field (msg, ATP_ERROR_NOTIFICATION_ALREADY_EXISTS, message, "request_decision.id");
    }
  return TRUE;
}

/* A message refused by a rule of what is submitted, newer than the decision
 * stored for its request_decision.id (more options than a person chooses
 * among): when that decision is this very message posted again by @service,
 * answers the 201 it got first (TRUE). Else nothing is answered: the refusal
 * is the caller's to send. */
static gboolean
answer_stored_repeat (TriageServer      *self,
                      SoupServerMessage *msg,
                      TriageServiceRow  *service,
                      JsonNode          *body)
{
  g_autoptr(AtpAitpRequest) stored = atp_aitp_request_new_from_json (body, NULL);
  g_autoptr(TriageNotificationRow) existing = NULL;

  if (stored == NULL)
    return FALSE;
  /* Not read (the database did not answer): the refusal is true all the same. */
  existing = triage_store_find_request (self->store, service->id, ATP_PROTOCOL_AITP, stored->id,
                                        NULL);
  if (existing == NULL || !triage_server_is_same_post (existing, service, body))
    return FALSE;
  reply_text (msg, 201, g_strdup (existing->answer));
  return TRUE;
}

/* What the inbox, bubble, tray and history show: the title, else the
 * description's first line. */
static char *
derive_title (AtpAitpRequest *request)
{
  char *title = NULL;

  if (request->title != NULL)
    title = triage_server_title_from_text (request->title);
  if (title == NULL)
    title = triage_server_title_from_text (request->description);
  return title != NULL ? title : g_strdup ("Decision requested");
}

static char *
created_answer (const char *id,
                const char *request_decision_id)
{
  g_autoptr(JsonObject) answer = json_object_new ();

  json_object_set_string_member (answer, "id", id);
  json_object_set_string_member (answer, "request_decision_id", request_decision_id);
  json_object_set_string_member (answer, "status", "pending");
  return object_to_string (answer);
}

/* The deadline is the agent's (x-triage.deadline) and must lie ahead. */
static gboolean
check_deadline (SoupServerMessage *msg,
                AtpAitpRequest    *request,
                GDateTime         *now)
{
  g_autofree char *deadline = NULL, *now_text = NULL, *message = NULL;

  if (request->deadline == NULL || g_date_time_compare (request->deadline, now) > 0)
    return TRUE;
  deadline = atp_format_timestamp (request->deadline);
  now_text = atp_format_timestamp (now);
  message = g_strdup_printf ("x-triage.deadline: must be in the future (%s is not after %s)",
                             deadline, now_text);
  reply_error_field (msg, ATP_ERROR_INVALID_FIELD_VALUE, message, "x-triage.deadline");
  return FALSE;
}

/* When the request ends: x-triage.deadline, or sooner the time its last
 * quote expires, after which nothing could be chosen and AITP offers no way
 * to decline (the person could never end it). */
static GDateTime *
dup_envelope_deadline (AtpAitpRequest *request)
{
  g_autoptr(GDateTime) quotes_end = atp_aitp_request_dup_quotes_end (request);

  if (quotes_end != NULL &&
      (request->deadline == NULL || g_date_time_compare (quotes_end, request->deadline) < 0))
    return g_steal_pointer (&quotes_end);
  return request->deadline != NULL ? g_date_time_ref (request->deadline) : NULL;
}

static void
handle_post_decision (TriageServer      *self,
                      SoupServerMessage *msg)
{
  g_autoptr(TriageServiceRow) service = authenticate_service (self, msg);
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(AtpAitpRequest) request = NULL;
  g_autoptr(AtpNotification) envelope = NULL;
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autoptr(GDateTime) deadline = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) body = NULL;
  g_autofree char *id = NULL, *title = NULL, *answer = NULL, *posted = NULL, *json = NULL;
  const char *description;
  TriageStoreInsert inserted;
  gsize size;

  if (service == NULL ||
      !triage_server_rate_check (self, msg, TRIAGE_LIMIT_SENDS, service->id) ||
      (root = parse_body (msg)) == NULL)
    return;

  request = atp_aitp_request_new_submission (root, &error);
  if (request == NULL)
    {
      /* Stored before a rule it breaks was added (more options than a
       * person can choose among): a retry gets its first answer. */
      if (!answer_stored_repeat (self, msg, service, root))
        reply_gerror_field (msg, error);
      return;
    }
  /* The id is a key of the stores (a retry is found by it). */
  if (g_utf8_strlen (request->id, -1) > TRIAGE_MAX_KEY_CHARS)
    {
      g_autofree char *message =
        g_strdup_printf ("request_decision.id: must be at most %d characters, got %ld",
                         TRIAGE_MAX_KEY_CHARS, g_utf8_strlen (request->id, -1));

      reply_error_field (msg, ATP_ERROR_INVALID_FIELD_VALUE, message, "request_decision.id");
      return;
    }
  /* A retry is answered as the first post was, also once its deadline or
   * its quotes have passed since (its answer was lost, the agent retries). */
  if (answer_repeat (self, msg, service, request, root))
    return;
  /* The message is the envelope's `aitp` member: one level down. */
  if (!triage_server_check_nesting (root, NULL, TRIAGE_MAX_ENVELOPE_DEPTH - 1,
                                    ATP_ERROR_INVALID_FIELD_VALUE, &error))
    {
      reply_gerror_field (msg, error);
      return;
    }
  if (!check_deadline (msg, request, now))
    return;
  if (!atp_aitp_request_check_answerable (request, now, &error))
    {
      reply_gerror_field (msg, error);
      return;
    }

  id = atp_new_uuid ();
  title = derive_title (request);
  /* A description that became the whole title is not shown twice. */
  description = atp_str_is_blank (request->description) || g_str_equal (title, request->description)
                  ? NULL : request->description;
  deadline = dup_envelope_deadline (request);
  envelope = triage_server_new_envelope (ATP_PROTOCOL_AITP, id, now, deadline, service,
                                         title, description, request->project, root, &error);
  if (envelope == NULL)
    {
      g_prefix_error (&error, "The decision cannot be made: ");
      reply_error (msg, ATP_ERROR_INTERNAL_ERROR, error->message);
      return;
    }

  /* The envelope, as stored and sent, must fit a WebSocket frame: measured
   * as written, since numbers written in full can make it larger than the
   * body posted ("1e14" is 100000000000000). */
  json = atp_notification_to_string (envelope, &size);
  if (size > ATP_MAX_NOTIFICATION_SIZE)
    {
      g_autofree char *message =
        g_strdup_printf ("request_decision: as the inbox receives it (with the title and "
                         "description Triage adds, and numbers written in full) the decision "
                         "has %" G_GSIZE_FORMAT " bytes, more than the %d a request may have",
                         size, ATP_MAX_NOTIFICATION_SIZE);

      reply_error_field (msg, ATP_ERROR_PAYLOAD_TOO_LARGE, message, "request_decision");
      return;
    }

  answer = created_answer (id, request->id);
  body = soup_message_body_flatten (soup_server_message_get_request_body (msg));
  posted = g_strndup (g_bytes_get_data (body, NULL), g_bytes_get_size (body));
  inserted = triage_server_add_request_text (self, envelope, request->id, posted, json, answer);
  if (inserted == TRIAGE_STORE_INSERT_EXISTS && answer_repeat (self, msg, service, request, root))
    return;   /* the same id posted a moment ago to another server of the database */
  if (inserted != TRIAGE_STORE_INSERTED)
    {
      reply_error (msg, ATP_ERROR_STORAGE_UNAVAILABLE, "Cannot store the decision now");
      return;
    }
  reply_text (msg, 201, g_steal_pointer (&answer));
}

gboolean
triage_server_aitp_route (TriageServer      *self,
                          SoupServerMessage *msg,
                          const char        *method,
                          const char        *path,
                          GHashTable        *query)
{
  const char *rest;

  if (strcmp (path, TRIAGE_AITP_DECISIONS_PATH) == 0)
    {
      if (strcmp (method, "POST") != 0)
        reply_method_not_allowed (msg, "POST");
      else
        handle_post_decision (self, msg);
    }
  else if ((rest = triage_server_path_segment (path, TRIAGE_AITP_DECISIONS_PATH "/")) != NULL)
    {
      g_autofree char *id = g_ascii_strdown (rest, -1);

      if (strcmp (method, "GET") == 0)
        triage_server_agent_get (self, msg, id, query, ATP_PROTOCOL_AITP, "decision request");
      else if (strcmp (method, "PATCH") == 0)
        triage_server_agent_withdraw (self, msg, id, ATP_PROTOCOL_AITP, "decision request");
      else
        reply_method_not_allowed (msg, "GET, PATCH");
    }
  else
    return FALSE;

  return TRUE;
}
