/* triage-decision-view.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-decision-view"

#include <glib/gi18n.h>

#include "triage-atp-protocol.h"
#include "triage-decision-view-private.h"
#include "triage-response-editor.h"
#include "triage-status-page-a11y.h"
#include "triage-widgets-style.h"
#include "triage-wrap-box.h"

/*
 * The request being answered: who asks (service name and id, project), what
 * (title, description, metadata, attachments), by when (a countdown that
 * turns critical under five minutes), and one editor per action. The parts
 * are in files of their own (see triage-decision-view-private.h); this one
 * holds the object, its state and its API.
 *
 * Everything the service sent is untrusted text: every label is plain text,
 * never markup. The view only ever shows a parsed, valid AtpNotification;
 * a notification that failed to parse is shown as an error page instead
 * (triage_decision_view_show_error()), never half built.
 *
 * An answer leaves through ::submit, after a confirmation dialog for actions
 * flagged destructive, irreversible or requires_confirmation. From then on
 * the view is read-only and a banner says where the answer stands
 * (set_delivery_state); it also turns read-only, keeping whatever was typed,
 * when the request is settled while open (set_status: answered elsewhere,
 * expired, withdrawn) or its deadline passes.
 */

static void triage_decision_view_request_view_init (TriageRequestViewInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TriageDecisionView, triage_decision_view, ADW_TYPE_BIN,
                               G_IMPLEMENT_INTERFACE (TRIAGE_TYPE_REQUEST_VIEW,
                                                      triage_decision_view_request_view_init))

enum {
  PROP_0,
  PROP_NOTIFICATION,
  PROP_DELIVERY_STATE,
  PROP_READ_ONLY,
  PROP_CONFIRM_GRACE_PERIOD,
  PROP_STORE,
  N_PROPS
};

static GParamSpec *properties [N_PROPS];

/* State */

/* The banner every request view has says what became of the request, or of
 * the answer given here (in ATP's words: "You answered ‘Rollout’: 25 %"), and
 * whether the request can no longer be answered here. */
static gboolean
update_banner (TriageDecisionView *self)
{
  g_autofree char *sent_answer = NULL;

  if (self->notification != NULL && self->state.sent_action_id != NULL)
    sent_answer = triage_protocol_describe_answer (triage_atp_protocol_get_default (), self->notification,
                                                   self->state.sent_action_id, self->state.sent_response);

  return triage_request_banner_update_from (self->banner, self->notification, &self->state,
                                            sent_answer, self->expired_locally);
}

void
_triage_decision_view_update_state (TriageDecisionView *self)
{
  gboolean focus_within = triage_request_banner_focus_within (GTK_WIDGET (self));
  gboolean read_only = update_banner (self);

  for (guint i = 0; i < self->editors->len; i++)
    triage_response_editor_set_editable (g_ptr_array_index (self->editors, i), !read_only);
  _triage_decision_view_mark_chosen (self, read_only);

  if (read_only)
    triage_request_banner_keep_focus (self->banner, GTK_WIDGET (self), focus_within);

  if (read_only)
    _triage_decision_view_cancel_confirmation (self);
  /* Answered here or settled: nothing is left to come back to. */
  triage_draft_keeper_set_read_only (self->drafts, read_only);

  if (self->read_only != read_only)
    {
      self->read_only = read_only;
      g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_READ_ONLY]);
    }
}

static void
on_attachment_row_activated (TriageDecisionView *self,
                             GtkListBoxRow      *row)
{
  int index = gtk_list_box_row_get_index (row);

  if (index >= 0)
    triage_request_view_emit_attachment_activated (TRIAGE_REQUEST_VIEW (self), (guint) index);
}

/* GObject */

static void
triage_decision_view_dispose (GObject *object)
{
  TriageDecisionView *self = (TriageDecisionView *)object;

  /* The window closes or the app quits: a draft waiting to be written is. */
  triage_draft_keeper_close (self->drafts);
  _triage_decision_view_cancel_confirmation (self);
  g_clear_handle_id (&self->countdown_id, g_source_remove);

  /* The stack is AdwBin's child and a template child: let AdwBin drop it first,
   * or both would unparent it. */
  adw_bin_set_child (ADW_BIN (self), NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), TRIAGE_TYPE_DECISION_VIEW);

  G_OBJECT_CLASS (triage_decision_view_parent_class)->dispose (object);
}

