/* triage-inbox-pane.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-inbox"

#include <glib/gi18n.h>
#include <string.h>

#include "triage-browse-style.h"
#include "triage-inbox-pane.h"
#include "triage-inbox-row.h"
#include "triage-inbox-search.h"

/*
 * The inbox: every pending request, searchable and filterable by service
 * and project, sorted by deadline then age, with unread marks.
 *
 * The model chain is source → GtkSortListModel (triage_request_compare) →
 * GtkFilterListModel (search words, service, project; incremental above
 * 50,000 requests, see refilter()) → GtkSingleSelection → GtkListView with
 * light rows (TriageInboxRow, two GtkInscriptions).
 * Search text is folded once per request (triage-inbox-search.c) and the
 * filter says whether a change narrows or widens, so GTK only looks again
 * at what can change.
 *
 * The service and project drop-downs offer the values present in the
 * source: a mirror of the source's items (with the keys counted when they
 * came in) keeps per-value counts, and the drop-downs are rebuilt only when
 * a value appears or disappears. The value being filtered on stays offered
 * while it is selected, even once no request has it.
 *
 * The pane never reaches up: opening a request emits ::request-activated
 * (and marks it read); after an answer the window calls
 * triage_inbox_pane_select_next().
 */

typedef struct
{
  TriageRequest *request;
  char          *service;
  char          *project;   /* "" for none */
} Slot;

/* Keyboard triage that needs the filtered list while a search is still
 * being applied (incremental filtering) runs when it is done. */
typedef enum
{
  DEFERRED_NONE,
  DEFERRED_SHOW,
  DEFERRED_NEXT,
  DEFERRED_PREVIOUS,
  DEFERRED_FOCUS_LIST,
  DEFERRED_OPEN_SELECTED,
} Deferred;

struct _TriageInboxPane
{
  AdwBin               parent_instance;

  GListModel          *model;
  TriageReadState     *read_state;
  GtkSortListModel    *sort_model;
  GtkFilterListModel  *filter_model;
  GtkCustomFilter     *filter;
  GtkSingleSelection  *selection;

  GPtrArray           *mirror;          /* Slot*, parallel to the source */
  GHashTable          *service_counts;  /* name -> count */
  GHashTable          *project_counts;  /* project or "" -> count */
  GPtrArray           *service_keys;    /* drop-down position -> key (NULL: all) */
  GPtrArray           *project_keys;
  gboolean             facets_dirty;
  gboolean             updating_dropdowns;
  guint                dropdowns_idle_id;
  guint                warm_idle_id;
  guint                incremental_threshold;
  guint                warm_position;
  guint                deferred_idle_id;
  guint                scroll_tick_id;
  TriageRequest       *scroll_target;   /* to scroll to once laid out */

  GStrv                words;
  char                *service;         /* filter; NULL: all */
  char                *project;         /* filter; NULL: all, "": none */

  Deferred             deferred;        /* what waits for the filter to finish */
  char                *deferred_id;
  TriageRequest       *current;         /* the request opened last */
  guint                current_position;
  GHashTable          *bound_rows;      /* TriageInboxRow* shown */
  TriageInboxPaneState state;

  /* template */
  GtkWidget           *filter_box;
  GtkSearchEntry      *search_entry;
  GtkDropDown         *service_dropdown;
  GtkDropDown         *project_dropdown;
  GtkStack            *stack;
  AdwStatusPage       *no_results_page;
  GtkLabel            *example_label;
  GtkListView         *list_view;
};

G_DEFINE_FINAL_TYPE (TriageInboxPane, triage_inbox_pane, ADW_TYPE_BIN)

enum {
  PROP_0,
  PROP_MODEL,
  PROP_READ_STATE,
  PROP_SEARCH_TEXT,
  PROP_STATE,
  PROP_FILTERING,
  N_PROPS
};

enum {
  REQUEST_ACTIVATED,
  N_SIGNALS
};

static GParamSpec *properties [N_PROPS];
static guint signals [N_SIGNALS];

static void
slot_free (gpointer data)
{
  Slot *slot = data;

  g_object_unref (slot->request);
  g_free (slot->service);
  g_free (slot->project);
  g_free (slot);
}

/* Sorting and filtering */

static int
compare_requests (gconstpointer a,
                  gconstpointer b,
                  gpointer      user_data)
{
  return triage_request_compare ((TriageRequest *) a, (TriageRequest *) b);
}

static gboolean
match_request (gpointer item,
               gpointer user_data)
{
  TriageInboxPane *self = user_data;
  TriageRequest *request = item;
  AtpNotification *notification = triage_request_get_notification (request);

  if (self->service != NULL && g_strcmp0 (notification->service.name, self->service) != 0)
    return FALSE;

  if (self->project != NULL)
    {
      const char *project = notification->context.project ? notification->context.project : "";

      if (!g_str_equal (project, self->project))
        return FALSE;
    }

  if (self->words != NULL && self->words[0] != NULL)
    return triage_inbox_search_match (triage_inbox_search_haystack (request),
                                      (const char * const *) self->words);

  return TRUE;
}

/* Runs the filter again. Large inboxes are filtered a slice at a time
 * (incremental), small ones at once: with the search text folded in
 * advance, 10,000 requests take about 3 ms, while an incremental pass lets
 * GTK 4.8 rebuild the visible rows after every slice (measured: p99 of
 * 130 ms against 55 ms at 10,000). The mode only changes while nothing is
 * pending: GTK 4.8 loses the pending slices' changes otherwise. */
