/* test-server-aitp.c — AITP-02 decisions in triage-server, on the wire: the
 * seed's examples asked and answered, every schema rule refused with nothing
 * stored, retries, the lifecycle, the respond checks, recipients and limits
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "test-server-aitp"

#include "server-test-util.h"
#include "atp.h"

#define DECISIONS "/api/v1/aitp/decisions"

typedef struct
{
  TriageTestServer *server;
  char             *user;        /* alice, the recipient */
  char             *bob;         /* a user the services do not ask */
  char             *key;
  char             *other_key;   /* a second service, asking alice too */
} Fixture;

static const char * const extra_args[] = { "--limit", "sends=40", NULL };
static const TriageTestServerOptions sends_limited = { .extra_args = extra_args };
/* Its big requests (a body of 100,000 numbers) allocate hundreds of
 * thousands of times: under AddressSanitizer, with the slow unwinder the leak
 * check needs, that took 8 s and on a loaded machine more than the client's
 * 30 s. The leak check is left to the other tests (bulk, as in start_process ()). */
static const TriageTestServerOptions big_requests = { .bulk = TRUE };

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  const char *recipients[] = { "alice", NULL };

  fixture->server = triage_test_server_new (data, &error);
  g_assert_no_error (error);
  g_assert_true (triage_test_server_create_user (fixture->server, "alice", &fixture->user, &error));
  g_assert_true (triage_test_server_create_user (fixture->server, "bob", &fixture->bob, &error));
  g_assert_true (triage_test_server_create_service (fixture->server, "shop", recipients, NULL,
                                                    NULL, &fixture->key, NULL, &error));
  g_assert_true (triage_test_server_create_service (fixture->server, "other", recipients, NULL,
                                                    NULL, &fixture->other_key, NULL, &error));
  g_assert_no_error (error);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  g_clear_pointer (&fixture->server, triage_test_server_free);
  g_free (fixture->user);
  g_free (fixture->bob);
  g_free (fixture->key);
  g_free (fixture->other_key);
}

/* ---- helpers ---- */

/* tests/atp/data/aitp/@name: a seed example with its comments removed. */
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

/* @text with the member at @path ("request_decision.options[0].url") set to
 * the JSON @value, or removed when @value is NULL. */
static char *
patched (const char *text,
         const char *path,
         const char *value)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_auto(GStrv) parts = g_strsplit (path, ".", -1);
  g_autoptr(GError) error = NULL;
  JsonNode *node;

  g_assert_true (json_parser_load_from_data (parser, text, -1, &error));
  node = json_parser_get_root (parser);
  for (guint i = 0; parts[i] != NULL; i++)
    {
      char *bracket = strchr (parts[i], '[');
      guint index = bracket ? (guint) g_ascii_strtoull (bracket + 1, NULL, 10) : 0;
      JsonObject *object = json_node_get_object (node);

      if (bracket != NULL)
        *bracket = '\0';
      if (parts[i + 1] == NULL)
        {
          if (value == NULL)
            json_object_remove_member (object, parts[i]);
          else
            json_object_set_member (object, parts[i], json_from_string (value, &error));
          g_assert_no_error (error);
          break;
        }
      node = json_object_get_member (object, parts[i]);
      if (bracket != NULL)
        node = json_array_get_element (json_node_get_array (node), index);
    }
  return json_to_string (json_parser_get_root (parser), FALSE);
}

static JsonObject *
post_decision (Fixture    *fixture,
               const char *key,
               const char *body)
{
  g_autoptr(SrvAnswer) answer = srv_request (fixture->server, "POST", DECISIONS, key, body);

  srv_assert_status (answer, 201, NULL);
  return srv_parse_object (answer->body);
}

static char *
post_example (Fixture    *fixture,
              const char *name)
{
  g_autofree char *text = load_example (name);
  g_autoptr(JsonObject) answer = post_decision (fixture, fixture->key, text);

  g_assert_cmpstr (json_object_get_string_member (answer, "status"), ==, "pending");
  return g_strdup (json_object_get_string_member (answer, "id"));
}

static JsonObject *
get_decision (Fixture    *fixture,
              const char *id,
              const char *query)
{
  g_autofree char *path = g_strconcat (DECISIONS "/", id, query, NULL);
  g_autoptr(SrvAnswer) answer = srv_request (fixture->server, "GET", path, fixture->key, NULL);

  srv_assert_status (answer, 200, NULL);
  return srv_parse_object (answer->body);
}

static SrvAnswer *
respond (Fixture    *fixture,
         const char *token,
         const char *id,
         const char *action_id,
         const char *data)
{
  g_autofree char *body = NULL;

  if (action_id != NULL)
    body = g_strdup_printf ("{\"notification_id\":\"%s\",\"action_id\":\"%s\",\"response_data\":%s}",
                            id, action_id, data);
  else
    body = g_strdup_printf ("{\"notification_id\":\"%s\",\"response_data\":%s}", id, data);
  return srv_request (fixture->server, "POST", "/api/v1/client/respond", token, body);
}

