/* triage-preferences-window.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-preferences-window"

#include <glib/gi18n.h>

#include "triage-preferences-window.h"
#include "triage-server-address.h"

/*
 * Preferences: local mode or a remote server (address + user token), and
 * the notification and background switches, all GSettings keys of the
 * schema except the token, which goes to the keyring. The stored token is
 * never shown back; an empty token field keeps the one stored.
 *
 * The window changes settings and asks for a reconnect (app.retry); it never
 * reaches into the application, which tells it what became of the connection
 * (triage_preferences_window_set_connection ()): after Connect, the status
 * says the token was kept, then whether the connection was made with it.
 */

struct _TriagePreferencesWindow
{
  AdwPreferencesWindow  parent_instance;

  GSettings            *settings;
  TriageCredentials    *credentials;
  GCancellable         *cancellable;
  gboolean              syncing;
  gboolean              syncing_autostart;
  char                 *connecting;     /* after Connect, until the connection settles:
                                         * what was done with the token */
  gboolean              idle_status;    /* the status says what to do with the settings as
                                         * they are, not what Connect found */
  TriageConnectionProblem problem;      /* the connection's, as the app last told it */

  /* template */
  GtkCheckButton       *local_check;
  GtkCheckButton       *remote_check;
  AdwPreferencesGroup  *remote_group;
  AdwEntryRow          *url_row;
  AdwPasswordEntryRow  *token_row;
  AdwActionRow         *status_row;
  GtkSpinner           *spinner;
  GtkButton            *connect_button;
  GtkWidget            *token_peek_button;  /* AdwPasswordEntryRow's, not ours */
  GtkSwitch            *notifications_switch;
  GtkSwitch            *dnd_switch;
  GtkSwitch            *background_switch;
  AdwActionRow         *autostart_row;
  GtkSwitch            *autostart_switch;
};

G_DEFINE_FINAL_TYPE (TriagePreferencesWindow, triage_preferences_window, ADW_TYPE_PREFERENCES_WINDOW)

enum {
  PROP_0,
  PROP_SETTINGS,
  PROP_CREDENTIALS,
  N_PROPS
};

static GParamSpec *properties [N_PROPS];

static void
set_status (TriagePreferencesWindow *self,
            const char              *message,
            gboolean                 is_error)
{
  self->idle_status = FALSE;
  adw_action_row_set_subtitle (self->status_row, message ? message : "");
  if (is_error)
    gtk_widget_add_css_class (GTK_WIDGET (self->status_row), "error");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->status_row), "error");
}

/* A field's problem (%NULL: none), the address's or the token's, where
 * the keyboard is taken back to it: red, and to a screen reader invalid and
 * described by the problem, which is said again on the row below, out of
 * the way. Editing the field clears it. Both the row and its text: AT-SPI
 * shows GTK 4.8 readers the row as the field (named by its title, its text
 * edited through it), while the text inside holds the keyboard. */
static void
set_field_problem (AdwEntryRow *row,
                   const char  *problem)
{
  GtkAccessible *field[] = {
    GTK_ACCESSIBLE (row),
    GTK_ACCESSIBLE (gtk_editable_get_delegate (GTK_EDITABLE (row))),
  };

  if (problem != NULL)
    gtk_widget_add_css_class (GTK_WIDGET (row), "error");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (row), "error");

  for (guint i = 0; i < G_N_ELEMENTS (field); i++)
    if (problem != NULL)
      {
        gtk_accessible_update_state (field[i], GTK_ACCESSIBLE_STATE_INVALID,
                                     GTK_ACCESSIBLE_INVALID_TRUE, -1);
        gtk_accessible_update_property (field[i], GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, problem, -1);
      }
    else
      {
        gtk_accessible_reset_state (field[i], GTK_ACCESSIBLE_STATE_INVALID);
        gtk_accessible_reset_property (field[i], GTK_ACCESSIBLE_PROPERTY_DESCRIPTION);
      }
}

/* A problem of the token's (the one typed, or the one stored) said on the
 * status row, and on the token's field, where a new one is entered. */
static void
set_token_problem (TriagePreferencesWindow *self,
                   const char              *problem)
{
  set_status (self, problem, TRUE);
  set_field_problem (ADW_ENTRY_ROW (self->token_row), problem);
}

