/* triage-inbox-pane-keyboard.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-inbox"

#include "triage-inbox-pane-private.h"

/*
 * Opening requests and keyboard triage in the inbox pane: selection and
 * scrolling (once the list is laid out), next and previous after an answer,
 * Enter, Escape and Down in the search entry, Ctrl+F, and requests opened
 * from elsewhere. What needs the filtered list while a search is still
 * being applied waits for it (defer_until_filtered()).
 */

static gboolean
defer_until_filtered (TriageInboxPane *self,
                      Deferred         what,
                      const char      *id)
{
  if (gtk_filter_list_model_get_pending (self->filter_model) == 0)
    return FALSE;

  self->deferred = what;
  g_free (self->deferred_id);
  self->deferred_id = g_strdup (id);
  return TRUE;
}

/* Opening requests */

static gboolean find_visible       (TriageInboxPane *self,
                                    TriageRequest   *request,
                                    guint           *position);
static gboolean open_when_filtered (TriageInboxPane *self,
                                    Deferred         move);

static gboolean
scroll_when_laid_out (GtkWidget     *list_view,
                      GdkFrameClock *clock,
                      gpointer       user_data)
{
  TriageInboxPane *self = user_data;
  g_autoptr(TriageRequest) target = NULL;
  guint position;

  if (gtk_widget_get_width (list_view) == 0)
    return G_SOURCE_CONTINUE;

  self->scroll_tick_id = 0;
  target = g_steal_pointer (&self->scroll_target);
  if (target != NULL && find_visible (self, target, &position))
    gtk_widget_activate_action (list_view, "list.scroll-to-item", "u", position);

  return G_SOURCE_REMOVE;
}

static void
select_position (TriageInboxPane *self,
                 guint            position,
                 gboolean         focus)
{
  gtk_single_selection_set_selected (self->selection, position);

  /* A list not laid out yet (the window just opened for a bubble) ignores
   * scrolling: it scrolls once it has a size. */
  if (gtk_widget_get_width (GTK_WIDGET (self->list_view)) == 0)
    {
      g_clear_object (&self->scroll_target);
      self->scroll_target = gtk_single_selection_get_selected_item (self->selection);
      if (self->scroll_target != NULL)
        g_object_ref (self->scroll_target);
      if (self->scroll_tick_id == 0)
        self->scroll_tick_id = gtk_widget_add_tick_callback (GTK_WIDGET (self->list_view),
                                                             scroll_when_laid_out, self, NULL);
      if (focus)
        gtk_widget_grab_focus (GTK_WIDGET (self->list_view));
      return;
    }

  /* Scrolling to an item also makes it the list's focus item. */
  gtk_widget_activate_action (GTK_WIDGET (self->list_view), "list.scroll-to-item", "u", position);
  if (focus)
    gtk_widget_grab_focus (GTK_WIDGET (self->list_view));
}

static void
open_position (TriageInboxPane *self,
               guint            position,
               gboolean         emit)
{
  g_autoptr(TriageRequest) request = g_list_model_get_item (G_LIST_MODEL (self->filter_model), position);

  if (request == NULL)
    return;

  g_set_object (&self->current, request);
  gtk_single_selection_set_selected (self->selection, position);
  triage_read_state_set_read (self->read_state, triage_request_get_id (request), TRUE);

  if (emit)
    triage_inbox_pane_emit_request_activated (self, request);
}

static gboolean
find_visible (TriageInboxPane *self,
              TriageRequest   *request,
              guint           *position)
{
  GListModel *visible = G_LIST_MODEL (self->filter_model);
  guint selected = gtk_single_selection_get_selected (self->selection);
  guint n = g_list_model_get_n_items (visible);

  if (request == NULL)
    return FALSE;

  if (selected != GTK_INVALID_LIST_POSITION &&
      gtk_single_selection_get_selected_item (self->selection) == (gpointer) request)
    {
      *position = selected;
      return TRUE;
    }

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(TriageRequest) item = g_list_model_get_item (visible, i);

      if (item == request)
        {
          *position = i;
          return TRUE;
        }
    }

  return FALSE;
}

