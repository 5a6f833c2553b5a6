/* test-ask-options.c — triage-ask's command line becomes the right request
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <locale.h>
#include <string.h>

#include <glib/gstdio.h>

#include "atp.h"
#include "triage-ask.h"

static GDateTime *
fixed_now (void)
{
  return g_date_time_new_utc (2026, 5, 1, 12, 0, 0);
}

/* Parses "triage-ask ARGS…"; returns the options or NULL with @error. */
static TriageAskOptions *
parse (const char * const  *args,
       GError             **error)
{
  g_autoptr(GDateTime) now = fixed_now ();
  g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);
  g_auto(GStrv) strv = NULL;

  g_ptr_array_add (argv, g_strdup ("triage-ask"));
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, g_strdup (args[i]));
  g_ptr_array_add (argv, NULL);
  strv = (GStrv) g_ptr_array_free (g_steal_pointer (&argv), FALSE);

  return triage_ask_options_parse (&strv, now, error);
}

static AtpNotification *
parse_request (const char * const *args)
{
  g_autoptr(TriageAskOptions) options = NULL;
  g_autoptr(GError) error = NULL;
  AtpNotification *notification;

  options = parse (args, &error);
  g_assert_no_error (error);
  g_assert_nonnull (options->body);

  notification = atp_notification_new_from_data (options->body, -1, ATP_PARSE_SUBMISSION, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (notification->id, ==, options->notification_id);
  return notification;
}

static void
assert_refused (const char * const *args,
                const char         *needle)
{
  g_autoptr(TriageAskOptions) options = NULL;
  g_autoptr(GError) error = NULL;

  options = parse (args, &error);
  g_assert_null (options);
  g_assert_nonnull (error);
  if (strstr (error->message, needle) == NULL)
    g_error ("“%s” lacks “%s”", error->message, needle);
}

static void
test_durations (void)
{
  const struct { const char *text; gint64 seconds; } good[] = {
    { "90s", 90 }, { "15m", 900 }, { "2h", 7200 }, { "1d", 86400 }, { "1h30m", 5400 },
    { "45", 45 }, { "0s", 0 }, { "1d2h3m4s", 93784 },
  };
  const char *bad[] = { "", "m", "10x", "1h30", "-5m", "1.5h", " 5m", "5m ", "999999999999d" };

  for (guint i = 0; i < G_N_ELEMENTS (good); i++)
    {
      gint64 us = -1;

      g_assert_true (triage_service_parse_duration (good[i].text, &us));
      g_assert_cmpint (us, ==, good[i].seconds * G_USEC_PER_SEC);
    }

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      gint64 us = 0;

      g_assert_false (triage_service_parse_duration (bad[i], &us));
    }
}

static void
test_simple (void)
{
  const char * const args[] = { "--title", "Ship?", "--action", "ship_now:simple:irreversible,costly",
                                "--action", "later", NULL };
  g_autoptr(AtpNotification) n = parse_request (args);
  const AtpAction *ship;
  const AtpAction *later;

  g_assert_cmpstr (n->context.title, ==, "Ship?");
  g_assert_cmpstr (n->context.description, ==, "Ship?");   /* defaults to the title */
  g_assert_null (n->deadline);
  g_assert_cmpuint (n->actions->len, ==, 2);

  ship = g_ptr_array_index (n->actions, 0);
  g_assert_cmpstr (ship->id, ==, "ship_now");
  g_assert_cmpstr (ship->label, ==, "Ship now");
  g_assert_cmpint (ship->response_type, ==, ATP_RESPONSE_TYPE_SIMPLE);
  g_assert_cmpint (ship->flags, ==, ATP_FLAG_IRREVERSIBLE | ATP_FLAG_COSTLY);

  later = g_ptr_array_index (n->actions, 1);
  g_assert_cmpstr (later->label, ==, "Later");
  g_assert_cmpint (later->response_type, ==, ATP_RESPONSE_TYPE_SIMPLE);
}

