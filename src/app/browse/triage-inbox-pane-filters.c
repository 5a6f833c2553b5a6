/* triage-inbox-pane-filters.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-inbox"

#include <glib/gi18n.h>
#include <string.h>

#include "triage-browse-style.h"
#include "triage-inbox-pane-private.h"
#include "triage-inbox-search.h"

/*
 * The inbox pane's search and filters: the search words, the service and
 * project drop-downs, and the filter that applies them (a slice at a time
 * above the incremental threshold). A mirror of the source's items counts
 * the values the drop-downs offer.
 */

gboolean
triage_inbox_pane_match_request (gpointer item,
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
  self->warm_running = FALSE;
  return G_SOURCE_REMOVE;
}

/* The warm-up starts once requests stopped coming for a moment: while a
 * resync brings the pending set a page at a time, its idle turns took the
 * main loop (5 % of the app's CPU) from the pages still being listed and
 * shown (bench/app's full day). A search meanwhile folds what it needs.
 *
 * One timer waits for that moment: requests added meanwhile only move
 * warm_last_added, and the timer, when it fires, waits again for what is
 * left of the quiet (a full day's resync adds 10,000, and removing and
 * adding the timer for each was work for nothing). */
#define WARM_QUIET_MS 300

static gboolean
warm_quiet_cb (gpointer data)
{
  TriageInboxPane *self = data;
  gint64 quiet_at = self->warm_last_added + WARM_QUIET_MS * G_TIME_SPAN_MILLISECOND;
  gint64 now = g_get_monotonic_time ();

  if (now < quiet_at)
    {
      gint64 left_ms = (quiet_at - now + G_TIME_SPAN_MILLISECOND - 1) / G_TIME_SPAN_MILLISECOND;

      self->warm_idle_id = g_timeout_add ((guint) left_ms, warm_quiet_cb, self);
    }
  else
    {
      self->warm_running = TRUE;
      self->warm_idle_id = g_idle_add_full (G_PRIORITY_LOW, warm_haystacks_cb, self, NULL);
    }

  return G_SOURCE_REMOVE;
}

void
triage_inbox_pane_source_items_changed (TriageInboxPane *self,
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
      self->warm_last_added = g_get_monotonic_time ();
      /* New requests put off a warm-up already running as well: it waits
       * for the quiet again. */
      if (self->warm_running)
        {
          g_clear_handle_id (&self->warm_idle_id, g_source_remove);
          self->warm_running = FALSE;
        }
      if (self->warm_idle_id == 0)
        self->warm_idle_id = g_timeout_add (WARM_QUIET_MS, warm_quiet_cb, self);
    }
  else
    self->warm_position = MIN (self->warm_position, self->mirror->len);

  triage_inbox_pane_update_state (self);
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
  triage_inbox_pane_update_state (self);
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
      triage_inbox_pane_update_state (self);
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
  triage_inbox_pane_update_state (self);
}

static void
on_search_changed (TriageInboxPane *self)
{
  apply_search (self, gtk_editable_get_text (GTK_EDITABLE (self->search_entry)));
  triage_inbox_pane_notify_search_text (self);
}

static void
clear_filters_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  triage_inbox_pane_clear_filters (TRIAGE_INBOX_PANE (widget));
}

/* Public API */

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

  return triage_browse_select_drop_down_key (self->service_dropdown, self->service_keys,
                                             service);
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

  return triage_browse_select_drop_down_key (self->project_dropdown, self->project_keys,
                                             project);
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

  return triage_browse_dup_drop_down_strings (self->service_dropdown);
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

  return triage_browse_dup_drop_down_strings (self->project_dropdown);
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

/* Private */

void
triage_inbox_pane_class_init_filters (GtkWidgetClass *widget_class)
{
  gtk_widget_class_bind_template_callback (widget_class, on_search_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_dropdown_selected);

  gtk_widget_class_install_action (widget_class, "inbox.clear-filters", NULL, clear_filters_action);
}

void
triage_inbox_pane_init_filters (TriageInboxPane *self)
{
  g_autoptr(GtkExpression) expression = NULL;

  /* Drop-downs show their strings; typing in the popup searches them. */
  expression = gtk_property_expression_new (GTK_TYPE_STRING_OBJECT, NULL, "string");
  gtk_drop_down_set_expression (self->service_dropdown, expression);
  gtk_drop_down_set_expression (self->project_dropdown, expression);
  update_dropdowns (self);
}
