/* triage-response-editor.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-response-editor"

#include <glib/gi18n.h>
#include <math.h>

#include "triage-decision-format.h"
#include "triage-flag-badge.h"
#include "triage-response-editor-private.h"
#include "triage-widgets-style.h"
#include "triage-wrap-box.h"

/*
 * One action of a request, answered with the native control for its type:
 *
 *   simple        a button
 *   binary        two buttons, the true and false labels
 *   choice        radio buttons (up to TRIAGE_CHOICE_MAX_RADIO_OPTIONS), else a drop-down
 *   multi_choice  check buttons and a live "2 of 1–3 selected"
 *   text          a text view with a placeholder and a live character count
 *   number        a spin button (range, step grid, unit, placeholder)
 *   scale         a slider with marks and the end labels
 *
 * Whatever the control holds is turned into `response_data` and checked with
 * atp_action_validate_response() on every change, the very check the server
 * makes; the send button is enabled only for a valid answer and the reason is
 * shown beside it. ::submit carries the answer; the editor knows nothing of
 * confirmation or delivery (the decision view does).
 */

#define MAX_SCALE_MARKS 21
#define SCALE_SPIN_THRESHOLD 100 /* steps; above, a spin button helps pick exact values */
#define WIDE_RANGE 1e15          /* a number without min/max */

struct _TriageResponseEditor
{
  AdwBin            parent_instance;

  AtpNotification  *notification;
  const AtpAction  *action;
  gboolean          editable;
  gboolean          valid;
  char             *reason;

  GtkWidget        *input;
  GPtrArray        *option_buttons;
  GtkWidget        *submit_button;
  GtkWidget        *true_button;
  GtkWidget        *false_button;
  GtkWidget        *counter_label;
  GtkWidget        *placeholder_label;
  GtkWidget        *scale_spin;
  GtkTextBuffer    *buffer;
  GtkAdjustment    *adjustment;

  /* number: a value was typed or stepped to; scale: the slider was moved */
  gboolean          has_value;
  int               digits;       /* number: decimals shown, -1 for as many as needed */
  double            grid_base;
  double            grid_top;     /* scale: the highest value on the grid */

  /* template */
  GtkLabel         *title_label;
  TriageWrapBox    *badges;
  GtkBox           *input_box;
  GtkLabel         *reason_label;
  GtkBox           *button_box;
};

G_DEFINE_FINAL_TYPE (TriageResponseEditor, triage_response_editor, ADW_TYPE_BIN)

enum {
  PROP_0,
  PROP_VALID,
  PROP_REASON,
  PROP_EDITABLE,
  N_PROPS
};

enum {
  SUBMIT,
  N_SIGNALS
};

static GParamSpec *properties [N_PROPS];
static guint signals [N_SIGNALS];

static void update (TriageResponseEditor *self);

/* Number parsing */

/* Strict: digits, one sign, one decimal separator ('.' or the ',' many
 * locales type), an exponent; no hex, "inf" or "nan" as strtod would allow. */
static gboolean
parse_number (const char *text,
              double     *value)
{
  g_autofree char *copy = g_strstrip (g_strdup (text));
  char *end = NULL;
  double parsed;

  if (*copy == '\0')
    return FALSE;

  for (char *p = copy; *p != '\0'; p++)
    {
      if (*p == ',' && strchr (copy, '.') == NULL)
        *p = '.';
      if (!g_ascii_isdigit (*p) && strchr ("+-.eE", *p) == NULL)
        return FALSE;
    }

  parsed = g_ascii_strtod (copy, &end);
  if (end == copy || *end != '\0' || !isfinite (parsed))
    return FALSE;

  *value = parsed;
  return TRUE;
}

static gboolean
text_is_blank (const char *text)
{
  for (const char *p = text; *p != '\0'; p++)
    if (!g_ascii_isspace (*p))
      return FALSE;

  return TRUE;
}

