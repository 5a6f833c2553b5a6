/* triage-request-view.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "atp.h"
#include "triage-draft-keeper.h"

G_BEGIN_DECLS

/**
 * TriageDeliveryState:
 * @TRIAGE_DELIVERY_NONE: not answered here (the view is editable unless the
 *   request is settled)
 * @TRIAGE_DELIVERY_SENDING: the answer is on its way (set by the view itself
 *   when it emits ::submit)
 * @TRIAGE_DELIVERY_SENT: the server recorded the answer
 * @TRIAGE_DELIVERY_QUEUED: the answer is stored and will be sent when the
 *   server can be reached
 * @TRIAGE_DELIVERY_FAILED: the server refused the answer for good
 *
 * Where this app's own answer to the request shown stands. Every state but
 * %TRIAGE_DELIVERY_NONE makes the view read-only and shows a banner.
 */
typedef enum
{
  TRIAGE_DELIVERY_NONE,
  TRIAGE_DELIVERY_SENDING,
  TRIAGE_DELIVERY_SENT,
  TRIAGE_DELIVERY_QUEUED,
  TRIAGE_DELIVERY_FAILED,
} TriageDeliveryState;

#define TRIAGE_TYPE_DELIVERY_STATE (triage_delivery_state_get_type ())
GType triage_delivery_state_get_type (void) G_GNUC_CONST;

/**
 * TriageRequestState:
 * @status: the request's status as the view shows it
 * @status_reason: (nullable): the reason the server gave for it
 * @status_when: (nullable): when it changed
 * @status_detail: (nullable): more for the person
 * @response: (nullable): the answer given elsewhere, once known
 * @delivery: where the answer given here stands
 * @delivery_message: (nullable): why the server refused it
 * @answer_error: (nullable): why the answer given here did not leave
 * @sent_action_id: (nullable): the answer given here: its action id
 * @sent_response: (nullable): and its data
 * @delivery_wait: (nullable): while the answer is sending, the end of the
 *   wait the server asked for (a 429's or 503's Retry-After): it goes then
 *
 * What a request view knows of the request shown besides the request
 * itself, the same for every protocol. A view keeps one in its instance and
 * hands it to the interface's default implementations through
 * TriageRequestViewInterface.get_state().
 */
typedef struct
{
  AtpStatus            status;
  char                *status_reason;
  GDateTime           *status_when;
  char                *status_detail;
  AtpResponse         *response;
  TriageDeliveryState  delivery;
  char                *delivery_message;
  char                *answer_error;
  char                *sent_action_id;
  JsonNode            *sent_response;
  GDateTime           *delivery_wait;
} TriageRequestState;

void                 triage_request_state_clear              (TriageRequestState  *state);
void                 triage_request_state_set_status         (TriageRequestState  *state,
                                                              AtpStatus            status,
                                                              const char          *reason,
                                                              GDateTime           *when,
                                                              const char          *detail);
gboolean             triage_request_state_set_delivery       (TriageRequestState  *state,
                                                              TriageDeliveryState  delivery);
gboolean             triage_request_state_set_delivery_error (TriageRequestState  *state,
                                                              const char          *message);
gboolean             triage_request_state_set_answer_error   (TriageRequestState  *state,
                                                              const char          *message);
void                 triage_request_state_set_sent_answer    (TriageRequestState  *state,
                                                              const char          *action_id,
                                                              JsonNode            *response_data);
gboolean             triage_request_state_set_response       (TriageRequestState  *state,
                                                              AtpResponse         *response);
gboolean             triage_request_state_set_delivery_wait  (TriageRequestState  *state,
                                                              GDateTime           *until);

#define TRIAGE_TYPE_REQUEST_VIEW (triage_request_view_get_type ())

G_DECLARE_INTERFACE (TriageRequestView, triage_request_view, TRIAGE, REQUEST_VIEW, GtkWidget)

/**
 * TriageRequestViewInterface:
 * @get_request: the request shown
 * @set_request: shows a request of the view's protocol (or none)
 * @get_status: the request's status as the view shows it
 * @set_status: the request's status; a settled one makes the view read-only
 *   with a banner saying what happened
 * @get_delivery_state: where the answer given here stands
 * @set_delivery_state: moves it on (the view sets %TRIAGE_DELIVERY_SENDING
 *   itself when it emits ::submit)
 * @set_sent_answer: the answer given here, when it was not given in this
 *   view (a request read back from the history)
 * @focus_heading: puts the keyboard on the request's heading (never on a
 *   control that answers: a key pressed for what was shown before must not
 *   answer this one); Tab goes on to the controls
 * @show_delivery_error: the server refused the answer for good
 * @show_answer_error: the answer did not leave (the view turns editable again)
 * @set_response: (nullable): the answer given elsewhere, once known, so the
 *   banner can say what it was and who gave it
 * @set_delivery_wait: while the answer is sending, the end of the wait the
 *   server asked for (or %NULL), so the banner can say when it goes
 * @get_state: the view's #TriageRequestState, for the default implementations
 *   of the methods from @get_status to @set_delivery_wait and for
 *   triage_request_view_submit_answer()
 * @update_state: the state changed: the view shows it again (its banner,
 *   whether it is read-only); used by the default implementations
 * @show_answer: (nullable): an answer given (here, read back from the history,
 *   or elsewhere) shown in the view's controls; used by the default
 *   implementations, optional
 * @get_drafts: (nullable): the keeper of what the view's controls hold and
 *   was not sent, whose writes the window follows; optional (a view that
 *   keeps no drafts)
 *
 * A view either implements the methods from @get_status to @set_delivery_wait or
 * keeps a #TriageRequestState and implements @get_state and @update_state,
 * which the default implementations of those methods use.
 *
 * A view of one protocol's requests, as the window uses it: the window
 * chooses the view by the request's protocol, and tells every view the same
 * things. A view emits ::submit with an answer that is complete, valid for
 * the request and confirmed where its protocol asks for it; the window
 * hands it to the application, which sends it through the outbox.
 */
