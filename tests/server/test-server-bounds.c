/* test-server-bounds.c — what an agent may ask and what a read may answer are
 * bounded: an AFP session's reviews come in pages; the options a person
 * chooses among (ATP's choices, AITP's options and variants, AFP's applied
 * items) are refused past their bound, naming the path and the bound; a
 * reason that shows nothing is none, or refused where one must be given, as
 * a feedback text that shows nothing is
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "test-server-bounds"

#include "server-test-util.h"

#include "atp-afp.h"
#include "atp-aitp.h"
#include "atp-types.h"

#define REVIEWS   "/api/v1/afp/reviews"
#define SESSIONS  "/api/v1/afp/sessions/"
#define DECISIONS "/api/v1/aitp/decisions"
#define RESPOND   "/api/v1/client/respond"

/* Posts iteration @iteration of @session (NULL: a new session); its review id,
 * and the session's id in *@session_out. */
static char *
post_iteration (SrvTeam     *team,
                const char  *session,
                guint        iteration,
                char       **session_out)
{
  g_autofree char *body = NULL;
  g_autoptr(SrvAnswer) answer = NULL;
  g_autoptr(JsonObject) object = NULL;

  body = g_strdup_printf ("{%s%s%s\"request\":{\"iteration\":%u,\"artifact\":"
                          "{\"media_type\":\"text/plain\",\"content\":\"v%u\"}}}",
                          session ? "\"session_id\":\"" : "", session ? session : "",
                          session ? "\"," : "", iteration, iteration);
  answer = srv_request (team->server, "POST", REVIEWS, team->key, body);
  srv_assert_status (answer, 201, NULL);
  object = srv_parse_object (answer->body);
  if (session_out != NULL)
    *session_out = g_strdup (json_object_get_string_member (object, "session_id"));
  return g_strdup (json_object_get_string_member (object, "id"));
}

/* The session's page at @query; its object. */
static JsonObject *
session_page (SrvTeam    *team,
              const char *session,
              const char *query,
              char      **header_cursor)
{
  g_autofree char *path = g_strconcat (SESSIONS, session, query, NULL);
  g_autoptr(SrvAnswer) answer = srv_request (team->server, "GET", path, team->key, NULL);

  srv_assert_status (answer, 200, NULL);
  *header_cursor = g_strdup (soup_message_headers_get_one (answer->headers, "X-Triage-Next-Cursor"));
  return srv_parse_object (answer->body);
}

/* The iterations a page lists, "1,2,3". */
static char *
page_iterations (JsonObject *page)
{
  JsonArray *reviews = json_object_get_array_member (page, "reviews");
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint i = 0; i < json_array_get_length (reviews); i++)
    g_string_append_printf (text, "%s%" G_GINT64_FORMAT, i > 0 ? "," : "",
                            json_object_get_int_member (json_array_get_object_element (reviews, i),
                                                        "iteration"));
  return g_string_free (g_steal_pointer (&text), FALSE);
}

/* The page's pagination: has_more, total_count and next_cursor (NULL when null),
 * the header's cursor the body's. */
static char *
assert_pagination (JsonObject *page,
                   gboolean    has_more,
                   gint64      total,
                   const char *header_cursor)
{
  JsonObject *pagination = json_object_get_object_member (page, "pagination");
  const char *next = json_object_get_string_member_with_default (pagination, "next_cursor", NULL);

  g_assert_nonnull (pagination);
  g_assert_cmpint (json_object_get_boolean_member (pagination, "has_more"), ==, has_more);
  g_assert_cmpint (json_object_get_int_member (pagination, "total_count"), ==, total);
  g_assert_cmpint (next != NULL, ==, has_more);
  g_assert_cmpstr (header_cursor, ==, next);
  return g_strdup (next);
}

/* A session's GET lists its reviews in pages, as the client's list does:
 * 50 by default, `limit` 1–1,000, a cursor to go on, the session's count;
 * every page carries the session's issued ids whole. */
