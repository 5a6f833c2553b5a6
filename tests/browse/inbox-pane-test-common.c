/* inbox-pane-test-common.c — test-inbox-pane's fixture: an inbox pane in a
 * window, on a model the test fills
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "inbox-pane-test-common.h"

static void
on_request_activated (TriageInboxPane *pane,
                      TriageRequest   *request,
                      Fixture         *f)
{
  g_ptr_array_add (f->activated, g_object_ref (request));
}

void
inbox_pane_test_setup (Fixture       *f,
                       gconstpointer  data)
{
  f->model = triage_inbox_model_new ();
  f->now = g_get_real_time ();
  f->activated = g_ptr_array_new_with_free_func (g_object_unref);
  f->pane = TRIAGE_INBOX_PANE (triage_inbox_pane_new ());
  triage_inbox_pane_set_model (f->pane, G_LIST_MODEL (f->model));
  g_signal_connect (f->pane, "request-activated", G_CALLBACK (on_request_activated), f);

  f->window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (f->window), 420, 640);
  gtk_window_set_child (GTK_WINDOW (f->window), GTK_WIDGET (f->pane));
  gtk_window_present (GTK_WINDOW (f->window));
  browse_test_wait_for (gtk_widget_get_mapped (GTK_WIDGET (f->pane)));
}

void
inbox_pane_test_teardown (Fixture       *f,
                          gconstpointer  data)
{
  gtk_window_destroy (GTK_WINDOW (f->window));
  browse_test_pump ();
  g_ptr_array_unref (f->activated);
  g_assert_finalize_object (f->model);
}

/* Adds a request: a deadline @deadline_min minutes from now (0: none),
 * sent @age_min minutes ago. Returns its id (owned by the model). */
const char *
inbox_pane_test_add_request (Fixture    *f,
                             const char *service,
                             const char *project,
                             const char *title,
                             const char *description,
                             int         deadline_min,
                             int         age_min)
{
  gint64 now = f->now;
  g_autofree char *id = g_strdup_printf ("00000000-0000-4000-8000-%012u", f->counter++);
  g_autoptr(AtpNotification) notification = NULL;
  TriageRequest *request;

  notification = browse_test_notification (id, service, project, title, description,
                                           now - (gint64) age_min * G_TIME_SPAN_MINUTE,
                                           deadline_min ? now + (gint64) deadline_min * G_TIME_SPAN_MINUTE : 0);
  request = triage_inbox_model_add (f->model, notification, NULL);

  return triage_request_get_id (request);
}

void
inbox_pane_test_remove_request (Fixture    *f,
                                const char *id)
{
  g_autofree char *copy = g_strdup (id);
  g_autoptr(TriageRequest) removed = triage_inbox_model_remove (f->model, copy);

  g_assert_nonnull (removed);
}

void
inbox_pane_test_settle (Fixture *f)
{
  browse_test_wait_for (!triage_inbox_pane_get_filtering (f->pane));
  browse_test_pump ();
}

guint
inbox_pane_test_n_visible (Fixture *f)
{
  inbox_pane_test_settle (f);
  return g_list_model_get_n_items (triage_inbox_pane_get_visible_model (f->pane));
}

TriageRequest *
inbox_pane_test_visible_at (Fixture *f,
                            guint    position)
{
  GListModel *visible = triage_inbox_pane_get_visible_model (f->pane);
  g_autoptr(TriageRequest) request = g_list_model_get_item (visible, position);

  return request;   /* the model holds it */
}

/* The first @type below @widget (with that label, for labels); list views
 * must be the pane's own (drop-downs have list views in their popovers). */
GtkWidget *
inbox_pane_test_find_widget (GtkWidget *widget,
                             GType      type,
                             const char *label)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type) &&
      (label == NULL || (GTK_IS_LABEL (widget) &&
                         g_strcmp0 (gtk_label_get_label (GTK_LABEL (widget)), label) == 0)) &&
      (type != GTK_TYPE_LIST_VIEW || gtk_widget_has_css_class (widget, "navigation-sidebar")))
    return widget;

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = inbox_pane_test_find_widget (child, type, label);

      if (found != NULL)
        return found;
    }

  return NULL;
}
