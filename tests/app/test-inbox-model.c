/* test-inbox-model.c — pending requests as a sorted GListModel
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "app-test-common.h"
#include "triage-inbox-model.h"

#define ID_A "0a6f1e3c-3a1b-4c5d-8e9f-0a1b2c3d4e5f"
#define ID_B "1b6f1e3c-3a1b-4c5d-8e9f-0a1b2c3d4e5f"
#define ID_C "2c6f1e3c-3a1b-4c5d-8e9f-0a1b2c3d4e5f"
#define ID_D "3d6f1e3c-3a1b-4c5d-8e9f-0a1b2c3d4e5f"

typedef struct
{
  guint position;
  guint removed;
  guint added;
  guint count;
} Change;

static void
on_items_changed (GListModel *model,
                  guint       position,
                  guint       removed,
                  guint       added,
                  Change     *change)
{
  change->position = position;
  change->removed = removed;
  change->added = added;
  change->count++;
}

static void
count_notify (guint *count)
{
  (*count)++;
}

static const char *
id_at (TriageInboxModel *model,
       guint             position)
{
  g_autoptr(TriageRequest) request = g_list_model_get_item (G_LIST_MODEL (model), position);
  g_assert_nonnull (request);
  /* The model holds another reference, so the id outlives this one. */
  return triage_request_get_id (request);
}

static void
test_order (void)
{
  g_autoptr(TriageInboxModel) model = triage_inbox_model_new ();
  g_autoptr(AtpNotification) a = app_test_notification (ID_A, 0, 300, NULL);   /* no deadline, oldest */
  g_autoptr(AtpNotification) b = app_test_notification (ID_B, 0, 100, NULL);   /* no deadline, newer */
  g_autoptr(AtpNotification) c = app_test_notification (ID_C, 3600, 10, NULL); /* due in an hour */
  g_autoptr(AtpNotification) d = app_test_notification (ID_D, 60, 5, NULL);    /* due in a minute */
  Change change = { 0 };
  gboolean is_new = FALSE;

  g_signal_connect (model, "items-changed", G_CALLBACK (on_items_changed), &change);

  triage_inbox_model_add (model, b, &is_new);
  g_assert_true (is_new);
  triage_inbox_model_add (model, a, NULL);
  g_assert_cmpuint (change.position, ==, 0);   /* older, same (no) deadline: first */
  triage_inbox_model_add (model, c, NULL);
  g_assert_cmpuint (change.position, ==, 0);   /* a deadline sorts before none */
  triage_inbox_model_add (model, d, NULL);
  g_assert_cmpuint (change.position, ==, 0);
  g_assert_cmpuint (change.count, ==, 4);

  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (model)), ==, 4);
  g_assert_true (g_list_model_get_item_type (G_LIST_MODEL (model)) == TRIAGE_TYPE_REQUEST);
  g_assert_cmpstr (id_at (model, 0), ==, ID_D);
  g_assert_cmpstr (id_at (model, 1), ==, ID_C);
  g_assert_cmpstr (id_at (model, 2), ==, ID_A);
  g_assert_cmpstr (id_at (model, 3), ==, ID_B);
  g_assert_null (g_list_model_get_item (G_LIST_MODEL (model), 4));

  /* d is due within five minutes: urgent. */
  g_assert_cmpuint (triage_inbox_model_count_urgent (model, NULL), ==, 1);
}

