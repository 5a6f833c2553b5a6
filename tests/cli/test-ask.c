/* test-ask.c — the built triage-ask against a real triage-server; the test plays the human
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "ask-test-util.h"
#include "triage-ask.h"

/* Answered */

static void
test_answered (Fixture       *fixture,
               gconstpointer  data)
{
  const char * const args[] = { "--title", "Ship it?", "--description", "Release 2.1",
                                "--action", "ship:simple:irreversible", "--action", "hold", NULL };
  g_autoptr(Run) run = ask_start (fixture, args, NULL);
  g_autoptr(AtpNotification) request = person_wait_for (fixture, "Ship it?");
  g_autoptr(JsonObject) output = NULL;
  const AtpAction *ship = atp_notification_find_action (request, "ship");

  g_assert_cmpstr (request->context.description, ==, "Release 2.1");
  g_assert_nonnull (ship);
  g_assert_cmpstr (ship->label, ==, "Ship");
  g_assert_true (ship->flags & ATP_FLAG_IRREVERSIBLE);
  g_assert_nonnull (atp_notification_find_action (request, "hold"));

  person_answers (fixture, request->id, "ship", NULL);
  g_assert_cmpint (ask_finish (run), ==, 0);

  output = parse_output (run->out);
  g_assert_cmpstr (json_object_get_string_member (output, "notification_id"), ==, request->id);
  g_assert_cmpstr (json_object_get_string_member (output, "action_id"), ==, "ship");
  g_assert_true (json_object_has_member (output, "response_data"));
  g_assert_true (json_node_is_null (json_object_get_member (output, "response_data")));
  g_assert_true (json_object_has_member (output, "responded_at"));
  g_assert_true (json_object_has_member (output, "responder"));
}

static void
test_confirm (Fixture       *fixture,
              gconstpointer  data)
{
  const char * const approve_args[] = { "--confirm", "Deploy 2.1 to production?",
                                        "--flag", "irreversible", NULL };
  const char * const deny_args[] = { "--confirm=Drop the table?", NULL };
  g_autoptr(Run) approve = ask_start (fixture, approve_args, NULL);
  g_autoptr(AtpNotification) request = person_wait_for (fixture, "Deploy 2.1 to production?");
  g_autoptr(Run) deny = NULL;
  g_autoptr(AtpNotification) second = NULL;
  const AtpAction *action = atp_notification_find_action (request, "approve");

  g_assert_nonnull (action);
  g_assert_true (action->flags & ATP_FLAG_IRREVERSIBLE);
  g_assert_nonnull (atp_notification_find_action (request, "deny"));
  g_assert_cmpuint (request->actions->len, ==, 2);

  person_answers (fixture, request->id, "approve", NULL);
  g_assert_cmpint (ask_finish (approve), ==, 0);
  g_assert_cmpstr (approve->out, ==, "");
  g_assert_cmpstr (approve->err, ==, "");

  deny = ask_start (fixture, deny_args, NULL);
  second = person_wait_for (fixture, "Drop the table?");
  person_answers (fixture, second->id, "deny", NULL);
  g_assert_cmpint (ask_finish (deny), ==, 1);
  g_assert_cmpstr (deny->out, ==, "");
  g_assert_cmpstr (deny->err, ==, "");
}

