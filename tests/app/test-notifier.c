/* test-notifier.c — what a bubble says and offers, and the bubbles themselves
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The /notifier/bus/ cases run under tests/fake-notifyd.py --private-bus
 * (FAKE_NOTIFYD_LOG names its log): they check the Notify calls, press
 * buttons through its control interface and see the bubbles withdrawn.
 * The cases for servers that do less are in test-notifier-servers.c.
 */

#include <errno.h>
#include <json-glib/json-glib.h>
#include <unistd.h>

#include "app-test-common.h"
#include "notifier-test.h"
#include "notifyd-test-log.h"
#include "text-test-util.h"
#include "triage-decision-format.h"
#include "triage-notifier.h"
#include "triage-protocol.h"

#define ID_A "0a6f1e3c-3a1b-4c5d-8e9f-0a1b2c3d4e5f"
#define ID_B "1b6f1e3c-3a1b-4c5d-8e9f-0a1b2c3d4e5f"
#define ID_C "2c6f1e3c-3a1b-4c5d-8e9f-0a1b2c3d4e5f"
#define ID_D "3d6f1e3c-3a1b-4c5d-8e9f-0a1b2c3d4e5f"
#define ID_E "4e6f1e3c-3a1b-4c5d-8e9f-0a1b2c3d4e5f"
#define ID_F "5f6f1e3c-3a1b-4c5d-8e9f-0a1b2c3d4e5f"
#define ID_G "606f1e3c-3a1b-4c5d-8e9f-0a1b2c3d4e5f"
#define ID_H "716f1e3c-3a1b-4c5d-8e9f-0a1b2c3d4e5f"

/* A 1×1 red PNG. */
#define PNG_1X1 "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=="

/* @text without U+200B: what the person reads. */
static char *
dup_visible (const char *text)
{
  g_auto(GStrv) parts = g_strsplit (text, "\u200B", -1);

  return g_strjoinv ("", parts);
}

static void
test_summary_body (void)
{
  g_autoptr(AtpNotification) n = app_test_notification (ID_A, 0, 10, NULL);
  g_autofree char *summary = triage_notifier_dup_summary (n);
  g_autofree char *body = triage_notifier_dup_body (n);
  g_autofree char *long_text = NULL;
  g_autofree char *json = NULL;
  g_autoptr(AtpNotification) long_n = NULL;
  g_autofree char *long_body = NULL;

  g_assert_cmpstr (summary, ==, "CI <bot>: Deploy " ID_A "?");
  /* Markup in the description is shown as text, never interpreted. */
  g_assert_cmpstr (body, ==, "Ship &lt;b&gt;it&lt;/b&gt; &amp; see");

  long_text = g_strnfill (500, 'x');
  json = g_strdup_printf ("{\"id\": \"%s\", \"version\": \"1.0\", \"timestamp\": \"2025-05-25T10:30:00Z\","
                          " \"service\": {\"id\": \"s\", \"name\": \"S\"},"
                          " \"context\": {\"title\": \"T\", \"description\": \"%s\"},"
                          " \"actions\": [{\"id\": \"ok\", \"label\": \"OK\", \"response_type\": \"simple\"}],"
                          " \"status\": \"created\"}", ID_B, long_text);
  long_n = atp_notification_new_from_data (json, -1, ATP_PARSE_DEFAULT, NULL);
  g_assert_nonnull (long_n);
  long_body = triage_notifier_dup_body (long_n);
  {
    g_autofree char *visible = dup_visible (long_body);

    g_assert_cmpint (g_utf8_strlen (visible, -1), ==, TRIAGE_NOTIFIER_MAX_BODY);
    g_assert_true (g_str_has_prefix (long_body, "xxxx"));
  }
  g_assert_true (g_str_has_suffix (long_body, "…"));

  /* Quotes as numeric references (valid in HTML and XML alike); control
   * characters, which no markup allows, as spaces. */
  g_clear_pointer (&json, g_free);
  json = g_strdup_printf ("{\"id\": \"%s\", \"version\": \"1.0\", \"timestamp\": \"2025-05-25T10:30:00Z\","
                          " \"service\": {\"id\": \"s\", \"name\": \"S\"},"
                          " \"context\": {\"title\": \"T\", \"description\": \"<a href='x'>\\\"q\\\"</a>\\u0001\\nend\"},"
                          " \"actions\": [{\"id\": \"ok\", \"label\": \"OK\", \"response_type\": \"simple\"}],"
                          " \"status\": \"created\"}", ID_C);
  {
    g_autoptr(AtpNotification) quoted = atp_notification_new_from_data (json, -1, ATP_PARSE_DEFAULT, NULL);
    g_autofree char *quoted_body = NULL;

    g_assert_nonnull (quoted);
    quoted_body = triage_notifier_dup_body (quoted);
    /* A control character is shown (U+FFFD), as in every label. */
    g_assert_cmpstr (quoted_body, ==, "&lt;a href=&#39;x&#39;&gt;&#34;q&#34;&lt;/a&gt;\uFFFD\nend");
  }

  /* The title again as the description (triage-ask without --description):
   * the bubble says it once, in its summary. */
  g_clear_pointer (&json, g_free);
  json = g_strdup_printf ("{\"id\": \"%s\", \"version\": \"1.0\", \"timestamp\": \"2025-05-25T10:30:00Z\","
                          " \"service\": {\"id\": \"s\", \"name\": \"S\"},"
                          " \"context\": {\"title\": \"Deploy 2.1?\", \"description\": \"Deploy 2.1?\"},"
                          " \"actions\": [{\"id\": \"ok\", \"label\": \"OK\", \"response_type\": \"simple\"}],"
                          " \"status\": \"created\"}", ID_C);
  {
    g_autoptr(AtpNotification) repeated = atp_notification_new_from_data (json, -1, ATP_PARSE_DEFAULT, NULL);
    g_autofree char *repeated_summary = NULL, *repeated_body = NULL;

    g_assert_nonnull (repeated);
    repeated_summary = triage_notifier_dup_summary (repeated);
    repeated_body = triage_notifier_dup_body (repeated);
    g_assert_cmpstr (repeated_summary, ==, "S: Deploy 2.1?");
    g_assert_cmpstr (repeated_body, ==, "");
  }
}