/* Every request alice can see, of every protocol. */
static gint64
stored_count (Fixture *fixture)
{
  g_autoptr(SrvAnswer) answer = srv_request (fixture->server, "GET",
                                             "/api/v1/client/notifications?protocols=all",
                                             fixture->user, NULL);
  g_autoptr(JsonObject) object = NULL;

  srv_assert_status (answer, 200, NULL);
  object = srv_parse_object (answer->body);
  return json_object_get_int_member (json_object_get_object_member (object, "pagination"),
                                     "total_count");
}

/* The envelope of @id in alice's list with protocols=aitp. */
static JsonObject *
listed_envelope (Fixture    *fixture,
                 const char *id)
{
  return srv_find_listed (fixture->server, fixture->user, "?protocols=aitp", id);
}

static gboolean
same_json (JsonNode   *node,
           const char *text)
{
  g_autoptr(JsonNode) other = json_from_string (text, NULL);

  return other != NULL && json_node_equal (node, other);
}

/* ---- the seed's examples ---- */

typedef struct
{
  const char *request;
  const char *title;        /* the envelope's context.title */
  const char *answer;       /* response_data the person sends */
  const char *decision;     /* the decision message the agent gets */
} Example;

static const Example examples[] = {
  { "seed-003-radio-request.json", "Select your favorite number:",
    "{\"options\":[{\"id\":\"7\"}]}",
    "{\"$schema\":\"https://aitp.dev/v1/decisions/schema.json\",\"decision\":"
    "{\"request_decision_id\":\"7c42b9d6-107d-4f5f-8f23-f9014c6efdae\","
    "\"options\":[{\"id\":\"7\",\"name\":\"7\"}]}}" },
  { "seed-003-confirmation-request.json", "Please confirm",
    "{\"options\":[{\"id\":\"2\",\"name\":\"No, that's not healthy\"}]}",
    "{\"$schema\":\"https://aitp.dev/v1/decisions/schema.json\",\"decision\":"
    "{\"request_decision_id\":\"27ed3deb-39cb-4968-90dc-9cb456a470f2\","
    "\"options\":[{\"id\":\"2\",\"name\":\"No, that's not healthy\"}]}}" },
  { "seed-003-checkbox-request.json", "Your Favorite Colors",
    "{\"options\":[{\"id\":\"red\"},{\"id\":\"blue\"}]}",
    "{\"$schema\":\"https://aitp.dev/v1/decisions/schema.json\",\"decision\":"
    "{\"request_decision_id\":\"50a53841-09ee-4b57-b5ec-561fe505f532\","
    "\"options\":[{\"id\":\"red\",\"name\":\"Red\"},{\"id\":\"blue\",\"name\":\"Blue\"}]}}" },
  { "seed-003-products-request.json", "Recommended Products",
    "{\"options\":[{\"id\":\"product_1\",\"quantity\":2}]}",
    "{\"$schema\":\"https://aitp.dev/v1/decisions/schema.json\",\"decision\":"
    "{\"request_decision_id\":\"bd9b613c-6fa5-4797-ba91-547f0903da9f\","
    "\"options\":[{\"id\":\"product_1\",\"name\":\"JBL Tour One M2\",\"quantity\":2}]}}" },
};

static void
test_examples (Fixture       *fixture,
               gconstpointer  data)
{
  for (guint i = 0; i < G_N_ELEMENTS (examples); i++)
    {
      const Example *e = &examples[i];
      g_autofree char *text = load_example (e->request);
      g_autoptr(JsonNode) sent = json_from_string (text, NULL);
      g_autofree char *id = post_example (fixture, e->request);
      g_autoptr(JsonObject) envelope = listed_envelope (fixture, id);
      g_autoptr(JsonObject) view = NULL;
      g_autoptr(SrvAnswer) answer = NULL;
      JsonObject *context;

      g_test_message ("%s", e->request);
      /* The envelope: the message as posted, a title the inbox can show, no actions. */
      g_assert_nonnull (envelope);
      g_assert_cmpstr (json_object_get_string_member (envelope, "protocol"), ==, "aitp");
      g_assert_true (same_json (json_object_get_member (envelope, "aitp"), text));
      g_assert_false (json_object_has_member (envelope, "actions"));
      context = json_object_get_object_member (envelope, "context");
      g_assert_cmpstr (json_object_get_string_member (context, "title"), ==, e->title);
      g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (envelope, "service"),
                                                      "name"), ==, "shop");

      /* The list read delivered it. */
      view = get_decision (fixture, id, NULL);
      g_assert_cmpstr (json_object_get_string_member (view, "status"), ==, "pending");
      g_assert_true (json_object_get_boolean_member (view, "delivered"));
      g_assert_false (json_object_has_member (view, "decision"));
      g_clear_pointer (&view, json_object_unref);

      /* Answered with or without an action id. */
      answer = respond (fixture, fixture->user, id, i % 2 ? "decision" : NULL, e->answer);
      srv_assert_status (answer, 200, NULL);
      g_assert_nonnull (strstr (answer->body, "\"action_id\":\"decision\""));

      view = get_decision (fixture, id, NULL);
      g_assert_cmpstr (json_object_get_string_member (view, "status"), ==, "answered");
      g_assert_cmpstr (json_object_get_string_member (view, "request_decision_id"), ==,
                       json_object_get_string_member (json_object_get_object_member (
                         json_node_get_object (sent), "request_decision"), "id"));
      g_assert_true (same_json (json_object_get_member (view, "decision"), e->decision));
      g_assert_false (json_object_has_member (view, "delivered"));
    }
  g_assert_cmpint (stored_count (fixture), ==, G_N_ELEMENTS (examples));
}