/* The number on the step grid (from min, or 0) closest to @value, within the range. */
static double
snap_number (TriageResponseEditor *self,
             double                value)
{
  const AtpAction *action = self->action;
  double k, k_min, k_max, snapped, scale;

  if (!action->has_step)
    {
      if (action->has_min)
        value = MAX (value, action->min);
      if (action->has_max)
        value = MIN (value, action->max);
      return value;
    }

  k = nearbyint ((value - self->grid_base) / action->step);
  if (action->has_min)
    {
      k_min = ceil ((action->min - self->grid_base) / action->step - 1e-9);
      k = MAX (k, k_min);
    }
  if (action->has_max)
    {
      k_max = floor ((action->max - self->grid_base) / action->step + 1e-9);
      k = MIN (k, k_max);
    }

  snapped = self->grid_base + k * action->step;

  /* 0.1 + 13 × 0.05 is 0.7500000000000001 in doubles: round to the shown digits. */
  if (self->digits >= 0)
    {
      scale = pow (10, self->digits);
      if (isfinite (snapped * scale) && fabs (snapped * scale) < 1e15)
        snapped = nearbyint (snapped * scale) / scale;
    }

  return snapped;
}

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
            if (gtk_check_button_get_active (g_ptr_array_index (self->option_buttons, i)))
              return string_node (((AtpOption *) g_ptr_array_index (action->options, i))->value);
        }
      *reason = g_strdup (_("Choose an option"));
      return NULL;

    case ATP_RESPONSE_TYPE_MULTI_CHOICE:
      {
        JsonArray *array = json_array_new ();
        JsonNode *node = json_node_alloc ();

        for (guint i = 0; i < self->option_buttons->len; i++)
          if (gtk_check_button_get_active (g_ptr_array_index (self->option_buttons, i)))
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

        if (text_is_blank (text))
          {
            *reason = g_strdup (_("Enter a number"));
            return NULL;
          }
        if (!parse_number (text, &value))
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
  gtk_widget_set_visible (GTK_WIDGET (self->button_box), self->editable);

  if (type == ATP_RESPONSE_TYPE_SIMPLE)
    gtk_widget_set_sensitive (self->submit_button, can_send);
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

      for (guint i = 0; i < self->option_buttons->len; i++)
        if (gtk_check_button_get_active (g_ptr_array_index (self->option_buttons, i)))
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

static void
update (TriageResponseEditor *self)
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
  sync_controls (self);
}

static void
emit_submit (TriageResponseEditor *self,
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

/* Controls */

static GtkWidget *
wrapping_button (const char *label)
{
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

static const char *
affirmative_style (const AtpAction *action)
{
  return (action->flags & ATP_FLAG_DESTRUCTIVE) ? "destructive-action" : "suggested-action";
}

static void
label_input (TriageResponseEditor *self,
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
  emit_submit (self, data);
}

static GtkWidget *
add_counter (TriageResponseEditor *self)
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

static void
add_send_button (TriageResponseEditor *self)
{
  g_autofree char *accessible = NULL;

  self->submit_button = gtk_button_new_with_label (_("Send"));
  gtk_widget_add_css_class (self->submit_button, affirmative_style (self->action));
  /* Translators: the accessible name of a send button; %s is the action's label */
  accessible = g_strdup_printf (_("Send “%s”"), self->action->label);
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

  self->submit_button = wrapping_button (self->action->label);
  gtk_widget_set_hexpand (self->submit_button, TRUE);
  gtk_widget_add_css_class (self->submit_button, affirmative_style (self->action));
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
  gtk_box_set_homogeneous (self->button_box, TRUE);
  self->false_button = wrapping_button (action->false_label);
  self->true_button = wrapping_button (action->true_label);
  gtk_widget_add_css_class (self->true_button, affirmative_style (action));

  gtk_accessible_update_property (GTK_ACCESSIBLE (self->false_button),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, action->label, -1);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->true_button),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, action->label, -1);

  g_signal_connect_object (self->false_button, "clicked",
                           G_CALLBACK (on_binary_clicked), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->true_button, "clicked",
                           G_CALLBACK (on_binary_clicked), self, G_CONNECT_SWAPPED);

  gtk_box_append (self->button_box, self->false_button);
  gtk_box_append (self->button_box, self->true_button);
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
  label_input (self, group);
  return group;
}

static GtkWidget *
option_button_new (const AtpOption *option,
                   GtkCheckButton  *group)
{
  GtkWidget *button = gtk_check_button_new ();
  GtkWidget *label = gtk_label_new (option->label);

  gtk_label_set_use_markup (GTK_LABEL (label), FALSE);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_check_button_set_child (GTK_CHECK_BUTTON (button), label);
  if (group != NULL)
    gtk_check_button_set_group (GTK_CHECK_BUTTON (button), group);
  gtk_accessible_update_property (GTK_ACCESSIBLE (button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, option->label, -1);

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
                                             radio ? first : NULL);

      if (first == NULL)
        first = GTK_CHECK_BUTTON (button);
      g_ptr_array_add (self->option_buttons, button);
      g_signal_connect_object (button, "toggled", G_CALLBACK (update), self, G_CONNECT_SWAPPED);
      gtk_box_append (GTK_BOX (self->input), button);
    }
  gtk_box_append (self->input_box, self->input);
}