static void
refilter (TriageInboxPane *self,
          GtkFilterChange  change)
{
  if (gtk_filter_list_model_get_pending (self->filter_model) == 0)
    gtk_filter_list_model_set_incremental (self->filter_model,
                                           self->mirror->len > self->incremental_threshold);

  gtk_filter_changed (GTK_FILTER (self->filter), change);
}

static GtkFilterChange
value_change (const char *old_value,
              const char *new_value)
{
  if (old_value == NULL)
    return GTK_FILTER_CHANGE_MORE_STRICT;
  if (new_value == NULL)
    return GTK_FILTER_CHANGE_LESS_STRICT;

  return GTK_FILTER_CHANGE_DIFFERENT;
}

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

/* What the pane shows */

static void
update_no_results_text (TriageInboxPane *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));
  g_autofree char *description = NULL;

  if (text != NULL && text[0] != '\0')
    {
      g_autofree char *escaped = g_markup_escape_text (text, -1);

      /* Translators: %s is what the person searched for */
      description = g_strdup_printf (_("No pending request matches “%s”"), escaped);
    }
  else
    description = g_strdup (_("No pending request matches the filters"));

  adw_status_page_set_description (self->no_results_page, description);
}

static void
update_state (TriageInboxPane *self)
{
  TriageInboxPaneState state;
  guint n_source = self->model ? g_list_model_get_n_items (self->model) : 0;

  if (n_source == 0)
    state = TRIAGE_INBOX_PANE_EMPTY;
  else if (g_list_model_get_n_items (G_LIST_MODEL (self->filter_model)) == 0 &&
           gtk_filter_list_model_get_pending (self->filter_model) == 0)
    state = TRIAGE_INBOX_PANE_NO_RESULTS;
  else
    state = TRIAGE_INBOX_PANE_LIST;

  /* Filters stay while a search is on, even if the last request left. */
  gtk_widget_set_visible (self->filter_box,
                          n_source > 0 || self->words != NULL ||
                          self->service != NULL || self->project != NULL);

  if (state == TRIAGE_INBOX_PANE_NO_RESULTS)
    update_no_results_text (self);

  if (state == self->state)
    return;

  self->state = state;
  gtk_stack_set_visible_child_name (self->stack,
                                    state == TRIAGE_INBOX_PANE_EMPTY ? "empty" :
                                    state == TRIAGE_INBOX_PANE_NO_RESULTS ? "no-results" : "list");
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_STATE]);
}

static gboolean run_deferred_cb (gpointer data);

static void
on_filter_pending (TriageInboxPane *self)
{
  update_state (self);

  /* Not from inside the notification: the filter model announces the last
   * matches after it says nothing is pending. */
  if (gtk_filter_list_model_get_pending (self->filter_model) == 0 &&
      self->deferred != DEFERRED_NONE && self->deferred_idle_id == 0)
    self->deferred_idle_id = g_idle_add (run_deferred_cb, self);

  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_FILTERING]);
}

/* Service and project drop-downs */

static int
compare_collate (gconstpointer a,
                 gconstpointer b)
{
  const char *x = *(const char * const *) a;
  const char *y = *(const char * const *) b;
  int cmp = g_utf8_collate (x, y);

  return cmp != 0 ? cmp : strcmp (x, y);
}

/* Fills @keys with NULL (all), the sorted values and, if @none_label, ""
 * (none) last; @strings with the labels. */
static void
build_choices (GHashTable *counts,
               const char *selected,
               const char *all_label,
               const char *none_label,
               GPtrArray  *keys,
               GPtrArray  *labels)
{
  g_autoptr(GPtrArray) values = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer key;
  gboolean has_none = FALSE;

  g_hash_table_iter_init (&iter, counts);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      if (((const char *) key)[0] == '\0')
        has_none = TRUE;
      else
        g_ptr_array_add (values, key);
    }

  if (selected != NULL && selected[0] != '\0' && !g_hash_table_contains (counts, selected))
    g_ptr_array_add (values, (gpointer) selected);
  if (selected != NULL && selected[0] == '\0')
    has_none = TRUE;

  g_ptr_array_sort (values, compare_collate);

  g_ptr_array_add (keys, NULL);
  g_ptr_array_add (labels, (gpointer) all_label);
  for (guint i = 0; i < values->len; i++)
    {
      g_ptr_array_add (keys, g_strdup (g_ptr_array_index (values, i)));
      g_ptr_array_add (labels, g_ptr_array_index (values, i));
    }
  if (none_label != NULL && has_none)
    {
      g_ptr_array_add (keys, g_strdup (""));
      g_ptr_array_add (labels, (gpointer) none_label);
    }
}

static guint
find_key (GPtrArray  *keys,
          const char *value)
{
  for (guint i = 0; i < keys->len; i++)
    if (g_strcmp0 (g_ptr_array_index (keys, i), value) == 0)
      return i;

  return 0;
}