static void
triage_decision_view_finalize (GObject *object)
{
  TriageDecisionView *self = (TriageDecisionView *)object;

  g_clear_pointer (&self->notification, atp_notification_unref);
  g_clear_pointer (&self->editors, g_ptr_array_unref);
  g_clear_object (&self->drafts);
  triage_request_state_clear (&self->state);
  g_free (self->spoken_countdown);

  G_OBJECT_CLASS (triage_decision_view_parent_class)->finalize (object);
}

static void
triage_decision_view_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  TriageDecisionView *self = TRIAGE_DECISION_VIEW (object);

  switch (prop_id)
    {
    case PROP_NOTIFICATION:
      g_value_set_boxed (value, self->notification);
      break;

    case PROP_DELIVERY_STATE:
      g_value_set_enum (value, self->state.delivery);
      break;

    case PROP_READ_ONLY:
      g_value_set_boolean (value, self->read_only);
      break;

    case PROP_CONFIRM_GRACE_PERIOD:
      g_value_set_uint (value, self->confirm_grace_period);
      break;

    case PROP_STORE:
      g_value_set_object (value, triage_draft_keeper_get_store (self->drafts));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
triage_decision_view_set_property (GObject      *object,
                                   guint         prop_id,
                                   const GValue *value,
                                   GParamSpec   *pspec)
{
  TriageDecisionView *self = TRIAGE_DECISION_VIEW (object);

  switch (prop_id)
    {
    case PROP_NOTIFICATION:
      triage_decision_view_set_notification (self, g_value_get_boxed (value));
      break;

    case PROP_DELIVERY_STATE:
      triage_decision_view_set_delivery_state (self, g_value_get_enum (value));
      break;

    case PROP_CONFIRM_GRACE_PERIOD:
      triage_decision_view_set_confirm_grace_period (self, g_value_get_uint (value));
      break;

    case PROP_STORE:
      if (triage_draft_keeper_set_store (self->drafts, g_value_get_object (value)))
        g_object_notify_by_pspec (object, pspec);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
triage_decision_view_class_init (TriageDecisionViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = triage_decision_view_dispose;
  object_class->finalize = triage_decision_view_finalize;
  object_class->get_property = triage_decision_view_get_property;
  object_class->set_property = triage_decision_view_set_property;

  /**
   * TriageDecisionView:notification:
   *
   * The request shown, or %NULL.
   */
  properties [PROP_NOTIFICATION] =
    g_param_spec_boxed ("notification", NULL, NULL, ATP_TYPE_NOTIFICATION,
                        (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * TriageDecisionView:delivery-state:
   *
   * Where this app's answer stands.
   */
  properties [PROP_DELIVERY_STATE] =
    g_param_spec_enum ("delivery-state", NULL, NULL,
                       TRIAGE_TYPE_DELIVERY_STATE, TRIAGE_DELIVERY_NONE,
                       (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * TriageDecisionView:read-only:
   *
   * Whether the request can no longer be answered here (settled, past its
   * deadline, or already answered).
   */
  properties [PROP_READ_ONLY] =
    g_param_spec_boolean ("read-only", NULL, NULL, FALSE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * TriageDecisionView:confirm-grace-period:
   *
   * Milliseconds during which a new confirmation dialog cannot be confirmed.
   */
  properties [PROP_CONFIRM_GRACE_PERIOD] =
    g_param_spec_uint ("confirm-grace-period", NULL, NULL,
                       0, 60000, TRIAGE_CONFIRM_DEFAULT_GRACE_PERIOD,
                       (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * TriageDecisionView:store:
   *
   * The app's store, where drafts (what the cards hold and was not sent)
   * are kept over a restart; without it they are kept in memory only.
   */
  properties [PROP_STORE] =
    g_param_spec_object ("store", NULL, NULL, TRIAGE_TYPE_STORE,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (TRIAGE_TYPE_REQUEST_BANNER);
  g_type_ensure (TRIAGE_TYPE_RESPONSE_EDITOR);
  g_type_ensure (TRIAGE_TYPE_WRAP_BOX);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               RESOURCE_BASE "/widgets/triage-decision-view.ui");
  gtk_widget_class_bind_template_child (widget_class, TriageDecisionView, stack);
  gtk_widget_class_bind_template_child (widget_class, TriageDecisionView, error_page);
  gtk_widget_class_bind_template_child (widget_class, TriageDecisionView, banner);
  gtk_widget_class_bind_template_child (widget_class, TriageDecisionView, scroller);
  gtk_widget_class_bind_template_child (widget_class, TriageDecisionView, service_avatar);
  gtk_widget_class_bind_template_child (widget_class, TriageDecisionView, service_label);
  gtk_widget_class_bind_template_child (widget_class, TriageDecisionView, service_id_label);
  gtk_widget_class_bind_template_child (widget_class, TriageDecisionView, heading);
  gtk_widget_class_bind_template_child (widget_class, TriageDecisionView, title_label);
  gtk_widget_class_bind_template_child (widget_class, TriageDecisionView, project_chip);
  gtk_widget_class_bind_template_child (widget_class, TriageDecisionView, project_label);
  gtk_widget_class_bind_template_child (widget_class, TriageDecisionView, countdown_box);
  gtk_widget_class_bind_template_child (widget_class, TriageDecisionView, countdown_label);
  gtk_widget_class_bind_template_child (widget_class, TriageDecisionView, received_chip);
  gtk_widget_class_bind_template_child (widget_class, TriageDecisionView, received_label);
  gtk_widget_class_bind_template_child (widget_class, TriageDecisionView, description_label);
  gtk_widget_class_bind_template_child (widget_class, TriageDecisionView, whole_text_button);
  gtk_widget_class_bind_template_child (widget_class, TriageDecisionView, metadata_section);
  gtk_widget_class_bind_template_child (widget_class, TriageDecisionView, metadata_list);
  gtk_widget_class_bind_template_child (widget_class, TriageDecisionView, metadata_more);
  gtk_widget_class_bind_template_child (widget_class, TriageDecisionView, attachments_section);
  gtk_widget_class_bind_template_child (widget_class, TriageDecisionView, attachment_list);
  gtk_widget_class_bind_template_child (widget_class, TriageDecisionView, editors_box);
  gtk_widget_class_bind_template_child (widget_class, TriageDecisionView, id_label);
  gtk_widget_class_bind_template_callback (widget_class, on_attachment_row_activated);
  gtk_widget_class_bind_template_callback_full (widget_class, "on_whole_text_clicked",
                                                G_CALLBACK (_triage_decision_view_show_whole_text));
}

static void
triage_decision_view_init (TriageDecisionView *self)
{
  triage_widgets_style_init ();
  gtk_widget_init_template (GTK_WIDGET (self));
  /* Said as it reads when it takes the keyboard (nothing else on it can). */
  triage_status_page_name_scroller (self->error_page);

  self->editors = g_ptr_array_new ();
  self->drafts = _triage_decision_view_new_drafts (self);
  self->confirm_grace_period = TRIAGE_CONFIRM_DEFAULT_GRACE_PERIOD;
  gtk_stack_set_visible_child_name (self->stack, "empty");
}

/**
 * triage_decision_view_new:
 *
 * Returns: (transfer floating): a new, empty decision view
 */
GtkWidget *
triage_decision_view_new (void)
{
  return g_object_new (TRIAGE_TYPE_DECISION_VIEW, NULL);
}

/**
 * triage_decision_view_get_notification:
 *
 * Returns: (transfer none) (nullable): the request shown
 */
AtpNotification *
triage_decision_view_get_notification (TriageDecisionView *self)
{
  g_return_val_if_fail (TRIAGE_IS_DECISION_VIEW (self), NULL);

  return self->notification;
}

/**
 * triage_decision_view_set_notification:
 * @self: a #TriageDecisionView
 * @notification: (nullable): a parsed (so valid) notification, or %NULL
 *
 * Shows a request, with its status as the notification carries it, nothing
 * answered here. Showing the same request again (same id) keeps what the
 * person entered and the state. What was entered for another request and
 * not sent (a draft) is kept until that request is shown again, answered
 * here or settled; with a store (#TriageDecisionView:store), over a restart
 * too.
 */
void
triage_decision_view_set_notification (TriageDecisionView *self,
                                       AtpNotification    *notification)
{
  gboolean delivery_changed;
  gboolean same;

  g_return_if_fail (TRIAGE_IS_DECISION_VIEW (self));

  if (notification == self->notification && notification != NULL)
    {
      gtk_stack_set_visible_child_name (self->stack, "decision");
      return;
    }

  same = notification != NULL && self->notification != NULL &&
         g_str_equal (notification->id, self->notification->id);

  /* What was entered for the request left waits for its return. */
  if (!same)
    triage_draft_keeper_leave (self->drafts);

  g_clear_pointer (&self->notification, atp_notification_unref);
  self->notification = notification ? atp_notification_ref (notification) : NULL;

  if (same)
    {
      /* The editors keep their own reference to the definition, which an id cannot change. */
      _triage_decision_view_build_header (self);
      _triage_decision_view_build_metadata (self);
      _triage_decision_view_build_attachments (self);
      _triage_decision_view_update_countdown (self);
      gtk_stack_set_visible_child_name (self->stack, "decision");
      g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_NOTIFICATION]);
      return;
    }

  _triage_decision_view_cancel_confirmation (self);
  _triage_decision_view_clear_editors (self);
  delivery_changed = self->state.delivery != TRIAGE_DELIVERY_NONE;
  triage_request_state_clear (&self->state);
  self->expired_locally = FALSE;
  if (delivery_changed)
    g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_DELIVERY_STATE]);

  if (notification == NULL)
    {
      _triage_decision_view_clear_request (self);
      _triage_decision_view_update_countdown (self);
      _triage_decision_view_update_state (self);
      gtk_stack_set_visible_child_name (self->stack, "empty");
      g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_NOTIFICATION]);
      return;
    }

  self->state.status = notification->status;

  _triage_decision_view_build_header (self);
  _triage_decision_view_build_metadata (self);
  _triage_decision_view_build_attachments (self);
  _triage_decision_view_build_editors (self);
  triage_draft_keeper_show (self->drafts, notification->id);
  _triage_decision_view_update_countdown (self);
  _triage_decision_view_update_state (self);

  gtk_adjustment_set_value (gtk_scrolled_window_get_vadjustment (self->scroller), 0);
  gtk_stack_set_visible_child_name (self->stack, "decision");
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_NOTIFICATION]);
}

AtpStatus
triage_decision_view_get_status (TriageDecisionView *self)
{
  g_return_val_if_fail (TRIAGE_IS_DECISION_VIEW (self), ATP_STATUS_CREATED);

  return self->state.status;
}

/**
 * triage_decision_view_set_status:
 * @self: a #TriageDecisionView
 * @status: the request's status
 * @reason: (nullable): the reason the server gave (a status update's `reason`)
 * @when: (nullable): when it happened
 * @detail: (nullable): more for the person, e.g. "Your answer was not recorded."
 *
 * A settled status (responded elsewhere, expired, invalidated) makes the
 * view read-only, keeping what was entered, with a banner saying what
 * happened and when; a pending one makes it editable again (unless an
 * answer was given here or the deadline passed).
 */
void
triage_decision_view_set_status (TriageDecisionView *self,
                                 AtpStatus           status,
                                 const char         *reason,
                                 GDateTime          *when,
                                 const char         *detail)
{
  g_return_if_fail (TRIAGE_IS_DECISION_VIEW (self));

  triage_request_state_set_status (&self->state, status, reason, when, detail);

  _triage_decision_view_update_state (self);
  _triage_decision_view_update_countdown (self);
}

/**
 * triage_decision_view_set_response:
 * @self: a #TriageDecisionView
 * @response: (nullable): the answer that settled the request elsewhere
 *
 * What was answered on another device or by another person, and by whom:
 * once the status is %ATP_STATUS_RESPONDED the banner names the action, the
 * value and the responder, and the action's card is marked as the one
 * chosen. A status update does not carry the answer, so it usually comes
 * later than the status. Call after triage_decision_view_set_notification(),
 * which forgets it.
 */
void
triage_decision_view_set_response (TriageDecisionView *self,
                                   AtpResponse        *response)
{
  g_return_if_fail (TRIAGE_IS_DECISION_VIEW (self));

  triage_request_view_set_response (TRIAGE_REQUEST_VIEW (self), response);
}

/**
 * triage_decision_view_get_response:
 *
 * Returns: (transfer none) (nullable): the answer given elsewhere, if known
 */
AtpResponse *
triage_decision_view_get_response (TriageDecisionView *self)
{
  g_return_val_if_fail (TRIAGE_IS_DECISION_VIEW (self), NULL);

  return self->state.response;
}

TriageDeliveryState
triage_decision_view_get_delivery_state (TriageDecisionView *self)
{
  g_return_val_if_fail (TRIAGE_IS_DECISION_VIEW (self), TRIAGE_DELIVERY_NONE);

  return self->state.delivery;
}

/**
 * triage_decision_view_set_delivery_state:
 * @self: a #TriageDecisionView
 * @state: where this app's answer stands
 *
 * %TRIAGE_DELIVERY_NONE makes the view editable again (a request still
 * pending); the others make it read-only with a banner.
 */
void
triage_decision_view_set_delivery_state (TriageDecisionView  *self,
                                         TriageDeliveryState  state)
{
  g_return_if_fail (TRIAGE_IS_DECISION_VIEW (self));
  g_return_if_fail (state <= TRIAGE_DELIVERY_FAILED);

  if (triage_request_state_set_delivery (&self->state, state))
    g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_DELIVERY_STATE]);

  _triage_decision_view_update_state (self);
  _triage_decision_view_update_countdown (self);
}