/* After Connect: what was done with the token, and that the outcome is
 * awaited, until the connection settles. */
static void
set_connecting (TriagePreferencesWindow *self,
                const char              *done)
{
  g_autofree char *status = NULL;

  g_free (self->connecting);
  self->connecting = g_strdup (done);
  /* Translators: in Preferences after Connect; %s is what was done with the
   * token ("Token saved in the keyring") */
  status = g_strdup_printf (_("%s. Connecting…"), done);
  set_status (self, status, FALSE);
}

static void
set_busy (TriagePreferencesWindow *self,
          gboolean                 busy)
{
  gtk_spinner_set_spinning (self->spinner, busy);
  gtk_widget_set_visible (GTK_WIDGET (self->spinner), busy);
  gtk_widget_set_sensitive (GTK_WIDGET (self->connect_button), !busy);
  gtk_widget_set_sensitive (GTK_WIDGET (self->url_row), !busy);
  gtk_widget_set_sensitive (GTK_WIDGET (self->token_row), !busy);
}

static char *
dup_url (TriagePreferencesWindow *self)
{
  return g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->url_row))));
}

static void
apply_remote (TriagePreferencesWindow *self,
              const char              *url)
{
  g_autofree char *current = g_settings_get_string (self->settings, "server-url");
  gboolean unchanged = g_str_equal (current, url) &&
                       g_settings_get_enum (self->settings, "server-mode") == 1;
  g_autoptr(GSettingsBackend) backend = NULL;
  g_autoptr(GSettings) batch = NULL;
  g_autofree char *schema_id = NULL;

  /* A change of address or mode makes the app connect anew by itself; both
   * keys change in one step, through a GSettings of its own (delay mode
   * cannot be left, and the window's object goes on writing at once). */
  g_object_get (self->settings, "schema-id", &schema_id, "backend", &backend, NULL);
  batch = g_settings_new_with_backend (schema_id, backend);
  g_settings_delay (batch);
  g_settings_set_string (batch, "server-url", url);
  g_settings_set_enum (batch, "server-mode", 1);
  g_settings_apply (batch);

  /* Same address, new token: nothing changed there, so ask explicitly. */
  if (unchanged)
    gtk_widget_activate_action (GTK_WIDGET (self), "app.reconnect", NULL);
}

static void
store_token_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(TriagePreferencesWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *url = NULL;

  if (!triage_credentials_store_token_finish (TRIAGE_CREDENTIALS (object), result, &error))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;
      set_busy (self, FALSE);
      if (g_error_matches (error, TRIAGE_CREDENTIALS_ERROR, TRIAGE_CREDENTIALS_ERROR_UNSENDABLE))
        {
          /* The token typed is the fault: back to it, to paste it again. */
          set_token_problem (self, error->message);
          gtk_widget_grab_focus (GTK_WIDGET (self->token_row));
        }
      else
        set_status (self, error->message, TRUE);
      return;
    }

  set_busy (self, FALSE);
  url = dup_url (self);
  gtk_editable_set_text (GTK_EDITABLE (self->token_row), "");
  set_connecting (self, _("Token saved in the keyring"));
  apply_remote (self, url);
}