/* The title is the first line holding text, however many blank lines come
 * before it. */
static void
test_title_first_line (Fixture       *fixture,
                       gconstpointer  data)
{
  g_autofree char *text = load_example ("seed-003-radio-request.json");
  g_autofree char *blank = g_strnfill (70 * 2, 'n');
  g_autofree char *description = NULL;
  g_autofree char *body = NULL, *untitled = NULL;
  g_autoptr(JsonObject) created = NULL, envelope = NULL;

  for (guint i = 0; i < 70; i++)
    blank[2 * i] = '\\';
  description = g_strdup_printf ("\" %s first\\nsecond\\nthird\"", blank);
  body = patched (text, "request_decision.description", description);
  untitled = patched (body, "request_decision.title", NULL);
  created = post_decision (fixture, fixture->key, untitled);
  envelope = listed_envelope (fixture, json_object_get_string_member (created, "id"));
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (envelope, "context"),
                                                  "title"), ==, "first");
}

/* ATP-only clients never meet a decision; ATP's endpoints do not serve one. */
static void
test_kept_apart (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autofree char *id = post_example (fixture, "seed-003-radio-request.json");
  g_autofree char *atp_path = g_strconcat ("/api/v1/notifications/", id, NULL);
  g_autofree char *client_path = g_strconcat ("/api/v1/client/notifications/", id, NULL);
  g_autoptr(SrvAnswer) list = srv_request (fixture->server, "GET", "/api/v1/client/notifications",
                                           fixture->user, NULL);
  g_autoptr(SrvAnswer) atp_get = srv_request (fixture->server, "GET", atp_path, fixture->key, NULL);
  g_autoptr(SrvAnswer) client_get = srv_request (fixture->server, "GET", client_path, fixture->user,
                                                 NULL);
  g_autoptr(SrvAnswer) bob_get = srv_request (fixture->server, "GET", client_path, fixture->bob, NULL);
  g_autofree char *path = g_strconcat (DECISIONS "/", id, NULL);
  g_autoptr(SrvAnswer) other = srv_request (fixture->server, "GET", path, fixture->other_key, NULL);
  g_autoptr(SrvAnswer) bob_answer = respond (fixture, fixture->bob, id, NULL,
                                             "{\"options\":[{\"id\":\"7\"}]}");

  srv_assert_status (list, 200, NULL);
  g_assert_null (strstr (list->body, id));
  srv_assert_status (atp_get, 404, "NOTIFICATION_NOT_FOUND");
  /* By its id a client reads it whatever the protocol. */
  srv_assert_status (client_get, 200, NULL);
  g_assert_nonnull (strstr (client_get->body, "\"protocol\":\"aitp\""));
  /* Recipients as for ATP: bob was not asked. */
  srv_assert_status (bob_get, 404, "NOTIFICATION_NOT_FOUND");
  srv_assert_status (bob_answer, 404, "NOTIFICATION_NOT_FOUND");
  srv_assert_status (other, 403, "SERVICE_NOT_OWNER");
}

/* ---- every schema rule: refused, named, nothing stored ---- */

typedef struct
{
  const char *example;
  const char *path;
  const char *value;      /* NULL: removed */
  guint       status;
  const char *code;
  const char *field;
  const char *message;
} Refusal;

#define P "seed-003-products-request.json"
#define R "seed-003-radio-request.json"
#define O "request_decision.options[0]."
#define Q "request_decision.options[0].quote."
#define PP "request_decision.options[0].quote.payment_plans[0]."

