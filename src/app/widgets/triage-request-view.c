/* triage-request-view.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-request-view"

#include "triage-protocol.h"
#include "triage-request-banner.h"
#include "triage-request-header.h"
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

/* TriageRequestState */

/**
 * triage_request_state_clear:
 * @state: a #TriageRequestState
 *
 * Forgets all but the status: no reason, response, answer given here or
 * error, and %TRIAGE_DELIVERY_NONE. For a view that shows another request,
 * and when it is finalized.
 */
void
triage_request_state_clear (TriageRequestState *state)
{
  g_clear_pointer (&state->status_reason, g_free);
  g_clear_pointer (&state->status_detail, g_free);
  g_clear_pointer (&state->status_when, g_date_time_unref);
  g_clear_pointer (&state->response, atp_response_unref);
  g_clear_pointer (&state->delivery_message, g_free);
  g_clear_pointer (&state->answer_error, g_free);
  g_clear_pointer (&state->sent_action_id, g_free);
  g_clear_pointer (&state->sent_response, json_node_unref);
  g_clear_pointer (&state->delivery_wait, g_date_time_unref);
  state->delivery = TRIAGE_DELIVERY_NONE;
}

/**
 * triage_request_state_set_delivery_wait:
 * @state: a request view's state
 * @until: (nullable): the end of the wait the server asked for, or %NULL
 *   when there is none
 *
 * Returns: %TRUE if it changed
 */
gboolean
triage_request_state_set_delivery_wait (TriageRequestState *state,
                                        GDateTime          *until)
{
  if (state->delivery_wait == until ||
      (state->delivery_wait != NULL && until != NULL && g_date_time_equal (state->delivery_wait, until)))
    return FALSE;

  g_clear_pointer (&state->delivery_wait, g_date_time_unref);
  state->delivery_wait = until ? g_date_time_ref (until) : NULL;
  return TRUE;
}

void
triage_request_state_set_status (TriageRequestState *state,
                                 AtpStatus           status,
                                 const char         *reason,
                                 GDateTime          *when,
                                 const char         *detail)
{
  state->status = status;
  g_free (state->status_reason);
  state->status_reason = g_strdup (reason);
  g_free (state->status_detail);
  state->status_detail = g_strdup (detail);
  g_clear_pointer (&state->status_when, g_date_time_unref);
  state->status_when = when ? g_date_time_ref (when) : NULL;
}

/**
 * triage_request_state_set_delivery:
 * @state: a #TriageRequestState
 * @delivery: where the answer given here stands
 *
 * Moves the delivery on; the server's refusal is forgotten unless @delivery
 * is %TRIAGE_DELIVERY_FAILED.
 *
 * Returns: %TRUE if the delivery state changed
 */
gboolean
triage_request_state_set_delivery (TriageRequestState  *state,
                                   TriageDeliveryState  delivery)
{
  if (delivery != TRIAGE_DELIVERY_FAILED)
    g_clear_pointer (&state->delivery_message, g_free);

  if (state->delivery == delivery)
    return FALSE;

  state->delivery = delivery;
  return TRUE;
}

/**
 * triage_request_state_set_delivery_error:
 * @state: a #TriageRequestState
 * @message: why the server refused the answer given here
 *
 * Returns: %TRUE if the delivery state changed (to %TRIAGE_DELIVERY_FAILED)
 */
gboolean
triage_request_state_set_delivery_error (TriageRequestState *state,
                                         const char         *message)
{
  g_free (state->delivery_message);
  state->delivery_message = g_strdup (message);

  return triage_request_state_set_delivery (state, TRIAGE_DELIVERY_FAILED);
}

/**
 * triage_request_state_set_answer_error:
 * @state: a #TriageRequestState
 * @message: why the answer given here did not leave
 *
 * Keeps @message and turns the delivery back to %TRIAGE_DELIVERY_NONE.
 *
 * Returns: %TRUE if the delivery state changed
 */
gboolean
triage_request_state_set_answer_error (TriageRequestState *state,
                                       const char         *message)
{
  g_free (state->answer_error);
  state->answer_error = g_strdup (message);

  return triage_request_state_set_delivery (state, TRIAGE_DELIVERY_NONE);
}

/**
 * triage_request_state_set_sent_answer:
 * @state: a #TriageRequestState
 * @action_id: the answer's action id
 * @response_data: (nullable): its data, copied
 */
void
triage_request_state_set_sent_answer (TriageRequestState *state,
                                      const char         *action_id,
                                      JsonNode           *response_data)
{
  g_free (state->sent_action_id);
  state->sent_action_id = g_strdup (action_id);
  g_clear_pointer (&state->sent_response, json_node_unref);
  state->sent_response = response_data ? json_node_copy (response_data) : NULL;
}

/**
 * triage_request_state_set_response:
 * @state: a #TriageRequestState
 * @response: (nullable): the answer given elsewhere
 *
 * Returns: %TRUE if it is not the response kept already
 */
gboolean
triage_request_state_set_response (TriageRequestState *state,
                                   AtpResponse        *response)
{
  if (response == state->response)
    return FALSE;

  g_clear_pointer (&state->response, atp_response_unref);
  state->response = response ? atp_response_ref (response) : NULL;
  return TRUE;
}