static void
rebuild_dropdown (GtkDropDown *dropdown,
                  GHashTable  *counts,
                  const char  *selected,
                  const char  *all_label,
                  const char  *none_label,
                  GPtrArray  **keys_out)
{
  g_autoptr(GPtrArray) keys = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) labels = g_ptr_array_new ();
  g_autoptr(GtkStringList) list = NULL;

  build_choices (counts, selected, all_label, none_label, keys, labels);

  /* Nothing to do if the choices are the same. */
  if (*keys_out != NULL && (*keys_out)->len == keys->len)
    {
      gboolean same = TRUE;

      for (guint i = 0; i < keys->len && same; i++)
        same = g_strcmp0 (g_ptr_array_index (keys, i), g_ptr_array_index (*keys_out, i)) == 0;
      if (same)
        return;
    }

  g_ptr_array_add (labels, NULL);
  list = gtk_string_list_new ((const char * const *) labels->pdata);
  gtk_drop_down_set_model (dropdown, G_LIST_MODEL (list));
  gtk_drop_down_set_selected (dropdown, find_key (keys, selected));

  g_clear_pointer (keys_out, g_ptr_array_unref);
  *keys_out = g_steal_pointer (&keys);
}

static void
update_dropdowns (TriageInboxPane *self)
{
  g_clear_handle_id (&self->dropdowns_idle_id, g_source_remove);

  self->updating_dropdowns = TRUE;
  rebuild_dropdown (self->service_dropdown, self->service_counts, self->service,
                    _("All Services"), NULL, &self->service_keys);
  rebuild_dropdown (self->project_dropdown, self->project_counts, self->project,
                    _("All Projects"), _("No Project"), &self->project_keys);
  self->updating_dropdowns = FALSE;
  self->facets_dirty = FALSE;
}

static gboolean
update_dropdowns_cb (gpointer data)
{
  TriageInboxPane *self = data;

  self->dropdowns_idle_id = 0;
  update_dropdowns (self);

  return G_SOURCE_REMOVE;
}

static void
count_key (TriageInboxPane *self,
           GHashTable      *counts,
           const char      *key,
           int              delta)
{
  guint count = GPOINTER_TO_UINT (g_hash_table_lookup (counts, key));

  if (delta > 0)
    {
      if (count == 0)
        {
          g_hash_table_insert (counts, g_strdup (key), GUINT_TO_POINTER (1));
          self->facets_dirty = TRUE;
        }
      else
        g_hash_table_insert (counts, g_strdup (key), GUINT_TO_POINTER (count + 1));
    }
  else if (count <= 1)
    {
      g_hash_table_remove (counts, key);
      self->facets_dirty = TRUE;
    }
  else
    g_hash_table_insert (counts, g_strdup (key), GUINT_TO_POINTER (count - 1));
}

/* Folds the search text of new requests while the app is idle, a few
 * hundred at a time, so the first search after a large inbox came in does
 * not pay for 10,000 of them at once. */
static gboolean
warm_haystacks_cb (gpointer data)
{
  TriageInboxPane *self = data;
  guint end = MIN (self->warm_position + 500, self->mirror->len);

  for (; self->warm_position < end; self->warm_position++)
    triage_inbox_search_haystack (((Slot *) g_ptr_array_index (self->mirror, self->warm_position))->request);

  if (self->warm_position < self->mirror->len)
    return G_SOURCE_CONTINUE;

  self->warm_idle_id = 0;
  return G_SOURCE_REMOVE;
}

static void
on_model_items_changed (TriageInboxPane *self,
                        guint            position,
                        guint            removed,
                        guint            added)
{
  for (guint i = position; i < position + removed && i < self->mirror->len; i++)
    {
      Slot *slot = g_ptr_array_index (self->mirror, i);

      count_key (self, self->service_counts, slot->service, -1);
      count_key (self, self->project_counts, slot->project, -1);
    }
  if (removed > 0)
    g_ptr_array_remove_range (self->mirror, position, MIN (removed, self->mirror->len - position));

  for (guint i = 0; i < added; i++)
    {
      Slot *slot = g_new0 (Slot, 1);
      AtpNotification *notification;

      slot->request = g_list_model_get_item (self->model, position + i);
      notification = triage_request_get_notification (slot->request);
      slot->service = g_strdup (notification->service.name ? notification->service.name : "");
      slot->project = g_strdup (notification->context.project ? notification->context.project : "");
      count_key (self, self->service_counts, slot->service, +1);
      count_key (self, self->project_counts, slot->project, +1);
      g_ptr_array_insert (self->mirror, position + i, slot);
    }

  if (self->facets_dirty)
    update_dropdowns (self);

  if (added > 0)
    {
      self->warm_position = MIN (self->warm_position, position);
      if (self->warm_idle_id == 0)
        self->warm_idle_id = g_idle_add_full (G_PRIORITY_LOW, warm_haystacks_cb, self, NULL);
    }
  else
    self->warm_position = MIN (self->warm_position, self->mirror->len);

  update_state (self);
}

