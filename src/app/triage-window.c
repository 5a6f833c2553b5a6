/* triage-window.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-window"

#include <glib/gi18n.h>

#include "triage-attachment-window.h"
#include "triage-request-stack.h"
#include "triage-store.h"
#include "triage-window.h"

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
 * stored it. The window never answers by itself: ::submit hands the answer
 * (already validated and confirmed by the decision view) to the application.
 *
 * Keyboard triage: Ctrl+F searches, Down goes to the list, Enter (or
 * Alt+Right) opens a request and puts the keyboard on its first answer,
 * Ctrl+Return sends from an editor, Ctrl+Page Down/Up (Alt+Down/Up) open the
 * next or previous request, Alt+Left goes back to the list.
 */

struct _TriageWindow
{
  AdwApplicationWindow   parent_instance;

  TriageInboxModel      *model;
  TriageHistoryDb       *history_db;
  TriageStore           *drafts;             /* the app's database, for the views' drafts */
  TriageReadState       *read_state;
  TriageRequest         *current;
  GSignalGroup          *current_signals;
  char                  *answered_here;      /* answered in the view: next once stored */
  guint                  advance_id;

  GCancellable          *past_cancellable;   /* reading a history entry's request */

  TriageConnectionState  connection;
  char                  *connection_message;
  char                  *connection_text;
  gint64                 retry_at;
  guint                  countdown_id;

  /* template */
  AdwToastOverlay       *toast_overlay;
  AdwViewStack          *views;
  AdwViewStackPage      *inbox_page;
  AdwViewSwitcher       *inbox_switcher;
  AdwViewSwitcher       *inbox_switcher_narrow;
  AdwViewSwitcher       *history_switcher;
  AdwViewSwitcher       *history_switcher_narrow;
  GtkMenuButton         *inbox_menu_button;
  GtkMenuButton         *history_menu_button;
  AdwLeaflet            *leaflet;
  GtkWidget             *sidebar;
  GtkWidget             *content;
  AdwWindowTitle        *content_title;
  GtkRevealer           *connection_revealer;
  GtkWidget             *connection_bar;
  GtkLabel              *connection_label;
  GtkWidget             *retry_button;
  GtkWidget             *preferences_button;
  TriageInboxPane       *inbox_pane;
  GtkStack              *content_stack;
  TriageRequestView     *decision_view;
  AdwLeaflet            *history_leaflet;
  GtkWidget             *history_list_page;
  GtkWidget             *history_detail_page;
  TriageHistoryView     *history_view;
  AdwWindowTitle        *history_detail_title;
  TriageRequestView     *past_view;
};

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

static void update_list_subtitle (TriageWindow *self);

static gboolean
history_shown (TriageWindow *self)
{
  return g_strcmp0 (adw_view_stack_get_visible_child_name (self->views), "history") == 0;
}

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
      if (triage_request_view_get_status (self->decision_view) != status)
        triage_request_view_set_status (self->decision_view, status,
                                         triage_request_get_status_reason (self->current),
                                         triage_request_get_status_time (self->current),
                                         NULL);
    }
  /* What was answered elsewhere and by whom, once the app has learnt it. */
  triage_request_view_set_response (self->decision_view, triage_request_get_response (self->current));

  /* The view marks an answer "sending" itself when it emits ::submit; until
   * the app has stored it (answer state still none) that stays as it is. */
  if (delivery != TRIAGE_DELIVERY_NONE ||
      triage_request_view_get_delivery_state (self->decision_view) != TRIAGE_DELIVERY_SENDING)
    triage_request_view_set_delivery_state (self->decision_view, delivery);
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
  update_view_state (self);
  adw_window_title_set_title (self->content_title, triage_request_get_title (request));
  adw_window_title_set_subtitle (self->content_title, triage_request_get_service_name (request));
  gtk_stack_set_visible_child_name (self->content_stack, "decision");
  adw_leaflet_set_visible_child (self->leaflet, self->content);
}

/* Opened from the list (click, Enter) or by next/previous: shown, with the
 * keyboard on its first answer control, ready to answer. */
