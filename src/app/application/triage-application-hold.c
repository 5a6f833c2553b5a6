/* triage-application-hold.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-application"

#include <glib/gi18n.h>

#include "triage-application-private.h"

/*
 * Holding: alive in the background while there is a connection to keep,
 * and while a problem only the person can fix waits for them to see it.
 */

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

/* A problem only the person can fix came up while no window shows it: a
 * bubble says so (clicking it opens the window, which says what to do),
 * and the app stays until they have seen it. */
void
_triage_application_tell_person (TriageApplication *self)
{
  const char *message = triage_connection_get_message (self->connection);
  g_autoptr(GString) why = NULL;
  g_autofree char *body = NULL;

  if (self->window != NULL || self->awaiting_person || !needs_person (self) ||
      !g_settings_get_boolean (self->settings, "run-in-background"))
    return;

  self->awaiting_person = TRUE;
  if (self->notifier == NULL || !self->bubbles_enabled)
    return;

  /* A sentence from the network or the keyring may not end. */
  why = g_string_new (message != NULL ? message : _("The server settings are not complete."));
  if (why->len > 0 && g_ascii_isalnum (why->str[why->len - 1]))
    g_string_append_c (why, '.');
  /* Translators: the body of a bubble; %s says why the app cannot connect */
  body = g_strdup_printf (_("%s Open Triage to see what to do."), why->str);
  triage_notifier_show_notice (self->notifier, "connection",
                               _("Triage cannot receive requests"), body);
}
