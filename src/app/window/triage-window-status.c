/* triage-window-status.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-window"

#include <glib/gi18n.h>

#include "triage-decision-format.h"
#include "triage-window-private.h"

/*
 * What the window says of how things stand: the number pending under the
 * list's title, the connection bar above it (with its countdown to the next
 * try), toasts for passing failures, and errors of an answer, in the view of
 * its request when it is open.
 */

/* Under the list title: the number pending and, while all is well, that the
 * app is connected (a problem shows in the bar below instead); the number
 * is also the inbox's badge. */
void
_triage_window_update_list_subtitle (TriageWindow *self)
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
  _triage_window_update_list_subtitle (self);
  _triage_window_update_view_state (self);
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
  g_autofree char *visible = NULL;
  g_autofree char *escaped = NULL;
  AdwToast *toast;

  g_return_if_fail (TRIAGE_IS_WINDOW (self));
  g_return_if_fail (message != NULL);

  /* Toast titles are markup; messages may quote a server, or an agent's
   * title (its hidden characters shown, as every label does). */
  visible = triage_format_visible_text (message);
  escaped = g_markup_escape_text (visible, -1);
  toast = adw_toast_new (escaped);
  adw_toast_set_timeout (toast, 6);
  g_signal_connect_object (toast, "dismissed", G_CALLBACK (on_toast_dismissed), self,
                           G_CONNECT_SWAPPED);
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
  name_toast_buttons (GTK_WIDGET (self->toast_overlay), FALSE);
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
