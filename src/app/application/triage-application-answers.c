/* triage-application-answers.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-application"

#include <glib/gi18n.h>

#include "triage-application-private.h"
#include "triage-protocol.h"

/*
 * Answers: from the window or from a bubble's button, checked as the server
 * would, then through the outbox; what became of each (queued, delivered, a
 * conflict, refused) is told in the window or, without one, in a bubble.
 * Also a bubble clicked: it opens its request.
 */

void
_triage_application_on_outbox_queued (TriageApplication *self,
                                      const char        *notification_id)
{
  TriageRequest *request = triage_inbox_model_lookup (self->inbox, notification_id);

  if (request == NULL && self->window != NULL)
    request = triage_window_get_current_request (self->window);
  if (request != NULL && g_str_equal (triage_request_get_id (request), notification_id))
    triage_request_set_answer_state (request, TRIAGE_ANSWER_QUEUED);

  if (self->notifier != NULL)
    triage_notifier_withdraw (self->notifier, notification_id);
}

/* The request the event is about: in the inbox, or the one still open in the window. */
TriageRequest *
_triage_application_find_request (TriageApplication *self,
                                  const char        *notification_id)
{
  TriageRequest *request = triage_inbox_model_lookup (self->inbox, notification_id);

  if (request == NULL && self->window != NULL)
    {
      request = triage_window_get_current_request (self->window);
      if (request != NULL && !g_str_equal (triage_request_get_id (request), notification_id))
        request = NULL;
    }

  return request;
}

void
_triage_application_on_outbox_delivered (TriageApplication *self,
                                         const char        *notification_id)
{
  TriageRequest *request = _triage_application_find_request (self, notification_id);
  g_autoptr(TriageRequest) removed = NULL;

  if (request != NULL)
    {
      triage_request_set_answer_state (request, TRIAGE_ANSWER_DELIVERED);
      triage_request_set_status (request, ATP_STATUS_RESPONDED);
    }

  removed = triage_inbox_model_remove (self->inbox, notification_id);
}

/* What became of an answer, said where the person is: in the window when it
 * is shown, else in a bubble of its own (an answer given from a bubble has
 * no window to be told in). Returns whether the window is there to say it. */
static gboolean
window_can_tell (TriageApplication *self,
                 const char        *notification_id,
                 const char        *text)
{
  g_autofree char *key = NULL;

  if (self->window != NULL && gtk_widget_get_visible (GTK_WIDGET (self->window)))
    return TRUE;

  key = g_strconcat ("answer:", notification_id, NULL);
  if (self->notifier != NULL)
    triage_notifier_show_notice (self->notifier, key, _("An answer was not recorded"), text);

  return FALSE;
}

/* Our answer was not recorded (@text says why, @message is the server's
 * word): the request, now in @status, leaves the inbox, and the person is
 * told where they are. */
static void
answer_not_recorded (TriageApplication *self,
                     const char        *notification_id,
                     TriageRequest     *request,
                     AtpStatus          status,
                     const char        *text,
                     const char        *message)
{
  g_autoptr(TriageRequest) removed = NULL;

  if (request != NULL)
    {
      triage_request_set_answer_state (request, TRIAGE_ANSWER_NONE);
      triage_request_set_status (request, status);
    }
  removed = triage_inbox_model_remove (self->inbox, notification_id);

  g_message ("%s (%s)", text, message);
  if (window_can_tell (self, notification_id, text))
    triage_window_add_toast (self->window, text);
}

