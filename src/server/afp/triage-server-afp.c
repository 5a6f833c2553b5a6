/* triage-server-afp.c — the agent endpoints of the Agent Feedback Protocol 1.2
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * POST /api/v1/afp/reviews asks for a review (starting or continuing a
 * session), GET /api/v1/afp/reviews/{id}[?wait=N] reads it back (with the
 * Response Object once it is settled), PATCH withdraws it, and GET
 * /api/v1/afp/sessions/{id} says what a session holds. A review is an
 * ordinary request of the one path (docs/architecture.md): stored as a
 * notification row whose envelope carries the `afp` member, with the same
 * lifecycle, recipients, deadline, streams and respond endpoint as any.
 */

#define G_LOG_DOMAIN "triage-server-afp"

#include "triage-server-afp-private.h"

#include <string.h>

#define SESSION_ID_LENGTH 24   /* random characters after "ses_" */

AtpAfpReview *
triage_server_afp_review_of (AtpNotification  *envelope,
                             GError          **error)
{
  if (envelope->protocol != ATP_PROTOCOL_AFP || envelope->payload == NULL)
    {
      g_set_error_literal (error, ATP_ERROR, ATP_ERROR_INTERNAL_ERROR,
                           "The request is not an AFP review");
      return NULL;
    }

  return atp_afp_review_new_from_json (envelope->payload, error);
}

/* ---- POST /api/v1/afp/reviews ---- */

typedef struct
{
  char      *id;           /* the review id, lower case (given or new) */
  JsonNode  *request;      /* the Request Object as posted */
  char      *session_id;   /* NULL: a new session */
  GDateTime *deadline;
  char      *title;
  char      *project;
} Submission;

static void
submission_clear (Submission *submission)
{
  g_free (submission->id);
  g_clear_pointer (&submission->request, json_node_unref);
  g_free (submission->session_id);
  g_clear_pointer (&submission->deadline, g_date_time_unref);
  g_free (submission->title);
  g_free (submission->project);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Submission, submission_clear)

static gboolean
read_submission (SoupServerMessage *msg,
                 JsonObject        *object,
                 Submission        *out)
{
  static const char * const known[] = {
    "id", "request", "session_id", "deadline", "title", "project", NULL
  };
  g_autoptr(GList) names = json_object_get_members (object);
  g_autofree char *id = NULL;
  g_autofree char *deadline = NULL;
  JsonNode *request;

  for (GList *l = names; l != NULL; l = l->next)
    {
      if (!g_strv_contains (known, l->data))
        {
          g_autofree char *message = g_strdup_printf ("%s: unknown member (a review takes id, "
                                                      "request, session_id, deadline, title, "
                                                      "project)", (const char *) l->data);

          reply_error_field (msg, ATP_ERROR_INVALID_REQUEST, message, l->data);
          return FALSE;
        }
    }

  if (!get_text (msg, object, "id", &id) ||
      !get_text (msg, object, "session_id", &out->session_id) ||
      !get_text (msg, object, "deadline", &deadline) ||
      !get_text (msg, object, "title", &out->title) ||
      !get_text (msg, object, "project", &out->project))
    return FALSE;

  if (id != NULL && !atp_is_uuid_v4 (id))
    {
      reply_error_field (msg, ATP_ERROR_INVALID_FIELD_VALUE, "id: must be a UUID v4", "id");
      return FALSE;
    }
  out->id = id != NULL ? g_ascii_strdown (id, -1) : atp_new_uuid ();

  if (deadline != NULL)
    {
      out->deadline = atp_parse_timestamp (deadline);
      if (out->deadline == NULL)
        {
          g_autofree char *got = atp_json_describe (json_object_get_member (object, "deadline"));
          g_autofree char *message =
            g_strdup_printf ("deadline: must be an RFC 3339 date-time with a time zone offset "
                             "(e.g. \"2025-05-25T10:30:00Z\"), got %s", got);

          reply_error_field (msg, ATP_ERROR_INVALID_FIELD_VALUE, message, "deadline");
          return FALSE;
        }
    }

  request = json_object_get_member (object, "request");
  if (request == NULL || JSON_NODE_HOLDS_NULL (request))
    {
      reply_error_field (msg, ATP_ERROR_MISSING_REQUIRED_FIELD, "request: required field is missing",
                         "request");
      return FALSE;
    }
  out->request = json_node_ref (request);
  return TRUE;
}

