/* bench-requests.c — what the agents of bench-app post
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Requests of the "bench" service to the local server, and their
 * withdrawal: ATP requests, urgent ones, AITP-02 decisions, AFP reviews.
 */

#include <string.h>
#include <json-glib/json-glib.h>

#include "bench-requests.h"

/* A request of the "bench" service, synchronously (the app runs in another
 * process, and the fake notification server is dispatched by the iterations in
 * wait_until()); returns its id. */
char *
bench_send_request (SoupSession *session,
                    const char  *method,
                    const char  *path,
                    char        *body,
                    guint        expected)
{
  g_autoptr(GBytes) bytes = g_bytes_new_take (body, strlen (body));
  g_autoptr(SoupMessage) message = NULL;
  g_autoptr(GBytes) reply = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *uri = g_strconcat ("http://localhost", path, NULL);
  JsonNode *node;

  message = soup_message_new (method, uri);
  soup_message_headers_replace (soup_message_get_request_headers (message),
                                "X-Triage-Service", "bench");
  soup_message_set_request_body_from_bytes (message, "application/json", bytes);
  reply = soup_session_send_and_read (session, message, NULL, &error);
  if (reply == NULL || soup_message_get_status (message) != expected)
    g_error ("%s %s failed: %s (HTTP %u)", method, path, error ? error->message : "unexpected status",
             soup_message_get_status (message));

  if (!json_parser_load_from_data (parser, g_bytes_get_data (reply, NULL),
                                   g_bytes_get_size (reply), NULL))
    return NULL;
  node = json_parser_get_root (parser);
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return NULL;
  /* ATP's 201 names the request notification_id, AITP's id. */
  return g_strdup (json_object_get_string_member_with_default (
    json_node_get_object (node), "notification_id",
    json_object_get_string_member_with_default (json_node_get_object (node), "id", NULL)));
}

char *
bench_post_request (SoupSession *session,
                    const char  *title,
                    gboolean     urgent)
{
  char *body = g_strdup_printf ("{\"context\": {\"title\": \"%s\", \"description\": \"A request "
                                "posted by the benchmark.\"}, \"actions\": [{\"id\": \"ok\", "
                                "\"label\": \"OK\", \"response_type\": \"simple\"%s}]}", title,
                                urgent ? ", \"flags\": [\"time_sensitive\"]" : "");

  return bench_send_request (session, "POST", "/api/v1/notifications", body, SOUP_STATUS_CREATED);
}

/* An AITP-02 products decision, due in four minutes: urgent, a bubble of its own. */
char *
bench_post_decision (SoupSession *session,
                     const char  *title)
{
  g_autofree char *id = g_uuid_string_random ();
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autoptr(GDateTime) due = g_date_time_add_minutes (now, 4);
  g_autofree char *deadline = g_date_time_format_iso8601 (due);
  char *body = g_strdup_printf (
    "{\"$schema\": \"https://aitp.dev/v1/decisions/schema.json\", \"request_decision\": "
    "{\"id\": \"%s\", \"title\": \"%s\", \"type\": \"products\", \"options\": ["
    "{\"id\": \"jbl\", \"name\": \"JBL Tour One M2\", \"five_star_rating\": 4.2, "
    "\"reviews_count\": 132, \"quote\": {\"type\": \"Quote\", \"quote_id\": \"q\", "
    "\"payee_id\": \"shop\", \"payment_plans\": [{\"plan_id\": \"p\", \"plan_type\": "
    "\"one-time\", \"amount\": 199.5, \"currency\": \"USD\"}], \"valid_until\": "
    "\"2050-01-01T00:00:00Z\"}, \"variants\": [{\"id\": \"black\", \"short_variant_name\": "
    "\"Black\"}, {\"id\": \"sand\", \"short_variant_name\": \"Sand\"}]}, "
    "{\"id\": \"sony\", \"name\": \"Sony WH-1000XM5\"}]}, "
    "\"x-triage\": {\"deadline\": \"%s\"}}", id, title, deadline);

  return bench_send_request (session, "POST", "/api/v1/aitp/decisions", body, SOUP_STATUS_CREATED);
}

/* An ATP request due in four minutes, urgent the way post_decision()'s is. */
char *
bench_post_due_request (SoupSession *session,
                        const char  *title)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autoptr(GDateTime) due = g_date_time_add_minutes (now, 4);
  g_autofree char *deadline = g_date_time_format_iso8601 (due);
  char *body = g_strdup_printf ("{\"deadline\": \"%s\", \"context\": {\"title\": \"%s\", "
                                "\"description\": \"A request posted by the benchmark.\"}, "
                                "\"actions\": [{\"id\": \"ok\", \"label\": \"OK\", "
                                "\"response_type\": \"simple\"}]}", deadline, title);

  return bench_send_request (session, "POST", "/api/v1/notifications", body, SOUP_STATUS_CREATED);
}

void
bench_withdraw_request (SoupSession *session,
                        const char  *id)
{
  g_autofree char *path = g_strdup_printf ("/api/v1/notifications/%s", id);
  g_autofree char *answer = NULL;

  answer = bench_send_request (session, "PATCH", path, g_strdup ("{\"status\": \"invalidated\"}"),
                         SOUP_STATUS_OK);
}

static JsonNode *
review_request_node (void)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "protocol_version");
  json_builder_add_string_value (builder, "1.2");
  json_builder_set_member_name (builder, "iteration");
  json_builder_add_int_value (builder, 1);
  json_builder_set_member_name (builder, "artifact");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "media_type");
  json_builder_add_string_value (builder, "text/markdown");
  json_builder_set_member_name (builder, "content");
  json_builder_add_string_value (builder, "# A plan\n- one step\n");
  json_builder_end_object (builder);
  json_builder_end_object (builder);
  return json_builder_get_root (builder);
}

char *
bench_review_request (void)
{
  g_autoptr(JsonNode) request = review_request_node ();

  return json_to_string (request, FALSE);
}

char *
bench_post_review (SoupSession *session,
                   const char  *title)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) body = NULL;
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autoptr(GDateTime) due = g_date_time_add_minutes (now, 4);
  g_autofree char *deadline = g_date_time_format_iso8601 (due);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "request");
  json_builder_add_value (builder, review_request_node ());
  json_builder_set_member_name (builder, "deadline");
  json_builder_add_string_value (builder, deadline);
  json_builder_set_member_name (builder, "title");
  json_builder_add_string_value (builder, title);
  json_builder_end_object (builder);
  body = json_builder_get_root (builder);

  return bench_send_request (session, "POST", "/api/v1/afp/reviews", json_to_string (body, FALSE),
                             SOUP_STATUS_CREATED);
}

void
bench_withdraw_review (SoupSession *session,
                       const char  *id)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) body = NULL;
  g_autofree char *path = g_strdup_printf ("/api/v1/afp/reviews/%s", id);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "status");
  json_builder_add_string_value (builder, "invalidated");
  json_builder_end_object (builder);
  body = json_builder_get_root (builder);

  g_free (bench_send_request (session, "PATCH", path, json_to_string (body, FALSE), SOUP_STATUS_OK));
}