static void
build_dropdown (TriageResponseEditor *self)
{
  const AtpAction *action = self->action;
  GtkStringList *labels = gtk_string_list_new (NULL);
  GtkExpression *expression;

  for (guint i = 0; i < action->options->len; i++)
    gtk_string_list_append (labels, ((AtpOption *) g_ptr_array_index (action->options, i))->label);

  expression = gtk_property_expression_new (GTK_TYPE_STRING_OBJECT, NULL, "string");
  self->input = gtk_drop_down_new (G_LIST_MODEL (labels), expression);
  gtk_drop_down_set_enable_search (GTK_DROP_DOWN (self->input), TRUE);
  gtk_drop_down_set_selected (GTK_DROP_DOWN (self->input), GTK_INVALID_LIST_POSITION);
  gtk_widget_set_hexpand (self->input, TRUE);
  gtk_widget_set_tooltip_text (self->input, _("Choose an option"));
  label_input (self, self->input);
  g_signal_connect_object (self->input, "notify::selected", G_CALLBACK (update), self, G_CONNECT_SWAPPED);
  gtk_box_append (self->input_box, self->input);
}

static void
build_multi_choice (TriageResponseEditor *self)
{
  build_options (self, FALSE);
  gtk_box_append (self->input_box, add_counter (self));
  add_send_button (self);
}

static void
build_text (TriageResponseEditor *self)
{
  const AtpAction *action = self->action;
  GtkWidget *overlay, *scrolled, *view;

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
  label_input (self, view);

  scrolled = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_min_content_height (GTK_SCROLLED_WINDOW (scrolled), 90);
  gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (scrolled), 240);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scrolled), TRUE);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), view);
  gtk_widget_add_css_class (scrolled, "text-answer-frame");

  /* GtkTextView has no placeholder: a label over it while the buffer is empty. */
  overlay = gtk_overlay_new ();
  gtk_overlay_set_child (GTK_OVERLAY (overlay), scrolled);
  self->placeholder_label = gtk_label_new (action->placeholder ? action->placeholder
                                                               : _("Type your answer"));
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
  gtk_accessible_update_property (GTK_ACCESSIBLE (view),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  gtk_label_get_label (GTK_LABEL (self->placeholder_label)),
                                  -1);

  gtk_box_append (self->input_box, overlay);
  gtk_box_append (self->input_box, add_counter (self));
  g_signal_connect_object (self->buffer, "changed", G_CALLBACK (update), self, G_CONNECT_SWAPPED);
  add_send_button (self);
}

static int
on_spin_input (GtkSpinButton        *spin,
               double               *new_value,
               TriageResponseEditor *self)
{
  double value;

  *new_value = gtk_adjustment_get_value (self->adjustment);

  if (text_is_blank (gtk_editable_get_text (GTK_EDITABLE (spin))))
    self->has_value = FALSE;
  else if (parse_number (gtk_editable_get_text (GTK_EDITABLE (spin)), &value))
    {
      self->has_value = TRUE;
      *new_value = snap_number (self, value);
    }
  /* Anything else: back to the last number (or to empty). */

  return TRUE;
}

static gboolean
on_spin_output (GtkSpinButton        *spin,
                TriageResponseEditor *self)
{
  g_autofree char *text = NULL;

  /* No number chosen yet: the text stays as it is (empty, or being typed),
   * never the adjustment's starting value. */
  if (!self->has_value)
    return TRUE;

  text = triage_format_number (gtk_adjustment_get_value (self->adjustment), self->digits);
  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (spin)), text) != 0)
    gtk_editable_set_text (GTK_EDITABLE (spin), text);

  return TRUE;
}

static void
on_adjustment_value_changed (TriageResponseEditor *self)
{
  /* Connected before the spin button's own handler: a value stepped to with
   * the arrows is an answer, and is shown as one. */
  self->has_value = TRUE;

  if (self->action->response_type == ATP_RESPONSE_TYPE_SCALE)
    {
      gtk_scale_set_draw_value (GTK_SCALE (self->input), TRUE);
      update (self);
    }
}

