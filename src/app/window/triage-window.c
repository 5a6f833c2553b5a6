/* triage-window.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-window"

#include <glib/gi18n.h>

#include "triage-decision-format.h"
#include "triage-status-page-a11y.h"
#include "triage-window-private.h"

/*
 * The main window, two views of one AdwViewStack (Alt+1, Alt+2):
 *
 * - Inbox: the pending requests on the left (TriageInboxPane: search,
 *   service and project filters, unread marks, the first-run help), the
 *   request being answered on the right (the decision view), in an
 *   AdwLeaflet so a narrow window shows one at a time. A bar above the list
 *   says how the connection stands, with a "Retry Now" button (app.retry,
 *   Ctrl+R); passing failures are toasts.
 * - History: every request with what became of it (TriageHistoryView over
 *   the app's database); an entry opened slides in as a read-only decision
 *   view of the request as it was received.
 *
 * The request shown is the one the person opened, and it stays shown when it
 * leaves the inbox (answered elsewhere, expired, withdrawn): the view turns
 * read-only and says what happened, instead of vanishing under the cursor.
 * An answer given in the view moves on to the next request once the app has
 * stored it (triage-window-delivery.c). The window never answers by itself:
 * ::submit hands the answer (already validated and confirmed by the decision
 * view) to the application.
 *
 * Keyboard triage: Ctrl+F searches, Down goes to the list, Enter (or
 * Alt+Right) opens a request and puts the keyboard on its first answer,
 * Ctrl+Return sends from an editor, Ctrl+Page Down/Up (Alt+Down/Up) open the
 * next or previous request, Alt+Left goes back to the list.
 *
 * An attachment (or a request's whole text) opens over both views, in this
 * window (triage-window-preview.c).
 */

G_DEFINE_FINAL_TYPE (TriageWindow, triage_window, ADW_TYPE_APPLICATION_WINDOW)

enum {
  PROP_0,
  PROP_MODEL,
  PROP_HISTORY_DB,
  PROP_READ_STATE,
  N_PROPS
};

enum {
  SUBMIT,
  N_SIGNALS
};

static GParamSpec *properties [N_PROPS];
static guint signals [N_SIGNALS];

gboolean
_triage_window_history_shown (TriageWindow *self)
{
  return g_strcmp0 (adw_view_stack_get_visible_child_name (self->views), "history") == 0;
}

/* The header above the view names the request as it reads now. */
static void
show_current_title (TriageWindow *self)
{
  const char *service_name = triage_request_get_service_name (self->current);
  g_autofree char *title = NULL;
  g_autofree char *service = NULL;

  title = triage_format_cut_text (triage_request_get_title (self->current), TRIAGE_SHOWN_ROW_CHARS);
  service = triage_format_cut_text (service_name ? service_name : "", TRIAGE_SHOWN_NAME_CHARS);
  adw_window_title_set_title (self->content_title, title);
  adw_window_title_set_subtitle (self->content_title, service);
}

/* A resync or an update brought the open request changed (its title, its
 * text, its attachments): shown as it reads now. The same request shown
 * again keeps what the person typed or chose, and where the answer stands. */
static void
on_current_notification_changed (TriageWindow *self)
{
  AtpNotification *notification = triage_request_get_notification (self->current);

  if (triage_request_view_get_request (self->decision_view) == notification)
    return;

  triage_request_view_set_request (self->decision_view, notification);
  show_current_title (self);
  _triage_window_update_view_state (self);
}

static void
set_current (TriageWindow  *self,
             TriageRequest *request)
{
  if (request == self->current)
    return;

  g_set_object (&self->current, request);
  g_signal_group_set_target (self->current_signals, request);
  g_clear_pointer (&self->answered_here, g_free);

  if (request == NULL)
    {
      gtk_stack_set_visible_child_name (self->content_stack, "placeholder");
      adw_window_title_set_title (self->content_title, "");
      adw_window_title_set_subtitle (self->content_title, "");
      return;
    }

  triage_request_view_set_request (self->decision_view,
                                         triage_request_get_notification (request));
  triage_request_view_set_delivery_state (self->decision_view, TRIAGE_DELIVERY_NONE);
  _triage_window_update_view_state (self);
  show_current_title (self);
  gtk_stack_set_visible_child_name (self->content_stack, "decision");
  adw_leaflet_set_visible_child (self->leaflet, self->content);
}

