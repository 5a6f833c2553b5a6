/* triage-aitp-view-options.c — the options of an AITP decision, by its type
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-aitp"

#include <glib/gi18n.h>
#include <string.h>

#include "triage-aitp-picture.h"
#include "triage-aitp-product-card.h"
#include "triage-aitp-view-private.h"
#include "triage-decision-format.h"
#include "triage-whole-text.h"
#include "triage-wrap-box.h"

/*
 * What the person answers with, by the request's type:
 * - radio: radio buttons in a list, each option's description under its
 *   name; past seven options a drop-down list instead;
 * - checkbox: check buttons in a list;
 * - confirmation: the question (the header) and a button per option, each
 *   one an answer;
 * - products: a card per product (triage-aitp-product-card.c).
 * Every option's name is the agent's text, shown as plain text. Options with
 * a picture show a placeholder until the person asks for pictures.
 */

#define OPTION_ID_KEY TRIAGE_AITP_VIEW_OPTION_ID_KEY
#define OPTION_CHECK_KEY "triage-aitp-option-check"
#define ROW_PICTURE_SIZE 48

static const char *
widget_option_id (GtkWidget *widget)
{
  return g_object_get_data (G_OBJECT (widget), OPTION_ID_KEY);
}

static void
on_option_changed (TriageAitpView *self)
{
  _triage_aitp_view_update_state (self);
  triage_draft_keeper_changed (self->drafts);
}

static const char *
option_label (const AtpAitpOption *option)
{
  return option->name ? option->name : option->id;
}

/* An option's name as a widget shows it: cut, with places to break
 * (triage-decision-format.h: a label is laid out whole at every measure). */
static char *
shown_label (const AtpAitpOption *option,
             gsize                max_chars)
{
  return triage_format_shown_text (option_label (option), max_chars);
}

/* Its description as shown, or NULL. */
static char *
shown_description (const AtpAitpOption *option)
{
  return option->description ? triage_format_shown_text (option->description, TRIAGE_SHOWN_ROW_CHARS)
                             : NULL;
}

/* One line of a list row: never wrapped, ellipsized at the row's end. A
 * wrapping label (AdwActionRow's title and subtitle) is laid out again at
 * every width it is measured for, and a boxed list in a clamp in a scrolled
 * window measures it many times: three options with 200 characters each
 * kept the main loop busy for 100 ms. A line that does not wrap is measured
 * once; the whole text is in the tooltip and "Show the Whole Request". */
static GtkWidget *
row_line_new (const char *text,
              const char *css_class)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_use_markup (GTK_LABEL (label), FALSE);
  gtk_label_set_single_line_mode (GTK_LABEL (label), TRUE);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, css_class);

  return label;
}

/* A list row for a radio or checkbox option: the button, the name and the
 * description on a line each, the picture's place. Activating the row
 * toggles its button (on_option_row_activated()). */
