/* triage-history-view-keyboard.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-history"

#include "triage-history-row.h"
#include "triage-history-view-private.h"

/*
 * Which row of the history's list Tab (or Shift+Tab) enters on.
 *
 * GTK 4.8's grid view enters on its focus item, a row it follows through
 * the model's changes: newer decisions arriving at the head push it down.
 * Left on the first row (or never entered), the keyboard then came back to
 * the row that had been first, below the newest ones the list shows at its
 * top (on_model_items_changed ()), and a new search or filter could keep it
 * on a row that was somewhere in the list before. So: the list is entered
 * on its first row, the newest decision, when the keyboard left it there,
 * never entered it, or the filters changed since; on the row it left
 * otherwise (GTK's own tracking, which follows that row as the inbox's list
 * does). GTK 4.8 has no call to set its focus item: the first row's cell is
 * made the list's focus child for as long as the view moves the keyboard,
 * and the grid view goes to its focus child first. The row left, deleted
 * meanwhile (the history's retention), is followed by GTK to the one that
 * took its place. Whichever row the keyboard enters on is scrolled into
 * view (show_focus_row ()).
 */

/* The cell showing the list's first row, if it is built (the list at its top). */
static GtkWidget *
find_first_row_cell (TriageHistoryView *self)
{
  g_autoptr(TriageHistoryEntry) first = NULL;
  gint64 rowid;

  if (self->model == NULL || g_list_model_get_n_items (G_LIST_MODEL (self->model)) == 0)
    return NULL;

  first = g_list_model_get_item (G_LIST_MODEL (self->model), 0);
  rowid = triage_history_entry_get_rowid (first);

  for (GtkWidget *cell = gtk_widget_get_first_child (GTK_WIDGET (self->list_view));
       cell != NULL;
       cell = gtk_widget_get_next_sibling (cell))
    {
      GtkWidget *row = gtk_widget_get_first_child (cell);
      TriageHistoryEntry *entry;

      if (!TRIAGE_IS_HISTORY_ROW (row) || !gtk_widget_get_child_visible (cell))
        continue;
      entry = triage_history_row_get_entry (TRIAGE_HISTORY_ROW (row));
      if (entry != NULL && triage_history_entry_get_rowid (entry) == rowid)
        return cell;
    }

  return NULL;
}

/* Where the keyboard is in the list, followed as it moves (the window's
 * focus widget): whether it is on the first row is known when it leaves.
 * Not read as it leaves: Tab from the list, its last stop, wraps round the
 * window, and GTK 4.8 clears every focus child on the way before the list
 * hears that the keyboard left, so the row left could not be told from none
 * and the keyboard came back on the first row. Off the list (elsewhere, or
 * nowhere for a moment), what was last seen stays. */
static void
on_focus_widget_changed (TriageHistoryView *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkWidget *list = GTK_WIDGET (self->list_view);
  GtkWidget *cell = root != NULL ? gtk_root_get_focus (root) : NULL;

  while (cell != NULL && gtk_widget_get_parent (cell) != list)
    cell = gtk_widget_get_parent (cell);

  if (cell != NULL)
    self->keyboard_at_top = cell == find_first_row_cell (self);
}

static void
on_map (TriageHistoryView *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));

  if (GTK_IS_WINDOW (root) && self->focus_root == NULL)
    {
      g_set_weak_pointer (&self->focus_root, GTK_WIDGET (root));
      g_signal_connect_object (root, "notify::focus-widget",
                               G_CALLBACK (on_focus_widget_changed), self, G_CONNECT_SWAPPED);
    }
}

static void
on_unmap (TriageHistoryView *self)
{
  if (self->focus_root != NULL)
    g_signal_handlers_disconnect_by_func (self->focus_root, on_focus_widget_changed, self);
  g_clear_weak_pointer (&self->focus_root);
}