/* Opened from the list (click, Enter), by next/previous or by itself after
 * an answer: shown with the keyboard on its heading, which a screen reader
 * reads, and Tab goes on to its answers. Never on an answer control: the
 * Enter that opened it, or one held or repeated for the request answered
 * before, would answer this one unseen. */
static void
on_request_activated (TriageWindow  *self,
                      TriageRequest *request)
{
  set_current (self, request);
  triage_request_view_focus_heading (self->decision_view);
}

/* Given here: the app stores and sends it, and the window follows it
 * (triage-window-delivery.c). */
static void
on_decision_submit (TriageWindow *self,
                    const char   *action_id,
                    JsonNode     *response_data)
{
  if (self->current == NULL)
    return;

  g_free (self->answered_here);
  self->answered_here = g_strdup (triage_request_get_id (self->current));
  g_signal_emit (self, signals [SUBMIT], 0,
                 triage_request_get_id (self->current), action_id, response_data);
}

static void
present_attachment (TriageWindow      *self,
                    TriageRequestView *view,
                    guint              index)
{
  AtpNotification *notification = triage_request_view_get_request (view);

  if (notification == NULL || index >= notification->context.attachments->len)
    return;

  triage_window_show_attachment (self, g_ptr_array_index (notification->context.attachments, index),
                                 notification->service.name);
}

static void
on_attachment_activated (TriageWindow *self,
                         guint         index)
{
  present_attachment (self, self->decision_view, index);
}

static void
on_past_attachment_activated (TriageWindow *self,
                              guint         index)
{
  present_attachment (self, self->past_view, index);
}

static void
on_leaflet_folded (TriageWindow *self)
{
  /* Folding keeps what the person was looking at: the request, or the list. */
  if (adw_leaflet_get_folded (self->leaflet))
    adw_leaflet_set_visible_child (self->leaflet,
                                   self->current ? self->content : self->sidebar);
}

static void
on_view_changed (TriageWindow *self)
{
  gboolean history = _triage_window_history_shown (self);

  /* F10 opens the menu of the view shown. */
  gtk_menu_button_set_primary (self->inbox_menu_button, !history);
  gtk_menu_button_set_primary (self->history_menu_button, history);
}

/**
 * triage_window_show_request:
 * @self: a #TriageWindow
 * @notification_id: a request in the inbox
 *
 * Opens a request (from a notification bubble or the tray): the inbox view,
 * the request selected in the list (search and filters make way if they
 * hide it), marked read and shown.
 *
 * Returns: %TRUE if the request is in the inbox and now shown
 */
