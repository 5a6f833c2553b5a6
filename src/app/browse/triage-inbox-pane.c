/* triage-inbox-pane.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-inbox"

#include <glib/gi18n.h>
#include <string.h>

#include "triage-browse-style.h"
#include "triage-inbox-pane-private.h"
#include "triage-inbox-row.h"

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
 *
 * This file holds the widget, its model chain, the rows and the state
 * pages; the search and drop-downs are in triage-inbox-pane-filters.c,
 * opening requests and keyboard triage in triage-inbox-pane-keyboard.c.
 */

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

/* Sorting */

static int
compare_requests (gconstpointer a,
                  gconstpointer b,
                  gpointer      user_data)
{
  return triage_request_compare ((TriageRequest *) a, (TriageRequest *) b);
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

void
triage_inbox_pane_update_state (TriageInboxPane *self)
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

static void
on_filter_pending (TriageInboxPane *self)
{
  triage_inbox_pane_update_state (self);
  triage_inbox_pane_run_deferred_when_idle (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_FILTERING]);
}

void
triage_inbox_pane_notify_search_text (TriageInboxPane *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_SEARCH_TEXT]);
}

void
triage_inbox_pane_emit_request_activated (TriageInboxPane *self,
                                          TriageRequest   *request)
{
  g_signal_emit (self, signals [REQUEST_ACTIVATED], 0, request);
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

/* A click opens the row. The list's own single-click activation would also
 * select whatever row the pointer passes over, moving the selection off the
 * request that is open: the row's gesture runs before the list item's. */
static void
on_row_click_released (GtkGestureClick *gesture,
                       int              n_press,
                       double           x,
                       double           y,
                       GtkListItem     *item)
{
  GtkWidget *row = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (gesture));
  guint position = gtk_list_item_get_position (item);

  if (n_press != 1 || position == GTK_INVALID_LIST_POSITION)
    return;

  gtk_widget_activate_action (row, "list.activate-item", "u", position);
}

static void
setup_row (GtkSignalListItemFactory *factory,
           GtkListItem              *item,
           TriageInboxPane          *self)
{
  GtkWidget *row = triage_inbox_row_new ();
  GtkGesture *click = gtk_gesture_click_new ();

  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), GDK_BUTTON_PRIMARY);
  g_signal_connect_object (click, "released", G_CALLBACK (on_row_click_released), item, 0);
  gtk_widget_add_controller (row, GTK_EVENT_CONTROLLER (click));
  gtk_list_item_set_child (item, row);
}

/* A new day (midnight, or waking after it): the rows' deadlines say "due
 * tomorrow" of what is due today. */
static void
on_day_changed (TriageInboxPane *self)
{
  GHashTableIter iter;
  gpointer row;

  g_hash_table_iter_init (&iter, self->bound_rows);
  while (g_hash_table_iter_next (&iter, &row, NULL))
    triage_inbox_row_update (row);
}

/* From the first row shown: the app stays in the tray for days. */
static void
watch_day (TriageInboxPane *self)
{
  if (self->day_clock != NULL)
    return;

  self->day_clock = triage_day_clock_get_default ();
  g_signal_connect_object (self->day_clock, "day-changed",
                           G_CALLBACK (on_day_changed), self, G_CONNECT_SWAPPED);
}