static void
on_dropdown_selected (TriageInboxPane *self)
{
  guint service_pos;
  guint project_pos;
  const char *service = NULL;
  const char *project = NULL;
  GtkFilterChange change;

  if (self->updating_dropdowns || self->service_keys == NULL || self->project_keys == NULL)
    return;

  service_pos = gtk_drop_down_get_selected (self->service_dropdown);
  project_pos = gtk_drop_down_get_selected (self->project_dropdown);
  if (service_pos < self->service_keys->len)
    service = g_ptr_array_index (self->service_keys, service_pos);
  if (project_pos < self->project_keys->len)
    project = g_ptr_array_index (self->project_keys, project_pos);

  if (g_strcmp0 (service, self->service) != 0)
    {
      change = value_change (self->service, service);
      g_free (self->service);
      self->service = g_strdup (service);
    }
  else if (g_strcmp0 (project, self->project) != 0)
    {
      change = value_change (self->project, project);
      g_free (self->project);
      self->project = g_strdup (project);
    }
  else
    return;

  refilter (self, change);
  /* A value no request has any more leaves the choices once deselected;
   * not from inside the drop-down's own notification (its model would go
   * away under it). */
  if (self->dropdowns_idle_id == 0)
    self->dropdowns_idle_id = g_idle_add (update_dropdowns_cb, self);
  update_state (self);
}

/* Search */

static void
apply_search (TriageInboxPane *self,
              const char      *text)
{
  g_auto(GStrv) words = triage_inbox_search_parse (text);
  GtkFilterChange change;

  if (words[0] == NULL)
    g_clear_pointer (&words, g_strfreev);

  if (words == NULL && self->words == NULL)
    {
      update_state (self);
      return;
    }
  if (words != NULL && self->words != NULL &&
      g_strv_equal ((const char * const *) words, (const char * const *) self->words))
    return;

  if (triage_inbox_search_words_narrow ((const char * const *) self->words,
                                        (const char * const *) words))
    change = GTK_FILTER_CHANGE_MORE_STRICT;
  else if (triage_inbox_search_words_narrow ((const char * const *) words,
                                             (const char * const *) self->words))
    change = GTK_FILTER_CHANGE_LESS_STRICT;
  else
    change = GTK_FILTER_CHANGE_DIFFERENT;

  g_strfreev (self->words);
  self->words = g_steal_pointer (&words);

  refilter (self, change);
  update_state (self);
}

static void
on_search_changed (TriageInboxPane *self)
{
  apply_search (self, gtk_editable_get_text (GTK_EDITABLE (self->search_entry)));
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_SEARCH_TEXT]);
}

/* Opening requests */

static gboolean find_visible (TriageInboxPane *self,
                              TriageRequest   *request,
                              guint           *position);

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
  self->current_position = position;
  gtk_single_selection_set_selected (self->selection, position);
  triage_read_state_set_read (self->read_state, triage_request_get_id (request), TRUE);

  if (emit)
    g_signal_emit (self, signals [REQUEST_ACTIVATED], 0, request);
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
open_selected (TriageInboxPane *self)
{
  guint position = gtk_single_selection_get_selected (self->selection);

  if (g_list_model_get_n_items (G_LIST_MODEL (self->filter_model)) == 0)
    return;

  if (position == GTK_INVALID_LIST_POSITION)
    position = 0;

  select_position (self, position, TRUE);
  open_position (self, position, TRUE);
}

static void
on_search_activate (TriageInboxPane *self)
{
  /* Enter right after typing: once the search is applied. */
  if (!defer_until_filtered (self, DEFERRED_OPEN_SELECTED, NULL))
    open_selected (self);
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

static void
focus_list (TriageInboxPane *self)
{
  guint position;

  if (g_list_model_get_n_items (G_LIST_MODEL (self->filter_model)) == 0)
    return;

  position = gtk_single_selection_get_selected (self->selection);
  if (position == GTK_INVALID_LIST_POSITION)
    position = 0;

  select_position (self, position, TRUE);
}

static gboolean
select_next (TriageInboxPane *self)
{
  GListModel *visible = G_LIST_MODEL (self->filter_model);
  guint n = g_list_model_get_n_items (visible);
  guint position;
  guint target;

  if (n == 0)
    return FALSE;

  if (self->current == NULL)
    target = 0;
  else if (find_visible (self, self->current, &position))
    target = position + 1;
  else
    target = MIN (self->current_position, n - 1);

  if (target >= n)
    return FALSE;

  select_position (self, target, FALSE);
  open_position (self, target, TRUE);

  return TRUE;
}

/* The request before the one opened last; the first when none was opened
 * (or it left and was the first). */
static gboolean
select_previous (TriageInboxPane *self)
{
  GListModel *visible = G_LIST_MODEL (self->filter_model);
  guint n = g_list_model_get_n_items (visible);
  guint position;
  guint target;

  if (n == 0)
    return FALSE;

  if (self->current == NULL)
    target = 0;
  else if (find_visible (self, self->current, &position))
    {
      if (position == 0)
        return FALSE;
      target = position - 1;
    }
  else if (self->current_position == 0)
    target = 0;
  else
    target = MIN (self->current_position - 1, n - 1);

  select_position (self, target, FALSE);
  open_position (self, target, TRUE);

  return TRUE;
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
      select_next (self);
      break;

    case DEFERRED_PREVIOUS:
      select_previous (self);
      break;

    case DEFERRED_FOCUS_LIST:
      focus_list (self);
      break;

    case DEFERRED_OPEN_SELECTED:
      open_selected (self);
      break;

    case DEFERRED_NONE:
    default:
      break;
    }

  return G_SOURCE_REMOVE;
}

/* Rows */