gboolean
triage_window_show_request (TriageWindow *self,
                            const char   *notification_id)
{
  TriageRequest *request;

  g_return_val_if_fail (TRIAGE_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (notification_id != NULL, FALSE);

  request = triage_inbox_model_lookup (self->model, notification_id);
  if (request != NULL)
    triage_inbox_pane_show_request (self->inbox_pane, notification_id);
  else if (self->current == NULL ||
           !g_str_equal (triage_request_get_id (self->current), notification_id))
    return FALSE;
  else
    request = self->current;   /* settled while open: still shown */

  triage_window_show_view (self, "inbox");
  set_current (self, request);
  adw_leaflet_set_visible_child (self->leaflet, self->content);
  /* Opened from a bubble or the tray: the keyboard on its heading. */
  triage_request_view_focus_heading (self->decision_view);

  return TRUE;
}

/**
 * triage_window_show_view:
 * @self: a #TriageWindow
 * @name: "inbox" or "history"
 *
 * Shows one of the window's two views (Alt+1, Alt+2); a preview shown over
 * them closes.
 */
void
triage_window_show_view (TriageWindow *self,
                         const char   *name)
{
  g_return_if_fail (TRIAGE_IS_WINDOW (self));
  g_return_if_fail (g_strcmp0 (name, "inbox") == 0 || g_strcmp0 (name, "history") == 0);

  _triage_window_close_preview (self);
  adw_view_stack_set_visible_child_name (self->views, name);
}

/**
 * triage_window_get_view:
 *
 * Returns: "inbox" or "history", the view shown
 */
const char *
triage_window_get_view (TriageWindow *self)
{
  g_return_val_if_fail (TRIAGE_IS_WINDOW (self), NULL);

  return adw_view_stack_get_visible_child_name (self->views);
}

/**
 * triage_window_get_current_request:
 *
 * Returns: (transfer none) (nullable): the request shown
 */
TriageRequest *
triage_window_get_current_request (TriageWindow *self)
{
  g_return_val_if_fail (TRIAGE_IS_WINDOW (self), NULL);

  return self->current;
}

/**
 * triage_window_get_decision_view:
 *
 * Returns: (transfer none) (nullable): the view of the request shown (the
 *   #TriageRequestView of its protocol)
 */
GtkWidget *
triage_window_get_decision_view (TriageWindow *self)
{
  g_return_val_if_fail (TRIAGE_IS_WINDOW (self), NULL);

  return GTK_WIDGET (triage_request_stack_get_view (TRIAGE_REQUEST_STACK (self->decision_view)));
}

/**
 * triage_window_get_inbox_pane:
 *
 * Returns: (transfer none): the list of pending requests
 */
TriageInboxPane *
triage_window_get_inbox_pane (TriageWindow *self)
{
  g_return_val_if_fail (TRIAGE_IS_WINDOW (self), NULL);

  return self->inbox_pane;
}

/**
 * triage_window_get_history_view:
 *
 * Returns: (transfer none): the decision history
 */
TriageHistoryView *
triage_window_get_history_view (TriageWindow *self)
{
  g_return_val_if_fail (TRIAGE_IS_WINDOW (self), NULL);

  return self->history_view;
}

/**
 * triage_window_get_past_view:
 *
 * Returns: (transfer none) (nullable): the view of a request opened from the
 *   history
 */
GtkWidget *
triage_window_get_past_view (TriageWindow *self)
{
  g_return_val_if_fail (TRIAGE_IS_WINDOW (self), NULL);

  return GTK_WIDGET (triage_request_stack_get_view (TRIAGE_REQUEST_STACK (self->past_view)));
}

static void
drafts_open_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  if (!triage_store_open_finish (TRIAGE_STORE (object), result, &error))
    g_message ("Drafts will not be kept: %s", error->message);
}

/**
 * triage_window_set_history_db:
 * @self: a #TriageWindow
 * @db: (nullable): the app's database, open, for the history view
 *
 * Gives the history view its database (the app opens it after the store).
 */
void
triage_window_set_history_db (TriageWindow    *self,
                              TriageHistoryDb *db)
{
  g_return_if_fail (TRIAGE_IS_WINDOW (self));
  g_return_if_fail (db == NULL || TRIAGE_IS_HISTORY_DB (db));

  if (!g_set_object (&self->history_db, db))
    return;

  /* Drafts live in the same database, through a connection of the window's
   * own (the app's store object stays the app's). */
  g_clear_object (&self->drafts);
  if (db != NULL)
    {
      self->drafts = triage_store_new (triage_history_db_get_path (db));
      triage_store_open_async (self->drafts, NULL, drafts_open_cb, NULL);
    }
  triage_request_stack_set_store (TRIAGE_REQUEST_STACK (self->decision_view), self->drafts);
  triage_request_stack_set_store (TRIAGE_REQUEST_STACK (self->past_view), self->drafts);

  triage_history_view_set_db (self->history_view, db);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_HISTORY_DB]);
}