static char *
number_hint (TriageResponseEditor *self)
{
  const AtpAction *action = self->action;
  g_autofree char *min = action->has_min ? triage_format_number (action->min, -1) : NULL;
  g_autofree char *max = action->has_max ? triage_format_number (action->max, -1) : NULL;
  g_autofree char *step = action->has_step ? triage_format_number (action->step, -1) : NULL;
  g_autofree char *range = NULL;

  if (min != NULL && max != NULL)
    /* Translators: the range of a number, e.g. "From 0.1 to 0.9" */
    range = g_strdup_printf (_("From %s to %s"), min, max);
  else if (min != NULL)
    /* Translators: the minimum of a number */
    range = g_strdup_printf (_("At least %s"), min);
  else if (max != NULL)
    /* Translators: the maximum of a number */
    range = g_strdup_printf (_("At most %s"), max);

  if (step != NULL && range != NULL)
    /* Translators: a range and a step, e.g. "From 0.1 to 0.9, in steps of 0.05" */
    return g_strdup_printf (_("%s, in steps of %s"), range, step);
  if (step != NULL)
    /* Translators: the step of a number without bounds */
    return g_strdup_printf (_("In steps of %s"), step);

  return g_steal_pointer (&range);
}

static void
build_number (TriageResponseEditor *self)
{
  const AtpAction *action = self->action;
  double lower = action->has_min ? action->min : -WIDE_RANGE;
  double upper = action->has_max ? action->max : WIDE_RANGE;
  double step = action->has_step ? action->step : 1.0;
  g_autofree char *hint = NULL;
  GtkWidget *row, *spin;
  GtkEditable *text;

  self->grid_base = action->has_min ? action->min : 0.0;
  if (action->has_step)
    self->digits = CLAMP (MAX (triage_number_digits (action->step),
                               triage_number_digits (self->grid_base)), 0, 12);
  else
    self->digits = -1;

  lower = MIN (lower, upper);
  self->adjustment = g_object_ref_sink (gtk_adjustment_new (snap_number (self, CLAMP (0.0, lower, upper)),
                                                            lower, upper, step, step * 10, 0));
  g_signal_connect_object (self->adjustment, "value-changed",
                           G_CALLBACK (on_adjustment_value_changed), self, G_CONNECT_SWAPPED);

  spin = gtk_spin_button_new (self->adjustment, 0, CLAMP (self->digits, 0, 12));
  gtk_spin_button_set_numeric (GTK_SPIN_BUTTON (spin), FALSE);
  gtk_spin_button_set_update_policy (GTK_SPIN_BUTTON (spin), GTK_UPDATE_ALWAYS);
  gtk_editable_set_width_chars (GTK_EDITABLE (spin), 12);
  gtk_widget_set_hexpand (spin, TRUE);
  g_signal_connect_object (spin, "input", G_CALLBACK (on_spin_input), self, 0);
  g_signal_connect_object (spin, "output", G_CALLBACK (on_spin_output), self, 0);
  self->input = spin;
  self->has_value = FALSE;
  label_input (self, spin);

  /* Nothing chosen yet: empty, with the placeholder. */
  gtk_editable_set_text (GTK_EDITABLE (spin), "");
  text = gtk_editable_get_delegate (GTK_EDITABLE (spin));
  if (GTK_IS_TEXT (text) && action->placeholder != NULL)
    gtk_text_set_placeholder_text (GTK_TEXT (text), action->placeholder);
  g_signal_connect_object (spin, "changed", G_CALLBACK (update), self, G_CONNECT_SWAPPED);

  row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  gtk_box_append (GTK_BOX (row), spin);
  if (action->unit != NULL)
    {
      GtkWidget *unit = gtk_label_new (action->unit);

      gtk_label_set_use_markup (GTK_LABEL (unit), FALSE);
      gtk_label_set_ellipsize (GTK_LABEL (unit), PANGO_ELLIPSIZE_END);
      gtk_label_set_max_width_chars (GTK_LABEL (unit), 20);
      gtk_widget_add_css_class (unit, "dim-label");
      gtk_box_append (GTK_BOX (row), unit);
    }
  gtk_box_append (self->input_box, row);

  hint = number_hint (self);
  if (hint != NULL)
    {
      GtkWidget *label = gtk_label_new (hint);

      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_widget_add_css_class (label, "caption");
      gtk_widget_add_css_class (label, "dim-label");
      gtk_box_append (self->input_box, label);
    }

  {
    g_autofree char *description = NULL;

    if (hint != NULL && action->unit != NULL)
      /* Translators: the description of a number field: its range, then its unit */
      description = g_strdup_printf (_("%s (%s)"), hint, action->unit);
    else
      description = g_strdup (hint ? hint : action->unit);
    if (description != NULL)
      gtk_accessible_update_property (GTK_ACCESSIBLE (spin),
                                      GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description, -1);
  }

  add_send_button (self);
}

