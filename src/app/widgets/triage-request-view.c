/* triage-request-view.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-request-view"

#include "triage-request-view.h"

/*
 * TriageRequestView: what the window asks of the view of a request, whatever
 * its protocol (ATP's decision view, AITP's decision cards, AFP's review
 * editor). See docs/architecture.md.
 *
 * The contract every view keeps:
 * - it shows only a parsed, valid request; everything in it is untrusted
 *   text (plain labels, never markup);
 * - ::submit carries an answer that is complete, valid for the request (the
 *   protocol's TriageProtocol validation) and confirmed where the protocol
 *   asks; the view is read-only from then on, at %TRIAGE_DELIVERY_SENDING,
 *   until the window moves the delivery state on;
 * - a settled status (set_status: answered elsewhere, expired, withdrawn),
 *   a deadline passed on the local clock, or an answer given here make it
 *   read-only with a banner that says so, keeping what was entered in sight;
 * - showing the same request again (same id) keeps what the person entered.
 */

G_DEFINE_ENUM_TYPE (TriageDeliveryState, triage_delivery_state,
                    G_DEFINE_ENUM_VALUE (TRIAGE_DELIVERY_NONE, "none"),
                    G_DEFINE_ENUM_VALUE (TRIAGE_DELIVERY_SENDING, "sending"),
                    G_DEFINE_ENUM_VALUE (TRIAGE_DELIVERY_SENT, "sent"),
                    G_DEFINE_ENUM_VALUE (TRIAGE_DELIVERY_QUEUED, "queued"),
                    G_DEFINE_ENUM_VALUE (TRIAGE_DELIVERY_FAILED, "failed"))

G_DEFINE_INTERFACE (TriageRequestView, triage_request_view, GTK_TYPE_WIDGET)

enum {
  SUBMIT,
  ATTACHMENT_ACTIVATED,
  N_SIGNALS
};

static guint signals [N_SIGNALS];