static const Refusal refusals[] = {
  { R, "$schema", NULL, 400, "MISSING_REQUIRED_FIELD", "$schema", "$schema: required field is missing" },
  { R, "$schema", "\"aitp-02\"", 400, "INVALID_FIELD_VALUE", "$schema", "$schema: must be an absolute URI" },
  { R, "request_decision", NULL, 400, "MISSING_REQUIRED_FIELD", "request_decision", "request_decision: required field is missing" },
  { R, "request_decision.id", NULL, 400, "MISSING_REQUIRED_FIELD", "request_decision.id", "request_decision.id: required field is missing" },
  { R, "request_decision.id", "42", 400, "INVALID_FIELD_VALUE", "request_decision.id", "must be a non-empty string, got 42" },
  { R, "request_decision.type", "\"select\"", 400, "INVALID_FIELD_VALUE", "request_decision.type", "must be one of radio, checkbox, confirmation, products, got \"select\"" },
  { R, "request_decision.options", NULL, 400, "MISSING_REQUIRED_FIELD", "request_decision.options", "required field is missing" },
  { R, "request_decision.options", "[]", 400, "INVALID_FIELD_VALUE", "request_decision.options", "must hold at least one option" },
  { R, "request_decision.options[1].id", NULL, 400, "MISSING_REQUIRED_FIELD", "request_decision.options[1].id", "required field is missing" },
  { R, "request_decision.options[1].id", "\"0\"", 400, "INVALID_FIELD_VALUE", "request_decision.options[1].id", "duplicate option id \"0\"" },
  { R, "request_decision.options[1].name", "7", 400, "INVALID_FIELD_VALUE", "request_decision.options[1].name", "must be a string, got 7" },
  { P, O "image_url", "\"headphones1.jpg\"", 400, "INVALID_FIELD_VALUE", O "image_url", "must be an absolute URI" },
  { P, O "url", "\"product1\"", 400, "INVALID_FIELD_VALUE", O "url", "must be an absolute URI" },
  { P, O "five_star_rating", "5.5", 400, "INVALID_FIELD_VALUE", O "five_star_rating", "must be a number from 0 to 5, got 5.5" },
  { P, O "reviews_count", "132.5", 400, "INVALID_FIELD_VALUE", O "reviews_count", "must be an integer ≥ 0, got 132.5" },
  { P, O "variants", "{}", 400, "INVALID_FIELD_VALUE", O "variants", "must be an array, got an object" },
  { P, O "variants", "[{\"name\":\"Black\"}]", 400, "MISSING_REQUIRED_FIELD", O "variants[0].id", "required field is missing" },
  { P, Q "type", "\"Offer\"", 400, "INVALID_FIELD_VALUE", Q "type", "must be \"Quote\", got \"Offer\"" },
  { P, Q "quote_id", NULL, 400, "MISSING_REQUIRED_FIELD", Q "quote_id", "required field is missing" },
  { P, Q "payee_id", NULL, 400, "MISSING_REQUIRED_FIELD", Q "payee_id", "required field is missing" },
  { P, Q "payment_plans", NULL, 400, "MISSING_REQUIRED_FIELD", Q "payment_plans", "required field is missing" },
  { P, Q "valid_until", "\"next week\"", 400, "INVALID_FIELD_VALUE", Q "valid_until", "must be an RFC 3339 date-time" },
  { P, PP "plan_type", "\"subscription\"", 400, "INVALID_FIELD_VALUE", PP "plan_type", "must be \"one-time\", got \"subscription\"" },
  { P, PP "amount", "\"199.5\"", 400, "INVALID_FIELD_VALUE", PP "amount", "must be a number, got \"199.5\"" },
  { P, PP "currency", "\"EUR\"", 400, "INVALID_FIELD_VALUE", PP "currency", "must be \"USD\", got \"EUR\"" },
  { P, PP "plan_id", NULL, 400, "MISSING_REQUIRED_FIELD", PP "plan_id", "required field is missing" },
  { P, Q "valid_until", "\"2020-01-01T00:00:00Z\"", 422, "CONSTRAINT_VIOLATION", "request_decision.options", "the quote of every product has expired" },
  { R, "x-triage", "{\"deadline\":\"2020-01-01T00:00:00Z\"}", 400, "INVALID_FIELD_VALUE", "x-triage.deadline", "x-triage.deadline: must be in the future" },
  { R, "x-triage", "{\"deadline\":\"in an hour\"}", 400, "INVALID_FIELD_VALUE", "x-triage.deadline", "must be an RFC 3339 date-time" },
  { R, "x-triage", "{\"project\":42}", 400, "INVALID_FIELD_VALUE", "x-triage.project", "must be a non-empty string" },
  { R, "x-triage", "{\"priority\":\"high\"}", 400, "INVALID_FIELD_VALUE", "x-triage.priority", "unknown member (x-triage has deadline, project and confirm)" },
};