static void
test_all_types (void)
{
  const char * const args[] = {
    "-t", "All", "-d", "Every type",
    "-a", "b:binary",
    "-a", "yn:binary", "-o", "yn=true:Ship", "-o", "yn=false:Hold",
    "-a", "c:choice", "-o", "c=x:Ex", "-o", "c=y",
    "-a", "m:multi_choice", "-o", "m=1", "-o", "m=2", "-o", "m=3",
    "-c", "m.min_selections=1", "-c", "m.max_selections=2",
    "-a", "t:text", "-c", "t.min_length=2", "-c", "t.max_length=9", "-c", "t.placeholder=Why?",
    "-a", "n:number", "-c", "n.min=-1.5", "-c", "n.max=1e3", "-c", "n.step=0.25", "-c", "n.unit=ms",
    "-c", "n.placeholder=Delay",
    "-a", "s:scale:experimental", "-c", "s.min=0", "-c", "s.max=10", "-c", "s.step=2",
    "-c", "s.min_label=Low", "-c", "s.max_label=High", "-l", "s=Score it",
    NULL
  };
  g_autoptr(AtpNotification) n = parse_request (args);
  const AtpAction *a;

  g_assert_cmpuint (n->actions->len, ==, 7);

  a = atp_notification_find_action (n, "b");
  g_assert_cmpstr (a->true_label, ==, "Yes");
  g_assert_cmpstr (a->false_label, ==, "No");
  a = atp_notification_find_action (n, "yn");
  g_assert_cmpstr (a->true_label, ==, "Ship");
  g_assert_cmpstr (a->false_label, ==, "Hold");
  a = atp_notification_find_action (n, "c");
  g_assert_cmpuint (a->options->len, ==, 2);
  g_assert_cmpstr (((AtpOption *) a->options->pdata[0])->value, ==, "x");
  g_assert_cmpstr (((AtpOption *) a->options->pdata[0])->label, ==, "Ex");
  g_assert_cmpstr (((AtpOption *) a->options->pdata[1])->label, ==, "y");
  a = atp_notification_find_action (n, "m");
  g_assert_cmpuint (a->options->len, ==, 3);
  g_assert_cmpint (a->min_selections, ==, 1);
  g_assert_cmpint (a->max_selections, ==, 2);
  a = atp_notification_find_action (n, "t");
  g_assert_cmpint (a->min_length, ==, 2);
  g_assert_cmpint (a->max_length, ==, 9);
  g_assert_cmpstr (a->placeholder, ==, "Why?");
  a = atp_notification_find_action (n, "n");
  g_assert_cmpfloat (a->min, ==, -1.5);
  g_assert_cmpfloat (a->max, ==, 1000);
  g_assert_cmpfloat (a->step, ==, 0.25);
  g_assert_cmpstr (a->unit, ==, "ms");
  g_assert_cmpstr (a->placeholder, ==, "Delay");
  a = atp_notification_find_action (n, "s");
  g_assert_cmpstr (a->label, ==, "Score it");
  g_assert_true (a->flags & ATP_FLAG_EXPERIMENTAL);
  g_assert_cmpfloat (a->min, ==, 0);
  g_assert_cmpfloat (a->max, ==, 10);
  g_assert_cmpfloat (a->step, ==, 2);
  g_assert_cmpstr (a->min_label, ==, "Low");
  g_assert_cmpstr (a->max_label, ==, "High");
}

static void
test_context (void)
{
  const char * const args[] = { "--title", "T", "--action", "ok", "--project", "apollo",
                                "--metadata", "branch=main", "--metadata", "pr:=42",
                                "--metadata", "tags:=[\"a\",\"b\"]", "--metadata", "eq=a=b",
                                "--deadline", "1h30m", "--id", "5B1E5A3C-2D5F-4C3E-9A51-0F3E7F4B2A10",
                                NULL };
  g_autoptr(AtpNotification) n = parse_request (args);
  g_autoptr(GDateTime) now = fixed_now ();
  g_autoptr(GDateTime) expected = g_date_time_add_minutes (now, 90);

  g_assert_cmpstr (n->id, ==, "5b1e5a3c-2d5f-4c3e-9a51-0f3e7f4b2a10");
  g_assert_cmpstr (n->context.project, ==, "apollo");
  g_assert_cmpstr (json_object_get_string_member (n->context.metadata, "branch"), ==, "main");
  g_assert_cmpint (json_object_get_int_member (n->context.metadata, "pr"), ==, 42);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (n->context.metadata, "tags")), ==, 2);
  g_assert_cmpstr (json_object_get_string_member (n->context.metadata, "eq"), ==, "a=b");
  g_assert_true (g_date_time_equal (n->deadline, expected));
}

