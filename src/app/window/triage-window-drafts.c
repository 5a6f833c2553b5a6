/* triage-window-drafts.c — drafts that cannot be written, told in the window
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-window"

#include <glib/gi18n.h>

#include "triage-window-private.h"

/*
 * A view's draft (TriageDraftKeeper) that cannot be written, in the inbox
 * or the history (each stack's ::draft-written): the person would believe
 * what they entered is kept over a quit or a crash. One toast says it until
 * a draft is written again, as the app tells its database's other write
 * failures once until one succeeds (triage-application-requests.c).
 */

/* libadwaita 1.2 frees a toast dismissed while it still slides in, and
 * then touches it when the slide ends (fixed in 1.3): the toast is
 * dismissed only once its slide (at most 500 ms) is over, by the frame
 * clock the slide runs on. */
#define TOAST_SLIDE_US (600 * G_TIME_SPAN_MILLISECOND)

static gboolean
dismiss_draft_toast_tick (GtkWidget     *overlay,
                          GdkFrameClock *clock,
                          gpointer       data)
{
  TriageWindow *self = data;

  if (gdk_frame_clock_get_frame_time (clock) < self->draft_toast_shown_at + TOAST_SLIDE_US)
    return G_SOURCE_CONTINUE;

  self->draft_toast_tick = 0;
  if (self->draft_toast != NULL)
    adw_toast_dismiss (self->draft_toast);
  return G_SOURCE_REMOVE;
}

/* The window goes: the tick callback must not outlive it. */
void
_triage_window_stop_draft_toast (TriageWindow *self)
{
  if (self->draft_toast_tick != 0 && self->toast_overlay != NULL)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self->toast_overlay), self->draft_toast_tick);
  self->draft_toast_tick = 0;
  g_clear_weak_pointer (&self->draft_toast);
}

/* A view's draft was written (@error %NULL), or could not be (a full disk,
 * a database read-only or locked). The toast stays until a draft is written
 * again or the person closes it; either way it is said again only after a
 * write has succeeded. */
void
_triage_window_on_draft_written (TriageWindow *self,
                                 const GError *error)
{
  g_autofree char *text = NULL;

  /* A draft written as the window closed: no one left to tell. */
  if (self->toast_overlay == NULL)
    return;

  if (error == NULL)
    {
      self->draft_failure_told = FALSE;
      if (self->draft_toast != NULL && self->draft_toast_tick == 0)
        self->draft_toast_tick = gtk_widget_add_tick_callback (GTK_WIDGET (self->toast_overlay),
                                                               dismiss_draft_toast_tick, self, NULL);
      return;
    }
  if (self->draft_failure_told)
    return;

  self->draft_failure_told = TRUE;
  /* Failing again before the toast went: it stays, and says it still. */
  if (self->draft_toast_tick != 0)
    {
      gtk_widget_remove_tick_callback (GTK_WIDGET (self->toast_overlay), self->draft_toast_tick);
      self->draft_toast_tick = 0;
    }
  if (self->draft_toast != NULL)
    return;

  /* Translators: %s is the database's reason, e.g. "database or disk is full" */
  text = g_strdup_printf (_("Drafts are not being saved: what you enter is kept only until "
                            "Triage quits (is the disk full?): %s"), error->message);
  g_set_weak_pointer (&self->draft_toast, _triage_window_show_toast (self, text, 0));
  self->draft_toast_shown_at = g_get_monotonic_time ();
}
