/* triage-window-status.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-window"

#include <glib/gi18n.h>
#include <string.h>

#include "triage-decision-format.h"
#include "triage-window-private.h"

/*
 * What the window says of how things stand: the number pending under the
 * list's title, the connection bar above it (with its countdown to the next
 * try), toasts for passing failures, and errors of an answer, in the view of
 * its request when it is open.
 */

static void update_problem_page (TriageWindow *self);

/* Under the list title: the number pending (waiting for the person: one
 * answered here, its answer still in the outbox, is not) and, while all is
 * well, that the app is connected (a problem shows in the bar below
 * instead); the number is also the inbox's badge, as the tray's. With
 * nothing pending, a configuration error takes the place of the empty
 * inbox's help. */
void
_triage_window_update_list_subtitle (TriageWindow *self)
{
  guint n = triage_inbox_model_get_n_waiting (self->model);
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
  /* The accent's colours: a plain badge is grey on the grey of the button. */
  adw_view_stack_page_set_needs_attention (self->inbox_page, n > 0);
  update_problem_page (self);
}

/* Connection bar */

/* Problems only a change of the settings (or of the server) can fix: the
 * bar says what is wrong and offers Preferences, and never a next try. */
static gboolean
is_configuration_problem (TriageConnectionState   state,
                          TriageConnectionProblem problem)
{
  switch (problem)
    {
    case TRIAGE_CONNECTION_PROBLEM_NO_ADDRESS:
    case TRIAGE_CONNECTION_PROBLEM_BAD_ADDRESS:
    case TRIAGE_CONNECTION_PROBLEM_CERTIFICATE:
    case TRIAGE_CONNECTION_PROBLEM_NO_TOKEN:
    case TRIAGE_CONNECTION_PROBLEM_TOKEN_REFUSED:
    case TRIAGE_CONNECTION_PROBLEM_NOT_USER_TOKEN:
    case TRIAGE_CONNECTION_PROBLEM_TOKEN_UNSENDABLE:
      return TRUE;

    case TRIAGE_CONNECTION_PROBLEM_NONE:
      return state == TRIAGE_CONNECTION_AUTH_FAILED;

    case TRIAGE_CONNECTION_PROBLEM_NO_NETWORK:
    case TRIAGE_CONNECTION_PROBLEM_UNREACHABLE:
    case TRIAGE_CONNECTION_PROBLEM_LOST:
    case TRIAGE_CONNECTION_PROBLEM_LOCAL_SERVER:
    case TRIAGE_CONNECTION_PROBLEM_KEYRING:
    case TRIAGE_CONNECTION_PROBLEM_KEYRING_FAILED:
    case TRIAGE_CONNECTION_PROBLEM_STORAGE:
    default:
      return FALSE;
    }
}

/* What stops everything until the person acts: a configuration problem, or
 * the app's own database that cannot open (Preferences cannot help there). */
static gboolean
is_blocking_problem (TriageConnectionState   state,
                     TriageConnectionProblem problem)
{
  return problem == TRIAGE_CONNECTION_PROBLEM_STORAGE || is_configuration_problem (state, problem);
}

/* What is waited for, and when it is tried again (@left seconds; none
 * scheduled when @scheduled is FALSE). */
static char *
dup_waiting_text (TriageWindow *self,
                  gboolean      scheduled,
                  gint64        left)
{
  switch (self->connection_problem)
    {
    case TRIAGE_CONNECTION_PROBLEM_UNREACHABLE:
      if (left > 0)
        /* Translators: no connection was made since the app started (or since
         * its settings changed; the reason follows); %d is a number of seconds */
        return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                             "Not connected. Trying again in %d second…",
                                             "Not connected. Trying again in %d seconds…",
                                             (int) left), (int) left);
      return g_strdup (_("Not connected. Trying again…"));

    case TRIAGE_CONNECTION_PROBLEM_LOCAL_SERVER:
      if (left > 0)
        /* Translators: the server on this computer could not be started;
         * %d is a number of seconds */
        return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                             "The local server is not running. Trying again in %d second…",
                                             "The local server is not running. Trying again in %d seconds…",
                                             (int) left), (int) left);
      return g_strdup (_("The local server is not running. Trying again…"));

    case TRIAGE_CONNECTION_PROBLEM_KEYRING:
      if (left > 0)
        /* Translators: the keyring (where the token is kept) is locked or does
         * not answer; %d is a number of seconds */
        return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                             "Waiting for the keyring. Trying again in %d second…",
                                             "Waiting for the keyring. Trying again in %d seconds…",
                                             (int) left), (int) left);
      return g_strdup (_("Waiting for the keyring. Trying again…"));

    case TRIAGE_CONNECTION_PROBLEM_NONE:
    case TRIAGE_CONNECTION_PROBLEM_NO_NETWORK:
    default:
      if (!scheduled)
        return g_strdup (_("Offline"));
      if (left > 0)
        /* Translators: no network; %d is a number of seconds */
        return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                             "Offline: no network. Trying again in %d second…",
                                             "Offline: no network. Trying again in %d seconds…",
                                             (int) left), (int) left);
      return g_strdup (_("Offline: no network. Trying again…"));
    }
}

