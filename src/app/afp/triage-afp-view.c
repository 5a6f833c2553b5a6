/* triage-afp-view.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-afp"

#include <glib/gi18n.h>

#include "triage-afp-applied.h"
#include "triage-afp-artifact.h"
#include "triage-status-page-a11y.h"
#include "triage-afp-protocol.h"
#include "triage-decision-format.h"
#include "triage-afp-view-private.h"
#include "triage-request-banner.h"
#include "triage-request-header.h"
#include "triage-send-shortcut.h"
#include "triage-widgets-style.h"
#include "triage-wrap-box.h"

/*
 * An AFP 1.2 review in the window: the artifact (highlighted, or from
 * iteration 2 on the changes since the previous one first), the person's
 * earlier items beside what the agent did with them, and the editor of the
 * feedback. Send is enabled while the editor finds no problem (the same
 * checks as the server's); it emits ::submit with action `feedback` and
 * the feedback object. Decline… asks for an optional message and emits
 * action `decline` with `{}` or `{"message"}`. Both go through the outbox
 * like every answer (docs/architecture.md, "Answers").
 *
 * What the person writes is kept as a draft (triage-afp-view-drafts.c), as
 * ATP's and AITP's views keep theirs, by a TriageDraftKeeper: in memory
 * and, with the app's store (the "store" property, given by the window),
 * on disk half a second after they stop typing and when the view goes; it
 * is read back when the review is shown again (after the window was
 * closed, the app quit or crashed) and goes with the answer into the
 * outbox (the store's trigger deletes it).
 *
 * Everything is reachable with the keyboard (Tab through the artifact, the
 * earlier items, the editor; Ctrl+Return in the editor sends) and named for
 * a screen reader; the view fits 360 px (the editor's fields stack, the
 * artifact scrolls sideways).
 */


static void triage_afp_view_request_view_init (TriageRequestViewInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TriageAfpView, triage_afp_view, ADW_TYPE_BIN,
                               G_IMPLEMENT_INTERFACE (TRIAGE_TYPE_REQUEST_VIEW,
                                                      triage_afp_view_request_view_init))

enum {
  PROP_0,
  PROP_STORE,
  N_PROPS
};

static GParamSpec *properties [N_PROPS];

/* State */

static void
sync_carried (TriageAfpView *self)
{
  g_autoptr(GHashTable) carried = g_hash_table_new (g_str_hash, g_str_equal);
  GPtrArray *earlier = self->review && self->review->latest_feedback
                       ? self->review->latest_feedback->areas_for_improvement : NULL;

  for (guint i = 0; earlier != NULL && i < earlier->len; i++)
    {
      const AtpAfpImprovement *item = earlier->pdata[i];

      if (triage_afp_editor_has_item (self->editor, item->id))
        g_hash_table_add (carried, item->id);
    }
  triage_afp_applied_sync_carried (self->applied, carried);
}

void
_triage_afp_view_update_state (TriageAfpView *self)
{
  gboolean focus_within = triage_request_banner_focus_within (GTK_WIDGET (self));
  gboolean read_only = triage_request_view_show_state (TRIAGE_REQUEST_VIEW (self), self->banner,
                                                       self->header,
                                                       triage_afp_protocol_get_default ());
  const char *problem = triage_afp_editor_get_problem (self->editor);

  triage_afp_editor_set_editable (self->editor, !read_only);
  triage_afp_applied_set_editable (self->applied, !read_only);
  sync_carried (self);
  gtk_widget_set_visible (self->send_row, !read_only);
  gtk_widget_set_visible (GTK_WIDGET (self->problem_label), !read_only);
  gtk_label_set_label (self->problem_label, problem != NULL ? problem : _("Ready to send."));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "afp.send",
                                 !read_only && self->review != NULL && problem == NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "afp.decline", !read_only && self->review != NULL);
  if (read_only && self->decline_dialog != NULL)
    gtk_window_destroy (GTK_WINDOW (self->decline_dialog));
  if (read_only)
    triage_request_banner_keep_focus (self->banner, GTK_WIDGET (self), focus_within);
  /* Answered here or settled: nothing is left to come back to. */
  triage_draft_keeper_set_read_only (self->drafts, read_only);

  self->read_only = read_only;
}

static void
on_deadline_passed (TriageAfpView *self)
{
  _triage_afp_view_update_state (self);
}

static void
on_editor_changed (TriageAfpView *self)
{
  _triage_afp_view_update_state (self);
  triage_draft_keeper_changed (self->drafts);
}

static void
on_carry_over (TriageAfpView *self,
               const char    *id)
{
  const AtpAfpImprovement *item;

  if (self->read_only || self->review == NULL || self->review->latest_feedback == NULL)
    return;

  item = atp_afp_feedback_find_item (self->review->latest_feedback, id);
  if (item != NULL)
    triage_afp_editor_carry_over (self->editor, item);
}