/* Every response type and constraint from the command line */
static void
test_seven_types (Fixture       *fixture,
                  gconstpointer  data)
{
  const char * const args[] = {
    "--title", "All types",
    "--action", "go",
    "--action", "logs:binary", "--option", "logs=true:Include logs", "--option", "logs=false:Skip",
    "--action", "env:choice", "--option", "env=prod:Production", "--option", "env=staging",
    "--action", "regions:multi_choice", "--option", "regions=eu", "--option", "regions=us",
    "--option", "regions=ap", "--constraint", "regions.min_selections=1",
    "--constraint", "regions.max_selections=2",
    "--action", "why:text", "--constraint", "why.min_length=3", "--constraint", "why.max_length=40",
    "--constraint", "why.placeholder=Explain",
    "--action", "budget:number:costly", "--constraint", "budget.min=0.5", "--constraint", "budget.max=100",
    "--constraint", "budget.step=0.5", "--constraint", "budget.unit=EUR",
    "--action", "rating:scale", "--label", "rating=How sure?", "--constraint", "rating.min=1",
    "--constraint", "rating.max=5", "--constraint", "rating.step=1",
    "--constraint", "rating.min_label=Unsure", "--constraint", "rating.max_label=Certain",
    "--project", "apollo", "--metadata", "branch=main", "--metadata", "count:=3",
    "--deadline", "10m",
    NULL
  };
  g_autoptr(Run) run = ask_start (fixture, args, NULL);
  g_autoptr(AtpNotification) request = person_wait_for (fixture, "All types");
  g_autoptr(JsonObject) output = NULL;
  const AtpAction *a;
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  GTimeSpan until;

  g_assert_cmpuint (request->actions->len, ==, 7);
  g_assert_cmpstr (request->context.project, ==, "apollo");
  g_assert_cmpstr (json_object_get_string_member (request->context.metadata, "branch"), ==, "main");
  g_assert_cmpint (json_object_get_int_member (request->context.metadata, "count"), ==, 3);
  g_assert_nonnull (request->deadline);
  until = g_date_time_difference (request->deadline, now);
  g_assert_cmpint (until, >, 8 * G_TIME_SPAN_MINUTE);
  g_assert_cmpint (until, <=, 10 * G_TIME_SPAN_MINUTE);

  a = atp_notification_find_action (request, "go");
  g_assert_cmpint (a->response_type, ==, ATP_RESPONSE_TYPE_SIMPLE);
  a = atp_notification_find_action (request, "logs");
  g_assert_cmpstr (a->true_label, ==, "Include logs");
  g_assert_cmpstr (a->false_label, ==, "Skip");
  a = atp_notification_find_action (request, "env");
  g_assert_cmpuint (a->options->len, ==, 2);
  g_assert_cmpstr (((AtpOption *) a->options->pdata[0])->label, ==, "Production");
  g_assert_cmpstr (((AtpOption *) a->options->pdata[1])->label, ==, "staging");
  a = atp_notification_find_action (request, "regions");
  g_assert_cmpint (a->min_selections, ==, 1);
  g_assert_cmpint (a->max_selections, ==, 2);
  a = atp_notification_find_action (request, "why");
  g_assert_cmpint (a->min_length, ==, 3);
  g_assert_cmpint (a->max_length, ==, 40);
  g_assert_cmpstr (a->placeholder, ==, "Explain");
  a = atp_notification_find_action (request, "budget");
  g_assert_true (a->flags & ATP_FLAG_COSTLY);
  g_assert_cmpfloat (a->min, ==, 0.5);
  g_assert_cmpfloat (a->max, ==, 100);
  g_assert_cmpfloat (a->step, ==, 0.5);
  g_assert_cmpstr (a->unit, ==, "EUR");
  a = atp_notification_find_action (request, "rating");
  g_assert_cmpstr (a->label, ==, "How sure?");
  g_assert_cmpfloat (a->min, ==, 1);
  g_assert_cmpfloat (a->max, ==, 5);
  g_assert_cmpstr (a->min_label, ==, "Unsure");
  g_assert_cmpstr (a->max_label, ==, "Certain");

  person_answers (fixture, request->id, "regions", "[\"us\",\"eu\"]");
  g_assert_cmpint (ask_finish (run), ==, 0);
  output = parse_output (run->out);
  g_assert_cmpstr (json_object_get_string_member (output, "action_id"), ==, "regions");
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (output, "response_data")), ==, 2);
}

static void
test_stdin_json (Fixture       *fixture,
                 gconstpointer  data)
{
  const char *request_json =
    "{\"context\":{\"title\":\"From stdin\",\"description\":\"JSON on standard input\"},"
    "\"actions\":[{\"id\":\"rate\",\"label\":\"Rate\",\"response_type\":\"scale\","
    "\"constraints\":{\"min\":1,\"max\":10}}],\"x-extra\":{\"kept\":true}}";
  const char * const dash[] = { "-", NULL };
  const char * const json_flag[] = { "--json", NULL };
  g_autoptr(Run) run = ask_start (fixture, dash, request_json);
  g_autoptr(AtpNotification) request = person_wait_for (fixture, "From stdin");
  g_autoptr(JsonObject) output = NULL;
  g_autoptr(Run) again = NULL;
  g_autoptr(AtpNotification) second = NULL;
  g_autofree char *second_json = NULL;

  person_answers (fixture, request->id, "rate", "7");
  g_assert_cmpint (ask_finish (run), ==, 0);
  output = parse_output (run->out);
  g_assert_cmpint (json_object_get_int_member (output, "response_data"), ==, 7);

  /* --json, with a caller-chosen id kept */
  second_json = g_strdup ("{\"id\":\"5b1e5a3c-2d5f-4c3e-9a51-0f3e7f4b2a10\","
                          "\"context\":{\"title\":\"Second stdin\",\"description\":\"d\"},"
                          "\"actions\":[{\"id\":\"ok\",\"label\":\"OK\",\"response_type\":\"simple\"}]}");
  again = ask_start (fixture, json_flag, second_json);
  second = person_wait_for (fixture, "Second stdin");
  g_assert_cmpstr (second->id, ==, "5b1e5a3c-2d5f-4c3e-9a51-0f3e7f4b2a10");
  person_answers (fixture, second->id, "ok", NULL);
  g_assert_cmpint (ask_finish (again), ==, 0);
}