/* The request's title in the inbox: the first line of a text artifact
 * (Markdown heading marks dropped), at most 80 characters. */
static char *
derive_title (AtpAfpRequest *request)
{
  JsonNode *content = request->artifact.content;
  g_autofree char *essence = atp_afp_media_type_essence (request->artifact.media_type);
  gboolean vowel;

  if (JSON_NODE_HOLDS_VALUE (content) && json_node_get_value_type (content) == G_TYPE_STRING)
    {
      const char *text = json_node_get_string (content);
      /* In code a first line such as "#!/bin/sh" or "#include <stdio.h>" is
       * kept whole. */
      g_autofree char *title = g_strcmp0 (essence, "text/markdown") == 0 ||
                               g_strcmp0 (essence, "text/x-markdown") == 0
                                 ? triage_server_title_from_markdown (text)
                                 : triage_server_title_from_text (text);

      if (title != NULL)
        return g_steal_pointer (&title);
    }

  if (essence == NULL)
    return g_strdup ("A structured artifact");
  /* "An application/json artifact", "A text/x-c artifact" */
  vowel = essence[0] != '\0' && strchr ("aeiou", essence[0]) != NULL;
  return g_strdup_printf ("%s %s artifact", vowel ? "An" : "A", essence);
}

/* "Iteration 2 · text/markdown · the agent applied 1, partly applied 1 and rejected 1 of your items" */
static char *
derive_description (AtpAfpRequest *request)
{
  g_autofree char *essence = atp_afp_media_type_essence (request->artifact.media_type);
  GString *text = g_string_new (NULL);
  guint counts[3] = { 0 };

  g_string_append_printf (text, "Iteration %" G_GINT64_FORMAT " · %s", request->iteration, essence);
  if (request->applied_items == NULL || request->applied_items->len == 0)
    return g_string_free (text, FALSE);

  for (guint i = 0; i < request->applied_items->len; i++)
    counts[((AtpAfpAppliedItem *) request->applied_items->pdata[i])->status]++;
  g_string_append_printf (text, " · the agent accepted %u, partly applied %u and rejected %u of "
                          "the earlier items", counts[ATP_AFP_APPLIED_ACCEPTED],
                          counts[ATP_AFP_APPLIED_PARTIAL], counts[ATP_AFP_APPLIED_REJECTED]);
  return g_string_free (text, FALSE);
}

static AtpNotification *
build_envelope (TriageServiceRow  *service,
                const Submission  *submission,
                AtpAfpReview      *review,
                GDateTime         *now,
                GError           **error)
{
  g_autofree char *title = submission->title ? g_strdup (submission->title)
                                             : derive_title (review->request);
  g_autofree char *description = derive_description (review->request);
  g_autoptr(JsonNode) payload = atp_afp_review_to_json (review);

  return triage_server_new_envelope (ATP_PROTOCOL_AFP, submission->id, now, submission->deadline,
                                     service, title, description, submission->project, payload,
                                     error);
}

static char *
created_answer (const char *id,
                const char *session_id,
                gint64      iteration,
                GDateTime  *created)
{
  g_autoptr(JsonObject) answer = json_object_new ();
  g_autofree char *created_text = atp_format_timestamp (created);

  json_object_set_string_member (answer, "id", id);
  json_object_set_string_member (answer, "session_id", session_id);
  json_object_set_int_member (answer, "iteration", iteration);
  json_object_set_string_member (answer, "status", "pending");
  json_object_set_string_member (answer, "created_at", created_text);
  return object_to_string (answer);
}

/* The same review posted again: the first answer when it is the same body
 * from the same service, else a conflict. TRUE when answered. */