static void
update_row_unread (TriageInboxPane *self,
                   TriageInboxRow  *row)
{
  TriageRequest *request = triage_inbox_row_get_request (row);

  if (request != NULL)
    triage_inbox_row_set_unread (row, !triage_read_state_is_read (self->read_state,
                                                                  triage_request_get_id (request)));
}

static void
on_read_state_changed (TriageInboxPane *self,
                       const char      *notification_id)
{
  GHashTableIter iter;
  gpointer row;

  g_hash_table_iter_init (&iter, self->bound_rows);
  while (g_hash_table_iter_next (&iter, &row, NULL))
    {
      TriageRequest *request = triage_inbox_row_get_request (row);

      if (notification_id == NULL ||
          (request != NULL && g_str_equal (triage_request_get_id (request), notification_id)))
        update_row_unread (self, row);
    }
}

static void
setup_row (GtkSignalListItemFactory *factory,
           GtkListItem              *item,
           TriageInboxPane          *self)
{
  gtk_list_item_set_child (item, triage_inbox_row_new ());
}

static void
bind_row (GtkSignalListItemFactory *factory,
          GtkListItem              *item,
          TriageInboxPane          *self)
{
  TriageInboxRow *row = TRIAGE_INBOX_ROW (gtk_list_item_get_child (item));

  triage_inbox_row_set_request (row, gtk_list_item_get_item (item));
  update_row_unread (self, row);
  g_hash_table_add (self->bound_rows, row);
}

static void
unbind_row (GtkSignalListItemFactory *factory,
            GtkListItem              *item,
            TriageInboxPane          *self)
{
  TriageInboxRow *row = TRIAGE_INBOX_ROW (gtk_list_item_get_child (item));

  g_hash_table_remove (self->bound_rows, row);
  triage_inbox_row_set_request (row, NULL);
}

static void
teardown_row (GtkSignalListItemFactory *factory,
              GtkListItem              *item,
              TriageInboxPane          *self)
{
  g_hash_table_remove (self->bound_rows, gtk_list_item_get_child (item));
}

/* Actions */

static void
focus_search_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  triage_inbox_pane_focus_search (TRIAGE_INBOX_PANE (widget));
}

static void
clear_filters_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  triage_inbox_pane_clear_filters (TRIAGE_INBOX_PANE (widget));
}

static void
copy_example_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), TRIAGE_INBOX_EXAMPLE_COMMAND);
}

/* Public API */

GListModel *
triage_inbox_pane_get_model (TriageInboxPane *self)
{
  g_return_val_if_fail (TRIAGE_IS_INBOX_PANE (self), NULL);

  return self->model;
}

/**
 * triage_inbox_pane_set_model:
 * @self: a #TriageInboxPane
 * @model: (nullable): a #GListModel of #TriageRequest (the app's #TriageInboxModel)
 *
 * Shows the requests of @model.
 */
void
triage_inbox_pane_set_model (TriageInboxPane *self,
                             GListModel      *model)
{
  guint old_n;

  g_return_if_fail (TRIAGE_IS_INBOX_PANE (self));
  g_return_if_fail (model == NULL || G_IS_LIST_MODEL (model));

  if (model == self->model)
    return;

  if (self->model != NULL)
    g_signal_handlers_disconnect_by_func (self->model, on_model_items_changed, self);

  old_n = self->mirror->len;
  g_set_object (&self->model, model);
  g_clear_object (&self->current);

  if (model != NULL)
    g_signal_connect_object (model, "items-changed",
                             G_CALLBACK (on_model_items_changed), self, G_CONNECT_SWAPPED);
  on_model_items_changed (self, 0, old_n, model ? g_list_model_get_n_items (model) : 0);
  gtk_sort_list_model_set_model (self->sort_model, model);

  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_MODEL]);
}

TriageReadState *
triage_inbox_pane_get_read_state (TriageInboxPane *self)
{
  g_return_val_if_fail (TRIAGE_IS_INBOX_PANE (self), NULL);

  return self->read_state;
}

/**
 * triage_inbox_pane_set_read_state:
 * @self: a #TriageInboxPane
 * @read_state: (nullable): where read marks live (one backed by the history
 *   database keeps them across restarts); %NULL for marks in memory only
 */
void
triage_inbox_pane_set_read_state (TriageInboxPane *self,
                                  TriageReadState *read_state)
{
  g_autoptr(TriageReadState) state = NULL;

  g_return_if_fail (TRIAGE_IS_INBOX_PANE (self));
  g_return_if_fail (read_state == NULL || TRIAGE_IS_READ_STATE (read_state));

  state = read_state ? g_object_ref (read_state) : triage_read_state_new (NULL);
  if (state == self->read_state)
    return;

  if (self->read_state != NULL)
    g_signal_handlers_disconnect_by_func (self->read_state, on_read_state_changed, self);

  g_set_object (&self->read_state, state);
  g_signal_connect_object (state, "changed",
                           G_CALLBACK (on_read_state_changed), self, G_CONNECT_SWAPPED);
  on_read_state_changed (self, NULL);

  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_READ_STATE]);
}

const char *
triage_inbox_pane_get_search_text (TriageInboxPane *self)
{
  g_return_val_if_fail (TRIAGE_IS_INBOX_PANE (self), NULL);

  return gtk_editable_get_text (GTK_EDITABLE (self->search_entry));
}

