/* triage-confirm-dialog.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-confirm-dialog"

#include <glib/gi18n.h>

#include "triage-confirm-dialog.h"
#include "triage-atp-format.h"
#include "triage-decision-format.h"
#include "triage-widgets-style.h"

/*
 * "Are you sure?" before an answer to an action flagged destructive,
 * irreversible or requires_confirmation leaves. The heading names the action
 * (the button, a yes-or-no question's answer), the body the service, the
 * answer and one sentence per flag (a yes-or-no question's: the flags named
 * as the question's, whichever the answer).
 *
 * The confirm button is red (destructive) for an action flagged destructive
 * or irreversible, whichever its answer, the suggested style otherwise (requires_confirmation
 * alone, an AITP agent's x-triage.confirm): the HIG keeps red for what
 * destroys. Nothing typed elsewhere may confirm it by accident: the default
 * response (Enter) and the close response (Escape) are Cancel, and the
 * confirm button stays disabled for a grace period after the dialog appears,
 * during which a "confirm" response is ignored.
 */

#define MAX_BUTTON_LABEL_CHARS 40

struct _TriageConfirmDialog
{
  AdwMessageDialog  parent_instance;

  GTask            *task;
  guint             grace_period;
  guint             grace_id;
  gboolean          armed;
  gint64            mapped_at;
};

G_DEFINE_FINAL_TYPE (TriageConfirmDialog, triage_confirm_dialog, ADW_TYPE_MESSAGE_DIALOG)

enum {
  PROP_0,
  PROP_GRACE_PERIOD,
  PROP_ARMED,
  N_PROPS
};

static GParamSpec *properties [N_PROPS];

static void
set_armed (TriageConfirmDialog *self,
           gboolean             armed)
{
  if (self->armed == armed)
    return;

  self->armed = armed;
  adw_message_dialog_set_response_enabled (ADW_MESSAGE_DIALOG (self),
                                           TRIAGE_CONFIRM_RESPONSE_CONFIRM, armed);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_ARMED]);
}

static void
grace_over_cb (gpointer data)
{
  TriageConfirmDialog *self = data;

  self->grace_id = 0;
  set_armed (self, TRUE);
}

/* Completes the run (once) and closes the dialog. */
static void
finish (TriageConfirmDialog *self,
        gboolean             confirmed,
        GError              *error)
{
  g_autoptr(GTask) task = g_steal_pointer (&self->task);

  g_clear_handle_id (&self->grace_id, g_source_remove);

  if (task != NULL)
    {
      if (error != NULL)
        g_task_return_error (task, error);
      else
        g_task_return_boolean (task, confirmed);
    }
  else
    g_clear_error (&error);

  /* Not tied to a parent that may be going away while the task lets go of us. */
  gtk_window_set_transient_for (GTK_WINDOW (self), NULL);
  gtk_window_destroy (GTK_WINDOW (self));
}

static void
triage_confirm_dialog_response (AdwMessageDialog *dialog,
                                const char       *response)
{
  TriageConfirmDialog *self = TRIAGE_CONFIRM_DIALOG (dialog);

  if (g_strcmp0 (response, TRIAGE_CONFIRM_RESPONSE_CONFIRM) == 0 && !self->armed)
    {
      /* A keystroke or click meant for something else: stay open. */
      g_debug ("Confirmation ignored: the dialog appeared %" G_GINT64_FORMAT " ms ago",
               self->mapped_at ? (g_get_monotonic_time () - self->mapped_at) / 1000 : 0);
      if (gtk_widget_get_visible (GTK_WIDGET (self)))
        return;
      response = TRIAGE_CONFIRM_RESPONSE_CANCEL;
    }

  finish (self, g_strcmp0 (response, TRIAGE_CONFIRM_RESPONSE_CONFIRM) == 0, NULL);
}

static void
hidden_idle_cb (gpointer data)
{
  g_autoptr(TriageConfirmDialog) self = data;

  /* Hidden without a response (the parent window went away): cancelled. */
  if (self->task != NULL && !gtk_widget_get_visible (GTK_WIDGET (self)))
    finish (self, FALSE, g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                              "The confirmation dialog was closed"));
}