/* The default implementations, for a view that keeps a TriageRequestState */

static TriageRequestState *
get_state (TriageRequestView *self)
{
  TriageRequestViewInterface *iface = TRIAGE_REQUEST_VIEW_GET_IFACE (self);

  g_assert (iface->get_state != NULL && iface->update_state != NULL);

  return iface->get_state (self);
}

static void
update_state (TriageRequestView *self)
{
  TRIAGE_REQUEST_VIEW_GET_IFACE (self)->update_state (self);
}

static void
show_answer (TriageRequestView *self,
             const char        *action_id,
             JsonNode          *response_data)
{
  TriageRequestViewInterface *iface = TRIAGE_REQUEST_VIEW_GET_IFACE (self);

  if (iface->show_answer != NULL)
    iface->show_answer (self, action_id, response_data);
}

static AtpStatus
triage_request_view_real_get_status (TriageRequestView *self)
{
  return get_state (self)->status;
}

static void
triage_request_view_real_set_status (TriageRequestView *self,
                                     AtpStatus          status,
                                     const char        *reason,
                                     GDateTime         *when,
                                     const char        *detail)
{
  triage_request_state_set_status (get_state (self), status, reason, when, detail);
  update_state (self);
}

static TriageDeliveryState
triage_request_view_real_get_delivery_state (TriageRequestView *self)
{
  return get_state (self)->delivery;
}

static void
triage_request_view_real_set_delivery_state (TriageRequestView   *self,
                                             TriageDeliveryState  state)
{
  triage_request_state_set_delivery (get_state (self), state);
  update_state (self);
}

static void
triage_request_view_real_set_sent_answer (TriageRequestView *self,
                                          const char        *action_id,
                                          JsonNode          *response_data)
{
  triage_request_state_set_sent_answer (get_state (self), action_id, response_data);
  show_answer (self, action_id, response_data);
  update_state (self);
}

static void
triage_request_view_real_show_delivery_error (TriageRequestView *self,
                                              const char        *message)
{
  triage_request_state_set_delivery_error (get_state (self), message);
  update_state (self);
}

static void
triage_request_view_real_show_answer_error (TriageRequestView *self,
                                            const char        *message)
{
  triage_request_state_set_answer_error (get_state (self), message);
  update_state (self);
}

static void
triage_request_view_real_set_response (TriageRequestView *self,
                                       AtpResponse       *response)
{
  TriageRequestState *state;

  /* Optional: a view that keeps no state of its own ignores it. */
  if (TRIAGE_REQUEST_VIEW_GET_IFACE (self)->get_state == NULL)
    return;

  state = get_state (self);
  if (!triage_request_state_set_response (state, response))
    return;

  /* What was answered elsewhere, shown in the view's controls. */
  if (response != NULL && state->delivery == TRIAGE_DELIVERY_NONE)
    show_answer (self, response->action_id, response->response_data);
  update_state (self);
}

static void
triage_request_view_real_set_delivery_wait (TriageRequestView *self,
                                            GDateTime         *until)
{
  if (triage_request_state_set_delivery_wait (get_state (self), until))
    update_state (self);
}