static void
test_refusals (Fixture       *fixture,
               gconstpointer  data)
{
  struct { const char *body; guint status; const char *code; } raw[] = {
    { "{\"$schema\":", 400, "INVALID_JSON" },
    { "[1]", 400, "INVALID_REQUEST" },
    { "{\"$schema\":\"https://aitp.dev/v1/decisions/schema.json\",\"request_decision\":{"
      "\"id\":\"a\",\"options\":[{\"id\":\"x\"}]},\"request_decision\":{}}", 400, "INVALID_JSON" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (refusals); i++)
    {
      const Refusal *r = &refusals[i];
      g_autofree char *text = load_example (r->example);
      g_autofree char *body = patched (text, r->path, r->value);
      g_autoptr(SrvAnswer) answer = srv_request (fixture->server, "POST", DECISIONS, fixture->key,
                                                 body);

      g_test_message ("refusal %u: %s", i, r->path);
      srv_assert_status (answer, r->status, r->code);
      srv_assert_field (answer, r->field);
      srv_assert_message (answer, r->message);
    }
  for (guint i = 0; i < G_N_ELEMENTS (raw); i++)
    {
      g_autoptr(SrvAnswer) answer = srv_request (fixture->server, "POST", DECISIONS, fixture->key,
                                                 raw[i].body);

      srv_assert_status (answer, raw[i].status, raw[i].code);
    }
  g_assert_cmpint (stored_count (fixture), ==, 0);
}

/* An envelope must fit a WebSocket frame as it is stored and sent, not only
 * as posted: numbers are written in full, so a body under the limit can make
 * an envelope several times over it ("1e14" is 100000000000000). */
static void
test_envelope_measured_as_written (Fixture       *fixture,
                                   gconstpointer  data)
{
  g_autoptr(GString) body = g_string_new ("{\"$schema\":\"https://aitp.dev/v1/decisions/schema.json\","
                                          "\"request_decision\":{\"id\":\"numbers\","
                                          "\"options\":[{\"id\":\"a\"}]},\"x-counts\":[1e14");
  g_autoptr(SrvAnswer) answer = NULL;

  while (body->len < ATP_MAX_NOTIFICATION_SIZE / 2)
    g_string_append (body, ",1e14");
  g_string_append (body, "]}");
  answer = srv_request (fixture->server, "POST", DECISIONS, fixture->key, body->str);
  srv_assert_status (answer, 413, "PAYLOAD_TOO_LARGE");
  srv_assert_field (answer, "request_decision");
  srv_assert_message (answer, "numbers written in full");
  g_assert_cmpint (stored_count (fixture), ==, 0);
}

/* ---- retries ---- */

static void
test_retries (Fixture       *fixture,
              gconstpointer  data)
{
  g_autofree char *text = load_example ("seed-003-checkbox-request.json");
  g_autofree char *compact = patched (text, "request_decision.title", "\"Your Favorite Colors\"");
  g_autofree char *changed = patched (text, "request_decision.title", "\"Colours\"");
  g_autoptr(SrvAnswer) first = srv_request (fixture->server, "POST", DECISIONS, fixture->key, text);
  g_autoptr(SrvAnswer) again = srv_request (fixture->server, "POST", DECISIONS, fixture->key, text);
  g_autoptr(SrvAnswer) same = srv_request (fixture->server, "POST", DECISIONS, fixture->key,
                                           compact);
  g_autoptr(SrvAnswer) conflict = srv_request (fixture->server, "POST", DECISIONS, fixture->key,
                                               changed);
  g_autoptr(SrvAnswer) other = srv_request (fixture->server, "POST", DECISIONS, fixture->other_key,
                                            changed);

  srv_assert_status (first, 201, NULL);
  /* The same body (as JSON) again: the first answer, byte for byte. */
  srv_assert_status (again, 201, NULL);
  g_assert_cmpstr (again->body, ==, first->body);
  srv_assert_status (same, 201, NULL);
  g_assert_cmpstr (same->body, ==, first->body);
  /* Another body with the id: a conflict naming it, nothing stored. */
  srv_assert_status (conflict, 409, "NOTIFICATION_ALREADY_EXISTS");
  srv_assert_field (conflict, "request_decision.id");
  srv_assert_message (conflict, "already asked for a decision \"50a53841-09ee-4b57-b5ec-561fe505f532\"");
  /* Ids are the agent's own: another service may use the same. */
  srv_assert_status (other, 201, NULL);
  g_assert_cmpint (stored_count (fixture), ==, 2);
}

/* ---- answers ---- */

static void
test_answers_checked (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autofree char *radio = post_example (fixture, "seed-003-radio-request.json");
  struct
  {
    const char *action_id;
    const char *data;
    guint       status;
    const char *code;
    const char *field;
    const char *message;
  } cases[] = {
    { "ok", "{\"options\":[{\"id\":\"7\"}]}", 400, "INVALID_ACTION_ID", "action_id", "a decision is answered with \"decision\"" },
    { NULL, "null", 400, "INVALID_RESPONSE_DATA", "response_data", "must be the decision" },
    { NULL, "{\"options\":[]}", 400, "INVALID_RESPONSE_DATA", "response_data.options", "at least one selected option" },
    { NULL, "{\"options\":[{\"id\":\"7\",\"price\":1}]}", 400, "INVALID_RESPONSE_DATA", "response_data.options[0].price", "unknown member" },
    { NULL, "{\"options\":[{\"id\":\"7\"},{\"id\":\"0\"}]}", 422, "CONSTRAINT_VIOLATION", "response_data.options", "a radio decision chooses exactly one option, got 2" },
    { NULL, "{\"options\":[{\"id\":\"8\"}]}", 422, "CONSTRAINT_VIOLATION", "response_data.options[0].id", "\"8\" is no option of the request" },
    { NULL, "{\"options\":[{\"id\":\"7\",\"quantity\":1}]}", 422, "CONSTRAINT_VIOLATION", "response_data.options[0].quantity", "only a products decision has quantities" },
  };
  g_autoptr(SrvAnswer) first = NULL, retry = NULL, late = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(SrvAnswer) answer = respond (fixture, fixture->user, radio, cases[i].action_id,
                                             cases[i].data);

      g_test_message ("answer %u: %s", i, cases[i].data);
      srv_assert_status (answer, cases[i].status, cases[i].code);
      srv_assert_field (answer, cases[i].field);
      srv_assert_message (answer, cases[i].message);
    }
  {
    g_autoptr(JsonObject) view = get_decision (fixture, radio, NULL);

    g_assert_cmpstr (json_object_get_string_member (view, "status"), ==, "pending");
  }

  first = respond (fixture, fixture->user, radio, NULL, "{\"options\":[{\"id\":\"0\"}]}");
  srv_assert_status (first, 200, NULL);
  /* The same answer again (names filled in by the server or not): the first answer. */
  retry = respond (fixture, fixture->user, radio, "decision",
                   "{\"options\":[{\"id\":\"0\",\"name\":\"0\"}]}");
  srv_assert_status (retry, 200, NULL);
  g_assert_cmpstr (retry->body, ==, first->body);
  late = respond (fixture, fixture->user, radio, NULL, "{\"options\":[{\"id\":\"100\"}]}");
  srv_assert_status (late, 409, "NOTIFICATION_ALREADY_RESPONDED");
}