/* Answers */

static void
send_answer (TriageAfpView *self,
             const char    *action_id,
             JsonNode      *response_data)
{
  g_autoptr(GError) error = NULL;

  if (self->read_only || self->notification == NULL)
    return;

  if (!triage_protocol_validate_answer (triage_afp_protocol_get_default (), self->notification,
                                        action_id, response_data, &error))
    {
      triage_request_view_show_answer_error (TRIAGE_REQUEST_VIEW (self), error->message);
      return;
    }

  /* Read-only from here on: the keeper writes the draft no more, and the
   * answer takes its place in the store. */
  triage_request_view_submit_answer (TRIAGE_REQUEST_VIEW (self), action_id, response_data);
}

static void
send_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  TriageAfpView *self = TRIAGE_AFP_VIEW (widget);
  g_autoptr(JsonNode) feedback = NULL;

  if (self->review == NULL || triage_afp_editor_get_problem (self->editor) != NULL)
    return;

  feedback = triage_afp_editor_dup_feedback (self->editor);
  send_answer (self, TRIAGE_AFP_ACTION_FEEDBACK, feedback);
}

/**
 * triage_afp_view_decline:
 * @self: a #TriageAfpView
 * @message: (nullable): why, in the person's words
 *
 * Declines the review shown, as the Decline dialog does.
 */
void
triage_afp_view_decline (TriageAfpView *self,
                         const char    *message)
{
  g_autoptr(JsonNode) data = NULL;

  g_return_if_fail (TRIAGE_IS_AFP_VIEW (self));

  data = triage_afp_decline_data_new (message);
  send_answer (self, TRIAGE_AFP_ACTION_DECLINE, data);
}

static void
on_decline_response (TriageAfpView    *self,
                     const char       *response,
                     AdwMessageDialog *dialog)
{
  GtkEditable *entry = g_object_get_data (G_OBJECT (dialog), "triage-entry");

  if (self->decline_dialog == dialog)
    self->decline_dialog = NULL;
  if (g_strcmp0 (response, "decline") == 0)
    triage_afp_view_decline (self, gtk_editable_get_text (entry));
}

static void
decline_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  TriageAfpView *self = TRIAGE_AFP_VIEW (widget);
  GtkRoot *root = gtk_widget_get_root (widget);
  GtkWidget *dialog, *entry;

  if (self->read_only || self->review == NULL || self->decline_dialog != NULL)
    return;

  dialog = adw_message_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                   _("Decline This Review?"),
                                   _("The agent is told you will not review this artifact. "
                                     "You can say why."));
  entry = gtk_entry_new ();
  gtk_entry_set_placeholder_text (GTK_ENTRY (entry), _("Reason (optional)"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (entry), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Reason for declining"), -1);
  adw_message_dialog_set_extra_child (ADW_MESSAGE_DIALOG (dialog), entry);
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog),
                                    "cancel", _("_Cancel"),
                                    "decline", _("_Decline"),
                                    NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "decline",
                                              ADW_RESPONSE_DESTRUCTIVE);
  /* Enter, which ends the typing of a reason, never declines: what cannot be
   * taken back is a button pressed on purpose (Tab to it), as GNOME's
   * dialogs keep the destructive answer off the default. */
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  g_object_set_data (G_OBJECT (dialog), "triage-entry", entry);
  g_signal_connect_object (dialog, "response", G_CALLBACK (on_decline_response), self, G_CONNECT_SWAPPED);
  self->decline_dialog = ADW_MESSAGE_DIALOG (dialog);
  gtk_window_present (GTK_WINDOW (dialog));
  gtk_widget_grab_focus (entry);
}

/* TriageRequestView */

static AtpNotification *
triage_afp_view_get_request (TriageRequestView *view)
{
  return TRIAGE_AFP_VIEW (view)->notification;
}

static void
reset (TriageAfpView *self)
{
  if (self->decline_dialog != NULL)
    gtk_window_destroy (GTK_WINDOW (self->decline_dialog));
  self->decline_dialog = NULL;
  triage_request_state_clear (&self->state);
  g_clear_pointer (&self->review, atp_afp_review_unref);
}

/* An answer given (here or elsewhere) shown in the editor, read-only. */
static void
show_answer (TriageAfpView *self,
             const char    *action_id,
             JsonNode      *response_data)
{
  if (g_strcmp0 (action_id, TRIAGE_AFP_ACTION_FEEDBACK) == 0 && response_data != NULL)
    triage_afp_editor_load (self->editor, response_data);
}

