/* triage-window-actions.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-window"

#include "triage-window-private.h"

/*
 * The window's keyboard paths: back to the list (or from a preview), Alt+1
 * and Alt+2, Ctrl+F, opening the selected request and the next or previous
 * one; and win.preview-text, for "Show the Whole Request".
 */

static void
back_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  TriageWindow *self = TRIAGE_WINDOW (widget);

  /* From a preview: back to the request it was opened from. */
  if (_triage_window_preview_shown (self))
    {
      _triage_window_close_preview (self);
      return;
    }

  if (_triage_window_history_shown (self))
    {
      adw_leaflet_set_visible_child (self->history_leaflet, self->history_list_page);
      return;
    }

  adw_leaflet_set_visible_child (self->leaflet, self->sidebar);
  triage_inbox_pane_focus_list (self->inbox_pane);
}

/* Alt+1, Alt+2: the view, with the keyboard in it (the history's search,
 * the inbox's list) rather than left on a switcher. */
static void
show_view_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  TriageWindow *self = TRIAGE_WINDOW (widget);
  const char *name = g_variant_get_string (parameter, NULL);

  if (g_strcmp0 (name, "inbox") != 0 && g_strcmp0 (name, "history") != 0)
    return;

  triage_window_show_view (self, name);
  if (_triage_window_history_shown (self))
    triage_history_view_focus_search (self->history_view);
  else if (adw_leaflet_get_visible_child (self->leaflet) == self->sidebar)
    triage_inbox_pane_focus_list (self->inbox_pane);
}

static void
search_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  TriageWindow *self = TRIAGE_WINDOW (widget);

  /* Ctrl+F is the application's: in a preview, it searches the preview. */
  if (_triage_window_preview_shown (self))
    {
      gtk_widget_activate_action (GTK_WIDGET (triage_attachment_page_get_view (self->attachment_page)),
                                  "attachment.find", NULL);
      return;
    }

  if (_triage_window_history_shown (self))
    {
      adw_leaflet_set_visible_child (self->history_leaflet, self->history_list_page);
      triage_history_view_focus_search (self->history_view);
    }
  else
    {
      adw_leaflet_set_visible_child (self->leaflet, self->sidebar);
      triage_inbox_pane_focus_search (self->inbox_pane);
    }
}

static void
open_request_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  TriageWindow *self = TRIAGE_WINDOW (widget);

  triage_window_show_view (self, "inbox");
  triage_inbox_pane_open_selected (self->inbox_pane);
}

static void
next_request_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  TriageWindow *self = TRIAGE_WINDOW (widget);

  triage_window_show_view (self, "inbox");
  if (g_str_equal (action_name, "win.next-request"))
    triage_inbox_pane_select_next (self->inbox_pane);
  else
    triage_inbox_pane_select_previous (self->inbox_pane);
}

/* The window's actions, for its class_init. Their keys are the
 * application's accelerators (triage-application.c), so the shortcuts
 * window lists them. */
void
_triage_window_install_actions (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.back", NULL, back_action);
  gtk_widget_class_install_action (widget_class, "win.show-view", "s", show_view_action);
  gtk_widget_class_install_action (widget_class, "win.search", NULL, search_action);
  gtk_widget_class_install_action (widget_class, "win.open-request", NULL, open_request_action);
  gtk_widget_class_install_action (widget_class, "win.next-request", NULL, next_request_action);
  gtk_widget_class_install_action (widget_class, "win.previous-request", NULL, next_request_action);
  gtk_widget_class_install_action (widget_class, "win.preview-text", "(sss)",
                                   _triage_window_preview_text_action);
}
