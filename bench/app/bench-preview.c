/* bench-preview.c — the main loop's worst stall while heavy attachments and a
 * huge request are shown
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * In-process, as the app shows them, one window at a time (the app has
 * one): a request whose title and description are 100 kB each in the
 * decision view, an inbox row, a history row and a bubble's texts, and an
 * AFP review of a 400,000-character line, in new widgets in the window the
 * warm-up showed a short request in, as the app shows a request in its main
 * window, made once (with GTK's GL renderer on a software GL, a new
 * window's GL context alone costs the main thread 60-110 ms); then, that
 * window gone, a preview for each case of tests/app/app-test-stall.h (one
 * 600 kB line without spaces, a 600 kB minified JS line, 100,000 short
 * lines, 1 MB of JSON on one line), each over the views of the app's main
 * window (a TriageWindow made and drawn first, as the app's is at start:
 * triage_window_show_attachment()), closed with win.back as the person goes
 * back. For each it prints the
 * worst lateness of a 10 ms timeout source (what a D-Bus call to the app, a
 * click or a frame would have waited) from the moment it is opened until it
 * is shown, drawn and the main loop idle, plus 0.5 s; and the time until
 * then.
 *
 * Needs a display: bench/app/run.sh --preview runs it under
 * build-aux/run-headless.sh. Exit status 1 when a stall reaches 100 ms.
 */

#include <adwaita.h>
#include <stdio.h>

#include "app-test-stall-window.h"
#include "bench-wait.h"
#include "triage-afp-view.h"
#include "triage-notifier.h"

#define TARGET_STALL_MS 100.0
/* Long enough for what took minutes before. */
#define MAX_WAIT_US     (600 * G_USEC_PER_SEC)

/* The window requests are shown in, made once by the warm-up, as the app's main window is. */
static GtkWidget *main_window;
/* The app's main window, made at the start, in which previews open. */
static TriageWindow *app_window;

/* Three frames of @window drawn, the main loop idle, then half a second. */
static void
wait_drawn (GtkWidget *window)
{
  bench_wait_frames (window, 3);
  bench_wait_idle ();
  bench_wait_ms (500);
}

static gboolean
attachment_shown (TriageAttachmentView *view)
{
  TriageAttachmentKind kind = triage_attachment_view_get_kind (view);

  return kind != TRIAGE_ATTACHMENT_KIND_NONE && kind != TRIAGE_ATTACHMENT_KIND_LOADING;
}

static gboolean
report (const char   *name,
        AppTestStall *probe,
        gint64        start)
{
  double stall = app_test_stall_stop (probe);

  printf ("  %-27s worst stall %9.1f ms (main thread busy %8.1f ms)   shown and idle after %9.1f ms\n",
          name, stall, probe->worst_busy / 1000.0, (g_get_monotonic_time () - start) / 1000.0);
  fflush (stdout);

  return stall < TARGET_STALL_MS;
}

static gboolean
bench_attachment (const AppTestStallCase *c)
{
  g_autoptr(GBytes) data = c->make ();
  AtpAttachment *attachment = app_test_stall_attachment (c, data);
  AppTestStall stall;
  TriageAttachmentView *view;
  gint64 start;
  gboolean ok;
  g_autofree char *name = NULL;
  static gboolean first = TRUE;

  bench_wait_idle ();
  start = g_get_monotonic_time ();
  app_test_stall_start (&stall);

  /* As the app opens a preview: over its main window's views. */
  triage_window_show_attachment (app_window, attachment, "Bench");
  view = triage_window_get_attachment_view (app_window);
  while (!attachment_shown (view) && g_get_monotonic_time () - start < MAX_WAIT_US)
    g_main_context_iteration (NULL, TRUE);
  wait_drawn (GTK_WIDGET (app_window));

  name = g_strdup_printf ("%s%s", c->name, first ? " (first preview)" : "");
  first = FALSE;
  ok = report (name, &stall, start);

  /* Closed as the person closes it: back to the views, the preview gone. */
  g_object_add_weak_pointer (G_OBJECT (view), (gpointer *) &view);
  gtk_widget_activate_action (GTK_WIDGET (app_window), "win.back", NULL);
  while (view != NULL)
    g_main_context_iteration (NULL, TRUE);
  app_test_stall_attachment_free (attachment);
  return ok;
}