static void
on_list_activate (TriageInboxPane *self,
                  guint            position)
{
  open_position (self, position, TRUE);
}

static void
on_search_activate (TriageInboxPane *self)
{
  /* Enter right after typing: once the search is applied. */
  open_when_filtered (self, DEFERRED_OPEN_SELECTED);
}

static void
on_search_stop (TriageInboxPane *self)
{
  /* Escape: clear the search; a second one goes back to the list. */
  if (gtk_editable_get_text (GTK_EDITABLE (self->search_entry))[0] != '\0')
    triage_inbox_pane_set_search_text (self, "");
  else
    triage_inbox_pane_focus_list (self);
}

static gboolean
on_search_key_pressed (TriageInboxPane       *self,
                       guint                  keyval,
                       guint                  keycode,
                       GdkModifierType        state,
                       GtkEventControllerKey *controller)
{
  if ((keyval == GDK_KEY_Down || keyval == GDK_KEY_KP_Down) &&
      (state & gtk_accelerator_get_default_mod_mask ()) == 0)
    {
      triage_inbox_pane_focus_list (self);
      return TRUE;
    }

  return FALSE;
}

/* The position the keyboard is on, else the first; FALSE when the list is empty. */
static gboolean
keyboard_position (TriageInboxPane *self,
                   guint           *position)
{
  if (g_list_model_get_n_items (G_LIST_MODEL (self->filter_model)) == 0)
    return FALSE;

  *position = gtk_single_selection_get_selected (self->selection);
  if (*position == GTK_INVALID_LIST_POSITION)
    *position = 0;

  return TRUE;
}

static void
focus_list (TriageInboxPane *self)
{
  guint position;

  if (keyboard_position (self, &position))
    select_position (self, position, TRUE);
}

/* Where @request stands, or would stand, in the @n visible requests: the
 * first that sorts after it. The list is in that order, and requests that
 * came or went above it since it was opened do not move this place. */
static guint
sorted_place (TriageInboxPane *self,
              TriageRequest   *request,
              guint            n)
{
  GListModel *visible = G_LIST_MODEL (self->filter_model);
  guint low = 0, high = n;

  while (low < high)
    {
      guint middle = low + (high - low) / 2;
      g_autoptr(TriageRequest) item = g_list_model_get_item (visible, middle);

      if (triage_request_compare (item, request) < 0)
        low = middle + 1;
      else
        high = middle;
    }

  return low;
}

/*
 * Where @move (DEFERRED_NEXT, DEFERRED_PREVIOUS or DEFERRED_OPEN_SELECTED)
 * goes in the @n visible requests. Next and previous go from the one opened
 * last (after an answer, that one has usually left the list: then from the
 * one that took its place, wherever others that came or went have moved
 * it), to the first when none was opened; FALSE past either end.
 */
static gboolean
move_target (TriageInboxPane *self,
             Deferred         move,
             guint            n,
             guint           *target)
{
  guint position;

  if (move == DEFERRED_OPEN_SELECTED)
    return keyboard_position (self, target);

  if (self->current == NULL)
    *target = 0;
  else if (find_visible (self, self->current, &position))
    {
      if (move == DEFERRED_PREVIOUS && position == 0)
        return FALSE;
      *target = move == DEFERRED_NEXT ? position + 1 : position - 1;
    }
  else if ((position = sorted_place (self, self->current, n)) == 0)
    *target = 0;
  else
    *target = move == DEFERRED_NEXT ? MIN (position, n - 1) : position - 1;

  return *target < n;
}

/* Opens the request @move goes to, as Enter (DEFERRED_OPEN_SELECTED) or an
 * answer's next and previous do; FALSE when there is none. */
static gboolean
open_move (TriageInboxPane *self,
           Deferred         move)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->filter_model));
  guint target;

  if (n == 0 || !move_target (self, move, n, &target))
    return FALSE;

  select_position (self, target, move == DEFERRED_OPEN_SELECTED);
  open_position (self, target, TRUE);

  return TRUE;
}

