/* widgets-test-util.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "widgets-test"

#include "widgets-test-util.h"

gboolean
widgets_test_watchdog_cb (gpointer data)
{
  g_error ("Timed out waiting for %s", (const char *) data);
  return G_SOURCE_REMOVE;
}

gboolean
widgets_test_tick_cb (gpointer data)
{
  return G_SOURCE_CONTINUE;
}

void
widgets_test_init (int    *argc,
                   char ***argv)
{
  /* The in-process accessibility backend, so the tests can read roles,
   * names and relations (test_env says "none": no AT-SPI bus). */
  g_setenv ("GTK_A11Y", "test", TRUE);
  gtk_test_init (argc, argv, NULL);
  adw_init ();
}

/* Runs what is pending (layout, idles), without blocking. */
void
widgets_test_pump (void)
{
  for (int i = 0; i < 3; i++)
    while (g_main_context_iteration (NULL, FALSE))
      ;
}

static gboolean
set_flag_cb (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

void
widgets_test_wait_ms (guint msec)
{
  gboolean done = FALSE;

  g_timeout_add (msec, set_flag_cb, &done);
  WAIT_UNTIL (done);
}

AtpNotification *
widgets_test_notification_with_id (const char *id,
                                   const char *actions_json,
                                   const char *context_json,
                                   double      deadline_in)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autoptr(GDateTime) sent = g_date_time_add_hours (now, -1);
  g_autofree char *sent_text = atp_format_timestamp (sent);
  g_autofree char *deadline_member = NULL;
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  AtpNotification *notification;

  if (deadline_in != 0)
    {
      g_autoptr(GDateTime) deadline = g_date_time_add_seconds (now, deadline_in);
      g_autofree char *deadline_text = atp_format_timestamp (deadline);

      deadline_member = g_strdup_printf ("\"deadline\": \"%s\",", deadline_text);
    }

  text = g_strdup_printf ("{\"id\": \"%s\", \"version\": \"1.0\", \"timestamp\": \"%s\", %s"
                          "\"service\": {\"id\": \"deploy-bot\", \"name\": \"Deploy Bot\"},"
                          "\"context\": %s, \"actions\": %s}",
                          id, sent_text, deadline_member ? deadline_member : "",
                          context_json ? context_json
                                       : "{\"title\": \"Deploy?\", \"description\": \"Version 2.1.0 is ready.\"}",
                          actions_json);

  notification = atp_notification_new_from_data (text, -1, ATP_PARSE_DEFAULT, &error);
  g_assert_no_error (error);
  g_assert_nonnull (notification);

  return notification;
}

AtpNotification *
widgets_test_notification (const char *actions_json,
                           const char *context_json,
                           double      deadline_in)
{
  return widgets_test_notification_with_id ("550e8400-e29b-41d4-a716-446655440000",
                                            actions_json, context_json, deadline_in);
}

GtkWidget *
widgets_test_window (GtkWidget *child,
                     int        width,
                     int        height)
{
  GtkWidget *window = gtk_window_new ();

  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  gtk_window_set_child (GTK_WINDOW (window), child);
  gtk_window_present (GTK_WINDOW (window));
  widgets_test_pump ();

  return window;
}

void
widgets_test_window_destroy (GtkWidget *window,
                             gpointer   child_location)
{
  GObject **child = child_location;

  g_object_add_weak_pointer (*child, (gpointer *) child);
  gtk_window_destroy (GTK_WINDOW (window));
  WAIT_UNTIL (*child == NULL);
}

static void
on_window_is_active (GtkWindow  *window,
                     GParamSpec *pspec,
                     gboolean   *activated)
{
  if (gtk_window_is_active (window))
    *activated = TRUE;
}

void
widgets_test_window_activate (GtkWidget *window)
{
  gboolean activated = gtk_window_is_active (GTK_WINDOW (window));
  gulong handler = g_signal_connect (window, "notify::is-active", G_CALLBACK (on_window_is_active),
                                     &activated);

  /* Presented again, a window shown is given the focus: on a display
   * without a window manager, it stays where the last window mapped (by
   * this test or another on the display) took it. Another test's window may
   * take it back at once: its becoming active is waited for, not its being
   * active still. */
  gtk_window_present (GTK_WINDOW (window));
  WAIT_UNTIL (activated);
  g_signal_handler_disconnect (window, handler);
}

GtkWidget *
widgets_test_window_leave (GtkWidget *window)
{
  GdkDisplay *display = gtk_widget_get_display (window);
  GdkMonitor *monitor = g_list_model_get_item (gdk_display_get_monitors (display), 0);
  GtkWidget *other = gtk_window_new ();
  GdkRectangle screen;

  /* As large as the screen, over @window wherever it is. */
  gdk_monitor_get_geometry (monitor, &screen);
  g_object_unref (monitor);
  gtk_window_set_default_size (GTK_WINDOW (other), screen.width, screen.height);
  gtk_window_present (GTK_WINDOW (other));
  WAIT_UNTIL (!gtk_window_is_active (GTK_WINDOW (window)));

  return other;
}

void
widgets_test_window_return (GtkWidget *window,
                            GtkWidget *other)
{
  /* The focus does not come back by itself: chosen again, as a person does. */
  gtk_window_destroy (GTK_WINDOW (other));
  widgets_test_window_activate (window);
}

char *
widgets_test_json (JsonNode *node)
{
  return node ? atp_json_to_string (node, NULL) : g_strdup ("(none)");
}

GtkWidget *
widgets_test_find_descendant (GtkWidget *widget,
                              GType      type)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found;

      if (g_type_is_a (G_OBJECT_TYPE (child), type))
        return child;
      if ((found = widgets_test_find_descendant (child, type)) != NULL)
        return found;
    }

  return NULL;
}

guint
widgets_test_count_descendants (GtkWidget *widget,
                                GType      type)
{
  guint n = 0;

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if (g_type_is_a (G_OBJECT_TYPE (child), type))
        n++;
      n += widgets_test_count_descendants (child, type);
    }

  return n;
}

/* How many characters the longest label in @widget (or @widget itself) holds. */
glong
widgets_test_longest_label (GtkWidget *widget)
{
  glong longest = GTK_IS_LABEL (widget) ? g_utf8_strlen (gtk_label_get_label (GTK_LABEL (widget)), -1) : 0;

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    longest = MAX (longest, widgets_test_longest_label (child));

  return longest;
}

void
widgets_test_submit_record_clear (SubmitRecord *record)
{
  g_clear_pointer (&record->action_id, g_free);
  g_clear_pointer (&record->json, g_free);
  record->count = 0;
}

void
widgets_test_on_view_submit_record (GtkWidget    *view,
                                    const char   *action_id,
                                    JsonNode     *response_data,
                                    SubmitRecord *record)
{
  record->count++;
  g_free (record->action_id);
  record->action_id = g_strdup (action_id);
  g_free (record->json);
  record->json = widgets_test_json (response_data);
}

void
widgets_test_on_editor_submit_record (GtkWidget    *editor,
                                      JsonNode     *response_data,
                                      SubmitRecord *record)
{
  record->count++;
  g_free (record->json);
  record->json = widgets_test_json (response_data);
}

void
widgets_test_view_teardown (GtkWidget        *window,
                            gpointer          view_location,
                            AtpNotification **notification,
                            SubmitRecord     *record)
{
  widgets_test_window_destroy (window, view_location);
  widgets_test_pump ();
  g_clear_pointer (notification, atp_notification_unref);
  widgets_test_submit_record_clear (record);
}