static void
test_attachment (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autofree char *dir = g_dir_make_tmp ("triage-ask-attach-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "notes.txt", NULL);
  g_autofree char *big = g_build_filename (dir, "big.bin", NULL);
  const char *contents = "line one\nline two\n";
  const char * const args[] = { "--title", "With a file", "--action", "ok", "--attach", path, NULL };
  const char * const too_big[] = { "--title", "Too big", "--action", "ok", "--attach", big, NULL };
  g_autoptr(Run) run = NULL;
  g_autoptr(Run) refused = NULL;
  g_autoptr(AtpNotification) request = NULL;
  g_autoptr(GBytes) decoded = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *filler = g_malloc0 ((TRIAGE_ASK_MAX_ATTACHMENT_SIZE + 1));
  AtpAttachment *attachment;

  g_assert_true (g_file_set_contents (path, contents, -1, NULL));
  g_assert_true (g_file_set_contents (big, filler, (TRIAGE_ASK_MAX_ATTACHMENT_SIZE + 1), NULL));

  run = ask_start (fixture, args, NULL);
  request = person_wait_for (fixture, "With a file");
  g_assert_cmpuint (request->context.attachments->len, ==, 1);
  attachment = g_ptr_array_index (request->context.attachments, 0);
  g_assert_cmpstr (attachment->type, ==, "text/plain");
  g_assert_cmpstr (attachment->description, ==, "notes.txt");
  decoded = atp_attachment_decode (attachment, &error);
  g_assert_no_error (error);
  g_assert_cmpmem (g_bytes_get_data (decoded, NULL), g_bytes_get_size (decoded), contents, strlen (contents));
  person_answers (fixture, request->id, "ok", NULL);
  g_assert_cmpint (ask_finish (run), ==, 0);

  refused = ask (fixture, too_big, NULL);
  g_assert_cmpint (refused->status, ==, 2);
  g_assert_nonnull (strstr (refused->err, "--attach"));
  g_assert_nonnull (strstr (refused->err, "at most 700 KiB"));

  g_unlink (path);
  g_unlink (big);
  g_rmdir (dir);
}

/* Bad input: exit 2 before anything is sent, the message names the field */
static void
test_bad_input (void)
{
  const struct { const char *args[12]; const char *input; const char *needle; } cases[] = {
    { { "--action", "ok", NULL }, NULL, "--title is required" },
    { { "--title", "T", NULL }, NULL, "at least one --action" },
    { { "--title", "T", "--action", "x:dropdown", NULL }, NULL, "unknown response type “dropdown”" },
    { { "--title", "T", "--action", "x", "--action", "x", NULL }, NULL, "already an action with the id “x”" },
    { { "--title", "T", "--action", "x:text", "--constraint", "x.max_len=3", NULL }, NULL,
      "no constraint “max_len” (it has min_length, max_length, placeholder)" },
    { { "--title", "T", "--action", "x:text", "--constraint", "x.max_length=many", NULL }, NULL,
      "max_length must be a whole number" },
    { { "--title", "T", "--action", "x:text", "--constraint", "y.max_length=3", NULL }, NULL,
      "no --action with the id “y”" },
    { { "--title", "T", "--action", "s:scale", "--constraint", "s.max=5", NULL }, NULL,
      "actions[0] (--action “s”).constraints.min" },
    { { "--title", "T", "--action", "t:text", "--constraint", "t.min_length=5",
        "--constraint", "t.max_length=2", NULL }, NULL, "actions[0] (--action “t”).constraints" },
    { { "--title", "T", "--action", "c:choice", NULL }, NULL, "actions[0] (--action “c”).options" },
    { { "--title", "T", "--action", "b:binary", "--option", "b=maybe:Perhaps", NULL }, NULL,
      "ID=true:LABEL" },
    { { "--title", "T", "--action", "t:text", "--option", "t=a", NULL }, NULL,
      "only binary, choice and multi_choice" },
    { { "--title", "T", "--action", "ok", "--deadline", "soon", NULL }, NULL, "--deadline “soon”" },
    { { "--title", "T", "--action", "ok", "--deadline", "2001-01-01T00:00:00Z", NULL }, NULL,
      "that time has passed" },
    { { "--title", "T", "--action", "ok", "--api-key", "sk_secret", NULL }, NULL, "TRIAGE_API_KEY" },
    { { "--title", "T", "--action", "ok", "--id", "123", NULL }, NULL, "--id “123”: not a UUID v4" },
    { { "--title", "T", "--action", "ok", "--server", "http://example.com", NULL }, NULL,
      "--server: “http://example.com” is not encrypted" },
    { { "--confirm", NULL }, NULL, "--confirm needs a question" },
    { { "--confirm", "Q?", "--action", "x", NULL }, NULL, "--confirm builds its own" },
    { { "--json", "--title", "T", NULL }, "{}", "--json takes the whole request" },
    { { "-", NULL }, "{\"context\": {", "invalid request on standard input" },
    { { "-", NULL }, "", "it is empty" },
    { { "-", NULL }, "{\"context\":{\"title\":\"T\",\"description\":\"d\"},\"actions\":[]}",
      "actions" },
    { { "--title", "T", "--action", "ok", "--metadata", "k:={bad", NULL }, NULL,
      "--metadata “k:={bad”" },
    { { "--title", "T", "--action", "ok", "--attach", "/nonexistent/file", NULL }, NULL,
      "--attach “/nonexistent/file”: not a readable file" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(Run) run = NULL;

      g_test_message ("case %u: %s", i, cases[i].needle);
      run = ask (NULL, cases[i].args, cases[i].input);
      g_assert_cmpint (run->status, ==, 2);
      g_assert_cmpstr (run->out, ==, "");
      if (strstr (run->err, cases[i].needle) == NULL)
        g_error ("case %u: stderr “%s” lacks “%s”", i, run->err, cases[i].needle);
      g_assert_null (strstr (run->err, "sk_secret"));
    }
}

/* Expired, withdrawn, unreachable, refused */

static void
test_expired (Fixture       *fixture,
              gconstpointer  data)
{
  const char * const args[] = { "--title", "Soon gone", "--action", "ok", "--deadline", "1s", NULL };
  g_autoptr(Run) run = ask (fixture, args, NULL);

  g_assert_cmpint (run->status, ==, 5);
  g_assert_cmpstr (run->out, ==, "");
  g_assert_cmpstr (run->err, ==, "triage-ask: the request expired before anyone answered it\n");
}

static void
test_unreachable (void)
{
  const char * const args[] = { "--server", "http://127.0.0.1:1", "--retry-for", "1s",
                                "--title", "Nobody home", "--action", "ok", NULL };
  const char * const env[] = { "TRIAGE_API_KEY=sk_unused", NULL };
  g_autoptr(Run) run = NULL;
  gint64 start = g_get_monotonic_time ();

  run = ask_start_env (NULL, args, NULL, env);
  ask_finish (run);

  g_assert_cmpint (run->status, ==, 3);
  g_assert_nonnull (strstr (run->err, "Cannot reach http://127.0.0.1:1"));
  g_assert_nonnull (strstr (run->err, "Connection refused"));
  g_assert_cmpint (g_get_monotonic_time () - start, <, 10 * G_USEC_PER_SEC);
}

/* A server whose certificate this computer does not trust: a configuration
 * error, said at once with the server and why (exit 4), not retried for the
 * whole --retry-for and then called unreachable (exit 3). */
static void
test_tls_untrusted (void)
{
  const TriageTestServerOptions options = { .tls = TRUE };
  const char * const recipients[] = { "alice", NULL };
  g_autoptr(GError) error = NULL;
  g_autofree char *user_token = NULL;
  g_autofree char *key = NULL;
  g_autofree char *key_env = NULL;
  TriageTestServer *server = triage_test_server_new (&options, &error);
  const char *url;
  g_autoptr(Run) run = NULL;
  gint64 start;

  g_assert_no_error (error);
  url = triage_test_server_get_url (server);
  g_assert_true (g_str_has_prefix (url, "https://"));
  triage_test_server_create_user (server, "alice", &user_token, &error);
  g_assert_no_error (error);
  triage_test_server_create_service (server, "Scripts", recipients, NULL, NULL, &key, NULL, &error);
  g_assert_no_error (error);
  key_env = g_strconcat ("TRIAGE_API_KEY=", key, NULL);

  {
    const char * const args[] = { "--server", url, "--retry-for", "20s",
                                  "--title", "Trusted?", "--action", "ok", NULL };
    const char * const env[] = { key_env, NULL };

    start = g_get_monotonic_time ();
    run = ask_start_env (NULL, args, NULL, env);
    ask_finish (run);
  }

  g_assert_cmpint (run->status, ==, 4);
  g_assert_nonnull (strstr (run->err, url));
  g_assert_nonnull (strstr (run->err, "its issuer is not trusted on this computer"));
  g_assert_cmpint (g_get_monotonic_time () - start, <, 10 * G_USEC_PER_SEC);

  triage_test_server_free (server);
}

static void
test_no_key (void)
{
  const char * const args[] = { "--server", "https://triage.example.com",
                                "--title", "T", "--action", "ok", NULL };
  g_autoptr(Run) run = ask (NULL, args, NULL);

  g_assert_cmpint (run->status, ==, 2);
  g_assert_nonnull (strstr (run->err, "no API key for https://triage.example.com"));
}

static void
test_bad_key (Fixture       *fixture,
              gconstpointer  data)
{
  const char * const args[] = { "--title", "Bad key", "--action", "ok", NULL };
  g_autoptr(Run) run = NULL;

  g_free (fixture->service_key);
  fixture->service_key = g_strdup ("sk_wrong");
  run = ask (fixture, args, NULL);
  g_assert_cmpint (run->status, ==, 4);
  g_assert_null (strstr (run->err, "sk_wrong"));
}

static void
test_no_wait (Fixture       *fixture,
              gconstpointer  data)
{
  const char * const args[] = { "--title", "Fire and forget", "--action", "ok", "--no-wait", NULL };
  g_autoptr(Run) run = ask (fixture, args, NULL);
  g_autoptr(JsonObject) output = NULL;
  g_autoptr(AtpNotification) request = NULL;

  g_assert_cmpint (run->status, ==, 0);
  output = parse_output (run->out);
  request = person_wait_for (fixture, "Fire and forget");
  g_assert_cmpstr (json_object_get_string_member (output, "notification_id"), ==, request->id);
  g_assert_cmpstr (json_object_get_string_member (output, "status"), ==, "created");
}

/* Interrupted (SIGINT), or the terminal it runs in closed (SIGHUP, which used to
 * kill it and leave the request waiting for nobody): the request is taken back */
static void
interrupted_by (Fixture *fixture,
                int      signal_number,
                int      exit_status)
{
  const char * const args[] = { "--title", "Interrupted", "--action", "ok", NULL };
  g_autoptr(Run) run = ask_start (fixture, args, NULL);
  g_autoptr(AtpNotification) request = person_wait_for (fixture, "Interrupted");
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(AtpNotification) after = NULL;
  g_autoptr(GError) error = NULL;

  g_subprocess_send_signal (run->process, signal_number);
  g_assert_cmpint (ask_finish (run), ==, exit_status);

  atp_client_wait_notification_async (fixture->service, request->id, 0, NULL, result_cb, &result);
  wait_until (result != NULL, "the status");
  after = atp_client_wait_notification_finish (fixture->service, result, &error);
  g_assert_no_error (error);
  g_assert_cmpint (after->status, ==, ATP_STATUS_INVALIDATED);
}

static void
test_interrupted (Fixture       *fixture,
                  gconstpointer  data)
{
  interrupted_by (fixture, SIGINT, 130);
}

static void
test_hung_up (Fixture       *fixture,
              gconstpointer  data)
{
  interrupted_by (fixture, SIGHUP, 128 + SIGHUP);
}

/* Started under nohup (SIGHUP ignored before it runs), it was asked to
 * outlive its terminal: it keeps SIGHUP ignored, the terminal closing takes
 * nothing back, and the person's answer still reaches it. */
static void
test_nohup (Fixture       *fixture,
            gconstpointer  data)
{
  const char * const args[] = { "--title", "Under nohup", "--action", "ok", NULL };
  g_autoptr(Run) run = ask_start_wrapped (fixture, "nohup", args, NULL, NULL);
  g_autoptr(AtpNotification) request = person_wait_for (fixture, "Under nohup");
  g_autofree char *status_path = NULL, *status = NULL;
  const char *ignored;
  guint64 mask;

  /* Its own handler would have replaced the ignoring (SigCgt, not SigIgn). */
  status_path = g_strdup_printf ("/proc/%s/status", g_subprocess_get_identifier (run->process));
  g_assert_true (g_file_get_contents (status_path, &status, NULL, NULL));
  ignored = strstr (status, "SigIgn:");
  g_assert_nonnull (ignored);
  mask = g_ascii_strtoull (ignored + strlen ("SigIgn:"), NULL, 16);
  g_assert_true (mask & (G_GUINT64_CONSTANT (1) << (SIGHUP - 1)));

  g_subprocess_send_signal (run->process, SIGHUP);
  person_answers (fixture, request->id, "ok", NULL);
  g_assert_cmpint (ask_finish (run), ==, 0);
}

/* The server restarts while triage-ask waits, and while it sends */
static void
test_restart_while_waiting (Fixture       *fixture,
                            gconstpointer  data)
{
  const char * const args[] = { "--title", "Across a restart", "--action", "ok", NULL };
  g_autoptr(Run) run = ask_start (fixture, args, NULL);
  g_autoptr(AtpNotification) request = person_wait_for (fixture, "Across a restart");
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) output = NULL;

  sleep_ms (200);   /* let the long-poll start */
  triage_test_server_stop (fixture->server);
  sleep_ms (300);
  g_assert_true (triage_test_server_restart (fixture->server, &error));
  g_assert_no_error (error);

  person_answers (fixture, request->id, "ok", NULL);
  g_assert_cmpint (ask_finish (run), ==, 0);
  output = parse_output (run->out);
  g_assert_cmpstr (json_object_get_string_member (output, "notification_id"), ==, request->id);
}

static void
restart_cb (gpointer data)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (triage_test_server_restart (data, &error));
  g_assert_no_error (error);
}

