/* triage-response-editor-controls.c — an action's control, built for its type
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-response-editor"

#include <glib/gi18n.h>

#include "triage-atp-format.h"
#include "triage-decision-format.h"
#include "triage-flag-badge.h"
#include "triage-response-editor-private.h"
#include "triage-scroll-chain.h"

/*
 * simple: one button, the action's label. binary: two buttons, false then
 * true, each an answer. choice: radio buttons, or a searchable drop-down for
 * more than TRIAGE_CHOICE_MAX_RADIO_OPTIONS. multi_choice: check buttons and
 * a count; above as many, a list of them that scales, with a search
 * (triage-response-editor-list.c). text: a text view with a placeholder and
 * a count. The number and scale controls are in
 * triage-response-editor-number.c. Every label is the service's plain text,
 * never markup or a mnemonic.
 */

static GtkWidget *
wrapping_button (const char *text)
{
  g_autofree char *label = triage_format_shown_text (text, TRIAGE_SHOWN_LABEL_CHARS);
  GtkWidget *button = gtk_button_new ();
  GtkWidget *child = gtk_label_new (label);

  gtk_label_set_use_markup (GTK_LABEL (child), FALSE);
  gtk_label_set_use_underline (GTK_LABEL (child), FALSE);
  gtk_label_set_wrap (GTK_LABEL (child), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (child), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_justify (GTK_LABEL (child), GTK_JUSTIFY_CENTER);
  gtk_button_set_child (GTK_BUTTON (button), child);
  gtk_accessible_update_property (GTK_ACCESSIBLE (button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);

  return button;
}

/*
 * Styles the button that gives the action's answer (a simple action's
 * button, a binary's true button, Send): red for a destructive action (so
 * is a binary's false button: build_binary ()); blue only when the action
 * is the request's one answer that destroys nothing.
 * The HIG gives a view one suggested action at most, and of several answers
 * the app picks none for the person: the agent orders them, and its
 * favourite would be the one in blue. Otherwise the button keeps the default
 * style, as an AITP confirmation's options do.
 */
static void
style_answer_button (TriageResponseEditor *self,
                     GtkWidget            *button)
{
  GPtrArray *actions = self->notification->actions;

  if (self->action->flags & ATP_FLAG_DESTRUCTIVE)
    {
      gtk_widget_add_css_class (button, "destructive-action");
      return;
    }

  for (guint i = 0; i < actions->len; i++)
    {
      const AtpAction *other = g_ptr_array_index (actions, i);

      if (other != self->action && !(other->flags & ATP_FLAG_DESTRUCTIVE))
        return;
    }

  gtk_widget_add_css_class (button, "suggested-action");
}

void
_triage_response_editor_label_input (TriageResponseEditor *self,
                                     GtkWidget            *widget)
{
  gtk_accessible_update_relation (GTK_ACCESSIBLE (widget),
                                  GTK_ACCESSIBLE_RELATION_LABELLED_BY, self->title_label, NULL,
                                  -1);
}

static void
on_submit_clicked (TriageResponseEditor *self)
{
  triage_response_editor_submit (self);
}

static void
on_binary_clicked (TriageResponseEditor *self,
                   GtkButton            *button)
{
  g_autoptr(JsonNode) data = json_node_new (JSON_NODE_VALUE);

  if (!self->editable)
    return;

  json_node_set_boolean (data, GTK_WIDGET (button) == self->true_button);
  _triage_response_editor_emit_submit (self, data);
}

GtkWidget *
_triage_response_editor_add_counter (TriageResponseEditor *self)
{
  self->counter_label = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (self->counter_label), 1);
  gtk_label_set_wrap (GTK_LABEL (self->counter_label), TRUE);
  gtk_widget_add_css_class (self->counter_label, "caption");
  gtk_widget_add_css_class (self->counter_label, "numeric");
  gtk_widget_add_css_class (self->counter_label, "dim-label");
  gtk_widget_add_css_class (self->counter_label, "counter");

  return self->counter_label;
}

void
_triage_response_editor_add_send_button (TriageResponseEditor *self)
{
  g_autofree char *accessible = NULL;
  g_autofree char *label = triage_format_cut_text (triage_atp_action_label (self->action),
                                                   TRIAGE_SHOWN_LABEL_CHARS);

  self->submit_button = gtk_button_new_with_label (_("Send"));
  style_answer_button (self, self->submit_button);
  /* Translators: the accessible name of a send button; %s is the action's label */
  accessible = g_strdup_printf (_("Send “%s”"), label);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->submit_button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, accessible, -1);
  g_signal_connect_object (self->submit_button, "clicked",
                           G_CALLBACK (on_submit_clicked), self, G_CONNECT_SWAPPED);
  gtk_box_append (self->button_box, self->submit_button);
}