static void
test_update_and_remove (void)
{
  g_autoptr(TriageInboxModel) model = triage_inbox_model_new ();
  g_autoptr(AtpNotification) a = app_test_notification (ID_A, 0, 300, NULL);
  g_autoptr(AtpNotification) b = app_test_notification (ID_B, 0, 100, NULL);
  g_autoptr(AtpNotification) a2 = app_test_notification (ID_A, 0, 300, NULL);
  g_autoptr(TriageRequest) removed = NULL;
  TriageRequest *request;
  Change change = { 0 };
  gboolean is_new = TRUE;
  guint position;

  triage_inbox_model_add (model, a, NULL);
  triage_inbox_model_add (model, b, NULL);
  g_signal_connect (model, "items-changed", G_CALLBACK (on_items_changed), &change);

  /* The same request again (a resync): updated in place, not duplicated. */
  request = triage_inbox_model_add (model, a2, &is_new);
  g_assert_false (is_new);
  g_assert_true (triage_request_get_notification (request) == a2);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (model)), ==, 2);
  g_assert_true (triage_inbox_model_lookup (model, ID_A) == request);
  g_assert_true (triage_inbox_model_find (model, ID_A, &position));
  g_assert_cmpuint (position, ==, 0);

  removed = triage_inbox_model_remove (model, ID_A);
  g_assert_true (removed == request);
  g_assert_cmpuint (change.position, ==, 0);
  g_assert_cmpuint (change.removed, ==, 1);
  g_assert_cmpuint (change.added, ==, 0);
  g_assert_null (triage_inbox_model_lookup (model, ID_A));
  g_assert_null (triage_inbox_model_remove (model, ID_A));
  g_assert_false (triage_inbox_model_find (model, ID_A, NULL));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (model)), ==, 1);
}

static void
test_many (void)
{
  g_autoptr(TriageInboxModel) model = triage_inbox_model_new ();
  g_autoptr(GPtrArray) ids = NULL;

  /* Random order in, sorted out; removal keeps the order. */
  for (guint i = 0; i < 200; i++)
    {
      guint n = (i * 7919) % 200;
      g_autofree char *id = g_strdup_printf ("%08x-0000-4000-8000-000000000000", n);
      g_autoptr(AtpNotification) notification = app_test_notification (id, 1000 + n, 10, NULL);

      triage_inbox_model_add (model, notification, NULL);
    }

  for (guint n = 0; n < 200; n += 3)
    {
      g_autofree char *id = g_strdup_printf ("%08x-0000-4000-8000-000000000000", n);
      g_autoptr(TriageRequest) request = triage_inbox_model_remove (model, id);

      g_assert_nonnull (request);
    }

  ids = triage_inbox_model_dup_ids (model);
  g_assert_cmpuint (ids->len, ==, g_list_model_get_n_items (G_LIST_MODEL (model)));
  for (guint i = 1; i < ids->len; i++)
    g_assert_cmpstr (ids->pdata[i - 1], <, ids->pdata[i]);
}

static void
count_cb (guint *count)
{
  (*count)++;
}

static void
test_request_properties (void)
{
  g_autoptr(AtpNotification) a = app_test_notification (ID_A, 120, 10, NULL);
  g_autoptr(TriageRequest) request = triage_request_new (a);
  g_autofree char *title = NULL;
  g_autofree char *subtitle = NULL;
  guint notified = 0;

  g_object_get (request, "title", &title, "subtitle", &subtitle, NULL);
  g_assert_cmpstr (title, ==, "Deploy " ID_A "?");
  g_assert_true (g_str_has_prefix (subtitle, "CI <bot>"));
  g_assert_nonnull (strstr (subtitle, "due"));

  g_signal_connect_swapped (request, "notify::answer-state", G_CALLBACK (count_cb), &notified);

  triage_request_set_answer_state (request, TRIAGE_ANSWER_QUEUED);
  triage_request_set_answer_state (request, TRIAGE_ANSWER_QUEUED);   /* no change, no notify */
  g_assert_cmpuint (notified, ==, 1);
  g_assert_cmpint (triage_request_get_answer_state (request), ==, TRIAGE_ANSWER_QUEUED);

  g_clear_pointer (&subtitle, g_free);
  subtitle = triage_request_dup_subtitle (request);
  g_assert_nonnull (strstr (subtitle, "waiting to be sent"));
  g_assert_true (triage_request_is_urgent (request, NULL));
}

static void
assert_deadline (GDateTime  *now,
                 GTimeSpan   in,
                 const char *expected)
{
  g_autoptr(GDateTime) deadline = g_date_time_add (now, in);
  g_autofree char *text = triage_format_deadline (deadline, now);

  g_assert_cmpstr (text, ==, expected);
}

