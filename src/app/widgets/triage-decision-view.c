/* triage-decision-view.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-decision-view"

#include <glib/gi18n.h>

#include "triage-confirm-dialog.h"
#include "triage-decision-format.h"
#include "triage-decision-view-private.h"
#include "triage-response-editor.h"
#include "triage-widgets-style.h"
#include "triage-wrap-box.h"

/*
 * The request being answered: who asks (service name and id, project), what
 * (title, description, metadata, attachments), by when (a countdown that
 * turns critical under five minutes), and one editor per action.
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

#define MAX_METADATA_ROWS 200
#define MAX_METADATA_VALUE_CHARS 1000

struct _TriageDecisionView
{
  AdwBin               parent_instance;

  AtpNotification     *notification;
  GPtrArray           *editors;

  AtpStatus            status;
  char                *status_reason;
  GDateTime           *status_when;
  char                *status_detail;

  TriageDeliveryState  delivery;
  char                *delivery_message;
  char                *answer_error;
  char                *sent_action_id;
  JsonNode            *sent_response;

  gboolean             expired_locally;
  gboolean             read_only;
  guint                countdown_id;

  guint                confirm_grace_period;
  GCancellable        *confirm_cancellable;
  TriageConfirmDialog *confirm_dialog;

  /* template */
  GtkStack            *stack;
  AdwStatusPage       *error_page;
  GtkRevealer         *banner_revealer;
  GtkWidget           *banner;
  GtkImage            *banner_icon;
  GtkSpinner          *banner_spinner;
  GtkLabel            *banner_title;
  GtkLabel            *banner_detail;
  GtkScrolledWindow   *scroller;
  AdwAvatar           *service_avatar;
  GtkLabel            *service_label;
  GtkLabel            *service_id_label;
  GtkLabel            *title_label;
  GtkWidget           *project_chip;
  GtkLabel            *project_label;
  GtkWidget           *countdown_box;
  GtkLabel            *countdown_label;
  GtkWidget           *received_chip;
  GtkLabel            *received_label;
  GtkLabel            *description_label;
  GtkWidget           *metadata_section;
  GtkListBox          *metadata_list;
  GtkLabel            *metadata_more;
  GtkWidget           *attachments_section;
  GtkListBox          *attachment_list;
  GtkBox              *editors_box;
  GtkLabel            *id_label;
};

G_DEFINE_FINAL_TYPE (TriageDecisionView, triage_decision_view, ADW_TYPE_BIN)

G_DEFINE_ENUM_TYPE (TriageDeliveryState, triage_delivery_state,
                    G_DEFINE_ENUM_VALUE (TRIAGE_DELIVERY_NONE, "none"),
                    G_DEFINE_ENUM_VALUE (TRIAGE_DELIVERY_SENDING, "sending"),
                    G_DEFINE_ENUM_VALUE (TRIAGE_DELIVERY_SENT, "sent"),
                    G_DEFINE_ENUM_VALUE (TRIAGE_DELIVERY_QUEUED, "queued"),
                    G_DEFINE_ENUM_VALUE (TRIAGE_DELIVERY_FAILED, "failed"))

enum {
  PROP_0,
  PROP_NOTIFICATION,
  PROP_DELIVERY_STATE,
  PROP_READ_ONLY,
  PROP_CONFIRM_GRACE_PERIOD,
  N_PROPS
};

enum {
  SUBMIT,
  ATTACHMENT_ACTIVATED,
  N_SIGNALS
};

static GParamSpec *properties [N_PROPS];
static guint signals [N_SIGNALS];

static void update_countdown (TriageDecisionView *self);

/* The banner and the read-only state */

static const AtpAction *
sent_action (TriageDecisionView *self)
{
  if (self->notification == NULL || self->sent_action_id == NULL)
    return NULL;

  return atp_notification_find_action (self->notification, self->sent_action_id);
}