static void
test_session_pages (SrvTeam       *team,
                    gconstpointer  data)
{
  g_autofree char *session = NULL, *header = NULL, *next = NULL, *iterations = NULL;
  g_autofree char *query = NULL, *expected = NULL;
  g_autoptr(JsonObject) page = NULL;
  g_autoptr(GString) all = g_string_new (NULL);
  guint n = 52;

  g_free (post_iteration (team, NULL, 1, &session));
  for (guint i = 2; i <= n; i++)
    g_free (post_iteration (team, session, i, NULL));

  /* The first page: 50 of 52, and a cursor to the rest. */
  page = session_page (team, session, "", &header);
  g_assert_cmpint (json_object_get_int_member (page, "last_iteration"), ==, n);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (page, "reviews")), ==, 50);
  g_assert_true (json_object_has_member (page, "issued_ids"));
  next = assert_pagination (page, TRUE, n, header);
  query = g_strdup_printf ("?cursor=%s", next);
  g_clear_pointer (&page, json_object_unref);
  g_clear_pointer (&header, g_free);
  page = session_page (team, session, query, &header);
  iterations = page_iterations (page);
  g_assert_cmpstr (iterations, ==, "51,52");
  g_clear_pointer (&next, g_free);
  next = assert_pagination (page, FALSE, n, header);

  /* Pages of 20 walk them all, in order, each review once. */
  g_clear_pointer (&query, g_free);
  query = g_strdup ("?limit=20");
  for (guint pages = 0;; pages++)
    {
      g_autofree char *more = NULL;

      g_assert_cmpuint (pages, <, 3);
      g_clear_pointer (&page, json_object_unref);
      g_clear_pointer (&header, g_free);
      g_clear_pointer (&iterations, g_free);
      page = session_page (team, session, query, &header);
      iterations = page_iterations (page);
      g_string_append_printf (all, "%s%s", all->len > 0 ? "," : "", iterations);
      more = assert_pagination (page, pages < 2, n, header);
      if (more == NULL)
        break;
      g_free (query);
      query = g_strdup_printf ("?limit=20&cursor=%s", more);
    }
  expected = g_strdup ("1");
  for (guint i = 2; i <= n; i++)
    {
      g_autofree char *longer = g_strdup_printf ("%s,%u", expected, i);

      g_free (expected);
      expected = g_steal_pointer (&longer);
    }
  g_assert_cmpstr (all->str, ==, expected);

  /* A limit outside 1–1,000, and a cursor this list did not make (the
   * client list's), are refused naming them. */
  {
    const char *queries[] = { "?limit=0", "?limit=1001", "?limit=ten", "?cursor=djI6MTox",
                              "?cursor=nonsense!" };
    const char *fields[] = { "limit", "limit", "limit", "cursor", "cursor" };

    for (guint i = 0; i < G_N_ELEMENTS (queries); i++)
      {
        g_autofree char *path = g_strconcat (SESSIONS, session, queries[i], NULL);
        g_autoptr(SrvAnswer) answer = srv_request (team->server, "GET", path, team->key, NULL);

        g_test_message ("GET %s", path);
        srv_assert_status (answer, 400, "INVALID_PARAMETER");
        srv_assert_field (answer, fields[i]);
      }
  }
}

/* A choice's options, as an ATP POST body holds them. */
static char *
choice_notification (const char *type,
                     guint       n)
{
  GString *body = g_string_new ("{\"context\":{\"title\":\"Which host?\",\"description\":\"D\"},"
                                "\"actions\":[{\"id\":\"pick\",\"label\":\"Pick\","
                                "\"response_type\":\"");

  g_string_append_printf (body, "%s\",\"options\":[", type);
  for (guint i = 0; i < n; i++)
    g_string_append_printf (body, "%s{\"value\":\"h%u\",\"label\":\"H%u\"}", i > 0 ? "," : "", i, i);
  g_string_append (body, "]}]}");
  return g_string_free (body, FALSE);
}

/* An ATP choice or multi_choice holds at most ATP_MAX_CHOICE_OPTIONS
 * options (the app's list was built and measured for that many); one more
 * is refused, naming the path and the bound. The most is stored on
 * either database, under the sanitizers too: the server frees its parsed
 * form of the 700 kB request (seconds there) before the insert opens the
 * batch's transaction, which PostgreSQL ends once idle for 5 s. */
static void
test_atp_options (SrvTeam       *team,
                  gconstpointer  data)
{
  const char *types[] = { "choice", "multi_choice" };

  for (guint i = 0; i < G_N_ELEMENTS (types); i++)
    {
      g_autofree char *most = choice_notification (types[i], ATP_MAX_CHOICE_OPTIONS);
      g_autofree char *over = choice_notification (types[i], ATP_MAX_CHOICE_OPTIONS + 1);
      g_autoptr(SrvAnswer) taken = srv_request (team->server, "POST", "/api/v1/notifications",
                                                team->key, most);
      g_autoptr(SrvAnswer) refused = srv_request (team->server, "POST", "/api/v1/notifications",
                                                  team->key, over);
      g_autofree char *message = g_strdup_printf ("actions[0].options: must hold at most %d "
                                                  "options", ATP_MAX_CHOICE_OPTIONS);
      g_autofree char *got = g_strdup_printf ("got %d", ATP_MAX_CHOICE_OPTIONS + 1);

      g_test_message ("%s", types[i]);
      srv_assert_status (taken, 201, NULL);
      srv_assert_status (refused, 400, "MALFORMED_ACTION");
      srv_assert_message (refused, message);
      srv_assert_message (refused, got);
    }
}