struct _TriageRequestViewInterface
{
  GTypeInterface parent_iface;

  AtpNotification     *(*get_request)         (TriageRequestView   *self);
  void                 (*set_request)         (TriageRequestView   *self,
                                               AtpNotification     *request);
  AtpStatus            (*get_status)          (TriageRequestView   *self);
  void                 (*set_status)          (TriageRequestView   *self,
                                               AtpStatus            status,
                                               const char          *reason,
                                               GDateTime           *when,
                                               const char          *detail);
  TriageDeliveryState  (*get_delivery_state)  (TriageRequestView   *self);
  void                 (*set_delivery_state)  (TriageRequestView   *self,
                                               TriageDeliveryState  state);
  void                 (*set_sent_answer)     (TriageRequestView   *self,
                                               const char          *action_id,
                                               JsonNode            *response_data);
  gboolean             (*focus_heading)       (TriageRequestView   *self);
  void                 (*show_delivery_error) (TriageRequestView   *self,
                                               const char          *message);
  void                 (*show_answer_error)   (TriageRequestView   *self,
                                               const char          *message);
  void                 (*set_response)        (TriageRequestView   *self,
                                               AtpResponse         *response);
  void                 (*set_delivery_wait)   (TriageRequestView   *self,
                                               GDateTime           *until);

  TriageRequestState  *(*get_state)           (TriageRequestView   *self);
  void                 (*update_state)        (TriageRequestView   *self);
  void                 (*show_answer)         (TriageRequestView   *self,
                                               const char          *action_id,
                                               JsonNode            *response_data);
  TriageDraftKeeper   *(*get_drafts)          (TriageRequestView   *self);
};

AtpNotification     *triage_request_view_get_request         (TriageRequestView   *self);
void                 triage_request_view_set_request         (TriageRequestView   *self,
                                                              AtpNotification     *request);
AtpStatus            triage_request_view_get_status          (TriageRequestView   *self);
void                 triage_request_view_set_status          (TriageRequestView   *self,
                                                              AtpStatus            status,
                                                              const char          *reason,
                                                              GDateTime           *when,
                                                              const char          *detail);
TriageDeliveryState  triage_request_view_get_delivery_state  (TriageRequestView   *self);
void                 triage_request_view_set_delivery_state  (TriageRequestView   *self,
                                                              TriageDeliveryState  state);
void                 triage_request_view_set_delivery_wait         (TriageRequestView   *self,
                                                                    GDateTime           *until);
void                 triage_request_view_set_sent_answer     (TriageRequestView   *self,
                                                              const char          *action_id,
                                                              JsonNode            *response_data);
gboolean             triage_request_view_focus_heading       (TriageRequestView   *self);
void                 triage_request_view_show_delivery_error (TriageRequestView   *self,
                                                              const char          *message);
void                 triage_request_view_show_answer_error   (TriageRequestView   *self,
                                                              const char          *message);
void                 triage_request_view_set_response        (TriageRequestView   *self,
                                                              AtpResponse         *response);
TriageDraftKeeper   *triage_request_view_get_drafts          (TriageRequestView   *self);

/* For implementations: the state shown, an answer given in the view leaves, and the
 * interface's signals. */
typedef struct _TriageRequestBanner TriageRequestBanner;
typedef struct _TriageRequestHeader TriageRequestHeader;
typedef struct _TriageProtocol      TriageProtocol;

gboolean             triage_request_view_keep_request        (AtpNotification    **kept,
                                                              AtpNotification     *notification);
void                 triage_request_view_show_unreadable     (GtkStack            *stack,
                                                              AdwStatusPage       *error_page,
                                                              const GError        *error);
gboolean             triage_request_view_show_state          (TriageRequestView   *self,
                                                              TriageRequestBanner *banner,
                                                              TriageRequestHeader *header,
                                                              TriageProtocol      *protocol);
void                 triage_request_view_submit_answer       (TriageRequestView   *self,
                                                              const char          *action_id,
                                                              JsonNode            *response_data);
void                 triage_request_view_emit_submit         (TriageRequestView   *self,
                                                              const char          *action_id,
                                                              JsonNode            *response_data);
void                 triage_request_view_emit_attachment_activated (TriageRequestView *self,
                                                                    guint              index);

G_END_DECLS