/**
 * triage_inbox_pane_set_search_text:
 * @self: a #TriageInboxPane
 * @text: (nullable): what to search for
 *
 * Sets the search at once (without the typing delay).
 */
void
triage_inbox_pane_set_search_text (TriageInboxPane *self,
                                   const char      *text)
{
  g_return_if_fail (TRIAGE_IS_INBOX_PANE (self));

  if (text == NULL)
    text = "";

  if (g_strcmp0 (text, gtk_editable_get_text (GTK_EDITABLE (self->search_entry))) != 0)
    gtk_editable_set_text (GTK_EDITABLE (self->search_entry), text);

  /* Not waiting for the entry's delay. */
  on_search_changed (self);
}

const char *
triage_inbox_pane_get_service_filter (TriageInboxPane *self)
{
  g_return_val_if_fail (TRIAGE_IS_INBOX_PANE (self), NULL);

  return self->service;
}

/**
 * triage_inbox_pane_set_service_filter:
 * @self: a #TriageInboxPane
 * @service: (nullable): a service name offered by the drop-down; %NULL for all
 *
 * Returns: %TRUE if @service is offered (and now selected)
 */
gboolean
triage_inbox_pane_set_service_filter (TriageInboxPane *self,
                                      const char      *service)
{
  g_return_val_if_fail (TRIAGE_IS_INBOX_PANE (self), FALSE);

  for (guint i = 0; i < self->service_keys->len; i++)
    if (g_strcmp0 (g_ptr_array_index (self->service_keys, i), service) == 0)
      {
        gtk_drop_down_set_selected (self->service_dropdown, i);
        return TRUE;
      }

  return FALSE;
}

const char *
triage_inbox_pane_get_project_filter (TriageInboxPane *self)
{
  g_return_val_if_fail (TRIAGE_IS_INBOX_PANE (self), NULL);

  return self->project;
}

/**
 * triage_inbox_pane_set_project_filter:
 * @self: a #TriageInboxPane
 * @project: (nullable): a project offered by the drop-down, "" for requests
 *   without one; %NULL for all
 *
 * Returns: %TRUE if @project is offered (and now selected)
 */
gboolean
triage_inbox_pane_set_project_filter (TriageInboxPane *self,
                                      const char      *project)
{
  g_return_val_if_fail (TRIAGE_IS_INBOX_PANE (self), FALSE);

  for (guint i = 0; i < self->project_keys->len; i++)
    if (g_strcmp0 (g_ptr_array_index (self->project_keys, i), project) == 0)
      {
        gtk_drop_down_set_selected (self->project_dropdown, i);
        return TRUE;
      }

  return FALSE;
}

/**
 * triage_inbox_pane_clear_filters:
 *
 * Clears the search and both drop-downs.
 */
void
triage_inbox_pane_clear_filters (TriageInboxPane *self)
{
  g_return_if_fail (TRIAGE_IS_INBOX_PANE (self));

  gtk_drop_down_set_selected (self->service_dropdown, 0);
  gtk_drop_down_set_selected (self->project_dropdown, 0);
  triage_inbox_pane_set_search_text (self, "");
}

static GStrv
dup_choices (GtkDropDown *dropdown)
{
  GListModel *model = gtk_drop_down_get_model (dropdown);
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  guint n = model ? g_list_model_get_n_items (model) : 0;

  for (guint i = 0; i < n; i++)
    g_strv_builder_add (builder, gtk_string_list_get_string (GTK_STRING_LIST (model), i));

  return g_strv_builder_end (builder);
}

/**
 * triage_inbox_pane_dup_service_choices:
 *
 * Returns: (transfer full): the labels the service drop-down offers, in order
 */
GStrv
triage_inbox_pane_dup_service_choices (TriageInboxPane *self)
{
  g_return_val_if_fail (TRIAGE_IS_INBOX_PANE (self), NULL);

  if (self->dropdowns_idle_id != 0)
    update_dropdowns (self);

  return dup_choices (self->service_dropdown);
}

/**
 * triage_inbox_pane_dup_project_choices:
 *
 * Returns: (transfer full): the labels the project drop-down offers, in order
 */
GStrv
triage_inbox_pane_dup_project_choices (TriageInboxPane *self)
{
  g_return_val_if_fail (TRIAGE_IS_INBOX_PANE (self), NULL);

  if (self->dropdowns_idle_id != 0)
    update_dropdowns (self);

  return dup_choices (self->project_dropdown);
}

/**
 * triage_inbox_pane_get_visible_model:
 *
 * Returns: (transfer none): the requests shown, in order
 */
GListModel *
triage_inbox_pane_get_visible_model (TriageInboxPane *self)
{
  g_return_val_if_fail (TRIAGE_IS_INBOX_PANE (self), NULL);

  return G_LIST_MODEL (self->filter_model);
}

/**
 * triage_inbox_pane_get_filtering:
 *
 * Returns: %TRUE while a search or filter change is still being applied
 */
gboolean
triage_inbox_pane_get_filtering (TriageInboxPane *self)
{
  g_return_val_if_fail (TRIAGE_IS_INBOX_PANE (self), FALSE);

  return gtk_filter_list_model_get_pending (self->filter_model) > 0;
}

