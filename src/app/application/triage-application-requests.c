/* triage-application-requests.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-application"

#include <glib/gi18n.h>

#include "triage-application-private.h"
#include "triage-decision-outcome.h"
#include "triage-dnd.h"

/*
 * Requests coming and going: what the connection's stream and the lookups
 * bring becomes the inbox, bubbles (with flood control and urgency) and the
 * stored history; a request settled elsewhere is told where the person may
 * be looking. Also the resync hold (the inbox told of a resync's requests as
 * one change) and the notice that the local database cannot be written.
 */

/* A resync's requests are told to the window's list as one change. */
static gboolean
release_inbox_cb (gpointer data)
{
  TriageApplication *self = data;

  self->inbox_release_id = 0;
  triage_inbox_model_release (self->inbox);
  return G_SOURCE_REMOVE;
}

static void save_done_cb (GObject      *object,
                          GAsyncResult *result,
                          gpointer      user_data);

/* A resync's requests are recorded in the history once it is over (or
 * broken off): 10,000 of them were a second of the store thread's CPU
 * (every row and its search index), taken from the pages being read and
 * shown while the person waited for the inbox. The server keeps them pending
 * meanwhile, so none is lost should the app stop first. Queued once the
 * inbox is complete, not when the connection is up a moment before: 10,000
 * saves queued were the last 15 ms before it (bench/app's full day). */
void
_triage_application_save_resync_requests (TriageApplication *self)
{
  g_autoptr(GPtrArray) saves = g_steal_pointer (&self->resync_saves);

  for (guint i = 0; saves != NULL && i < saves->len; i++)
    triage_store_save_notification_async (self->store, g_ptr_array_index (saves, i), NULL,
                                          save_done_cb, g_object_ref (self));
}

void
_triage_application_release_inbox (TriageApplication *self)
{
  if (self->inbox_release_id == 0)
    return;
  g_clear_handle_id (&self->inbox_release_id, g_source_remove);
  triage_inbox_model_release (self->inbox);
}

/* A write to the local database failed (a full disk, an I/O error): the
 * request is still shown and can be answered, and the server keeps it
 * pending, so the next start has it again; but the person must know that
 * the history is not being kept. Told once until a write succeeds again. */
static void
store_write_done (TriageApplication *self,
                  const char        *what,
                  const GError      *error)
{
  if (error == NULL)
    {
      if (self->store_failure_told)
        _triage_application_retry_history (self);
      self->store_failure_told = FALSE;
      return;
    }
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  g_message ("Could not record %s: %s", what, error->message);
  if (self->store_failure_told || self->notifier == NULL)
    return;
  self->store_failure_told = TRUE;
  {
    g_autofree char *text = g_strdup_printf (_("Requests are still shown, but not kept "
                                               "until it can write again (is the disk "
                                               "full?): %s"), error->message);

    triage_notifier_show_notice (self->notifier, "store-write",
                                 _("Triage cannot write its database"), text);
  }
}

static void
save_done_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(TriageApplication) self = user_data;
  g_autoptr(GError) error = NULL;

  triage_store_save_notification_finish (TRIAGE_STORE (object), result, &error);
  store_write_done (self, "a request", error);
}

static void
outcome_done_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(TriageApplication) self = user_data;
  g_autoptr(GError) error = NULL;

  triage_store_set_outcome_finish (TRIAGE_STORE (object), result, &error);
  store_write_done (self, "what became of a request", error);
}

static void
response_done_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(TriageApplication) self = user_data;
  g_autoptr(GError) error = NULL;

  triage_store_set_response_finish (TRIAGE_STORE (object), result, &error);
  store_write_done (self, "the answer given elsewhere", error);
}

TriageAnswerState
_triage_application_answer_state_from_outbox (TriageApplication *self,
                                              const char        *notification_id)
{
  if (triage_outbox_answer_failed (self->outbox, notification_id))
    return TRIAGE_ANSWER_FAILED;
  if (triage_outbox_has_answer (self->outbox, notification_id))
    return TRIAGE_ANSWER_QUEUED;
  return TRIAGE_ANSWER_NONE;
}

void
_triage_application_on_flood_ended (TriageApplication *self,
                                    guint              held_back)
{
  g_autofree char *summary = NULL;

  /* Translators: a bubble for requests that came too many at once for one each */
  summary = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u more request is waiting",
                                          "%u more requests are waiting", held_back),
                             held_back);
  triage_notifier_show_notice (self->notifier, TRIAGE_APPLICATION_MORE_NOTICE, summary,
                               _("They came too many at once for a notification each."));
}

static void
maybe_notify (TriageApplication *self,
              TriageRequest     *request)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  AtpNotification *notification = triage_request_get_notification (request);
  gboolean urgent = triage_request_is_urgent (request, now);

  if (self->notifier == NULL || !self->bubbles_enabled ||
      !triage_should_show_bubble (notification, self->do_not_disturb, now))
    return;

  /* A flood is a few bubbles and one that sums up the rest; urgent ones
   * always get their own. */
  if (!urgent && !triage_bubble_throttle_admit (self->throttle))
    return;

  if (urgent)
    triage_urgency_mark_told (self->urgency, notification->id);
  triage_notifier_show (self->notifier, notification, urgent);
}