/* "Your answer to “Rollout”: 25 %" for the answer given here, or NULL. */
static char *
describe_sent_answer (TriageDecisionView *self)
{
  const AtpAction *action = sent_action (self);
  g_autofree char *answer = NULL;

  if (action == NULL)
    return NULL;

  if (action->response_type == ATP_RESPONSE_TYPE_SIMPLE)
    /* Translators: %s is the label of the action chosen */
    return g_strdup_printf (_("Your answer: %s"), action->label);

  answer = triage_describe_response (action, self->sent_response);
  /* Translators: %1$s is an action's label, %2$s the answer given */
  return g_strdup_printf (_("Your answer to “%1$s”: %2$s"), action->label, answer);
}

static void
join_line (GString    *str,
           const char *line)
{
  if (line == NULL || *line == '\0')
    return;
  if (str->len > 0)
    g_string_append_c (str, '\n');
  g_string_append (str, line);
}

static const char * const banner_styles[] = {
  "banner-neutral", "banner-accent", "banner-success", "banner-warning", "banner-error",
};

static void
show_banner (TriageDecisionView *self,
             const char         *style,
             const char         *icon_name,
             const char         *title,
             const char         *detail)
{
  for (guint i = 0; i < G_N_ELEMENTS (banner_styles); i++)
    gtk_widget_remove_css_class (self->banner, banner_styles[i]);
  gtk_widget_add_css_class (self->banner, style);

  gtk_widget_set_visible (GTK_WIDGET (self->banner_icon), icon_name != NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->banner_spinner), icon_name == NULL);
  gtk_spinner_set_spinning (self->banner_spinner, icon_name == NULL);
  if (icon_name != NULL)
    gtk_image_set_from_icon_name (self->banner_icon, icon_name);

  gtk_label_set_label (self->banner_title, title);
  gtk_label_set_label (self->banner_detail, detail ? detail : "");
  gtk_widget_set_visible (GTK_WIDGET (self->banner_detail), detail != NULL && *detail != '\0');
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->banner),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, title, -1);

  gtk_revealer_set_reveal_child (self->banner_revealer, TRUE);
}

static void
hide_banner (TriageDecisionView *self)
{
  gtk_spinner_set_spinning (self->banner_spinner, FALSE);
  gtk_revealer_set_reveal_child (self->banner_revealer, FALSE);
}

static char *
format_when (GDateTime *when)
{
  return when ? triage_format_time (when, NULL) : NULL;
}

static void
show_status_banner (TriageDecisionView *self)
{
  g_autofree char *time = format_when (self->status_when);
  g_autofree char *title = NULL;
  g_autoptr(GString) detail = g_string_new (NULL);
  const char *icon_name;

  switch (self->status)
    {
    case ATP_STATUS_RESPONDED:
      icon_name = "object-select-symbolic";
      if (time != NULL)
        /* Translators: %s is a time, e.g. "14:05" */
        title = g_strdup_printf (_("Answered on another device at %s"), time);
      else
        title = g_strdup (_("Answered on another device"));
      break;

    case ATP_STATUS_EXPIRED:
      icon_name = "alarm-symbolic";
      if (time == NULL && self->notification->deadline != NULL)
        time = format_when (self->notification->deadline);
      if (time != NULL)
        /* Translators: %s is a time, e.g. "14:05" */
        title = g_strdup_printf (_("Expired at %s"), time);
      else
        title = g_strdup (_("Expired"));
      break;

    case ATP_STATUS_INVALIDATED:
    default:
      icon_name = "action-unavailable-symbolic";
      if (time != NULL)
        /* Translators: %1$s is a service's name, %2$s a time */
        title = g_strdup_printf (_("Withdrawn by %1$s at %2$s"), self->notification->service.name, time);
      else
        /* Translators: %s is a service's name */
        title = g_strdup_printf (_("Withdrawn by %s"), self->notification->service.name);
      break;
    }

  if (self->status_reason != NULL)
    {
      /* Translators: %s is the reason the server gave for a status change */
      g_autofree char *reason = g_strdup_printf (_("Reason: %s"), self->status_reason);

      join_line (detail, reason);
    }
  join_line (detail, self->status_detail);
  join_line (detail, _("The request is read-only now; nothing you entered was sent."));

  show_banner (self, self->status == ATP_STATUS_RESPONDED ? "banner-neutral" : "banner-warning",
               icon_name, title, detail->str);
}