TriageInboxPaneState
triage_inbox_pane_get_state (TriageInboxPane *self)
{
  g_return_val_if_fail (TRIAGE_IS_INBOX_PANE (self), TRIAGE_INBOX_PANE_EMPTY);

  return self->state;
}

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

  if (defer_until_filtered (self, DEFERRED_NEXT, NULL))
    return self->mirror->len > 0;

  return select_next (self);
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

  if (defer_until_filtered (self, DEFERRED_PREVIOUS, NULL))
    return self->mirror->len > 0;

  return select_previous (self);
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

  if (defer_until_filtered (self, DEFERRED_OPEN_SELECTED, NULL))
    return self->mirror->len > 0;

  if (g_list_model_get_n_items (G_LIST_MODEL (self->filter_model)) == 0)
    return FALSE;

  open_selected (self);
  return TRUE;
}

/**
 * triage_inbox_pane_set_incremental_threshold:
 * @self: a #TriageInboxPane
 * @n_requests: above this many requests, searches filter a slice at a time
 *
 * By default %TRIAGE_INBOX_PANE_INCREMENTAL_THRESHOLD. Takes effect at the
 * next search or filter change.
 */
void
triage_inbox_pane_set_incremental_threshold (TriageInboxPane *self,
                                             guint            n_requests)
{
  g_return_if_fail (TRIAGE_IS_INBOX_PANE (self));

  self->incremental_threshold = n_requests;
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

/* GObject */

static void
triage_inbox_pane_dispose (GObject *object)
{
  TriageInboxPane *self = (TriageInboxPane *)object;

  g_clear_handle_id (&self->dropdowns_idle_id, g_source_remove);
  g_clear_handle_id (&self->deferred_idle_id, g_source_remove);
  g_clear_handle_id (&self->warm_idle_id, g_source_remove);
  if (self->scroll_tick_id != 0 && self->list_view != NULL)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self->list_view), self->scroll_tick_id);
  self->scroll_tick_id = 0;
  g_clear_object (&self->scroll_target);
  if (self->model != NULL)
    g_signal_handlers_disconnect_by_func (self->model, on_model_items_changed, self);
  if (self->list_view != NULL)
    gtk_list_view_set_model (self->list_view, NULL);
  g_clear_object (&self->selection);
  g_clear_object (&self->filter_model);
  g_clear_object (&self->sort_model);
  g_clear_object (&self->filter);
  g_clear_object (&self->model);
  g_clear_object (&self->current);
  g_clear_object (&self->read_state);
  g_hash_table_remove_all (self->bound_rows);

  /* AdwBin would unparent its child again after the template did. */
  adw_bin_set_child (ADW_BIN (self), NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), TRIAGE_TYPE_INBOX_PANE);

  G_OBJECT_CLASS (triage_inbox_pane_parent_class)->dispose (object);
}

static void
triage_inbox_pane_finalize (GObject *object)
{
  TriageInboxPane *self = (TriageInboxPane *)object;

  g_clear_pointer (&self->mirror, g_ptr_array_unref);
  g_clear_pointer (&self->service_counts, g_hash_table_unref);
  g_clear_pointer (&self->project_counts, g_hash_table_unref);
  g_clear_pointer (&self->service_keys, g_ptr_array_unref);
  g_clear_pointer (&self->project_keys, g_ptr_array_unref);
  g_clear_pointer (&self->bound_rows, g_hash_table_unref);
  g_clear_pointer (&self->words, g_strfreev);
  g_free (self->service);
  g_free (self->project);
  g_free (self->deferred_id);

  G_OBJECT_CLASS (triage_inbox_pane_parent_class)->finalize (object);
}