/* The bar's first sentence: what is wrong (and when it is tried again). */
static char *
dup_headline (TriageWindow *self)
{
  gint64 left = (self->retry_at - g_get_monotonic_time () + G_USEC_PER_SEC - 1) / G_USEC_PER_SEC;

  switch (self->connection_problem)
    {
    case TRIAGE_CONNECTION_PROBLEM_NO_ADDRESS:
      return g_strdup (_("No server address is set"));

    case TRIAGE_CONNECTION_PROBLEM_BAD_ADDRESS:
      return g_strdup (_("The server address is not valid"));

    case TRIAGE_CONNECTION_PROBLEM_CERTIFICATE:
      /* Translators: the server's TLS certificate is not accepted */
      return g_strdup (_("Cannot connect securely"));

    case TRIAGE_CONNECTION_PROBLEM_KEYRING_FAILED:
      return g_strdup (_("Cannot read the token from the keyring"));

    case TRIAGE_CONNECTION_PROBLEM_STORAGE:
      return g_strdup (_("Cannot open the app’s database"));

    case TRIAGE_CONNECTION_PROBLEM_NO_TOKEN:
      /* Not a failure: a step not taken yet (a first run, a new server). */
      return g_strdup (_("A user token is needed"));

    case TRIAGE_CONNECTION_PROBLEM_TOKEN_REFUSED:
    case TRIAGE_CONNECTION_PROBLEM_NOT_USER_TOKEN:
      return g_strdup (_("Sign-in failed"));

    case TRIAGE_CONNECTION_PROBLEM_TOKEN_UNSENDABLE:
      /* Translators: the token stored is blank, or holds a space, tab, line
       * break or other control character */
      return g_strdup (_("The token stored cannot be sent"));

    default:
      break;
    }

  switch (self->connection)
    {
    case TRIAGE_CONNECTION_CONNECTING:
      return g_strdup (_("Connecting…"));

    case TRIAGE_CONNECTION_CONNECTED:
      return g_strdup (_("Connected"));

    case TRIAGE_CONNECTION_RECONNECTING:
      if (self->connection_problem == TRIAGE_CONNECTION_PROBLEM_UNREACHABLE)
        return dup_waiting_text (self, TRUE, left);
      if (left > 0)
        /* Translators: the connection was lost; %d is a number of seconds */
        return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                             "Connection lost. Reconnecting in %d second…",
                                             "Connection lost. Reconnecting in %d seconds…",
                                             (int) left), (int) left);
      return g_strdup (_("Connection lost. Reconnecting…"));

    case TRIAGE_CONNECTION_OFFLINE:
      return dup_waiting_text (self, self->retry_at != 0, left);

    case TRIAGE_CONNECTION_AUTH_FAILED:
      return g_strdup (_("Sign-in failed"));

    default:
      g_assert_not_reached ();
    }
}

/* What to do about a configuration problem, when the message (from the
 * connection) does not say it already. */
static const char *
get_advice (TriageWindow *self)
{
  switch (self->connection_problem)
    {
    case TRIAGE_CONNECTION_PROBLEM_NO_ADDRESS:
      return _("Enter it in Preferences, or choose the server on this computer.");

    case TRIAGE_CONNECTION_PROBLEM_BAD_ADDRESS:
      return _("Correct it in Preferences.");

    case TRIAGE_CONNECTION_PROBLEM_CERTIFICATE:
      return _("Ask the server’s administrator to fix its certificate or to tell you which "
               "one to install here, then retry; or change the server in Preferences.");

    case TRIAGE_CONNECTION_PROBLEM_STORAGE:
      return _("Nothing is received until answers can be kept safe. Check the disk (free "
               "space, permissions), then restart Triage.");

    default:
      return NULL;
    }
}