static gboolean
answer_repeat (TriageServer      *self,
               SoupServerMessage *msg,
               TriageServiceRow  *service,
               const char        *id,
               JsonNode          *body)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TriageNotificationRow) existing = triage_store_get_notification (self->store, id,
                                                                             &error);

  if (error != NULL)
    {
      reply_unread (msg, error);
      return TRUE;
    }
  if (existing == NULL)
    return FALSE;

  if (existing->protocol != ATP_PROTOCOL_AFP || g_strcmp0 (existing->service_id, service->id) != 0)
    /* Not this review posted again: nothing of it to compare (and another
     * service's request is not described). */
    reply_error_field (msg, ATP_ERROR_NOTIFICATION_ALREADY_EXISTS,
                       "id: already used by another request; choose a new id", "id");
  else if (triage_server_is_same_post (existing, service, body))
    reply_text (msg, 201, g_strdup (existing->answer));
  else
    reply_error_field (msg, ATP_ERROR_NOTIFICATION_ALREADY_EXISTS,
                       "id: a request with this id exists, with another body", "id");
  return TRUE;
}

static void
reply_iteration_not_greater (SoupServerMessage *msg,
                             const char        *session_id,
                             gint64             last_iteration,
                             gint64             iteration)
{
  g_autofree char *message =
    g_strdup_printf ("request.iteration: must be greater than %" G_GINT64_FORMAT ", the last "
                     "iteration of session %s, got %" G_GINT64_FORMAT,
                     last_iteration, session_id, iteration);

  reply_error_field (msg, ATP_ERROR_CONSTRAINT_VIOLATION, message, "request.iteration");
}

/* The review's envelope (with what the session had issued before it, read
 * from @last) and its text; NULL after answering 413 or 500. */
static AtpNotification *
envelope_for (SoupServerMessage    *msg,
              TriageServiceRow     *service,
              const Submission     *submission,
              const char           *session_id,
              AtpAfpRequest        *request,
              TriageServerAfpLast  *last,
              GDateTime            *now,
              char                **text)
{
  g_autoptr(AtpAfpReview) review = atp_afp_review_new (session_id, request);
  g_autoptr(AtpNotification) envelope = NULL;
  g_autoptr(GError) error = NULL;
  gsize size;

  triage_server_afp_last_describe (last, review);
  envelope = build_envelope (service, submission, review, now, &error);
  if (envelope == NULL)
    {
      g_prefix_error (&error, "The review cannot be made: ");
      reply_gerror (msg, error);
      return NULL;
    }
  *text = atp_notification_to_string (envelope, &size);
  if (size > ATP_MAX_NOTIFICATION_SIZE)
    {
      reply_error_field (msg, ATP_ERROR_PAYLOAD_TOO_LARGE,
                         "request: with what the inbox shows beside it (the previous iteration's "
                         "artifact, the latest feedback, the title) the review is larger than a "
                         "request may be", "request");
      g_clear_pointer (text, g_free);
      return NULL;
    }
  return g_steal_pointer (&envelope);
}

/*
 * Every refusal comes before anything changes: a request refused (its
 * iteration, its size) neither moves the session's last iteration nor
 * withdraws the review waiting in it. The session is then started, or its
 * iteration claimed (of two requests for one session only an increasing one
 * gets through), and the review waiting in it withdrawn; when that review
 * was answered meanwhile (another server), the envelope is made again with
 * its answer. A refusal after the claim (that envelope too large, a review
 * unread) gives the claim back in the same batch
 * (triage_store_afp_release_iteration), so that it too leaves the session's
 * last iteration where it was.
 */
