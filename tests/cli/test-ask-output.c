/* test-ask-output.c — the built triage-ask against a real triage-server: an
 * answer that cannot be written on standard output is said, and the exit
 * status is not the one a script takes for "here is the answer"
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "ask-test-util.h"
#include "triage-ask.h"

#define DECISION \
  "{\"$schema\": \"https://aitp.dev/v1/decisions/schema.json\", \"request_decision\": " \
  "{\"id\": \"out-1\", \"title\": \"Which port?\", \"options\": [{\"id\": \"80\"}, " \
  "{\"id\": \"443\"}]}}"

static void
output_setup (Fixture       *fixture,
              gconstpointer  data)
{
  fixture_setup (fixture, data);
  atp_client_set_protocols (fixture->person, (1u << ATP_PROTOCOL_ATP) | (1u << ATP_PROTOCOL_AITP));
}

/* A full disk (`> answer.json` on it): the answer was lost and it exited 0. */
static void
test_full (Fixture       *fixture,
           gconstpointer  data)
{
  const char * const args[] = { "--title", "Open the port?", "--action", "open", NULL };
  g_autoptr(Run) run = ask_start_full (fixture, NULL, args, NULL, NULL, ASK_STDOUT_FULL);
  g_autoptr(AtpNotification) request = person_wait_for (fixture, "Open the port?");

  person_answers (fixture, request->id, "open", NULL);
  g_assert_cmpint (ask_finish (run), ==, TRIAGE_ASK_EXIT_SERVER);
  g_assert_cmpstr (run->err, ==, "triage-ask: cannot write the answer on standard output: "
                                 "No space left on device\n");
}

/* --no-wait's id is the answer too: a script cannot follow a request it has no id of. */
static void
test_full_no_wait (Fixture       *fixture,
                   gconstpointer  data)
{
  const char * const args[] = { "--title", "Open the port?", "--action", "open", "--no-wait",
                                NULL };
  g_autoptr(Run) run = ask_start_full (fixture, NULL, args, NULL, NULL, ASK_STDOUT_FULL);

  g_assert_cmpint (ask_finish (run), ==, TRIAGE_ASK_EXIT_SERVER);
  g_assert_cmpstr (run->err, ==, "triage-ask: cannot write the answer on standard output: "
                                 "No space left on device\n");
}

/* Standard output closed (`>&-`): its descriptor was the next one opened, GLib's
 * wakeup eventfd, and the decision was written into that (refused), exit 0. */
static void
test_closed (Fixture       *fixture,
             gconstpointer  data)
{
  const char * const args[] = { "--aitp", NULL };
  g_autoptr(Run) run = ask_start_full (fixture, NULL, args, DECISION, NULL, ASK_STDOUT_CLOSED);
  g_autoptr(AtpNotification) request = person_wait_for (fixture, "Which port?");

  person_answers (fixture, request->id, "decision", "{\"options\":[{\"id\":\"443\"}]}");
  g_assert_cmpint (ask_finish (run), ==, TRIAGE_ASK_EXIT_SERVER);
  g_assert_cmpstr (run->err, ==, "triage-ask: cannot write the answer on standard output: "
                                 "Bad file descriptor\n");
}

/* With --quiet nothing is to be written: a closed standard output is fine. */
static void
test_closed_quiet (Fixture       *fixture,
                   gconstpointer  data)
{
  const char * const args[] = { "--aitp", "--quiet", NULL };
  g_autoptr(Run) run = ask_start_full (fixture, NULL, args, DECISION, NULL, ASK_STDOUT_CLOSED);
  g_autoptr(AtpNotification) request = person_wait_for (fixture, "Which port?");

  person_answers (fixture, request->id, "decision", "{\"options\":[{\"id\":\"80\"}]}");
  g_assert_cmpint (ask_finish (run), ==, TRIAGE_ASK_EXIT_ANSWERED);
  g_assert_cmpstr (run->err, ==, "");
}

/* The agent that ran it stopped reading (it quit, or a pipeline's next command
 * exited): it waited on, the person answered for nobody, and the answer's
 * write killed it (SIGPIPE). Now the request is withdrawn at once. */
static void
test_reader_gone (Fixture       *fixture,
                  gconstpointer  data)
{
  const struct { const char *args[4]; const char *input; const char *said; } runs[] = {
    { { "--aitp", NULL }, DECISION, "the request was withdrawn" },
    { { "--title", "Open the port?", "--action", "open" }, NULL, "the request was withdrawn" },
    { { "--afp", "--title", "Open the port?" }, "{\"protocol_version\": \"1.2\", \"iteration\": 1, "
      "\"artifact\": {\"media_type\": \"text/plain\", \"content\": \"open 443\"}}",
      "the review was withdrawn" },
  };

  atp_client_set_protocols (fixture->person, (1u << ATP_PROTOCOL_ATP) | (1u << ATP_PROTOCOL_AITP) |
                                             (1u << ATP_PROTOCOL_AFP));
  for (guint i = 0; i < G_N_ELEMENTS (runs); i++)
    {
      g_autoptr(Run) run = ask_start_full (fixture, NULL, runs[i].args, runs[i].input, NULL,
                                           ASK_STDOUT_UNREAD);
      const char *title = i == 0 ? "Which port?" : "Open the port?";
      g_autoptr(AtpNotification) request = person_wait_for (fixture, title);
      g_autofree char *said = g_strdup_printf ("triage-ask: nobody reads standard output any "
                                               "more: %s\n", runs[i].said);
      g_autoptr(GAsyncResult) result = NULL;
      g_autoptr(AtpNotification) now = NULL;
      g_autoptr(GError) error = NULL;

      ask_stop_reading (run);
      g_assert_cmpint (ask_finish (run), ==, 128 + SIGPIPE);
      g_assert_cmpstr (run->err, ==, said);
      atp_client_get_notification_async (fixture->person, request->id, NULL, result_cb, &result);
      wait_until (result != NULL, "the request");
      now = atp_client_get_notification_finish (fixture->person, result, &error);
      g_assert_no_error (error);
      g_assert_cmpint (now->status, ==, ATP_STATUS_INVALIDATED);
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) g_test_add (path, Fixture, NULL, output_setup, func, fixture_teardown)
  ADD ("/ask/output/full", test_full);
  ADD ("/ask/output/full-no-wait", test_full_no_wait);
  ADD ("/ask/output/closed", test_closed);
  ADD ("/ask/output/closed-quiet", test_closed_quiet);
  ADD ("/ask/output/reader-gone", test_reader_gone);
#undef ADD

  return g_test_run ();
}
