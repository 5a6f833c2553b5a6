/* triage-application-window.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-application"

#include <glib/gi18n.h>

#include "triage-application-private.h"
#include "triage-preferences-window.h"

/*
 * The window and the app's actions: the window made on demand (its size
 * kept in the settings), the notice that the app runs in the background when
 * no tray shows it, the app.* actions and the keyboard shortcuts.
 */

/* How long a tray has, after start-up or the window closing, to show the
 * icon before the app says it runs in the background. */
#define BACKGROUND_NOTICE_DELAY_SECONDS 3

static gboolean
on_window_close_request (TriageApplication *self,
                         GtkWindow         *window)
{
  int width;
  int height;

  gtk_window_get_default_size (window, &width, &height);
  g_settings_set_int (self->settings, "window-width", MAX (width, 360));
  g_settings_set_int (self->settings, "window-height", MAX (height, 294));
  g_settings_set_boolean (self->settings, "window-maximized", gtk_window_is_maximized (window));

  return FALSE;
}

/* Running without a window where no tray shows the icon (stock GNOME has
 * no StatusNotifierWatcher): said once, in a bubble, so the person knows
 * why requests still arrive and how to reach the app. Each check ends in a
 * debug line: a test's sign that the moment for the notice has passed. */
static gboolean
background_check_cb (gpointer data)
{
  TriageApplication *self = data;

  self->background_check_id = 0;

  if (self->window != NULL || !self->held || self->notifier == NULL ||
      (self->tray != NULL && triage_tray_get_registered (self->tray)) ||
      g_settings_get_boolean (self->settings, "background-notice-shown"))
    {
      g_debug ("Background check: no notice needed");
      return G_SOURCE_REMOVE;
    }

  g_debug ("Background check: the notice given");
  g_settings_set_boolean (self->settings, "background-notice-shown", TRUE);
  triage_notifier_show_notice (self->notifier, "background",
                               _("Triage is running in the background"),
                               _("New requests still show as notifications. Open Triage again "
                                 "to see them all; quit it from its menu."));

  return G_SOURCE_REMOVE;
}

void
_triage_application_schedule_background_check (TriageApplication *self)
{
  if (self->background_check_id != 0)
    return;

  if (g_settings_get_boolean (self->settings, "background-notice-shown"))
    g_debug ("Background check: the notice was given before");
  else
    self->background_check_id = g_timeout_add_seconds (BACKGROUND_NOTICE_DELAY_SECONDS,
                                                       background_check_cb, self);
}

/* Once the person looks at the window, what the summary counted is seen:
 * the count starts again, and the summary's bubble goes. */
static void
on_window_active (TriageApplication *self,
                  GParamSpec        *pspec,
                  GtkWindow         *window)
{
  if (!gtk_window_is_active (window))
    return;

  triage_bubble_throttle_forget_held_back (self->throttle);
  if (self->notifier != NULL)
    triage_notifier_withdraw (self->notifier,
                              TRIAGE_NOTIFIER_NOTICE_PREFIX TRIAGE_APPLICATION_MORE_NOTICE);
}

static void
on_window_destroyed (TriageApplication *self)
{
  self->window = NULL;
  _triage_application_schedule_background_check (self);
}