static void
bind_row (GtkSignalListItemFactory *factory,
          GtkListItem              *item,
          TriageInboxPane          *self)
{
  TriageInboxRow *row = TRIAGE_INBOX_ROW (gtk_list_item_get_child (item));

  triage_inbox_row_set_server_wait (row, self->server_wait);
  triage_inbox_row_set_request (row, gtk_list_item_get_item (item));
  update_row_unread (self, row);
  g_hash_table_add (self->bound_rows, row);
  watch_day (self);
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

/**
 * triage_inbox_dup_example_command:
 * @program: (nullable): the running app's own file
 *
 * The app run from a build tree (build-aux/start.sh, `meson devenv`) has
 * its triage-ask in the tree, on no PATH a new terminal has: there the
 * command names it by its whole path, so that it runs as pasted. Installed,
 * triage-ask lies beside the app and goes by its name.
 *
 * Returns: (transfer full): the command the empty inbox suggests
 */
char *
triage_inbox_dup_example_command (const char *program)
{
  g_autofree char *dir = NULL;
  g_autofree char *beside = NULL;
  g_autofree char *in_tree = NULL;
  g_autoptr(GFile) file = NULL;
  g_autofree char *path = NULL;
  const char *args = TRIAGE_INBOX_EXAMPLE_COMMAND + strlen ("triage-ask");

  if (program == NULL)
    return g_strdup (TRIAGE_INBOX_EXAMPLE_COMMAND);

  dir = g_path_get_dirname (program);
  beside = g_build_filename (dir, "triage-ask", NULL);
  in_tree = g_build_filename (dir, "..", "cli", "triage-ask", NULL);
  if (g_file_test (beside, G_FILE_TEST_IS_EXECUTABLE) ||
      !g_file_test (in_tree, G_FILE_TEST_IS_EXECUTABLE))
    return g_strdup (TRIAGE_INBOX_EXAMPLE_COMMAND);

  /* Without the "..": the path as a person would type it. */
  file = g_file_new_for_path (in_tree);
  path = g_file_get_path (file);
  for (const char *p = path; *p != '\0'; p++)
    if (!g_ascii_isalnum (*p) && strchr ("/._+-", *p) == NULL)
      {
        g_autofree char *quoted = g_shell_quote (path);

        return g_strconcat (quoted, args, NULL);
      }

  return g_strconcat (path, args, NULL);
}

/*
 * The empty page's hint. In local mode, a command that sends this computer's
 * server a first request. In remote mode that command would reach a local
 * server nobody is looking at: the hint says where agents send instead.
 */
static void
update_empty_hint (TriageInboxPane *self)
{
  g_autofree char *url = NULL;
  gboolean remote = FALSE;

  if (self->settings != NULL)
    {
      remote = g_settings_get_enum (self->settings, "server-mode") == 1;
      url = g_settings_get_string (self->settings, "server-url");
    }

  gtk_widget_set_visible (gtk_widget_get_parent (GTK_WIDGET (self->example_label)), !remote);
  if (remote && url != NULL && *url != '\0')
    {
      /* Translators: %s is the address of the team's Triage server */
      g_autofree char *description =
        g_strdup_printf (_("When an agent needs a decision from you, it appears here. Agents send "
                           "their requests to %s, with a service key from that server's "
                           "administrator."), url);

      adw_status_page_set_description (self->empty_page, description);
    }
  else if (remote)
    adw_status_page_set_description (self->empty_page,
                                     _("When an agent needs a decision from you, it appears here. "
                                       "Agents send their requests to the server set in Preferences."));
  else
    adw_status_page_set_description (self->empty_page, self->local_description);
}

/* Actions */


static void
copy_example_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  TriageInboxPane *self = TRIAGE_INBOX_PANE (widget);

  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), gtk_label_get_label (self->example_label));
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
    g_signal_handlers_disconnect_by_func (self->model, triage_inbox_pane_source_items_changed, self);

  old_n = self->mirror->len;
  g_set_object (&self->model, model);
  g_clear_object (&self->current);

  if (model != NULL)
    g_signal_connect_object (model, "items-changed",
                             G_CALLBACK (triage_inbox_pane_source_items_changed), self, G_CONNECT_SWAPPED);
  triage_inbox_pane_source_items_changed (self, 0, old_n, model ? g_list_model_get_n_items (model) : 0);
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

/**
 * triage_inbox_pane_set_server_wait:
 * @self: a #TriageInboxPane
 * @until: (nullable): the end of the wait the server asked for (a 429's or
 *   503's Retry-After), or %NULL
 *
 * The rows of answers waiting to be sent say when they go, as the open
 * request's banner does.
 */
void
triage_inbox_pane_set_server_wait (TriageInboxPane *self,
                                   GDateTime       *until)
{
  GHashTableIter iter;
  gpointer row;

  g_return_if_fail (TRIAGE_IS_INBOX_PANE (self));

  if (self->server_wait == until)
    return;

  g_clear_pointer (&self->server_wait, g_date_time_unref);
  self->server_wait = until ? g_date_time_ref (until) : NULL;
  g_hash_table_iter_init (&iter, self->bound_rows);
  while (g_hash_table_iter_next (&iter, &row, NULL))
    triage_inbox_row_set_server_wait (row, until);
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

TriageInboxPaneState
triage_inbox_pane_get_state (TriageInboxPane *self)
{
  g_return_val_if_fail (TRIAGE_IS_INBOX_PANE (self), TRIAGE_INBOX_PANE_EMPTY);

  return self->state;
}

/* GObject */

static void
triage_inbox_pane_dispose (GObject *object)
{
  TriageInboxPane *self = (TriageInboxPane *)object;

  g_clear_handle_id (&self->dropdowns_idle_id, g_source_remove);
  g_clear_handle_id (&self->deferred_idle_id, g_source_remove);
  g_clear_handle_id (&self->warm_idle_id, g_source_remove);
  if (self->day_clock != NULL)
    g_signal_handlers_disconnect_by_data (self->day_clock, self);
  g_clear_object (&self->day_clock);
  if (self->scroll_tick_id != 0 && self->list_view != NULL)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self->list_view), self->scroll_tick_id);
  self->scroll_tick_id = 0;
  g_clear_object (&self->scroll_target);
  if (self->model != NULL)
    g_signal_handlers_disconnect_by_func (self->model, triage_inbox_pane_source_items_changed, self);
  if (self->list_view != NULL)
    gtk_list_view_set_model (self->list_view, NULL);
  g_clear_object (&self->selection);
  g_clear_object (&self->filter_model);
  g_clear_object (&self->sort_model);
  g_clear_object (&self->filter);
  g_clear_object (&self->model);
  g_clear_object (&self->current);
  g_clear_object (&self->read_state);
  g_clear_object (&self->settings);
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
  g_clear_pointer (&self->server_wait, g_date_time_unref);
  g_clear_pointer (&self->words, g_strfreev);
  g_free (self->service);
  g_free (self->project);
  g_free (self->deferred_id);
  g_free (self->local_description);

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
  gtk_widget_class_bind_template_child (widget_class, TriageInboxPane, empty_page);
  gtk_widget_class_bind_template_child (widget_class, TriageInboxPane, example_label);
  gtk_widget_class_bind_template_child (widget_class, TriageInboxPane, list_view);

  gtk_widget_class_install_action (widget_class, "inbox.copy-example", NULL, copy_example_action);

  triage_inbox_pane_class_init_filters (widget_class);
  triage_inbox_pane_class_init_keyboard (widget_class);

  g_type_ensure (TRIAGE_TYPE_INBOX_ROW);
}