static void
test_restart_while_sending (Fixture       *fixture,
                            gconstpointer  data)
{
  const char * const args[] = { "--title", "Sent late", "--action", "ok", "--retry-for", "20s", NULL };
  g_autoptr(Run) run = NULL;
  g_autoptr(AtpNotification) request = NULL;

  triage_test_server_stop (fixture->server);
  run = ask_start (fixture, args, NULL);
  g_timeout_add_once (700, restart_cb, fixture->server);

  request = person_wait_for (fixture, "Sent late");
  person_answers (fixture, request->id, "ok", NULL);
  g_assert_cmpint (ask_finish (run), ==, 0);
}

/* Local mode: no configuration at all */
static void
test_local (Fixture       *fixture,
            gconstpointer  data)
{
  const char * const args[] = { "--title", "Locally", "--action", "ok", NULL };
  const char * const named[] = { "--title", "Named service", "--action", "ok",
                                 "--service", "deploy-bot", "--service-name", "Deploy bot", NULL };
  g_autoptr(Run) run = ask_start (fixture, args, NULL);
  g_autoptr(AtpNotification) request = person_wait_for (fixture, "Locally");
  g_autoptr(Run) second = NULL;
  g_autoptr(AtpNotification) other = NULL;

  g_assert_cmpstr (request->service.id, ==, "triage-ask");
  person_answers (fixture, request->id, "ok", NULL);
  g_assert_cmpint (ask_finish (run), ==, 0);

  second = ask_start (fixture, named, NULL);
  other = person_wait_for (fixture, "Named service");
  g_assert_cmpstr (other->service.id, ==, "deploy-bot");
  g_assert_cmpstr (other->service.name, ==, "Deploy bot");
  person_answers (fixture, other->id, "ok", NULL);
  g_assert_cmpint (ask_finish (second), ==, 0);
}