/* A request due in three days must never read like one due in ten minutes. */
static void
test_deadline_text (void)
{
  g_autoptr(GDateTime) now = g_date_time_new_local (2026, 3, 4, 9, 30, 0);   /* a Wednesday */
  g_autoptr(GDateTime) late = g_date_time_new_local (2026, 12, 31, 23, 0, 0);
  g_autoptr(TriageRequest) request = NULL;
  g_autoptr(AtpNotification) notification = NULL;
  g_autofree char *subtitle = NULL;
  g_autofree char *expected = NULL;

  assert_deadline (now, 10 * G_TIME_SPAN_MINUTE, "due 09:40");
  assert_deadline (now, 14 * G_TIME_SPAN_HOUR, "due 23:30");
  assert_deadline (now, 15 * G_TIME_SPAN_HOUR, "due tomorrow, 00:30");
  assert_deadline (now, 3 * G_TIME_SPAN_DAY + 10 * G_TIME_SPAN_MINUTE, "due Sat 7 Mar, 09:40");
  assert_deadline (now, 30 * G_TIME_SPAN_DAY, "due 3 Apr, 09:30");
  assert_deadline (now, -G_TIME_SPAN_DAY, "due 3 Mar, 09:30");
  assert_deadline (late, 2 * G_TIME_SPAN_HOUR, "due tomorrow, 01:00");
  assert_deadline (late, 10 * G_TIME_SPAN_DAY, "due 10 Jan 2027, 23:00");

  /* The inbox row says the same. */
  notification = app_test_notification (ID_A, 3 * 86400, 10, NULL);
  request = triage_request_new (notification);
  subtitle = triage_request_dup_subtitle (request);
  expected = triage_format_deadline (notification->deadline, NULL);
  g_assert_true (g_str_has_suffix (subtitle, expected));
  g_assert_false (g_str_has_prefix (expected, "due tomorrow"));
  g_assert_nonnull (strchr (expected, ','));
}

/* Held, a burst of changes is told as one, over the range that differs; the
 * model itself is up to date meanwhile. */
static void
test_hold (void)
{
  g_autoptr(TriageInboxModel) model = triage_inbox_model_new ();
  g_autoptr(AtpNotification) a = app_test_notification (ID_A, 0, 300, NULL);   /* no deadline, oldest */
  g_autoptr(AtpNotification) b = app_test_notification (ID_B, 0, 100, NULL);   /* no deadline, newer */
  g_autoptr(AtpNotification) c = app_test_notification (ID_C, 3600, 10, NULL); /* due in an hour */
  g_autoptr(AtpNotification) d = app_test_notification (ID_D, 60, 5, NULL);    /* due in a minute */
  g_autoptr(TriageRequest) removed = NULL;
  Change change = { 0 };
  guint n_notified = 0;

  g_signal_connect (model, "items-changed", G_CALLBACK (on_items_changed), &change);
  g_signal_connect_swapped (model, "notify::n-items", G_CALLBACK (count_notify), &n_notified);

  /* a, b */
  triage_inbox_model_add (model, a, NULL);
  triage_inbox_model_add (model, b, NULL);
  g_assert_cmpuint (change.count, ==, 2);
  g_assert_cmpuint (n_notified, ==, 2);

  triage_inbox_model_hold (model);
  triage_inbox_model_hold (model);
  g_assert_true (triage_inbox_model_is_held (model));
  triage_inbox_model_add (model, c, NULL);
  triage_inbox_model_add (model, d, NULL);
  triage_inbox_model_add (model, d, NULL);
  /* Up to date already: d, c, a, b. */
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (model)), ==, 4);
  g_assert_cmpstr (id_at (model, 0), ==, ID_D);
  g_assert_cmpstr (id_at (model, 2), ==, ID_A);
  triage_inbox_model_release (model);
  g_assert_cmpuint (change.count, ==, 2);
  g_assert_cmpuint (n_notified, ==, 2);

  /* Told once the last hold ends: two added before a and b. */
  triage_inbox_model_release (model);
  g_assert_false (triage_inbox_model_is_held (model));
  g_assert_cmpuint (change.count, ==, 3);
  g_assert_cmpuint (change.position, ==, 0);
  g_assert_cmpuint (change.removed, ==, 0);
  g_assert_cmpuint (change.added, ==, 2);
  g_assert_cmpuint (n_notified, ==, 3);

  /* Nothing changed: nothing told. */
  triage_inbox_model_hold (model);
  triage_inbox_model_release (model);
  g_assert_cmpuint (change.count, ==, 3);

  /* Only the end changed: b removed. */
  triage_inbox_model_hold (model);
  removed = triage_inbox_model_remove (model, ID_B);
  g_assert_nonnull (removed);
  triage_inbox_model_release (model);
  g_assert_cmpuint (change.count, ==, 4);
  g_assert_cmpuint (change.position, ==, 3);
  g_assert_cmpuint (change.removed, ==, 1);
  g_assert_cmpuint (change.added, ==, 0);
  g_assert_cmpuint (n_notified, ==, 4);
}