/* A long unbroken line (a token, a URL, a minified line) in a title or a
 * description: servers wrap a bubble's text at word boundaries only, and
 * notification-daemon drew such a line past the bubble's edge. Each gets a
 * place to break as the window's labels do, and nothing else changes. */
static void
test_summary_body_unbroken (void)
{
  g_autofree char *name = g_strnfill (150, 'N');
  g_autofree char *title = g_strnfill (400, 'T');
  g_autofree char *description = g_strnfill (500, 'd');
  g_autofree char *json = NULL;
  g_autoptr(AtpNotification) n = NULL;
  g_autofree char *summary = NULL;
  g_autofree char *body = NULL;
  g_autofree char *visible_summary = NULL;
  g_autofree char *visible_body = NULL;
  g_autofree char *expected_summary = NULL;
  g_autofree char *expected_body = NULL;

  json = g_strdup_printf ("{\"id\": \"%s\", \"version\": \"1.0\", \"timestamp\": \"2025-05-25T10:30:00Z\","
                          " \"service\": {\"id\": \"s\", \"name\": \"%s\"},"
                          " \"context\": {\"title\": \"%s\", \"description\": \"a&b %s\"},"
                          " \"actions\": [{\"id\": \"ok\", \"label\": \"OK\", \"response_type\": \"simple\"}],"
                          " \"status\": \"created\"}", ID_D, name, title, description);
  n = atp_notification_new_from_data (json, -1, ATP_PARSE_DEFAULT, NULL);
  g_assert_nonnull (n);

  summary = triage_notifier_dup_summary (n);
  body = triage_notifier_dup_body (n);
  g_assert_cmpuint (text_test_longest_unbroken_run (summary), <=, TRIAGE_SHOWN_RUN_CHARS);
  g_assert_cmpuint (text_test_longest_unbroken_run (body), <=, TRIAGE_SHOWN_RUN_CHARS);

  /* What the person reads is what it was: cut as before, escaped as before. */
  visible_summary = dup_visible (summary);
  visible_body = dup_visible (body);
  expected_summary = g_strdup_printf ("%.*s…: %.*s…", TRIAGE_SHOWN_NAME_CHARS, name,
                                      TRIAGE_SHOWN_ROW_CHARS, title);
  expected_body = g_strdup_printf ("a&amp;b %.*s…", TRIAGE_NOTIFIER_MAX_BODY - 5, description);
  g_assert_cmpstr (visible_summary, ==, expected_summary);
  g_assert_cmpstr (visible_body, ==, expected_body);
}

/* A Hebrew or Arabic service name in the summary, "Name: Title": the title
 * stays after the colon, the colon after the name. Without marks, "Backup
 * גיבוי: 3 files" is laid out "Backup 3 :גיבוי files" (the number joins the
 * name's right-to-left run), and a summary that starts with a Hebrew name
 * is laid out right to left with the colon at its far end. */
