/* triage-response-editor.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-response-editor"

#include <glib/gi18n.h>

#include "triage-atp-format.h"
#include "triage-decision-format.h"
#include "triage-response-editor-private.h"
#include "triage-send-shortcut.h"
#include "triage-widgets-style.h"

/*
 * One action of a request, answered with the native control for its type:
 *
 *   simple        a button
 *   binary        two buttons, the true and false labels
 *   choice        radio buttons (up to TRIAGE_CHOICE_MAX_RADIO_OPTIONS), else a drop-down
 *   multi_choice  check buttons (a searchable list of them for more than
 *                 TRIAGE_CHOICE_MAX_RADIO_OPTIONS) and a live "2 of 1–3 selected"
 *   text          a text view with a placeholder and a live character count
 *   number        a spin button (range, step grid, unit, placeholder)
 *   scale         a slider with marks and the end labels
 *
 * Whatever the control holds is turned into `response_data` and checked with
 * atp_action_validate_response() on every change, the very check the server
 * makes; the send button is enabled only for a valid answer and the reason is
 * shown beside it. ::submit carries the answer; the editor knows nothing of
 * confirmation or delivery (the decision view does). The controls are built
 * in triage-response-editor-controls.c and -number.c.
 */

G_DEFINE_FINAL_TYPE (TriageResponseEditor, triage_response_editor, ADW_TYPE_BIN)

enum {
  PROP_0,
  PROP_VALID,
  PROP_REASON,
  PROP_EDITABLE,
  PROP_CHOSEN,
  N_PROPS
};

enum {
  SUBMIT,
  CHANGED,
  N_SIGNALS
};

static GParamSpec *properties [N_PROPS];
static guint signals [N_SIGNALS];

/* Building the answer */

static JsonNode *
string_node (const char *value)
{
  JsonNode *node = json_node_alloc ();

  json_node_init_string (node, value);
  return node;
}

/*
 * Returns: (transfer full) (nullable): the answer the control holds, or %NULL
 *   with @reason set when there is none yet ("Choose an option")
 */
static JsonNode *
build_response (TriageResponseEditor  *self,
                char                 **reason)
{
  const AtpAction *action = self->action;

  switch (action->response_type)
    {
    case ATP_RESPONSE_TYPE_SIMPLE:
      return json_node_new (JSON_NODE_NULL);

    case ATP_RESPONSE_TYPE_BINARY:
      *reason = g_strdup (_("Choose one of the two answers"));
      return NULL;

    case ATP_RESPONSE_TYPE_CHOICE:
      if (GTK_IS_DROP_DOWN (self->input))
        {
          guint selected = gtk_drop_down_get_selected (GTK_DROP_DOWN (self->input));

          if (selected < action->options->len)
            return string_node (((AtpOption *) g_ptr_array_index (action->options, selected))->value);
        }
      else
        {
          for (guint i = 0; i < self->option_buttons->len; i++)
            if (_triage_response_editor_get_option_active (self, i))
              return string_node (((AtpOption *) g_ptr_array_index (action->options, i))->value);
        }
      *reason = g_strdup (_("Choose an option"));
      return NULL;

    case ATP_RESPONSE_TYPE_MULTI_CHOICE:
      {
        JsonArray *array = json_array_new ();
        JsonNode *node = json_node_alloc ();

        for (guint i = 0; i < action->options->len; i++)
          if (_triage_response_editor_get_option_active (self, i))
            json_array_add_string_element (array,
                                           ((AtpOption *) g_ptr_array_index (action->options, i))->value);
        json_node_init_array (node, array);
        json_array_unref (array);
        return node;
      }

    case ATP_RESPONSE_TYPE_TEXT:
      {
        GtkTextIter start, end;
        g_autofree char *text = NULL;

        gtk_text_buffer_get_bounds (self->buffer, &start, &end);
        text = gtk_text_buffer_get_text (self->buffer, &start, &end, FALSE);
        return string_node (text);
      }

    case ATP_RESPONSE_TYPE_NUMBER:
      {
        const char *text = gtk_editable_get_text (GTK_EDITABLE (self->input));
        double value;

        if (_triage_response_text_is_blank (text))
          {
            *reason = g_strdup (_("Enter a number"));
            return NULL;
          }
        if (_triage_response_number_is_ambiguous (text))
          {
            /* Translators: %s is what the person typed, e.g. "1,000": a comma
             * that may separate thousands or decimals */
            *reason = g_strdup_printf (_("“%s” can be read two ways: type it without a thousands separator."),
                                       text);
            return NULL;
          }
        if (!_triage_response_parse_number (text, &value))
          {
            /* Translators: %s is what the person typed */
            *reason = g_strdup_printf (_("“%s” is not a number."), text);
            return NULL;
          }
        return triage_json_number_new (value);
      }

    case ATP_RESPONSE_TYPE_SCALE:
      if (!self->has_value)
        {
          *reason = g_strdup (_("Move the slider to choose a value"));
          return NULL;
        }
      return triage_json_number_new (gtk_adjustment_get_value (self->adjustment));

    default:
      g_assert_not_reached ();
    }
}