/**
 * triage_decision_view_set_sent_answer:
 * @self: a #TriageDecisionView
 * @action_id: the action this app answered with
 * @response_data: (nullable): the data it sent
 *
 * Says which answer this app gave when it was not given in this view (a
 * request read back from the history); the delivery banner describes it.
 * Call after triage_decision_view_set_notification(), which forgets it.
 */
void
triage_decision_view_set_sent_answer (TriageDecisionView *self,
                                      const char         *action_id,
                                      JsonNode           *response_data)
{
  g_return_if_fail (TRIAGE_IS_DECISION_VIEW (self));
  g_return_if_fail (action_id != NULL);

  triage_request_view_set_sent_answer (TRIAGE_REQUEST_VIEW (self), action_id, response_data);
}

/**
 * triage_decision_view_focus_heading:
 * @self: a #TriageDecisionView
 *
 * Puts the keyboard on the request's heading, which a screen reader reads,
 * never on a control that answers: Enter pressed, held or repeated for the
 * request shown before (the one just answered, the list's row) must not
 * answer this one. Tab goes on to the controls. Without a request, on the
 * view itself.
 *
 * Returns: %TRUE if the heading took the focus
 */
gboolean
triage_decision_view_focus_heading (TriageDecisionView *self)
{
  g_return_val_if_fail (TRIAGE_IS_DECISION_VIEW (self), FALSE);

  if (self->notification != NULL && gtk_widget_grab_focus (self->heading))
    return TRUE;

  gtk_widget_child_focus (GTK_WIDGET (self), GTK_DIR_TAB_FORWARD);
  return FALSE;
}