static void
test_summary_right_to_left (void)
{
  static const struct {
    const char *name;
    const char *title;
    const char *summary;
  } cases[] = {
    { "Backup גיבוי", "3 files to delete", "\u200EBackup גיבוי\u200E: 3 files to delete" },
    { "גיבוי", "Delete 3 files?", "\u200Eגיבוי\u200E: Delete 3 files?" },
    { "نسخ", "حذف 3 ملفات", "\u200Eنسخ\u200E: حذف 3 ملفات" },
    { "Backup", "גיבוי 3", "Backup: גיבוי 3" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *json = NULL;
      g_autoptr(AtpNotification) n = NULL;
      g_autofree char *summary = NULL;

      json = g_strdup_printf ("{\"id\": \"%s\", \"version\": \"1.0\", \"timestamp\": \"2025-05-25T10:30:00Z\","
                              " \"service\": {\"id\": \"s\", \"name\": \"%s\"},"
                              " \"context\": {\"title\": \"%s\", \"description\": \"d\"},"
                              " \"actions\": [{\"id\": \"ok\", \"label\": \"OK\", \"response_type\": \"simple\"}],"
                              " \"status\": \"created\"}", ID_E, cases[i].name, cases[i].title);
      n = atp_notification_new_from_data (json, -1, ATP_PARSE_DEFAULT, NULL);
      g_assert_nonnull (n);
      summary = triage_notifier_dup_summary (n);
      g_assert_cmpstr (summary, ==, cases[i].summary);
    }
}

/* How many answer buttons a bubble for @n carries (its protocol's choice). */
static guint
n_bubble_answers (AtpNotification *n)
{
  g_autoptr(GPtrArray) answers = triage_protocol_dup_bubble_answers (triage_protocol_for_request (n), n);

  return answers->len;
}

static void
test_inline_answers (void)
{
  g_autoptr(AtpNotification) simple = app_test_notification (ID_A, 0, 10,
    "[{\"id\": \"yes\", \"label\": \"Approve\", \"response_type\": \"simple\"},"
    " {\"id\": \"no\", \"label\": \"Deny\", \"response_type\": \"simple\", \"flags\": [\"costly\"]}]");
  g_autoptr(AtpNotification) irreversible = app_test_notification (ID_A, 0, 10,
    "[{\"id\": \"yes\", \"label\": \"Approve\", \"response_type\": \"simple\", \"flags\": [\"irreversible\"]}]");
  g_autoptr(AtpNotification) destructive = app_test_notification (ID_A, 0, 10,
    "[{\"id\": \"yes\", \"label\": \"Delete\", \"response_type\": \"simple\", \"flags\": [\"destructive\"]}]");
  g_autoptr(AtpNotification) confirm = app_test_notification (ID_A, 0, 10,
    "[{\"id\": \"yes\", \"label\": \"Go\", \"response_type\": \"simple\", \"flags\": [\"requires_confirmation\"]}]");
  g_autoptr(AtpNotification) mixed = app_test_notification (ID_A, 0, 10,
    "[{\"id\": \"yes\", \"label\": \"Approve\", \"response_type\": \"simple\"},"
    " {\"id\": \"why\", \"label\": \"Reason\", \"response_type\": \"text\"}]");
  g_autoptr(AtpNotification) binary = app_test_notification (ID_A, 0, 10,
    "[{\"id\": \"b\", \"label\": \"Logs?\", \"response_type\": \"binary\","
    "  \"options\": {\"true_label\": \"Yes\", \"false_label\": \"No\"}}]");

  g_assert_cmpuint (n_bubble_answers (simple), ==, 2);
  g_assert_cmpuint (n_bubble_answers (irreversible), ==, 0);
  g_assert_cmpuint (n_bubble_answers (destructive), ==, 0);
  g_assert_cmpuint (n_bubble_answers (confirm), ==, 0);
  g_assert_cmpuint (n_bubble_answers (mixed), ==, 0);
  g_assert_cmpuint (n_bubble_answers (binary), ==, 0);
}

/* A request @id titled @title with two simple actions, @description and
 * @attachments (a JSON array, or NULL). */
static AtpNotification *
simple_request_full (const char *id,
                     const char *title,
                     const char *description,
                     const char *attachments)
{
  g_autofree char *json = NULL;
  g_autoptr(GError) error = NULL;
  AtpNotification *n;

  json = g_strdup_printf ("{\"id\": \"%s\", \"version\": \"1.0\", \"timestamp\": \"2025-05-25T10:30:00Z\","
                          " \"service\": {\"id\": \"s\", \"name\": \"S\"},"
                          " \"context\": {\"title\": \"%s\", \"description\": \"%s\"%s%s},"
                          " \"actions\": [{\"id\": \"yes\", \"label\": \"Approve\", \"response_type\": \"simple\"},"
                          "  {\"id\": \"no\", \"label\": \"Deny\", \"response_type\": \"simple\"}],"
                          " \"status\": \"delivered\"}", id, title, description,
                          attachments ? ", \"attachments\": " : "", attachments ? attachments : "");
  n = atp_notification_new_from_data (json, -1, ATP_PARSE_DEFAULT, &error);
  g_assert_no_error (error);

  return n;
}

static AtpNotification *
simple_request (const char *description,
                const char *attachments)
{
  return simple_request_full (ID_D, "Clean up", description, attachments);
}

/* An answer from a bubble answers what the bubble showed: when the body is
 * cut, or there is an attachment (a bubble shows none), there is no answer
 * button, and a `respond:` key for it is refused; the same for every protocol. */
static void
test_inline_answers_shown_whole (void)
{
  g_autofree char *whole = g_strnfill (TRIAGE_NOTIFIER_MAX_BODY, 'x');
  g_autofree char *padding = g_strnfill (TRIAGE_NOTIFIER_MAX_BODY, ' ');
  g_autofree char *hidden = g_strconcat (padding, "and delete ~/", NULL);
  g_autoptr(AtpNotification) fits = simple_request (whole, NULL);
  g_autoptr(AtpNotification) cut = simple_request (hidden, NULL);
  g_autoptr(AtpNotification) attached = simple_request ("See the plan",
    "[{\"type\": \"text/plain\", \"description\": \"plan.txt\", \"data\": \"cm0gLXJmIH4v\"}]");
  g_autofree char *described = g_strdup_printf ("{\"$schema\": \"https://aitp.dev/v1/decisions/schema.json\","
                                                " \"request_decision\": {\"id\": \"d\", \"title\": \"Pick\","
                                                " \"type\": \"radio\", \"options\": [{\"id\": \"a\", \"name\": \"A\","
                                                " \"description\": \"and pay 500 USD\"}, {\"id\": \"b\", \"name\": \"B\"}]}}");
  g_autoptr(AtpNotification) aitp = app_test_aitp_notification_new (ID_E, "Pick", described);
  AtpNotification *refused[] = { cut, attached, aitp };
  g_autofree char *body = triage_notifier_dup_body (cut);

  g_assert_cmpuint (n_bubble_answers (fits), ==, 2);
  g_assert_true (g_str_has_suffix (body, "…"));

  for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
    {
      TriageProtocol *protocol = triage_protocol_for_request (refused[i]);
      g_autofree char *action_id = NULL;
      g_autoptr(JsonNode) data = NULL;
      g_autoptr(GError) error = NULL;

      g_assert_cmpuint (n_bubble_answers (refused[i]), ==, 0);
      g_assert_false (triage_protocol_get_bubble_answer (protocol, refused[i], i < 2 ? "yes" : "a",
                                                         &action_id, &data, &error));
      g_assert_nonnull (error);
    }
}

/* A bubble's button is one line no server wraps: an action's label or an
 * AITP option's name (sent whole before) is cut to a button's length. */
static void
test_inline_answer_labels (void)
{
  g_autofree char *long_label = g_strnfill (300, 'L');
  g_autofree char *actions = g_strdup_printf ("[{\"id\": \"yes\", \"label\": \"%s\", \"response_type\": \"simple\"},"
                                              " {\"id\": \"no\", \"label\": \"Deny\", \"response_type\": \"simple\"}]",
                                              long_label);
  g_autofree char *message = g_strdup_printf ("{\"$schema\": \"https://aitp.dev/v1/decisions/schema.json\","
                                              " \"request_decision\": {\"id\": \"d\", \"title\": \"Pick\","
                                              " \"type\": \"radio\", \"options\": [{\"id\": \"a\", \"name\": \"%s\"},"
                                              " {\"id\": \"b\", \"name\": \"B\"}]}}", long_label);
  g_autoptr(AtpNotification) atp = app_test_notification (ID_A, 0, 10, actions);
  g_autoptr(AtpNotification) aitp = app_test_aitp_notification_new (ID_B, "Pick", message);
  AtpNotification *requests[] = { atp, aitp };
  g_autofree char *fits = g_strndup (long_label, TRIAGE_SHOWN_BUBBLE_BUTTON_CHARS);
  g_autofree char *fitting_actions = g_strdup_printf ("[{\"id\": \"yes\", \"label\": \"%s\", "
                                                      "\"response_type\": \"simple\"},"
                                                      " {\"id\": \"no\", \"label\": \"Deny\", "
                                                      "\"response_type\": \"simple\"}]", fits);
  g_autoptr(AtpNotification) fitting = app_test_notification (ID_C, 0, 10, fitting_actions);
  g_autoptr(GPtrArray) whole = triage_protocol_dup_bubble_answers (triage_protocol_for_request (fitting),
                                                                   fitting);

  /* A label that fits a button is offered whole. */
  g_assert_cmpuint (whole->len, ==, 2);
  g_assert_cmpstr (((TriageBubbleAnswer *) whole->pdata[0])->label, ==, fits);
  g_assert_cmpstr (((TriageBubbleAnswer *) whole->pdata[1])->label, ==, "Deny");

  /* One that does not would be an answer to its first 32 characters: the
   * bubble opens the request instead, and the key is refused. */
  for (guint i = 0; i < G_N_ELEMENTS (requests); i++)
    {
      TriageProtocol *protocol = triage_protocol_for_request (requests[i]);
      g_autoptr(GPtrArray) answers = triage_protocol_dup_bubble_answers (protocol, requests[i]);
      g_autofree char *action_id = NULL;
      g_autoptr(JsonNode) data = NULL;
      g_autoptr(GError) error = NULL;

      g_assert_cmpuint (answers->len, ==, 0);
      g_assert_false (triage_protocol_get_bubble_answer (protocol, requests[i], i == 0 ? "yes" : "a",
                                                         &action_id, &data, &error));
      g_assert_error (error, ATP_ERROR, ATP_ERROR_INVALID_ACTION_ID);
    }
}

static void
test_decode_icon (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autofree char *type = NULL;
  g_autofree char *huge = NULL;
  g_autofree char *huge_uri = NULL;

  bytes = triage_notifier_decode_icon ("data:image/png;base64," PNG_1X1, &type, &error);
  g_assert_no_error (error);
  g_assert_nonnull (bytes);
  g_assert_cmpstr (type, ==, "image/png");
  g_clear_pointer (&bytes, g_bytes_unref);

  /* Never fetched: a URL is refused, whatever its scheme. */
  bytes = triage_notifier_decode_icon ("https://example.com/icon.png", NULL, &error);
  g_assert_null (bytes);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED);
  g_clear_error (&error);
  bytes = triage_notifier_decode_icon ("file:///etc/passwd", NULL, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED);
  g_clear_error (&error);

  bytes = triage_notifier_decode_icon ("data:image/png," PNG_1X1, NULL, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_clear_error (&error);
  bytes = triage_notifier_decode_icon ("data:text/html;base64,PGI+", NULL, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_clear_error (&error);
  bytes = triage_notifier_decode_icon ("data:image/png;base64,", NULL, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_clear_error (&error);

  /* The image types attachments are limited to, and no other: SVG, XPM,
   * TGA, ICNS never reach a gdk-pixbuf loader from a bubble. */
  {
    const char *refused[] = { "image/svg+xml", "image/x-xpixmap", "image/x-tga", "image/x-icns",
                              "image/x-portable-anymap", "image/SVG+xml" };

    for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
      {
        g_autofree char *uri = g_strconcat ("data:", refused[i], ";base64,PHN2Zy8+", NULL);

        bytes = triage_notifier_decode_icon (uri, NULL, &error);
        g_assert_null (bytes);
        g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED);
        g_clear_error (&error);
      }
  }
  /* A type's case does not matter. */
  g_clear_pointer (&type, g_free);
  bytes = triage_notifier_decode_icon ("data:image/PNG;base64," PNG_1X1, &type, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (type, ==, "image/png");
  g_clear_pointer (&bytes, g_bytes_unref);

  huge = g_strnfill (TRIAGE_NOTIFIER_MAX_ICON_SIZE + 4, 'A');
  huge_uri = g_strconcat ("data:image/png;base64,", huge, NULL);
  bytes = triage_notifier_decode_icon (huge_uri, NULL, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_MESSAGE_TOO_LARGE);
}

/* Bubbles on a fake notification server */

typedef struct
{
  char *activated;
  char *respond_id;
  char *respond_action;
} Events;

static void
on_activated (TriageNotifier *notifier,
              const char     *id,
              Events         *events)
{
  g_free (events->activated);
  events->activated = g_strdup (id);
}

static void
on_respond (TriageNotifier *notifier,
            const char     *id,
            const char     *action,
            Events         *events)
{
  g_free (events->respond_id);
  g_free (events->respond_action);
  events->respond_id = g_strdup (id);
  events->respond_action = g_strdup (action);
}

static void
test_bus_inline_respond (void)
{
  g_autoptr(TriageNotifier) notifier = NULL;
  g_autoptr(AtpNotification) n = NULL;
  g_autoptr(JsonNode) log = NULL;
  g_autoptr(JsonObject) notify = NULL;
  JsonArray *actions;
  JsonObject *hints;
  Events events = { 0 };
  g_autofree char *icon_json = NULL;

  if (notifyd_skip_without ())
    return;

  icon_json = g_strdup_printf ("[{\"id\": \"yes\", \"label\": \"Approve\", \"response_type\": \"simple\"},"
                               " {\"id\": \"no\", \"label\": \"Deny\", \"response_type\": \"simple\"}]");
  n = app_test_notification (ID_A, 120, 10, icon_json);
  notifier = triage_notifier_new ("Triage", "io.github.atptriage.Triage");
  g_signal_connect (notifier, "activated", G_CALLBACK (on_activated), &events);
  g_signal_connect (notifier, "respond", G_CALLBACK (on_respond), &events);

  triage_notifier_show (notifier, n, TRUE);
  g_assert_cmpuint (triage_notifier_get_n_shown (notifier), ==, 1);

  notify = notifyd_wait_event ("Notify", ID_A, 0, &log);
  g_assert_cmpstr (json_object_get_string_member (notify, "body"), ==,
                   "Ship &lt;b&gt;it&lt;/b&gt; &amp; see");
  g_assert_cmpstr (json_object_get_string_member (notify, "app_name"), ==, "Triage");
  hints = json_object_get_object_member (notify, "hints");
  g_assert_cmpint (json_object_get_int_member (hints, "urgency"), ==, 2);
  g_assert_cmpstr (json_object_get_string_member (hints, "category"), ==, TRIAGE_NOTIFIER_CATEGORY);
  g_assert_cmpstr (json_object_get_string_member (hints, "desktop-entry"), ==, "io.github.atptriage.Triage");

  actions = json_object_get_array_member (notify, "actions");
  g_assert_cmpuint (json_array_get_length (actions), ==, 4);
  g_assert_cmpstr (json_array_get_string_element (json_array_get_array_element (actions, 0), 0), ==, "default");
  g_assert_cmpstr (json_array_get_string_element (json_array_get_array_element (actions, 1), 0), ==, "respond:yes");
  g_assert_cmpstr (json_array_get_string_element (json_array_get_array_element (actions, 1), 1), ==, "Approve");
  g_assert_cmpstr (json_array_get_string_element (json_array_get_array_element (actions, 2), 0), ==, "respond:no");
  g_assert_cmpstr (json_array_get_string_element (json_array_get_array_element (actions, 3), 0), ==, "open");

  notifyd_press (json_object_get_int_member (notify, "id"), "respond:no");
  app_test_wait_for (events.respond_id != NULL, APP_TEST_WAIT_MS);
  g_assert_cmpstr (events.respond_id, ==, ID_A);
  g_assert_cmpstr (events.respond_action, ==, "no");
  g_assert_null (events.activated);
  app_test_wait_for (triage_notifier_get_n_shown (notifier) == 0, APP_TEST_WAIT_MS);

  g_assert_finalize_object (g_steal_pointer (&notifier));
  g_free (events.activated);
  g_free (events.respond_id);
  g_free (events.respond_action);
}

static void
test_bus_open_and_withdraw (void)
{
  g_autoptr(TriageNotifier) notifier = NULL;
  g_autoptr(AtpNotification) a = NULL;
  g_autoptr(AtpNotification) b = NULL;
  g_autoptr(JsonNode) log = NULL;
  g_autoptr(JsonNode) log2 = NULL;
  g_autoptr(JsonNode) log3 = NULL;
  g_autoptr(JsonObject) notify_a = NULL;
  g_autoptr(JsonObject) notify_b = NULL;
  g_autoptr(JsonObject) closed = NULL;
  JsonArray *actions;
  Events events = { 0 };
  g_autofree char *icon_actions = NULL;

  if (notifyd_skip_without ())
    return;

  /* Irreversible: no answer buttons, only Open. */
  a = app_test_notification (ID_C, 0, 10,
    "[{\"id\": \"yes\", \"label\": \"Approve\", \"response_type\": \"simple\", \"flags\": [\"irreversible\"]}]");
  b = app_test_notification (ID_D, 0, 10, NULL);
  notifier = triage_notifier_new ("Triage", "io.github.atptriage.Triage");
  g_signal_connect (notifier, "activated", G_CALLBACK (on_activated), &events);

  triage_notifier_show (notifier, a, FALSE);
  triage_notifier_show (notifier, b, FALSE);
  notify_a = notifyd_wait_event ("Notify", ID_C, 0, &log);
  notify_b = notifyd_wait_event ("Notify", ID_D, 0, &log2);

  actions = json_object_get_array_member (notify_a, "actions");
  g_assert_cmpuint (json_array_get_length (actions), ==, 2);
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (notify_a, "hints"), "urgency"), ==, 1);

  notifyd_press (json_object_get_int_member (notify_a, "id"), "default");
  app_test_wait_for (events.activated != NULL, APP_TEST_WAIT_MS);
  g_assert_cmpstr (events.activated, ==, ID_C);

  /* Answered elsewhere: the bubble is withdrawn. */
  triage_notifier_withdraw (notifier, ID_D);
  g_assert_cmpuint (triage_notifier_get_n_shown (notifier), ==, 0);
  closed = notifyd_wait_event ("CloseNotification", NULL, json_object_get_int_member (notify_b, "id"), &log3);

  g_assert_finalize_object (g_steal_pointer (&notifier));
  g_free (events.activated);
}

/* Settled elsewhere while its bubble is up: the bubble says what became of
 * the request, its answer buttons gone; a bubble the person closed is not
 * raised again. */
static void
test_bus_settle (void)
{
  g_autoptr(TriageNotifier) notifier = NULL;
  g_autoptr(AtpNotification) a = NULL;
  g_autoptr(AtpNotification) b = NULL;
  g_autoptr(AtpNotification) c = NULL;
  g_autoptr(JsonNode) log = NULL, log2 = NULL, log3 = NULL, log4 = NULL, log5 = NULL, log6 = NULL;
  g_autoptr(JsonObject) notify_a = NULL, notify_b = NULL, notify_c = NULL;
  g_autoptr(JsonObject) settled = NULL, again = NULL;
  JsonObject *last_b;
  guint id_a, id_b;

  if (notifyd_skip_without ())
    return;

  a = app_test_notification (ID_E, 0, 10,
    "[{\"id\": \"go\", \"label\": \"Go ahead\", \"response_type\": \"simple\"},"
    " {\"id\": \"stop\", \"label\": \"Stop\", \"response_type\": \"simple\"}]");
  b = app_test_notification (ID_F, 0, 10, NULL);
  c = app_test_notification (ID_G, 0, 10, NULL);
  notifier = triage_notifier_new ("Triage", "io.github.atptriage.Triage");

  triage_notifier_show (notifier, a, TRUE);
  triage_notifier_show (notifier, b, FALSE);
  notify_a = notifyd_wait_event ("Notify", ID_E, 0, &log);
  notify_b = notifyd_wait_event ("Notify", ID_F, 0, &log2);
  id_a = json_object_get_int_member (notify_a, "id");
  id_b = json_object_get_int_member (notify_b, "id");
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (notify_a, "actions")), ==, 4);

  /* Said in place, escaped like any body; said again as more is learnt. */
  triage_notifier_settle (notifier, ID_E, "Answered on another device at 17:12");
  settled = notifyd_wait_body (id_a, "Answered on another device at 17:12", &log3);
  triage_notifier_settle (notifier, ID_E, "Answered ‘Stop’ by <alex> on another device at 17:12");
  again = notifyd_wait_body (id_a, "Answered ‘Stop’ by &lt;alex&gt; on another device at 17:12", &log4);
  g_assert_cmpint (json_object_get_int_member (again, "replaces_id"), ==, id_a);
  g_assert_cmpstr (json_object_get_string_member (again, "summary"), ==,
                   json_object_get_string_member (notify_a, "summary"));
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (again, "actions")), ==, 0);
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (again, "hints"), "urgency"),
                   ==, 1);
  g_assert_cmpuint (triage_notifier_get_n_shown (notifier), ==, 2);

  /* Closed by the person: it stays closed. */
  notifyd_close (id_b);
  app_test_wait_for (triage_notifier_get_n_shown (notifier) == 1, APP_TEST_WAIT_MS);
  triage_notifier_settle (notifier, ID_F, "Expired at 17:12");
  triage_notifier_show (notifier, c, FALSE);   /* after the settle, on the same thread */
  notify_c = notifyd_wait_event ("Notify", ID_G, 0, &log5);
  g_clear_pointer (&log6, json_node_unref);
  log6 = notifyd_read_log ();
  last_b = notifyd_find_event (log6, "Notify", NULL, id_b);
  g_assert_nonnull (last_b);
  g_assert_cmpstr (json_object_get_string_member (last_b, "body"), ==,
                   json_object_get_string_member (notify_b, "body"));

  g_assert_finalize_object (g_steal_pointer (&notifier));
}

