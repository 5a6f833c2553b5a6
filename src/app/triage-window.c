/* triage-window.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-window"

#include <glib/gi18n.h>

#include "triage-attachment-window.h"
#include "triage-decision-view.h"
#include "triage-window.h"

/*
 * The main window: the pending requests on the left (a GtkListView over the
 * inbox model), the request being answered on the right (the decision
 * view), in an AdwLeaflet so a narrow window shows one at a time. A bar
 * above the list says how the connection stands, with a "Retry Now" button
 * (app.retry, Ctrl+R); passing failures are toasts.
 *
 * The request shown is the one the person opened, and it stays shown when it
 * leaves the inbox (answered elsewhere, expired, withdrawn): the view turns
 * read-only and says what happened, instead of vanishing under the cursor.
 * The window never answers by itself: ::submit hands the answer (already
 * validated and confirmed by the decision view) to the application.
 */

struct _TriageWindow
{
  AdwApplicationWindow   parent_instance;

  TriageInboxModel      *model;
  GtkSingleSelection    *selection;
  TriageRequest         *current;
  GSignalGroup          *current_signals;

  TriageConnectionState  connection;
  char                  *connection_message;
  char                  *connection_text;
  gint64                 retry_at;
  guint                  countdown_id;

  /* template */
  AdwToastOverlay       *toast_overlay;
  AdwLeaflet            *leaflet;
  GtkWidget             *sidebar;
  GtkWidget             *content;
  AdwWindowTitle        *list_title;
  AdwWindowTitle        *content_title;
  GtkRevealer           *connection_revealer;
  GtkWidget             *connection_bar;
  GtkLabel              *connection_label;
  GtkWidget             *retry_button;
  GtkWidget             *preferences_button;
  GtkStack              *list_stack;
  GtkListView           *request_list;
  GtkStack              *content_stack;
  TriageDecisionView    *decision_view;
};

G_DEFINE_FINAL_TYPE (TriageWindow, triage_window, ADW_TYPE_APPLICATION_WINDOW)

enum {
  PROP_0,
  PROP_MODEL,
  N_PROPS
};

enum {
  SUBMIT,
  N_SIGNALS
};

static GParamSpec *properties [N_PROPS];
static guint signals [N_SIGNALS];

/* The decision view follows the current request */

static void
update_view_state (TriageWindow *self)
{
  AtpStatus status;
  TriageAnswerState answer;
  TriageDeliveryState delivery;

  if (self->current == NULL)
    return;

  status = triage_request_get_status (self->current);
  answer = triage_request_get_answer_state (self->current);

  switch (answer)
    {
    case TRIAGE_ANSWER_QUEUED:
      /* Stored: on its way while connected, waiting for the server otherwise. */
      delivery = self->connection == TRIAGE_CONNECTION_CONNECTED ? TRIAGE_DELIVERY_SENDING
                                                                 : TRIAGE_DELIVERY_QUEUED;
      break;

    case TRIAGE_ANSWER_DELIVERED:
      delivery = TRIAGE_DELIVERY_SENT;
      break;

    case TRIAGE_ANSWER_FAILED:
      delivery = TRIAGE_DELIVERY_FAILED;
      break;

    case TRIAGE_ANSWER_NONE:
    default:
      delivery = TRIAGE_DELIVERY_NONE;
      break;
    }

  /* Our own answer settles the request: "responded" then is not "elsewhere". */
  if (answer == TRIAGE_ANSWER_NONE || status != ATP_STATUS_RESPONDED)
    {
      if (triage_decision_view_get_status (self->decision_view) != status)
        triage_decision_view_set_status (self->decision_view, status,
                                         triage_request_get_status_reason (self->current),
                                         triage_request_get_status_time (self->current),
                                         NULL);
    }

  /* The view marks an answer "sending" itself when it emits ::submit; until
   * the app has stored it (answer state still none) that stays as it is. */
  if (delivery != TRIAGE_DELIVERY_NONE ||
      triage_decision_view_get_delivery_state (self->decision_view) != TRIAGE_DELIVERY_SENDING)
    triage_decision_view_set_delivery_state (self->decision_view, delivery);
}