/**
 * triage_window_set_read_state:
 * @self: a #TriageWindow
 * @read_state: (nullable): which requests were opened, kept by the app
 *   for its whole life (a window may come and go before its history opens)
 */
void
triage_window_set_read_state (TriageWindow    *self,
                              TriageReadState *read_state)
{
  g_return_if_fail (TRIAGE_IS_WINDOW (self));
  g_return_if_fail (read_state == NULL || TRIAGE_IS_READ_STATE (read_state));

  if (!g_set_object (&self->read_state, read_state))
    return;

  triage_inbox_pane_set_read_state (self->inbox_pane, read_state);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_READ_STATE]);
}

/* For bench/app: the moment the first frame is on screen. */
static void
on_first_paint (GdkFrameClock *clock,
                TriageWindow  *self)
{
  g_signal_handlers_disconnect_by_func (clock, on_first_paint, self);
  g_printerr ("triage: first frame at %" G_GINT64_FORMAT "\n", g_get_real_time ());
}

static void
on_realize_report_frame (TriageWindow *self)
{
  g_signal_connect (gtk_widget_get_frame_clock (GTK_WIDGET (self)), "after-paint",
                    G_CALLBACK (on_first_paint), self);
}

/* GObject */

static void
triage_window_constructed (GObject *object)
{
  TriageWindow *self = (TriageWindow *)object;

  G_OBJECT_CLASS (triage_window_parent_class)->constructed (object);

  triage_inbox_pane_set_model (self->inbox_pane, G_LIST_MODEL (self->model));
  g_signal_connect_object (self->model, "items-changed",
                           G_CALLBACK (_triage_window_update_list_subtitle), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->model, "notify::n-waiting",
                           G_CALLBACK (_triage_window_update_list_subtitle), self, G_CONNECT_SWAPPED);
  triage_window_set_connection (self, TRIAGE_CONNECTION_CONNECTING, NULL, 0);
  on_view_changed (self);

  if (g_getenv ("TRIAGE_BENCH_FIRST_FRAME") != NULL)
    g_signal_connect (self, "realize", G_CALLBACK (on_realize_report_frame), NULL);
}

static void
triage_window_dispose (GObject *object)
{
  TriageWindow *self = (TriageWindow *)object;

  g_clear_handle_id (&self->countdown_id, g_source_remove);
  g_clear_handle_id (&self->advance_id, g_source_remove);
  _triage_window_dispose_dialogs (self);
  g_cancellable_cancel (self->past_cancellable);
  g_clear_object (&self->past_cancellable);
  if (self->current_signals != NULL)
    g_signal_group_set_target (self->current_signals, NULL);
  g_clear_object (&self->current);
  g_clear_weak_pointer (&self->preview_return);
  _triage_window_stop_draft_toast (self);
  self->attachment_page = NULL;   /* the stack's child, gone with it */

  /* The switchers in the headers live inside the stack they hold: a cycle
   * that would keep both views alive. (AdwViewSwitcherTitle, which would
   * also fall back to a title when narrow, keeps its view alive after a
   * switch in a folded window in libadwaita 1.2: plain switchers here.) */
  if (self->views != NULL)
    {
      adw_view_switcher_set_stack (self->inbox_switcher, NULL);
      adw_view_switcher_set_stack (self->inbox_switcher_narrow, NULL);
      adw_view_switcher_set_stack (self->history_switcher, NULL);
      adw_view_switcher_set_stack (self->history_switcher_narrow, NULL);
    }

  gtk_widget_dispose_template (GTK_WIDGET (self), TRIAGE_TYPE_WINDOW);

  G_OBJECT_CLASS (triage_window_parent_class)->dispose (object);
}

static void
triage_window_finalize (GObject *object)
{
  TriageWindow *self = (TriageWindow *)object;

  g_clear_object (&self->current_signals);
  g_clear_object (&self->model);
  g_clear_object (&self->history_db);
  g_clear_object (&self->drafts);
  g_clear_object (&self->read_state);
  g_free (self->answered_here);
  g_free (self->connection_message);
  g_free (self->connection_text);
  g_clear_pointer (&self->server_wait_at, g_date_time_unref);

  G_OBJECT_CLASS (triage_window_parent_class)->finalize (object);
}