/* Answer buttons go with a description the bubble shows whole in the lines
 * a person sees, not in a count of characters: eight short lines (fewer
 * characters than one long line that fits) are cut, and get none. */
static void
test_bus_seen_lines (void)
{
  g_autoptr(TriageNotifier) notifier = NULL;
  g_autoptr(AtpNotification) five = NULL;
  g_autoptr(AtpNotification) eight = NULL;
  g_autoptr(JsonNode) log = NULL, log2 = NULL;
  g_autoptr(JsonObject) notify_five = NULL, notify_eight = NULL;

  if (notifyd_skip_without ())
    return;

  five = simple_request_full (ID_A, "Five lines?",
                              "Clean up:\\n/tmp\\n/var/tmp\\n~/.cache\\n~/build\\n\\n", NULL);
  eight = simple_request_full (ID_B, "Eight lines?",
                               "Clean up:\\n/tmp\\n/var/tmp\\n~/.cache\\n~/build\\n~/src\\n~/old\\nand delete ~/",
                               NULL);
  g_assert_cmpuint (n_bubble_answers (five), ==, 2);
  g_assert_cmpuint (n_bubble_answers (eight), ==, 0);

  notifier = triage_notifier_new ("Triage", "io.github.atptriage.Triage");
  triage_notifier_show (notifier, five, FALSE);
  triage_notifier_show (notifier, eight, FALSE);
  notify_five = notifyd_wait_event ("Notify", "Five lines?", 0, &log);
  notify_eight = notifyd_wait_event ("Notify", "Eight lines?", 0, &log2);

  g_assert_cmpstr (json_object_get_string_member (notify_five, "body"), ==,
                   "Clean up:\n/tmp\n/var/tmp\n~/.cache\n~/build");
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (notify_five, "actions")), ==, 4);
  g_assert_cmpstr (json_object_get_string_member (notify_eight, "body"), ==,
                   "Clean up:\n/tmp\n/var/tmp\n~/.cache\n~/build…");
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (notify_eight, "actions")), ==, 2);

  g_assert_finalize_object (g_steal_pointer (&notifier));
}