static gboolean
on_scale_change_value (GtkRange             *range,
                       GtkScrollType         scroll,
                       double                value,
                       TriageResponseEditor *self)
{
  double step = self->action->step;
  double snapped = self->action->min + nearbyint ((value - self->action->min) / step) * step;

  /* Only the person moves the slider: even a click on the value it shows chooses it. */
  self->has_value = TRUE;
  gtk_scale_set_draw_value (GTK_SCALE (range), TRUE);
  gtk_range_set_value (range, CLAMP (snapped, self->action->min, self->grid_top));
  update (self);
  return TRUE;
}

static GtkWidget *
scale_end_label (double      value,
                 const char *text,
                 float       xalign)
{
  g_autofree char *number = triage_format_number (value, 0);
  g_autofree char *full = text ? g_strdup_printf ("%s · %s", number, text) : g_strdup (number);
  GtkWidget *label = gtk_label_new (full);

  gtk_label_set_use_markup (GTK_LABEL (label), FALSE);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_xalign (GTK_LABEL (label), xalign);
  gtk_label_set_justify (GTK_LABEL (label), xalign > 0.5 ? GTK_JUSTIFY_RIGHT : GTK_JUSTIFY_LEFT);
  gtk_widget_set_hexpand (label, TRUE);
  gtk_widget_add_css_class (label, "caption");
  gtk_widget_add_css_class (label, "dim-label");

  return label;
}

static void
build_scale (TriageResponseEditor *self)
{
  const AtpAction *action = self->action;
  double step = action->step;
  double steps = floor ((action->max - action->min) / step);
  double middle, marks_every;
  GtkWidget *scale, *ends;
  g_autofree char *description = NULL;

  self->grid_top = action->min + steps * step;
  middle = action->min + floor (steps / 2) * step;

  self->adjustment = g_object_ref_sink (gtk_adjustment_new (middle, action->min, self->grid_top,
                                                            step, step * MAX (1, floor (steps / 10)), 0));
  g_signal_connect_object (self->adjustment, "value-changed",
                           G_CALLBACK (on_adjustment_value_changed), self, G_CONNECT_SWAPPED);

  scale = gtk_scale_new (GTK_ORIENTATION_HORIZONTAL, self->adjustment);
  gtk_scale_set_digits (GTK_SCALE (scale), 0);
  gtk_scale_set_draw_value (GTK_SCALE (scale), FALSE);
  gtk_scale_set_value_pos (GTK_SCALE (scale), GTK_POS_TOP);
  gtk_range_set_round_digits (GTK_RANGE (scale), 0);
  gtk_widget_set_hexpand (scale, TRUE);
  g_signal_connect_object (scale, "change-value", G_CALLBACK (on_scale_change_value), self, 0);
  self->input = scale;
  self->has_value = FALSE;
  label_input (self, scale);

  /* A mark at every step, or at about ten evenly spaced steps of a long scale. */
  marks_every = steps + 1 <= MAX_SCALE_MARKS ? 1 : ceil (steps / 10);
  for (double k = 0; k <= steps; k += marks_every)
    gtk_scale_add_mark (GTK_SCALE (scale), action->min + k * step, GTK_POS_BOTTOM, NULL);
  if (fmod (steps, marks_every) != 0)
    gtk_scale_add_mark (GTK_SCALE (scale), self->grid_top, GTK_POS_BOTTOM, NULL);
  gtk_box_append (self->input_box, scale);

  ends = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  gtk_box_set_homogeneous (GTK_BOX (ends), TRUE);
  gtk_box_append (GTK_BOX (ends), scale_end_label (action->min, action->min_label, 0));
  gtk_box_append (GTK_BOX (ends), scale_end_label (action->max, action->max_label, 1));
  gtk_box_append (self->input_box, ends);

  description = g_strdup_printf ("%s – %s",
                                 action->min_label ? action->min_label : "",
                                 action->max_label ? action->max_label : "");
  if (action->min_label != NULL || action->max_label != NULL)
    gtk_accessible_update_property (GTK_ACCESSIBLE (scale),
                                    GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description, -1);

  if (steps > SCALE_SPIN_THRESHOLD)
    {
      GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
      GtkWidget *label = gtk_label_new (_("Exact value"));

      gtk_widget_add_css_class (label, "dim-label");
      self->scale_spin = gtk_spin_button_new (self->adjustment, 0, 0);
      gtk_spin_button_set_numeric (GTK_SPIN_BUTTON (self->scale_spin), TRUE);
      gtk_spin_button_set_snap_to_ticks (GTK_SPIN_BUTTON (self->scale_spin), TRUE);
      label_input (self, self->scale_spin);
      gtk_box_append (GTK_BOX (row), label);
      gtk_box_append (GTK_BOX (row), self->scale_spin);
      gtk_box_append (self->input_box, row);
    }

  add_send_button (self);
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

static void
build (TriageResponseEditor *self)
{
  const AtpAction *action = self->action;

  gtk_label_set_label (self->title_label, action->label);
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
      add_send_button (self);
      break;

    case ATP_RESPONSE_TYPE_MULTI_CHOICE:
      build_multi_choice (self);
      break;

    case ATP_RESPONSE_TYPE_TEXT:
      build_text (self);
      break;

    case ATP_RESPONSE_TYPE_NUMBER:
      build_number (self);
      break;

    case ATP_RESPONSE_TYPE_SCALE:
      build_scale (self);
      break;

    default:
      g_assert_not_reached ();
    }

  gtk_widget_set_visible (GTK_WIDGET (self->input_box),
                          gtk_widget_get_first_child (GTK_WIDGET (self->input_box)) != NULL);
  gtk_widget_add_css_class (GTK_WIDGET (self),
                            atp_response_type_to_string (action->response_type));
  update (self);
}