static GtkWidget *
option_row_new (TriageAitpView      *self,
                const AtpAitpOption *option,
                gboolean             radio,
                GtkCheckButton      *group)
{
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *lines = gtk_box_new (GTK_ORIENTATION_VERTICAL, 3);
  g_autofree char *label = triage_format_cut_text (option_label (option), TRIAGE_SHOWN_LABEL_CHARS);
  g_autofree char *description = option->description
                                 ? triage_format_cut_text (option->description, TRIAGE_SHOWN_ROW_CHARS)
                                 : NULL;
  g_autofree char *tooltip = description ? g_strdup_printf ("%s\n%s", label, description) : NULL;
  /* A radio option says so: GTK 4.8 keeps a grouped check button a "check box". */
  GtkWidget *check = g_object_new (GTK_TYPE_CHECK_BUTTON,
                                   "accessible-role", radio ? GTK_ACCESSIBLE_ROLE_RADIO
                                                            : GTK_ACCESSIBLE_ROLE_CHECKBOX,
                                   "valign", GTK_ALIGN_CENTER,
                                   NULL);

  gtk_widget_add_css_class (box, "aitp-option");
  gtk_widget_set_valign (lines, GTK_ALIGN_CENTER);
  gtk_widget_set_hexpand (lines, TRUE);
  gtk_box_append (GTK_BOX (lines), row_line_new (label, "title"));
  if (description != NULL)
    gtk_box_append (GTK_BOX (lines), row_line_new (description, "dim-label"));
  gtk_widget_set_tooltip_text (row, tooltip ? tooltip : label);

  if (group != NULL)
    gtk_check_button_set_group (GTK_CHECK_BUTTON (check), group);
  gtk_accessible_update_property (GTK_ACCESSIBLE (check),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, label,
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description ? description : "",
                                  -1);
  g_object_set_data_full (G_OBJECT (check), OPTION_ID_KEY, g_strdup (option->id), g_free);
  g_signal_connect_object (check, "notify::active", G_CALLBACK (on_option_changed), self,
                           G_CONNECT_SWAPPED);
  gtk_box_append (GTK_BOX (box), check);
  gtk_box_append (GTK_BOX (box), lines);
  g_ptr_array_add (self->option_widgets, check);

  if (option->image_url != NULL)
    {
      GtkWidget *picture = triage_aitp_picture_new (option->image_url, option_label (option),
                                                    ROW_PICTURE_SIZE);

      gtk_widget_set_valign (picture, GTK_ALIGN_CENTER);
      gtk_box_append (GTK_BOX (box), picture);
      g_ptr_array_add (self->pictures, picture);
    }

  g_object_set_data (G_OBJECT (row), OPTION_CHECK_KEY, check);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  /* One stop of Tab an option, its button: the row took one of its own
   * before it, a "list item" without a name. A click on it still counts. */
  gtk_widget_set_focusable (row, FALSE);

  return row;
}

/* A click anywhere on an option's row is a click on its button. */
static void
on_option_row_activated (GtkListBox    *list,
                         GtkListBoxRow *row)
{
  GtkWidget *check = g_object_get_data (G_OBJECT (row), OPTION_CHECK_KEY);

  if (check != NULL && gtk_widget_is_sensitive (check))
    gtk_widget_activate (check);
}

/* Named by the "Answer" heading above it: GTK 4.8 would have a screen reader
 * say "GtkListBox". */
static GtkWidget *
boxed_list_new (TriageAitpView *self)
{
  GtkWidget *list = gtk_list_box_new ();

  gtk_accessible_update_relation (GTK_ACCESSIBLE (list),
                                  GTK_ACCESSIBLE_RELATION_LABELLED_BY, self->answer_heading, NULL,
                                  -1);

  gtk_list_box_set_selection_mode (GTK_LIST_BOX (list), GTK_SELECTION_NONE);
  gtk_widget_add_css_class (list, "boxed-list");
  /* Separated without borders: see "aitp-list" in style.css. */
  gtk_widget_add_css_class (list, "aitp-list");

  return list;
}

static void
build_list (TriageAitpView *self,
            gboolean        radio)
{
  GtkWidget *list = boxed_list_new (self);
  GtkCheckButton *group = NULL;

  g_signal_connect (list, "row-activated", G_CALLBACK (on_option_row_activated), NULL);

  for (guint i = 0; i < self->request->options->len; i++)
    {
      const AtpAitpOption *option = g_ptr_array_index (self->request->options, i);

      gtk_list_box_append (GTK_LIST_BOX (list), option_row_new (self, option, radio, group));
      if (radio && group == NULL)
        group = g_ptr_array_index (self->option_widgets, 0);
    }

  gtk_box_append (self->options_box, list);
}

static void
on_combo_selected (TriageAitpView *self)
{
  guint selected = adw_combo_row_get_selected (self->combo);
  const AtpAitpOption *option = NULL;
  g_autofree char *description = NULL;

  if (selected < self->request->options->len)
    option = g_ptr_array_index (self->request->options, selected);
  if (option != NULL)
    description = shown_description (option);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (self->combo), description ? description : "");
  _triage_aitp_view_update_state (self);
  triage_draft_keeper_changed (self->drafts);
}

/* Past seven options: one row to pick from, nothing picked at first (an
 * answer is never chosen for the person). */