static void
test_local_nothing_there (void)
{
  g_autofree char *dir = g_dir_make_tmp ("triage-ask-empty-XXXXXX", NULL);
  const char * const args[] = { "--title", "T", "--action", "ok", "--retry-for", "1s", NULL };
  g_autofree char *runtime = g_strconcat ("XDG_RUNTIME_DIR=", dir, NULL);
  const char * const env[] = { runtime, NULL };
  g_autoptr(Run) run = NULL;

  run = ask_start_env (NULL, args, NULL, env);
  ask_finish (run);

  g_assert_cmpint (run->status, ==, 3);
  g_assert_nonnull (strstr (run->err, "Cannot reach the local server at"));
  g_assert_nonnull (strstr (run->err, "triage/triage.sock"));
  g_rmdir (dir);
}

static void
test_help (void)
{
  const char * const args[] = { "--help", NULL };
  g_autoptr(Run) run = ask (NULL, args, NULL);
  const char *expected[] = {
    "--title", "--description", "--action", "--label", "--option", "--constraint", "--confirm",
    "--flag", "--deadline", "--attach", "--project", "--metadata", "--id", "--json", "--server",
    "--socket", "--service", "--retry-for", "--no-wait", "--quiet",
    "simple", "binary", "choice", "multi_choice", "text", "number", "scale",
    "min_selections", "max_selections", "min_length", "max_length", "placeholder", "min_label",
    "max_label", "unit", "step", "TRIAGE_API_KEY", TRIAGE_ASK_KEY_SCHEMA, "Exit status",
    "130/143 interrupted",
  };
  /* Every mode's help names both statuses an interruption ends with, as the
   * man page and README do: a script that sends SIGTERM gets 143. */
  const char * const modes[][3] = {
    { "--aitp", "--help", NULL }, { "--afp", "--help", NULL },
  };

  g_assert_cmpint (run->status, ==, 0);
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    if (strstr (run->out, expected[i]) == NULL)
      g_error ("--help lacks “%s”", expected[i]);
  for (guint i = 0; i < G_N_ELEMENTS (modes); i++)
    {
      g_autoptr(Run) mode_run = ask (NULL, (const char * const *) modes[i], NULL);

      g_assert_cmpint (mode_run->status, ==, 0);
      if (strstr (mode_run->out, "130/143 interrupted") == NULL)
        g_error ("%s --help lacks “130/143 interrupted”:\n%s", modes[i][0], mode_run->out);
    }
}