/* open_move(), once a search being applied is. */
static gboolean
open_when_filtered (TriageInboxPane *self,
                    Deferred         move)
{
  if (defer_until_filtered (self, move, NULL))
    return self->mirror->len > 0;

  return open_move (self, move);
}

static gboolean
show_request (TriageInboxPane *self,
              const char      *notification_id,
              gboolean         may_clear)
{
  TriageRequest *request = NULL;
  guint position;

  for (guint i = 0; i < self->mirror->len && request == NULL; i++)
    {
      Slot *slot = g_ptr_array_index (self->mirror, i);

      if (g_str_equal (triage_request_get_id (slot->request), notification_id))
        request = slot->request;
    }
  if (request == NULL)
    return FALSE;

  if (defer_until_filtered (self, DEFERRED_SHOW, notification_id))
    return TRUE;

  if (find_visible (self, request, &position))
    {
      select_position (self, position, FALSE);
      open_position (self, position, FALSE);
      return TRUE;
    }

  if (!may_clear)
    return FALSE;

  /* Hidden by the search or a filter: they make way. */
  triage_inbox_pane_clear_filters (self);
  return show_request (self, notification_id, FALSE);
}

static gboolean
run_deferred_cb (gpointer data)
{
  TriageInboxPane *self = data;
  Deferred what = self->deferred;
  g_autofree char *id = NULL;

  self->deferred_idle_id = 0;

  /* Another search started meanwhile: wait for that one. */
  if (gtk_filter_list_model_get_pending (self->filter_model) > 0)
    return G_SOURCE_REMOVE;

  id = g_steal_pointer (&self->deferred_id);
  self->deferred = DEFERRED_NONE;

  switch (what)
    {
    case DEFERRED_SHOW:
      show_request (self, id, TRUE);
      break;

    case DEFERRED_NEXT:
    case DEFERRED_PREVIOUS:
    case DEFERRED_OPEN_SELECTED:
      open_move (self, what);
      break;

    case DEFERRED_FOCUS_LIST:
      focus_list (self);
      break;

    case DEFERRED_NONE:
    default:
      break;
    }

  return G_SOURCE_REMOVE;
}

void
triage_inbox_pane_run_deferred_when_idle (TriageInboxPane *self)
{
  /* Not from inside the notification: the filter model announces the last
   * matches after it says nothing is pending. */
  if (gtk_filter_list_model_get_pending (self->filter_model) == 0 &&
      self->deferred != DEFERRED_NONE && self->deferred_idle_id == 0)
    self->deferred_idle_id = g_idle_add (run_deferred_cb, self);
}

/* Actions */

static void
focus_search_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  triage_inbox_pane_focus_search (TRIAGE_INBOX_PANE (widget));
}

/* Public API */

/**
 * triage_inbox_pane_get_selected_request:
 *
 * Returns: (transfer none) (nullable): the request the keyboard is on
 */
TriageRequest *
triage_inbox_pane_get_selected_request (TriageInboxPane *self)
{
  g_return_val_if_fail (TRIAGE_IS_INBOX_PANE (self), NULL);

  return gtk_single_selection_get_selected_item (self->selection);
}

/**
 * triage_inbox_pane_get_current_request:
 *
 * Returns: (transfer none) (nullable): the request opened last (it may have
 *   left the inbox since)
 */
TriageRequest *
triage_inbox_pane_get_current_request (TriageInboxPane *self)
{
  g_return_val_if_fail (TRIAGE_IS_INBOX_PANE (self), NULL);

  return self->current;
}

/**
 * triage_inbox_pane_show_request:
 * @self: a #TriageInboxPane
 * @notification_id: a request in the model
 *
 * Selects a request opened from elsewhere (a notification bubble, the
 * tray), scrolls to it and marks it read, clearing the search and filters
 * if they hide it. Does not emit ::request-activated: the caller shows it.
 *
 * Returns: %TRUE if the request is in the model
 */