static void
lookup_token_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(TriagePreferencesWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *token = NULL;
  g_autofree char *url = NULL;

  token = triage_credentials_lookup_token_finish (TRIAGE_CREDENTIALS (object), result, &error);
  if (error != NULL && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  set_busy (self, FALSE);

  if (error != NULL)
    {
      set_status (self, error->message, TRUE);
      return;
    }

  if (token == NULL)
    {
      set_token_problem (self, _("Enter your user token for this server"));
      gtk_widget_grab_focus (GTK_WIDGET (self->token_row));
      return;
    }

  url = dup_url (self);
  set_connecting (self, _("Using the token stored in the keyring"));
  apply_remote (self, url);
}

static void
on_connect_clicked (TriagePreferencesWindow *self)
{
  g_autofree char *url = dup_url (self);
  g_autofree char *problem = NULL;
  const char *token = gtk_editable_get_text (GTK_EDITABLE (self->token_row));

  set_field_problem (ADW_ENTRY_ROW (self->token_row), NULL);
  if (*url == '\0')
    {
      set_status (self, _("Enter the address of the server"), TRUE);
      set_field_problem (self->url_row, _("Enter the address of the server"));
      gtk_widget_grab_focus (GTK_WIDGET (self->url_row));
      return;
    }

  problem = triage_server_address_dup_problem (url);
  if (problem != NULL)
    {
      set_status (self, problem, TRUE);
      set_field_problem (self->url_row, problem);
      gtk_widget_grab_focus (GTK_WIDGET (self->url_row));
      return;
    }
  set_field_problem (self->url_row, NULL);

  gtk_check_button_set_active (self->remote_check, TRUE);
  g_clear_pointer (&self->connecting, g_free);
  set_busy (self, TRUE);
  set_status (self, _("Talking to the keyring…"), FALSE);

  if (*token != '\0')
    triage_credentials_store_token_async (self->credentials, url, token, self->cancellable,
                                          store_token_cb, g_object_ref (self));
  else
    triage_credentials_lookup_token_async (self->credentials, url, self->cancellable,
                                           lookup_token_cb, g_object_ref (self));
}

static void
on_url_changed (TriagePreferencesWindow *self)
{
  set_field_problem (self->url_row, NULL);
}

static void
on_token_changed (TriagePreferencesWindow *self)
{
  set_field_problem (ADW_ENTRY_ROW (self->token_row), NULL);
}

static void
on_mode_toggled (TriagePreferencesWindow *self)
{
  gboolean remote = gtk_check_button_get_active (self->remote_check);
  g_autofree char *configured = NULL;

  gtk_widget_set_sensitive (GTK_WIDGET (self->remote_group), remote);

  if (self->syncing)
    return;

  if (!remote)
    {
      g_settings_set_enum (self->settings, "server-mode", 0);
      g_clear_pointer (&self->connecting, g_free);
      set_status (self, NULL, FALSE);
      return;
    }

  /* Back to a server configured before: its token is still in the keyring. */
  configured = g_settings_get_string (self->settings, "server-url");
  if (*configured != '\0')
    g_settings_set_enum (self->settings, "server-mode", 1);
  else
    {
      set_status (self, _("Enter the server address and your token, then connect"), FALSE);
      gtk_widget_grab_focus (GTK_WIDGET (self->url_row));
    }
}

/* With no Connect under way: what to do with the server configured, which
 * the token stored (or the lack of one) decides. "Leave the token empty to
 * keep the one stored" was said when none was, or the server refused it. */
static void
set_idle_status (TriagePreferencesWindow *self)
{
  g_autofree char *url = g_settings_get_string (self->settings, "server-url");
  gboolean remote = g_settings_get_enum (self->settings, "server-mode") == 1;

  set_field_problem (ADW_ENTRY_ROW (self->token_row), NULL);
  if (*url == '\0')
    set_status (self, _("No server configured"), FALSE);
  else if (remote && self->problem == TRIAGE_CONNECTION_PROBLEM_NO_TOKEN)
    set_status (self, _("No token is stored for this server yet: enter your user token, "
                        "then Connect"), FALSE);
  else if (remote && self->problem == TRIAGE_CONNECTION_PROBLEM_TOKEN_REFUSED)
    set_token_problem (self, _("The server refused the token stored: enter a new one, then "
                               "Connect"));
  else if (remote && self->problem == TRIAGE_CONNECTION_PROBLEM_NOT_USER_TOKEN)
    set_token_problem (self, _("The token stored is not a user token: enter yours, then "
                               "Connect"));
  else if (remote && self->problem == TRIAGE_CONNECTION_PROBLEM_TOKEN_UNSENDABLE)
    /* atp_token_check ()'s faults, all of them: blank, or a space, tab, line
     * break or other control character inside */
    set_token_problem (self, _("The token stored cannot be sent (it is empty or holds a space, "
                               "tab, line break or other control character): enter it again, "
                               "then Connect"));
  else
    set_status (self, _("Leave the token empty to keep the one stored"), FALSE);
  self->idle_status = TRUE;
}

static void
sync_from_settings (TriagePreferencesWindow *self)
{
  g_autofree char *url = g_settings_get_string (self->settings, "server-url");
  gboolean remote = g_settings_get_enum (self->settings, "server-mode") == 1;

  self->syncing = TRUE;
  gtk_check_button_set_active (remote ? self->remote_check : self->local_check, TRUE);
  gtk_widget_set_sensitive (GTK_WIDGET (self->remote_group), remote);
  gtk_editable_set_text (GTK_EDITABLE (self->url_row), url);
  self->syncing = FALSE;

  set_idle_status (self);
}

/* The token row's button that shows the token in clear (AdwPasswordEntryRow's
 * own) is an icon alone, which libadwaita 1.2 gives no accessible name:
 * screen readers read it as "GtkImage". It says what it does, and follows
 * the token being shown (its tooltip does; 1.2 has no API for the button). */
static void
on_token_visibility (TriagePreferencesWindow *self)
{
  GtkEditable *text = gtk_editable_get_delegate (GTK_EDITABLE (self->token_row));

  if (self->token_peek_button == NULL || !GTK_IS_TEXT (text))
    return;

  gtk_accessible_update_property (GTK_ACCESSIBLE (self->token_peek_button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  gtk_text_get_visibility (GTK_TEXT (text)) ? _("Hide Token")
                                                                            : _("Show Token"),
                                  -1);
}

/* GTK 4.8 tells a screen reader where the keyboard went by the widget
 * that has it, and for a GtkText, which has no role of its own, by its
 * parent: in libadwaita 1.2's entry rows that is a box inside the row, which
 * never has the keyboard, so Tab into the address was silent (no focus
 * event; Orca said nothing). The text inside is made a field of its own,
 * named as the row, while no reader has seen it (the window is being
 * built): the role can change only then. Not the token's: GTK 4.8 says
 * "password text" only of a GtkPasswordEntry, and a reader echoes what is
 * typed in a plain "text", the token aloud. */
static void
present_field_text (AdwPreferencesRow *row)
{
  GtkEditable *text = gtk_editable_get_delegate (GTK_EDITABLE (row));

  g_object_set (text, "accessible-role", GTK_ACCESSIBLE_ROLE_TEXT_BOX, NULL);
  gtk_accessible_update_property (GTK_ACCESSIBLE (text),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, adw_preferences_row_get_title (row),
                                  -1);
}

static void
label_token_peek_button (TriagePreferencesWindow *self)
{
  GtkWidget *row = GTK_WIDGET (self->token_row);
  GtkWidget *widget = row;
  GtkEditable *text = gtk_editable_get_delegate (GTK_EDITABLE (self->token_row));

  /* Depth first through the row's own children, to its one shown button
   * (the other, Apply, is hidden: the row applies with Connect). */
  while (widget != NULL && self->token_peek_button == NULL)
    {
      GtkWidget *next = gtk_widget_get_first_child (widget);

      if (GTK_IS_BUTTON (widget) && gtk_widget_get_visible (widget))
        self->token_peek_button = widget;

      while (next == NULL && widget != NULL && widget != row)
        {
          next = gtk_widget_get_next_sibling (widget);
          if (next == NULL)
            widget = gtk_widget_get_parent (widget);
        }
      widget = next;
    }

  if (GTK_IS_TEXT (text))
    g_signal_connect_object (text, "notify::visibility",
                             G_CALLBACK (on_token_visibility), self, G_CONNECT_SWAPPED);
  on_token_visibility (self);
}

/* Start at Login starts the app without a window, which only stays while it
 * runs in the background: with Run in Background off it cannot be turned on,
 * shows off (the app does not start at login then), and says why. The
 * `autostart` key keeps the person's choice for when it is back on. */
static void
sync_autostart (TriagePreferencesWindow *self)
{
  gboolean background = g_settings_get_boolean (self->settings, "run-in-background");

  self->syncing_autostart = TRUE;
  gtk_switch_set_active (self->autostart_switch,
                         background && g_settings_get_boolean (self->settings, "autostart"));
  self->syncing_autostart = FALSE;

  gtk_widget_set_sensitive (GTK_WIDGET (self->autostart_row), background);
  /* The row's insensitivity greys the switch, but GTK 4.8 tells AT-SPI only
   * the switch's own: a screen reader would offer it as operable. */
  gtk_widget_set_sensitive (GTK_WIDGET (self->autostart_switch), background);
  if (background)
    adw_action_row_set_subtitle (self->autostart_row,
                                 _("Start in the background when you log in"));
  else
    adw_action_row_set_subtitle (self->autostart_row,
                                 _("Needs Run in Background: without it, Triage would quit as "
                                   "soon as it started"));
}

static void
on_autostart_switch_active (TriagePreferencesWindow *self)
{
  if (!self->syncing_autostart)
    g_settings_set_boolean (self->settings, "autostart",
                            gtk_switch_get_active (self->autostart_switch));
}

static void
triage_preferences_window_constructed (GObject *object)
{
  TriagePreferencesWindow *self = (TriagePreferencesWindow *)object;

  G_OBJECT_CLASS (triage_preferences_window_parent_class)->constructed (object);

  g_settings_bind (self->settings, "notifications-enabled",
                   self->notifications_switch, "active", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "do-not-disturb",
                   self->dnd_switch, "active", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "run-in-background",
                   self->background_switch, "active", G_SETTINGS_BIND_DEFAULT);
  g_signal_connect_object (self->settings, "changed::autostart",
                           G_CALLBACK (sync_autostart), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->settings, "changed::run-in-background",
                           G_CALLBACK (sync_autostart), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->autostart_switch, "notify::active",
                           G_CALLBACK (on_autostart_switch_active), self, G_CONNECT_SWAPPED);
  sync_autostart (self);

  present_field_text (ADW_PREFERENCES_ROW (self->url_row));
  label_token_peek_button (self);
  sync_from_settings (self);
  set_busy (self, FALSE);
}

static void
triage_preferences_window_dispose (GObject *object)
{
  TriagePreferencesWindow *self = (TriagePreferencesWindow *)object;

  g_cancellable_cancel (self->cancellable);
  self->token_peek_button = NULL;
  gtk_widget_dispose_template (GTK_WIDGET (self), TRIAGE_TYPE_PREFERENCES_WINDOW);

  G_OBJECT_CLASS (triage_preferences_window_parent_class)->dispose (object);
}

static void
triage_preferences_window_finalize (GObject *object)
{
  TriagePreferencesWindow *self = (TriagePreferencesWindow *)object;

  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->connecting, g_free);
  g_clear_object (&self->settings);
  g_clear_object (&self->credentials);

  G_OBJECT_CLASS (triage_preferences_window_parent_class)->finalize (object);
}

static void
triage_preferences_window_set_property (GObject      *object,
                                        guint         prop_id,
                                        const GValue *value,
                                        GParamSpec   *pspec)
{
  TriagePreferencesWindow *self = TRIAGE_PREFERENCES_WINDOW (object);

  switch (prop_id)
    {
    case PROP_SETTINGS:
      self->settings = g_value_dup_object (value);
      break;

    case PROP_CREDENTIALS:
      self->credentials = g_value_dup_object (value);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
triage_preferences_window_class_init (TriagePreferencesWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = triage_preferences_window_constructed;
  object_class->dispose = triage_preferences_window_dispose;
  object_class->finalize = triage_preferences_window_finalize;
  object_class->set_property = triage_preferences_window_set_property;

  properties [PROP_SETTINGS] =
    g_param_spec_object ("settings", NULL, NULL, G_TYPE_SETTINGS,
                         (G_PARAM_WRITABLE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));
  properties [PROP_CREDENTIALS] =
    g_param_spec_object ("credentials", NULL, NULL, TRIAGE_TYPE_CREDENTIALS,
                         (G_PARAM_WRITABLE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               RESOURCE_BASE "/preferences/triage-preferences-window.ui");
  gtk_widget_class_bind_template_child (widget_class, TriagePreferencesWindow, local_check);
  gtk_widget_class_bind_template_child (widget_class, TriagePreferencesWindow, remote_check);
  gtk_widget_class_bind_template_child (widget_class, TriagePreferencesWindow, remote_group);
  gtk_widget_class_bind_template_child (widget_class, TriagePreferencesWindow, url_row);
  gtk_widget_class_bind_template_child (widget_class, TriagePreferencesWindow, token_row);
  gtk_widget_class_bind_template_child (widget_class, TriagePreferencesWindow, status_row);
  gtk_widget_class_bind_template_child (widget_class, TriagePreferencesWindow, spinner);
  gtk_widget_class_bind_template_child (widget_class, TriagePreferencesWindow, connect_button);
  gtk_widget_class_bind_template_child (widget_class, TriagePreferencesWindow, notifications_switch);
  gtk_widget_class_bind_template_child (widget_class, TriagePreferencesWindow, dnd_switch);
  gtk_widget_class_bind_template_child (widget_class, TriagePreferencesWindow, background_switch);
  gtk_widget_class_bind_template_child (widget_class, TriagePreferencesWindow, autostart_row);
  gtk_widget_class_bind_template_child (widget_class, TriagePreferencesWindow, autostart_switch);
  gtk_widget_class_bind_template_callback (widget_class, on_connect_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_url_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_token_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_mode_toggled);
}

static void
triage_preferences_window_init (TriagePreferencesWindow *self)
{
  self->cancellable = g_cancellable_new ();

  gtk_widget_init_template (GTK_WIDGET (self));
}

/**
 * triage_preferences_window_new:
 * @parent: (nullable): the window it belongs to
 * @settings: the app's settings
 * @credentials: where tokens are kept
 *
 * Returns: (transfer full): a new preferences window
 */
TriagePreferencesWindow *
triage_preferences_window_new (GtkWindow         *parent,
                               GSettings         *settings,
                               TriageCredentials *credentials)
{
  g_return_val_if_fail (G_IS_SETTINGS (settings), NULL);
  g_return_val_if_fail (TRIAGE_IS_CREDENTIALS (credentials), NULL);

  return g_object_new (TRIAGE_TYPE_PREFERENCES_WINDOW,
                       "transient-for", parent,
                       "modal", parent != NULL,
                       "settings", settings,
                       "credentials", credentials,
                       NULL);
}

/**
 * triage_preferences_window_set_connection:
 * @self: a #TriagePreferencesWindow
 * @state: the connection's state
 * @problem: why it is not live
 * @message: (nullable): why it is not live, the connection's words
 *
 * Tells the window what became of the connection, once as it opens and at
 * each change. After Connect, its status says, once the connection settles,
 * whether it was made with the token (or why not: the server refused it,
 * say), not only that it was kept; otherwise, what to do about the token
 * stored (none yet, or refused), or that it is kept when the field is left
 * empty.
 */
void
triage_preferences_window_set_connection (TriagePreferencesWindow *self,
                                          TriageConnectionState    state,
                                          TriageConnectionProblem  problem,
                                          const char              *message)
{
  g_autofree char *status = NULL;
  g_autofree char *done = NULL;

  g_return_if_fail (TRIAGE_IS_PREFERENCES_WINDOW (self));

  if (state != TRIAGE_CONNECTION_CONNECTING)
    self->problem = problem;

  /* Nothing awaited: what to do now, unless the status says something else
   * (an address refused, the keyring's failure) the person has yet to read. */
  if (self->connecting == NULL && self->idle_status &&
      state != TRIAGE_CONNECTION_CONNECTING)
    {
      set_idle_status (self);
      return;
    }

  /* Nothing awaited, or not settled yet (a try is on its way). */
  if (self->connecting == NULL ||
      state == TRIAGE_CONNECTION_CONNECTING ||
      (state != TRIAGE_CONNECTION_CONNECTED && (message == NULL || *message == '\0')))
    return;

  /* Refused: final. Not reached: said, and Connected once it is. */
  if (state == TRIAGE_CONNECTION_CONNECTED || state == TRIAGE_CONNECTION_AUTH_FAILED)
    done = g_steal_pointer (&self->connecting);
  else
    done = g_strdup (self->connecting);

  if (state == TRIAGE_CONNECTION_CONNECTED)
    {
      /* Translators: in Preferences once connected; %s is what was done with
       * the token ("Token saved in the keyring") */
      status = g_strdup_printf (_("%s. Connected."), done);
      set_status (self, status, FALSE);
      return;
    }

  /* Translators: in Preferences when the connection failed; the first %s is
   * what was done with the token ("Token saved in the keyring"), the second
   * why it failed ("The server refused the token. …") */
  status = g_strdup_printf (_("%s, but not connected: %s"), done, message);
  /* Refused (sign-in failed): the token is at fault, and a new one goes in its field. */
  if (state == TRIAGE_CONNECTION_AUTH_FAILED)
    set_token_problem (self, status);
  else
    set_status (self, status, TRUE);
}