/* Actions */

static void
submit_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  triage_response_editor_submit (TRIAGE_RESPONSE_EDITOR (widget));
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
  g_clear_pointer (&self->notification, atp_notification_unref);
  g_free (self->reason);

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

  g_type_ensure (TRIAGE_TYPE_WRAP_BOX);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               RESOURCE_BASE "/widgets/triage-response-editor.ui");
  gtk_widget_class_bind_template_child (widget_class, TriageResponseEditor, title_label);
  gtk_widget_class_bind_template_child (widget_class, TriageResponseEditor, badges);
  gtk_widget_class_bind_template_child (widget_class, TriageResponseEditor, input_box);
  gtk_widget_class_bind_template_child (widget_class, TriageResponseEditor, reason_label);
  gtk_widget_class_bind_template_child (widget_class, TriageResponseEditor, button_box);

  gtk_widget_class_install_action (widget_class, "editor.submit", NULL, submit_action);
  gtk_widget_class_set_css_name (widget_class, "responseeditor");
}

static void
triage_response_editor_init (TriageResponseEditor *self)
{
  GtkEventController *shortcuts;
  GtkShortcutTrigger *trigger;

  triage_widgets_style_init ();
  gtk_widget_init_template (GTK_WIDGET (self));

  self->editable = TRUE;
  self->digits = -1;
  self->option_buttons = g_ptr_array_new ();

  /* Ctrl+Return sends from anywhere in the editor. In the capture phase,
   * so a text view does not take it as a new line first. */
  shortcuts = gtk_shortcut_controller_new ();
  gtk_event_controller_set_propagation_phase (shortcuts, GTK_PHASE_CAPTURE);
  trigger = gtk_alternative_trigger_new (gtk_keyval_trigger_new (GDK_KEY_Return, GDK_CONTROL_MASK),
                                         gtk_keyval_trigger_new (GDK_KEY_KP_Enter, GDK_CONTROL_MASK));
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (shortcuts),
                                        gtk_shortcut_new (trigger,
                                                          gtk_named_action_new ("editor.submit")));
  gtk_widget_add_controller (GTK_WIDGET (self), shortcuts);
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
  build (self);

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
  else if (self->input != NULL)
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

  emit_submit (self, data);
  return TRUE;
}

/* For the tests */

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
