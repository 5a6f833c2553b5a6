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
 * and the grid view goes to its focus child first.
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

/* Where the keyboard is as it leaves the list (the cell is still the list's
 * focus child). */
static void
on_list_focus_leave (TriageHistoryView *self)
{
  GtkWidget *cell = gtk_widget_get_focus_child (GTK_WIDGET (self->list_view));

  self->keyboard_at_top = cell == NULL || cell == find_first_row_cell (self);
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

static gboolean
triage_history_view_focus (GtkWidget        *widget,
                           GtkDirectionType  direction)
{
  TriageHistoryView *self = TRIAGE_HISTORY_VIEW (widget);
  GtkWidget *list = GTK_WIDGET (self->list_view);
  GtkWidget *cell = NULL;
  gboolean moved;

  if ((direction == GTK_DIR_TAB_FORWARD || direction == GTK_DIR_TAB_BACKWARD) &&
      self->keyboard_at_top && gtk_widget_get_focus_child (list) == NULL)
    cell = find_first_row_cell (self);
  if (cell != NULL)
    gtk_widget_set_focus_child (list, cell);

  moved = GTK_WIDGET_CLASS (g_type_class_peek (ADW_TYPE_BIN))->focus (widget, direction);

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
  GtkEventController *controller = gtk_event_controller_focus_new ();

  self->keyboard_at_top = TRUE;
  g_signal_connect_object (controller, "leave", G_CALLBACK (on_list_focus_leave), self,
                           G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self->list_view), controller);
}