static gboolean
bench_request (void)
{
  g_autoptr(AtpNotification) notification = app_test_stall_request ();
  g_autoptr(TriageRequest) request = NULL;
  g_autoptr(TriageHistoryEntry) entry = app_test_stall_history_entry (notification);
  g_autofree char *summary = NULL;
  g_autofree char *body = NULL;
  GtkWidget *inbox_row, *history_row;
  AppTestStall stall;
  gint64 start;

  bench_wait_idle ();
  start = g_get_monotonic_time ();
  app_test_stall_start (&stall);

  /* The bubble's texts, as the notifier makes them. */
  summary = triage_notifier_dup_summary (notification);
  body = triage_notifier_dup_body (notification);

  request = triage_request_new (notification);
  app_test_stall_request_show (main_window, notification, request, entry, &inbox_row, &history_row);
  wait_drawn (main_window);

  return report ("request-100kB", &stall, start);
}

/* An AFP review of a 400,000-character line, in the main window with the
 * keyboard on its heading, as the app shows a request. */
static gboolean
bench_afp (void)
{
  g_autoptr(AtpNotification) notification = app_test_stall_afp_long_line ();
  GtkWidget *view;
  AppTestStall stall;
  gint64 start;

  bench_wait_idle ();
  start = g_get_monotonic_time ();
  app_test_stall_start (&stall);

  view = triage_afp_view_new ();
  gtk_window_set_child (GTK_WINDOW (main_window), view);
  triage_request_view_set_request (TRIAGE_REQUEST_VIEW (view), notification);
  triage_request_view_focus_heading (TRIAGE_REQUEST_VIEW (view));
  wait_drawn (main_window);

  return report ("afp-long-line", &stall, start);
}

static void
warm_up (void)
{
  /* The same request with short texts: what is measured after is their length. */
  g_autoptr(AtpNotification) notification = app_test_stall_request_sized (20, 20, 20, 5);

  app_test_stall_warm_up (notification, wait_drawn, &main_window);
}

/* With case names on the command line, only those run (to profile one). */
static gboolean
wanted (int         argc,
        char       *argv[],
        const char *name)
{
  if (argc < 2)
    return TRUE;
  for (int i = 1; i < argc; i++)
    if (g_str_equal (argv[i], name))
      return TRUE;

  return FALSE;
}

int
main (int   argc,
      char *argv[])
{
  gboolean ok = TRUE;

  gtk_init ();
  adw_init ();

  /* What the app has done long before: fonts, styles, the source view's languages. */
  warm_up ();

  printf ("preview: the main loop's worst stall while each is opened and shown\n");
  /* One window at a time, as the app has one: with GTK's GL renderer on a
   * software GL a second window kept the main thread busy 230-440 ms
   * instead of 40-70 while the request was drawn in the first. */
  if (wanted (argc, argv, "request-100kB"))
    ok = bench_request () && ok;
  if (wanted (argc, argv, "afp-long-line"))
    ok = bench_afp () && ok;
  gtk_window_destroy (GTK_WINDOW (main_window));

  app_window = app_test_stall_app_window (wait_drawn);
  for (guint i = 0; i < G_N_ELEMENTS (app_test_stall_cases); i++)
    if (wanted (argc, argv, app_test_stall_cases[i].name))
      ok = bench_attachment (&app_test_stall_cases[i]) && ok;
  gtk_window_destroy (GTK_WINDOW (app_window));
  printf ("target: every stall < %.0f ms: %s\n", TARGET_STALL_MS, ok ? "met" : "MISSED");

  return ok ? 0 : 1;
}