/**
 * triage_decision_view_show_delivery_error:
 * @self: a #TriageDecisionView
 * @message: why the server refused the answer given here
 *
 * Sets %TRIAGE_DELIVERY_FAILED with @message in the banner; the request
 * stays shown.
 */
void
triage_decision_view_show_delivery_error (TriageDecisionView *self,
                                          const char         *message)
{
  g_return_if_fail (TRIAGE_IS_DECISION_VIEW (self));
  g_return_if_fail (message != NULL);

  if (triage_request_state_set_delivery_error (&self->state, message))
    g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_DELIVERY_STATE]);

  _triage_decision_view_update_state (self);
  _triage_decision_view_update_countdown (self);
}

/**
 * triage_decision_view_show_answer_error:
 * @self: a #TriageDecisionView
 * @message: why the answer given here did not leave (it could not be
 *   stored, the request is no longer waiting, …)
 *
 * The answer was not sent: the view turns editable again (for a request
 * still pending), keeps what was entered, and shows @message in an error
 * banner until the next answer.
 */
void
triage_decision_view_show_answer_error (TriageDecisionView *self,
                                        const char         *message)
{
  g_return_if_fail (TRIAGE_IS_DECISION_VIEW (self));
  g_return_if_fail (message != NULL);

  if (triage_request_state_set_answer_error (&self->state, message))
    g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_DELIVERY_STATE]);

  _triage_decision_view_update_state (self);
}

