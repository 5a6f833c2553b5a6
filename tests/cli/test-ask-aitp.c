/* test-ask-aitp.c — triage-ask --aitp against a real triage-server: each of the
 * seed's examples asked and decided, the decision message on standard output,
 * and every way it can end with its exit status
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "ask-test-util.h"
#include "triage-ask.h"

static char *
load_example (const char *name)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "atp", "data", "aitp", name, NULL);
  g_autoptr(GError) error = NULL;
  char *text = NULL;

  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  return text;
}

/* The person sees decisions too. */
static void
aitp_setup (Fixture       *fixture,
            gconstpointer  data)
{
  fixture_setup_with (fixture, GPOINTER_TO_INT (data));
  atp_client_set_protocols (fixture->person, (1u << ATP_PROTOCOL_ATP) | (1u << ATP_PROTOCOL_AITP));
}

static Run *
aitp_start (Fixture            *fixture,
            const char * const *extra,
            const char         *message)
{
  g_autoptr(GPtrArray) args = g_ptr_array_new ();

  g_ptr_array_add (args, "--aitp");
  for (guint i = 0; extra != NULL && extra[i] != NULL; i++)
    g_ptr_array_add (args, (gpointer) extra[i]);
  g_ptr_array_add (args, NULL);
  return ask_start (fixture, (const char * const *) args->pdata, message);
}

static Run *
aitp_run (Fixture            *fixture,
          const char * const *extra,
          const char         *message)
{
  Run *run = aitp_start (fixture, extra, message);

  ask_finish (run);
  return run;
}

/* How many decisions the person's list holds. */
static guint
decisions_listed (Fixture *fixture)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GPtrArray) pending = NULL;
  g_autoptr(GError) error = NULL;
  guint count = 0;

  atp_client_list_pending_async (fixture->person, NULL, result_cb, &result);
  wait_until (result != NULL, "the pending list");
  pending = atp_client_list_pending_finish (fixture->person, result, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < pending->len; i++)
    count += ((AtpNotification *) pending->pdata[i])->protocol == ATP_PROTOCOL_AITP;
  return count;
}

typedef struct
{
  const char *example;
  const char *title;
  const char *answer;
  const char *output;
} Example;

static const Example examples[] = {
  { "seed-003-radio-request.json", "Select your favorite number:",
    "{\"options\":[{\"id\":\"0\"}]}",
    "{\"$schema\":\"https://aitp.dev/v1/decisions/schema.json\",\"decision\":"
    "{\"request_decision_id\":\"7c42b9d6-107d-4f5f-8f23-f9014c6efdae\","
    "\"options\":[{\"id\":\"0\",\"name\":\"0\"}]}}\n" },
  { "seed-003-confirmation-request.json", "Please confirm",
    "{\"options\":[{\"id\":\"3\"}]}",
    "{\"$schema\":\"https://aitp.dev/v1/decisions/schema.json\",\"decision\":"
    "{\"request_decision_id\":\"27ed3deb-39cb-4968-90dc-9cb456a470f2\","
    "\"options\":[{\"id\":\"3\",\"name\":\"Something else\"}]}}\n" },
  { "seed-003-checkbox-request.json", "Your Favorite Colors",
    "{\"options\":[{\"id\":\"blue\"},{\"id\":\"green\"}]}",
    "{\"$schema\":\"https://aitp.dev/v1/decisions/schema.json\",\"decision\":"
    "{\"request_decision_id\":\"50a53841-09ee-4b57-b5ec-561fe505f532\","
    "\"options\":[{\"id\":\"blue\",\"name\":\"Blue\"},{\"id\":\"green\",\"name\":\"Green\"}]}}\n" },
  { "seed-003-products-request.json", "Recommended Products",
    "{\"options\":[{\"id\":\"product_1\",\"quantity\":3}]}",
    "{\"$schema\":\"https://aitp.dev/v1/decisions/schema.json\",\"decision\":"
    "{\"request_decision_id\":\"bd9b613c-6fa5-4797-ba91-547f0903da9f\","
    "\"options\":[{\"id\":\"product_1\",\"name\":\"JBL Tour One M2\",\"quantity\":3}]}}\n" },
};

static void
test_examples (Fixture       *fixture,
               gconstpointer  data)
{
  for (guint i = 0; i < G_N_ELEMENTS (examples); i++)
    {
      const Example *e = &examples[i];
      g_autofree char *message = load_example (e->example);
      g_autoptr(Run) run = aitp_start (fixture, NULL, message);
      g_autoptr(AtpNotification) request = person_wait_for (fixture, e->title);

      g_test_message ("%s", e->example);
      g_assert_cmpint (request->protocol, ==, ATP_PROTOCOL_AITP);
      person_answers (fixture, request->id, "decision", e->answer);
      g_assert_cmpint (ask_finish (run), ==, TRIAGE_ASK_EXIT_ANSWERED);
      g_assert_cmpstr (run->out, ==, e->output);
    }
}