static void
on_current_changed (TriageWindow *self)
{
  update_view_state (self);
}

static void
set_current (TriageWindow  *self,
             TriageRequest *request)
{
  if (request == self->current)
    return;

  g_set_object (&self->current, request);
  g_signal_group_set_target (self->current_signals, request);

  if (request == NULL)
    {
      gtk_stack_set_visible_child_name (self->content_stack, "placeholder");
      adw_window_title_set_title (self->content_title, "");
      adw_window_title_set_subtitle (self->content_title, "");
      return;
    }

  triage_decision_view_set_notification (self->decision_view,
                                         triage_request_get_notification (request));
  triage_decision_view_set_delivery_state (self->decision_view, TRIAGE_DELIVERY_NONE);
  update_view_state (self);
  adw_window_title_set_title (self->content_title, triage_request_get_title (request));
  adw_window_title_set_subtitle (self->content_title, triage_request_get_service_name (request));
  gtk_stack_set_visible_child_name (self->content_stack, "decision");
  adw_leaflet_set_visible_child (self->leaflet, self->content);
}

static void
on_request_activated (TriageWindow *self,
                      guint         position)
{
  g_autoptr(TriageRequest) request = g_list_model_get_item (G_LIST_MODEL (self->model), position);

  if (request != NULL)
    set_current (self, request);
}

static void
on_selection_changed (TriageWindow *self)
{
  TriageRequest *request = gtk_single_selection_get_selected_item (self->selection);

  /* A selection lost because the request left the inbox keeps the view. */
  if (request != NULL)
    set_current (self, request);
}

static void
on_decision_submit (TriageWindow *self,
                    const char   *action_id,
                    JsonNode     *response_data)
{
  if (self->current == NULL)
    return;

  g_signal_emit (self, signals [SUBMIT], 0,
                 triage_request_get_id (self->current), action_id, response_data);
}

static void
on_attachment_activated (TriageWindow *self,
                         guint         index)
{
  AtpNotification *notification;
  GtkWidget *window;

  if (self->current == NULL)
    return;

  notification = triage_request_get_notification (self->current);
  if (index >= notification->context.attachments->len)
    return;

  window = triage_attachment_window_new (GTK_WINDOW (self),
                                         g_ptr_array_index (notification->context.attachments, index),
                                         notification->service.name);
  gtk_window_present (GTK_WINDOW (window));
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
back_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  TriageWindow *self = TRIAGE_WINDOW (widget);

  adw_leaflet_set_visible_child (self->leaflet, self->sidebar);
}

/* Under the list title: the number pending and, while all is well, that the
 * app is connected (a problem shows in the bar below instead). */
static void
update_list_subtitle (TriageWindow *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->model));
  gboolean connected = self->connection == TRIAGE_CONNECTION_CONNECTED;
  g_autofree char *subtitle = NULL;

  if (n > 0 && connected)
    /* Translators: under the list title; %u is the number of pending requests */
    subtitle = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Connected · %u pending",
                                             "Connected · %u pending", n), n);
  else if (n > 0)
    /* Translators: under the list title, the number of pending requests */
    subtitle = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u pending", "%u pending", n), n);
  else if (connected)
    subtitle = g_strdup (_("Connected"));

  adw_window_title_set_subtitle (self->list_title, subtitle ? subtitle : "");
}

static void
update_list_page (TriageWindow *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->model));

  gtk_stack_set_visible_child_name (self->list_stack, n > 0 ? "list" : "empty");
  update_list_subtitle (self);
}

/* Connection bar */

