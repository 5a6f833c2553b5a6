/* test-dnd.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "test-dnd"

#include "atp.h"
#include "triage-dnd.h"

/* The request arrived at 10:00 UTC; "now" is 10:00 unless a test says otherwise. */
#define TIMESTAMP "2026-03-01T10:00:00Z"

static AtpNotification *
make_notification (const char *status,
                   const char *deadline,
                   const char *flags)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *deadline_member = NULL;
  g_autofree char *json = NULL;
  AtpNotification *notification;

  if (deadline != NULL)
    deadline_member = g_strdup_printf ("\"deadline\": \"%s\",", deadline);

  json = g_strdup_printf ("{"
                          "\"id\": \"7f1c3a52-8d1e-4c3b-9a2f-1d2e3f4a5b6c\","
                          "\"version\": \"1.0\","
                          "\"timestamp\": \"" TIMESTAMP "\","
                          "%s"
                          "\"service\": {\"id\": \"ci\", \"name\": \"CI bot\"},"
                          "\"context\": {\"title\": \"Retry the job?\", \"description\": \"It failed.\"},"
                          "\"actions\": ["
                          "  {\"id\": \"ok\", \"label\": \"OK\", \"response_type\": \"simple\"},"
                          "  {\"id\": \"retry\", \"label\": \"Retry\", \"response_type\": \"simple\","
                          "   \"flags\": [%s]}"
                          "],"
                          "\"status\": \"%s\""
                          "}",
                          deadline_member ? deadline_member : "",
                          flags ? flags : "",
                          status);

  notification = atp_notification_new_from_data (json, -1, ATP_PARSE_DEFAULT, &error);
  g_assert_no_error (error);
  g_assert_nonnull (notification);

  return notification;
}

static GDateTime *
at (const char *time)
{
  GDateTime *dt = g_date_time_new_from_iso8601 (time, NULL);

  g_assert_nonnull (dt);
  return dt;
}

static void
test_no_dnd_shows_pending (void)
{
  g_autoptr(AtpNotification) plain = make_notification ("delivered", NULL, NULL);
  g_autoptr(AtpNotification) later = make_notification ("created", "2026-03-01T11:00:00Z", NULL);
  g_autoptr(GDateTime) now = at (TIMESTAMP);

  g_assert_true (triage_should_show_bubble (plain, FALSE, now));
  g_assert_true (triage_should_show_bubble (later, FALSE, now));
}

static void
test_dnd_silences_ordinary (void)
{
  g_autoptr(AtpNotification) plain = make_notification ("delivered", NULL, NULL);
  g_autoptr(AtpNotification) later = make_notification ("acknowledged", "2026-03-01T10:06:00Z",
                                                        "\"destructive\", \"costly\"");
  g_autoptr(GDateTime) now = at (TIMESTAMP);

  g_assert_false (triage_should_show_bubble (plain, TRUE, now));
  g_assert_false (triage_should_show_bubble (later, TRUE, now));
}

static void
test_dnd_time_sensitive_breaks_through (void)
{
  g_autoptr(AtpNotification) urgent = make_notification ("delivered", NULL, "\"time_sensitive\"");
  g_autoptr(AtpNotification) lookalike = make_notification ("delivered", NULL,
                                                            "\"time-sensitive\", \"urgent\"");
  g_autoptr(GDateTime) now = at (TIMESTAMP);

  g_assert_true (triage_should_show_bubble (urgent, TRUE, now));
  /* Unknown flags are kept and shown, but only the real flag breaks through. */
  g_assert_false (triage_should_show_bubble (lookalike, TRUE, now));
}

static void
test_dnd_deadline_window (void)
{
  g_autoptr(AtpNotification) soon = make_notification ("delivered", "2026-03-01T10:04:59Z", NULL);
  g_autoptr(AtpNotification) edge = make_notification ("delivered", "2026-03-01T10:05:00Z", NULL);
  g_autoptr(AtpNotification) later = make_notification ("delivered", "2026-03-01T10:05:01Z", NULL);
  g_autoptr(GDateTime) now = at (TIMESTAMP);
  g_autoptr(GDateTime) ten_past = at ("2026-03-01T10:10:00Z");
  g_autoptr(AtpNotification) hour = make_notification ("delivered", "2026-03-01T11:00:00Z", NULL);
  g_autoptr(GDateTime) ten_to_eleven = at ("2026-03-01T10:56:00+00:00");

  g_assert_true (triage_should_show_bubble (soon, TRUE, now));
  g_assert_true (triage_should_show_bubble (edge, TRUE, now));
  g_assert_false (triage_should_show_bubble (later, TRUE, now));

  /* The same request breaks through once its deadline comes close. */
  g_assert_false (triage_should_show_bubble (hour, TRUE, ten_past));
  g_assert_true (triage_should_show_bubble (hour, TRUE, ten_to_eleven));
}

static void
test_deadline_in_other_zone (void)
{
  /* 11:03 in UTC+1 is 10:03 UTC: three minutes away. */
  g_autoptr(AtpNotification) soon = make_notification ("delivered", "2026-03-01T11:03:00+01:00", NULL);
  g_autoptr(GDateTime) now = at (TIMESTAMP);

  g_assert_true (triage_should_show_bubble (soon, TRUE, now));
}

static void
test_past_deadline_never (void)
{
  g_autoptr(AtpNotification) passed = make_notification ("delivered", "2026-03-01T10:01:00Z",
                                                         "\"time_sensitive\"");
  g_autoptr(GDateTime) after = at ("2026-03-01T10:01:00Z");
  g_autoptr(GDateTime) long_after = at ("2026-03-02T10:00:00Z");

  g_assert_false (triage_should_show_bubble (passed, FALSE, after));
  g_assert_false (triage_should_show_bubble (passed, TRUE, after));
  g_assert_false (triage_should_show_bubble (passed, FALSE, long_after));
}

static void
test_terminal_never (void)
{
  const char *terminal[] = { "responded", "expired", "invalidated" };
  g_autoptr(GDateTime) now = at (TIMESTAMP);

  for (guint i = 0; i < G_N_ELEMENTS (terminal); i++)
    {
      g_autoptr(AtpNotification) done = make_notification (terminal[i], NULL, "\"time_sensitive\"");

      g_assert_false (triage_should_show_bubble (done, FALSE, now));
      g_assert_false (triage_should_show_bubble (done, TRUE, now));
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/tray/dnd/no-dnd-shows-pending", test_no_dnd_shows_pending);
  g_test_add_func ("/tray/dnd/silences-ordinary", test_dnd_silences_ordinary);
  g_test_add_func ("/tray/dnd/time-sensitive-breaks-through", test_dnd_time_sensitive_breaks_through);
  g_test_add_func ("/tray/dnd/deadline-window", test_dnd_deadline_window);
  g_test_add_func ("/tray/dnd/deadline-in-other-zone", test_deadline_in_other_zone);
  g_test_add_func ("/tray/dnd/past-deadline-never", test_past_deadline_never);
  g_test_add_func ("/tray/dnd/terminal-never", test_terminal_never);

  return g_test_run ();
}