static void
triage_window_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  TriageWindow *self = TRIAGE_WINDOW (object);

  switch (prop_id)
    {
    case PROP_MODEL:
      self->model = g_value_dup_object (value);
      break;

    case PROP_HISTORY_DB:
      triage_window_set_history_db (self, g_value_get_object (value));
      break;

    case PROP_READ_STATE:
      triage_window_set_read_state (self, g_value_get_object (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
triage_window_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  TriageWindow *self = TRIAGE_WINDOW (object);

  switch (prop_id)
    {
    case PROP_MODEL:
      g_value_set_object (value, self->model);
      break;

    case PROP_HISTORY_DB:
      g_value_set_object (value, self->history_db);
      break;

    case PROP_READ_STATE:
      g_value_set_object (value, self->read_state);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
triage_window_class_init (TriageWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = triage_window_constructed;
  object_class->dispose = triage_window_dispose;
  object_class->finalize = triage_window_finalize;
  object_class->get_property = triage_window_get_property;
  object_class->set_property = triage_window_set_property;

  properties [PROP_MODEL] =
    g_param_spec_object ("model", NULL, NULL, TRIAGE_TYPE_INBOX_MODEL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));
  properties [PROP_HISTORY_DB] =
    g_param_spec_object ("history-db", NULL, NULL, TRIAGE_TYPE_HISTORY_DB,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties [PROP_READ_STATE] =
    g_param_spec_object ("read-state", NULL, NULL, TRIAGE_TYPE_READ_STATE,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * TriageWindow::submit:
   * @self: the window
   * @notification_id: the request answered
   * @action_id: the action chosen
   * @response_data: (nullable): the answer, validated (and confirmed where flagged)
   *
   * The person answered the request shown.
   */
  signals [SUBMIT] =
    g_signal_new ("submit", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 3,
                  G_TYPE_STRING, G_TYPE_STRING, JSON_TYPE_NODE);

  g_type_ensure (TRIAGE_TYPE_REQUEST_STACK);
  g_type_ensure (TRIAGE_TYPE_INBOX_PANE);
  g_type_ensure (TRIAGE_TYPE_HISTORY_VIEW);
  g_type_ensure (TRIAGE_TYPE_REQUEST);

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_BASE "/window/triage-window.ui");
  gtk_widget_class_bind_template_child (widget_class, TriageWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, TriageWindow, preview_stack);
  gtk_widget_class_bind_template_child (widget_class, TriageWindow, views);
  gtk_widget_class_bind_template_child (widget_class, TriageWindow, inbox_page);
  gtk_widget_class_bind_template_child (widget_class, TriageWindow, inbox_switcher);
  gtk_widget_class_bind_template_child (widget_class, TriageWindow, history_switcher);
  gtk_widget_class_bind_template_child (widget_class, TriageWindow, inbox_switcher_narrow);
  gtk_widget_class_bind_template_child (widget_class, TriageWindow, history_switcher_narrow);
  gtk_widget_class_bind_template_child (widget_class, TriageWindow, inbox_menu_button);
  gtk_widget_class_bind_template_child (widget_class, TriageWindow, history_menu_button);
  gtk_widget_class_bind_template_child (widget_class, TriageWindow, leaflet);
  gtk_widget_class_bind_template_child (widget_class, TriageWindow, sidebar);
  gtk_widget_class_bind_template_child (widget_class, TriageWindow, content);
  gtk_widget_class_bind_template_child (widget_class, TriageWindow, content_title);
  gtk_widget_class_bind_template_child (widget_class, TriageWindow, connection_revealer);
  gtk_widget_class_bind_template_child (widget_class, TriageWindow, connection_bar);
  gtk_widget_class_bind_template_child (widget_class, TriageWindow, connection_label);
  gtk_widget_class_bind_template_child (widget_class, TriageWindow, retry_button);
  gtk_widget_class_bind_template_child (widget_class, TriageWindow, preferences_button);
  gtk_widget_class_bind_template_child (widget_class, TriageWindow, inbox_stack);
  gtk_widget_class_bind_template_child (widget_class, TriageWindow, problem_page);
  gtk_widget_class_bind_template_child (widget_class, TriageWindow, problem_preferences_button);
  gtk_widget_class_bind_template_child (widget_class, TriageWindow, problem_retry_button);
  gtk_widget_class_bind_template_child (widget_class, TriageWindow, inbox_pane);
  gtk_widget_class_bind_template_child (widget_class, TriageWindow, content_stack);
  gtk_widget_class_bind_template_child (widget_class, TriageWindow, placeholder_page);
  gtk_widget_class_bind_template_child (widget_class, TriageWindow, decision_view);
  gtk_widget_class_bind_template_child (widget_class, TriageWindow, history_leaflet);
  gtk_widget_class_bind_template_child (widget_class, TriageWindow, history_list_page);
  gtk_widget_class_bind_template_child (widget_class, TriageWindow, history_detail_page);
  gtk_widget_class_bind_template_child (widget_class, TriageWindow, history_view);
  gtk_widget_class_bind_template_child (widget_class, TriageWindow, history_detail_title);
  gtk_widget_class_bind_template_child (widget_class, TriageWindow, past_view);
  gtk_widget_class_bind_template_callback (widget_class, on_request_activated);
  gtk_widget_class_bind_template_callback (widget_class, on_decision_submit);
  gtk_widget_class_bind_template_callback (widget_class, on_attachment_activated);
  gtk_widget_class_bind_template_callback (widget_class, on_past_attachment_activated);
  gtk_widget_class_bind_template_callback_full (widget_class, "on_history_entry_activated",
                                                G_CALLBACK (_triage_window_on_history_entry_activated));
  gtk_widget_class_bind_template_callback (widget_class, on_leaflet_folded);
  gtk_widget_class_bind_template_callback (widget_class, on_view_changed);
  gtk_widget_class_bind_template_callback_full (widget_class, "update_list_subtitle",
                                                G_CALLBACK (_triage_window_update_list_subtitle));
  gtk_widget_class_bind_template_callback_full (widget_class, "on_draft_written",
                                                G_CALLBACK (_triage_window_on_draft_written));

  _triage_window_install_actions (widget_class);
}

static void
triage_window_init (TriageWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  /* With no request open, a stop of Tab: said as it reads. */
  triage_status_page_name_scroller (self->placeholder_page);
  /* GTK 4.8 names a stack's page without a title by its type ("GtkStackPage
   * panel", Orca said on entering it). */
  gtk_stack_page_set_title (gtk_stack_get_page (self->preview_stack, GTK_WIDGET (self->views)),
                            _("Requests"));

  self->current_signals = g_signal_group_new (TRIAGE_TYPE_REQUEST);
  g_signal_group_connect_object (self->current_signals, "notify::status",
                                 G_CALLBACK (_triage_window_on_current_changed), self,
                                 G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->current_signals, "notify::answer-state",
                                 G_CALLBACK (_triage_window_on_current_changed), self,
                                 G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->current_signals, "notify::response",
                                 G_CALLBACK (_triage_window_on_current_changed), self,
                                 G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->current_signals, "notify::notification",
                                 G_CALLBACK (on_current_notification_changed), self,
                                 G_CONNECT_SWAPPED);
  _triage_window_init_dialogs (self);
}

/**
 * triage_window_new:
 * @application: the application
 * @model: the pending requests
 *
 * Returns: (transfer full): a new window
 */
TriageWindow *
triage_window_new (GtkApplication   *application,
                   TriageInboxModel *model)
{
  g_return_val_if_fail (TRIAGE_IS_INBOX_MODEL (model), NULL);

  return g_object_new (TRIAGE_TYPE_WINDOW,
                       "application", application,
                       "model", model,
                       NULL);
}