static void
triage_request_view_default_init (TriageRequestViewInterface *iface)
{
  iface->get_status = triage_request_view_real_get_status;
  iface->set_status = triage_request_view_real_set_status;
  iface->get_delivery_state = triage_request_view_real_get_delivery_state;
  iface->set_delivery_state = triage_request_view_real_set_delivery_state;
  iface->set_sent_answer = triage_request_view_real_set_sent_answer;
  iface->show_delivery_error = triage_request_view_real_show_delivery_error;
  iface->show_answer_error = triage_request_view_real_show_answer_error;
  iface->set_response = triage_request_view_real_set_response;
  iface->set_delivery_wait = triage_request_view_real_set_delivery_wait;

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
 * triage_request_view_set_delivery_wait:
 * @self: a #TriageRequestView
 * @until: (nullable): the end of the wait the server asked for (a 429's or
 *   503's Retry-After), or %NULL when there is none
 *
 * While the answer is sending, the banner says until when the server asked
 * to wait: the answer goes then, not now.
 */
void
triage_request_view_set_delivery_wait (TriageRequestView *self,
                                       GDateTime         *until)
{
  g_return_if_fail (TRIAGE_IS_REQUEST_VIEW (self));

  TRIAGE_REQUEST_VIEW_GET_IFACE (self)->set_delivery_wait (self, until);
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
 * triage_request_view_focus_heading:
 *
 * Puts the keyboard on the heading of the request shown, where a screen
 * reader reads its title, rather than on a control that answers: a request
 * opened (from the list, a bubble, or by itself after an answer) never takes
 * a key meant for what was there before (Enter held or repeated).
 *
 * Returns: %TRUE if the heading took the keyboard focus
 */
gboolean
triage_request_view_focus_heading (TriageRequestView *self)
{
  g_return_val_if_fail (TRIAGE_IS_REQUEST_VIEW (self), FALSE);

  return TRIAGE_REQUEST_VIEW_GET_IFACE (self)->focus_heading (self);
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

/**
 * triage_request_view_get_drafts:
 * @self: a #TriageRequestView
 *
 * Returns: (transfer none) (nullable): the keeper of the view's drafts,
 *   %NULL for a view that keeps none
 */
TriageDraftKeeper *
triage_request_view_get_drafts (TriageRequestView *self)
{
  TriageRequestViewInterface *iface;

  g_return_val_if_fail (TRIAGE_IS_REQUEST_VIEW (self), NULL);

  iface = TRIAGE_REQUEST_VIEW_GET_IFACE (self);
  return iface->get_drafts != NULL ? iface->get_drafts (self) : NULL;
}

/**
 * triage_request_view_submit_answer:
 * @self: a #TriageRequestView that keeps a #TriageRequestState
 * @action_id: the answer's action id
 * @response_data: the answer's data: complete, valid and confirmed
 *
 * For implementations: the answer given in the view leaves. It is kept as
 * the answer given here, the view turns read-only at
 * %TRIAGE_DELIVERY_SENDING (so nothing is sent twice; the window moves the
 * state on), and ::submit is emitted.
 */
void
triage_request_view_submit_answer (TriageRequestView *self,
                                   const char        *action_id,
                                   JsonNode          *response_data)
{
  /* Showing the new state may drop what @action_id belongs to (a confirmation). */
  g_autofree char *id = g_strdup (action_id);
  TriageRequestState *state;

  g_return_if_fail (TRIAGE_IS_REQUEST_VIEW (self));
  g_return_if_fail (action_id != NULL);

  state = get_state (self);
  triage_request_state_set_sent_answer (state, action_id, response_data);
  g_clear_pointer (&state->answer_error, g_free);

  triage_request_view_set_delivery_state (self, TRIAGE_DELIVERY_SENDING);
  triage_request_view_emit_submit (self, id, response_data);
}

/**
 * triage_request_view_keep_request:
 * @kept: (inout) (nullable): where an implementation keeps the request it shows
 * @notification: (nullable): the request to show
 *
 * For implementations' set_request: keeps a reference to @notification in
 * @kept instead of the request kept until now.
 *
 * Returns: whether @notification is the request shown until now (a resync
 *   of it, which keeps what the person entered)
 */
gboolean
triage_request_view_keep_request (AtpNotification **kept,
                                  AtpNotification  *notification)
{
  gboolean same;

  g_return_val_if_fail (kept != NULL, FALSE);

  same = notification != NULL && *kept != NULL && g_str_equal (notification->id, (*kept)->id);
  if (notification != *kept)
    {
      g_clear_pointer (kept, atp_notification_unref);
      *kept = notification ? atp_notification_ref (notification) : NULL;
    }

  return same;
}

/**
 * triage_request_view_show_unreadable:
 * @stack: the view's stack, with an "error" page
 * @error_page: the status page of that page
 * @error: why the request's payload cannot be read
 *
 * For implementations' set_request: says that the request cannot be shown,
 * and why, in the agent's words as plain text.
 */
void
triage_request_view_show_unreadable (GtkStack      *stack,
                                     AdwStatusPage *error_page,
                                     const GError  *error)
{
  g_autofree char *escaped = NULL;

  g_return_if_fail (GTK_IS_STACK (stack));
  g_return_if_fail (ADW_IS_STATUS_PAGE (error_page));
  g_return_if_fail (error != NULL);

  escaped = g_markup_escape_text (error->message, -1);
  adw_status_page_set_description (error_page, escaped);
  gtk_stack_set_visible_child_name (stack, "error");
}

/**
 * triage_request_view_show_state:
 * @self: a #TriageRequestView that keeps a #TriageRequestState
 * @banner: its banner
 * @header: its request header
 * @protocol: the protocol of its requests, which words the answer given here
 *
 * For implementations' update_state: the state in @banner, and @header's
 * countdown running only while the request waits for an answer.
 *
 * Returns: whether the view turns read-only
 */
gboolean
triage_request_view_show_state (TriageRequestView   *self,
                                TriageRequestBanner *banner,
                                TriageRequestHeader *header,
                                TriageProtocol      *protocol)
{
  AtpNotification *request;
  TriageRequestState *state;
  g_autofree char *sent_answer = NULL;
  gboolean read_only;

  g_return_val_if_fail (TRIAGE_IS_REQUEST_VIEW (self), FALSE);

  request = triage_request_view_get_request (self);
  state = get_state (self);
  if (request != NULL && state->sent_action_id != NULL)
    sent_answer = triage_protocol_describe_answer (protocol, request, state->sent_action_id,
                                                   state->sent_response);
  read_only = triage_request_banner_update_from (banner, request, state, sent_answer,
                                                 triage_request_header_get_expired (header));

  /* Settled, or answered and recorded: the deadline no longer matters. */
  triage_request_header_set_counting (header, !atp_status_is_terminal (state->status) &&
                                              state->delivery != TRIAGE_DELIVERY_SENT);

  return read_only;
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