/* State */

static void
set_valid (TriageResponseEditor *self,
           gboolean              valid,
           const char           *reason)
{
  if (self->valid != valid)
    {
      self->valid = valid;
      g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_VALID]);
    }

  if (g_strcmp0 (self->reason, reason) != 0)
    {
      g_free (self->reason);
      self->reason = g_strdup (reason);
      g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_REASON]);
    }
}

static void
sync_controls (TriageResponseEditor *self)
{
  AtpResponseType type = self->action->response_type;
  gboolean can_send = self->editable && self->valid;
  gboolean has_input = type != ATP_RESPONSE_TYPE_SIMPLE && type != ATP_RESPONSE_TYPE_BINARY;

  gtk_label_set_label (self->reason_label, self->valid || !self->editable ? "" : self->reason);
  gtk_widget_set_visible (GTK_WIDGET (self->reason_label), self->editable && has_input);
  /* The buttons of simple and binary are the answer itself: read-only, they
   * stay (insensitive), so the card still shows what was asked. A Send
   * button goes. */
  gtk_widget_set_visible (GTK_WIDGET (self->button_box), self->editable || !has_input);

  if (type == ATP_RESPONSE_TYPE_SIMPLE)
    gtk_widget_set_sensitive (self->submit_button, can_send);
  else if (type == ATP_RESPONSE_TYPE_BINARY)
    gtk_widget_set_sensitive (self->answer_buttons, self->editable);
  else if (self->submit_button != NULL)
    {
      gtk_widget_set_sensitive (self->submit_button, can_send);
      gtk_widget_set_tooltip_text (self->submit_button,
                                   can_send ? _("Send (Ctrl+Return)") : self->reason);
      gtk_accessible_update_property (GTK_ACCESSIBLE (self->submit_button),
                                      GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                      can_send ? "" : self->reason ? self->reason : "",
                                      -1);
    }

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "editor.submit",
                                 can_send && type != ATP_RESPONSE_TYPE_BINARY);
  _triage_response_editor_sync_description (self);
}

static void
update_counter (TriageResponseEditor *self)
{
  const AtpAction *action = self->action;
  g_autofree char *text = NULL;
  gboolean over = FALSE;

  if (self->counter_label == NULL)
    return;

  if (action->response_type == ATP_RESPONSE_TYPE_TEXT)
    {
      GtkTextIter start, end;
      g_autofree char *typed = NULL;
      glong length;

      gtk_text_buffer_get_bounds (self->buffer, &start, &end);
      typed = gtk_text_buffer_get_text (self->buffer, &start, &end, FALSE);
      length = g_utf8_strlen (typed, -1);
      text = triage_format_character_count (length, action->min_length, action->max_length);
      over = action->max_length >= 0 && length > action->max_length;
      if (self->placeholder_label != NULL)
        gtk_widget_set_visible (self->placeholder_label, length == 0);
    }
  else if (action->response_type == ATP_RESPONSE_TYPE_MULTI_CHOICE)
    {
      guint selected = 0;

      for (guint i = 0; i < action->options->len; i++)
        if (_triage_response_editor_get_option_active (self, i))
          selected++;
      text = triage_format_selection_count (selected, action->min_selections, action->max_selections);
      over = action->max_selections >= 0 && selected > action->max_selections;
    }

  gtk_label_set_label (GTK_LABEL (self->counter_label), text);
  if (over)
    gtk_widget_add_css_class (self->counter_label, "error");
  else
    gtk_widget_remove_css_class (self->counter_label, "error");
}