static void
on_request_activated (TriageWindow  *self,
                      TriageRequest *request)
{
  set_current (self, request);
  triage_request_view_focus_answer (self->decision_view);
}

/* After an answer given here is stored, the next request opens: answer,
 * next, without reaching for the list. The toast says the answer went. */
static gboolean
advance_cb (gpointer data)
{
  TriageWindow *self = data;
  g_autofree char *text = NULL;
  g_autofree char *title = NULL;

  self->advance_id = 0;
  if (self->current == NULL || self->answered_here == NULL ||
      !g_str_equal (triage_request_get_id (self->current), self->answered_here))
    return G_SOURCE_REMOVE;

  title = g_strdup (triage_request_get_title (self->current));
  if (self->connection == TRIAGE_CONNECTION_CONNECTED)
    /* Translators: %s is the title of the request just answered */
    text = g_strdup_printf (_("Answered “%s”"), title);
  else
    /* Translators: %s is the title of the request just answered */
    text = g_strdup_printf (_("Answer to “%s” saved; it is sent when the server can be reached"),
                            title);

  if (triage_inbox_pane_select_next (self->inbox_pane))
    triage_window_add_toast (self, text);

  return G_SOURCE_REMOVE;
}

static void
on_current_changed (TriageWindow *self)
{
  update_view_state (self);

  if (self->answered_here != NULL && self->advance_id == 0 &&
      triage_request_get_answer_state (self->current) != TRIAGE_ANSWER_NONE &&
      triage_request_get_answer_state (self->current) != TRIAGE_ANSWER_FAILED)
    self->advance_id = g_idle_add (advance_cb, self);
}

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
  GtkWidget *window;

  if (notification == NULL || index >= notification->context.attachments->len)
    return;

  window = triage_attachment_window_new (GTK_WINDOW (self),
                                         g_ptr_array_index (notification->context.attachments, index),
                                         notification->service.name);
  gtk_window_present (GTK_WINDOW (window));
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
  gboolean history = history_shown (self);

  /* F10 opens the menu of the view shown. */
  gtk_menu_button_set_primary (self->inbox_menu_button, !history);
  gtk_menu_button_set_primary (self->history_menu_button, history);
}

/* The history */

typedef struct
{
  TriageWindow       *self;
  TriageHistoryEntry *entry;
} PastLoad;

static void
past_load_free (PastLoad *load)
{
  g_object_unref (load->self);
  g_object_unref (load->entry);
  g_free (load);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PastLoad, past_load_free)