static void
update_connection_label (TriageWindow *self)
{
  g_autofree char *text = NULL;
  gint64 left = (self->retry_at - g_get_monotonic_time () + G_USEC_PER_SEC - 1) / G_USEC_PER_SEC;

  switch (self->connection)
    {
    case TRIAGE_CONNECTION_CONNECTING:
      text = g_strdup (_("Connecting…"));
      break;

    case TRIAGE_CONNECTION_CONNECTED:
      text = g_strdup (_("Connected"));
      break;

    case TRIAGE_CONNECTION_RECONNECTING:
      if (left > 0)
        /* Translators: the connection was lost; %d is a number of seconds */
        text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                             "Connection lost. Reconnecting in %d second…",
                                             "Connection lost. Reconnecting in %d seconds…",
                                             (int) left), (int) left);
      else
        text = g_strdup (_("Connection lost. Reconnecting…"));
      break;

    case TRIAGE_CONNECTION_OFFLINE:
      if (self->retry_at == 0)
        text = g_strdup (_("Offline"));
      else if (left > 0)
        /* Translators: no network; %d is a number of seconds */
        text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                             "Offline: no network. Trying again in %d second…",
                                             "Offline: no network. Trying again in %d seconds…",
                                             (int) left), (int) left);
      else
        text = g_strdup (_("Offline: no network. Trying again…"));
      break;

    case TRIAGE_CONNECTION_AUTH_FAILED:
      text = g_strdup (_("Sign-in failed"));
      break;

    default:
      g_assert_not_reached ();
    }

  if (self->connection_message != NULL && self->connection != TRIAGE_CONNECTION_CONNECTED)
    {
      char *full = g_strdup_printf ("%s %s", text, self->connection_message);
      g_free (text);
      text = full;
    }

  g_free (self->connection_text);
  self->connection_text = g_steal_pointer (&text);
  gtk_label_set_label (self->connection_label, self->connection_text);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->connection_bar),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, self->connection_text, -1);
}

static gboolean
countdown_cb (gpointer data)
{
  TriageWindow *self = data;

  update_connection_label (self);
  if (self->retry_at <= g_get_monotonic_time ())
    {
      self->countdown_id = 0;
      return G_SOURCE_REMOVE;
    }

  return G_SOURCE_CONTINUE;
}

/**
 * triage_window_set_connection:
 * @self: a #TriageWindow
 * @state: the connection state
 * @message: (nullable): details (why it failed), shown after the state
 * @retry_at: for %TRIAGE_CONNECTION_RECONNECTING, the monotonic time of the next try
 */
void
triage_window_set_connection (TriageWindow          *self,
                              TriageConnectionState  state,
                              const char            *message,
                              gint64                 retry_at)
{
  gboolean problem;

  g_return_if_fail (TRIAGE_IS_WINDOW (self));

  self->connection = state;
  self->retry_at = retry_at;
  g_free (self->connection_message);
  self->connection_message = g_strdup (message);

  problem = state != TRIAGE_CONNECTION_CONNECTED;
  gtk_revealer_set_reveal_child (self->connection_revealer, problem);
  gtk_widget_set_visible (self->retry_button,
                          state != TRIAGE_CONNECTION_CONNECTED && state != TRIAGE_CONNECTION_CONNECTING);
  gtk_widget_set_visible (self->preferences_button, state == TRIAGE_CONNECTION_AUTH_FAILED);
  if (state == TRIAGE_CONNECTION_AUTH_FAILED || state == TRIAGE_CONNECTION_OFFLINE)
    gtk_widget_add_css_class (self->connection_bar, "error");
  else
    gtk_widget_remove_css_class (self->connection_bar, "error");

  g_clear_handle_id (&self->countdown_id, g_source_remove);
  if ((state == TRIAGE_CONNECTION_RECONNECTING || state == TRIAGE_CONNECTION_OFFLINE) &&
      retry_at > g_get_monotonic_time ())
    self->countdown_id = g_timeout_add_seconds (1, countdown_cb, self);

  update_connection_label (self);
  update_list_subtitle (self);
  update_view_state (self);
}

TriageConnectionState
triage_window_get_connection (TriageWindow *self)
{
  g_return_val_if_fail (TRIAGE_IS_WINDOW (self), TRIAGE_CONNECTION_OFFLINE);

  return self->connection;
}

/**
 * triage_window_get_connection_text:
 *
 * Returns: the text of the connection bar
 */