/**
 * triage_history_view_focus_list_from_top:
 * @self: a #TriageHistoryView
 *
 * The next time the keyboard enters the list, it enters on the first row:
 * the list shows a new result.
 */
void
triage_history_view_focus_list_from_top (TriageHistoryView *self)
{
  self->keyboard_at_top = TRUE;
}

/**
 * triage_history_view_focus_first_row:
 * @self: a #TriageHistoryView
 *
 * Gives the keyboard to the list's first row (Down or Enter in the search).
 * Scrolling to it does not make it the grid view's focus item in GTK 4.8,
 * nor does grabbing the list's focus: that went to the row that had been
 * first before newer decisions came.
 */
void
triage_history_view_focus_first_row (TriageHistoryView *self)
{
  GtkWidget *cell = find_first_row_cell (self);

  if (cell == NULL || !gtk_widget_grab_focus (cell))
    gtk_widget_grab_focus (GTK_WIDGET (self->list_view));
}

/* The row the keyboard entered the list on, scrolled into view: GTK 4.8's
 * grid view scrolls to a row that takes the keyboard from another, not to
 * the row it kept while the keyboard was out, which the list may have been
 * scrolled away from meanwhile (the wheel, rows written above it): Shift+Tab
 * back went to a row out of sight. */
static void
show_focus_row (TriageHistoryView *self)
{
  GtkWidget *cell = gtk_widget_get_focus_child (GTK_WIDGET (self->list_view));
  GtkWidget *row = cell != NULL ? gtk_widget_get_first_child (cell) : NULL;
  TriageHistoryEntry *entry;
  guint position;

  if (!TRIAGE_IS_HISTORY_ROW (row) || self->model == NULL)
    return;
  entry = triage_history_row_get_entry (TRIAGE_HISTORY_ROW (row));
  if (entry == NULL)
    return;

  position = triage_history_model_find_rowid (self->model, triage_history_entry_get_rowid (entry));
  if (position != GTK_INVALID_LIST_POSITION)
    gtk_widget_activate_action (GTK_WIDGET (self->list_view), "list.scroll-to-item", "u", position);
}

static gboolean
triage_history_view_focus (GtkWidget        *widget,
                           GtkDirectionType  direction)
{
  TriageHistoryView *self = TRIAGE_HISTORY_VIEW (widget);
  GtkWidget *list = GTK_WIDGET (self->list_view);
  GtkWidget *cell = NULL;
  gboolean had_keyboard;
  gboolean moved;

  had_keyboard = gtk_widget_get_focus_child (list) != NULL;
  if ((direction == GTK_DIR_TAB_FORWARD || direction == GTK_DIR_TAB_BACKWARD) &&
      self->keyboard_at_top && gtk_widget_get_focus_child (list) == NULL)
    cell = find_first_row_cell (self);
  if (cell != NULL)
    gtk_widget_set_focus_child (list, cell);

  moved = GTK_WIDGET_CLASS (g_type_class_peek (ADW_TYPE_BIN))->focus (widget, direction);
  if (moved && !had_keyboard && gtk_widget_get_focus_child (list) != NULL)
    show_focus_row (self);

  /* The keyboard went elsewhere: the list's focus child is GTK's again. */
  if (cell != NULL && gtk_widget_get_focus_child (list) == cell && !gtk_widget_has_focus (cell))
    gtk_widget_set_focus_child (list, NULL);

  return moved;
}

void
triage_history_view_class_init_keyboard (GtkWidgetClass *widget_class)
{
  widget_class->focus = triage_history_view_focus;
}

void
triage_history_view_init_keyboard (TriageHistoryView *self)
{
  self->keyboard_at_top = TRUE;
  g_signal_connect (self, "map", G_CALLBACK (on_map), NULL);
  g_signal_connect (self, "unmap", G_CALLBACK (on_unmap), NULL);
}

void
triage_history_view_dispose_keyboard (TriageHistoryView *self)
{
  on_unmap (self);
}
