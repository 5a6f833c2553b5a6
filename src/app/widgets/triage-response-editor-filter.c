/* triage-response-editor-filter.c — a search over a long multi_choice's options
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-response-editor"

#include <glib/gi18n.h>
#include <string.h>

#include "triage-atp-format.h"
#include "triage-decision-format.h"
#include "triage-response-editor-private.h"
#include "triage-scroll-chain.h"

/*
 * A choice of more than TRIAGE_CHOICE_MAX_RADIO_OPTIONS options is a
 * drop-down with a search; a multi_choice that long keeps its check buttons
 * (several are ticked at once) and gets a search entry above them, as the
 * drop-down has: typing shows the options whose label holds what is typed,
 * whatever the case and accents, and the ticked ones stay shown (the counter
 * below counts them all). The options scroll within a bounded height, and
 * hand the wheel to the page at their ends (triage-scroll-chain.c).
 */

#define OPTIONS_MAX_HEIGHT 320

static void
refilter (TriageResponseEditor *self)
{
  GtkWidget *entry = self->option_filter;
  g_autofree char *query = triage_format_fold (gtk_editable_get_text (GTK_EDITABLE (entry)));
  guint matched = 0;

  for (guint i = 0; i < self->option_buttons->len; i++)
    {
      GtkWidget *button = g_ptr_array_index (self->option_buttons, i);
      const AtpOption *option = g_ptr_array_index (self->action->options, i);
      g_autofree char *label = triage_format_fold (triage_atp_label (option->label, option->value));
      gboolean matches = strstr (label, query) != NULL;

      gtk_widget_set_visible (button,
                              matches || gtk_check_button_get_active (GTK_CHECK_BUTTON (button)));
      matched += matches;
    }

  /* Said even with ticked options shown: they are there for being ticked. */
  gtk_widget_set_visible (self->option_filter_empty, matched == 0);
}

static void
on_filter_stop (TriageResponseEditor *self)
{
  gtk_editable_set_text (GTK_EDITABLE (self->option_filter), "");
}

/**
 * _triage_response_editor_add_option_filter:
 * @self: a multi_choice's editor, its check buttons built in self->input
 *
 * Above TRIAGE_CHOICE_MAX_RADIO_OPTIONS options, puts a search entry that
 * filters them above the check buttons, and the buttons in a scrolled
 * window; fewer are left as they are.
 */
void
_triage_response_editor_add_option_filter (TriageResponseEditor *self)
{
  GtkWidget *scrolled;

  if (self->action->options->len <= TRIAGE_CHOICE_MAX_RADIO_OPTIONS)
    return;

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

  /* The group moves into a scrolled window below the entry. */
  g_object_ref (self->input);
  gtk_box_remove (self->input_box, self->input);
  scrolled = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER,
                                  GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (scrolled), OPTIONS_MAX_HEIGHT);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scrolled), TRUE);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), self->input);
  g_object_unref (self->input);
  /* The wheel over the options moves the page when they cannot move. */
  triage_scroll_chain_attach (GTK_SCROLLED_WINDOW (scrolled));

  gtk_box_append (self->input_box, self->option_filter);
  gtk_box_append (self->input_box, scrolled);
  gtk_box_append (self->input_box, self->option_filter_empty);
}
