/* triage-application-history.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-application"

#include <glib/gi18n.h>

#include "triage-application-private.h"

/*
 * The history opens on a worker after the store, with connections of its
 * own. It may fail (a full disk when it writes its schema the first time, an
 * I/O error): the inbox works without it, the history view says it is
 * unavailable and why, and read marks are kept in memory by the app's one
 * read state. It is tried again: after 5 s, then twice as long each time up
 * to 5 minutes, and at once when a write of the store's succeeds after one
 * failed (space is back). Once open, the marks made meanwhile are stored;
 * a mark it then fails to store is kept and written again likewise
 * (src/app/browse/triage-read-state.c).
 */

#define HISTORY_RETRY_FIRST_S 5
#define HISTORY_RETRY_MAX_S   (5 * 60)

static void open_history (TriageApplication *self);

static gboolean
history_retry_cb (gpointer data)
{
  TriageApplication *self = data;

  self->history_retry_id = 0;
  open_history (self);
  return G_SOURCE_REMOVE;
}

static void
history_opened_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(TriageApplication) self = user_data;
  g_autoptr(GError) error = NULL;

  self->history_opening = FALSE;

  if (!triage_history_db_open_finish (TRIAGE_HISTORY_DB (object), result, &error))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;   /* quitting */

      /* Told in the history view, tried again: a message, not a warning. */
      self->history_retry_s = self->history_retry_s == 0
                              ? HISTORY_RETRY_FIRST_S
                              : MIN (self->history_retry_s * 2, HISTORY_RETRY_MAX_S);
      g_message ("Could not open the decision history (trying again in %u s): %s",
                 self->history_retry_s, error->message);
      g_free (self->history_problem);
      self->history_problem = g_strdup (error->message);
      if (self->window != NULL)
        triage_window_set_history_problem (self->window, self->history_problem);
      self->history_retry_id = g_timeout_add_seconds (self->history_retry_s, history_retry_cb, self);
      return;
    }

  self->history_retry_s = 0;
  g_clear_pointer (&self->history_problem, g_free);
  triage_read_state_set_db (self->read_state, self->history_db);
  if (self->window != NULL)
    {
      triage_window_set_history_db (self->window, self->history_db);
      triage_window_set_history_problem (self->window, NULL);
    }
}

static void
open_history (TriageApplication *self)
{
  if (self->history_opening || triage_history_db_is_open (self->history_db))
    return;

  g_clear_handle_id (&self->history_retry_id, g_source_remove);
  self->history_opening = TRUE;
  triage_history_db_open_async (self->history_db, self->cancellable, history_opened_cb,
                                g_object_ref (self));
}

/* The store is open: the history reads the same file. */
void
_triage_application_open_history (TriageApplication *self)
{
  g_return_if_fail (self->history_db == NULL);

  self->history_db = triage_history_db_new (triage_store_get_path (self->store));
  open_history (self);
}

/* A write of the store's succeeded after one failed: a history waiting to be
 * tried again is tried now, and so are the read marks it could not store. */
void
_triage_application_retry_history (TriageApplication *self)
{
  if (self->history_db != NULL && self->history_retry_id != 0)
    open_history (self);
  triage_read_state_retry (self->read_state);
}

/* What a new window is given: the read marks, the history once open, or why not. */
void
_triage_application_show_history (TriageApplication *self,
                                  TriageWindow      *window)
{
  triage_window_set_read_state (window, self->read_state);
  if (self->history_db != NULL && triage_history_db_is_open (self->history_db))
    triage_window_set_history_db (window, self->history_db);
  triage_window_set_history_problem (window, self->history_problem);
}