void
_triage_application_on_urgency_due (TriageApplication *self,
                                    TriageRequest     *request)
{
  maybe_notify (self, request);
}

void
_triage_application_on_stream_notification (TriageApplication *self,
                                            AtpNotification   *notification)
{
  TriageRequest *request;
  gboolean is_new = FALSE;

  if (triage_connection_get_state (self->connection) != TRIAGE_CONNECTION_CONNECTED)
    {
      if (self->resync_saves == NULL)
        self->resync_saves = g_ptr_array_new_with_free_func ((GDestroyNotify) atp_notification_unref);
      g_ptr_array_add (self->resync_saves, atp_notification_ref (notification));
    }
  else
    triage_store_save_notification_async (self->store, notification, NULL, save_done_cb,
                                          g_object_ref (self));

  if (!atp_status_is_pending (notification->status))
    return;

  /* Before the connection is up, a request comes from a resync, which
   * brings the pending set a page (1,000) at a time: the inbox is held
   * until the main loop is back, so the window's list is told of each page
   * as one change, and has the first page while the next is on its way. */
  if (self->inbox_release_id == 0 &&
      triage_connection_get_state (self->connection) != TRIAGE_CONNECTION_CONNECTED)
    {
      triage_inbox_model_hold (self->inbox);
      self->inbox_release_id = g_idle_add_full (G_PRIORITY_HIGH, release_inbox_cb, self, NULL);
    }

  request = triage_inbox_model_add (self->inbox, notification, &is_new);
  if (is_new)
    triage_request_set_answer_state (request, _triage_application_answer_state_from_outbox (self, notification->id));
  if (triage_request_get_answer_state (request) != TRIAGE_ANSWER_NONE)
    return;

  /* Known from an earlier run or connection too: an acknowledgement lost
   * on the way (the app stopped, the link dropped) is given again. */
  if (notification->status != ATP_STATUS_ACKNOWLEDGED)
    triage_connection_acknowledge (self->connection, notification->id);

  if (is_new)
    maybe_notify (self, request);
}

static TriageOutcome
outcome_for_status (AtpStatus status)
{
  switch (status)
    {
    case ATP_STATUS_RESPONDED:
      return TRIAGE_OUTCOME_ANSWERED_ELSEWHERE;
    case ATP_STATUS_EXPIRED:
      return TRIAGE_OUTCOME_EXPIRED;
    case ATP_STATUS_INVALIDATED:
      return TRIAGE_OUTCOME_INVALIDATED;
    case ATP_STATUS_CREATED:
    case ATP_STATUS_DELIVERED:
    case ATP_STATUS_ACKNOWLEDGED:
    default:
      return TRIAGE_OUTCOME_NONE;
    }
}

/* What became of a request settled elsewhere (answered on another device,
 * expired, withdrawn), told where the person may be looking: the request
 * shown (its view names the outcome) and its bubble if still on screen, which
 * then says what the view's banner says instead of offering answers that no
 * longer apply. It is told again once the answer given elsewhere is known. */
static void
tell_outcome (TriageApplication *self,
              const char        *notification_id,
              AtpNotification   *notification,
              AtpStatus          status,
              const char        *reason,
              GDateTime         *when,
              AtpResponse       *response)
{
  TriageRequest *request = _triage_application_find_request (self, notification_id);
  g_autofree char *outcome = NULL;
  g_autofree char *body = NULL;

  if (request != NULL && triage_request_get_answer_state (request) == TRIAGE_ANSWER_NONE)
    {
      if (response != NULL)
        triage_request_set_response (request, response);
      if (notification == NULL)
        notification = triage_request_get_notification (request);
      if (reason == NULL)
        reason = triage_request_get_status_reason (request);
      if (when == NULL)
        when = triage_request_get_status_time (request);
    }

  if (self->notifier == NULL)
    return;
  if (notification == NULL)
    {
      triage_notifier_withdraw (self->notifier, notification_id);
      return;
    }

  outcome = triage_describe_settled (notification, status, when, response);
  if (reason != NULL)
    {
      /* Translators: %s is the reason the server gave for a status change */
      g_autofree char *why = g_strdup_printf (_("Reason: %s"), reason);

      body = g_strconcat (outcome, "\n", why, NULL);
    }
  triage_notifier_settle (self->notifier, notification_id, body ? body : outcome);
}

/* A bubble's request reached its deadline by the local clock, and no word
 * from the server settled it (offline, it would never come): the bubble
 * says it expired, its answers gone, as the server's word would make it
 * say. The request stays in the inbox until the server says so. */
void
_triage_application_on_notifier_expired (TriageApplication *self,
                                         const char        *notification_id)
{
  TriageRequest *request = _triage_application_find_request (self, notification_id);

  tell_outcome (self, notification_id, NULL, ATP_STATUS_EXPIRED, NULL,
                request != NULL ? triage_request_get_deadline (request) : NULL, NULL);
}