static void
triage_afp_view_set_request (TriageRequestView *view,
                             AtpNotification   *notification)
{
  TriageAfpView *self = TRIAGE_AFP_VIEW (view);
  g_autoptr(GError) error = NULL;
  g_autofree char *request_id = NULL;
  g_autofree char *session_id = NULL;
  gboolean same;

  same = triage_request_view_keep_request (&self->notification, notification);

  /* A resync of the same request keeps what the person wrote. */
  if (same && self->review != NULL)
    {
      triage_request_header_set_request (self->header, notification);
      gtk_stack_set_visible_child_name (self->stack, "review");
      return;
    }

  /* What was written for the review left waits for its return. */
  triage_draft_keeper_leave (self->drafts);
  reset (self);
  triage_request_header_set_request (self->header, notification);
  if (notification == NULL)
    {
      triage_afp_editor_set_review (self->editor, NULL);
      _triage_afp_view_update_state (self);
      gtk_stack_set_visible_child_name (self->stack, "empty");
      return;
    }

  self->state.status = notification->status;
  self->review = triage_afp_review_from (notification, &error);
  if (self->review == NULL)
    {
      triage_request_view_show_unreadable (self->stack, self->error_page, error);
      return;
    }

  triage_afp_artifact_set_review (self->artifact, self->review);
  triage_afp_applied_set_review (self->applied, self->review);
  triage_afp_editor_set_review (self->editor, self->review);

  /* Translators: %1$s is the request's id (a UUID), %2$s the AFP session's id, for quoting them */
  session_id = triage_format_shown_text (self->review->session_id, TRIAGE_SHOWN_VALUE_CHARS);
  request_id = g_strdup_printf (_("Request %1$s · AFP session %2$s"), notification->id, session_id);
  gtk_label_set_label (self->id_label, request_id);

  _triage_afp_view_update_state (self);
  triage_draft_keeper_show (self->drafts, notification->id);
  gtk_adjustment_set_value (gtk_scrolled_window_get_vadjustment (self->scroller), 0);
  gtk_stack_set_visible_child_name (self->stack, "review");
}

static gboolean
triage_afp_view_focus_heading (TriageRequestView *view)
{
  TriageAfpView *self = TRIAGE_AFP_VIEW (view);

  if (self->review != NULL && triage_request_header_take_focus (self->header))
    return TRUE;

  gtk_widget_child_focus (GTK_WIDGET (self), GTK_DIR_TAB_FORWARD);
  return FALSE;
}

static TriageRequestState *
triage_afp_view_get_state (TriageRequestView *view)
{
  return &TRIAGE_AFP_VIEW (view)->state;
}

/* The rest of TriageRequestView is its default implementation, on self->state. */
static void
triage_afp_view_request_view_init (TriageRequestViewInterface *iface)
{
  iface->get_request = triage_afp_view_get_request;
  iface->set_request = triage_afp_view_set_request;
  iface->focus_heading = triage_afp_view_focus_heading;
  iface->get_state = triage_afp_view_get_state;
  iface->update_state = (gpointer) _triage_afp_view_update_state;
  iface->show_answer = (gpointer) show_answer;
  iface->get_drafts = _triage_afp_view_get_drafts;
}

/* For the tests and the bench */

TriageAfpEditor *
triage_afp_view_get_editor (TriageAfpView *self)
{
  return self->editor;
}

GtkWidget *
triage_afp_view_get_artifact (TriageAfpView *self)
{
  return GTK_WIDGET (self->artifact);
}

GtkWidget *
triage_afp_view_get_applied (TriageAfpView *self)
{
  return GTK_WIDGET (self->applied);
}

/* GObject */

static void
triage_afp_view_dispose (GObject *object)
{
  TriageAfpView *self = (TriageAfpView *)object;

  /* The window closes or the app quits: a draft waiting to be written is. */
  triage_draft_keeper_close (self->drafts);
  if (self->decline_dialog != NULL)
    gtk_window_destroy (GTK_WINDOW (self->decline_dialog));
  self->decline_dialog = NULL;
  adw_bin_set_child (ADW_BIN (self), NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), TRIAGE_TYPE_AFP_VIEW);

  G_OBJECT_CLASS (triage_afp_view_parent_class)->dispose (object);
}

static void
triage_afp_view_finalize (GObject *object)
{
  TriageAfpView *self = (TriageAfpView *)object;

  g_clear_pointer (&self->notification, atp_notification_unref);
  g_clear_pointer (&self->review, atp_afp_review_unref);
  g_clear_object (&self->drafts);
  triage_request_state_clear (&self->state);

  G_OBJECT_CLASS (triage_afp_view_parent_class)->finalize (object);
}

