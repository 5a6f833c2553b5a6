/* test-decision-outcome.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What became of a request, in the one sentence the settled view's banner,
 * its screen reader text and a replaced bubble share (suite 'unit': no
 * display): the answer of each response type, who gave it and when, what
 * is left out when it is not known.
 */

#define G_LOG_DOMAIN "test-decision-outcome"

#include <locale.h>

#include "triage-atp-protocol.h"
#include "triage-decision-format.h"
#include "triage-decision-outcome.h"
#include "widgets-test-util.h"

static const char seven_types[] =
  "["
  "{\"id\": \"stop\", \"label\": \"Stop\", \"response_type\": \"simple\"},"
  "{\"id\": \"logs\", \"label\": \"Include logs?\", \"response_type\": \"binary\","
  " \"options\": {\"true_label\": \"Yes\", \"false_label\": \"No\"}},"
  "{\"id\": \"env\", \"label\": \"Environment\", \"response_type\": \"choice\","
  " \"options\": [{\"value\": \"prod\", \"label\": \"Production\"}, {\"value\": \"stage\", \"label\": \"Staging\"}]},"
  "{\"id\": \"teams\", \"label\": \"Teams\", \"response_type\": \"multi_choice\","
  " \"options\": [{\"value\": \"eng\", \"label\": \"Engineering\"}, {\"value\": \"sec\", \"label\": \"Security\"}]},"
  "{\"id\": \"why\", \"label\": \"Comment\", \"response_type\": \"text\"},"
  "{\"id\": \"share\", \"label\": \"Rollout\", \"response_type\": \"number\","
  " \"constraints\": {\"min\": 0, \"max\": 100, \"unit\": \"%\"}},"
  "{\"id\": \"sure\", \"label\": \"Confidence\", \"response_type\": \"scale\","
  " \"constraints\": {\"min\": 1, \"max\": 5, \"max_label\": \"Certain\"}}"
  "]";

static GDateTime *
today_at (int hour,
          int minute)
{
  g_autoptr(GTimeZone) utc = g_time_zone_new_utc ();
  g_autoptr(GDateTime) now = g_date_time_new_now (utc);

  return g_date_time_new (utc, g_date_time_get_year (now), g_date_time_get_month (now),
                          g_date_time_get_day_of_month (now), hour, minute, 0);
}