gboolean
triage_inbox_pane_show_request (TriageInboxPane *self,
                                const char      *notification_id)
{
  g_return_val_if_fail (TRIAGE_IS_INBOX_PANE (self), FALSE);
  g_return_val_if_fail (notification_id != NULL, FALSE);

  return show_request (self, notification_id, TRUE);
}

/**
 * triage_inbox_pane_select_next:
 * @self: a #TriageInboxPane
 *
 * Opens the request after the one opened last (after an answer, that one
 * has usually left the list: then the one that took its place), or the
 * first if none was opened. Emits ::request-activated.
 *
 * Returns: %TRUE if there was a request to open
 */
gboolean
triage_inbox_pane_select_next (TriageInboxPane *self)
{
  g_return_val_if_fail (TRIAGE_IS_INBOX_PANE (self), FALSE);

  return open_when_filtered (self, DEFERRED_NEXT);
}

/**
 * triage_inbox_pane_select_previous:
 * @self: a #TriageInboxPane
 *
 * Opens the request before the one opened last, or the first if none was
 * opened. Emits ::request-activated.
 *
 * Returns: %TRUE if there was a request to open
 */
gboolean
triage_inbox_pane_select_previous (TriageInboxPane *self)
{
  g_return_val_if_fail (TRIAGE_IS_INBOX_PANE (self), FALSE);

  return open_when_filtered (self, DEFERRED_PREVIOUS);
}

/**
 * triage_inbox_pane_open_selected:
 * @self: a #TriageInboxPane
 *
 * Opens the request the keyboard is on (the first when none is selected),
 * as Enter in the list does. Emits ::request-activated.
 *
 * Returns: %TRUE if there was a request to open
 */
gboolean
triage_inbox_pane_open_selected (TriageInboxPane *self)
{
  g_return_val_if_fail (TRIAGE_IS_INBOX_PANE (self), FALSE);

  return open_when_filtered (self, DEFERRED_OPEN_SELECTED);
}

/**
 * triage_inbox_pane_focus_search:
 *
 * Puts the keyboard in the search entry (Ctrl+F), its text selected.
 */
void
triage_inbox_pane_focus_search (TriageInboxPane *self)
{
  g_return_if_fail (TRIAGE_IS_INBOX_PANE (self));

  gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
  gtk_editable_select_region (GTK_EDITABLE (self->search_entry), 0, -1);
}

/**
 * triage_inbox_pane_focus_list:
 *
 * Puts the keyboard on the list: on the selected request, else the first.
 */
void
triage_inbox_pane_focus_list (TriageInboxPane *self)
{
  g_return_if_fail (TRIAGE_IS_INBOX_PANE (self));

  if (!defer_until_filtered (self, DEFERRED_FOCUS_LIST, NULL))
    focus_list (self);
}

/* Private */

void
triage_inbox_pane_class_init_keyboard (GtkWidgetClass *widget_class)
{
  gtk_widget_class_bind_template_callback (widget_class, on_search_activate);
  gtk_widget_class_bind_template_callback (widget_class, on_search_stop);
  gtk_widget_class_bind_template_callback (widget_class, on_list_activate);

  gtk_widget_class_install_action (widget_class, "inbox.focus-search", NULL, focus_search_action);
}

void
triage_inbox_pane_init_keyboard (TriageInboxPane *self)
{
  GtkEventController *controller;
  GtkShortcut *shortcut;

  /* Typing while the list has the keyboard starts a search; Down goes back. */
  gtk_search_entry_set_key_capture_widget (self->search_entry, GTK_WIDGET (self->list_view));
  controller = gtk_event_controller_key_new ();
  g_signal_connect_object (controller, "key-pressed",
                           G_CALLBACK (on_search_key_pressed), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self->search_entry), controller);

  /* Ctrl+F anywhere in the window while the pane is shown. */
  controller = gtk_shortcut_controller_new ();
  gtk_shortcut_controller_set_scope (GTK_SHORTCUT_CONTROLLER (controller), GTK_SHORTCUT_SCOPE_MANAGED);
  shortcut = gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_f, GDK_CONTROL_MASK),
                               gtk_named_action_new ("inbox.focus-search"));
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (controller), shortcut);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);
}