static void
triage_inbox_pane_init (TriageInboxPane *self)
{
  g_autoptr(GtkListItemFactory) factory = NULL;

  triage_browse_style_init ();
  gtk_widget_init_template (GTK_WIDGET (self));
  triage_browse_prepare_drop_down (self->service_dropdown);
  triage_browse_prepare_drop_down (self->project_dropdown);

  self->mirror = g_ptr_array_new_with_free_func (slot_free);
  self->service_counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->project_counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->bound_rows = g_hash_table_new (NULL, NULL);
  self->state = TRIAGE_INBOX_PANE_EMPTY;

  {
    g_autofree char *program = g_file_read_link ("/proc/self/exe", NULL);
    g_autofree char *example = triage_inbox_dup_example_command (program);

    PangoAttrList *attrs = pango_attr_list_new ();

    gtk_label_set_label (self->example_label, example);
    /* A path wrapped inside a word gets no hyphen: the command is pasted or typed as shown. */
    pango_attr_list_insert (attrs, pango_attr_insert_hyphens_new (FALSE));
    gtk_label_set_attributes (self->example_label, attrs);
    pango_attr_list_unref (attrs);
  }

  /* The server mode, from the app's settings (absent in some widget tests). */
  {
    GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
    g_autoptr(GSettingsSchema) schema =
      source ? g_settings_schema_source_lookup (source, APPLICATION_ID, TRUE) : NULL;

    self->local_description = g_strdup (adw_status_page_get_description (self->empty_page));
    if (schema != NULL)
      {
        self->settings = g_settings_new_full (schema, NULL, NULL);
        g_signal_connect_object (self->settings, "changed::server-mode",
                                 G_CALLBACK (update_empty_hint), self, G_CONNECT_SWAPPED);
        g_signal_connect_object (self->settings, "changed::server-url",
                                 G_CALLBACK (update_empty_hint), self, G_CONNECT_SWAPPED);
      }
    update_empty_hint (self);
  }

  /* source → sort → filter → selection */
  self->sort_model = gtk_sort_list_model_new (NULL,
                                              GTK_SORTER (gtk_custom_sorter_new (compare_requests, NULL, NULL)));
  self->filter = gtk_custom_filter_new (triage_inbox_pane_match_request, self, NULL);
  self->filter_model = gtk_filter_list_model_new (G_LIST_MODEL (g_object_ref (self->sort_model)),
                                                  GTK_FILTER (g_object_ref (self->filter)));
  self->incremental_threshold = TRIAGE_INBOX_PANE_INCREMENTAL_THRESHOLD;
  self->selection = gtk_single_selection_new (G_LIST_MODEL (g_object_ref (self->filter_model)));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);

  g_signal_connect_object (self->filter_model, "items-changed",
                           G_CALLBACK (triage_inbox_pane_update_state), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->filter_model, "notify::pending",
                           G_CALLBACK (on_filter_pending), self, G_CONNECT_SWAPPED);

  factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (setup_row), self);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_row), self);
  g_signal_connect (factory, "unbind", G_CALLBACK (unbind_row), self);
  g_signal_connect (factory, "teardown", G_CALLBACK (teardown_row), self);
  gtk_list_view_set_factory (self->list_view, factory);
  gtk_list_view_set_model (self->list_view, GTK_SELECTION_MODEL (self->selection));
  triage_browse_tab_past_list (GTK_WIDGET (self->list_view));

  triage_inbox_pane_init_filters (self);
  triage_inbox_pane_init_keyboard (self);

  triage_inbox_pane_set_read_state (self, NULL);
  triage_inbox_pane_update_state (self);
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