/**
 * triage_decision_view_show_error:
 * @self: a #TriageDecisionView
 * @message: what is wrong, e.g. libatp's parse error
 *
 * For a request that cannot be shown (its notification failed to parse):
 * drops the request shown, if any, and shows an error page with @message as
 * plain text.
 */
void
triage_decision_view_show_error (TriageDecisionView *self,
                                 const char         *message)
{
  g_autofree char *escaped = NULL;

  g_return_if_fail (TRIAGE_IS_DECISION_VIEW (self));
  g_return_if_fail (message != NULL);

  triage_decision_view_set_notification (self, NULL);

  /* The status page's description is markup. */
  escaped = g_markup_escape_text (message, -1);
  adw_status_page_set_description (self->error_page, escaped);
  gtk_stack_set_visible_child_name (self->stack, "error");
}

gboolean
triage_decision_view_get_read_only (TriageDecisionView *self)
{
  g_return_val_if_fail (TRIAGE_IS_DECISION_VIEW (self), FALSE);

  return self->read_only;
}

/**
 * triage_decision_view_get_editor:
 * @self: a #TriageDecisionView
 * @action_id: an action of the request shown
 *
 * Returns: (transfer none) (nullable): the #TriageResponseEditor of the action
 */
GtkWidget *
triage_decision_view_get_editor (TriageDecisionView *self,
                                 const char         *action_id)
{
  g_return_val_if_fail (TRIAGE_IS_DECISION_VIEW (self), NULL);
  g_return_val_if_fail (action_id != NULL, NULL);

  for (guint i = 0; i < self->editors->len; i++)
    {
      TriageResponseEditor *editor = g_ptr_array_index (self->editors, i);

      if (g_str_equal (triage_response_editor_get_action_id (editor), action_id))
        return GTK_WIDGET (editor);
    }

  return NULL;
}

