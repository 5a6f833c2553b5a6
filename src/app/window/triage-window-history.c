/* triage-window-history.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-window"

#include <glib/gi18n.h>

#include "triage-window-private.h"

/*
 * A request opened from the history: read back from the app's database and
 * shown read-only in the history's own view, saying what became of it.
 */

typedef struct
{
  TriageWindow       *self;
  TriageHistoryEntry *entry;
} PastLoad;

static void
past_load_free (PastLoad *load)
{
  g_object_unref (load->self);
  g_object_unref (load->entry);
  g_free (load);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PastLoad, past_load_free)

/* A request read back from the history, read-only, saying what became of it. */
static void
show_past_request (TriageWindow       *self,
                   TriageHistoryEntry *entry,
                   AtpNotification    *notification)
{
  const TriageHistoryEntryData *data = triage_history_entry_get_data (entry);
  TriageOutcome outcome = triage_history_entry_get_outcome (entry);
  g_autoptr(JsonNode) response = NULL;
  g_autoptr(GDateTime) answered_at = NULL;
  g_autoptr(GDateTime) updated_at = NULL;

  if (data->response_data != NULL)
    response = atp_json_parse (data->response_data, -1, ATP_MAX_FRAME_SIZE, NULL);
  if (data->answered_at != 0)
    answered_at = g_date_time_new_from_unix_utc (data->answered_at / G_USEC_PER_SEC);
  if (data->updated_at != 0)
    updated_at = g_date_time_new_from_unix_utc (data->updated_at / G_USEC_PER_SEC);

  triage_request_view_set_request (self->past_view, notification);

  switch (outcome)
    {
    case TRIAGE_OUTCOME_ANSWERED:
    case TRIAGE_OUTCOME_REJECTED:
    case TRIAGE_OUTCOME_NONE:   /* with an answer waiting in the outbox */
      /* Its own answer decides the banner, not the status stored. */
      triage_request_view_set_status (self->past_view, ATP_STATUS_DELIVERED, NULL, NULL, NULL);
      triage_request_view_set_sent_answer (self->past_view,
                                            data->action_id ? data->action_id : "", response);
      if (outcome == TRIAGE_OUTCOME_REJECTED)
        triage_request_view_show_delivery_error (self->past_view,
                                                  _("The server refused this answer."));
      else
        triage_request_view_set_delivery_state (self->past_view,
                                                 outcome == TRIAGE_OUTCOME_ANSWERED
                                                   ? TRIAGE_DELIVERY_SENT : TRIAGE_DELIVERY_QUEUED);
      break;

    case TRIAGE_OUTCOME_ANSWERED_ELSEWHERE:
      triage_request_view_set_status (self->past_view, ATP_STATUS_RESPONDED, data->status_reason,
                                      answered_at, NULL);
      /* The banner names the answer and who gave it, as when it happened
       * (a request the server had forgotten has no answer recorded). */
      if (data->action_id != NULL && (answered_at != NULL || updated_at != NULL))
        {
          AtpResponderType type = ATP_RESPONDER_HUMAN;
          g_autoptr(AtpResponse) given = NULL;

          if (data->responder_type != NULL)
            atp_responder_type_from_string (data->responder_type, &type);
          given = atp_response_new (data->id, data->action_id, response,
                                    answered_at ? answered_at : updated_at,
                                    data->responder_id ? data->responder_id : "", type);
          triage_request_view_set_response (self->past_view, given);
        }
      break;

    case TRIAGE_OUTCOME_EXPIRED:
      triage_request_view_set_status (self->past_view, ATP_STATUS_EXPIRED, data->status_reason,
                                       NULL, NULL);
      break;

    case TRIAGE_OUTCOME_GONE:
      /* Not a settled status: only that the server no longer shows it. */
      triage_request_view_set_status (self->past_view, ATP_STATUS_ACKNOWLEDGED, NULL, updated_at,
                                       triage_request_banner_gone_detail ());
      break;

    case TRIAGE_OUTCOME_INVALIDATED:
    default:
      triage_request_view_set_status (self->past_view, ATP_STATUS_INVALIDATED,
                                       data->status_reason, updated_at, NULL);
      break;
    }

  adw_window_title_set_title (self->history_detail_title, triage_history_entry_get_title (entry));
  adw_window_title_set_subtitle (self->history_detail_title,
                                 triage_history_entry_get_service_name (entry));
  adw_leaflet_set_visible_child (self->history_leaflet, self->history_detail_page);
  /* The keyboard on its heading, as a request opened from the inbox: the
   * list's row it was on is gone from sight, and the keyboard went where
   * the page's change took it (Back, or one of the request's labels). */
  triage_request_view_focus_heading (self->past_view);
}

static void
past_loaded_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(PastLoad) load = user_data;
  g_autoptr(AtpNotification) notification = NULL;
  g_autoptr(GError) error = NULL;

  notification = triage_history_db_load_notification_finish (TRIAGE_HISTORY_DB (object), result,
                                                             &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  if (notification == NULL)
    {
      triage_window_add_toast (load->self, error->message);
      return;
    }

  show_past_request (load->self, load->entry, notification);
}

void
_triage_window_on_history_entry_activated (TriageWindow       *self,
                                           TriageHistoryEntry *entry)
{
  const char *id = triage_history_entry_get_id (entry);
  PastLoad *load;

  /* Still waiting for an answer: it is answered in the inbox. */
  if (triage_history_entry_get_outcome (entry) == TRIAGE_OUTCOME_NONE &&
      !triage_history_entry_is_queued (entry))
    {
      if (!triage_window_show_request (self, id))
        triage_window_add_toast (self, _("This request is no longer waiting for an answer"));
      return;
    }

  if (self->history_db == NULL)
    return;

  g_cancellable_cancel (self->past_cancellable);
  g_clear_object (&self->past_cancellable);
  self->past_cancellable = g_cancellable_new ();

  load = g_new0 (PastLoad, 1);
  load->self = g_object_ref (self);
  load->entry = g_object_ref (entry);
  triage_history_db_load_notification_async (self->history_db, id, self->past_cancellable,
                                             past_loaded_cb, load);
}

/**
 * triage_window_set_history_problem:
 * @self: a #TriageWindow
 * @problem: (nullable): why the app's history could not be opened (it tries
 *   again), or %NULL
 */
void
triage_window_set_history_problem (TriageWindow *self,
                                   const char   *problem)
{
  g_return_if_fail (TRIAGE_IS_WINDOW (self));

  triage_history_view_set_problem (self->history_view, problem);
}