static void
triage_request_view_default_init (TriageRequestViewInterface *iface)
{
  /**
   * TriageRequestView::submit:
   * @self: the view
   * @action_id: the answer's action id (ATP: the action; AITP: "decision")
   * @response_data: the answer's data (JSON null where there is none)
   *
   * The person answered: the answer is complete, valid and confirmed where
   * the protocol asks. The view is read-only from then on and shows
   * %TRIAGE_DELIVERY_SENDING until told otherwise.
   */
  signals [SUBMIT] =
    g_signal_new ("submit", G_TYPE_FROM_INTERFACE (iface), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 2,
                  G_TYPE_STRING, JSON_TYPE_NODE);

  /**
   * TriageRequestView::attachment-activated:
   * @self: the view
   * @index: the attachment's position in the envelope's `context.attachments`
   *
   * The person asked to see an attachment.
   */
  signals [ATTACHMENT_ACTIVATED] =
    g_signal_new ("attachment-activated", G_TYPE_FROM_INTERFACE (iface), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
}

/**
 * triage_request_view_get_request:
 *
 * Returns: (transfer none) (nullable): the request shown
 */
AtpNotification *
triage_request_view_get_request (TriageRequestView *self)
{
  g_return_val_if_fail (TRIAGE_IS_REQUEST_VIEW (self), NULL);

  return TRIAGE_REQUEST_VIEW_GET_IFACE (self)->get_request (self);
}

/**
 * triage_request_view_set_request:
 * @self: a #TriageRequestView
 * @request: (nullable): a parsed request of the view's protocol, or %NULL
 *
 * Shows a request, with its status as the envelope carries it and nothing
 * answered here. The same request again (same id) keeps what the person
 * entered and the state.
 */
void
triage_request_view_set_request (TriageRequestView *self,
                                 AtpNotification   *request)
{
  g_return_if_fail (TRIAGE_IS_REQUEST_VIEW (self));

  TRIAGE_REQUEST_VIEW_GET_IFACE (self)->set_request (self, request);
}

AtpStatus
triage_request_view_get_status (TriageRequestView *self)
{
  g_return_val_if_fail (TRIAGE_IS_REQUEST_VIEW (self), ATP_STATUS_CREATED);

  return TRIAGE_REQUEST_VIEW_GET_IFACE (self)->get_status (self);
}

/**
 * triage_request_view_set_status:
 * @self: a #TriageRequestView
 * @status: the request's status
 * @reason: (nullable): the reason the server gave
 * @when: (nullable): when it happened
 * @detail: (nullable): more for the person
 *
 * A settled status makes the view read-only, keeping what was entered, with
 * a banner saying what happened and when; a pending one makes it editable
 * again (unless an answer was given here or the deadline passed).
 */
void
triage_request_view_set_status (TriageRequestView *self,
                                AtpStatus          status,
                                const char        *reason,
                                GDateTime         *when,
                                const char        *detail)
{
  g_return_if_fail (TRIAGE_IS_REQUEST_VIEW (self));

  TRIAGE_REQUEST_VIEW_GET_IFACE (self)->set_status (self, status, reason, when, detail);
}

TriageDeliveryState
triage_request_view_get_delivery_state (TriageRequestView *self)
{
  g_return_val_if_fail (TRIAGE_IS_REQUEST_VIEW (self), TRIAGE_DELIVERY_NONE);

  return TRIAGE_REQUEST_VIEW_GET_IFACE (self)->get_delivery_state (self);
}

/**
 * triage_request_view_set_delivery_state:
 * @self: a #TriageRequestView
 * @state: where this app's answer stands
 *
 * %TRIAGE_DELIVERY_NONE makes the view editable again (a request still
 * pending); the others make it read-only with a banner.
 */
void
triage_request_view_set_delivery_state (TriageRequestView   *self,
                                        TriageDeliveryState  state)
{
  g_return_if_fail (TRIAGE_IS_REQUEST_VIEW (self));
  g_return_if_fail (state <= TRIAGE_DELIVERY_FAILED);

  TRIAGE_REQUEST_VIEW_GET_IFACE (self)->set_delivery_state (self, state);
}

/**
 * triage_request_view_set_sent_answer:
 * @self: a #TriageRequestView
 * @action_id: the answer's action id
 * @response_data: (nullable): its data
 *
 * Says which answer this app gave when it was not given in this view (a
 * request read back from the history). Call after
 * triage_request_view_set_request(), which forgets it.
 */
void
triage_request_view_set_sent_answer (TriageRequestView *self,
                                     const char        *action_id,
                                     JsonNode          *response_data)
{
  g_return_if_fail (TRIAGE_IS_REQUEST_VIEW (self));
  g_return_if_fail (action_id != NULL);

  TRIAGE_REQUEST_VIEW_GET_IFACE (self)->set_sent_answer (self, action_id, response_data);
}

/**
 * triage_request_view_focus_answer:
 *
 * Returns: %TRUE if a control that answers took the keyboard focus
 */
gboolean
triage_request_view_focus_answer (TriageRequestView *self)
{
  g_return_val_if_fail (TRIAGE_IS_REQUEST_VIEW (self), FALSE);

  return TRIAGE_REQUEST_VIEW_GET_IFACE (self)->focus_answer (self);
}

void
triage_request_view_show_delivery_error (TriageRequestView *self,
                                         const char        *message)
{
  g_return_if_fail (TRIAGE_IS_REQUEST_VIEW (self));
  g_return_if_fail (message != NULL);

  TRIAGE_REQUEST_VIEW_GET_IFACE (self)->show_delivery_error (self, message);
}

/**
 * triage_request_view_show_answer_error:
 * @self: a #TriageRequestView
 * @message: why the answer given here did not leave
 *
 * The view turns editable again (for a request still pending), keeps what
 * was entered, and shows @message until the next answer.
 */
void
triage_request_view_show_answer_error (TriageRequestView *self,
                                       const char        *message)
{
  g_return_if_fail (TRIAGE_IS_REQUEST_VIEW (self));
  g_return_if_fail (message != NULL);

  TRIAGE_REQUEST_VIEW_GET_IFACE (self)->show_answer_error (self, message);
}

/**
 * triage_request_view_set_response:
 * @self: a #TriageRequestView
 * @response: (nullable): the answer the request got elsewhere
 *
 * For a view whose banner names what was answered elsewhere and by whom; a
 * view without the method ignores it.
 */
void
triage_request_view_set_response (TriageRequestView *self,
                                  AtpResponse       *response)
{
  TriageRequestViewInterface *iface;

  g_return_if_fail (TRIAGE_IS_REQUEST_VIEW (self));

  iface = TRIAGE_REQUEST_VIEW_GET_IFACE (self);
  if (iface->set_response != NULL)
    iface->set_response (self, response);
}

void
triage_request_view_emit_submit (TriageRequestView *self,
                                 const char        *action_id,
                                 JsonNode          *response_data)
{
  g_return_if_fail (TRIAGE_IS_REQUEST_VIEW (self));
  g_return_if_fail (action_id != NULL);

  g_signal_emit (self, signals [SUBMIT], 0, action_id, response_data);
}

void
triage_request_view_emit_attachment_activated (TriageRequestView *self,
                                               guint              index)
{
  g_return_if_fail (TRIAGE_IS_REQUEST_VIEW (self));

  g_signal_emit (self, signals [ATTACHMENT_ACTIVATED], 0, index);
}