static void
build_combo (TriageAitpView *self)
{
  GtkWidget *list = boxed_list_new (self);
  g_autoptr(GtkStringList) names = gtk_string_list_new (NULL);

  for (guint i = 0; i < self->request->options->len; i++)
    {
      g_autofree char *name = triage_format_cut_text (option_label (g_ptr_array_index (self->request->options, i)),
                                                      TRIAGE_SHOWN_ROW_CHARS);

      gtk_string_list_append (names, name);
    }

  self->combo = ADW_COMBO_ROW (adw_combo_row_new ());
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (self->combo), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->combo), _("Choice"));
  adw_combo_row_set_model (self->combo, G_LIST_MODEL (names));
  adw_combo_row_set_selected (self->combo, GTK_INVALID_LIST_POSITION);
  g_signal_connect_object (self->combo, "notify::selected", G_CALLBACK (on_combo_selected), self,
                           G_CONNECT_SWAPPED);
  gtk_list_box_append (GTK_LIST_BOX (list), GTK_WIDGET (self->combo));
  gtk_box_append (self->options_box, list);
}

static void
on_confirmation_clicked (TriageAitpView *self,
                         GtkButton      *button)
{
  g_autoptr(GArray) choices = g_array_new (FALSE, TRUE, sizeof (TriageAitpChoice));
  TriageAitpChoice choice = { widget_option_id (GTK_WIDGET (button)), 0 };

  g_array_append_val (choices, choice);
  _triage_aitp_view_answer (self, choices, gtk_button_get_label (button));
}

/* A question with a button per option (it may have more than two). */
static void
build_buttons (TriageAitpView *self)
{
  GtkWidget *box = triage_wrap_box_new ();

  for (guint i = 0; i < self->request->options->len; i++)
    {
      const AtpAitpOption *option = g_ptr_array_index (self->request->options, i);
      g_autofree char *label = shown_label (option, TRIAGE_SHOWN_LABEL_CHARS);
      g_autofree char *description = shown_description (option);
      GtkWidget *button = gtk_button_new_with_label (label);

      gtk_label_set_wrap (GTK_LABEL (gtk_button_get_child (GTK_BUTTON (button))), TRUE);
      gtk_widget_add_css_class (button, "pill");
      if (description != NULL)
        {
          gtk_widget_set_tooltip_text (button, description);
          gtk_accessible_update_property (GTK_ACCESSIBLE (button),
                                          GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description, -1);
        }
      g_object_set_data_full (G_OBJECT (button), OPTION_ID_KEY, g_strdup (option->id), g_free);
      g_signal_connect_object (button, "clicked", G_CALLBACK (on_confirmation_clicked), self,
                               G_CONNECT_SWAPPED);
      g_ptr_array_add (self->option_widgets, button);
      triage_wrap_box_append (TRIAGE_WRAP_BOX (box), button);
    }

  gtk_box_append (self->options_box, box);
}

static void
build_cards (TriageAitpView *self)
{
  for (guint i = 0; i < self->request->options->len; i++)
    {
      GtkWidget *card = triage_aitp_product_card_new (g_ptr_array_index (self->request->options, i),
                                                      self->built_at);

      g_object_set_data_full (G_OBJECT (card), OPTION_ID_KEY,
                              g_strdup (((AtpAitpOption *) g_ptr_array_index (self->request->options, i))->id),
                              g_free);
      g_signal_connect_object (card, "changed", G_CALLBACK (on_option_changed), self,
                               G_CONNECT_SWAPPED);
      g_ptr_array_add (self->option_widgets, card);
      g_ptr_array_add (self->pictures, triage_aitp_product_card_get_picture (TRIAGE_AITP_PRODUCT_CARD (card)));
      gtk_box_append (self->options_box, card);
    }
}

void
_triage_aitp_view_clear_options (TriageAitpView *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->options_box))) != NULL)
    gtk_box_remove (self->options_box, child);
  g_ptr_array_set_size (self->option_widgets, 0);
  g_ptr_array_set_size (self->pictures, 0);
  self->combo = NULL;
}

