/* triage-window-dialogs.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-window"

#include "triage-window-private.h"

/*
 * The keyboard back in the window, where it was, when a window of the app
 * over it closes: Preferences, About, a confirmation, a file chooser.
 *
 * As a window stops being the active one, GTK 4.8 takes the keyboard's path
 * out of it (each container forgets its focus child; the focus widget alone
 * is kept) and lays it again when the window is active again. Which window
 * is made active once a dialog closes is the window manager's doing: with
 * none (Xvfb, a bare X session) the X focus goes back to the root window,
 * the window stays inactive, and Tab, finding no path, started over at its
 * first control (the Inbox tab), as it did with a bare AdwPreferencesWindow.
 * So a window transient for this one that took the keyboard from it gives
 * it back as it goes: the window is presented again, as a window manager
 * does with a transient's parent (asking one that did so already changes
 * nothing), unless another window of the app has the keyboard or a dialog
 * over this one is still open. GTK asks for the X focus with the time of
 * the person's last key or click: a dialog closed by none (through
 * AT-SPI's "click" action alone) leaves X to refuse it, as older than the
 * dialog's own focus.
 */

static void
give_back_keyboard_cb (gpointer data)
{
  TriageWindow *self = data;
  GListModel *toplevels = gtk_window_get_toplevels ();
  guint n = g_list_model_get_n_items (toplevels);

  self->give_back_keyboard_id = 0;

  if (!gtk_widget_get_visible (GTK_WIDGET (self)) || gtk_window_is_active (GTK_WINDOW (self)))
    return;

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GtkWindow) window = g_list_model_get_item (toplevels, i);

      if (window != GTK_WINDOW (self) && gtk_widget_get_visible (GTK_WIDGET (window)) &&
          (gtk_window_is_active (window) || gtk_window_get_transient_for (window) == GTK_WINDOW (self)))
        return;
    }

  g_debug ("A dialog closed: the keyboard back in the main window");
  gtk_window_present (GTK_WINDOW (self));
}

/* Once it is hidden, and gone if it is being destroyed. */
static void
on_dialog_unmap (TriageWindow *self)
{
  if (self->give_back_keyboard_id == 0)
    self->give_back_keyboard_id = g_idle_add_once (give_back_keyboard_cb, self);
}

/* The keyboard left: to a dialog of ours, if one over the window is shown
 * (the window manager, if any, gave it the keyboard once it was mapped). */
static void
on_active_changed (TriageWindow *self)
{
  GListModel *toplevels;
  guint n;

  if (gtk_window_is_active (GTK_WINDOW (self)))
    return;

  toplevels = gtk_window_get_toplevels ();
  n = g_list_model_get_n_items (toplevels);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GtkWindow) window = g_list_model_get_item (toplevels, i);

      if (gtk_window_get_transient_for (window) != GTK_WINDOW (self) ||
          !gtk_widget_get_visible (GTK_WIDGET (window)) ||
          g_signal_handler_find (window, G_SIGNAL_MATCH_FUNC | G_SIGNAL_MATCH_DATA, 0, 0, NULL,
                                 on_dialog_unmap, self) != 0)
        continue;

      g_signal_connect_object (window, "unmap", G_CALLBACK (on_dialog_unmap), self,
                               G_CONNECT_SWAPPED);
    }
}

void
_triage_window_init_dialogs (TriageWindow *self)
{
  g_signal_connect (self, "notify::is-active", G_CALLBACK (on_active_changed), NULL);
}

void
_triage_window_dispose_dialogs (TriageWindow *self)
{
  g_clear_handle_id (&self->give_back_keyboard_id, g_source_remove);
}