void
_triage_response_editor_update (TriageResponseEditor *self)
{
  g_autoptr(JsonNode) data = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *reason = NULL;
  gboolean valid = FALSE;

  if (self->action == NULL)
    return;

  update_counter (self);

  data = build_response (self, &reason);
  if (data != NULL)
    {
      /* The server's own rules decide, never a copy of them. */
      valid = atp_action_validate_response (self->action, data, &error);
      if (!valid)
        reason = triage_humanize_response_error (error);
    }

  if (self->action->response_type == ATP_RESPONSE_TYPE_BINARY)
    {
      valid = TRUE;
      g_clear_pointer (&reason, g_free);
    }

  set_valid (self, valid, valid ? NULL : reason);
  g_free (self->problem);
  self->problem = valid ? NULL : _triage_response_editor_describe_problem (self, error, reason);
  sync_controls (self);
  g_signal_emit (self, signals [CHANGED], 0);
}

/* The heading row is shown only with something in it: a simple action's
 * button says its label, so without flags or a mark it would only be a gap
 * above the button. */
void
_triage_response_editor_sync_header (TriageResponseEditor *self)
{
  gtk_widget_set_visible (self->header,
                          gtk_widget_get_visible (GTK_WIDGET (self->title_label)) ||
                          gtk_widget_get_visible (GTK_WIDGET (self->badges)) ||
                          gtk_widget_get_visible (self->chosen_marker));
}

void
_triage_response_editor_emit_submit (TriageResponseEditor *self,
                                     JsonNode             *data)
{
  g_autoptr(GError) error = NULL;

  if (!atp_action_validate_response (self->action, data, &error))
    {
      g_warning ("An invalid answer to %s was not sent: %s", self->action->id, error->message);
      return;
    }

  g_signal_emit (self, signals [SUBMIT], 0, data);
}

/* Actions */

static void
submit_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  triage_response_editor_submit (TRIAGE_RESPONSE_EDITOR (widget));
}

/* Ctrl+Return: sends when the answer can leave. When it cannot (too long,
 * too short, nothing chosen) the key is still the editor's: a text view
 * below would take it as a new line, editing the answer the reason line
 * says is wrong. A bell says nothing left; binary actions have no Send. */
static gboolean
send_shortcut_cb (GtkWidget *widget,
                  GVariant  *args,
                  gpointer   user_data)
{
  TriageResponseEditor *self = TRIAGE_RESPONSE_EDITOR (widget);

  if (self->action == NULL || self->action->response_type == ATP_RESPONSE_TYPE_BINARY)
    return FALSE;

  if (!triage_response_editor_submit (self))
    gtk_widget_error_bell (widget);

  return TRUE;
}

/* GObject */

static void
triage_response_editor_dispose (GObject *object)
{
  TriageResponseEditor *self = (TriageResponseEditor *)object;

  gtk_widget_dispose_template (GTK_WIDGET (self), TRIAGE_TYPE_RESPONSE_EDITOR);

  G_OBJECT_CLASS (triage_response_editor_parent_class)->dispose (object);
}

static void
triage_response_editor_finalize (GObject *object)
{
  TriageResponseEditor *self = (TriageResponseEditor *)object;

  g_clear_object (&self->adjustment);
  g_clear_pointer (&self->option_buttons, g_ptr_array_unref);
  g_clear_object (&self->option_list);
  g_clear_object (&self->option_list_filter);
  g_free (self->option_query);
  g_clear_pointer (&self->notification, atp_notification_unref);
  g_free (self->reason);
  g_free (self->problem);
  g_free (self->description);
  g_free (self->input_hint);

  G_OBJECT_CLASS (triage_response_editor_parent_class)->finalize (object);
}