/* "Headline. Message. Advice.", each sentence ended once. */
static void
append_sentence (GString    *text,
                 const char *sentence)
{
  char last;

  if (sentence == NULL || *sentence == '\0')
    return;

  if (text->len > 0)
    {
      last = text->str[text->len - 1];
      if (g_ascii_isalnum (last) || last == ')' || last == '"' || last == '\'')
        g_string_append_c (text, '.');
      g_string_append_c (text, ' ');
    }
  g_string_append (text, sentence);
}

static void
update_connection_label (TriageWindow *self)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *headline = dup_headline (self);
  g_autofree char *markup = NULL;
  g_autofree char *escaped = NULL;
  gboolean blocking = is_blocking_problem (self->connection, self->connection_problem);

  append_sentence (text, headline);
  if (self->connection != TRIAGE_CONNECTION_CONNECTED)
    {
      append_sentence (text, self->connection_message);
      append_sentence (text, get_advice (self));
      /* Every sentence ends: a message from the server or the network may not. */
      if (blocking && text->len > 0 && g_ascii_isalnum (text->str[text->len - 1]))
        g_string_append_c (text, '.');
    }

  g_free (self->connection_text);
  self->connection_text = g_strdup (text->str);

  /* What is wrong first, in bold, when the person must act on it. */
  escaped = g_markup_escape_text (text->str, -1);
  if (blocking && g_str_has_prefix (text->str, headline))
    {
      g_autofree char *bold = g_markup_escape_text (headline, -1);

      markup = g_strdup_printf ("<b>%s</b>%s", bold, escaped + strlen (bold));
    }
  gtk_label_set_markup (self->connection_label, markup ? markup : escaped);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->connection_bar),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, self->connection_text, -1);
}

/* The problem page's title: the bar's headline, in the header capitalization
 * of the app's other status pages. */
static const char *
get_problem_title (TriageConnectionProblem problem)
{
  switch (problem)
    {
    case TRIAGE_CONNECTION_PROBLEM_NO_ADDRESS:
      return _("No Server Address Is Set");

    case TRIAGE_CONNECTION_PROBLEM_BAD_ADDRESS:
      return _("The Server Address Is Not Valid");

    case TRIAGE_CONNECTION_PROBLEM_CERTIFICATE:
      /* Translators: the server's TLS certificate is not accepted */
      return _("Cannot Connect Securely");

    case TRIAGE_CONNECTION_PROBLEM_STORAGE:
      return _("Cannot Open the App’s Database");

    case TRIAGE_CONNECTION_PROBLEM_NO_TOKEN:
      return _("User Token Needed");

    case TRIAGE_CONNECTION_PROBLEM_TOKEN_UNSENDABLE:
      /* Translators: the token stored is blank, or holds a space, tab, line
       * break or other control character */
      return _("The Token Stored Cannot Be Sent");

    case TRIAGE_CONNECTION_PROBLEM_TOKEN_REFUSED:
    case TRIAGE_CONNECTION_PROBLEM_NOT_USER_TOKEN:
    default:
      return _("Sign-In Failed");
    }
}

static const char *
get_problem_icon (TriageConnectionProblem problem)
{
  switch (problem)
    {
    case TRIAGE_CONNECTION_PROBLEM_CERTIFICATE:
      return "channel-insecure-symbolic";

    case TRIAGE_CONNECTION_PROBLEM_NO_ADDRESS:
    case TRIAGE_CONNECTION_PROBLEM_BAD_ADDRESS:
      return "network-server-symbolic";

    case TRIAGE_CONNECTION_PROBLEM_NO_TOKEN:
    case TRIAGE_CONNECTION_PROBLEM_TOKEN_REFUSED:
    case TRIAGE_CONNECTION_PROBLEM_NOT_USER_TOKEN:
    case TRIAGE_CONNECTION_PROBLEM_TOKEN_UNSENDABLE:
      return "dialog-password-symbolic";

    case TRIAGE_CONNECTION_PROBLEM_STORAGE:
      return "drive-harddisk-symbolic";

    default:
      return "network-error-symbolic";
    }
}