/* A request read back from the history, read-only, saying what became of it. */
static void
show_past_request (TriageWindow       *self,
                   TriageHistoryEntry *entry,
                   AtpNotification    *notification)
{
  const TriageHistoryEntryData *data = triage_history_entry_get_data (entry);
  TriageOutcome outcome = triage_history_entry_get_outcome (entry);
  g_autoptr(JsonNode) response = NULL;
  g_autoptr(GDateTime) answered_at = NULL;
  g_autoptr(GDateTime) updated_at = NULL;

  if (data->response_data != NULL)
    response = atp_json_parse (data->response_data, -1, ATP_MAX_FRAME_SIZE, NULL);
  if (data->answered_at != 0)
    answered_at = g_date_time_new_from_unix_utc (data->answered_at / G_USEC_PER_SEC);
  if (data->updated_at != 0)
    updated_at = g_date_time_new_from_unix_utc (data->updated_at / G_USEC_PER_SEC);

  triage_request_view_set_request (self->past_view, notification);

  switch (outcome)
    {
    case TRIAGE_OUTCOME_ANSWERED:
    case TRIAGE_OUTCOME_REJECTED:
    case TRIAGE_OUTCOME_NONE:   /* with an answer waiting in the outbox */
      /* Its own answer decides the banner, not the status stored. */
      triage_request_view_set_status (self->past_view, ATP_STATUS_DELIVERED, NULL, NULL, NULL);
      triage_request_view_set_sent_answer (self->past_view,
                                            data->action_id ? data->action_id : "", response);
      if (outcome == TRIAGE_OUTCOME_REJECTED)
        triage_request_view_show_delivery_error (self->past_view,
                                                  _("The server refused this answer."));
      else
        triage_request_view_set_delivery_state (self->past_view,
                                                 outcome == TRIAGE_OUTCOME_ANSWERED
                                                   ? TRIAGE_DELIVERY_SENT : TRIAGE_DELIVERY_QUEUED);
      break;

    case TRIAGE_OUTCOME_ANSWERED_ELSEWHERE:
      triage_request_view_set_status (self->past_view, ATP_STATUS_RESPONDED, data->status_reason,
                                      answered_at, NULL);
      /* The banner names the answer and who gave it, as when it happened
       * (a request the server had forgotten has no answer recorded). */
      if (data->action_id != NULL && (answered_at != NULL || updated_at != NULL))
        {
          AtpResponderType type = ATP_RESPONDER_HUMAN;
          g_autoptr(AtpResponse) given = NULL;

          if (data->responder_type != NULL)
            atp_responder_type_from_string (data->responder_type, &type);
          given = atp_response_new (data->id, data->action_id, response,
                                    answered_at ? answered_at : updated_at,
                                    data->responder_id ? data->responder_id : "", type);
          triage_request_view_set_response (self->past_view, given);
        }
      break;

    case TRIAGE_OUTCOME_EXPIRED:
      triage_request_view_set_status (self->past_view, ATP_STATUS_EXPIRED, data->status_reason,
                                       NULL, NULL);
      break;

    case TRIAGE_OUTCOME_INVALIDATED:
    default:
      triage_request_view_set_status (self->past_view, ATP_STATUS_INVALIDATED,
                                       data->status_reason, updated_at, NULL);
      break;
    }

  adw_window_title_set_title (self->history_detail_title, triage_history_entry_get_title (entry));
  adw_window_title_set_subtitle (self->history_detail_title,
                                 triage_history_entry_get_service_name (entry));
  adw_leaflet_set_visible_child (self->history_leaflet, self->history_detail_page);
}

static void
past_loaded_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(PastLoad) load = user_data;
  g_autoptr(AtpNotification) notification = NULL;
  g_autoptr(GError) error = NULL;

  notification = triage_history_db_load_notification_finish (TRIAGE_HISTORY_DB (object), result,
                                                             &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  if (notification == NULL)
    {
      triage_window_add_toast (load->self, error->message);
      return;
    }

  show_past_request (load->self, load->entry, notification);
}

static void
on_history_entry_activated (TriageWindow       *self,
                            TriageHistoryEntry *entry)
{
  const char *id = triage_history_entry_get_id (entry);
  PastLoad *load;

  /* Still waiting for an answer: it is answered in the inbox. */
  if (triage_history_entry_get_outcome (entry) == TRIAGE_OUTCOME_NONE &&
      !triage_history_entry_is_queued (entry))
    {
      if (!triage_window_show_request (self, id))
        triage_window_add_toast (self, _("This request is no longer waiting for an answer"));
      return;
    }

  if (self->history_db == NULL)
    return;

  g_cancellable_cancel (self->past_cancellable);
  g_clear_object (&self->past_cancellable);
  self->past_cancellable = g_cancellable_new ();

  load = g_new0 (PastLoad, 1);
  load->self = g_object_ref (self);
  load->entry = g_object_ref (entry);
  triage_history_db_load_notification_async (self->history_db, id, self->past_cancellable,
                                             past_loaded_cb, load);
}

/* Actions */

static void
back_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  TriageWindow *self = TRIAGE_WINDOW (widget);

  if (history_shown (self))
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
  if (history_shown (self))
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

  if (history_shown (self))
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

/* Under the list title: the number pending and, while all is well, that the
 * app is connected (a problem shows in the bar below instead); the number
 * is also the inbox's badge. */
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

  gtk_widget_set_tooltip_text (GTK_WIDGET (self->inbox_switcher), subtitle);
  adw_view_stack_page_set_badge_number (self->inbox_page, n);
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

/* libadwaita 1.2 gives a toast's close button no name: screen readers
 * would say "GtkImage". It is named here, once per toast widget. */