/* What waits for the person: not a request answered here, still listed
 * while its answer is in the outbox; told as it changes, not while held. */
static void
test_n_waiting (void)
{
  g_autoptr(TriageInboxModel) model = triage_inbox_model_new ();
  g_autoptr(AtpNotification) a = app_test_notification (ID_A, 0, 300, NULL);
  g_autoptr(AtpNotification) b = app_test_notification (ID_B, 60, 100, NULL);
  g_autoptr(TriageRequest) removed = NULL;
  TriageRequest *request_a;
  TriageRequest *request_b;
  guint n_notified = 0;

  g_signal_connect_swapped (model, "notify::n-waiting", G_CALLBACK (count_notify), &n_notified);
  request_a = triage_inbox_model_add (model, a, NULL);
  request_b = triage_inbox_model_add (model, b, NULL);
  g_assert_cmpuint (triage_inbox_model_get_n_waiting (model), ==, 2);
  g_assert_cmpuint (n_notified, ==, 2);
  g_assert_cmpuint (triage_inbox_model_count_urgent (model, NULL), ==, 1);

  /* Answered here, the answer in the outbox: listed, not waiting, not urgent. */
  triage_request_set_answer_state (request_b, TRIAGE_ANSWER_QUEUED);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (model)), ==, 2);
  g_assert_cmpuint (triage_inbox_model_get_n_waiting (model), ==, 1);
  g_assert_cmpuint (n_notified, ==, 3);
  g_assert_cmpuint (triage_inbox_model_count_urgent (model, NULL), ==, 0);

  /* Held: told once released. */
  triage_inbox_model_hold (model);
  triage_request_set_answer_state (request_a, TRIAGE_ANSWER_QUEUED);
  g_assert_cmpuint (n_notified, ==, 3);
  triage_inbox_model_release (model);
  g_assert_cmpuint (triage_inbox_model_get_n_waiting (model), ==, 0);
  g_assert_cmpuint (n_notified, ==, 4);

  /* Its answer refused for good, it waits for another; handed back, too. */
  triage_request_set_answer_state (request_a, TRIAGE_ANSWER_FAILED);
  g_assert_cmpuint (triage_inbox_model_get_n_waiting (model), ==, 1);
  triage_request_set_answer_state (request_a, TRIAGE_ANSWER_NONE);
  g_assert_cmpuint (triage_inbox_model_get_n_waiting (model), ==, 1);

  /* Removed, no longer followed. */
  removed = triage_inbox_model_remove (model, ID_A);
  g_assert_cmpuint (triage_inbox_model_get_n_waiting (model), ==, 0);
  n_notified = 0;
  triage_request_set_answer_state (removed, TRIAGE_ANSWER_QUEUED);
  g_assert_cmpuint (n_notified, ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  /* Deadlines are shown in local time, with English names in the C locale. */
  g_setenv ("TZ", "UTC", TRUE);
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/inbox-model/order", test_order);
  g_test_add_func ("/inbox-model/update-and-remove", test_update_and_remove);
  g_test_add_func ("/inbox-model/many", test_many);
  g_test_add_func ("/inbox-model/hold", test_hold);
  g_test_add_func ("/inbox-model/n-waiting", test_n_waiting);
  g_test_add_func ("/inbox-model/request-properties", test_request_properties);
  g_test_add_func ("/inbox-model/deadline-text", test_deadline_text);

  return g_test_run ();
}