static void
show_delivery_banner (TriageDecisionView *self)
{
  g_autofree char *answer = describe_sent_answer (self);
  g_autoptr(GString) detail = g_string_new (NULL);

  switch (self->delivery)
    {
    case TRIAGE_DELIVERY_SENDING:
      show_banner (self, "banner-accent", NULL, _("Sending your answer…"), answer);
      break;

    case TRIAGE_DELIVERY_SENT:
      show_banner (self, "banner-success", "object-select-symbolic", _("Answer sent"), answer);
      break;

    case TRIAGE_DELIVERY_QUEUED:
      join_line (detail, answer);
      join_line (detail, _("It is saved and will be sent as soon as the server can be reached."));
      show_banner (self, "banner-warning", "network-offline-symbolic",
                   _("Queued, will send when online"), detail->str);
      break;

    case TRIAGE_DELIVERY_FAILED:
      join_line (detail, self->delivery_message);
      join_line (detail, answer);
      show_banner (self, "banner-error", "dialog-error-symbolic",
                   _("The answer was not accepted"), detail->str);
      break;

    case TRIAGE_DELIVERY_NONE:
    default:
      g_assert_not_reached ();
    }
}

static void
cancel_confirmation (TriageDecisionView *self)
{
  if (self->confirm_cancellable != NULL)
    g_cancellable_cancel (self->confirm_cancellable);
  g_clear_object (&self->confirm_cancellable);
  self->confirm_dialog = NULL;
}

static void
update_state (TriageDecisionView *self)
{
  gboolean read_only = FALSE;

  if (self->notification == NULL)
    {
      hide_banner (self);
    }
  else if (atp_status_is_terminal (self->status))
    {
      read_only = TRUE;
      show_status_banner (self);
    }
  else if (self->delivery != TRIAGE_DELIVERY_NONE)
    {
      read_only = TRUE;
      show_delivery_banner (self);
    }
  else if (self->expired_locally)
    {
      g_autofree char *time = format_when (self->notification->deadline);
      /* Translators: %s is the time of the deadline */
      g_autofree char *title = g_strdup_printf (_("The deadline passed at %s"), time);

      read_only = TRUE;
      show_banner (self, "banner-warning", "alarm-symbolic", title,
                   _("Answers are no longer accepted; nothing you entered was sent."));
    }
  else if (self->answer_error != NULL)
    show_banner (self, "banner-error", "dialog-error-symbolic",
                 _("Your answer was not sent"), self->answer_error);
  else
    hide_banner (self);

  for (guint i = 0; i < self->editors->len; i++)
    triage_response_editor_set_editable (g_ptr_array_index (self->editors, i), !read_only);

  if (read_only)
    cancel_confirmation (self);

  if (self->read_only != read_only)
    {
      self->read_only = read_only;
      g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_READ_ONLY]);
    }
}

/* Countdown */

static void
countdown_cb (gpointer data)
{
  TriageDecisionView *self = data;

  self->countdown_id = 0;
  update_countdown (self);
}

static void
update_countdown (TriageDecisionView *self)
{
  g_autoptr(GDateTime) now = NULL;
  g_autofree char *text = NULL;
  g_autofree char *deadline = NULL;
  g_autofree char *tooltip = NULL;
  GTimeSpan remaining;

  g_clear_handle_id (&self->countdown_id, g_source_remove);

  /* Settled, or answered and recorded: the deadline no longer matters. */
  if (self->notification == NULL || self->notification->deadline == NULL ||
      atp_status_is_terminal (self->status) || self->delivery == TRIAGE_DELIVERY_SENT)
    {
      gtk_widget_set_visible (self->countdown_box, FALSE);
      return;
    }

  now = g_date_time_new_now_utc ();
  remaining = g_date_time_difference (self->notification->deadline, now);

  text = triage_format_countdown (remaining);
  gtk_label_set_label (self->countdown_label, text);
  deadline = triage_format_time (self->notification->deadline, now);
  /* Translators: %s is the time of a deadline */
  tooltip = g_strdup_printf (_("Deadline: %s"), deadline);
  gtk_widget_set_tooltip_text (self->countdown_box, tooltip);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->countdown_box),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, text,
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, tooltip,
                                  -1);
  gtk_widget_set_visible (self->countdown_box, TRUE);

  if (remaining < TRIAGE_COUNTDOWN_CRITICAL)
    gtk_widget_add_css_class (self->countdown_box, "critical");
  else
    gtk_widget_remove_css_class (self->countdown_box, "critical");

  if (remaining <= 0)
    {
      gtk_widget_add_css_class (self->countdown_box, "expired");
      if (!self->expired_locally)
        {
          self->expired_locally = TRUE;
          update_state (self);
        }
      return;
    }
  gtk_widget_remove_css_class (self->countdown_box, "expired");

  /* Wake up when the shown second changes (the text rounds up). */
  self->countdown_id = g_timeout_add_once ((((remaining - 1) % G_TIME_SPAN_SECOND) + 1) / 1000 + 1,
                                           countdown_cb, self);
}