static void
build_simple (TriageResponseEditor *self)
{
  /* The button says it all; a heading above it would repeat it. */
  gtk_widget_set_visible (GTK_WIDGET (self->title_label), FALSE);
  gtk_widget_set_halign (GTK_WIDGET (self->button_box), GTK_ALIGN_FILL);
  gtk_widget_set_hexpand (GTK_WIDGET (self->button_box), TRUE);

  self->submit_button = wrapping_button (triage_atp_action_label (self->action));
  gtk_widget_set_hexpand (self->submit_button, TRUE);
  style_answer_button (self, self->submit_button);
  gtk_widget_add_css_class (self->submit_button, "pill");
  g_signal_connect_object (self->submit_button, "clicked",
                           G_CALLBACK (on_submit_clicked), self, G_CONNECT_SWAPPED);
  gtk_box_append (self->button_box, self->submit_button);
}

static void
build_binary (TriageResponseEditor *self)
{
  const AtpAction *action = self->action;

  gtk_widget_set_halign (GTK_WIDGET (self->button_box), GTK_ALIGN_FILL);
  gtk_widget_set_hexpand (GTK_WIDGET (self->button_box), TRUE);
  /* The two buttons are one control, named by the action's label. */
  self->answer_buttons = g_object_new (GTK_TYPE_BOX,
                                       "spacing", 6,
                                       "homogeneous", TRUE,
                                       "hexpand", TRUE,
                                       "accessible-role", GTK_ACCESSIBLE_ROLE_GROUP,
                                       NULL);
  _triage_response_editor_label_input (self, self->answer_buttons);
  self->false_button = wrapping_button (triage_atp_answer_label (action, FALSE));
  self->true_button = wrapping_button (triage_atp_answer_label (action, TRUE));
  /* Which answer destroys is the agent's to say ("Keep the backups?" makes
   * false the one that deletes): a destructive question's two buttons are
   * both red, as its confirmation is whichever the answer. */
  if (action->flags & ATP_FLAG_DESTRUCTIVE)
    gtk_widget_add_css_class (self->false_button, "destructive-action");
  style_answer_button (self, self->true_button);

  gtk_accessible_update_property (GTK_ACCESSIBLE (self->false_button),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, triage_atp_action_label (action), -1);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->true_button),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, triage_atp_action_label (action), -1);

  g_signal_connect_object (self->false_button, "clicked",
                           G_CALLBACK (on_binary_clicked), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->true_button, "clicked",
                           G_CALLBACK (on_binary_clicked), self, G_CONNECT_SWAPPED);

  gtk_box_append (GTK_BOX (self->answer_buttons), self->false_button);
  gtk_box_append (GTK_BOX (self->answer_buttons), self->true_button);
  gtk_box_append (self->button_box, self->answer_buttons);
}

static GtkWidget *
option_group_new (TriageResponseEditor *self)
{
  GtkWidget *group = g_object_new (GTK_TYPE_BOX,
                                   "orientation", GTK_ORIENTATION_VERTICAL,
                                   "spacing", 6,
                                   "accessible-role", GTK_ACCESSIBLE_ROLE_GROUP,
                                   NULL);

  gtk_widget_add_css_class (group, "option-group");
  _triage_response_editor_label_input (self, group);
  return group;
}