void
_triage_aitp_view_build_options (TriageAitpView *self)
{
  _triage_aitp_view_clear_options (self);

  switch (self->request->type)
    {
    case ATP_AITP_DECISION_CHECKBOX:
      build_list (self, FALSE);
      break;

    case ATP_AITP_DECISION_CONFIRMATION:
      build_buttons (self);
      break;

    case ATP_AITP_DECISION_PRODUCTS:
      build_cards (self);
      break;

    case ATP_AITP_DECISION_RADIO:
    default:
      if (self->request->options->len > TRIAGE_AITP_VIEW_MAX_RADIO_BUTTONS)
        build_combo (self);
      else
        build_list (self, TRUE);
      break;
    }

  /* The question's own buttons answer it; the others gather, then Send. */
  gtk_widget_set_visible (self->send_row, self->request->type != ATP_AITP_DECISION_CONFIRMATION);
}

/**
 * _triage_aitp_view_dup_choices:
 *
 * Returns: (transfer full) (element-type TriageAitpChoice): what is chosen
 *   in the lists, the drop-down or the cards (ids owned by the request)
 */
GArray *
_triage_aitp_view_dup_choices (TriageAitpView *self)
{
  GArray *choices = g_array_new (FALSE, TRUE, sizeof (TriageAitpChoice));

  if (self->combo != NULL)
    {
      guint selected = adw_combo_row_get_selected (self->combo);

      if (selected < self->request->options->len)
        {
          TriageAitpChoice choice = {
            ((AtpAitpOption *) g_ptr_array_index (self->request->options, selected))->id, 0
          };

          g_array_append_val (choices, choice);
        }
      return choices;
    }

  for (guint i = 0; i < self->option_widgets->len; i++)
    {
      GtkWidget *widget = g_ptr_array_index (self->option_widgets, i);
      TriageAitpChoice choice = { widget_option_id (widget), 0 };

      if (TRIAGE_IS_AITP_PRODUCT_CARD (widget))
        {
          if (triage_aitp_product_card_get_choice (TRIAGE_AITP_PRODUCT_CARD (widget), &choice))
            g_array_append_val (choices, choice);
        }
      else if (GTK_IS_CHECK_BUTTON (widget) && gtk_check_button_get_active (GTK_CHECK_BUTTON (widget)))
        g_array_append_val (choices, choice);
    }

  return choices;
}

/* Whether what is chosen makes an answer: one for radio, at least one otherwise. */
gboolean
_triage_aitp_view_can_send (TriageAitpView *self)
{
  g_autoptr(GArray) choices = NULL;

  if (self->request == NULL || self->request->type == ATP_AITP_DECISION_CONFIRMATION)
    return FALSE;

  choices = _triage_aitp_view_dup_choices (self);
  return self->request->type == ATP_AITP_DECISION_RADIO ? choices->len == 1 : choices->len > 0;
}

void
_triage_aitp_view_set_editable (TriageAitpView *self,
                                gboolean        editable)
{
  if (self->combo != NULL)
    gtk_widget_set_sensitive (GTK_WIDGET (self->combo), editable);

  for (guint i = 0; i < self->option_widgets->len; i++)
    {
      GtkWidget *widget = g_ptr_array_index (self->option_widgets, i);

      if (TRIAGE_IS_AITP_PRODUCT_CARD (widget))
        triage_aitp_product_card_set_editable (TRIAGE_AITP_PRODUCT_CARD (widget), editable);
      else
        gtk_widget_set_sensitive (widget, editable);
    }
}

/* The options chosen in an answer (given in the history, or elsewhere),
 * shown as chosen: the lists' buttons, the drop-down, the cards with their
 * variants and quantities. */