/* An AITP message of @n options (@variants variants on the first). */
static char *
aitp_message (const char *id,
              guint       n,
              guint       variants)
{
  GString *body = g_string_new ("{\"$schema\":\"https://aitp.dev/v1/decisions/schema.json\","
                                "\"request_decision\":{\"id\":\"");

  g_string_append_printf (body, "%s\",\"type\":\"products\",\"options\":[", id);
  for (guint i = 0; i < n; i++)
    {
      g_string_append_printf (body, "%s{\"id\":\"o%u\",\"name\":\"O%u\"", i > 0 ? "," : "", i, i);
      if (i == 0 && variants > 0)
        {
          g_string_append (body, ",\"variants\":[");
          for (guint v = 0; v < variants; v++)
            g_string_append_printf (body, "%s{\"id\":\"v%u\"}", v > 0 ? "," : "", v);
          g_string_append (body, "]");
        }
      g_string_append (body, "}");
    }
  g_string_append (body, "]}}");
  return g_string_free (body, FALSE);
}

/* An AITP request holds at most ATP_AITP_MAX_OPTIONS options, and a product
 * as many variants: each is a widget of the person's view. One more is
 * refused, naming the path and the bound, and nothing is stored. */
static void
test_aitp_options (SrvTeam       *team,
                   gconstpointer  data)
{
  g_autofree char *most = aitp_message ("most", ATP_AITP_MAX_OPTIONS, ATP_AITP_MAX_OPTIONS);
  g_autofree char *options = aitp_message ("options", ATP_AITP_MAX_OPTIONS + 1, 0);
  g_autofree char *variants = aitp_message ("variants", 1, ATP_AITP_MAX_OPTIONS + 1);
  g_autoptr(SrvAnswer) taken = srv_request (team->server, "POST", DECISIONS, team->key, most);
  g_autoptr(SrvAnswer) too_many = srv_request (team->server, "POST", DECISIONS, team->key, options);
  g_autoptr(SrvAnswer) too_varied = srv_request (team->server, "POST", DECISIONS, team->key,
                                                 variants);
  g_autofree char *bound = g_strdup_printf ("must hold at most %d", ATP_AITP_MAX_OPTIONS);
  g_autofree char *stored = NULL;

  srv_assert_status (taken, 201, NULL);
  srv_assert_status (too_many, 400, "INVALID_FIELD_VALUE");
  srv_assert_field (too_many, "request_decision.options");
  srv_assert_message (too_many, bound);
  srv_assert_status (too_varied, 400, "INVALID_FIELD_VALUE");
  srv_assert_field (too_varied, "request_decision.options[0].variants");
  srv_assert_message (too_varied, bound);
  stored = srv_run_sql (team->server, "SELECT count(*) FROM notifications");
  g_assert_cmpint (g_ascii_strtoll (stored, NULL, 10), ==, 1);
}

/* An AFP request's applied_feedback holds at most ATP_AFP_MAX_APPLIED_ITEMS
 * items, as many as a session can issue ids. */
static void
test_afp_applied_items (SrvTeam       *team,
                        gconstpointer  data)
{
  for (guint n = ATP_AFP_MAX_APPLIED_ITEMS; n <= ATP_AFP_MAX_APPLIED_ITEMS + 1; n++)
    {
      g_autoptr(GString) body = g_string_new ("{\"request\":{\"iteration\":1,\"artifact\":"
                                              "{\"media_type\":\"text/plain\",\"content\":\"a\"},"
                                              "\"applied_feedback\":{\"items\":[");
      g_autoptr(SrvAnswer) answer = NULL;

      for (guint i = 0; i < n; i++)
        g_string_append_printf (body, "%s{\"id\":\"item-%05u\",\"status\":\"accepted\"}",
                                i > 0 ? "," : "", i);
      g_string_append (body, "]}}}");
      answer = srv_request (team->server, "POST", REVIEWS, team->key, body->str);
      if (n == ATP_AFP_MAX_APPLIED_ITEMS)
        srv_assert_status (answer, 201, NULL);
      else
        {
          g_autofree char *bound = g_strdup_printf ("must hold at most %d items",
                                                    ATP_AFP_MAX_APPLIED_ITEMS);

          srv_assert_status (answer, 400, "INVALID_FIELD_VALUE");
          srv_assert_field (answer, "request.applied_feedback.items");
          srv_assert_message (answer, bound);
        }
    }
}

/* A person's decline may say why; what it says must show something: only
 * spaces (Unicode's too), zero-width or bidirectional marks are refused,
 * as a title of them is, and the review stays answerable. */