static void
test_deadline_rfc3339 (void)
{
  const char * const args[] = { "--title", "T", "--action", "ok",
                                "--deadline", "2026-05-01T14:00:00+02:00", NULL };
  const char * const past[] = { "--title", "T", "--action", "ok",
                                "--deadline", "2026-05-01T13:00:00+02:00", NULL };
  g_autoptr(AtpNotification) n = NULL;

  /* 14:00+02:00 is 12:00Z, the fixed now: passed already. */
  assert_refused (args, "that time has passed");
  assert_refused (past, "that time has passed");

  {
    const char * const later[] = { "--title", "T", "--action", "ok",
                                   "--deadline", "2026-05-01T15:00:00+02:00", NULL };
    g_autoptr(GDateTime) expected = g_date_time_new_utc (2026, 5, 1, 13, 0, 0);

    n = parse_request (later);
    g_assert_true (g_date_time_equal (n->deadline, expected));
  }
}

static void
test_confirm_forms (void)
{
  const char * const spaced[] = { "--confirm", "Deploy 2.1 to production?", "-f", "irreversible", NULL };
  const char * const joined[] = { "--confirm=Deploy?", NULL };
  const char * const titled[] = { "--title", "Drop it?", "--description", "All rows", "--confirm", NULL };
  g_autoptr(TriageAskOptions) options = NULL;
  g_autoptr(AtpNotification) n = NULL;
  g_autoptr(GError) error = NULL;
  const AtpAction *approve;

  n = parse_request (spaced);
  g_assert_cmpstr (n->context.title, ==, "Deploy 2.1 to production?");
  g_assert_cmpuint (n->actions->len, ==, 2);
  approve = g_ptr_array_index (n->actions, 0);
  g_assert_cmpstr (approve->id, ==, "approve");
  g_assert_cmpint (approve->flags, ==, ATP_FLAG_IRREVERSIBLE);
  g_assert_cmpstr (((AtpAction *) n->actions->pdata[1])->id, ==, "deny");
  g_clear_pointer (&n, atp_notification_unref);

  n = parse_request (joined);
  g_assert_cmpstr (n->context.title, ==, "Deploy?");
  g_clear_pointer (&n, atp_notification_unref);

  options = parse (titled, &error);
  g_assert_no_error (error);
  g_assert_true (options->confirm);
  g_assert_true (options->quiet);
  n = atp_notification_new_from_data (options->body, -1, ATP_PARSE_SUBMISSION, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (n->context.title, ==, "Drop it?");
  g_assert_cmpstr (n->context.description, ==, "All rows");
}

static void
test_connection_options (void)
{
  const char * const args[] = { "--title", "T", "--action", "ok", "--server", "https://t.example/",
                                "--retry-for", "30s", "--service", "bot", "--service-name", "Bot",
                                "--socket", "/tmp/x.sock", "--no-wait", "-q", NULL };
  const char * const defaults[] = { "--title", "T", "--action", "ok", NULL };
  g_autoptr(TriageAskOptions) options = NULL;
  g_autoptr(GError) error = NULL;

  options = parse (args, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (options->server_url, ==, "https://t.example/");
  g_assert_cmpint (options->retry_for_us, ==, 30 * G_USEC_PER_SEC);
  g_assert_cmpstr (options->service_id, ==, "bot");
  g_assert_cmpstr (options->service_name, ==, "Bot");
  g_assert_cmpstr (options->socket_path, ==, "/tmp/x.sock");
  g_assert_true (options->no_wait);
  g_assert_true (options->quiet);
  g_clear_pointer (&options, triage_ask_options_free);

  options = parse (defaults, &error);
  g_assert_no_error (error);
  g_assert_null (options->server_url);
  g_assert_cmpstr (options->service_id, ==, TRIAGE_ASK_DEFAULT_SERVICE_ID);
  g_assert_cmpint (options->retry_for_us, ==, TRIAGE_ASK_DEFAULT_RETRY_FOR_S * G_USEC_PER_SEC);
  g_assert_false (options->quiet);
  g_assert_false (options->read_stdin);
}

static void
test_stdin_options (void)
{
  const char * const dash[] = { "-", NULL };
  const char * const id[] = { "--json", "--id", "5b1e5a3c-2d5f-4c3e-9a51-0f3e7f4b2a10", NULL };
  const char *json = "{\"context\":{\"title\":\"T\",\"description\":\"D\"},"
                     "\"actions\":[{\"id\":\"ok\",\"label\":\"OK\",\"response_type\":\"simple\"}],"
                     "\"x-vendor\":1}";
  g_autoptr(TriageAskOptions) options = NULL;
  g_autoptr(AtpNotification) n = NULL;
  g_autoptr(GError) error = NULL;

  options = parse (dash, &error);
  g_assert_no_error (error);
  g_assert_true (options->read_stdin);
  g_assert_null (options->body);
  g_assert_true (triage_ask_options_set_json (options, json, strlen (json), &error));
  g_assert_no_error (error);
  g_assert_true (atp_is_uuid_v4 (options->notification_id));
  g_assert_nonnull (strstr (options->body, "\"x-vendor\":1"));   /* unknown members kept */
  g_clear_pointer (&options, triage_ask_options_free);

  options = parse (id, &error);
  g_assert_no_error (error);
  g_assert_true (triage_ask_options_set_json (options, json, strlen (json), &error));
  g_assert_cmpstr (options->notification_id, ==, "5b1e5a3c-2d5f-4c3e-9a51-0f3e7f4b2a10");
  n = atp_notification_new_from_data (options->body, -1, ATP_PARSE_SUBMISSION, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (n->id, ==, options->notification_id);

  g_assert_false (triage_ask_options_set_json (options, "[]", 2, &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "invalid request"));
}

static void
test_refused (void)
{
  const struct { const char *args[12]; const char *needle; } cases[] = {
    { { "--api-key=sk_1", NULL }, "TRIAGE_API_KEY" },
    { { "--token", "t", NULL }, "not taken from the command line" },
    { { "--title", "T", "--action", ":simple", NULL }, "needs an id" },
    { { "--title", "T", "--action", "a:simple:", NULL }, "empty flag" },
    { { "--title", "T", "--action", "a", "--label", "a", NULL }, "expected ID=TEXT" },
    { { "--title", "T", "--action", "a:choice", "--option", "a=", NULL }, "the value is empty" },
    { { "--title", "T", "--action", "a:simple", "--constraint", "a.min=1", NULL },
      "a simple action has no constraints" },
    { { "--title", "T", "--action", "a:number", "--constraint", "a.min=abc", NULL }, "min must be a number" },
    { { "--title", "T", "--action", "a:number", "--constraint", "amin=1", NULL }, "expected ID.NAME=VALUE" },
    { { "--title", "T", "--action", "a", "--flag", "irreversible", NULL }, "--flag belongs to --confirm" },
    { { "--title", "T", "--action", "a", "extra", NULL }, "unexpected argument “extra”" },
    { { "--action", "a", NULL }, "--title is required" },
    /* An empty title was called missing; blank texts were left to libatp's field names. */
    { { "--title", "", "--action", "a", NULL }, "--title: the text is empty" },
    { { "--title", " \t", "--action", "a", NULL }, "--title: the text is empty" },
    /* Invisible characters alone (U+200B, U+2060; U+2800) showed a blank heading: the
     * server's rule (libatp's), as triage-mcp's. */
    { { "--title", "\u200b\u2060", "--action", "a", NULL }, "--title: the text is empty" },
    { { "--title", "\u2800", "--action", "a", NULL }, "--title: the text is empty" },
    /* Answers the person cannot tell apart. */
    { { "--title", "T", "--action", "yn:binary", "--option", "yn=true:Same", "--option",
        "yn=false:Same", NULL }, "false_label: must differ from true_label" },
    { { "--title", "T", "--description", "", "--action", "a", NULL },
      "--description: the text is empty" },
    { { "--confirm", "  ", NULL }, "--confirm needs a question" },
    /* An empty project was sent (AITP's and AFP's --project refuse it). */
    { { "--title", "T", "--action", "a", "--project", "", NULL }, "--project: the name is empty" },
    { { "--title", "T", "--action", "a", "--project", " ", NULL }, "--project: the name is empty" },
    { { "--title", "T", "--action", "a", "--service", "", NULL }, "--service: the id is empty" },
    { { "--title", "T", "--action", "a", "--service-name", " ", NULL },
      "--service-name: the name is empty" },
    /* Dropped from the local server's headers by libsoup (a critical warning),
     * so the request was filed under the server's default service. */
    { { "--title", "T", "--action", "a", "--service", "a\nb", NULL },
      "--service: a control character (a line break, a tab) cannot be in it" },
    { { "--title", "T", "--action", "a", "--service-name", "a\rb", NULL },
      "--service-name: a control character" },
    /* Unbounded, a huge one made the local server close the connection at the headers:
     * "Cannot reach the local server … is it running?", after retrying for minutes. */
    { { "--title", "T", "--action", "a", "--service",
        "a123456789b123456789c123456789d123456789e123456789f123456789g1234", NULL },
      "--service: the id has 65 characters, more than the 64 an id may have" },
    { { "--title", "T", "--action", "a", "--service-name",
        "Ä123456789b123456789c123456789d123456789e123456789f123456789g123456789h123456789"
        "i123456789j123456789k", NULL },
      "--service-name: the name has 101 characters, more than the 100 a name may have" },
    /* Accepted, then "Connection refused" on every try until --retry-for had passed. */
    { { "--title", "T", "--action", "a", "--server", "http://127.0.0.1:0/", NULL },
      "--server: “http://127.0.0.1:0/” names port 0" },
    /* Over ten years was "expected a duration". */
    { { "--title", "T", "--action", "a", "--deadline", "99999d", NULL },
      "--deadline “99999d”: too far away: a duration may be at most ten years (3650d)" },
    { { "--title", "T", "--action", "a", "--deadline", "3650d1s", NULL }, "too far away" },
    { { "--title", "T", "--action", "a", "--deadline", "999999999999", NULL }, "too far away" },
    { { "--title", "T", "--action", "a", "--deadline", "1h30", NULL }, "expected a duration" },
    { { "--hook", "claude-code", "--deadline", "99999d", NULL },
      "--deadline “99999d”: too far away" },
    /* Nearly RFC 3339 was "expected a duration … or an RFC 3339 time". */
    { { "--title", "T", "--action", "a", "--deadline", "2026-05-02T12:00:00", NULL },
      "“2026-05-02T12:00:00”: the time has no offset: add Z for UTC" },
    { { "--title", "T", "--action", "a", "--deadline", "2026-05-02 12:00:00+02:00", NULL },
      "RFC 3339 puts a T between the date and the time" },
    { { "--title", "T", "--action", "a", "--deadline", "2026-05-02 12:00:00", NULL },
      "a T between the date and the time, and the time needs an offset" },
    { { "--hook", "claude-code", "--deadline", "2026-05-02T12:00:00", NULL },
      "the time has no offset" },
    { { "--title", "T", "--action", "a", "--deadline", "2026-05-32T12:00:00Z", NULL },
      "expected a duration" },
    { { "--title", "T", "--action", "a", "--retry-for", "3651d", NULL },
      "--retry-for “3651d”: too long: at most ten years (3650d)" },
    /* Exited 0, "approved", once the request was sent. */
    { { "--confirm", "Drop it?", "--no-wait", NULL }, "it cannot go with --no-wait" },
    { { "--title", "Drop it?", "--confirm", "--no-wait", NULL }, "it cannot go with --no-wait" },
    /* An empty --flag was blamed on an --action nobody gave. */
    { { "--confirm", "Q", "--flag", "", NULL }, "--flag “”: empty flag name" },
    { { "--confirm", "Q", "--flag", "a,", NULL }, "--flag “a,”: empty flag name" },
    { { "--confirm", "Q", "--flag", "a::b", NULL }, "--flag “a::b”: empty flag name" },
    /* ":=1" had the key ":"; a second value for a key replaced the first. */
    { { "--title", "T", "--action", "a", "--metadata", ":=1", NULL }, "the key is empty" },
    { { "--title", "T", "--action", "a", "--metadata", "k=1", "--metadata", "k:=2", NULL },
      "--metadata “k:=2”: the key “k” is given twice" },
    /* The second silently replaced the first. */
    { { "--title", "T", "--action", "a", "--label", "a=One", "--label", "a=Two", NULL },
      "--label “a=Two”: action “a” has a label already (--label “a=One”)" },
    { { "--title", "T", "--action", "a:text", "--constraint", "a.max_length=5",
        "--constraint", "a.max_length=9", NULL },
      "--constraint “a.max_length=9”: action “a” has max_length already" },
    /* Out of range was "must be a whole number ≥ 0". */
    { { "--title", "T", "--action", "a:text", "--constraint", "a.max_length=99999999999999999999",
        NULL }, "max_length is too large: at most 9007199254740992 (2^53)" },
    { { "--title", "T", "--action", "a:text", "--constraint", "a.max_length=-1", NULL },
      "max_length must not be negative" },
    { { "--title", "T", "--action", "a:scale", "--constraint", "a.min=x", NULL },
      "min must be a whole number, not “x”" },
    /* Said "must be a number". */
    { { "--title", "T", "--action", "a:number", "--constraint", "a.max=1e400", NULL },
      "max must be a finite number, not “1e400”" },
    { { "--title", "T", "--action", "a:number", "--constraint", "a.max=nan", NULL },
      "max must be a finite number, not “nan”" },
    /* Invalid UTF-8 was "Invalid byte sequence in conversion input", naming nothing. */
    { { "--title", "a\xff", "--action", "a", NULL }, "--title: not valid UTF-8 text" },
    { { "--title", "T", "--action", "a\xc3", NULL }, "--action: not valid UTF-8 text" },
    { { "--confirm", "\xe9t\xe9?", NULL }, "--confirm: not valid UTF-8 text" },
    { { "--confirm", "Q", "--title", "T", NULL }, "use one" },
    { { "--title", "T", "--action", "a", "--retry-for", "forever", NULL }, "--retry-for “forever”" },
    { { "--title", "T", "--action", "a:scale", "--constraint", "a.min=1", "--constraint", "a.max=0",
        NULL }, "actions[0] (--action “a”).constraints" },
    { { "--title", "T", "--action", "a", "--server", "ftp://x", NULL }, "--server:" },
    /* An empty --socket crashed triage-ask when it connected. */
    { { "--title", "T", "--action", "a", "--socket", "", NULL }, "--socket: must not be empty" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_test_message ("case %u", i);
      assert_refused (cases[i].args, cases[i].needle);
    }
}

/* Over ATP's size with no attachment, the message blamed attachments. */
static void
test_too_large (void)
{
  g_autofree char *description = g_strnfill (ATP_MAX_NOTIFICATION_SIZE, 'x');
  const char * const args[] = { "--title", "T", "--description", description, "--action", "a",
                                NULL };
  g_autoptr(TriageAskOptions) options = NULL;
  g_autoptr(GError) error = NULL;

  options = parse (args, &error);
  g_assert_null (options);
  g_assert_error (error, ATP_ERROR, ATP_ERROR_PAYLOAD_TOO_LARGE);
  g_assert_true (g_str_has_prefix (error->message, "invalid request: it has 1021 KiB"));
  g_assert_true (g_str_has_suffix (error->message, "more than the 1020 KiB a request may have"));
}

/* ATP allows any integer bounds for a scale; triage-ask refused a negative one. */
static void
test_negative_scale (void)
{
  const char * const args[] = { "--title", "T", "--action", "temp:scale",
                                "--constraint", "temp.min=-5", "--constraint", "temp.max=5", NULL };
  g_autoptr(AtpNotification) n = parse_request (args);
  const AtpAction *temp = g_ptr_array_index (n->actions, 0);

  g_assert_cmpfloat (temp->min, ==, -5.0);
  g_assert_cmpfloat (temp->max, ==, 5.0);
}

/* In the C locale (cron, systemd units) GOption converted every value from
 * ASCII and refused any accented title; values are UTF-8 whatever the locale. */
static void
test_c_locale (void)
{
  const char * const args[] = { "--title", "Déployer ?", "--action", "ok", "--project", "café",
                                NULL };
  const char * const confirm[] = { "--confirm", "Supprimer l’été ?", "--flag", "irreversible",
                                   NULL };
  g_autofree char *saved = g_strdup (setlocale (LC_ALL, NULL));
  g_autoptr(AtpNotification) n = NULL;
  g_autoptr(AtpNotification) c = NULL;

  g_assert_nonnull (setlocale (LC_ALL, "C"));
  n = parse_request (args);
  c = parse_request (confirm);
  setlocale (LC_ALL, saved);

  g_assert_cmpstr (n->context.title, ==, "Déployer ?");
  g_assert_cmpstr (n->context.project, ==, "café");
  g_assert_cmpstr (c->context.title, ==, "Supprimer l’été ?");
}

/* A file name is bytes: one that is not UTF-8 went into the attachment's
 * description as it was, and the body was no longer JSON (the server said
 * "Invalid JSON"). */
static void
test_attachment_name (void)
{
  g_autofree char *dir = g_dir_make_tmp ("triage-ask-attach-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "r\xe9sum\xe9.txt", NULL);
  const char * const args[] = { "--title", "T", "--action", "ok", "--attach", path, NULL };
  g_autoptr(AtpNotification) n = NULL;
  const AtpAttachment *attachment;

  g_assert_true (g_file_set_contents (path, "text", -1, NULL));
  n = parse_request (args);
  g_unlink (path);
  g_rmdir (dir);

  attachment = g_ptr_array_index (n->context.attachments, 0);
  g_assert_true (g_utf8_validate (attachment->description, -1, NULL));
  g_assert_true (g_str_has_prefix (attachment->description, "r"));
  g_assert_true (g_str_has_suffix (attachment->description, ".txt"));
}

static void
test_same_body_every_try (void)
{
  const char * const args[] = { "--title", "T", "--action", "ok", NULL };
  g_autoptr(TriageAskOptions) first = NULL;
  g_autoptr(TriageAskOptions) second = NULL;
  g_autoptr(GError) error = NULL;

  first = parse (args, &error);
  g_assert_no_error (error);
  second = parse (args, &error);
  g_assert_no_error (error);

  /* Every run picks its own id; one run sends one body (options->body) on every try. */
  g_assert_cmpstr (first->notification_id, !=, second->notification_id);
  g_assert_nonnull (strstr (first->body, first->notification_id));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/ask-options/durations", test_durations);
  g_test_add_func ("/ask-options/simple", test_simple);
  g_test_add_func ("/ask-options/all-types", test_all_types);
  g_test_add_func ("/ask-options/context", test_context);
  g_test_add_func ("/ask-options/deadline-rfc3339", test_deadline_rfc3339);
  g_test_add_func ("/ask-options/confirm", test_confirm_forms);
  g_test_add_func ("/ask-options/connection", test_connection_options);
  g_test_add_func ("/ask-options/stdin", test_stdin_options);
  g_test_add_func ("/ask-options/refused", test_refused);
  g_test_add_func ("/ask-options/too-large", test_too_large);
  g_test_add_func ("/ask-options/negative-scale", test_negative_scale);
  g_test_add_func ("/ask-options/c-locale", test_c_locale);
  g_test_add_func ("/ask-options/attachment-name", test_attachment_name);
  g_test_add_func ("/ask-options/same-body", test_same_body_every_try);

  return g_test_run ();
}