static void
on_hide (TriageConfirmDialog *self)
{
  /* A button closes the dialog first and responds right after: look later. */
  if (self->task != NULL)
    g_idle_add_once (hidden_idle_cb, g_object_ref (self));
}

static void
on_cancelled (GCancellable        *cancellable,
              TriageConfirmDialog *self)
{
  finish (self, FALSE, g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                            "The confirmation was cancelled"));
}

static void
on_parent_unmap (TriageConfirmDialog *self)
{
  /* The window it belongs to left the screen (closed, destroyed): no answer. */
  if (self->task != NULL)
    finish (self, FALSE, g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                              "The window of the confirmation was closed"));
}

static void
triage_confirm_dialog_map (GtkWidget *widget)
{
  TriageConfirmDialog *self = TRIAGE_CONFIRM_DIALOG (widget);

  GTK_WIDGET_CLASS (triage_confirm_dialog_parent_class)->map (widget);

  /* The grace period starts when the dialog is on screen. */
  self->mapped_at = g_get_monotonic_time ();
  if (!self->armed && self->grace_id == 0)
    {
      if (self->grace_period == 0)
        set_armed (self, TRUE);
      else
        self->grace_id = g_timeout_add_once (self->grace_period, grace_over_cb, self);
    }
}

static void
triage_confirm_dialog_dispose (GObject *object)
{
  TriageConfirmDialog *self = (TriageConfirmDialog *)object;

  g_clear_handle_id (&self->grace_id, g_source_remove);

  G_OBJECT_CLASS (triage_confirm_dialog_parent_class)->dispose (object);
}

static void
triage_confirm_dialog_finalize (GObject *object)
{
  TriageConfirmDialog *self = (TriageConfirmDialog *)object;

  g_assert (self->task == NULL);

  G_OBJECT_CLASS (triage_confirm_dialog_parent_class)->finalize (object);
}

