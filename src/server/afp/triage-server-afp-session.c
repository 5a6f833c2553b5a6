/* triage-server-afp-session.c — an AFP session read back from its latest review
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A session is read from its latest review alone (TriageServerAfpLast): the
 * next review's envelope is made from it (triage-server-afp.c), and the
 * session's GET (/api/v1/afp/sessions/{id}) lists its reviews and the item
 * ids it issued.
 */

#define G_LOG_DOMAIN "triage-server-afp"

#include "triage-server-afp-private.h"

void
triage_server_afp_last_clear (TriageServerAfpLast *last)
{
  g_clear_pointer (&last->id, g_free);
  g_clear_pointer (&last->row, triage_notification_row_free);
  g_clear_pointer (&last->review, atp_afp_review_unref);
  g_clear_pointer (&last->feedback, atp_afp_feedback_unref);
}

/* The feedback a stored response (ATP-shaped) holds, or NULL. */
static AtpAfpFeedback *
feedback_of (const char *response_text)
{
  g_autoptr(JsonNode) node = response_text ? json_from_string (response_text, NULL) : NULL;
  g_autoptr(AtpResponse) response = node ? atp_response_new_from_json (node, NULL) : NULL;

  if (response == NULL || g_strcmp0 (response->action_id, TRIAGE_AFP_ACTION_FEEDBACK) != 0)
    return NULL;
  return atp_afp_feedback_new_from_json (response->response_data, NULL);
}

static gboolean read_last_row (TriageServer         *self,
                               TriageServerAfpLast  *last,
                               GError              **error);

/*
 * Reads the session's latest review. With @superseded_by > 0 a review still
 * waiting is withdrawn first ("superseded by iteration N"); when it was
 * answered meanwhile (another server), its answer counts. FALSE when the
 * stored review cannot be read: with @error set when the database did not
 * answer its lookup (the caller answers 503, not 500).
 */
gboolean
triage_server_afp_read_last (TriageServer         *self,
                             const char           *session_id,
                             gint64                superseded_by,
                             gint64                now,
                             TriageServerAfpLast  *last,
                             GError              **error)
{
  /* Unread, the session is not known to have no review: never started over. */
  if (!triage_store_afp_last_review (self->store, session_id, &last->id, &last->iteration, error))
    return error == NULL || *error == NULL;
  if (!read_last_row (self, last, error))
    return FALSE;

  if (superseded_by > 0 && atp_status_is_pending (last->row->status))
    {
      g_autofree char *reason = g_strdup_printf ("superseded by iteration %" G_GINT64_FORMAT,
                                                 superseded_by);

      if (triage_store_transition (self->store, last->id, TRIAGE_PENDING_MASK,
                                   ATP_STATUS_INVALIDATED, NULL, reason, now, error))
        triage_server_changed (self, last->id, ATP_STATUS_INVALIDATED, reason);
      /* Not stored (@error set), or answered meanwhile: read again. */
      else if ((error != NULL && *error != NULL) || !read_last_row (self, last, error))
        return FALSE;
    }

  last->feedback = feedback_of (last->row->response);
  return TRUE;
}

static gboolean
read_last_row (TriageServer         *self,
               TriageServerAfpLast  *last,
               GError              **error)
{
  g_autoptr(AtpNotification) envelope = NULL;

  g_clear_pointer (&last->row, triage_notification_row_free);
  g_clear_pointer (&last->review, atp_afp_review_unref);
  last->row = triage_store_get_notification (self->store, last->id, error);
  if (last->row == NULL ||
      (envelope = atp_notification_new_from_data (last->row->json, -1, ATP_PARSE_DEFAULT,
                                                  NULL)) == NULL)
    return FALSE;
  last->review = triage_server_afp_review_of (envelope, NULL);
  return last->review != NULL;
}

/* A session's review that triage_server_afp_read_last () could not read: 503 when the
 * database did not answer (@error); 500 NOTIFICATION_UNREADABLE naming it when
 * its stored JSON does not read (a damaged row, which no retry mends); else
 * 500 with @message. */