guint
triage_decision_view_get_confirm_grace_period (TriageDecisionView *self)
{
  g_return_val_if_fail (TRIAGE_IS_DECISION_VIEW (self), 0);

  return self->confirm_grace_period;
}

/**
 * triage_decision_view_set_confirm_grace_period:
 * @self: a #TriageDecisionView
 * @msec: milliseconds after a confirmation dialog appears during which it
 *   cannot be confirmed (tests shorten it)
 */
void
triage_decision_view_set_confirm_grace_period (TriageDecisionView *self,
                                               guint               msec)
{
  g_return_if_fail (TRIAGE_IS_DECISION_VIEW (self));

  if (self->confirm_grace_period == msec)
    return;

  self->confirm_grace_period = msec;
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_CONFIRM_GRACE_PERIOD]);
}

/**
 * triage_decision_view_get_confirm_dialog:
 *
 * Returns: (transfer none) (nullable): the confirmation on screen
 */
TriageConfirmDialog *
triage_decision_view_get_confirm_dialog (TriageDecisionView *self)
{
  g_return_val_if_fail (TRIAGE_IS_DECISION_VIEW (self), NULL);

  return self->confirm_dialog;
}

static TriageRequestState *
triage_decision_view_get_state (TriageRequestView *view)
{
  return &TRIAGE_DECISION_VIEW (view)->state;
}

/* TriageRequestView: the window's view of ATP requests. What moves the
 * countdown or the delivery-state property is its own; set_sent_answer and
 * set_response are the interface's default implementation, on self->state. */
static void
triage_decision_view_request_view_init (TriageRequestViewInterface *iface)
{
  iface->get_request = (gpointer) triage_decision_view_get_notification;
  iface->set_request = (gpointer) triage_decision_view_set_notification;
  iface->get_status = (gpointer) triage_decision_view_get_status;
  iface->set_status = (gpointer) triage_decision_view_set_status;
  iface->get_delivery_state = (gpointer) triage_decision_view_get_delivery_state;
  iface->set_delivery_state = (gpointer) triage_decision_view_set_delivery_state;
  iface->focus_heading = (gpointer) triage_decision_view_focus_heading;
  iface->show_delivery_error = (gpointer) triage_decision_view_show_delivery_error;
  iface->show_answer_error = (gpointer) triage_decision_view_show_answer_error;
  iface->get_state = triage_decision_view_get_state;
  iface->update_state = (gpointer) _triage_decision_view_update_state;
  iface->get_drafts = _triage_decision_view_get_drafts;
}