static void
test_decline_shows_something (SrvTeam       *team,
                              gconstpointer  data)
{
  g_autofree char *id = post_iteration (team, NULL, 1, NULL);
  const char *blank[] = { "\\u200b", "\\u3000", "\\u200e\\u200f", "\\u202e \\u2066", "\\u2060\\t" };
  g_autoptr(SrvAnswer) said = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (blank); i++)
    {
      g_autofree char *body = g_strdup_printf ("{\"notification_id\":\"%s\",\"action_id\":\"decline\","
                                               "\"response_data\":{\"message\":\"%s\"}}",
                                               id, blank[i]);
      g_autoptr(SrvAnswer) answer = srv_request (team->server, "POST", RESPOND, team->alice, body);

      g_test_message ("%s", body);
      srv_assert_status (answer, 400, "INVALID_RESPONSE_DATA");
      srv_assert_field (answer, "response_data.message");
      srv_assert_message (answer, "must show something");
    }

  /* Still pending: a decline that says something is taken. */
  {
    g_autofree char *body = g_strdup_printf ("{\"notification_id\":\"%s\",\"action_id\":\"decline\","
                                             "\"response_data\":{\"message\":\"\\u200bNot now\"}}",
                                             id);

    said = srv_request (team->server, "POST", RESPOND, team->alice, body);
    srv_assert_status (said, 200, NULL);
  }
}

/* A person's feedback: each text it requires must show something, as a
 * decline's message must; one of invisible characters alone is 400 naming
 * its path, and the review stays answerable. */
static void
test_feedback_shows_something (SrvTeam       *team,
                               gconstpointer  data)
{
  static const char * const paths[] = {
    "confidence.justification", "positive_points[0].aspect", "positive_points[0].justification",
    "areas_for_improvement[0].aspect", "areas_for_improvement[0].description",
    "areas_for_improvement[0].recommendation", "general_summary",
  };
  static const char * const blank[] = { "\\u200b", "\\u200e\\u200f", "\\u3000\\u2060", "\\u00ad" };
  g_autofree char *id = post_iteration (team, NULL, 1, NULL);

  for (guint i = 0; i <= G_N_ELEMENTS (paths); i++)
    {
      const char *text[G_N_ELEMENTS (paths)];
      g_autofree char *body = NULL;
      g_autofree char *field = NULL;
      g_autoptr(SrvAnswer) answer = NULL;

      /* The last round has every text shown (and a mark beside one). */
      for (guint j = 0; j < G_N_ELEMENTS (paths); j++)
        text[j] = j == i ? blank[i % G_N_ELEMENTS (blank)] : j == 0 ? "\\u200bSkimmed" : "Fine";
      body = g_strdup_printf ("{\"notification_id\":\"%s\",\"action_id\":\"feedback\",\"response_data\":{"
                              "\"confidence\":{\"level\":\"low\",\"justification\":\"%s\"},"
                              "\"positive_points\":[{\"aspect\":\"%s\",\"justification\":\"%s\"}],"
                              "\"areas_for_improvement\":[{\"id\":\"scope-item-01\",\"aspect\":\"%s\","
                              "\"description\":\"%s\",\"recommendation\":\"%s\"}],"
                              "\"general_summary\":\"%s\"}}", id, text[0], text[1], text[2],
                              text[3], text[4], text[5], text[6]);
      answer = srv_request (team->server, "POST", RESPOND, team->alice, body);
      g_test_message ("%s", body);
      if (i == G_N_ELEMENTS (paths))
        {
          srv_assert_status (answer, 200, NULL);
          break;
        }
      field = g_strconcat ("response_data.", paths[i], NULL);
      srv_assert_status (answer, 400, "INVALID_RESPONSE_DATA");
      srv_assert_field (answer, field);
      srv_assert_message (answer, "something visible");
    }
}

/* A team whose server takes requests of 20,000 options: each allocates
 * hundreds of thousands of times, which under AddressSanitizer, with the
 * slow unwinder the leak check needs, took 20–30 s on a loaded machine, near
 * the client's 30 s. The leak check is left to the other tests (bulk, as in
 * start_process ()). */
static void
srv_big_team_setup (SrvTeam       *team,
                    gconstpointer  data)
{
  TriageTestServerOptions options = { .bulk = TRUE };

  srv_team_setup_with (team, &options);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) g_test_add (path, SrvTeam, NULL, srv_team_setup, func, srv_team_teardown)
  ADD ("/server/bounds/session-pages", test_session_pages);
  g_test_add ("/server/bounds/atp-options", SrvTeam, NULL, srv_big_team_setup, test_atp_options,
              srv_team_teardown);
  ADD ("/server/bounds/aitp-options", test_aitp_options);
  ADD ("/server/bounds/afp-applied-items", test_afp_applied_items);
  ADD ("/server/bounds/decline-shows-something", test_decline_shows_something);
  ADD ("/server/bounds/feedback-shows-something", test_feedback_shows_something);
#undef ADD

  return g_test_run ();
}