static void
handle_post_review (TriageServer      *self,
                    SoupServerMessage *msg)
{
  g_autoptr(TriageServiceRow) service = authenticate_service (self, msg);
  g_autoptr(TriageAfpSessionRow) session = NULL, now_session = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_auto(Submission) submission = { 0 };
  g_autoptr(AtpAfpRequest) request = NULL;
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autoptr(GError) error = NULL;
  g_autofree char *session_id = NULL;
  g_autofree char *answer = NULL;
  g_autofree char *envelope_text = NULL;
  g_autoptr(AtpNotification) envelope = NULL;
  g_auto(TriageServerAfpLast) last = { 0 };
  g_autoptr(GBytes) body = NULL;
  g_autofree char *posted = NULL;
  TriageStoreInsert inserted;
  gint64 now_us = g_date_time_to_unix (now) * G_USEC_PER_SEC + g_date_time_get_microsecond (now);
  gsize size;

  if (service == NULL ||
      !triage_server_rate_check (self, msg, TRIAGE_LIMIT_SENDS, service->id) ||
      (root = parse_body (msg)) == NULL ||
      !read_submission (msg, json_node_get_object (root), &submission))
    return;

  if (!JSON_NODE_HOLDS_OBJECT (submission.request))
    {
      reply_error_field (msg, ATP_ERROR_INVALID_FIELD_VALUE,
                         "request: must be the Request Object, a JSON object", "request");
      return;
    }
  request = atp_afp_request_new_submission (submission.request, &error);
  if (request == NULL)
    g_prefix_error (&error, "request.");
  /* The title is the inbox's heading, held to the rule of an ATP
   * context.title. The request is carried as envelope.afp.request, two
   * levels down, its x- members and a content that is not a string as sent. */
  else if (submission.title == NULL ||
           triage_server_check_shown (submission.title, "title", ATP_ERROR_INVALID_FIELD_VALUE,
                                      &error))
    triage_server_check_nesting (submission.request, "request", TRIAGE_MAX_ENVELOPE_DEPTH - 2,
                                 ATP_ERROR_INVALID_FIELD_VALUE, &error);
  if (error != NULL)
    {
      /* Stored before a rule it breaks was added (an artifact typed as a
       * range, a title of invisible characters, a nesting): a retry gets its
       * first answer. */
      if (!triage_server_answer_stored_repeat (self, msg, service, ATP_PROTOCOL_AFP,
                                               submission.id, root))
        reply_gerror_field (msg, error);
      return;
    }
  g_free (atp_afp_request_to_string (request, &size));
  if (size > ATP_AFP_MAX_REQUEST_SIZE)
    {
      reply_error_field (msg, ATP_ERROR_PAYLOAD_TOO_LARGE,
                         "request: a Request Object may have at most 400 KiB", "request");
      return;
    }

  /* A retry is answered as the first post was, also once its deadline has
   * passed since (its answer was lost, the agent retries). */
  if (answer_repeat (self, msg, service, submission.id, root))
    return;
  if (submission.deadline != NULL && g_date_time_compare (submission.deadline, now) <= 0)
    {
      reply_error_field (msg, ATP_ERROR_INVALID_FIELD_VALUE, "deadline: that time has passed",
                         "deadline");
      return;
    }

  if (submission.session_id != NULL)
    {
      if (!triage_server_afp_owned_session (self, msg, service, submission.session_id,
                                            &session))
        return;
      session_id = g_strdup (session->id);
      if (request->iteration <= session->last_iteration)
        {
          reply_iteration_not_greater (msg, session_id, session->last_iteration, request->iteration);
          return;
        }
      if (!triage_server_afp_read_last (self, session_id, 0, now_us, &last, &error))
        {
          triage_server_afp_reply_unreadable_last (msg, error, &last,
                                                   "The session's previous review cannot be read");
          return;
        }
    }
  else
    session_id = atp_afp_random_id ("ses_", SESSION_ID_LENGTH);

  envelope = envelope_for (msg, service, &submission, session_id, request, &last, now,
                           &envelope_text);
  if (envelope == NULL)
    return;

  if (session == NULL && !triage_store_afp_add_session (self->store, session_id, service->id, now_us))
    {
      /* Retried as any answer of a database that did not answer. */
      soup_message_headers_replace (soup_server_message_get_response_headers (msg), "Retry-After",
                                    "1");
      reply_error (msg, ATP_ERROR_STORAGE_UNAVAILABLE, "Cannot store the review session now");
      return;
    }
  if (!triage_store_afp_claim_iteration (self->store, session_id, request->iteration, &error))
    {
      /* Not stored: the iteration is not known to be taken, it is not refused. */
      if (error != NULL)
        {
          reply_unanswered (msg, "a review session's iteration", "The review could not be "
                            "stored now (the server's database did not answer); nothing was "
                            "changed, try again later", error);
          return;
        }
      /* Another request of the session got there first: this very review,
       * posted a moment ago to another server of the database (the agent's
       * retry), is answered as its first post was. */
      if (answer_repeat (self, msg, service, submission.id, root))
        return;
      now_session = triage_store_afp_get_session (self->store, session_id, NULL);
      reply_iteration_not_greater (msg, session_id, now_session ? now_session->last_iteration : 0,
                                   request->iteration);
      return;
    }
  if (session != NULL)
    {
      g_autofree char *read_id = g_steal_pointer (&last.id);
      gboolean had_feedback = last.feedback != NULL;

      triage_server_afp_last_clear (&last);
      if (!triage_server_afp_read_last (self, session_id, request->iteration, now_us, &last,
                                        &error))
        {
          triage_server_afp_reply_unreadable_last (msg, error, &last,
                                                   "The session's previous review cannot be read");
          triage_store_afp_release_iteration (self->store, session_id, request->iteration);
          return;
        }
      /* Made again only when what it says of the session changed since (its
       * review answered meanwhile on another server, its feedback now in the
       * envelope, which may no longer fit: refused, the claim given back). */
      if (g_strcmp0 (read_id, last.id) != 0 || had_feedback != (last.feedback != NULL))
        {
          g_clear_pointer (&envelope_text, g_free);
          g_clear_pointer (&envelope, atp_notification_unref);
          envelope = envelope_for (msg, service, &submission, session_id, request, &last, now,
                                   &envelope_text);
          if (envelope == NULL)
            {
              triage_store_afp_release_iteration (self->store, session_id, request->iteration);
              return;
            }
        }
    }

  answer = created_answer (submission.id, session_id, request->iteration, now);
  body = soup_message_body_flatten (soup_server_message_get_request_body (msg));
  posted = g_strndup (g_bytes_get_data (body, NULL), g_bytes_get_size (body));
  inserted = triage_server_add_request_text (self, envelope, NULL, posted, envelope_text, answer);
  if (inserted == TRIAGE_STORE_INSERT_EXISTS && answer_repeat (self, msg, service, submission.id, root))
    {
      /* the same id posted a moment ago to another server of the database */
      triage_store_afp_release_iteration (self->store, session_id, request->iteration);
      return;
    }
  if (inserted != TRIAGE_STORE_INSERTED ||
      !triage_store_afp_add_review (self->store, submission.id, session_id, request->iteration))
    {
      reply_error (msg, ATP_ERROR_STORAGE_UNAVAILABLE, "Cannot store the review now");
      return;
    }

  reply_text (msg, 201, g_steal_pointer (&answer));
}