void
_triage_application_on_outbox_conflict (TriageApplication *self,
                                        const char        *notification_id,
                                        TriageOutcome      outcome,
                                        const char        *message)
{
  TriageRequest *request = _triage_application_find_request (self, notification_id);
  g_autofree char *text = NULL;
  const char *title = request ? triage_request_get_title (request) : NULL;
  AtpStatus status;

  switch (outcome)
    {
    case TRIAGE_OUTCOME_EXPIRED:
      status = ATP_STATUS_EXPIRED;
      /* Translators: %s is the title of a request */
      text = g_strdup_printf (_("Your answer to “%s” was not recorded: the request had expired"),
                              title ? title : notification_id);
      break;

    case TRIAGE_OUTCOME_INVALIDATED:
      status = ATP_STATUS_INVALIDATED;
      text = g_strdup_printf (_("Your answer to “%s” was not recorded: the service had withdrawn it"),
                              title ? title : notification_id);
      break;

    case TRIAGE_OUTCOME_GONE:
      /* Its row on the server is damaged: what became of it is not known. */
      status = request != NULL ? triage_request_get_status (request) : ATP_STATUS_ACKNOWLEDGED;
      /* Translators: %s is the title of a request */
      text = g_strdup_printf (_("Your answer to “%s” was not recorded: the server can no longer "
                                "read the request"),
                              title ? title : notification_id);
      break;

    case TRIAGE_OUTCOME_ANSWERED_ELSEWHERE:
    default:
      status = ATP_STATUS_RESPONDED;
      text = g_strdup_printf (_("Your answer to “%s” was not recorded: it was already answered "
                                "on another device"),
                              title ? title : notification_id);
      break;
    }

  answer_not_recorded (self, notification_id, request, status, text, message);
  if (outcome == TRIAGE_OUTCOME_GONE)
    {
      if (self->window != NULL)
        triage_window_show_unreadable (self->window, notification_id);
      if (self->notifier != NULL)
        triage_notifier_withdraw (self->notifier, notification_id);
    }

  /* Ours lost: the history shows the answer that won. */
  if (outcome == TRIAGE_OUTCOME_ANSWERED_ELSEWHERE)
    triage_lookups_fetch_response (self->lookups, notification_id);
}

/* The server no longer has the request, or no longer shows it to us (its
 * 404 NOTIFICATION_NOT_FOUND to our answer; a proxy's bare 404 is not that:
 * the outbox keeps such an answer): what the resync's lookup would have
 * found, said at once.
 * It leaves the inbox and its bubble goes, and the open view says it is no
 * longer on the server, read-only: another answer would meet the same 404.
 * It stayed, "Your answer was not sent", answerable in vain till the next
 * resync. */
void
_triage_application_on_outbox_gone (TriageApplication *self,
                                    const char        *notification_id,
                                    const char        *message)
{
  TriageRequest *request = _triage_application_find_request (self, notification_id);
  const char *title = request ? triage_request_get_title (request) : NULL;
  g_autofree char *text = NULL;

  /* Translators: %s is the title of a request */
  text = g_strdup_printf (_("Your answer to “%s” was not recorded: the request is no longer on "
                            "the server"),
                          title ? title : notification_id);
  answer_not_recorded (self, notification_id, request,
                       request != NULL ? triage_request_get_status (request) : ATP_STATUS_ACKNOWLEDGED,
                       text, message);
  if (self->window != NULL)
    triage_window_show_gone (self->window, notification_id);
  if (self->notifier != NULL)
    triage_notifier_withdraw (self->notifier, notification_id);
}

void
_triage_application_on_outbox_rejected (TriageApplication *self,
                                        const char        *notification_id,
                                        const char        *message)
{
  TriageRequest *request = _triage_application_find_request (self, notification_id);
  g_autofree char *text = NULL;

  /* Still waiting for an answer, as far as anyone knows (the answer, not
   * the request, was refused: 400, 422): it stays in the inbox, "Answer
   * refused", and may be answered anew until the server settles it (a
   * status update, the resync and its lookups). It left the inbox, and the
   * stream, which sends a request once a connection, did not bring it back
   * before the next one: the person could no longer answer it. */
  if (request != NULL)
    triage_request_set_answer_state (request, TRIAGE_ANSWER_FAILED);

  /* Translators: %s is the server's explanation */
  text = g_strdup_printf (_("The server refused the answer: %s"), message);
  if (window_can_tell (self, notification_id, text))
    triage_window_show_delivery_error (self->window, notification_id, text);
}

/* What an answer being stored needs back: the app and the request's id. */
typedef struct
{
  TriageApplication *self;
  char              *notification_id;
} SubmitCall;

static void
submit_call_free (SubmitCall *call)
{
  g_object_unref (call->self);
  g_free (call->notification_id);
  g_free (call);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SubmitCall, submit_call_free)