/* Building the view */

static void
clear_list (GtkListBox *list)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (list))) != NULL)
    gtk_list_box_remove (list, child);
}

static void
clear_editors (TriageDecisionView *self)
{
  for (guint i = 0; i < self->editors->len; i++)
    gtk_box_remove (self->editors_box, g_ptr_array_index (self->editors, i));
  g_ptr_array_set_size (self->editors, 0);
}

static GtkWidget *
metadata_row_new (const char *key,
                  JsonNode   *value)
{
  g_autofree char *text = triage_format_json_value (value, MAX_METADATA_VALUE_CHARS);
  GtkWidget *row, *box, *key_label, *value_label;

  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 3);
  gtk_widget_add_css_class (box, "metadata-row");

  key_label = gtk_label_new (key);
  gtk_label_set_use_markup (GTK_LABEL (key_label), FALSE);
  gtk_label_set_wrap (GTK_LABEL (key_label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (key_label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_xalign (GTK_LABEL (key_label), 0);
  gtk_widget_add_css_class (key_label, "caption");
  gtk_widget_add_css_class (key_label, "dim-label");
  gtk_box_append (GTK_BOX (box), key_label);

  value_label = gtk_label_new (text);
  gtk_label_set_use_markup (GTK_LABEL (value_label), FALSE);
  gtk_label_set_wrap (GTK_LABEL (value_label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (value_label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_xalign (GTK_LABEL (value_label), 0);
  gtk_label_set_selectable (GTK_LABEL (value_label), TRUE);
  /* Selectable with the pointer, but not one tab stop per value. */
  gtk_widget_set_focusable (value_label, FALSE);
  if (value != NULL && !JSON_NODE_HOLDS_VALUE (value))
    gtk_widget_add_css_class (value_label, "monospace");
  gtk_box_append (GTK_BOX (box), value_label);

  row = gtk_list_box_row_new ();
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), FALSE);
  gtk_widget_set_focusable (row, FALSE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (row),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, key,
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text,
                                  -1);

  return row;
}

static void
build_metadata (TriageDecisionView *self)
{
  JsonObject *metadata = self->notification->context.metadata;
  g_autoptr(GList) members = NULL;
  guint n = 0, total;

  clear_list (self->metadata_list);
  gtk_widget_set_visible (GTK_WIDGET (self->metadata_more), FALSE);

  total = metadata ? json_object_get_size (metadata) : 0;
  gtk_widget_set_visible (self->metadata_section, total > 0);
  if (total == 0)
    return;

  /* In the order sent. */
  members = json_object_get_members (metadata);
  for (GList *l = members; l != NULL && n < MAX_METADATA_ROWS; l = l->next, n++)
    gtk_list_box_append (self->metadata_list,
                         metadata_row_new (l->data, json_object_get_member (metadata, l->data)));

  if (total > MAX_METADATA_ROWS)
    {
      g_autofree char *more = NULL;

      /* Translators: %u is a number of metadata entries not shown */
      more = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u more entry not shown",
                                           "%u more entries not shown", total - MAX_METADATA_ROWS),
                              total - MAX_METADATA_ROWS);
      gtk_label_set_label (self->metadata_more, more);
      gtk_widget_set_visible (GTK_WIDGET (self->metadata_more), TRUE);
    }
}

static GtkWidget *
attachment_row_new (const AtpAttachment *attachment)
{
  g_autofree char *details = triage_format_attachment_details (attachment);
  g_autofree char *content_type = g_content_type_from_mime_type (attachment->type);
  g_autoptr(GIcon) icon = NULL;
  GtkWidget *row, *image;

  row = adw_action_row_new ();
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row),
                                 attachment->description && *attachment->description
                                   ? attachment->description : attachment->type);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), details);
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);

  if (content_type != NULL)
    icon = g_content_type_get_symbolic_icon (content_type);
  image = icon ? gtk_image_new_from_gicon (icon)
               : gtk_image_new_from_icon_name ("mail-attachment-symbolic");
  adw_action_row_add_prefix (ADW_ACTION_ROW (row), image);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), gtk_image_new_from_icon_name ("go-next-symbolic"));
  gtk_widget_set_tooltip_text (row, _("Preview"));

  return row;
}