/* ---- GET /api/v1/afp/sessions/{id}: triage-server-afp-session.c ---- */

/* ---- routes ---- */

gboolean
triage_server_afp_route (TriageServer      *self,
                         SoupServerMessage *msg,
                         const char        *method,
                         const char        *path,
                         GHashTable        *query)
{
  const char *rest;

  if (strcmp (path, TRIAGE_AFP_REVIEWS_PATH) == 0)
    {
      if (strcmp (method, "POST") != 0)
        reply_method_not_allowed (msg, "POST");
      else
        handle_post_review (self, msg);
    }
  else if ((rest = triage_server_path_segment (path, TRIAGE_AFP_REVIEWS_PATH "/")) != NULL)
    {
      g_autofree char *id = g_ascii_strdown (rest, -1);

      if (strcmp (method, "GET") == 0)
        triage_server_agent_get (self, msg, id, query, ATP_PROTOCOL_AFP, "review");
      else if (strcmp (method, "PATCH") == 0)
        triage_server_agent_withdraw (self, msg, id, ATP_PROTOCOL_AFP, "review");
      else
        reply_method_not_allowed (msg, "GET, PATCH");
    }
  else if ((rest = triage_server_path_segment (path, TRIAGE_AFP_SESSIONS_PATH "/")) != NULL)
    {
      if (strcmp (method, "GET") != 0)
        reply_method_not_allowed (msg, "GET");
      else
        triage_server_afp_handle_get_session (self, msg, rest, query);
    }
  else
    return FALSE;

  return TRUE;
}