static void
on_expired (TriageNotifier *notifier,
            const char     *id,
            char          **expired)
{
  g_free (*expired);
  *expired = g_strdup (id);
}

/* The deadline passes with no word from the server (the app offline): the
 * notifier says so by the local clock, and an answer pressed on the bubble
 * after it, before the bubble was told, is not given: the request opens. */
static void
test_bus_deadline (void)
{
  g_autoptr(TriageNotifier) notifier = NULL;
  g_autoptr(AtpNotification) n = NULL;
  g_autoptr(JsonNode) log = NULL;
  g_autoptr(JsonObject) notify = NULL;
  g_autofree char *expired = NULL;
  Events events = { 0 };

  if (notifyd_skip_without ())
    return;

  n = app_test_notification (ID_H, 2, 10,
    "[{\"id\": \"go\", \"label\": \"Go ahead\", \"response_type\": \"simple\"}]");
  notifier = triage_notifier_new ("Triage", "io.github.atptriage.Triage");
  g_signal_connect (notifier, "activated", G_CALLBACK (on_activated), &events);
  g_signal_connect (notifier, "respond", G_CALLBACK (on_respond), &events);
  g_signal_connect (notifier, "expired", G_CALLBACK (on_expired), &expired);

  triage_notifier_show (notifier, n, TRUE);
  notify = notifyd_wait_event ("Notify", ID_H, 0, &log);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (notify, "actions")), ==, 3);

  app_test_wait_for (expired != NULL, APP_TEST_WAIT_MS);
  g_assert_cmpstr (expired, ==, ID_H);
  g_assert_cmpint (g_date_time_to_unix (n->deadline), <=, g_get_real_time () / G_USEC_PER_SEC);

  /* Nobody settled it here: its buttons are still up, and one is pressed. */
  notifyd_press (json_object_get_int_member (notify, "id"), "respond:go");
  app_test_wait_for (events.activated != NULL, APP_TEST_WAIT_MS);
  g_assert_cmpstr (events.activated, ==, ID_H);
  g_assert_null (events.respond_id);

  g_assert_finalize_object (g_steal_pointer (&notifier));
  g_free (events.activated);
}