/* A quote that expires while the request waits: that product can no longer
 * be chosen, the others can. */
static void
test_quote_expires (Fixture       *fixture,
                    gconstpointer  data)
{
  /* Two posts must be read before it: the first waits for its commit,
   * which a disk shared with builds can hold up for seconds (with 2.1 s
   * fsyncs a 2 s quote had expired by the second post). */
  g_autoptr(GDateTime) start = g_date_time_new_now_utc ();
  g_autoptr(GDateTime) soon = g_date_time_add_seconds (start, 6);
  g_autofree char *soon_text = atp_format_timestamp (soon);
  g_autofree char *until = g_strdup_printf ("\"%s\"", soon_text);
  g_autofree char *text = load_example ("seed-003-products-request.json");
  g_autofree char *two = patched (text, "request_decision.options",
                                  "[{\"id\":\"a\",\"name\":\"A\",\"quote\":{\"type\":\"Quote\",\"quote_id\":\"q\","
                                  "\"payee_id\":\"p\",\"payment_plans\":[],\"valid_until\":\"2099-01-01T00:00:00Z\"}},"
                                  "{\"id\":\"b\",\"name\":\"B\"}]");
  g_autofree char *body = patched (two, "request_decision.options[0].quote.valid_until", until);
  g_autoptr(JsonObject) created = post_decision (fixture, fixture->key, body);
  const char *id = json_object_get_string_member (created, "id");
  g_autofree char *one = patched (text, "request_decision.options",
                                  "[{\"id\":\"a\",\"name\":\"A\",\"quote\":{\"type\":\"Quote\",\"quote_id\":\"q\","
                                  "\"payee_id\":\"p\",\"payment_plans\":[],\"valid_until\":\"2099-01-01T00:00:00Z\"}}]");
  g_autofree char *only = patched (one, "request_decision.options[0].quote.valid_until", until);
  g_autofree char *single = patched (only, "request_decision.id", "\"single\"");
  g_autofree char *fresh = patched (single, "request_decision.id", "\"single-again\"");
  g_autoptr(SrvAnswer) first = srv_request (fixture->server, "POST", DECISIONS, fixture->key, single);
  g_autoptr(SrvAnswer) expired = NULL, fine = NULL, retry = NULL, late = NULL;
  g_autoptr(GDateTime) after = g_date_time_add_seconds (soon, 0.2);

  while (TRUE)
    {
      g_autoptr(GDateTime) now = g_date_time_new_now_utc ();

      if (g_date_time_compare (now, after) > 0)
        break;
      srv_sleep (100);
    }
  expired = respond (fixture, fixture->user, id, NULL, "{\"options\":[{\"id\":\"a\"}]}");
  srv_assert_status (expired, 422, "CONSTRAINT_VIOLATION");
  srv_assert_field (expired, "response_data.options[0].id");
  srv_assert_message (expired, "the quote of \"a\" expired at");
  fine = respond (fixture, fixture->user, id, NULL, "{\"options\":[{\"id\":\"b\"}]}");
  srv_assert_status (fine, 200, NULL);

  /* A retry of a post whose every quote has expired since gets the first
   * answer; the same request posted anew cannot be answered. */
  srv_assert_status (first, 201, NULL);
  retry = srv_request (fixture->server, "POST", DECISIONS, fixture->key, single);
  srv_assert_status (retry, 201, NULL);
  g_assert_cmpstr (retry->body, ==, first->body);
  late = srv_request (fixture->server, "POST", DECISIONS, fixture->key, fresh);
  srv_assert_status (late, 422, "CONSTRAINT_VIOLATION");
  srv_assert_field (late, "request_decision.options");
}

/* A products request whose every choice is quoted ends when the last quote
 * expires, before its x-triage.deadline or without one: the person could
 * choose nothing after it and AITP cannot decline. */