/**
 * _triage_response_editor_new_option_button:
 * @radio: whether it is a choice's (one of a group) rather than a multi_choice's
 *
 * Returns: (transfer floating): an option's check button, its label set by
 *   _triage_response_editor_set_option_label()
 */
GtkWidget *
_triage_response_editor_new_option_button (gboolean radio)
{
  /* A choice's option says it is a radio button: GTK 4.8 keeps a grouped
   * check button a "check box", and a screen reader user would think several
   * could be ticked. */
  GtkWidget *button = g_object_new (GTK_TYPE_CHECK_BUTTON,
                                    "accessible-role", radio ? GTK_ACCESSIBLE_ROLE_RADIO
                                                             : GTK_ACCESSIBLE_ROLE_CHECKBOX,
                                    NULL);
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_use_markup (GTK_LABEL (label), FALSE);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_check_button_set_child (GTK_CHECK_BUTTON (button), label);

  return button;
}

/* @text: an option's label as shown (triage_format_shown_text()) */
void
_triage_response_editor_set_option_label (GtkWidget  *button,
                                          const char *text)
{
  gtk_label_set_label (GTK_LABEL (gtk_check_button_get_child (GTK_CHECK_BUTTON (button))), text);
  gtk_accessible_update_property (GTK_ACCESSIBLE (button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, text, -1);
}

static GtkWidget *
option_button_new (const AtpOption *option,
                   gboolean         radio,
                   GtkCheckButton  *group)
{
  g_autofree char *text = triage_format_shown_text (triage_atp_label (option->label, option->value),
                                                    TRIAGE_SHOWN_LABEL_CHARS);
  GtkWidget *button = _triage_response_editor_new_option_button (radio);

  _triage_response_editor_set_option_label (button, text);
  if (group != NULL)
    gtk_check_button_set_group (GTK_CHECK_BUTTON (button), group);

  return button;
}

static void
build_options (TriageResponseEditor *self,
               gboolean              radio)
{
  const AtpAction *action = self->action;
  GtkCheckButton *first = NULL;

  self->input = option_group_new (self);
  for (guint i = 0; i < action->options->len; i++)
    {
      GtkWidget *button = option_button_new (g_ptr_array_index (action->options, i),
                                             radio, radio ? first : NULL);

      if (first == NULL)
        first = GTK_CHECK_BUTTON (button);
      g_ptr_array_add (self->option_buttons, button);
      g_signal_connect_object (button, "toggled", G_CALLBACK (_triage_response_editor_update), self, G_CONNECT_SWAPPED);
      gtk_box_append (GTK_BOX (self->input), button);
    }
  gtk_box_append (self->input_box, self->input);
}

/* The search field in a drop-down's list, which GTK 4.8 leaves named by its
 * class ("GtkSearchEntry"): what a screen reader says when it takes the
 * keyboard. */
static void
label_search_entry (GtkWidget *widget)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if (GTK_IS_SEARCH_ENTRY (child))
        gtk_accessible_update_property (GTK_ACCESSIBLE (child),
                                        GTK_ACCESSIBLE_PROPERTY_LABEL, _("Search the options"), -1);
      else
        label_search_entry (child);
    }
}

static void
build_dropdown (TriageResponseEditor *self)
{
  const AtpAction *action = self->action;
  GtkStringList *labels = gtk_string_list_new (NULL);
  GtkExpression *expression;

  for (guint i = 0; i < action->options->len; i++)
    {
      const AtpOption *option = g_ptr_array_index (action->options, i);
      g_autofree char *label = triage_format_cut_text (triage_atp_label (option->label, option->value),
                                                       TRIAGE_SHOWN_ROW_CHARS);

      gtk_string_list_append (labels, label);
    }

  expression = gtk_property_expression_new (GTK_TYPE_STRING_OBJECT, NULL, "string");
  self->input = gtk_drop_down_new (G_LIST_MODEL (labels), expression);
  gtk_drop_down_set_enable_search (GTK_DROP_DOWN (self->input), TRUE);
  gtk_drop_down_set_selected (GTK_DROP_DOWN (self->input), GTK_INVALID_LIST_POSITION);
  gtk_widget_set_hexpand (self->input, TRUE);
  gtk_widget_set_tooltip_text (self->input, _("Choose an option"));
  _triage_response_editor_label_input (self, self->input);
  /* What a screen reader operates is the drop-down's own button, which GTK
   * 4.8 names by its class ("GtkToggleButton"): it takes the action's label too. */
  for (GtkWidget *child = gtk_widget_get_first_child (self->input); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_TOGGLE_BUTTON (child))
      _triage_response_editor_label_input (self, child);
  label_search_entry (self->input);
  g_signal_connect_object (self->input, "notify::selected", G_CALLBACK (_triage_response_editor_update), self, G_CONNECT_SWAPPED);
  gtk_box_append (self->input_box, self->input);
}

