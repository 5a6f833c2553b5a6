/* triage-application-hold.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-application"

#include <glib/gi18n.h>

#include "triage-application-private.h"
#include "triage-preferences-window.h"

/*
 * Holding: alive in the background while there is a connection to keep,
 * and while a problem only the person can fix waits for them to see it.
 * Telling: such a problem is said where the person looks without a window
 * (the tray icon, a bubble; the window itself when neither can) and in
 * Preferences, and unsaid once it is gone.
 */

#define NOTICE_KEY "connection"

/* Only the person can help: a refused or missing token, a certificate not
 * accepted, an address that is not one; nothing is scheduled. */
static gboolean
needs_person (TriageApplication *self)
{
  TriageConnectionState state = triage_connection_get_state (self->connection);

  return state == TRIAGE_CONNECTION_AUTH_FAILED ||
         (state == TRIAGE_CONNECTION_OFFLINE &&
          triage_connection_get_retry_at (self->connection) == 0);
}

void
_triage_application_update_hold (TriageApplication *self)
{
  gboolean want;

  /* Kept while there is a connection to keep or a retry on its way (an
   * offline network included: the stream comes back by itself); let go when
   * only the person can help (refused token, nothing scheduled), so closing
   * the window then quits — once a window has shown them the problem: one
   * that comes up in the background is told and waited for, never a quiet
   * exit that leaves them thinking requests still arrive. */
  if (self->window != NULL || !needs_person (self))
    self->awaiting_person = FALSE;
  want = g_settings_get_boolean (self->settings, "run-in-background") &&
         (!needs_person (self) || self->awaiting_person);

  if (want && !self->held)
    g_application_hold (G_APPLICATION (self));
  else if (!want && self->held)
    g_application_release (G_APPLICATION (self));

  self->held = want;
}

/* Why requests cannot arrive: the connection's own words, as one sentence
 * or more (one from the network or the keyring may not end). */
static char *
dup_problem_reason (TriageApplication *self)
{
  const char *message = triage_connection_get_message (self->connection);
  g_autoptr(GString) why = NULL;

  why = g_string_new (message != NULL ? message : _("The server settings are not complete."));
  if (why->len > 0 && g_ascii_isalnum (why->str[why->len - 1]))
    g_string_append_c (why, '.');

  return g_string_free (g_steal_pointer (&why), FALSE);
}

/* Preferences (its Connect) says what became of the connection. */
static void
tell_preferences (TriageApplication *self)
{
  /* Every toplevel: Preferences is the application's own window, or
   * transient for the main one. */
  g_autoptr(GList) windows = gtk_window_list_toplevels ();

  for (GList *l = windows; l != NULL; l = l->next)
    if (TRIAGE_IS_PREFERENCES_WINDOW (l->data))
      triage_preferences_window_set_connection (l->data,
                                                triage_connection_get_state (self->connection),
                                                triage_connection_get_problem (self->connection),
                                                triage_connection_get_message (self->connection));
}

/* No bubble can say it (turned off, or none shows) and no tray shows the
 * icon: nothing would, and the app would wait unseen for someone to open
 * it. The window opens, saying what is wrong and what to do. */
static void
tell_in_window (TriageApplication *self)
{
  if (self->tray == NULL || !triage_tray_get_registered (self->tray))
    gtk_window_present (GTK_WINDOW (_triage_application_ensure_window (self)));
}

/* A problem only the person can fix came up: the tray icon says so while it
 * lasts; and while no window shows it, a bubble says so (clicking it opens
 * the window, which says what to do), and the app stays until they have
 * seen it. Once it is gone, the tray and the bubble say so no more. */
void
_triage_application_tell_person (TriageApplication *self)
{
  g_autofree char *why = NULL;
  g_autofree char *body = NULL;

  tell_preferences (self);

  if (!needs_person (self))
    {
      if (self->tray != NULL)
        triage_tray_set_problem (self->tray, NULL, NULL);
      if (self->notifier != NULL)
        triage_notifier_withdraw (self->notifier, TRIAGE_NOTIFIER_NOTICE_PREFIX NOTICE_KEY);
      return;
    }

  why = dup_problem_reason (self);
  if (self->tray != NULL)
    triage_tray_set_problem (self->tray, _("Triage cannot receive requests"), why);

  if (self->window != NULL || self->awaiting_person ||
      !g_settings_get_boolean (self->settings, "run-in-background"))
    return;

  self->awaiting_person = TRUE;
  if (self->notifier == NULL || !self->bubbles_enabled)
    {
      tell_in_window (self);
      return;
    }

  /* Translators: the body of a bubble; %s says why the app cannot connect */
  body = g_strdup_printf (_("%s Open Triage to see what to do."), why);
  triage_notifier_show_notice (self->notifier, NOTICE_KEY,
                               _("Triage cannot receive requests"), body);
}

/* The bubble saying requests cannot arrive did not show (no notification
 * server answers): said in the window instead, unless a tray says it. */
void
_triage_application_on_bubble_failed (TriageApplication *self,
                                      const char        *notification_id)
{
  if (g_strcmp0 (notification_id, TRIAGE_NOTIFIER_NOTICE_PREFIX NOTICE_KEY) == 0 &&
      self->awaiting_person && self->window == NULL && needs_person (self))
    tell_in_window (self);
}