void
triage_server_afp_reply_unreadable_last (SoupServerMessage         *msg,
                                         const GError              *error,
                                         const TriageServerAfpLast *last,
                                         const char                *message)
{
  if (error != NULL)
    reply_unread (msg, error);
  else if (last->row != NULL)
    reply_unreadable (msg, last->id);
  else
    reply_error (msg, ATP_ERROR_INTERNAL_ERROR, message);
}

/* Every id the session issued, in order, into @review (or @ids). */
static void
last_issued_ids (TriageServerAfpLast *last,
                 AtpAfpReview        *review,
                 GPtrArray           *ids)
{
  GPtrArray *earlier = last->review != NULL ? last->review->issued_ids : NULL;
  GPtrArray *items = last->feedback != NULL ? last->feedback->areas_for_improvement : NULL;
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; earlier != NULL && i < earlier->len; i++)
    {
      if (review != NULL)
        atp_afp_review_add_issued_id (review, earlier->pdata[i]);
      else
        g_ptr_array_add (ids, g_strdup (earlier->pdata[i]));
      g_hash_table_add (seen, earlier->pdata[i]);
    }
  for (guint i = 0; items != NULL && i < items->len; i++)
    {
      const AtpAfpImprovement *item = g_ptr_array_index (items, i);

      if (g_hash_table_contains (seen, item->id))
        continue;
      g_hash_table_add (seen, item->id);
      if (review != NULL)
        atp_afp_review_add_issued_id (review, item->id);
      else
        g_ptr_array_add (ids, g_strdup (item->id));
    }
}

/* What @review (a new one of the session) needs of it: the ids, the latest
 * feedback, the previous artifact. */
void
triage_server_afp_last_describe (TriageServerAfpLast *last,
                                 AtpAfpReview        *review)
{
  if (last->review == NULL)
    return;

  last_issued_ids (last, review, NULL);
  if (last->feedback != NULL)
    atp_afp_review_set_latest_feedback (review, last->id, last->iteration, last->feedback);
  else if (last->review->latest_feedback != NULL)
    atp_afp_review_set_latest_feedback (review, last->review->latest_feedback_id,
                                        last->review->latest_feedback_iteration,
                                        last->review->latest_feedback);
  atp_afp_review_set_previous (review, last->id, last->iteration, &last->review->request->artifact);
}


gboolean
triage_server_afp_owned_session (TriageServer         *self,
                                 SoupServerMessage    *msg,
                                 TriageServiceRow     *service,
                                 const char           *session_id,
                                 TriageAfpSessionRow **session)
{
  g_autoptr(GError) error = NULL;

  *session = triage_store_afp_get_session (self->store, session_id, &error);
  if (*session != NULL && g_strcmp0 ((*session)->service_id, service->id) == 0)
    return TRUE;
  /* Unread: not known to be missing (an agent told so starts over). */
  if (error != NULL)
    {
      reply_unanswered (msg, "a review session", "Cannot read the review session now (the "
                        "server's database did not answer); nothing was changed, try again later",
                        error);
      return FALSE;
    }

  /* Another service's session is not told apart from none. */
  g_clear_pointer (session, triage_afp_session_row_free);
  {
    g_autofree char *message = g_strdup_printf ("session_id: no review session “%s” of this service "
                                                "(a first request starts one; its answer names it)",
                                                session_id);

    reply_error_field (msg, ATP_ERROR_SESSION_NOT_FOUND, message, "session_id");
  }
  return FALSE;
}


/* ---- GET /api/v1/afp/sessions/{id} ---- */

/* The reviews come in pages as the client's list of notifications does
 * (limit 1–1,000, default 50; a cursor carrying the last iteration listed
 * and the session's count): a session goes on for as long as its agent
 * posts, and its answer must not grow with it. */
#define SESSION_PAGE_DEFAULT 50
#define SESSION_PAGE_MAX     1000
#define SESSION_CURSOR       "afp1"