static void
triage_inbox_pane_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  TriageInboxPane *self = TRIAGE_INBOX_PANE (object);

  switch (prop_id)
    {
    case PROP_MODEL:
      g_value_set_object (value, self->model);
      break;

    case PROP_READ_STATE:
      g_value_set_object (value, self->read_state);
      break;

    case PROP_SEARCH_TEXT:
      g_value_set_string (value, triage_inbox_pane_get_search_text (self));
      break;

    case PROP_STATE:
      g_value_set_uint (value, self->state);
      break;

    case PROP_FILTERING:
      g_value_set_boolean (value, triage_inbox_pane_get_filtering (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
triage_inbox_pane_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  TriageInboxPane *self = TRIAGE_INBOX_PANE (object);

  switch (prop_id)
    {
    case PROP_MODEL:
      triage_inbox_pane_set_model (self, g_value_get_object (value));
      break;

    case PROP_READ_STATE:
      triage_inbox_pane_set_read_state (self, g_value_get_object (value));
      break;

    case PROP_SEARCH_TEXT:
      triage_inbox_pane_set_search_text (self, g_value_get_string (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
triage_inbox_pane_class_init (TriageInboxPaneClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = triage_inbox_pane_dispose;
  object_class->finalize = triage_inbox_pane_finalize;
  object_class->get_property = triage_inbox_pane_get_property;
  object_class->set_property = triage_inbox_pane_set_property;

  properties [PROP_MODEL] =
    g_param_spec_object ("model", NULL, NULL, G_TYPE_LIST_MODEL,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties [PROP_READ_STATE] =
    g_param_spec_object ("read-state", NULL, NULL, TRIAGE_TYPE_READ_STATE,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties [PROP_SEARCH_TEXT] =
    g_param_spec_string ("search-text", NULL, NULL, NULL,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties [PROP_STATE] =
    g_param_spec_uint ("state", NULL, NULL,
                       TRIAGE_INBOX_PANE_EMPTY, TRIAGE_INBOX_PANE_LIST, TRIAGE_INBOX_PANE_EMPTY,
                       (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties [PROP_FILTERING] =
    g_param_spec_boolean ("filtering", NULL, NULL, FALSE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * TriageInboxPane::request-activated:
   * @self: the pane
   * @request: the request the person opened (click, Enter)
   *
   * The person wants to see and answer @request; it is marked read.
   */
  signals [REQUEST_ACTIVATED] =
    g_signal_new ("request-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, TRIAGE_TYPE_REQUEST);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               RESOURCE_BASE "/browse/triage-inbox-pane.ui");
  gtk_widget_class_bind_template_child (widget_class, TriageInboxPane, filter_box);
  gtk_widget_class_bind_template_child (widget_class, TriageInboxPane, search_entry);
  gtk_widget_class_bind_template_child (widget_class, TriageInboxPane, service_dropdown);
  gtk_widget_class_bind_template_child (widget_class, TriageInboxPane, project_dropdown);
  gtk_widget_class_bind_template_child (widget_class, TriageInboxPane, stack);
  gtk_widget_class_bind_template_child (widget_class, TriageInboxPane, no_results_page);
  gtk_widget_class_bind_template_child (widget_class, TriageInboxPane, example_label);
  gtk_widget_class_bind_template_child (widget_class, TriageInboxPane, list_view);
  gtk_widget_class_bind_template_callback (widget_class, on_search_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_search_activate);
  gtk_widget_class_bind_template_callback (widget_class, on_search_stop);
  gtk_widget_class_bind_template_callback (widget_class, on_dropdown_selected);
  gtk_widget_class_bind_template_callback (widget_class, on_list_activate);

  gtk_widget_class_install_action (widget_class, "inbox.focus-search", NULL, focus_search_action);
  gtk_widget_class_install_action (widget_class, "inbox.clear-filters", NULL, clear_filters_action);
  gtk_widget_class_install_action (widget_class, "inbox.copy-example", NULL, copy_example_action);

  g_type_ensure (TRIAGE_TYPE_INBOX_ROW);
}

static void
triage_inbox_pane_init (TriageInboxPane *self)
{
  g_autoptr(GtkListItemFactory) factory = NULL;
  g_autoptr(GtkExpression) expression = NULL;
  GtkEventController *controller;
  GtkShortcut *shortcut;

  triage_browse_style_init ();
  gtk_widget_init_template (GTK_WIDGET (self));
  triage_browse_prepare_drop_down (self->service_dropdown);
  triage_browse_prepare_drop_down (self->project_dropdown);

  self->mirror = g_ptr_array_new_with_free_func (slot_free);
  self->service_counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->project_counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->bound_rows = g_hash_table_new (NULL, NULL);
  self->state = TRIAGE_INBOX_PANE_EMPTY;

  gtk_label_set_label (self->example_label, TRIAGE_INBOX_EXAMPLE_COMMAND);

  /* source → sort → filter → selection */
  self->sort_model = gtk_sort_list_model_new (NULL,
                                              GTK_SORTER (gtk_custom_sorter_new (compare_requests, NULL, NULL)));
  self->filter = gtk_custom_filter_new (match_request, self, NULL);
  self->filter_model = gtk_filter_list_model_new (G_LIST_MODEL (g_object_ref (self->sort_model)),
                                                  GTK_FILTER (g_object_ref (self->filter)));
  self->incremental_threshold = TRIAGE_INBOX_PANE_INCREMENTAL_THRESHOLD;
  self->selection = gtk_single_selection_new (G_LIST_MODEL (g_object_ref (self->filter_model)));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);

  g_signal_connect_object (self->filter_model, "items-changed",
                           G_CALLBACK (update_state), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->filter_model, "notify::pending",
                           G_CALLBACK (on_filter_pending), self, G_CONNECT_SWAPPED);

  factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (setup_row), self);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_row), self);
  g_signal_connect (factory, "unbind", G_CALLBACK (unbind_row), self);
  g_signal_connect (factory, "teardown", G_CALLBACK (teardown_row), self);
  gtk_list_view_set_factory (self->list_view, factory);
  gtk_list_view_set_model (self->list_view, GTK_SELECTION_MODEL (self->selection));

  /* Drop-downs show their strings; typing in the popup searches them. */
  expression = gtk_property_expression_new (GTK_TYPE_STRING_OBJECT, NULL, "string");
  gtk_drop_down_set_expression (self->service_dropdown, expression);
  gtk_drop_down_set_expression (self->project_dropdown, expression);
  update_dropdowns (self);

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

  triage_inbox_pane_set_read_state (self, NULL);
  update_state (self);
  gtk_stack_set_visible_child_name (self->stack, "empty");
}

/**
 * triage_inbox_pane_new:
 *
 * Returns: (transfer full): a new, empty inbox pane; give it the app's
 *   #TriageInboxModel with triage_inbox_pane_set_model()
 */
GtkWidget *
triage_inbox_pane_new (void)
{
  return g_object_new (TRIAGE_TYPE_INBOX_PANE, NULL);
}