/* Two runs with the same message (a retry from another process) wait for
 * the one request, and both print its decision. */
static void
test_same_message_twice (Fixture       *fixture,
                         gconstpointer  data)
{
  g_autofree char *message = load_example ("seed-003-radio-request.json");
  g_autoptr(Run) first = aitp_start (fixture, NULL, message);
  g_autoptr(AtpNotification) request = person_wait_for (fixture, "Select your favorite number:");
  g_autoptr(Run) second = aitp_start (fixture, NULL, message);
  g_autofree char *changed = g_strconcat ("{\"x-other\":1,", strchr (message, '{') + 1, NULL);
  g_autoptr(Run) conflict = NULL;

  /* The same id with another message is refused. */
  conflict = aitp_run (fixture, NULL, changed);
  g_assert_cmpint (conflict->status, ==, TRIAGE_ASK_EXIT_SERVER);
  g_assert_nonnull (strstr (conflict->err, "request_decision.id"));

  person_answers (fixture, request->id, "decision", "{\"options\":[{\"id\":\"100\"}]}");
  g_assert_cmpint (ask_finish (first), ==, TRIAGE_ASK_EXIT_ANSWERED);
  g_assert_cmpint (ask_finish (second), ==, TRIAGE_ASK_EXIT_ANSWERED);
  g_assert_cmpstr (first->out, ==, second->out);
  g_assert_nonnull (strstr (first->out, "{\"id\":\"100\",\"name\":\"100\"}"));
  g_assert_cmpuint (decisions_listed (fixture), ==, 0);
}