/* A hostile or broken server's words reach the caller's terminal only made
 * visible: an escape sequence in its error message could retitle or clear
 * the terminal, or set its clipboard (OSC 52). The server is a few lines of
 * HTTP on a socket of our own (libsoup 3.2's SoupServer keeps what it
 * accepted past its end, which LeakSanitizer would count against the test). */
static gboolean
hostile_server_run_cb (GThreadedSocketService *service,
                       GSocketConnection      *connection,
                       GObject                *source,
                       gpointer                user_data)
{
  static const char body[] =
    "{\"code\":\"INVALID_FIELD_VALUE\",\"message\":\"bad \\u001b]0;PWNED\\u0007"
    "\\u001b[2J \\u009b31m \\u202eevil\\u202c end\"}";
  g_autoptr(GDataInputStream) in =
    g_data_input_stream_new (g_io_stream_get_input_stream (G_IO_STREAM (connection)));
  GOutputStream *out = g_io_stream_get_output_stream (G_IO_STREAM (connection));
  g_autofree char *answer = NULL;
  guint64 length = 0;

  /* The request read whole (its headers, then its body), then the answer. */
  for (;;)
    {
      g_autofree char *line = g_data_input_stream_read_line (in, NULL, NULL, NULL);

      if (line == NULL || line[0] == '\0' || g_str_equal (line, "\r"))
        break;
      if (g_ascii_strncasecmp (line, "Content-Length:", 15) == 0)
        length = g_ascii_strtoull (line + 15, NULL, 10);
    }
  g_input_stream_skip (G_INPUT_STREAM (in), length, NULL, NULL);
  answer = g_strdup_printf ("HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\n"
                            "Content-Length: %zu\r\nConnection: close\r\n\r\n%s",
                            strlen (body), body);
  g_output_stream_write_all (out, answer, strlen (answer), NULL, NULL, NULL);
  g_io_stream_close (G_IO_STREAM (connection), NULL, NULL);
  return TRUE;
}