/* What became of a request comes from its service and from the server (a
 * withdrawal's reason, who answered): a bubble says it in a few lines, as
 * it says a description, however long it is. */
static void
test_bus_settle_long (void)
{
  g_autoptr(TriageNotifier) notifier = NULL;
  g_autoptr(AtpNotification) n = NULL;
  g_autoptr(JsonNode) log = NULL, log2 = NULL;
  g_autoptr(JsonObject) notify = NULL, settled = NULL;
  g_autofree char *reason = NULL;
  g_autofree char *outcome = NULL;
  g_autofree char *shown = NULL;
  guint id;

  if (notifyd_skip_without ())
    return;

  n = app_test_notification (ID_B, 0, 10, NULL);
  notifier = triage_notifier_new ("Triage", "io.github.atptriage.Triage");
  triage_notifier_show (notifier, n, FALSE);
  notify = notifyd_wait_event ("Notify", ID_B, 0, &log);
  id = json_object_get_int_member (notify, "id");

  reason = g_strnfill (20000, 'x');
  outcome = g_strconcat ("Withdrawn by CI at 17:12\nReason: ", reason, NULL);
  triage_notifier_settle (notifier, ID_B, outcome);
  settled = notifyd_wait_replaced (id, &log2);

  shown = dup_visible (json_object_get_string_member (settled, "body"));
  g_assert_true (g_str_has_prefix (shown, "Withdrawn by CI at 17:12\nReason: xxx"));
  g_assert_true (g_str_has_suffix (shown, "x…"));
  g_assert_cmpuint (g_utf8_strlen (shown, -1), ==, TRIAGE_NOTIFIER_MAX_SETTLED_BODY);

  g_assert_finalize_object (g_steal_pointer (&notifier));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  /* Start from an empty log (the server appends, so truncating in place is safe). */
  if (g_getenv ("FAKE_NOTIFYD_LOG") != NULL && truncate (g_getenv ("FAKE_NOTIFYD_LOG"), 0) != 0)
    g_error ("Could not empty %s: %s", g_getenv ("FAKE_NOTIFYD_LOG"), g_strerror (errno));

  g_test_add_func ("/notifier/summary-body", test_summary_body);
  g_test_add_func ("/notifier/summary-body-unbroken", test_summary_body_unbroken);
  g_test_add_func ("/notifier/summary-right-to-left", test_summary_right_to_left);
  g_test_add_func ("/notifier/inline-answers", test_inline_answers);
  g_test_add_func ("/notifier/inline-answers-shown-whole", test_inline_answers_shown_whole);
  g_test_add_func ("/notifier/inline-answer-labels", test_inline_answer_labels);
  g_test_add_func ("/notifier/decode-icon", test_decode_icon);
  g_test_add_func ("/notifier/bus/inline-respond", test_bus_inline_respond);
  g_test_add_func ("/notifier/bus/open-and-withdraw", test_bus_open_and_withdraw);
  g_test_add_func ("/notifier/bus/settle", test_bus_settle);
  g_test_add_func ("/notifier/bus/settle-long", test_bus_settle_long);
  g_test_add_func ("/notifier/bus/deadline", test_bus_deadline);
  g_test_add_func ("/notifier/bus/seen-lines", test_bus_seen_lines);
  /* Under a server without body-markup only (tests/app/meson.build). */
  notifier_test_add_servers ();

  return g_test_run ();
}