static void
build_attachments (TriageDecisionView *self)
{
  GPtrArray *attachments = self->notification->context.attachments;

  clear_list (self->attachment_list);
  gtk_widget_set_visible (self->attachments_section, attachments->len > 0);

  for (guint i = 0; i < attachments->len; i++)
    gtk_list_box_append (self->attachment_list, attachment_row_new (g_ptr_array_index (attachments, i)));
}

static void on_editor_submit (TriageDecisionView   *self,
                              JsonNode             *response_data,
                              TriageResponseEditor *editor);

static void
build_editors (TriageDecisionView *self)
{
  GPtrArray *actions = self->notification->actions;

  clear_editors (self);
  for (guint i = 0; i < actions->len; i++)
    {
      const AtpAction *action = g_ptr_array_index (actions, i);
      GtkWidget *editor = triage_response_editor_new (self->notification, action->id);

      g_signal_connect_object (editor, "submit", G_CALLBACK (on_editor_submit), self, G_CONNECT_SWAPPED);
      g_ptr_array_add (self->editors, editor);
      gtk_box_append (self->editors_box, editor);
    }
}

static void
build_header (TriageDecisionView *self)
{
  AtpNotification *notification = self->notification;
  g_autofree char *received = NULL;
  g_autofree char *sent_at = NULL;
  g_autofree char *request_id = NULL;

  adw_avatar_set_text (self->service_avatar, notification->service.name);
  gtk_label_set_label (self->service_label, notification->service.name);
  gtk_label_set_label (self->service_id_label, notification->service.id ? notification->service.id : "");
  gtk_widget_set_visible (GTK_WIDGET (self->service_id_label), notification->service.id != NULL);

  gtk_label_set_label (self->title_label, notification->context.title);
  gtk_label_set_label (self->description_label, notification->context.description);

  gtk_label_set_label (self->project_label, notification->context.project ? notification->context.project : "");
  gtk_widget_set_visible (self->project_chip, notification->context.project != NULL);

  received = triage_format_time (notification->timestamp, NULL);
  /* Translators: when the service sent the request; %s is a time */
  sent_at = g_strdup_printf (_("Sent %s"), received);
  gtk_label_set_label (self->received_label, sent_at);

  /* Translators: %s is the request's id (a UUID), for quoting it */
  request_id = g_strdup_printf (_("Request %s"), notification->id);
  gtk_label_set_label (self->id_label, request_id);
}

/* Answers */

typedef struct
{
  TriageDecisionView *self;
  char               *action_id;
  JsonNode           *response_data;
} PendingAnswer;

static void
pending_answer_free (PendingAnswer *pending)
{
  g_clear_object (&pending->self);
  g_free (pending->action_id);
  g_clear_pointer (&pending->response_data, json_node_unref);
  g_free (pending);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PendingAnswer, pending_answer_free)

static void
send_answer (TriageDecisionView *self,
             const char         *action_id,
             JsonNode           *response_data)
{
  g_autofree char *id = g_strdup (action_id);

  g_free (self->sent_action_id);
  self->sent_action_id = g_strdup (action_id);
  g_clear_pointer (&self->sent_response, json_node_unref);
  self->sent_response = json_node_copy (response_data);
  g_clear_pointer (&self->answer_error, g_free);

  /* Read-only from now on, so nothing is sent twice; the app moves the state on. */
  triage_decision_view_set_delivery_state (self, TRIAGE_DELIVERY_SENDING);

  g_signal_emit (self, signals [SUBMIT], 0, id, response_data);
}