static void
triage_confirm_dialog_get_property (GObject    *object,
                                    guint       prop_id,
                                    GValue     *value,
                                    GParamSpec *pspec)
{
  TriageConfirmDialog *self = TRIAGE_CONFIRM_DIALOG (object);

  switch (prop_id)
    {
    case PROP_GRACE_PERIOD:
      g_value_set_uint (value, self->grace_period);
      break;

    case PROP_ARMED:
      g_value_set_boolean (value, self->armed);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
triage_confirm_dialog_set_property (GObject      *object,
                                    guint         prop_id,
                                    const GValue *value,
                                    GParamSpec   *pspec)
{
  TriageConfirmDialog *self = TRIAGE_CONFIRM_DIALOG (object);

  switch (prop_id)
    {
    case PROP_GRACE_PERIOD:
      triage_confirm_dialog_set_grace_period (self, g_value_get_uint (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
triage_confirm_dialog_class_init (TriageConfirmDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  AdwMessageDialogClass *dialog_class = ADW_MESSAGE_DIALOG_CLASS (klass);

  object_class->dispose = triage_confirm_dialog_dispose;
  object_class->finalize = triage_confirm_dialog_finalize;
  object_class->get_property = triage_confirm_dialog_get_property;
  object_class->set_property = triage_confirm_dialog_set_property;

  widget_class->map = triage_confirm_dialog_map;

  dialog_class->response = triage_confirm_dialog_response;

  /**
   * TriageConfirmDialog:grace-period:
   *
   * Milliseconds after the dialog appears during which the confirm response
   * is disabled and ignored.
   */
  properties [PROP_GRACE_PERIOD] =
    g_param_spec_uint ("grace-period", NULL, NULL,
                       0, 60000, TRIAGE_CONFIRM_DEFAULT_GRACE_PERIOD,
                       (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * TriageConfirmDialog:armed:
   *
   * Whether the grace period is over and the dialog can be confirmed.
   */
  properties [PROP_ARMED] =
    g_param_spec_boolean ("armed", NULL, NULL, FALSE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
triage_confirm_dialog_init (TriageConfirmDialog *self)
{
  AdwMessageDialog *dialog = ADW_MESSAGE_DIALOG (self);

  triage_widgets_style_init ();
  self->grace_period = TRIAGE_CONFIRM_DEFAULT_GRACE_PERIOD;

  adw_message_dialog_add_response (dialog, TRIAGE_CONFIRM_RESPONSE_CANCEL, _("_Cancel"));
  adw_message_dialog_add_response (dialog, TRIAGE_CONFIRM_RESPONSE_CONFIRM, _("_Confirm"));
  /* Red only for what destroys or cannot be undone (the HIG keeps the
   * destructive style for those): triage_confirm_dialog_new() says so. */
  adw_message_dialog_set_response_appearance (dialog, TRIAGE_CONFIRM_RESPONSE_CONFIRM,
                                              ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_response_enabled (dialog, TRIAGE_CONFIRM_RESPONSE_CONFIRM, FALSE);
  adw_message_dialog_set_default_response (dialog, TRIAGE_CONFIRM_RESPONSE_CANCEL);
  adw_message_dialog_set_close_response (dialog, TRIAGE_CONFIRM_RESPONSE_CANCEL);

  /* Untrusted text from the service: never markup. */
  adw_message_dialog_set_heading_use_markup (dialog, FALSE);
  adw_message_dialog_set_body_use_markup (dialog, FALSE);

  gtk_window_set_modal (GTK_WINDOW (self), TRUE);
  gtk_window_set_destroy_with_parent (GTK_WINDOW (self), TRUE);

  g_signal_connect (self, "hide", G_CALLBACK (on_hide), NULL);
}

/* An untrusted label as a button label: underscores kept (not mnemonics), length capped. */
static char *
button_label (const char *text)
{
  g_autofree char *cut = NULL;
  g_auto(GStrv) parts = NULL;

  if ((gsize) g_utf8_strlen (text, -1) > MAX_BUTTON_LABEL_CHARS)
    {
      g_autofree char *head = g_utf8_substring (text, 0, MAX_BUTTON_LABEL_CHARS);

      cut = g_strconcat (head, "…", NULL);
    }
  else
    cut = g_strdup (text);

  parts = g_strsplit (cut, "_", -1);
  return g_strjoinv ("__", parts);
}

/* A label with mnemonics ("_Cancel", "Drop__all") as it reads ("Cancel", "Drop_all"). */
static char *
strip_mnemonics (const char *label)
{
  GString *out = g_string_new (NULL);

  for (const char *p = label; *p != '\0'; p++)
    {
      if (*p == '_')
        {
          p++;
          if (*p == '\0')
            break;
        }
      g_string_append_c (out, *p);
    }

  return g_string_free (out, FALSE);
}

/* AdwMessageDialog 1.2 names a response button by its raw mnemonic label
 * and by the label inside it, which GTK 4.8 joins ("_Cancel Cancel"): one
 * name per button, as it reads. */
static void
label_response_buttons (GtkWidget *widget)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if (GTK_IS_BUTTON (child) && gtk_button_get_label (GTK_BUTTON (child)) != NULL)
        {
          g_autofree char *name = strip_mnemonics (gtk_button_get_label (GTK_BUTTON (child)));

          gtk_accessible_update_property (GTK_ACCESSIBLE (child),
                                          GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
          gtk_accessible_reset_relation (GTK_ACCESSIBLE (child),
                                         GTK_ACCESSIBLE_RELATION_LABELLED_BY);
        }
      else
        label_response_buttons (child);
    }
}

/**
 * triage_confirm_dialog_new_full:
 * @parent: (nullable): the window it belongs to
 * @heading: the question, plain text
 * @body: what will happen, plain text
 * @confirm_label: the confirm button's label, plain text (it gets a mnemonic)
 *
 * A confirmation of any protocol's answer (an AITP decision whose agent
 * sent `x-triage.confirm`, …), with the same safeguards as ATP's.
 *
 * Returns: (transfer full): a new dialog, shown by triage_confirm_dialog_run_async()
 */
TriageConfirmDialog *
triage_confirm_dialog_new_full (GtkWindow  *parent,
                                const char *heading,
                                const char *body,
                                const char *confirm_label)
{
  TriageConfirmDialog *self;
  g_autofree char *visible_heading = NULL;
  g_autofree char *visible_body = NULL;
  g_autofree char *visible_confirm = NULL;
  g_autofree char *confirm = NULL;

  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (heading != NULL && body != NULL && confirm_label != NULL, NULL);

  self = g_object_new (TRIAGE_TYPE_CONFIRM_DIALOG,
                       "transient-for", parent,
                       NULL);
  /* The agent's words are shown, never obeyed (no bidi override, no control). */
  visible_heading = triage_format_visible_text (heading);
  visible_body = triage_format_visible_text (body);
  visible_confirm = triage_format_visible_text (confirm_label);
  confirm = button_label (visible_confirm);
  adw_message_dialog_set_heading (ADW_MESSAGE_DIALOG (self), visible_heading);
  adw_message_dialog_set_body (ADW_MESSAGE_DIALOG (self), visible_body);
  adw_message_dialog_set_response_label (ADW_MESSAGE_DIALOG (self),
                                         TRIAGE_CONFIRM_RESPONSE_CONFIRM, confirm);
  label_response_buttons (GTK_WIDGET (self));

  return self;
}

/**
 * triage_confirm_dialog_new:
 * @parent: (nullable): the window it belongs to
 * @service_name: the service that asks
 * @action: the action answered (flagged destructive, irreversible or requires_confirmation)
 * @response_data: (nullable): the answer about to be sent
 *
 * Returns: (transfer full): a new dialog, shown by triage_confirm_dialog_run_async()
 */
TriageConfirmDialog *
triage_confirm_dialog_new (GtkWindow       *parent,
                           const char      *service_name,
                           const AtpAction *action,
                           JsonNode        *response_data)
{
  TriageConfirmDialog *self;
  g_autofree char *heading = NULL;
  g_autofree char *label = NULL;
  g_autofree char *service = NULL;
  const char *name;     /* the action's label, or its id when that shows nothing */
  const char *confirm;
  gboolean binary = FALSE;  /* a yes-or-no answer, named by its own label */
  g_autoptr(GString) body = NULL;

  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (service_name != NULL, NULL);
  g_return_val_if_fail (action != NULL, NULL);

  name = triage_atp_action_label (action);
  confirm = name;
  if (action->response_type == ATP_RESPONSE_TYPE_BINARY && response_data != NULL &&
      JSON_NODE_HOLDS_VALUE (response_data) &&
      json_node_get_value_type (response_data) == G_TYPE_BOOLEAN)
    {
      binary = TRUE;
      confirm = triage_atp_answer_label (action, json_node_get_boolean (response_data));
    }

  /* The heading is the question, as the person read it: a yes-or-no answer's
   * label alone says little ("No?" of triage-ask's and triage-mcp's default
   * labels). The answer is on the button and in the body. */
  if (g_str_has_suffix (name, "?"))
    heading = g_strdup (name);
  else
    /* Translators: the heading of the confirmation; %s is the action's label */
    heading = g_strdup_printf (_("%s?"), name);

  /* The service's words, in the order of ours around them: a Hebrew service
   * name took the colon and the answer after it into its run. */
  label = triage_format_in_sentence (name);
  service = triage_format_in_sentence (service_name);
  body = g_string_new (NULL);
  if (action->response_type == ATP_RESPONSE_TYPE_SIMPLE)
    /* Translators: the first %s is an action's label, the second a service's name */
    g_string_append_printf (body, _("“%s” will be sent to %s."), label, service);
  else
    {
      g_autofree char *answer = triage_describe_response (action, response_data);

      /* Translators: %1$s is an action's label, %2$s a service's name, %3$s the answer */
      g_string_append_printf (body, _("Your answer to “%1$s” will be sent to %2$s: %3$s"),
                              label, service, answer);
    }

  /* A binary action's flags are the question's, whichever the answer: which
   * of the two destroys is the agent's to say ("Keep the backups?" makes
   * false the one that deletes). Both answers are worded alike, the flags
   * named as the question's rather than "It deletes…" of an answer that may
   * keep, and, like their buttons, both are red when the question is
   * destructive or irreversible: either may be the one that destroys. */
  for (guint i = 0; action->flag_names[i] != NULL; i++)
    {
      TriageFlagInfo info;

      g_string_append (body, i == 0 ? "\n\n" : "\n");
      if (i == 0 && binary)
        /* Translators: %s is a yes-or-no question's label; its flags follow, one a line */
        g_string_append_printf (body, _("The service flags “%s”, whichever the answer:\n"),
                                name);
      triage_flag_info_init (&info, action->flag_names[i]);
      g_string_append (body, binary ? info.label : info.consequence);
      triage_flag_info_clear (&info);
    }

  self = triage_confirm_dialog_new_full (parent, heading, body->str, confirm);
  if (action->flags & (ATP_FLAG_DESTRUCTIVE | ATP_FLAG_IRREVERSIBLE))
    adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (self), TRIAGE_CONFIRM_RESPONSE_CONFIRM,
                                                ADW_RESPONSE_DESTRUCTIVE);

  return self;
}

guint
triage_confirm_dialog_get_grace_period (TriageConfirmDialog *self)
{
  g_return_val_if_fail (TRIAGE_IS_CONFIRM_DIALOG (self), 0);

  return self->grace_period;
}

/**
 * triage_confirm_dialog_set_grace_period:
 * @self: a #TriageConfirmDialog
 * @msec: milliseconds, counted from the moment the dialog appears
 *
 * Takes effect for a dialog not shown yet.
 */
void
triage_confirm_dialog_set_grace_period (TriageConfirmDialog *self,
                                        guint                msec)
{
  g_return_if_fail (TRIAGE_IS_CONFIRM_DIALOG (self));

  if (self->grace_period == msec)
    return;

  self->grace_period = msec;
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_GRACE_PERIOD]);
}

/**
 * triage_confirm_dialog_get_armed:
 *
 * Returns: whether the grace period is over
 */
gboolean
triage_confirm_dialog_get_armed (TriageConfirmDialog *self)
{
  g_return_val_if_fail (TRIAGE_IS_CONFIRM_DIALOG (self), FALSE);

  return self->armed;
}

/**
 * triage_confirm_dialog_run_async:
 * @self: a #TriageConfirmDialog, not running yet
 * @cancellable: (nullable): closes the dialog when cancelled
 * @callback: called once the person answered or the dialog was closed
 * @user_data: for @callback
 *
 * Presents the dialog. It is destroyed when the run completes.
 */
void
triage_confirm_dialog_run_async (TriageConfirmDialog *self,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  GtkWindow *parent;

  g_return_if_fail (TRIAGE_IS_CONFIRM_DIALOG (self));
  g_return_if_fail (self->task == NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  self->task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (self->task, triage_confirm_dialog_run_async);

  if (cancellable != NULL)
    {
      if (g_cancellable_is_cancelled (cancellable))
        {
          finish (self, FALSE, g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                                    "The confirmation was cancelled"));
          return;
        }
      g_signal_connect_object (cancellable, "cancelled", G_CALLBACK (on_cancelled), self, 0);
    }

  parent = gtk_window_get_transient_for (GTK_WINDOW (self));
  if (parent != NULL)
    g_signal_connect_object (parent, "unmap", G_CALLBACK (on_parent_unmap), self, G_CONNECT_SWAPPED);

  gtk_window_present (GTK_WINDOW (self));
}

/**
 * triage_confirm_dialog_run_finish:
 * @self: a #TriageConfirmDialog
 * @result: the result given to the callback
 * @error: %G_IO_ERROR_CANCELLED when the cancellable was cancelled or the
 *   dialog went away without an answer
 *
 * Returns: %TRUE if the person confirmed, %FALSE if they cancelled (no error set)
 */
gboolean
triage_confirm_dialog_run_finish (TriageConfirmDialog  *self,
                                  GAsyncResult         *result,
                                  GError              **error)
{
  g_return_val_if_fail (TRIAGE_IS_CONFIRM_DIALOG (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