/* A request left the pending state on the server. */
static void
settle_request (TriageApplication *self,
                const char        *notification_id,
                AtpStatus          status,
                const char        *reason,
                GDateTime         *when,
                AtpResponse       *response)
{
  g_autoptr(TriageRequest) request = NULL;
  gboolean ours;

  if (!atp_status_is_terminal (status))
    {
      TriageRequest *pending = triage_inbox_model_lookup (self->inbox, notification_id);

      if (pending != NULL)
        triage_request_set_status (pending, status);
      return;
    }

  /* With our own answer on its way, "responded" is most likely ours: the
   * outbox's result decides what is recorded and said, and takes the request
   * out of the inbox then (a 409 names it by its title: it must still be
   * there when the outbox's answer comes after this update). One the server
   * refused for good is never sent again: "responded" is then another's. */
  ours = status == ATP_STATUS_RESPONDED &&
         triage_outbox_answer_queued (self->outbox, notification_id);
  if (ours)
    {
      if (self->notifier != NULL)
        triage_notifier_withdraw (self->notifier, notification_id);
      return;
    }

  request = triage_inbox_model_remove (self->inbox, notification_id);
  if (request != NULL)
    triage_request_settle (request, status, reason, when);
  else if (self->window != NULL)
    {
      /* Already out of the inbox but still open in the window. */
      TriageRequest *shown = triage_window_get_current_request (self->window);

      if (shown != NULL && g_str_equal (triage_request_get_id (shown), notification_id) &&
          triage_request_get_answer_state (shown) == TRIAGE_ANSWER_NONE)
        triage_request_settle (shown, status, reason, when);
    }

  tell_outcome (self, notification_id, request ? triage_request_get_notification (request) : NULL,
                status, reason, when, response);

  triage_store_set_outcome_async (self->store, notification_id, status,
                                  outcome_for_status (status), reason,
                                  NULL, outcome_done_cb, g_object_ref (self));

  /* Answered on another device or by another person: the history keeps
   * what was answered, by whom and when, which the status does not say. */
  if (status == ATP_STATUS_RESPONDED)
    {
      if (response != NULL)
        triage_store_set_response_async (self->store, response, NULL, response_done_cb,
                                         g_object_ref (self));
      else
        triage_lookups_fetch_response (self->lookups, notification_id);
    }
}

void
_triage_application_on_stream_status_update (TriageApplication *self,
                                             AtpStatusUpdate   *update)
{
  settle_request (self, update->notification_id, update->status, update->reason,
                  update->timestamp, NULL);
}

void
_triage_application_on_lookup_settled (TriageApplication *self,
                                       const char        *notification_id,
                                       int                status,
                                       GDateTime         *when,
                                       AtpResponse       *response,
                                       const char        *reason)
{
  settle_request (self, notification_id, status, reason, when, response);
}

/* The server no longer has a request, or no longer shows it to us (a lookup
 * got 404): it leaves the inbox and its bubble goes, and the view and the
 * history say just that. Not "answered elsewhere": a request settled and
 * then forgotten, withdrawn, or another user's token looks the same. */
void
_triage_application_on_lookup_gone (TriageApplication *self,
                                    const char        *notification_id)
{
  g_autoptr(TriageRequest) request = triage_inbox_model_remove (self->inbox, notification_id);
  AtpStatus status = request != NULL ? triage_request_get_status (request) : ATP_STATUS_ACKNOWLEDGED;

  if (self->window != NULL)
    triage_window_show_gone (self->window, notification_id);
  if (self->notifier != NULL)
    triage_notifier_withdraw (self->notifier, notification_id);

  triage_store_set_outcome_async (self->store, notification_id, status, TRIAGE_OUTCOME_GONE, NULL,
                                  NULL, outcome_done_cb, g_object_ref (self));
}

void
_triage_application_on_lookup_response (TriageApplication *self,
                                        const char        *notification_id,
                                        AtpResponse       *response,
                                        AtpNotification   *notification)
{
  triage_store_set_response_async (self->store, response, NULL, response_done_cb,
                                   g_object_ref (self));
  /* What was answered, and by whom: the view and the bubble say it now. */
  tell_outcome (self, notification_id, notification, ATP_STATUS_RESPONDED, NULL, NULL, response);
}

void
_triage_application_on_stream_resynced (TriageApplication *self,
                                        GPtrArray         *pending)
{
  _triage_application_release_inbox (self);

  /* Settled while we were away: what became of each is asked, so the view
   * and the history say what happened. */
  triage_lookups_resynced (self->lookups, pending);

  /* For bench/app: when the inbox holds what the server has pending. */
  if (!self->resynced && g_getenv ("TRIAGE_BENCH_FIRST_FRAME") != NULL)
    g_printerr ("triage: resynced %u pending at %" G_GINT64_FORMAT "\n",
                g_list_model_get_n_items (G_LIST_MODEL (self->inbox)), g_get_real_time ());

  self->resynced = TRUE;
  _triage_application_save_resync_requests (self);
  _triage_application_prune_after_resync (self);
  _triage_application_open_pending_request (self, TRUE);
}