static void
confirm_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(PendingAnswer) pending = user_data;
  TriageDecisionView *self = pending->self;
  g_autoptr(GError) error = NULL;
  gboolean confirmed;

  confirmed = triage_confirm_dialog_run_finish (TRIAGE_CONFIRM_DIALOG (object), result, &error);

  if (self->confirm_dialog == TRIAGE_CONFIRM_DIALOG (object))
    self->confirm_dialog = NULL;

  /* Cancelled: the request changed or turned read-only meanwhile. */
  if (error != NULL)
    return;

  g_clear_object (&self->confirm_cancellable);

  if (confirmed && !self->read_only)
    send_answer (self, pending->action_id, pending->response_data);
}

static void
on_editor_submit (TriageDecisionView   *self,
                  JsonNode             *response_data,
                  TriageResponseEditor *editor)
{
  const AtpAction *action = triage_response_editor_get_action (editor);
  g_autoptr(GError) error = NULL;
  PendingAnswer *pending;
  GtkRoot *root;

  if (self->read_only || self->notification == NULL ||
      triage_response_editor_get_notification (editor) != self->notification)
    return;

  /* The editor checked it; the view never lets an invalid answer out either. */
  if (!atp_action_validate_response (action, response_data, &error))
    {
      g_warning ("Invalid answer to %s not sent: %s", action->id, error->message);
      return;
    }

  if (!atp_action_needs_confirmation (action))
    {
      send_answer (self, action->id, response_data);
      return;
    }

  if (self->confirm_dialog != NULL)
    return;

  root = gtk_widget_get_root (GTK_WIDGET (self));
  self->confirm_dialog = triage_confirm_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                                    self->notification->service.name,
                                                    action, response_data);
  triage_confirm_dialog_set_grace_period (self->confirm_dialog, self->confirm_grace_period);

  pending = g_new0 (PendingAnswer, 1);
  pending->self = g_object_ref (self);
  pending->action_id = g_strdup (action->id);
  pending->response_data = json_node_copy (response_data);

  self->confirm_cancellable = g_cancellable_new ();
  triage_confirm_dialog_run_async (self->confirm_dialog, self->confirm_cancellable,
                                   confirm_cb, pending);
}

static void
on_attachment_row_activated (TriageDecisionView *self,
                             GtkListBoxRow      *row)
{
  int index = gtk_list_box_row_get_index (row);

  if (index >= 0)
    g_signal_emit (self, signals [ATTACHMENT_ACTIVATED], 0, (guint) index);
}

/* GObject */