static void
test_quotes_end (Fixture       *fixture,
                 gconstpointer  data)
{
  /* Read before the quote expires also on a disk shared with builds (see
   * test_quote_expires). */
  g_autoptr(GDateTime) start = g_date_time_new_now_utc ();
  g_autoptr(GDateTime) soon = g_date_time_add_seconds (start, 4);
  g_autofree char *soon_text = atp_format_timestamp (soon);
  g_autofree char *until = g_strdup_printf ("\"%s\"", soon_text);
  g_autofree char *text = load_example ("seed-003-products-request.json");
  g_autofree char *body = patched (text, "request_decision.options[0].quote.valid_until", until);
  g_autofree char *later = patched (body, "x-triage", "{\"deadline\":\"2099-01-01T00:00:00Z\"}");
  g_autofree char *other = patched (later, "request_decision.id", "\"with-deadline\"");
  g_autoptr(JsonObject) created = post_decision (fixture, fixture->key, body);
  g_autoptr(JsonObject) second = post_decision (fixture, fixture->key, other);
  const char *ids[] = { json_object_get_string_member (created, "id"),
                        json_object_get_string_member (second, "id") };

  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    {
      /* Under the client's 30 s timeout, so that a request left pending
       * is said as such. */
      g_autoptr(JsonObject) view = get_decision (fixture, ids[i], "?wait=20");
      g_autoptr(SrvAnswer) late = respond (fixture, fixture->user, ids[i], NULL,
                                           "{\"options\":[{\"id\":\"product_1\"}]}");

      g_assert_cmpstr (json_object_get_string_member (view, "status"), ==, "expired");
      g_assert_cmpstr (json_object_get_string_member (view, "deadline"), ==, soon_text);
      srv_assert_status (late, 409, "NOTIFICATION_EXPIRED");
    }
}

/* ---- the lifecycle ---- */

static void
test_lifecycle (Fixture       *fixture,
                gconstpointer  data)
{
  g_autofree char *text = load_example ("seed-003-confirmation-request.json");
  /* Two posts (each waiting for its commit) and two reads come before it:
   * seconds on a loaded machine (see test_quote_expires). */
  g_autoptr(GDateTime) start = g_date_time_new_now_utc ();
  g_autoptr(GDateTime) due = g_date_time_add_seconds (start, 8);
  g_autofree char *due_text = atp_format_timestamp (due);
  g_autofree char *extension = g_strdup_printf ("{\"deadline\":\"%s\",\"project\":\"kitchen\","
                                                "\"confirm\":true}", due_text);
  g_autofree char *expiring = patched (text, "x-triage", extension);
  g_autofree char *withdrawn_text = patched (text, "request_decision.id", "\"withdraw-me\"");
  g_autoptr(JsonObject) created = post_decision (fixture, fixture->key, expiring);
  g_autoptr(JsonObject) other = post_decision (fixture, fixture->key, withdrawn_text);
  const char *id = json_object_get_string_member (created, "id");
  const char *withdrawn = json_object_get_string_member (other, "id");
  g_autoptr(JsonObject) view = NULL;
  g_autoptr(JsonObject) envelope = NULL;
  g_autofree char *path = g_strconcat (DECISIONS "/", withdrawn, NULL);
  g_autoptr(SrvAnswer) patch = NULL, again = NULL, late = NULL, bad = NULL, retry = NULL;

  /* Not yet read by any client: pending, not delivered; deadline and project from x-triage. */
  view = get_decision (fixture, id, NULL);
  g_assert_cmpstr (json_object_get_string_member (view, "status"), ==, "pending");
  g_assert_false (json_object_get_boolean_member (view, "delivered"));
  g_assert_cmpstr (json_object_get_string_member (view, "deadline"), ==, due_text);
  g_clear_pointer (&view, json_object_unref);
  envelope = listed_envelope (fixture, id);
  g_assert_cmpstr (json_object_get_string_member (envelope, "deadline"), ==, due_text);
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (envelope, "context"),
                                                  "project"), ==, "kitchen");

  /* A long-poll ends when the deadline passes. */
  view = get_decision (fixture, id, "?wait=30");
  g_assert_cmpstr (json_object_get_string_member (view, "status"), ==, "expired");
  g_assert_false (json_object_has_member (view, "decision"));
  late = respond (fixture, fixture->user, id, NULL, "{\"options\":[{\"id\":\"1\"}]}");
  srv_assert_status (late, 409, "NOTIFICATION_EXPIRED");
  /* The agent's retry of its post (the first answer was lost) gets the first
   * answer, also now that the deadline has passed. */
  retry = srv_request (fixture->server, "POST", DECISIONS, fixture->key, expiring);
  srv_assert_status (retry, 201, NULL);
  g_assert_nonnull (strstr (retry->body, id));

  /* Withdrawn by the agent. */
  bad = srv_request (fixture->server, "PATCH", path, fixture->key, "{\"status\":\"answered\"}");
  srv_assert_status (bad, 400, "INVALID_STATUS");
  srv_assert_field (bad, "status");
  patch = srv_request (fixture->server, "PATCH", path, fixture->key,
                       "{\"status\":\"invalidated\",\"reason\":\"no longer needed\"}");
  srv_assert_status (patch, 200, NULL);
  g_assert_nonnull (strstr (patch->body, "\"status\":\"invalidated\""));
  again = srv_request (fixture->server, "PATCH", path, fixture->key, "{\"status\":\"invalidated\"}");
  srv_assert_status (again, 409, "NOTIFICATION_INVALIDATED");
  g_clear_pointer (&late, srv_answer_free);
  late = respond (fixture, fixture->user, withdrawn, NULL, "{\"options\":[{\"id\":\"1\"}]}");
  srv_assert_status (late, 409, "NOTIFICATION_INVALIDATED");
}