/* The page's query: its limit and where it starts after (0: the first
 * page; *@total the count its cursor carries, else -1). FALSE after
 * answering 400. */
static gboolean
parse_page_query (SoupServerMessage *msg,
                  GHashTable        *query,
                  guint             *limit,
                  gint64            *after,
                  gint64            *total)
{
  const char *cursor = query ? g_hash_table_lookup (query, "cursor") : NULL;
  g_autofree char *version = NULL;

  *after = 0;
  *total = -1;
  if (!triage_server_parse_limit (msg, query, SESSION_PAGE_DEFAULT, SESSION_PAGE_MAX, limit))
    return FALSE;
  if (cursor != NULL &&
      (!triage_server_cursor_decode (cursor, &version, after, total) ||
       g_strcmp0 (version, SESSION_CURSOR) != 0 || *total < 0))
    {
      reply_error_field (msg, ATP_ERROR_INVALID_PARAMETER,
                         "cursor is not a cursor of this server's pages of a session's reviews",
                         "cursor");
      return FALSE;
    }
  return TRUE;
}

void
triage_server_afp_handle_get_session (TriageServer      *self,
                                      SoupServerMessage *msg,
                                      const char        *id,
                                      GHashTable        *query)
{
  g_autoptr(TriageServiceRow) service = authenticate_service (self, msg);
  g_autoptr(TriageAfpSessionRow) session = NULL;
  g_autoptr(GPtrArray) reviews = NULL;
  g_autoptr(JsonObject) answer = NULL;
  g_auto(TriageServerAfpLast) last = { 0 };
  g_autoptr(GPtrArray) issued = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  g_autofree char *created = NULL, *next = NULL;
  gboolean has_more = FALSE;
  gint64 after, total;
  guint limit;
  JsonArray *list, *ids;

  if (service == NULL || !parse_page_query (msg, query, &limit, &after, &total) ||
      !triage_server_afp_owned_session (self, msg, service, id, &session))
    return;

  reviews = triage_store_afp_reviews (self->store, session->id, after, limit,
                                      total < 0 ? &total : NULL, &has_more, &error);
  if (reviews == NULL || !triage_server_afp_read_last (self, session->id, 0, 0, &last, &error))
    {
      triage_server_afp_reply_unreadable_last (msg, error, &last,
                                               "The session's latest review cannot be read");
      return;
    }
  last_issued_ids (&last, NULL, issued);

  answer = json_object_new ();
  created = format_us (session->created_at);
  json_object_set_string_member (answer, "session_id", session->id);
  json_object_set_string_member (answer, "created_at", created);
  json_object_set_int_member (answer, "last_iteration", session->last_iteration);
  list = json_array_sized_new (reviews->len);
  for (guint i = 0; i < reviews->len; i++)
    {
      const TriageAfpReviewRow *review = g_ptr_array_index (reviews, i);
      JsonObject *item = json_object_new ();

      json_object_set_string_member (item, "id", review->notification_id);
      json_object_set_int_member (item, "iteration", review->iteration);
      json_object_set_string_member (item, "status", triage_server_status_word (review->status));
      json_array_add_object_element (list, item);
    }
  json_object_set_array_member (answer, "reviews", list);
  ids = json_array_sized_new (issued->len);
  for (guint i = 0; i < issued->len; i++)
    json_array_add_string_element (ids, g_ptr_array_index (issued, i));
  json_object_set_array_member (answer, "issued_ids", ids);
  if (has_more && reviews->len > 0)
    {
      const TriageAfpReviewRow *end = g_ptr_array_index (reviews, reviews->len - 1);

      next = triage_server_cursor_encode (SESSION_CURSOR, end->iteration, total);
      triage_server_set_next_cursor (msg, next);
    }
  json_object_set_object_member (answer, "pagination",
                                 triage_server_pagination_new (next, has_more, total));

  reply_text (msg, 200, object_to_string (answer));
}