TriageWindow *
_triage_application_ensure_window (TriageApplication *self)
{
  if (self->window != NULL)
    return self->window;

  self->window = triage_window_new (GTK_APPLICATION (self), self->inbox);
  gtk_window_set_default_size (GTK_WINDOW (self->window),
                               g_settings_get_int (self->settings, "window-width"),
                               g_settings_get_int (self->settings, "window-height"));
  if (g_settings_get_boolean (self->settings, "window-maximized"))
    gtk_window_maximize (GTK_WINDOW (self->window));

  g_signal_connect_object (self->window, "submit",
                           G_CALLBACK (_triage_application_on_window_submit), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->window, "close-request",
                           G_CALLBACK (on_window_close_request), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->window, "destroy",
                           G_CALLBACK (on_window_destroyed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->window, "notify::is-active",
                           G_CALLBACK (on_window_active), self, G_CONNECT_SWAPPED);
  triage_window_set_connection_status (self->window, triage_connection_get_state (self->connection),
                                       triage_connection_get_problem (self->connection),
                                       triage_connection_get_message (self->connection),
                                       triage_connection_get_retry_at (self->connection));
  _triage_application_update_server_wait (self);
  _triage_application_show_history (self, self->window);
  /* A problem waiting for the person is shown now: closing the window quits. */
  _triage_application_update_hold (self);

  return self->window;
}

/* Actions */

static void
show_action (GSimpleAction *action,
             GVariant      *parameter,
             gpointer       user_data)
{
  TriageApplication *self = user_data;

  gtk_window_present (GTK_WINDOW (_triage_application_ensure_window (self)));
}

static void
open_request_action (GSimpleAction *action,
                     GVariant      *parameter,
                     gpointer       user_data)
{
  TriageApplication *self = user_data;
  const char *id = g_variant_get_string (parameter, NULL);
  TriageWindow *window = _triage_application_ensure_window (self);

  g_clear_pointer (&self->pending_open, g_free);
  if (!triage_window_show_request (window, id))
    {
      /* Just started: it may not have arrived yet. */
      self->pending_open = g_strdup (id);
      _triage_application_open_pending_request (self, self->resynced);
    }
  gtk_window_present (GTK_WINDOW (window));
}

static void
retry_action (GSimpleAction *action,
              GVariant      *parameter,
              gpointer       user_data)
{
  TriageApplication *self = user_data;

  if (self->ready)
    triage_connection_retry_now (self->connection);
}

static void
reconnect_action (GSimpleAction *action,
                  GVariant      *parameter,
                  gpointer       user_data)
{
  TriageApplication *self = user_data;

  /* The same server with a new token (Preferences): start over. */
  if (self->ready)
    triage_connection_start (self->connection);
}

/* The window a dialog belongs to: the main window if the person sees it.
 * From the tray (or a shortcut's action) with no window shown, a dialog is a
 * window of its own: made transient (and modal) for a window never shown,
 * it had no parent on screen, and the hidden window it made then counted as
 * one showing the app's problems, so none was told in a bubble. */
static GtkWindow *
get_shown_window (TriageApplication *self)
{
  if (self->window != NULL && gtk_widget_get_visible (GTK_WIDGET (self->window)))
    return GTK_WINDOW (self->window);

  return NULL;
}

/* The window of @type already open, if any: one Preferences, one About;
 * asked for again (the tray, a shortcut), it comes forward. */
static GtkWindow *
find_open (GType type)
{
  g_autoptr(GList) windows = gtk_window_list_toplevels ();

  for (GList *l = windows; l != NULL; l = l->next)
    if (G_TYPE_CHECK_INSTANCE_TYPE (l->data, type))
      return l->data;

  return NULL;
}

static void
preferences_action (GSimpleAction *action,
                    GVariant      *parameter,
                    gpointer       user_data)
{
  TriageApplication *self = user_data;
  TriagePreferencesWindow *preferences =
    (TriagePreferencesWindow *) find_open (TRIAGE_TYPE_PREFERENCES_WINDOW);

  if (preferences == NULL)
    {
      preferences = triage_preferences_window_new (get_shown_window (self), self->settings,
                                                   self->credentials);
      /* Its own or not, one of the app's windows: the app.* actions reach it
       * (Connect's app.reconnect) and the app stays while it is open. */
      gtk_window_set_application (GTK_WINDOW (preferences), GTK_APPLICATION (self));
      /* What to do about the token depends on what the server made of it. */
      triage_preferences_window_set_connection (preferences,
                                                triage_connection_get_state (self->connection),
                                                triage_connection_get_problem (self->connection),
                                                triage_connection_get_message (self->connection));
    }
  gtk_window_present (GTK_WINDOW (preferences));
}

static void
about_action (GSimpleAction *action,
              GVariant      *parameter,
              gpointer       user_data)
{
  TriageApplication *self = user_data;
  const char *developers[] = { "The Triage authors", NULL };
  GtkWindow *parent = get_shown_window (self);
  GtkWindow *about = find_open (ADW_TYPE_ABOUT_WINDOW);

  if (about != NULL)
    {
      gtk_window_present (about);
      return;
    }
  about = g_object_new (ADW_TYPE_ABOUT_WINDOW,
                        "transient-for", parent,
                        "modal", parent != NULL,
                        "application", GTK_APPLICATION (self),
                        "application-name", "Triage",
                        "application-icon", APPLICATION_ID,
                        "developer-name", "The Triage authors",
                        "version", PACKAGE_VERSION,
                        "developers", developers,
                        "copyright", "© 2026 The Triage authors",
                        "license-type", GTK_LICENSE_GPL_3_0,
                        "comments", _("Answer the decisions your AI agents ask you to make"),
                        NULL);
  gtk_window_present (about);
}

static void
quit_action (GSimpleAction *action,
             GVariant      *parameter,
             gpointer       user_data)
{
  TriageApplication *self = user_data;

  if (self->window != NULL)
    gtk_window_destroy (GTK_WINDOW (self->window));
  g_application_quit (G_APPLICATION (self));
}

/* The window's keyboard triage (triage-window.c installs the actions);
 * listed in gtk/help-overlay.ui. */
static const struct
{
  const char *action;
  const char *accels[3];
} window_accels[] = {
  { "win.search", { "<Control>f", NULL } },
  { "win.open-request", { "<Alt>Right", NULL } },
  { "win.next-request", { "<Control>Page_Down", "<Alt>Down", NULL } },
  { "win.previous-request", { "<Control>Page_Up", "<Alt>Up", NULL } },
  { "win.back", { "<Alt>Left", NULL } },
  { "win.show-view::inbox", { "<Alt>1", NULL } },
  { "win.show-view::history", { "<Alt>2", "<Control>h", NULL } },
};

static const GActionEntry app_actions[] = {
  { "show", show_action },
  { "open-request", open_request_action, "s" },
  { "retry", retry_action },
  { "reconnect", reconnect_action },
  { "preferences", preferences_action },
  { "about", about_action },
  { "quit", quit_action },
};

/* The app's actions and every shortcut, the window's included. */
void
_triage_application_install_actions (TriageApplication *self)
{
  g_autoptr(GAction) dnd_action = NULL;

  g_action_map_add_action_entries (G_ACTION_MAP (self), app_actions, G_N_ELEMENTS (app_actions), self);
  dnd_action = g_settings_create_action (self->settings, "do-not-disturb");
  g_action_map_add_action (G_ACTION_MAP (self), dnd_action);

  gtk_application_set_accels_for_action (GTK_APPLICATION (self), "app.quit",
                                         (const char *[]) { "<Control>q", NULL });
  gtk_application_set_accels_for_action (GTK_APPLICATION (self), "app.preferences",
                                         (const char *[]) { "<Control>comma", NULL });
  gtk_application_set_accels_for_action (GTK_APPLICATION (self), "app.retry",
                                         (const char *[]) { "<Control>r", NULL });
  gtk_application_set_accels_for_action (GTK_APPLICATION (self), "window.close",
                                         (const char *[]) { "<Control>w", NULL });
  for (guint i = 0; i < G_N_ELEMENTS (window_accels); i++)
    gtk_application_set_accels_for_action (GTK_APPLICATION (self), window_accels[i].action,
                                           window_accels[i].accels);
}