static void
triage_response_editor_get_property (GObject    *object,
                                     guint       prop_id,
                                     GValue     *value,
                                     GParamSpec *pspec)
{
  TriageResponseEditor *self = TRIAGE_RESPONSE_EDITOR (object);

  switch (prop_id)
    {
    case PROP_VALID:
      g_value_set_boolean (value, self->valid);
      break;

    case PROP_REASON:
      g_value_set_string (value, self->reason);
      break;

    case PROP_EDITABLE:
      g_value_set_boolean (value, self->editable);
      break;

    case PROP_CHOSEN:
      g_value_set_boolean (value, self->chosen);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
triage_response_editor_set_property (GObject      *object,
                                     guint         prop_id,
                                     const GValue *value,
                                     GParamSpec   *pspec)
{
  TriageResponseEditor *self = TRIAGE_RESPONSE_EDITOR (object);

  switch (prop_id)
    {
    case PROP_EDITABLE:
      triage_response_editor_set_editable (self, g_value_get_boolean (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
triage_response_editor_class_init (TriageResponseEditorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = triage_response_editor_dispose;
  object_class->finalize = triage_response_editor_finalize;
  object_class->get_property = triage_response_editor_get_property;
  object_class->set_property = triage_response_editor_set_property;

  /**
   * TriageResponseEditor:valid:
   *
   * Whether the control holds an answer atp_action_validate_response() accepts.
   */
  properties [PROP_VALID] =
    g_param_spec_boolean ("valid", NULL, NULL, FALSE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * TriageResponseEditor:reason:
   *
   * Why the answer cannot be sent yet, for the person; %NULL when it can.
   */
  properties [PROP_REASON] =
    g_param_spec_string ("reason", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * TriageResponseEditor:editable:
   *
   * Whether the person can change and send the answer. A read-only editor
   * keeps what was typed or chosen and hides its send control.
   */
  properties [PROP_EDITABLE] =
    g_param_spec_boolean ("editable", NULL, NULL, TRUE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * TriageResponseEditor:chosen:
   *
   * Whether the card is marked as the action chosen
   * (triage_response_editor_set_chosen()).
   */
  properties [PROP_CHOSEN] =
    g_param_spec_boolean ("chosen", NULL, NULL, FALSE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * TriageResponseEditor::submit:
   * @self: the editor
   * @response_data: the answer, valid for the action (JSON null for a simple action)
   *
   * The person sent the answer.
   */
  signals [SUBMIT] =
    g_signal_new ("submit", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, JSON_TYPE_NODE);

  /**
   * TriageResponseEditor::changed:
   * @self: the editor
   *
   * What the control holds may have changed (typed, ticked, moved, or put
   * back): its draft (triage_response_editor_dup_draft()) may be another.
   */
  signals [CHANGED] =
    g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  g_type_ensure (TRIAGE_TYPE_WRAP_BOX);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               RESOURCE_BASE "/widgets/triage-response-editor.ui");
  gtk_widget_class_bind_template_child (widget_class, TriageResponseEditor, header);
  gtk_widget_class_bind_template_child (widget_class, TriageResponseEditor, title_label);
  gtk_widget_class_bind_template_child (widget_class, TriageResponseEditor, badges);
  gtk_widget_class_bind_template_child (widget_class, TriageResponseEditor, chosen_marker);
  gtk_widget_class_bind_template_child (widget_class, TriageResponseEditor, chosen_label);
  gtk_widget_class_bind_template_child (widget_class, TriageResponseEditor, input_box);
  gtk_widget_class_bind_template_child (widget_class, TriageResponseEditor, reason_label);
  gtk_widget_class_bind_template_child (widget_class, TriageResponseEditor, button_box);

  gtk_widget_class_install_action (widget_class, "editor.submit", NULL, submit_action);
  gtk_widget_class_set_css_name (widget_class, "responseeditor");
  /* One group per action, named by its label (and "Chosen" when it was). */
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
triage_response_editor_init (TriageResponseEditor *self)
{
  triage_widgets_style_init ();
  gtk_widget_init_template (GTK_WIDGET (self));

  self->editable = TRUE;
  self->digits = -1;
  self->option_buttons = g_ptr_array_new ();

  /* Ctrl+Return sends from anywhere in the editor, or does nothing when it
   * cannot. In the capture phase, so a text view never takes it as a new
   * line. */
  triage_send_shortcut_attach (GTK_WIDGET (self), gtk_callback_action_new (send_shortcut_cb, NULL, NULL));
}

/**
 * triage_response_editor_new:
 * @notification: a (valid) notification
 * @action_id: one of its actions
 *
 * Returns: (transfer floating): an editor for the action
 */
GtkWidget *
triage_response_editor_new (AtpNotification *notification,
                            const char      *action_id)
{
  TriageResponseEditor *self;
  const AtpAction *action;

  g_return_val_if_fail (notification != NULL, NULL);
  g_return_val_if_fail (action_id != NULL, NULL);

  action = atp_notification_find_action (notification, action_id);
  g_return_val_if_fail (action != NULL, NULL);

  self = g_object_new (TRIAGE_TYPE_RESPONSE_EDITOR, NULL);
  self->notification = atp_notification_ref (notification);
  self->action = action;
  _triage_response_editor_build (self);

  return GTK_WIDGET (self);
}

/**
 * triage_response_editor_get_notification:
 *
 * Returns: (transfer none): the notification the action belongs to
 */
AtpNotification *
triage_response_editor_get_notification (TriageResponseEditor *self)
{
  g_return_val_if_fail (TRIAGE_IS_RESPONSE_EDITOR (self), NULL);

  return self->notification;
}

/**
 * triage_response_editor_get_action:
 *
 * Returns: (transfer none): the action answered
 */
const AtpAction *
triage_response_editor_get_action (TriageResponseEditor *self)
{
  g_return_val_if_fail (TRIAGE_IS_RESPONSE_EDITOR (self), NULL);

  return self->action;
}

const char *
triage_response_editor_get_action_id (TriageResponseEditor *self)
{
  g_return_val_if_fail (TRIAGE_IS_RESPONSE_EDITOR (self), NULL);

  return self->action->id;
}

gboolean
triage_response_editor_get_valid (TriageResponseEditor *self)
{
  g_return_val_if_fail (TRIAGE_IS_RESPONSE_EDITOR (self), FALSE);

  return self->valid;
}

/**
 * triage_response_editor_get_reason:
 *
 * Returns: (nullable): why the answer cannot be sent, or %NULL
 */
const char *
triage_response_editor_get_reason (TriageResponseEditor *self)
{
  g_return_val_if_fail (TRIAGE_IS_RESPONSE_EDITOR (self), NULL);

  return self->reason;
}

/**
 * triage_response_editor_dup_response:
 *
 * Returns: (transfer full) (nullable): the answer the control holds, valid
 *   or not; %NULL when there is none yet (and for a binary action, whose
 *   answer is the button pressed)
 */
JsonNode *
triage_response_editor_dup_response (TriageResponseEditor *self)
{
  g_autofree char *reason = NULL;

  g_return_val_if_fail (TRIAGE_IS_RESPONSE_EDITOR (self), NULL);

  return build_response (self, &reason);
}

gboolean
triage_response_editor_get_editable (TriageResponseEditor *self)
{
  g_return_val_if_fail (TRIAGE_IS_RESPONSE_EDITOR (self), FALSE);

  return self->editable;
}

/**
 * triage_response_editor_set_editable:
 * @self: a #TriageResponseEditor
 * @editable: %FALSE to freeze the answer (what was typed stays visible)
 */
void
triage_response_editor_set_editable (TriageResponseEditor *self,
                                     gboolean              editable)
{
  g_return_if_fail (TRIAGE_IS_RESPONSE_EDITOR (self));

  editable = !!editable;
  if (self->editable == editable)
    return;

  self->editable = editable;

  if (GTK_IS_TEXT_VIEW (self->input))
    {
      /* A frozen answer is read, not focused, so it shows no cursor. Hiding
       * the cursor instead (cursor-visible) aborts GTK 4.8: its blink keeps
       * running a moment after the focus leaves, and asserts that the
       * cursor is visible. */
      gtk_text_view_set_editable (GTK_TEXT_VIEW (self->input), editable);
      gtk_widget_set_focusable (self->input, editable);
    }
  /* Insensitive, what it holds still shown: also what a screen reader says. */
  if (self->input != NULL)
    gtk_widget_set_sensitive (self->input, editable);
  if (self->scale_spin != NULL)
    gtk_widget_set_sensitive (self->scale_spin, editable);

  if (editable)
    gtk_widget_remove_css_class (GTK_WIDGET (self), "read-only");
  else
    gtk_widget_add_css_class (GTK_WIDGET (self), "read-only");

  sync_controls (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_EDITABLE]);
}

/**
 * triage_response_editor_set_chosen:
 * @self: a #TriageResponseEditor
 * @chosen: whether the action is the one chosen (here, or on another device)
 * @response_data: (nullable): the answer it was chosen with
 *
 * Marks the card of the action chosen in a read-only view: a check icon and
 * "Chosen" beside its label, which a screen reader says with the card. A
 * control that holds no answer of its own shows @response_data; one that
 * holds another (the person's unsent draft is kept) or cannot show it (a
 * binary action's buttons) has the answer named in the mark.
 */
void
triage_response_editor_set_chosen (TriageResponseEditor *self,
                                   gboolean              chosen,
                                   JsonNode             *response_data)
{
  g_autofree char *text = NULL;

  g_return_if_fail (TRIAGE_IS_RESPONSE_EDITOR (self));

  chosen = !!chosen;

  if (chosen && response_data != NULL)
    {
      g_autofree char *reason = NULL;
      g_autoptr(JsonNode) shown = NULL;

      _triage_response_editor_show_answer (self, response_data);
      shown = build_response (self, &reason);

      if (self->action->response_type != ATP_RESPONSE_TYPE_SIMPLE &&
          (shown == NULL || !atp_json_node_equal (shown, response_data)))
        {
          g_autofree char *value = triage_describe_response (self->action, response_data);
          /* The service's words (an option's label): shown, never obeyed. */
          g_autofree char *shown_value = triage_format_shown_text (value, TRIAGE_SHOWN_LABEL_CHARS);

          /* Translators: marks the action chosen; %s is the answer, e.g. "Yes" or "25 %" */
          text = g_strdup_printf (_("Chosen: %s"), shown_value);
        }
    }
  if (chosen && text == NULL)
    /* Translators: marks the action chosen in a request already answered */
    text = g_strdup (_("Chosen"));

  gtk_label_set_label (self->chosen_label, text ? text : "");
  gtk_widget_set_visible (self->chosen_marker, chosen);
  _triage_response_editor_sync_header (self);
  if (chosen)
    {
      gtk_widget_add_css_class (GTK_WIDGET (self), "chosen");
      gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                      GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text, -1);
    }
  else
    {
      gtk_widget_remove_css_class (GTK_WIDGET (self), "chosen");
      gtk_accessible_reset_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION);
    }

  if (self->chosen == chosen)
    return;

  self->chosen = chosen;
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_CHOSEN]);
}

gboolean
triage_response_editor_get_chosen (TriageResponseEditor *self)
{
  g_return_val_if_fail (TRIAGE_IS_RESPONSE_EDITOR (self), FALSE);

  return self->chosen;
}

/**
 * triage_response_editor_submit:
 * @self: a #TriageResponseEditor
 *
 * Sends the answer the control holds, as the send button does (binary
 * actions are answered with their two buttons instead).
 *
 * Returns: %TRUE if ::submit was emitted
 */
gboolean
triage_response_editor_submit (TriageResponseEditor *self)
{
  g_autoptr(JsonNode) data = NULL;
  g_autofree char *reason = NULL;

  g_return_val_if_fail (TRIAGE_IS_RESPONSE_EDITOR (self), FALSE);

  if (!self->editable || !self->valid || self->action->response_type == ATP_RESPONSE_TYPE_BINARY)
    return FALSE;

  data = build_response (self, &reason);
  if (data == NULL)
    return FALSE;

  _triage_response_editor_emit_submit (self, data);
  return TRUE;
}