/* A long-poll ends as soon as the person answers. */
static void
test_wait (Fixture       *fixture,
           gconstpointer  data)
{
  g_autofree char *id = post_example (fixture, "seed-003-radio-request.json");
  g_autofree char *path = g_strconcat (DECISIONS "/", id, "?wait=30", NULL);
  g_autofree char *url = g_strconcat (triage_test_server_get_url (fixture->server), path, NULL);
  g_autoptr(SoupMessage) msg = soup_message_new ("GET", url);
  g_autofree char *auth = g_strconcat ("Bearer ", fixture->key, NULL);
  g_autoptr(SrvAnswer) answer = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) view = NULL;
  SrvWait wait = { NULL };
  gint64 started = g_get_monotonic_time ();

  soup_message_headers_replace (soup_message_get_request_headers (msg), "Authorization", auth);
  soup_session_send_and_read_async (triage_test_server_get_session (fixture->server), msg,
                                    G_PRIORITY_DEFAULT, NULL, srv_result_cb, &wait);
  srv_sleep (300);
  g_assert_null (wait.result);
  answer = respond (fixture, fixture->user, id, NULL, "{\"options\":[{\"id\":\"100\"}]}");
  srv_assert_status (answer, 200, NULL);
  srv_wait_until (wait.result != NULL, "the long-poll's answer");
  bytes = soup_session_send_and_read_finish (triage_test_server_get_session (fixture->server),
                                             wait.result, &error);
  g_object_unref (wait.result);
  g_assert_no_error (error);
  g_assert_cmpuint (soup_message_get_status (msg), ==, 200);
  {
    g_autofree char *text = g_strndup (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));

    view = srv_parse_object (text);
  }
  g_assert_cmpstr (json_object_get_string_member (view, "status"), ==, "answered");
  g_assert_true (g_get_monotonic_time () - started < 25 * G_USEC_PER_SEC);
}

/* Sends count for ATP and AITP alike (--limit sends=40). */
static void
test_rate_limit (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autofree char *text = load_example ("seed-003-radio-request.json");
  guint accepted = 0, limited = 0;
  gint64 started = g_get_monotonic_time ();
  double seconds;

  for (guint i = 0; i < 50; i++)
    {
      g_autofree char *rd = g_strdup_printf ("\"rd-%u\"", i);
      g_autofree char *body = patched (text, "request_decision.id", rd);
      g_autoptr(SrvAnswer) answer = i % 2 ? srv_request (fixture->server, "POST", DECISIONS,
                                                         fixture->key, body)
                                          : srv_request (fixture->server, "POST",
                                                         "/api/v1/notifications", fixture->key,
                                                         "{\"context\":{\"title\":\"T\",\"description\":\"D\"},"
                                                         "\"actions\":[{\"id\":\"ok\",\"label\":\"OK\","
                                                         "\"response_type\":\"simple\"}]}");

      if (answer->status == 201)
        accepted++;
      else
        {
          srv_assert_status (answer, 429, "RATE_LIMIT_EXCEEDED");
          limited++;
        }
    }
  /* 40 at once, then one every 1.5 s: a slow run (sanitizers, a loaded
   * machine) earns a few more. */
  seconds = (g_get_monotonic_time () - started) / (double) G_USEC_PER_SEC;
  g_assert_cmpuint (accepted, <=, 41 + (guint) (seconds / 1.5));
  g_assert_cmpuint (limited, >=, 9 - MIN (9, (guint) (seconds / 1.5)));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, options, func) \
  g_test_add (path, Fixture, options, fixture_set_up, func, fixture_tear_down)
  ADD ("/server/aitp/examples", NULL, test_examples);
  ADD ("/server/aitp/title-first-line", NULL, test_title_first_line);
  ADD ("/server/aitp/kept-apart", NULL, test_kept_apart);
  ADD ("/server/aitp/refusals", NULL, test_refusals);
  ADD ("/server/aitp/envelope-measured-as-written", &big_requests, test_envelope_measured_as_written);
  ADD ("/server/aitp/retries", NULL, test_retries);
  ADD ("/server/aitp/answers-checked", NULL, test_answers_checked);
  ADD ("/server/aitp/quote-expires", NULL, test_quote_expires);
  ADD ("/server/aitp/quotes-end", NULL, test_quotes_end);
  ADD ("/server/aitp/lifecycle", NULL, test_lifecycle);
  ADD ("/server/aitp/wait", NULL, test_wait);
  ADD ("/server/aitp/rate-limit", &sends_limited, test_rate_limit);

  return g_test_run ();
}