static void
triage_decision_view_dispose (GObject *object)
{
  TriageDecisionView *self = (TriageDecisionView *)object;

  cancel_confirmation (self);
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
  g_clear_pointer (&self->status_when, g_date_time_unref);
  g_clear_pointer (&self->sent_response, json_node_unref);
  g_free (self->status_reason);
  g_free (self->status_detail);
  g_free (self->delivery_message);
  g_free (self->answer_error);
  g_free (self->sent_action_id);

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
      g_value_set_enum (value, self->delivery);
      break;

    case PROP_READ_ONLY:
      g_value_set_boolean (value, self->read_only);
      break;

    case PROP_CONFIRM_GRACE_PERIOD:
      g_value_set_uint (value, self->confirm_grace_period);
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

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * TriageDecisionView::submit:
   * @self: the view
   * @action_id: the action answered
   * @response_data: the answer, valid for the action and confirmed where its
   *   flags ask for it (JSON null for a simple action)
   *
   * The person answered. The view is read-only from then on and shows
   * %TRIAGE_DELIVERY_SENDING until told otherwise.
   */
  signals [SUBMIT] =
    g_signal_new ("submit", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 2,
                  G_TYPE_STRING, JSON_TYPE_NODE);

  /**
   * TriageDecisionView::attachment-activated:
   * @self: the view
   * @index: the attachment's position in `context.attachments`
   *
   * The person asked to see an attachment.
   */
  signals [ATTACHMENT_ACTIVATED] =
    g_signal_new ("attachment-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);

  g_type_ensure (TRIAGE_TYPE_RESPONSE_EDITOR);
  g_type_ensure (TRIAGE_TYPE_WRAP_BOX);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               RESOURCE_BASE "/widgets/triage-decision-view.ui");
  gtk_widget_class_bind_template_child (widget_class, TriageDecisionView, stack);
  gtk_widget_class_bind_template_child (widget_class, TriageDecisionView, error_page);
  gtk_widget_class_bind_template_child (widget_class, TriageDecisionView, banner_revealer);
  gtk_widget_class_bind_template_child (widget_class, TriageDecisionView, banner);
  gtk_widget_class_bind_template_child (widget_class, TriageDecisionView, banner_icon);
  gtk_widget_class_bind_template_child (widget_class, TriageDecisionView, banner_spinner);
  gtk_widget_class_bind_template_child (widget_class, TriageDecisionView, banner_title);
  gtk_widget_class_bind_template_child (widget_class, TriageDecisionView, banner_detail);
  gtk_widget_class_bind_template_child (widget_class, TriageDecisionView, scroller);
  gtk_widget_class_bind_template_child (widget_class, TriageDecisionView, service_avatar);
  gtk_widget_class_bind_template_child (widget_class, TriageDecisionView, service_label);
  gtk_widget_class_bind_template_child (widget_class, TriageDecisionView, service_id_label);
  gtk_widget_class_bind_template_child (widget_class, TriageDecisionView, title_label);
  gtk_widget_class_bind_template_child (widget_class, TriageDecisionView, project_chip);
  gtk_widget_class_bind_template_child (widget_class, TriageDecisionView, project_label);
  gtk_widget_class_bind_template_child (widget_class, TriageDecisionView, countdown_box);
  gtk_widget_class_bind_template_child (widget_class, TriageDecisionView, countdown_label);
  gtk_widget_class_bind_template_child (widget_class, TriageDecisionView, received_chip);
  gtk_widget_class_bind_template_child (widget_class, TriageDecisionView, received_label);
  gtk_widget_class_bind_template_child (widget_class, TriageDecisionView, description_label);
  gtk_widget_class_bind_template_child (widget_class, TriageDecisionView, metadata_section);
  gtk_widget_class_bind_template_child (widget_class, TriageDecisionView, metadata_list);
  gtk_widget_class_bind_template_child (widget_class, TriageDecisionView, metadata_more);
  gtk_widget_class_bind_template_child (widget_class, TriageDecisionView, attachments_section);
  gtk_widget_class_bind_template_child (widget_class, TriageDecisionView, attachment_list);
  gtk_widget_class_bind_template_child (widget_class, TriageDecisionView, editors_box);
  gtk_widget_class_bind_template_child (widget_class, TriageDecisionView, id_label);
  gtk_widget_class_bind_template_callback (widget_class, on_attachment_row_activated);
}