void
_triage_aitp_view_show_answer (TriageAitpView *self,
                               JsonNode       *response_data)
{
  JsonNode *member = NULL;
  JsonArray *options;

  if (self->request == NULL || response_data == NULL || !JSON_NODE_HOLDS_OBJECT (response_data))
    return;
  member = json_object_get_member (json_node_get_object (response_data), "options");
  if (member == NULL || !JSON_NODE_HOLDS_ARRAY (member))
    return;
  options = json_node_get_array (member);

  for (guint i = 0; i < json_array_get_length (options); i++)
    {
      JsonNode *node = json_array_get_element (options, i);
      JsonObject *selected = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
      const char *id = selected ? json_object_get_string_member_with_default (selected, "id", NULL) : NULL;
      const AtpAitpOption *product = NULL;
      GtkWidget *widget;

      if (id == NULL || atp_aitp_request_find_option (self->request, id, &product) == NULL)
        continue;

      if (self->combo != NULL)
        {
          for (guint o = 0; o < self->request->options->len; o++)
            if (g_ptr_array_index (self->request->options, o) == product)
              adw_combo_row_set_selected (self->combo, o);
          continue;
        }

      widget = triage_aitp_view_get_option_widget (self, product->id);
      if (TRIAGE_IS_AITP_PRODUCT_CARD (widget))
        {
          TriageAitpProductCard *card = TRIAGE_AITP_PRODUCT_CARD (widget);

          if (!g_str_equal (id, product->id))
            triage_aitp_product_card_select_variant (card, id);
          triage_aitp_product_card_set_quantity (card, json_object_get_int_member_with_default (selected, "quantity", 1));
          triage_aitp_product_card_set_chosen (card, TRUE);
        }
      else if (GTK_IS_CHECK_BUTTON (widget))
        gtk_check_button_set_active (GTK_CHECK_BUTTON (widget), TRUE);
      else if (GTK_IS_BUTTON (widget))
        gtk_widget_add_css_class (widget, "suggested-action");
    }
}

/* Whether @text is longer than @max_chars (no more bytes: no more characters either). */
static gboolean
longer_than (const char *text,
             gsize       max_chars)
{
  return text != NULL && strlen (text) > max_chars && (gsize) g_utf8_strlen (text, -1) > max_chars;
}

/* Whether an option's name or description is shown cut (by a row, a button,
 * the drop-down or a card): "Show the Whole Request" then shows it whole. */
gboolean
_triage_aitp_view_options_are_cut (TriageAitpView *self)
{
  for (guint i = 0; self->request != NULL && i < self->request->options->len; i++)
    {
      const AtpAitpOption *option = g_ptr_array_index (self->request->options, i);

      if (longer_than (option_label (option), TRIAGE_SHOWN_LABEL_CHARS) ||
          longer_than (option->description, TRIAGE_SHOWN_ROW_CHARS))
        return TRUE;
    }

  return FALSE;
}

/* The request's whole text (triage_whole_text_dup()), then every option's
 * name and description, whole. */
char *
_triage_aitp_view_dup_whole_text (TriageAitpView *self)
{
  g_autofree char *request = triage_whole_text_dup (self->notification);
  GString *text = g_string_new (request);

  for (guint i = 0; self->request != NULL && i < self->request->options->len; i++)
    {
      const AtpAitpOption *option = g_ptr_array_index (self->request->options, i);

      g_string_append_printf (text, "\n%s\n", option_label (option));
      if (option->description != NULL && *option->description != '\0')
        g_string_append_printf (text, "%s\n", option->description);
    }

  return g_string_free (text, FALSE);
}

/* A picture that arrived (or failed): every place that shows it takes it. */
void
_triage_aitp_view_take_picture (TriageAitpView *self,
                                const char     *url,
                                GdkPaintable   *image,
                                const char     *error_message)
{
  for (guint i = 0; i < self->pictures->len; i++)
    triage_aitp_picture_take (g_ptr_array_index (self->pictures, i), url, image, error_message);
}

/**
 * triage_aitp_view_get_option_widget:
 * @self: a #TriageAitpView
 * @option_id: an option of the request shown (a product's id for a card)
 *
 * Returns: (transfer none) (nullable): its check button, button or product card
 */
GtkWidget *
triage_aitp_view_get_option_widget (TriageAitpView *self,
                                    const char     *option_id)
{
  g_return_val_if_fail (TRIAGE_IS_AITP_VIEW (self), NULL);
  g_return_val_if_fail (option_id != NULL, NULL);

  for (guint i = 0; i < self->option_widgets->len; i++)
    {
      GtkWidget *widget = g_ptr_array_index (self->option_widgets, i);

      if (g_strcmp0 (widget_option_id (widget), option_id) == 0)
        return widget;
    }

  return NULL;
}