static void
test_hostile_server (void)
{
  g_autoptr(GSocketService) service = g_threaded_socket_service_new (1);
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) address = g_inet_socket_address_new (loopback, 0);
  g_autoptr(GSocketAddress) bound = NULL;
  const char *env[] = { "TRIAGE_API_KEY=sk_anything", NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(Run) run = NULL;
  g_autofree char *url = NULL;

  g_socket_listener_add_address (G_SOCKET_LISTENER (service), address, G_SOCKET_TYPE_STREAM,
                                 G_SOCKET_PROTOCOL_TCP, NULL, &bound, &error);
  g_assert_no_error (error);
  g_signal_connect (service, "run", G_CALLBACK (hostile_server_run_cb), NULL);
  url = g_strdup_printf ("http://127.0.0.1:%u",
                         g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound)));

  {
    const char * const args[] = { "--server", url, "--title", "T", "--confirm", NULL };

    run = ask_start_env (NULL, args, NULL, env);
  }
  g_assert_cmpint (ask_finish (run), ==, TRIAGE_ASK_EXIT_USAGE);
  g_socket_service_stop (service);
  g_socket_listener_close (G_SOCKET_LISTENER (service));
  g_assert_nonnull (strstr (run->err, "bad \xef\xbf\xbd]0;PWNED\xef\xbf\xbd\xef\xbf\xbd[2J "
                                      "\xef\xbf\xbd" "31m \xef\xbf\xbd" "evil\xef\xbf\xbd end"));
  for (const char *p = run->err; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      g_assert_true (c == '\n' || (!g_unichar_iscntrl (c) && g_unichar_type (c) != G_UNICODE_FORMAT));
    }
}