static void
build_multi_choice (TriageResponseEditor *self)
{
  if (self->action->options->len <= TRIAGE_CHOICE_MAX_RADIO_OPTIONS)
    build_options (self, FALSE);
  else
    _triage_response_editor_build_option_list (self);
  gtk_box_append (self->input_box, _triage_response_editor_add_counter (self));
  _triage_response_editor_add_send_button (self);
}

static void
build_text (TriageResponseEditor *self)
{
  const AtpAction *action = self->action;
  GtkWidget *overlay, *scrolled, *view;
  g_autofree char *placeholder = NULL;

  view = gtk_text_view_new ();
  gtk_text_view_set_wrap_mode (GTK_TEXT_VIEW (view), GTK_WRAP_WORD_CHAR);
  gtk_text_view_set_accepts_tab (GTK_TEXT_VIEW (view), FALSE);
  gtk_text_view_set_top_margin (GTK_TEXT_VIEW (view), 8);
  gtk_text_view_set_bottom_margin (GTK_TEXT_VIEW (view), 8);
  gtk_text_view_set_left_margin (GTK_TEXT_VIEW (view), 10);
  gtk_text_view_set_right_margin (GTK_TEXT_VIEW (view), 10);
  gtk_widget_add_css_class (view, "text-answer");
  self->buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (view));
  self->input = view;
  _triage_response_editor_label_input (self, view);

  scrolled = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_min_content_height (GTK_SCROLLED_WINDOW (scrolled), 90);
  gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (scrolled), 240);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scrolled), TRUE);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), view);
  gtk_widget_add_css_class (scrolled, "text-answer-frame");
  triage_scroll_chain_attach (GTK_SCROLLED_WINDOW (scrolled));

  /* GtkTextView has no placeholder: a label over it while the buffer is empty. */
  overlay = gtk_overlay_new ();
  gtk_overlay_set_child (GTK_OVERLAY (overlay), scrolled);
  placeholder = triage_format_shown_text (action->placeholder ? action->placeholder
                                                            : _("Type your answer"),
                                        TRIAGE_SHOWN_TITLE_CHARS);
  self->placeholder_label = gtk_label_new (placeholder);
  gtk_label_set_use_markup (GTK_LABEL (self->placeholder_label), FALSE);
  gtk_label_set_wrap (GTK_LABEL (self->placeholder_label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (self->placeholder_label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_xalign (GTK_LABEL (self->placeholder_label), 0);
  gtk_widget_set_valign (self->placeholder_label, GTK_ALIGN_START);
  gtk_widget_set_halign (self->placeholder_label, GTK_ALIGN_FILL);
  gtk_widget_set_can_target (self->placeholder_label, FALSE);
  gtk_widget_add_css_class (self->placeholder_label, "text-answer-placeholder");
  gtk_widget_add_css_class (self->placeholder_label, "dim-label");
  gtk_overlay_add_overlay (GTK_OVERLAY (overlay), self->placeholder_label);
  self->input_hint = g_strdup (gtk_label_get_label (GTK_LABEL (self->placeholder_label)));

  gtk_box_append (self->input_box, overlay);
  gtk_box_append (self->input_box, _triage_response_editor_add_counter (self));
  g_signal_connect_object (self->buffer, "changed", G_CALLBACK (_triage_response_editor_update), self, G_CONNECT_SWAPPED);
  _triage_response_editor_add_send_button (self);
}

static void
build_badges (TriageResponseEditor *self)
{
  const AtpAction *action = self->action;

  for (guint i = 0; action->flag_names[i] != NULL; i++)
    {
      GtkWidget *badge = triage_flag_badge_new (action->flag_names[i]);

      triage_wrap_box_append (self->badges, badge);
    }

  gtk_widget_set_visible (GTK_WIDGET (self->badges), action->flag_names[0] != NULL);
}

void
_triage_response_editor_build (TriageResponseEditor *self)
{
  const AtpAction *action = self->action;
  g_autofree char *title = triage_format_shown_text (triage_atp_action_label (action),
                                                     TRIAGE_SHOWN_TITLE_CHARS);

  gtk_label_set_label (self->title_label, title);
  /* Said as shown: an agent's label of thousands of characters is cut. */
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, title, -1);
  build_badges (self);

  switch (action->response_type)
    {
    case ATP_RESPONSE_TYPE_SIMPLE:
      build_simple (self);
      break;

    case ATP_RESPONSE_TYPE_BINARY:
      build_binary (self);
      break;

    case ATP_RESPONSE_TYPE_CHOICE:
      if (action->options->len <= TRIAGE_CHOICE_MAX_RADIO_OPTIONS)
        build_options (self, TRUE);
      else
        build_dropdown (self);
      _triage_response_editor_add_send_button (self);
      break;

    case ATP_RESPONSE_TYPE_MULTI_CHOICE:
      build_multi_choice (self);
      break;

    case ATP_RESPONSE_TYPE_TEXT:
      build_text (self);
      break;

    case ATP_RESPONSE_TYPE_NUMBER:
      _triage_response_editor_build_number (self);
      break;

    case ATP_RESPONSE_TYPE_SCALE:
      _triage_response_editor_build_scale (self);
      break;

    default:
      g_assert_not_reached ();
    }

  gtk_widget_set_visible (GTK_WIDGET (self->input_box),
                          gtk_widget_get_first_child (GTK_WIDGET (self->input_box)) != NULL);
  _triage_response_editor_sync_header (self);
  gtk_widget_add_css_class (GTK_WIDGET (self),
                            atp_response_type_to_string (action->response_type));
  _triage_response_editor_update (self);
}

/* Showing an answer given (a read-only view) */

static void
check_options (TriageResponseEditor *self,
               JsonNode             *response_data)
{
  const AtpAction *action = self->action;

  for (guint i = 0; i < action->options->len; i++)
    if (_triage_response_editor_get_option_active (self, i))
      return;   /* the person's own choice stays */

  for (guint i = 0; i < action->options->len; i++)
    {
      const AtpOption *option = g_ptr_array_index (action->options, i);
      gboolean chosen = FALSE;

      if (JSON_NODE_HOLDS_VALUE (response_data) &&
          json_node_get_value_type (response_data) == G_TYPE_STRING)
        chosen = g_str_equal (json_node_get_string (response_data), option->value);
      else if (JSON_NODE_HOLDS_ARRAY (response_data))
        {
          JsonArray *values = json_node_get_array (response_data);

          for (guint k = 0; k < json_array_get_length (values) && !chosen; k++)
            chosen = g_strcmp0 (json_array_get_string_element (values, k), option->value) == 0;
        }

      if (chosen)
        _triage_response_editor_set_option_active (self, i, TRUE);
    }
}

static void
select_option (TriageResponseEditor *self,
               JsonNode             *response_data)
{
  const AtpAction *action = self->action;

  if (gtk_drop_down_get_selected (GTK_DROP_DOWN (self->input)) != GTK_INVALID_LIST_POSITION ||
      !JSON_NODE_HOLDS_VALUE (response_data) ||
      json_node_get_value_type (response_data) != G_TYPE_STRING)
    return;

  for (guint i = 0; i < action->options->len; i++)
    if (g_str_equal (((AtpOption *) g_ptr_array_index (action->options, i))->value,
                     json_node_get_string (response_data)))
      gtk_drop_down_set_selected (GTK_DROP_DOWN (self->input), i);
}

/* Puts an answer (valid for the action: the server took it) in a control
 * that holds none, so a read-only view shows what was chosen; what the
 * person entered themselves is never replaced. Simple and binary actions
 * have nothing to show it in. */
void
_triage_response_editor_show_answer (TriageResponseEditor *self,
                                     JsonNode             *response_data)
{
  switch (self->action->response_type)
    {
    case ATP_RESPONSE_TYPE_CHOICE:
      if (GTK_IS_DROP_DOWN (self->input))
        select_option (self, response_data);
      else
        check_options (self, response_data);
      break;

    case ATP_RESPONSE_TYPE_MULTI_CHOICE:
      check_options (self, response_data);
      break;

    case ATP_RESPONSE_TYPE_TEXT:
      if (gtk_text_buffer_get_char_count (self->buffer) == 0 &&
          JSON_NODE_HOLDS_VALUE (response_data) &&
          json_node_get_value_type (response_data) == G_TYPE_STRING)
        gtk_text_buffer_set_text (self->buffer, json_node_get_string (response_data), -1);
      break;

    case ATP_RESPONSE_TYPE_NUMBER:
    case ATP_RESPONSE_TYPE_SCALE:
      /* A number typed and not yet entered (no value) is the person's too. */
      if (!self->has_value && GTK_IS_SPIN_BUTTON (self->input) &&
          !_triage_response_text_is_blank (gtk_editable_get_text (GTK_EDITABLE (self->input))))
        break;
      if (!self->has_value && JSON_NODE_HOLDS_VALUE (response_data) &&
          (json_node_get_value_type (response_data) == G_TYPE_INT64 ||
           json_node_get_value_type (response_data) == G_TYPE_DOUBLE))
        _triage_response_editor_show_number (self, json_node_get_double (response_data));
      break;

    case ATP_RESPONSE_TYPE_SIMPLE:
    case ATP_RESPONSE_TYPE_BINARY:
    default:
      break;
    }
}

/* The controls, for the tests */

GtkWidget *
triage_response_editor_get_input (TriageResponseEditor *self)
{
  g_return_val_if_fail (TRIAGE_IS_RESPONSE_EDITOR (self), NULL);

  return self->input;
}

GPtrArray *
triage_response_editor_get_option_buttons (TriageResponseEditor *self)
{
  g_return_val_if_fail (TRIAGE_IS_RESPONSE_EDITOR (self), NULL);

  return self->option_buttons;
}

GtkWidget *
triage_response_editor_get_submit_button (TriageResponseEditor *self)
{
  g_return_val_if_fail (TRIAGE_IS_RESPONSE_EDITOR (self), NULL);

  return self->submit_button;
}

GtkWidget *
triage_response_editor_get_true_button (TriageResponseEditor *self)
{
  g_return_val_if_fail (TRIAGE_IS_RESPONSE_EDITOR (self), NULL);

  return self->true_button;
}

GtkWidget *
triage_response_editor_get_false_button (TriageResponseEditor *self)
{
  g_return_val_if_fail (TRIAGE_IS_RESPONSE_EDITOR (self), NULL);

  return self->false_button;
}

GtkWidget *
triage_response_editor_get_counter_label (TriageResponseEditor *self)
{
  g_return_val_if_fail (TRIAGE_IS_RESPONSE_EDITOR (self), NULL);

  return self->counter_label;
}

GtkWidget *
triage_response_editor_get_reason_label (TriageResponseEditor *self)
{
  g_return_val_if_fail (TRIAGE_IS_RESPONSE_EDITOR (self), NULL);

  return GTK_WIDGET (self->reason_label);
}

GtkWidget *
triage_response_editor_get_placeholder_label (TriageResponseEditor *self)
{
  g_return_val_if_fail (TRIAGE_IS_RESPONSE_EDITOR (self), NULL);

  return self->placeholder_label;
}

GtkWidget *
triage_response_editor_get_badges (TriageResponseEditor *self)
{
  g_return_val_if_fail (TRIAGE_IS_RESPONSE_EDITOR (self), NULL);

  return GTK_WIDGET (self->badges);
}