static void
submit_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(SubmitCall) data = user_data;
  g_autoptr(GError) error = NULL;

  if (!triage_outbox_submit_finish (TRIAGE_OUTBOX (object), result, &error))
    {
      g_autofree char *text = g_strdup_printf (_("The answer could not be saved: %s"), error->message);

      g_message ("%s", text);
      if (window_can_tell (data->self, data->notification_id, text))
        triage_window_show_error (data->self->window, data->notification_id, text);
    }
}

/* The request an answer is for, if it still waits for one; else the person
 * is told it no longer does. */
static TriageRequest *
find_pending_request (TriageApplication *self,
                      const char        *notification_id)
{
  TriageRequest *request = _triage_application_find_request (self, notification_id);
  const char *text = _("This request is no longer waiting for an answer");

  if (request != NULL && atp_status_is_pending (triage_request_get_status (request)))
    return request;

  if (window_can_tell (self, notification_id, text))
    triage_window_show_error (self->window, notification_id, text);
  return NULL;
}

static void
submit_answer (TriageApplication *self,
               const char        *notification_id,
               const char        *action_id,
               JsonNode          *response_data)
{
  g_autoptr(GError) error = NULL;
  TriageRequest *request = find_pending_request (self, notification_id);
  TriageProtocol *protocol;
  SubmitCall *call;

  if (request == NULL)
    return;

  /* Checked exactly as the server would: an invalid answer never leaves. */
  protocol = triage_request_get_protocol (request);
  if (protocol == NULL)
    g_set_error (&error, ATP_ERROR, ATP_ERROR_INVALID_REQUEST,
                 _("This version of Triage cannot answer requests of this kind"));
  else
    triage_protocol_validate_answer (protocol, triage_request_get_notification (request),
                                     action_id, response_data, &error);
  if (error != NULL)
    {
      if (self->window != NULL)
        triage_window_show_error (self->window, notification_id, error->message);
      return;
    }

  call = g_new0 (SubmitCall, 1);
  call->self = g_object_ref (self);
  call->notification_id = g_strdup (notification_id);
  triage_outbox_submit_async (self->outbox, notification_id, action_id, response_data,
                              NULL, submit_cb, call);
}

void
_triage_application_on_window_submit (TriageApplication *self,
                                      const char        *notification_id,
                                      const char        *action_id,
                                      JsonNode          *response_data)
{
  submit_answer (self, notification_id, action_id, response_data);
}

void
_triage_application_on_notifier_activated (TriageApplication *self,
                                           const char        *notification_id)
{
  if (g_str_has_prefix (notification_id, TRIAGE_NOTIFIER_NOTICE_PREFIX))
    g_action_group_activate_action (G_ACTION_GROUP (self), "show", NULL);
  else
    g_action_group_activate_action (G_ACTION_GROUP (self), "open-request",
                                    g_variant_new_string (notification_id));
}

/* A bubble's answer button: the answer it stands for, unless it needs a
 * confirmation (then the request opens, where it is asked). */
void
_triage_application_on_notifier_respond (TriageApplication *self,
                                         const char        *notification_id,
                                         const char        *answer_key)
{
  TriageRequest *request = find_pending_request (self, notification_id);
  TriageProtocol *protocol = request ? triage_request_get_protocol (request) : NULL;
  AtpNotification *notification = request ? triage_request_get_notification (request) : NULL;
  g_autofree char *action_id = NULL;
  g_autoptr(JsonNode) response_data = NULL;
  g_autoptr(GError) error = NULL;

  if (request == NULL)
    return;

  /* Not from a bubble that showed less than the whole request (whatever its
   * server sends): the protocol refuses it, and says why. */
  if (protocol == NULL ||
      !triage_protocol_get_bubble_answer (protocol, notification, answer_key, &action_id,
                                          &response_data, &error) ||
      triage_protocol_needs_confirmation (protocol, notification, action_id, response_data))
    {
      if (error != NULL)
        g_warning ("A bubble's answer was not sent: %s", error->message);
      g_action_group_activate_action (G_ACTION_GROUP (self), "open-request",
                                      g_variant_new_string (notification_id));
      return;
    }

  submit_answer (self, notification_id, action_id, response_data);
}