/* A configuration error (or a database that cannot open) with nothing
 * pending: the empty inbox's help would say requests arrive here, and none can. A status page says instead what
 * is wrong and what to do (the bar, which would say it again, hides). With
 * requests kept from before, the list stays, under the bar. */
static void
update_problem_page (TriageWindow *self)
{
  gboolean shown = self->connection != TRIAGE_CONNECTION_CONNECTED &&
                   is_blocking_problem (self->connection, self->connection_problem) &&
                   g_list_model_get_n_items (G_LIST_MODEL (self->model)) == 0;

  if (shown)
    {
      g_autoptr(GString) description = g_string_new (NULL);
      g_autofree char *escaped = NULL;

      append_sentence (description, self->connection_message);
      append_sentence (description, get_advice (self));
      if (description->len > 0 && g_ascii_isalnum (description->str[description->len - 1]))
        g_string_append_c (description, '.');
      escaped = g_markup_escape_text (description->str, -1);

      adw_status_page_set_icon_name (self->problem_page, get_problem_icon (self->connection_problem));
      adw_status_page_set_title (self->problem_page, get_problem_title (self->connection_problem));
      adw_status_page_set_description (self->problem_page, escaped);
      gtk_widget_set_visible (self->problem_retry_button,
                              gtk_widget_get_visible (self->retry_button));
      gtk_widget_set_visible (self->problem_preferences_button,
                              gtk_widget_get_visible (self->preferences_button));
    }

  gtk_stack_set_visible_child_name (self->inbox_stack, shown ? "problem" : "inbox");
  gtk_revealer_set_reveal_child (self->connection_revealer,
                                 self->connection != TRIAGE_CONNECTION_CONNECTED && !shown);
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
 *
 * As triage_window_set_connection_status() with no problem known beyond
 * the state.
 */
void
triage_window_set_connection (TriageWindow          *self,
                              TriageConnectionState  state,
                              const char            *message,
                              gint64                 retry_at)
{
  triage_window_set_connection_status (self, state, TRIAGE_CONNECTION_PROBLEM_NONE, message,
                                       retry_at);
}

/**
 * triage_window_set_connection_status:
 * @self: a #TriageWindow
 * @state: the connection state
 * @problem: why it is not live: the bar says what is wrong and what to do
 *   (Preferences, for what only the settings can fix)
 * @message: (nullable): details (why it failed), shown after the state
 * @retry_at: the monotonic time of the next try, 0 when none is scheduled
 */
void
triage_window_set_connection_status (TriageWindow            *self,
                                     TriageConnectionState    state,
                                     TriageConnectionProblem  problem,
                                     const char              *message,
                                     gint64                   retry_at)
{
  gboolean configuration;
  gboolean retry_helps;

  g_return_if_fail (TRIAGE_IS_WINDOW (self));

  if (state == TRIAGE_CONNECTION_CONNECTED)
    problem = TRIAGE_CONNECTION_PROBLEM_NONE;

  self->connection = state;
  self->connection_problem = problem;
  self->retry_at = retry_at;
  g_free (self->connection_message);
  self->connection_message = g_strdup (message);

  configuration = is_configuration_problem (state, problem);
  /* Trying the same address again cannot make it valid, nor find a token
   * never entered (Preferences does: its Connect tries), nor make a service
   * key a user's (the server knows it: it says the same each time), nor send
   * a token stored blank or with a space or control character inside; the
   * database is opened again only by a restart. */
  retry_helps = problem != TRIAGE_CONNECTION_PROBLEM_NO_ADDRESS &&
                problem != TRIAGE_CONNECTION_PROBLEM_BAD_ADDRESS &&
                problem != TRIAGE_CONNECTION_PROBLEM_NO_TOKEN &&
                problem != TRIAGE_CONNECTION_PROBLEM_NOT_USER_TOKEN &&
                problem != TRIAGE_CONNECTION_PROBLEM_TOKEN_UNSENDABLE &&
                problem != TRIAGE_CONNECTION_PROBLEM_STORAGE;

  gtk_widget_set_visible (self->retry_button,
                          state != TRIAGE_CONNECTION_CONNECTED &&
                          state != TRIAGE_CONNECTION_CONNECTING && retry_helps);
  /* Never connected since the settings changed: the address may be wrong. */
  gtk_widget_set_visible (self->preferences_button,
                          configuration || problem == TRIAGE_CONNECTION_PROBLEM_UNREACHABLE);
  if (is_blocking_problem (state, problem) || state == TRIAGE_CONNECTION_AUTH_FAILED ||
      state == TRIAGE_CONNECTION_OFFLINE)
    gtk_widget_add_css_class (self->connection_bar, "error");
  else
    gtk_widget_remove_css_class (self->connection_bar, "error");

  g_clear_handle_id (&self->countdown_id, g_source_remove);
  if ((state == TRIAGE_CONNECTION_RECONNECTING || state == TRIAGE_CONNECTION_OFFLINE) &&
      retry_at > g_get_monotonic_time ())
    self->countdown_id = g_timeout_add_seconds (1, countdown_cb, self);

  update_connection_label (self);
  _triage_window_update_list_subtitle (self);   /* and the bar's place, or the problem page */
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

/* Shows @message for @timeout seconds (0: until dismissed). Returns
 * (transfer none) the toast, which the overlay keeps until it goes. */
AdwToast *
_triage_window_show_toast (TriageWindow *self,
                           const char   *message,
                           guint         timeout)
{
  g_autofree char *visible = NULL;
  g_autofree char *escaped = NULL;
  AdwToast *toast;

  /* Toast titles are markup; messages may quote a server, or an agent's
   * title (its hidden characters shown, as every label does). */
  visible = triage_format_visible_text (message);
  escaped = g_markup_escape_text (visible, -1);
  toast = adw_toast_new (escaped);
  adw_toast_set_timeout (toast, timeout);
  g_signal_connect_object (toast, "dismissed", G_CALLBACK (on_toast_dismissed), self,
                           G_CONNECT_SWAPPED);
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
  name_toast_buttons (GTK_WIDGET (self->toast_overlay), FALSE);
  return toast;
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
  g_return_if_fail (TRIAGE_IS_WINDOW (self));
  g_return_if_fail (message != NULL);

  _triage_window_show_toast (self, message, 6);
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
 * A refused answer is none: the view takes another, what was entered kept
 * (docs/protocol.md).
 */
void
triage_window_show_delivery_error (TriageWindow *self,
                                   const char   *notification_id,
                                   const char   *message)
{
  g_return_if_fail (TRIAGE_IS_WINDOW (self));

  if (self->current != NULL &&
      g_strcmp0 (triage_request_get_id (self->current), notification_id) == 0)
    triage_request_view_show_answer_error (self->decision_view, message);
  else
    triage_window_add_toast (self, message);
}

/* The open request's view says what is known of it; an answer it was
 * sending (the server could not read the request) did not leave. */
static void
show_fate_unknown (TriageWindow *self,
                   const char   *notification_id,
                   const char   *detail)
{
  if (self->current == NULL ||
      g_strcmp0 (triage_request_get_id (self->current), notification_id) != 0 ||
      triage_request_get_answer_state (self->current) != TRIAGE_ANSWER_NONE)
    return;

  triage_request_view_set_delivery_state (self->decision_view, TRIAGE_DELIVERY_NONE);
  g_clear_pointer (&self->answered_here, g_free);
  triage_request_view_set_status (self->decision_view, triage_request_get_status (self->current),
                                  NULL, NULL, detail);
}

/**
 * triage_window_show_gone:
 * @self: a #TriageWindow
 * @notification_id: a request the server no longer has (or shows to this user)
 *
 * If the request is open, its view says it is no longer on the server, and
 * that what became of it is not known; it turns read-only.
 */
void
triage_window_show_gone (TriageWindow *self,
                         const char   *notification_id)
{
  g_return_if_fail (TRIAGE_IS_WINDOW (self));

  show_fate_unknown (self, notification_id, triage_request_banner_gone_detail ());
}

/**
 * triage_window_show_unreadable:
 * @self: a #TriageWindow
 * @notification_id: a request whose row the server can no longer read (500
 *   NOTIFICATION_UNREADABLE to an answer)
 *
 * If the request is open, its view says it is no longer readable on the
 * server and the answer was not recorded; it turns read-only.
 */
void
triage_window_show_unreadable (TriageWindow *self,
                               const char   *notification_id)
{
  g_return_if_fail (TRIAGE_IS_WINDOW (self));

  show_fate_unknown (self, notification_id, triage_request_banner_unreadable_detail ());
}
