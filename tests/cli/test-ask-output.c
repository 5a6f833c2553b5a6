/* test-ask-output.c — the built triage-ask against a real triage-server: what a
 * script reads (standard output, standard error, the exit status) for an answer
 * of each type and for a withdrawal; and an answer that cannot be written on
 * standard output is said, and the exit status is not the one a script takes
 * for "here is the answer"
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

/* What a script reads for an answer of each response type: exit 0, nothing on standard
 * error, and on standard output one line of JSON, the answer as the person gave it. */
static void
test_each_type_output (Fixture       *fixture,
                       gconstpointer  data)
{
  const struct { const char *args[8]; const char *answer; } cases[] = {
    { { "--action", "go", NULL }, "null" },
    { { "--action", "go:binary", NULL }, "false" },
    { { "--action", "go:choice", "--option", "go=eu", "--option", "go=us", NULL }, "\"us\"" },
    { { "--action", "go:multi_choice", "--option", "go=a", "--option", "go=b", NULL },
      "[\"b\",\"a\"]" },
    { { "--action", "go:text", NULL }, "\"Because it is Friday\"" },
    { { "--action", "go:number", NULL }, "2.5" },
    { { "--action", "go:scale", "--constraint", "go.min=1", "--constraint", "go.max=5", NULL },
      "4" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *title = g_strdup_printf ("Type %u", i);
      g_autoptr(GPtrArray) args = g_ptr_array_new ();
      g_autoptr(Run) run = NULL;
      g_autoptr(AtpNotification) request = NULL;
      g_autoptr(JsonObject) output = NULL;
      g_autoptr(JsonNode) want = json_from_string (cases[i].answer, NULL);

      g_ptr_array_add (args, "--title");
      g_ptr_array_add (args, title);
      for (guint a = 0; cases[i].args[a] != NULL; a++)
        g_ptr_array_add (args, (gpointer) cases[i].args[a]);
      g_ptr_array_add (args, NULL);
      run = ask_start (fixture, (const char * const *) args->pdata, NULL);
      request = person_wait_for (fixture, title);
      person_answers (fixture, request->id, "go", cases[i].answer);

      g_assert_cmpint (ask_finish (run), ==, 0);
      g_assert_cmpstr (run->err, ==, "");
      /* One line: its only line break ends it. */
      g_assert_true (strchr (run->out, '\n') == run->out + strlen (run->out) - 1);
      output = parse_output (run->out);
      g_assert_cmpstr (json_object_get_string_member (output, "notification_id"), ==, request->id);
      g_assert_cmpstr (json_object_get_string_member (output, "action_id"), ==, "go");
      if (!atp_json_node_equal (json_object_get_member (output, "response_data"), want))
        g_error ("case %u: response_data in “%s” is not %s", i, run->out, cases[i].answer);
    }
}

/* Withdrawn by the service while it waits: exit 6, nothing on standard output, and on
 * standard error one line that says so, with the service's reason when it gave one
 * (the server keeps it, and the long-poll reads it back), made visible as every
 * message is. It said "the request was withdrawn" whatever the service had said. */
static void
withdrawn_with (Fixture    *fixture,
                const char *title,
                const char *reason,
                const char *said)
{
  const char * const args[] = { "--title", title, "--action", "ok", NULL };
  g_autoptr(Run) run = ask_start (fixture, args, NULL);
  g_autoptr(AtpNotification) request = person_wait_for (fixture, title);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  atp_client_invalidate_async (fixture->service, request->id, reason, NULL, result_cb, &result);
  wait_until (result != NULL, "the invalidation");
  g_assert_true (atp_client_invalidate_finish (fixture->service, result, &error));
  g_assert_no_error (error);

  g_assert_cmpint (ask_finish (run), ==, 6);
  g_assert_cmpstr (run->out, ==, "");
  g_assert_cmpstr (run->err, ==, said);
}

static void
test_withdrawn (Fixture       *fixture,
                  gconstpointer  data)
{
  withdrawn_with (fixture, "Withdrawn", "not needed",
                  "triage-ask: the request was withdrawn before anyone answered it: "
                  "“not needed”\n");
  withdrawn_with (fixture, "Withdrawn without a word", NULL,
                  "triage-ask: the request was withdrawn before anyone answered it\n");
  withdrawn_with (fixture, "Withdrawn loudly", "gone\x1b]0;PWNED\x07 now",
                  "triage-ask: the request was withdrawn before anyone answered it: "
                  "“gone\xef\xbf\xbd]0;PWNED\xef\xbf\xbd now”\n");
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
  ADD ("/ask/output/each-type", test_each_type_output);
  ADD ("/ask/output/withdrawn", test_withdrawn);
  ADD ("/ask/output/full", test_full);
  ADD ("/ask/output/full-no-wait", test_full_no_wait);
  ADD ("/ask/output/closed", test_closed);
  ADD ("/ask/output/closed-quiet", test_closed_quiet);
  ADD ("/ask/output/reader-gone", test_reader_gone);
#undef ADD

  return g_test_run ();
}
