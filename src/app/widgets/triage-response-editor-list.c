/* triage-response-editor-list.c — a long multi_choice's options: a list that scales, and its search
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-response-editor"

#include <glib/gi18n.h>

#include "triage-atp-format.h"
#include "triage-choice-option-list.h"
#include "triage-decision-format.h"
#include "triage-response-editor-private.h"
#include "triage-scroll-chain.h"

/*
 * A choice of more than TRIAGE_CHOICE_MAX_RADIO_OPTIONS options is a
 * drop-down with a search; a multi_choice that long (several are ticked at
 * once) is a GtkListView of check buttons over a GListModel of its options
 * (TriageChoiceOption, which holds whether each is ticked), with a search
 * entry above, as the drop-down has: the list makes a row only for what is
 * on screen, so 20,000 options build as fast as 20. Typing shows the options
 * whose label holds what is typed, whatever the case and accents, and the
 * ticked ones stay shown (the counter below counts them all). A row is the
 * check button fewer options get: the same role, name and description, Tab
 * and Space; the arrows move between rows. The list scrolls within a bounded
 * height, and hands the wheel to the page at its ends
 * (triage-scroll-chain.c).
 */

#define OPTIONS_MAX_HEIGHT 320

/**
 * _triage_response_editor_get_option_active:
 * @self: a choice's or a multi_choice's editor
 * @position: an option's index in the action's options
 *
 * Returns: whether the option is ticked, in its check button or its list
 */
gboolean
_triage_response_editor_get_option_active (TriageResponseEditor *self,
                                           guint                 position)
{
  if (self->option_list != NULL)
    {
      TriageChoiceOption *option = triage_choice_option_list_peek (self->option_list, position);

      return option != NULL && triage_choice_option_get_active (option);
    }
  if (position < self->option_buttons->len)
    return gtk_check_button_get_active (g_ptr_array_index (self->option_buttons, position));

  return FALSE;
}

/* Ticks or unticks an option as the person would (a row shown follows). */
void
_triage_response_editor_set_option_active (TriageResponseEditor *self,
                                           guint                 position,
                                           gboolean              active)
{
  if (self->option_list != NULL)
    {
      g_autoptr(TriageChoiceOption) option = g_list_model_get_item (G_LIST_MODEL (self->option_list),
                                                                    position);

      triage_choice_option_set_active (option, active);
      _triage_response_editor_update (self);
    }
  else if (position < self->option_buttons->len)
    gtk_check_button_set_active (g_ptr_array_index (self->option_buttons, position), active);
}

static gboolean
option_is_shown (gpointer item,
                 gpointer user_data)
{
  TriageResponseEditor *self = user_data;

  return triage_choice_option_get_active (item) ||
         triage_choice_option_matches (item, self->option_query);
}

/* Without a search, the filter takes every option without asking for any
 * (GTK_FILTER_MATCH_ALL): the list makes only the rows it shows. */
static void
refilter (TriageResponseEditor *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->option_filter));
  GListModel *options = G_LIST_MODEL (self->option_list);
  guint n = g_list_model_get_n_items (options);
  gboolean matched = TRUE;

  g_clear_pointer (&self->option_query, g_free);
  if (*text == '\0')
    {
      gtk_custom_filter_set_filter_func (self->option_list_filter, NULL, NULL, NULL);
      gtk_widget_set_visible (self->option_filter_empty, FALSE);
      return;
    }

  self->option_query = triage_format_fold (text);
  gtk_custom_filter_set_filter_func (self->option_list_filter, option_is_shown, self, NULL);

  /* Said even with ticked options shown: they are there for being ticked. */
  matched = FALSE;
  for (guint i = 0; i < n && !matched; i++)
    {
      g_autoptr(TriageChoiceOption) option = g_list_model_get_item (options, i);

      matched = triage_choice_option_matches (option, self->option_query);
    }
  gtk_widget_set_visible (self->option_filter_empty, !matched);
}

static void
on_filter_stop (TriageResponseEditor *self)
{
  gtk_editable_set_text (GTK_EDITABLE (self->option_filter), "");
}

static void
on_row_setup (GtkSignalListItemFactory *factory,
              GtkListItem              *item,
              TriageResponseEditor     *self)
{
  GtkWidget *button = _triage_response_editor_new_option_button (FALSE);

  /* The check button takes the focus and Space, as fewer options' do. */
  gtk_list_item_set_activatable (item, FALSE);
  g_signal_connect_object (button, "toggled", G_CALLBACK (_triage_response_editor_update), self,
                           G_CONNECT_SWAPPED);
  gtk_list_item_set_child (item, button);
}