const char *
triage_window_get_connection_text (TriageWindow *self)
{
  g_return_val_if_fail (TRIAGE_IS_WINDOW (self), NULL);

  return self->connection_text;
}

/**
 * triage_window_add_toast:
 * @self: a #TriageWindow
 * @message: a passing failure or notice, plain text
 */
void
triage_window_add_toast (TriageWindow *self,
                         const char   *message)
{
  g_autofree char *escaped = NULL;
  AdwToast *toast;

  g_return_if_fail (TRIAGE_IS_WINDOW (self));
  g_return_if_fail (message != NULL);

  /* Toast titles are markup; messages may quote a server. */
  escaped = g_markup_escape_text (message, -1);
  toast = adw_toast_new (escaped);
  adw_toast_set_timeout (toast, 6);
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

/**
 * triage_window_show_request:
 * @self: a #TriageWindow
 * @notification_id: a request in the inbox
 *
 * Opens a request (from a notification bubble or the tray).
 *
 * Returns: %TRUE if the request is in the inbox and now shown
 */
gboolean
triage_window_show_request (TriageWindow *self,
                            const char   *notification_id)
{
  guint position;

  g_return_val_if_fail (TRIAGE_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (notification_id != NULL, FALSE);

  if (self->current != NULL &&
      g_str_equal (triage_request_get_id (self->current), notification_id))
    {
      adw_leaflet_set_visible_child (self->leaflet, self->content);
      return TRUE;
    }

  if (!triage_inbox_model_find (self->model, notification_id, &position))
    return FALSE;

  gtk_single_selection_set_selected (self->selection, position);
  set_current (self, triage_inbox_model_lookup (self->model, notification_id));
  gtk_widget_activate_action (GTK_WIDGET (self->request_list), "list.scroll-to-item", "u", position);

  return TRUE;
}

/**
 * triage_window_show_error:
 * @self: a #TriageWindow
 * @notification_id: the request concerned
 * @message: what went wrong with it
 *
 * Shows an error in the decision view if that request is open, else as a toast.
 */
void
triage_window_show_error (TriageWindow *self,
                          const char   *notification_id,
                          const char   *message)
{
  g_return_if_fail (TRIAGE_IS_WINDOW (self));

  if (self->current != NULL &&
      g_strcmp0 (triage_request_get_id (self->current), notification_id) == 0)
    {
      /* The answer did not leave: the view becomes editable again. */
      if (triage_request_get_answer_state (self->current) == TRIAGE_ANSWER_NONE)
        triage_decision_view_set_delivery_state (self->decision_view, TRIAGE_DELIVERY_NONE);
      triage_decision_view_show_error (self->decision_view, message);
    }
  else
    triage_window_add_toast (self, message);
}

/**
 * triage_window_show_delivery_error:
 * @self: a #TriageWindow
 * @notification_id: the request whose answer the server refused
 * @message: the server's reason
 *
 * Says why an answer was refused, in the view if the request is open, else as a toast.
 */
void
triage_window_show_delivery_error (TriageWindow *self,
                                   const char   *notification_id,
                                   const char   *message)
{
  g_return_if_fail (TRIAGE_IS_WINDOW (self));

  if (self->current != NULL &&
      g_strcmp0 (triage_request_get_id (self->current), notification_id) == 0)
    triage_decision_view_show_delivery_error (self->decision_view, message);
  else
    triage_window_add_toast (self, message);
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
 * Returns: (transfer none): the decision view
 */
GtkWidget *
triage_window_get_decision_view (TriageWindow *self)
{
  g_return_val_if_fail (TRIAGE_IS_WINDOW (self), NULL);

  return GTK_WIDGET (self->decision_view);
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
  g_autoptr(GtkListItemFactory) factory = NULL;

  G_OBJECT_CLASS (triage_window_parent_class)->constructed (object);

  self->selection = gtk_single_selection_new (g_object_ref (G_LIST_MODEL (self->model)));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
  g_signal_connect_object (self->selection, "notify::selected-item",
                           G_CALLBACK (on_selection_changed), self, G_CONNECT_SWAPPED);

  factory = gtk_builder_list_item_factory_new_from_resource (NULL, RESOURCE_BASE "/triage-request-row.ui");
  gtk_list_view_set_factory (self->request_list, factory);
  gtk_list_view_set_model (self->request_list, GTK_SELECTION_MODEL (self->selection));

  g_signal_connect_object (self->model, "items-changed",
                           G_CALLBACK (update_list_page), self, G_CONNECT_SWAPPED);
  update_list_page (self);
  triage_window_set_connection (self, TRIAGE_CONNECTION_CONNECTING, NULL, 0);

  if (g_getenv ("TRIAGE_BENCH_FIRST_FRAME") != NULL)
    g_signal_connect (self, "realize", G_CALLBACK (on_realize_report_frame), NULL);
}

static void
triage_window_dispose (GObject *object)
{
  TriageWindow *self = (TriageWindow *)object;

  g_clear_handle_id (&self->countdown_id, g_source_remove);
  if (self->current_signals != NULL)
    g_signal_group_set_target (self->current_signals, NULL);
  g_clear_object (&self->current);
  if (self->request_list != NULL)
    gtk_list_view_set_model (self->request_list, NULL);
  g_clear_object (&self->selection);

  gtk_widget_dispose_template (GTK_WIDGET (self), TRIAGE_TYPE_WINDOW);

  G_OBJECT_CLASS (triage_window_parent_class)->dispose (object);
}

static void
triage_window_finalize (GObject *object)
{
  TriageWindow *self = (TriageWindow *)object;

  g_clear_object (&self->current_signals);
  g_clear_object (&self->model);
  g_free (self->connection_message);
  g_free (self->connection_text);

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

  g_type_ensure (TRIAGE_TYPE_DECISION_VIEW);
  g_type_ensure (TRIAGE_TYPE_REQUEST);

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_BASE "/triage-window.ui");
  gtk_widget_class_bind_template_child (widget_class, TriageWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, TriageWindow, leaflet);
  gtk_widget_class_bind_template_child (widget_class, TriageWindow, sidebar);
  gtk_widget_class_bind_template_child (widget_class, TriageWindow, content);
  gtk_widget_class_bind_template_child (widget_class, TriageWindow, list_title);
  gtk_widget_class_bind_template_child (widget_class, TriageWindow, content_title);
  gtk_widget_class_bind_template_child (widget_class, TriageWindow, connection_revealer);
  gtk_widget_class_bind_template_child (widget_class, TriageWindow, connection_bar);
  gtk_widget_class_bind_template_child (widget_class, TriageWindow, connection_label);
  gtk_widget_class_bind_template_child (widget_class, TriageWindow, retry_button);
  gtk_widget_class_bind_template_child (widget_class, TriageWindow, preferences_button);
  gtk_widget_class_bind_template_child (widget_class, TriageWindow, list_stack);
  gtk_widget_class_bind_template_child (widget_class, TriageWindow, request_list);
  gtk_widget_class_bind_template_child (widget_class, TriageWindow, content_stack);
  gtk_widget_class_bind_template_child (widget_class, TriageWindow, decision_view);
  gtk_widget_class_bind_template_callback (widget_class, on_request_activated);
  gtk_widget_class_bind_template_callback (widget_class, on_decision_submit);
  gtk_widget_class_bind_template_callback (widget_class, on_attachment_activated);
  gtk_widget_class_bind_template_callback (widget_class, on_leaflet_folded);

  gtk_widget_class_install_action (widget_class, "win.back", NULL, back_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, GDK_ALT_MASK, "win.back", NULL);
}

static void
triage_window_init (TriageWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->current_signals = g_signal_group_new (TRIAGE_TYPE_REQUEST);
  g_signal_group_connect_object (self->current_signals, "notify::status",
                                 G_CALLBACK (on_current_changed), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->current_signals, "notify::answer-state",
                                 G_CALLBACK (on_current_changed), self, G_CONNECT_SWAPPED);
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