/* A message the server would refuse is named here, and nothing is sent. */
static void
test_invalid_messages (Fixture       *fixture,
                       gconstpointer  data)
{
  g_autofree char *radio = load_example ("seed-003-radio-request.json");
  g_autofree char *with_deadline = g_strconcat ("{\"x-triage\":{\"deadline\":\"2099-01-01T00:00:00Z\"},",
                                                strchr (radio, '{') + 1, NULL);
  struct
  {
    const char *args[3];
    const char *input;
    const char *needle;
  } cases[] = {
    { { NULL }, "", "invalid decision request on standard input: it is empty" },
    { { NULL }, "{\"$schema\":", "invalid decision request on standard input: Invalid JSON" },
    { { NULL }, "[]", "An AITP message must be a JSON object" },
    { { NULL }, "{\"$schema\":\"https://aitp.dev/v1/decisions/schema.json\",\"request_decision\":"
                "{\"id\":\"a\",\"type\":\"poll\",\"options\":[{\"id\":\"x\"}]}}",
      "request_decision.type: must be one of radio, checkbox, confirmation, products" },
    { { NULL }, "{\"$schema\":\"https://aitp.dev/v1/decisions/schema.json\",\"request_decision\":"
                "{\"id\":\"a\",\"options\":[{\"id\":\"x\",\"five_star_rating\":7}]}}",
      "request_decision.options[0].five_star_rating: must be a number from 0 to 5" },
    { { "--deadline", "1h", NULL }, with_deadline,
      "--deadline: the message's x-triage.deadline sets it already" },
    /* x-triage not an object, with an option to put in it: said as the
     * message's mistake (it printed three GLib criticals first). */
    { { "--deadline", "1h", NULL }, "{\"$schema\":\"https://aitp.dev/v1/decisions/schema.json\","
                                     "\"x-triage\":5,\"request_decision\":{\"id\":\"a\","
                                     "\"options\":[{\"id\":\"x\"}]}}",
      "invalid decision request on standard input: x-triage: must be an object, got 5\n" },
    { { "--project", "kitchen", NULL }, "{\"$schema\":\"https://aitp.dev/v1/decisions/schema.json\","
                                         "\"x-triage\":[],\"request_decision\":{\"id\":\"a\","
                                         "\"options\":[{\"id\":\"x\"}]}}",
      "invalid decision request on standard input: x-triage: must be an object, got an array\n" },
    /* Refused before standard input is read: none is given (it could not be written). */
    { { "--deadline", "yesterday", NULL }, "", "--deadline “yesterday”" },
    { { "--title", "T", NULL }, "", "Unknown option --title" },
    { { "extra", NULL }, "", "unexpected argument “extra”" },
    { { "--afp", NULL }, "", "--aitp and --afp are two ways to ask; use one" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(Run) run = aitp_run (fixture, cases[i].args, cases[i].input);

      g_test_message ("case %u", i);
      g_assert_cmpint (run->status, ==, TRIAGE_ASK_EXIT_USAGE);
      g_assert_cmpstr (run->out, ==, "");
      g_assert_true (g_str_has_prefix (run->err, "triage-ask: "));
      if (strstr (run->err, cases[i].needle) == NULL)
        g_error ("stderr \"%s\" does not contain \"%s\"", run->err, cases[i].needle);
    }
  g_assert_cmpuint (decisions_listed (fixture), ==, 0);
}

/* The server's refusals that need the server: a 422 is a usage error too. */
static void
test_server_refuses (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autofree char *products = load_example ("seed-003-products-request.json");
  g_autofree char *expired = g_strdup (products);
  g_autoptr(Run) run = NULL;
  char *year = strstr (expired, "2050-01-01");

  memcpy (year, "2020", 4);
  run = aitp_run (fixture, NULL, expired);
  g_assert_cmpint (run->status, ==, TRIAGE_ASK_EXIT_USAGE);
  g_assert_nonnull (strstr (run->err, "the quote of every product has expired"));
}

static void
test_expires (Fixture       *fixture,
              gconstpointer  data)
{
  g_autofree char *message = load_example ("seed-003-confirmation-request.json");
  const char *args[] = { "--deadline", "2s", "--project", "kitchen", NULL };
  g_autoptr(Run) run = aitp_start (fixture, args, message);
  g_autoptr(AtpNotification) request = person_wait_for (fixture, "Please confirm");

  g_assert_cmpstr (request->context.project, ==, "kitchen");
  g_assert_nonnull (request->deadline);
  g_assert_cmpint (ask_finish (run), ==, TRIAGE_ASK_EXIT_EXPIRED);
  g_assert_cmpstr (run->out, ==, "");
  g_assert_nonnull (strstr (run->err, "expired"));
}

/* "x-triage": null is no x-triage: --deadline and --project went into the
 * null unseen (three GLib criticals), and the request was sent without them,
 * never to expire. */
static void
test_null_extension (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autofree char *message = load_example ("seed-003-confirmation-request.json");
  g_autofree char *with_null = g_strconcat ("{\"x-triage\":null,", strchr (message, '{') + 1, NULL);
  const char *args[] = { "--deadline", "2s", "--project", "kitchen", NULL };
  g_autoptr(Run) run = aitp_start (fixture, args, with_null);
  g_autoptr(AtpNotification) request = person_wait_for (fixture, "Please confirm");

  g_assert_cmpstr (request->context.project, ==, "kitchen");
  g_assert_nonnull (request->deadline);
  g_assert_cmpint (ask_finish (run), ==, TRIAGE_ASK_EXIT_EXPIRED);
  g_assert_cmpstr (run->err, ==, "triage-ask: the request expired before anyone answered it\n");
}

/* The server is away until after the --deadline, then refuses the passed
 * deadline: nobody could decide in time, an expiry (exit 5), not an invalid
 * message (exit 2). */
static void
test_deadline_passed_while_away (Fixture       *fixture,
                                 gconstpointer  data)
{
  g_autofree char *message = load_example ("seed-003-radio-request.json");
  const char *args[] = { "--deadline", "1s", "--retry-for", "60s", NULL };
  g_autoptr(Run) run = NULL;
  g_autoptr(GError) error = NULL;
  gint64 passed;

  triage_test_server_stop (fixture->server);
  run = aitp_start (fixture, args, message);
  passed = g_get_real_time () + 1500 * 1000;
  while (g_get_real_time () < passed)
    sleep_ms (50);
  g_assert_true (triage_test_server_restart (fixture->server, &error));
  g_assert_no_error (error);
  g_assert_cmpint (ask_finish (run), ==, TRIAGE_ASK_EXIT_EXPIRED);
  g_assert_cmpstr (run->out, ==, "");
  g_assert_nonnull (strstr (run->err, "before the deadline"));
  g_assert_cmpuint (decisions_listed (fixture), ==, 0);
}

/* The service withdraws it (its own PATCH): exit 6. */
static void
test_withdrawn (Fixture       *fixture,
                gconstpointer  data)
{
  g_autofree char *message = load_example ("seed-003-checkbox-request.json");
  const char *args[] = { "--no-wait", NULL };
  g_autoptr(Run) posted = aitp_run (fixture, args, message);
  g_autoptr(JsonObject) created = NULL;
  g_autoptr(Run) run = NULL;
  g_autofree char *path = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(JsonNode) answer = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (posted->status, ==, TRIAGE_ASK_EXIT_ANSWERED);
  created = parse_output (posted->out);
  g_assert_cmpstr (json_object_get_string_member (created, "status"), ==, "pending");
  g_assert_cmpstr (json_object_get_string_member (created, "request_decision_id"), ==,
                   "50a53841-09ee-4b57-b5ec-561fe505f532");

  /* The same message again waits for that request. */
  run = aitp_start (fixture, NULL, message);
  path = g_strconcat ("/api/v1/aitp/decisions/", json_object_get_string_member (created, "id"), NULL);
  atp_client_call_async (fixture->service, "PATCH", path, "{\"status\":\"invalidated\"}", TRUE, 0,
                         NULL, result_cb, &result);
  wait_until (result != NULL, "the withdrawal");
  answer = atp_client_call_finish (fixture->service, result, &error);
  g_assert_no_error (error);
  g_assert_cmpint (ask_finish (run), ==, TRIAGE_ASK_EXIT_INVALIDATED);
  g_assert_cmpstr (run->out, ==, "");
}

/* Interrupted while waiting: the request is withdrawn, then the exit. */
static void
test_interrupted (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autofree char *message = load_example ("seed-003-radio-request.json");
  g_autoptr(Run) run = aitp_start (fixture, NULL, message);
  atp_notification_unref (person_wait_for (fixture, "Select your favorite number:"));
  g_subprocess_send_signal (run->process, SIGINT);
  g_assert_cmpint (ask_finish (run), ==, TRIAGE_ASK_EXIT_INTERRUPTED);
  g_assert_nonnull (strstr (run->err, "interrupted: the request was withdrawn"));
  g_assert_cmpuint (decisions_listed (fixture), ==, 0);
}

static void
test_unreachable (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autofree char *message = load_example ("seed-003-radio-request.json");
  const char *args[] = { "--aitp", "--server", "http://127.0.0.1:9", "--retry-for", "1s", NULL };
  const char *env[] = { "TRIAGE_API_KEY=sk_nothing", NULL };
  g_autoptr(Run) run = ask_start_env (NULL, args, message, env);

  g_assert_cmpint (ask_finish (run), ==, TRIAGE_ASK_EXIT_UNREACHABLE);
  g_assert_cmpstr (run->out, ==, "");
}

/* GLib prints debug lines on standard output when G_MESSAGES_DEBUG is set (GIO's
 * GSocketClient among them): there they would come before the decision, which
 * the caller reads as JSON. */
static void
test_debug_log (Fixture       *fixture,
                gconstpointer  data)
{
  const Example *e = &examples[0];
  g_autofree char *message = load_example (e->example);
  const char *args[] = { "--aitp", NULL };
  const char *env[] = { "G_MESSAGES_DEBUG=all", NULL };
  g_autoptr(Run) run = ask_start_env (fixture, args, message, env);
  g_autoptr(AtpNotification) request = person_wait_for (fixture, e->title);

  person_answers (fixture, request->id, "decision", e->answer);
  g_assert_cmpint (ask_finish (run), ==, TRIAGE_ASK_EXIT_ANSWERED);
  g_assert_cmpstr (run->out, ==, e->output);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, local, func) \
  g_test_add (path, Fixture, GINT_TO_POINTER (local), aitp_setup, func, fixture_teardown)
  ADD ("/ask/aitp/examples", FALSE, test_examples);
  ADD ("/ask/aitp/examples-local", TRUE, test_examples);
  ADD ("/ask/aitp/same-message-twice", FALSE, test_same_message_twice);
  ADD ("/ask/aitp/invalid-messages", FALSE, test_invalid_messages);
  ADD ("/ask/aitp/server-refuses", FALSE, test_server_refuses);
  ADD ("/ask/aitp/expires", FALSE, test_expires);
  ADD ("/ask/aitp/null-extension", FALSE, test_null_extension);
  ADD ("/ask/aitp/deadline-passed-while-away", FALSE, test_deadline_passed_while_away);
  ADD ("/ask/aitp/withdrawn", FALSE, test_withdrawn);
  ADD ("/ask/aitp/interrupted", FALSE, test_interrupted);
  ADD ("/ask/aitp/unreachable", FALSE, test_unreachable);
  ADD ("/ask/aitp/debug-log", FALSE, test_debug_log);
  ADD ("/ask/aitp/debug-log-local", TRUE, test_debug_log);

  return g_test_run ();
}
