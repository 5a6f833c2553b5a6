/* triage-window-delivery.c — the window follows an answer given in it
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-window"

#include <glib/gi18n.h>

#include "triage-window-private.h"

/*
 * The open request's view says where its answer stands (stored, on its way,
 * waiting for the server, sent) as the request and the connection change;
 * once an answer given here is stored, the next request opens.
 */

/* The decision view follows the current request */

void
_triage_window_update_view_state (TriageWindow *self)
{
  AtpStatus status;
  TriageAnswerState answer;
  TriageDeliveryState delivery;

  if (self->current == NULL)
    return;

  status = triage_request_get_status (self->current);
  answer = triage_request_get_answer_state (self->current);

  switch (answer)
    {
    case TRIAGE_ANSWER_QUEUED:
      /* Stored: on its way while connected, waiting for the server otherwise. */
      delivery = self->connection == TRIAGE_CONNECTION_CONNECTED ? TRIAGE_DELIVERY_SENDING
                                                                 : TRIAGE_DELIVERY_QUEUED;
      break;

    case TRIAGE_ANSWER_DELIVERED:
      delivery = TRIAGE_DELIVERY_SENT;
      break;

    case TRIAGE_ANSWER_FAILED:   /* refused: none, the request takes another */
    case TRIAGE_ANSWER_NONE:
    default:
      delivery = TRIAGE_DELIVERY_NONE;
      break;
    }

  /* Our own answer settles the request: "responded" then is not "elsewhere". */
  if (answer == TRIAGE_ANSWER_NONE || answer == TRIAGE_ANSWER_FAILED || status != ATP_STATUS_RESPONDED)
    {
      if (triage_request_view_get_status (self->decision_view) != status)
        triage_request_view_set_status (self->decision_view, status,
                                         triage_request_get_status_reason (self->current),
                                         triage_request_get_status_time (self->current),
                                         NULL);
    }
  /* What was answered elsewhere and by whom, once the app has learnt it. */
  triage_request_view_set_response (self->decision_view, triage_request_get_response (self->current));

  /* The view marks an answer "sending" itself when it emits ::submit; until
   * the app has stored it (answer state still none) that stays as it is. */
  if (delivery != TRIAGE_DELIVERY_NONE ||
      triage_request_view_get_delivery_state (self->decision_view) != TRIAGE_DELIVERY_SENDING)
    triage_request_view_set_delivery_state (self->decision_view, delivery);

  /* On its way, but the server asked to wait: the banner says until when. */
  triage_request_view_set_delivery_wait (self->decision_view,
                                         delivery == TRIAGE_DELIVERY_SENDING ? self->server_wait_at
                                                                             : NULL);
}

/**
 * triage_window_set_server_wait:
 * @self: a #TriageWindow
 * @until: the monotonic time the server's wait ends (a 429's or 503's
 *   Retry-After: no answer is sent before), 0 when there is none
 *
 * An answer on its way says when it goes, in the open view and in the inbox.
 */
void
triage_window_set_server_wait (TriageWindow *self,
                               gint64        until)
{
  gint64 now = g_get_monotonic_time ();

  g_return_if_fail (TRIAGE_IS_WINDOW (self));

  if (until <= now)
    until = 0;
  if (self->server_wait == until)
    return;

  self->server_wait = until;
  g_clear_pointer (&self->server_wait_at, g_date_time_unref);
  /* On the wall clock, as every time the window shows. */
  if (until != 0)
    {
      g_autoptr(GDateTime) wall = g_date_time_new_now_local ();

      self->server_wait_at = g_date_time_add (wall, until - now);
    }
  triage_inbox_pane_set_server_wait (self->inbox_pane, self->server_wait_at);
  _triage_window_update_view_state (self);
}

/* After an answer given here is stored, the next request opens: answer,
 * next, without reaching for the list. The toast says the answer went. */
static gboolean
advance_cb (gpointer data)
{
  TriageWindow *self = data;
  g_autofree char *text = NULL;
  g_autofree char *title = NULL;

  self->advance_id = 0;
  if (self->current == NULL || self->answered_here == NULL ||
      !g_str_equal (triage_request_get_id (self->current), self->answered_here))
    return G_SOURCE_REMOVE;

  title = g_strdup (triage_request_get_title (self->current));
  if (self->connection == TRIAGE_CONNECTION_CONNECTED)
    /* Translators: %s is the title of the request just answered */
    text = g_strdup_printf (_("Answered “%s”"), title);
  else
    /* Translators: %s is the title of the request just answered */
    text = g_strdup_printf (_("Answer to “%s” saved; it is sent when the server can be reached"),
                            title);

  if (triage_inbox_pane_select_next (self->inbox_pane))
    triage_window_add_toast (self, text);

  return G_SOURCE_REMOVE;
}

/* The open request's status, answer or response changed. */
void
_triage_window_on_current_changed (TriageWindow *self)
{
  _triage_window_update_view_state (self);

  if (self->answered_here != NULL && self->advance_id == 0 &&
      triage_request_get_answer_state (self->current) != TRIAGE_ANSWER_NONE &&
      triage_request_get_answer_state (self->current) != TRIAGE_ANSWER_FAILED)
    self->advance_id = g_idle_add (advance_cb, self);
}