static void
test_answers (void)
{
  g_autoptr(AtpNotification) notification = widgets_test_notification (seven_types, NULL, 0);
  g_autofree char *long_text = g_strnfill (300, 'x');
  g_autofree char *long_json = g_strdup_printf ("\"%s\"", long_text);
  struct { const char *action; const char *json; const char *expected; } cases[] = {
    { "stop", "null", "‘Stop’" },
    { "logs", "true", "‘Include logs?’: Yes" },
    { "env", "\"prod\"", "‘Environment’: Production" },
    { "teams", "[\"sec\", \"eng\"]", "‘Teams’: Security, Engineering" },
    { "why", "\"Looks <b>good</b>\"", "‘Comment’: “Looks <b>good</b>”" },
    { "share", "25", "‘Rollout’: 25 %" },
    { "sure", "5", "‘Confidence’: 5 (Certain)" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(JsonNode) data = atp_json_parse (cases[i].json, -1, 0, NULL);
      g_autofree char *text =
        triage_atp_describe_answer (atp_notification_find_action (notification, cases[i].action), data);

      g_assert_cmpstr (text, ==, cases[i].expected);
    }

  /* A right-to-left label keeps what follows it in the sentence's order:
   * without a mark after it, Pango drew "‘40 :’הסירפ %". */
  {
    g_autoptr(AtpNotification) hebrew =
      widgets_test_notification ("[{\"id\": \"share\", \"label\": \"\u05e4\u05e8\u05d9\u05e1\u05d4\","
                                 " \"response_type\": \"number\", \"constraints\": {\"unit\": \"%\"}}]",
                                 NULL, 0);
    g_autoptr(JsonNode) data = atp_json_parse ("40", -1, 0, NULL);
    g_autofree char *text = triage_atp_describe_answer (atp_notification_find_action (hebrew, "share"), data);

    g_assert_cmpstr (text, ==, "‘\u05e4\u05e8\u05d9\u05e1\u05d4\u200e’: 40 %");
  }

  /* A long text is cut, as the history cuts it. */
  {
    g_autoptr(JsonNode) data = atp_json_parse (long_json, -1, 0, NULL);
    g_autofree char *text = triage_atp_describe_answer (atp_notification_find_action (notification, "why"),
                                                    data);

    g_assert_true (g_str_has_suffix (text, "…”"));
    g_assert_cmpint (g_utf8_strlen (text, -1), <, 150);
  }
}

static void
test_settled (void)
{
  g_autoptr(GDateTime) at = today_at (17, 12);
  struct {
    AtpStatus   status;
    const char *answer;
    const char *responder;
    gboolean    timed;
    const char *expected;
  } cases[] = {
    { ATP_STATUS_RESPONDED, "‘Stop’", "alex", TRUE, "Answered ‘Stop’ by alex on another device at 17:12" },
    { ATP_STATUS_RESPONDED, "‘Stop’", "alex", FALSE, "Answered ‘Stop’ by alex on another device" },
    { ATP_STATUS_RESPONDED, "‘Stop’", NULL, TRUE, "Answered ‘Stop’ on another device at 17:12" },
    { ATP_STATUS_RESPONDED, "‘Stop’", "", FALSE, "Answered ‘Stop’ on another device" },
    { ATP_STATUS_RESPONDED, NULL, NULL, TRUE, "Answered on another device at 17:12" },
    { ATP_STATUS_RESPONDED, NULL, "alex", FALSE, "Answered on another device" },
    { ATP_STATUS_EXPIRED, NULL, NULL, TRUE, "Expired at 17:12" },
    { ATP_STATUS_EXPIRED, NULL, NULL, FALSE, "Expired" },
    { ATP_STATUS_INVALIDATED, NULL, NULL, TRUE, "Withdrawn by E2E Bot at 17:12" },
    { ATP_STATUS_INVALIDATED, NULL, NULL, FALSE, "Withdrawn by E2E Bot" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = triage_format_settled (cases[i].status, "E2E Bot", cases[i].answer,
                                                     cases[i].responder,
                                                     cases[i].timed ? at : NULL);

      g_assert_cmpstr (text, ==, cases[i].expected);
    }
}

static void
test_describe_settled (void)
{
  g_autoptr(AtpNotification) notification = widgets_test_notification (seven_types, NULL, 600);
  g_autoptr(GDateTime) answered = today_at (17, 12);
  g_autoptr(GDateTime) told = today_at (17, 13);
  g_autoptr(JsonNode) share = atp_json_parse ("25", -1, 0, NULL);
  g_autoptr(AtpResponse) response = atp_response_new (notification->id, "share", share, answered,
                                                      "alex", ATP_RESPONDER_HUMAN);
  g_autoptr(AtpResponse) unknown = atp_response_new (notification->id, "gone", NULL, answered,
                                                     "sam", ATP_RESPONDER_AGENT);
  g_autofree char *a = NULL, *b = NULL, *c = NULL, *d = NULL, *e = NULL, *f = NULL;
  g_autofree char *deadline = NULL, *expected = NULL;

  /* The answer, its responder, and the time the status says... */
  a = triage_describe_settled (notification, ATP_STATUS_RESPONDED, told, response);
  g_assert_cmpstr (a, ==, "Answered ‘Rollout’: 25 % by alex on another device at 17:13");
  /* ...or else the time of the answer. */
  b = triage_describe_settled (notification, ATP_STATUS_RESPONDED, NULL, response);
  g_assert_cmpstr (b, ==, "Answered ‘Rollout’: 25 % by alex on another device at 17:12");
  /* Not known yet: no worse than before. */
  c = triage_describe_settled (notification, ATP_STATUS_RESPONDED, told, NULL);
  g_assert_cmpstr (c, ==, "Answered on another device at 17:13");
  /* An action the request does not have is named by its id. */
  d = triage_describe_settled (notification, ATP_STATUS_RESPONDED, told, unknown);
  g_assert_cmpstr (d, ==, "Answered ‘gone’ by sam on another device at 17:13");
  /* Expired: at the deadline when the update did not say. */
  e = triage_describe_settled (notification, ATP_STATUS_EXPIRED, NULL, NULL);
  deadline = triage_format_time (notification->deadline, NULL);
  expected = g_strdup_printf ("Expired at %s", deadline);
  g_assert_cmpstr (e, ==, expected);
  /* A response is only an answer's when the request was answered. */
  f = triage_describe_settled (notification, ATP_STATUS_INVALIDATED, told, response);
  g_assert_cmpstr (f, ==, "Withdrawn by Deploy Bot at 17:13");
}

int
main (int   argc,
      char *argv[])
{
  g_setenv ("TZ", "UTC", TRUE);
  setlocale (LC_ALL, "C.UTF-8");
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/decision-outcome/answers", test_answers);
  g_test_add_func ("/decision-outcome/settled", test_settled);
  g_test_add_func ("/decision-outcome/describe-settled", test_describe_settled);

  return g_test_run ();
}