static void
triage_decision_view_init (TriageDecisionView *self)
{
  triage_widgets_style_init ();
  gtk_widget_init_template (GTK_WIDGET (self));

  self->editors = g_ptr_array_new ();
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
 * person entered and the state.
 */
void
triage_decision_view_set_notification (TriageDecisionView *self,
                                       AtpNotification    *notification)
{
  gboolean same;

  g_return_if_fail (TRIAGE_IS_DECISION_VIEW (self));

  if (notification == self->notification && notification != NULL)
    {
      gtk_stack_set_visible_child_name (self->stack, "decision");
      return;
    }

  same = notification != NULL && self->notification != NULL &&
         g_str_equal (notification->id, self->notification->id);

  g_clear_pointer (&self->notification, atp_notification_unref);
  self->notification = notification ? atp_notification_ref (notification) : NULL;

  if (same)
    {
      /* The editors keep their own reference to the definition, which an id cannot change. */
      build_header (self);
      build_metadata (self);
      build_attachments (self);
      update_countdown (self);
      gtk_stack_set_visible_child_name (self->stack, "decision");
      g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_NOTIFICATION]);
      return;
    }

  cancel_confirmation (self);
  clear_editors (self);
  g_clear_pointer (&self->status_reason, g_free);
  g_clear_pointer (&self->status_detail, g_free);
  g_clear_pointer (&self->status_when, g_date_time_unref);
  g_clear_pointer (&self->delivery_message, g_free);
  g_clear_pointer (&self->answer_error, g_free);
  g_clear_pointer (&self->sent_action_id, g_free);
  g_clear_pointer (&self->sent_response, json_node_unref);
  self->expired_locally = FALSE;
  if (self->delivery != TRIAGE_DELIVERY_NONE)
    {
      self->delivery = TRIAGE_DELIVERY_NONE;
      g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_DELIVERY_STATE]);
    }

  if (notification == NULL)
    {
      clear_list (self->metadata_list);
      clear_list (self->attachment_list);
      update_countdown (self);
      update_state (self);
      gtk_stack_set_visible_child_name (self->stack, "empty");
      g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_NOTIFICATION]);
      return;
    }

  self->status = notification->status;

  build_header (self);
  build_metadata (self);
  build_attachments (self);
  build_editors (self);
  update_countdown (self);
  update_state (self);

  gtk_adjustment_set_value (gtk_scrolled_window_get_vadjustment (self->scroller), 0);
  gtk_stack_set_visible_child_name (self->stack, "decision");
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_NOTIFICATION]);
}

AtpStatus
triage_decision_view_get_status (TriageDecisionView *self)
{
  g_return_val_if_fail (TRIAGE_IS_DECISION_VIEW (self), ATP_STATUS_CREATED);

  return self->status;
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

  self->status = status;
  g_free (self->status_reason);
  self->status_reason = g_strdup (reason);
  g_free (self->status_detail);
  self->status_detail = g_strdup (detail);
  g_clear_pointer (&self->status_when, g_date_time_unref);
  self->status_when = when ? g_date_time_ref (when) : NULL;

  update_state (self);
  update_countdown (self);
}

TriageDeliveryState
triage_decision_view_get_delivery_state (TriageDecisionView *self)
{
  g_return_val_if_fail (TRIAGE_IS_DECISION_VIEW (self), TRIAGE_DELIVERY_NONE);

  return self->delivery;
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

  if (state != TRIAGE_DELIVERY_FAILED)
    g_clear_pointer (&self->delivery_message, g_free);

  if (self->delivery != state)
    {
      self->delivery = state;
      g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_DELIVERY_STATE]);
    }

  update_state (self);
  update_countdown (self);
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

  g_free (self->sent_action_id);
  self->sent_action_id = g_strdup (action_id);
  g_clear_pointer (&self->sent_response, json_node_unref);
  self->sent_response = response_data ? json_node_copy (response_data) : NULL;

  update_state (self);
}

/**
 * triage_decision_view_focus_answer:
 * @self: a #TriageDecisionView
 *
 * Puts the keyboard on the first control that answers (the first editor
 * that takes the focus), so a request opened from the keyboard can be
 * answered at once; else on the view itself.
 *
 * Returns: %TRUE if an answer control took the focus
 */
gboolean
triage_decision_view_focus_answer (TriageDecisionView *self)
{
  g_return_val_if_fail (TRIAGE_IS_DECISION_VIEW (self), FALSE);

  for (guint i = 0; i < self->editors->len; i++)
    {
      GtkWidget *editor = g_ptr_array_index (self->editors, i);

      if (gtk_widget_child_focus (editor, GTK_DIR_TAB_FORWARD))
        return TRUE;
    }

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

  g_free (self->delivery_message);
  self->delivery_message = g_strdup (message);
  triage_decision_view_set_delivery_state (self, TRIAGE_DELIVERY_FAILED);
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

  g_free (self->answer_error);
  self->answer_error = g_strdup (message);
  g_clear_pointer (&self->delivery_message, g_free);

  if (self->delivery != TRIAGE_DELIVERY_NONE)
    {
      self->delivery = TRIAGE_DELIVERY_NONE;
      g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_DELIVERY_STATE]);
    }

  update_state (self);
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