static void
on_row_bind (GtkSignalListItemFactory *factory,
             GtkListItem              *item,
             TriageResponseEditor     *self)
{
  TriageChoiceOption *option = gtk_list_item_get_item (item);
  GtkWidget *button = gtk_list_item_get_child (item);
  GBinding *binding;

  _triage_response_editor_set_option_label (button, triage_choice_option_get_shown_label (option));
  /* What the other rows say (_triage_response_editor_sync_description()). */
  if (self->description != NULL && *self->description != '\0')
    gtk_accessible_update_property (GTK_ACCESSIBLE (button),
                                    GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, self->description, -1);
  else
    gtk_accessible_reset_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION);
  binding = g_object_bind_property (option, "active", button, "active",
                                    G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  g_object_set_data (G_OBJECT (item), "triage-option-binding", binding);
}

static void
on_row_unbind (GtkSignalListItemFactory *factory,
               GtkListItem              *item,
               TriageResponseEditor     *self)
{
  GBinding *binding = g_object_steal_data (G_OBJECT (item), "triage-option-binding");

  if (binding != NULL)
    g_binding_unbind (binding);
}

/**
 * _triage_response_editor_foreach_option_button:
 * @self: an editor
 * @func: called with each option's check button that exists (of a long
 *   list, its rows on screen)
 */
void
_triage_response_editor_foreach_option_button (TriageResponseEditor *self,
                                               GFunc                 func,
                                               gpointer              user_data)
{
  if (self->option_list == NULL)
    {
      g_ptr_array_foreach (self->option_buttons, func, user_data);
      return;
    }

  for (GtkWidget *row = gtk_widget_get_first_child (self->input); row != NULL;
       row = gtk_widget_get_next_sibling (row))
    {
      GtkWidget *button = gtk_widget_get_first_child (row);

      if (GTK_IS_CHECK_BUTTON (button))
        func (button, user_data);
    }
}

static GtkWidget *
option_list_view_new (TriageResponseEditor *self)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  GtkFilterListModel *shown;
  GtkWidget *view;

  self->option_list = triage_choice_option_list_new (self->action);
  self->option_list_filter = gtk_custom_filter_new (NULL, NULL, NULL);
  shown = gtk_filter_list_model_new (g_object_ref (G_LIST_MODEL (self->option_list)),
                                     g_object_ref (GTK_FILTER (self->option_list_filter)));

  g_signal_connect_object (factory, "setup", G_CALLBACK (on_row_setup), self, 0);
  g_signal_connect_object (factory, "bind", G_CALLBACK (on_row_bind), self, 0);
  g_signal_connect_object (factory, "unbind", G_CALLBACK (on_row_unbind), self, 0);

  view = gtk_list_view_new (GTK_SELECTION_MODEL (gtk_no_selection_new (G_LIST_MODEL (shown))),
                            factory);
  gtk_widget_add_css_class (view, "option-list");
  _triage_response_editor_label_input (self, view);

  return view;
}

/**
 * _triage_response_editor_build_option_list:
 * @self: a multi_choice's editor of more than TRIAGE_CHOICE_MAX_RADIO_OPTIONS options
 *
 * Puts a search entry, the options' list view in a scrolled window below it
 * (self->input), and what says that nothing matches.
 */
void
_triage_response_editor_build_option_list (TriageResponseEditor *self)
{
  GtkWidget *scrolled;

  self->option_filter = gtk_search_entry_new ();
  g_object_set (self->option_filter, "placeholder-text", _("Search the options"), NULL);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->option_filter),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Search the options"), -1);
  g_signal_connect_object (self->option_filter, "search-changed", G_CALLBACK (refilter), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->option_filter, "stop-search", G_CALLBACK (on_filter_stop), self,
                           G_CONNECT_SWAPPED);

  self->option_filter_empty = gtk_label_new (_("No option matches the search"));
  gtk_label_set_xalign (GTK_LABEL (self->option_filter_empty), 0);
  gtk_widget_add_css_class (self->option_filter_empty, "dim-label");
  gtk_widget_set_visible (self->option_filter_empty, FALSE);

  self->input = option_list_view_new (self);
  scrolled = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER,
                                  GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (scrolled), OPTIONS_MAX_HEIGHT);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scrolled), TRUE);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), self->input);
  /* The wheel over the options moves the page when they cannot move. */
  triage_scroll_chain_attach (GTK_SCROLLED_WINDOW (scrolled));

  gtk_box_append (self->input_box, self->option_filter);
  gtk_box_append (self->input_box, scrolled);
  gtk_box_append (self->input_box, self->option_filter_empty);
}