/* A person's answer holding DEL or a C1 control (U+009B is a CSI to some
 * terminals) is printed escaped, as JSON allows, and reads back the same; so
 * are U+2028, U+2029 and U+0085, line breaks to Python's str.splitlines (),
 * which made the one line of output two. */
static void
test_answer_terminal_safe (Fixture       *fixture,
                           gconstpointer  data)
{
  const char * const args[] = { "--title", "Why?", "--action", "why:text", NULL };
  g_autoptr(Run) run = ask_start (fixture, args, NULL);
  g_autoptr(AtpNotification) request = person_wait_for (fixture, "Why?");
  g_autoptr(JsonObject) output = NULL;

  person_answers (fixture, request->id, "why", "\"a\\u009b31mb\\u007fc\\u2028d\\u2029e\\u0085f\"");
  g_assert_cmpint (ask_finish (run), ==, 0);
  g_assert_nonnull (strstr (run->out, "a\\u009b31mb\\u007fc\\u2028d\\u2029e\\u0085f"));
  g_assert_null (strstr (run->out, "\xc2\x9b"));
  g_assert_null (strchr (run->out, 0x7f));
  g_assert_null (strstr (run->out, "\xe2\x80\xa8"));
  g_assert_null (strstr (run->out, "\xe2\x80\xa9"));
  g_assert_null (strstr (run->out, "\xc2\x85"));
  output = parse_output (run->out);
  g_assert_cmpstr (json_object_get_string_member (output, "response_data"), ==,
                   "a\xc2\x9b" "31mb\x7f" "c\xe2\x80\xa8" "d\xe2\x80\xa9" "e\xc2\x85" "f");
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/ask/help", test_help);
  g_test_add_func ("/ask/bad-input", test_bad_input);
  g_test_add_func ("/ask/unreachable", test_unreachable);
  g_test_add_func ("/ask/tls-untrusted", test_tls_untrusted);
  g_test_add_func ("/ask/no-key", test_no_key);
  g_test_add_func ("/ask/local-nothing-there", test_local_nothing_there);
  g_test_add_func ("/ask/hostile-server", test_hostile_server);

#define ADD(path, func) g_test_add (path, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("/ask/answered", test_answered);
  ADD ("/ask/confirm", test_confirm);
  ADD ("/ask/seven-types", test_seven_types);
  ADD ("/ask/stdin-json", test_stdin_json);
  ADD ("/ask/attachment", test_attachment);
  ADD ("/ask/expired", test_expired);
  ADD ("/ask/bad-key", test_bad_key);
  ADD ("/ask/no-wait", test_no_wait);
  ADD ("/ask/interrupted", test_interrupted);
  ADD ("/ask/nohup", test_nohup);
  ADD ("/ask/hung-up", test_hung_up);
  ADD ("/ask/restart-while-waiting", test_restart_while_waiting);
  ADD ("/ask/restart-while-sending", test_restart_while_sending);
  ADD ("/ask/answer-terminal-safe", test_answer_terminal_safe);
#undef ADD
  g_test_add ("/ask/local", Fixture, NULL, local_setup, test_local, fixture_teardown);

  return g_test_run ();
}
