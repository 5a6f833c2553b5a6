/* bench-wait.h — the app's in-process benchmarks wait for frames and for an idle main loop
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Shared by bench-preview.c and bench-choices.c.
 */

#pragma once

#include <gtk/gtk.h>

static inline gboolean
bench_wait_set_flag (gpointer user_data)
{
  *(gboolean *) user_data = TRUE;
  return G_SOURCE_REMOVE;
}

/* Until every source of a higher priority than G_PRIORITY_LOW has run. */
static inline void
bench_wait_idle (void)
{
  gboolean idle = FALSE;

  g_idle_add_full (G_PRIORITY_LOW, bench_wait_set_flag, &idle, NULL);
  while (!idle)
    g_main_context_iteration (NULL, TRUE);
}

static inline void
bench_wait_ms (guint ms)
{
  gboolean done = FALSE;

  g_timeout_add (ms, bench_wait_set_flag, &done);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
}

static inline gboolean
bench_wait_count_frame (GtkWidget     *widget,
                        GdkFrameClock *clock,
                        gpointer       user_data)
{
  (*(guint *) user_data)++;
  return G_SOURCE_CONTINUE;
}

/* Until @window has drawn @n more frames. */
static inline void
bench_wait_frames (GtkWidget *window,
                   guint      n)
{
  guint frames = 0;
  guint tick = gtk_widget_add_tick_callback (window, bench_wait_count_frame, &frames, NULL);

  while (frames < n)
    g_main_context_iteration (NULL, TRUE);
  gtk_widget_remove_tick_callback (window, tick);
}