static void
triage_afp_view_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  TriageAfpView *self = TRIAGE_AFP_VIEW (object);

  switch (prop_id)
    {
    case PROP_STORE:
      g_value_set_object (value, triage_draft_keeper_get_store (self->drafts));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
triage_afp_view_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  TriageAfpView *self = TRIAGE_AFP_VIEW (object);

  switch (prop_id)
    {
    case PROP_STORE:
      if (triage_draft_keeper_set_store (self->drafts, g_value_get_object (value)))
        g_object_notify_by_pspec (object, pspec);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
triage_afp_view_class_init (TriageAfpViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = triage_afp_view_dispose;
  object_class->finalize = triage_afp_view_finalize;
  object_class->get_property = triage_afp_view_get_property;
  object_class->set_property = triage_afp_view_set_property;

  /**
   * TriageAfpView:store:
   *
   * The app's store, where drafts of feedback are kept; without it none are.
   */
  properties [PROP_STORE] =
    g_param_spec_object ("store", NULL, NULL, TRIAGE_TYPE_STORE,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (TRIAGE_TYPE_REQUEST_BANNER);
  g_type_ensure (TRIAGE_TYPE_REQUEST_HEADER);
  g_type_ensure (TRIAGE_TYPE_AFP_ARTIFACT);
  g_type_ensure (TRIAGE_TYPE_AFP_APPLIED);
  g_type_ensure (TRIAGE_TYPE_AFP_EDITOR);

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_BASE "/afp/triage-afp-view.ui");
  gtk_widget_class_bind_template_child (widget_class, TriageAfpView, stack);
  gtk_widget_class_bind_template_child (widget_class, TriageAfpView, error_page);
  gtk_widget_class_bind_template_child (widget_class, TriageAfpView, banner);
  gtk_widget_class_bind_template_child (widget_class, TriageAfpView, scroller);
  gtk_widget_class_bind_template_child (widget_class, TriageAfpView, header);
  gtk_widget_class_bind_template_child (widget_class, TriageAfpView, artifact);
  gtk_widget_class_bind_template_child (widget_class, TriageAfpView, applied);
  gtk_widget_class_bind_template_child (widget_class, TriageAfpView, editor);
  gtk_widget_class_bind_template_child (widget_class, TriageAfpView, problem_label);
  gtk_widget_class_bind_template_child (widget_class, TriageAfpView, send_row);
  gtk_widget_class_bind_template_child (widget_class, TriageAfpView, send_button);
  gtk_widget_class_bind_template_child (widget_class, TriageAfpView, decline_button);
  gtk_widget_class_bind_template_child (widget_class, TriageAfpView, id_label);
  gtk_widget_class_bind_template_callback (widget_class, on_deadline_passed);
  gtk_widget_class_bind_template_callback (widget_class, on_editor_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_carry_over);

  /* Send, also Ctrl+Return from the editor (triage_afp_view_init ()). */
  gtk_widget_class_install_action (widget_class, "afp.send", NULL, send_action);
  gtk_widget_class_install_action (widget_class, "afp.decline", NULL, decline_action);
}

static void
triage_afp_view_init (TriageAfpView *self)
{
  triage_widgets_style_init ();
  triage_widgets_style_add (RESOURCE_BASE "/afp/style.css");
  self->drafts = _triage_afp_view_new_drafts (self);
  gtk_widget_init_template (GTK_WIDGET (self));
  /* Said as it reads when it takes the keyboard (nothing else on it can). */
  triage_status_page_name_scroller (self->error_page);

  /* Decline… and Send side by side, one above the other at 360 px with large text. */
  {
    GtkWidget *wrap = triage_wrap_box_new ();
    GtkWidget *buttons[] = { GTK_WIDGET (self->decline_button), GTK_WIDGET (self->send_button) };

    for (guint i = 0; i < G_N_ELEMENTS (buttons); i++)
      {
        g_object_ref (buttons[i]);
        gtk_box_remove (GTK_BOX (self->send_row), buttons[i]);
        triage_wrap_box_append (TRIAGE_WRAP_BOX (wrap), buttons[i]);
        g_object_unref (buttons[i]);
      }
    gtk_box_append (GTK_BOX (self->send_row), wrap);
  }

  /* Ctrl+Return sends from the editor and from Send, never from the
   * heading a review opens at, nor from the artifact: a draft read back
   * may be ready to send unseen (triage-send-shortcut.c). Nor from
   * Decline…, beside Send: the key meant to send nothing there would send. */
  triage_send_shortcut_attach (GTK_WIDGET (self->editor), gtk_named_action_new ("afp.send"));
  triage_send_shortcut_attach (GTK_WIDGET (self->send_button), gtk_named_action_new ("afp.send"));

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "afp.send", FALSE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "afp.decline", FALSE);
  gtk_stack_set_visible_child_name (self->stack, "empty");
}

GtkWidget *
triage_afp_view_new (void)
{
  return g_object_new (TRIAGE_TYPE_AFP_VIEW, NULL);
}