static void
name_toast_buttons (GtkWidget *widget,
                    gboolean   in_toast)
{
  in_toast = in_toast || g_str_equal (gtk_widget_get_css_name (widget), "toast");

  if (in_toast && GTK_IS_BUTTON (widget) &&
      g_strcmp0 (gtk_button_get_icon_name (GTK_BUTTON (widget)), "window-close-symbolic") == 0 &&
      g_object_get_data (G_OBJECT (widget), "triage-named") == NULL)
    {
      gtk_accessible_update_property (GTK_ACCESSIBLE (widget),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, _("Close the Notice"), -1);
      g_object_set_data (G_OBJECT (widget), "triage-named", GINT_TO_POINTER (TRUE));
    }

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (!ADW_IS_VIEW_STACK (child))
      name_toast_buttons (child, in_toast);
}

static gboolean
name_toast_buttons_cb (gpointer data)
{
  TriageWindow *self = data;

  if (self->toast_overlay != NULL)   /* not destroyed meanwhile */
    name_toast_buttons (GTK_WIDGET (self->toast_overlay), FALSE);
  return G_SOURCE_REMOVE;
}

/* A toast waiting in the queue gets its widget when the one before goes. */
static void
on_toast_dismissed (TriageWindow *self)
{
  g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, name_toast_buttons_cb,
                   g_object_ref (self), g_object_unref);
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
  g_signal_connect_object (toast, "dismissed", G_CALLBACK (on_toast_dismissed), self,
                           G_CONNECT_SWAPPED);
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
  name_toast_buttons (GTK_WIDGET (self->toast_overlay), FALSE);
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
  /* Opened from a bubble or the tray to be answered: the keyboard is there. */
  triage_request_view_focus_answer (self->decision_view);

  return TRUE;
}

/**
 * triage_window_show_view:
 * @self: a #TriageWindow
 * @name: "inbox" or "history"
 *
 * Shows one of the window's two views (Alt+1, Alt+2).
 */
void
triage_window_show_view (TriageWindow *self,
                         const char   *name)
{
  g_return_if_fail (TRIAGE_IS_WINDOW (self));
  g_return_if_fail (g_strcmp0 (name, "inbox") == 0 || g_strcmp0 (name, "history") == 0);

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
        {
          triage_request_view_set_delivery_state (self->decision_view, TRIAGE_DELIVERY_NONE);
          g_clear_pointer (&self->answered_here, g_free);
        }
      triage_request_view_show_answer_error (self->decision_view, message);
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
    triage_request_view_show_delivery_error (self->decision_view, message);
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
                           G_CALLBACK (update_list_subtitle), self, G_CONNECT_SWAPPED);
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
  g_cancellable_cancel (self->past_cancellable);
  g_clear_object (&self->past_cancellable);
  if (self->current_signals != NULL)
    g_signal_group_set_target (self->current_signals, NULL);
  g_clear_object (&self->current);

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

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_BASE "/triage-window.ui");
  gtk_widget_class_bind_template_child (widget_class, TriageWindow, toast_overlay);
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
  gtk_widget_class_bind_template_child (widget_class, TriageWindow, inbox_pane);
  gtk_widget_class_bind_template_child (widget_class, TriageWindow, content_stack);
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
  gtk_widget_class_bind_template_callback (widget_class, on_history_entry_activated);
  gtk_widget_class_bind_template_callback (widget_class, on_leaflet_folded);
  gtk_widget_class_bind_template_callback (widget_class, on_view_changed);
  gtk_widget_class_bind_template_callback (widget_class, update_list_subtitle);

  /* Their keys are the application's accelerators (triage-application.c),
   * so the shortcuts window lists them. */
  gtk_widget_class_install_action (widget_class, "win.back", NULL, back_action);
  gtk_widget_class_install_action (widget_class, "win.show-view", "s", show_view_action);
  gtk_widget_class_install_action (widget_class, "win.search", NULL, search_action);
  gtk_widget_class_install_action (widget_class, "win.open-request", NULL, open_request_action);
  gtk_widget_class_install_action (widget_class, "win.next-request", NULL, next_request_action);
  gtk_widget_class_install_action (widget_class, "win.previous-request", NULL, next_request_action);
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
  g_signal_group_connect_object (self->current_signals, "notify::response",
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
