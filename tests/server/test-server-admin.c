/* test-server-admin.c — a registration that could never be served is refused
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A callback_url without a host ("https://", "https:///hook") or with one no
 * resolver takes ("https://exa mple.com/": GUri keeps the space) was taken,
 * and every webhook to it failed for good six attempts later: refused now
 * with 400 INVALID_CALLBACK_URL, naming the field. An empty webhook_secret
 * was taken too, and the webhooks signed with an empty key, which anyone
 * can: 400 INVALID_FIELD_VALUE now. A control character in a callback_url,
 * as it is or percent-encoded, was taken too, and the webhook's request line
 * carried it decoded ("POST /hook\r\nX-Injected: 1"): refused with 400
 * INVALID_CALLBACK_URL, naming the character. A service's name that shows
 * as nothing, or holds a control or a bidirectional control (which turns
 * the text around it: "evil\u202egnp.exe" reads "evilexe.png"), passed for
 * a sender it was not: 400 INVALID_FIELD_VALUE, naming the problem; a
 * user's name (what people see of a colleague) was not checked at all, and
 * is held to the same rule now. None registers anything. The checks come
 * before the database: SQLite only.
 */

#define G_LOG_DOMAIN "test-server-admin"

#include "server-test-util.h"

static SrvAnswer *
register_service (TriageTestServer *server,
                  const char       *body)
{
  return srv_request (server, "POST", "/api/v1/services",
                      triage_test_server_get_admin_token (server), body);
}

static void
test_callback_url_host (void)
{
  const char * const refused[] = {
    "https://", "https:///hook", "https://exa mple.com/hook", "https://host%20x/hook",
    "https://:8443/hook",
  };
  const char * const taken[] = {
    "https://hooks.example.com/hook", "https://[::1]:8443/hook", "https://10.0.0.7/hook",
    "https://b\xc3\xbc" "cher.example/hook", "http://127.0.0.1:9/hook",
  };
  g_autoptr(GError) error = NULL;
  g_autoptr(TriageTestServer) server = triage_test_server_new (NULL, &error);

  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
    {
      g_autofree char *body = g_strdup_printf ("{\"name\":\"bot\",\"callback_url\":\"%s\"}",
                                               refused[i]);
      g_autoptr(SrvAnswer) answer = register_service (server, body);

      g_test_message ("%s", refused[i]);
      srv_assert_status (answer, 400, "INVALID_CALLBACK_URL");
      srv_assert_field (answer, "callback_url");
      srv_assert_message (answer, "must name a host");
    }
  for (guint i = 0; i < G_N_ELEMENTS (taken); i++)
    {
      /* The name was not taken by any refused one. */
      g_autofree char *body = g_strdup_printf ("{\"name\":\"%s\",\"callback_url\":\"%s\"}",
                                               i == 0 ? "bot" : taken[i], taken[i]);
      g_autoptr(SrvAnswer) answer = register_service (server, body);

      g_test_message ("%s", taken[i]);
      srv_assert_status (answer, 201, NULL);
    }
  g_assert_true (triage_test_server_stop (server));
}

/* Each as JSON text (raw characters escaped), and the character named. A
 * C1 control (U+0080–U+009F) is one too: GUri percent-encoded a raw one. */
static void
test_callback_url_controls (void)
{
  const struct { const char *url, *named; } refused[] = {
    { "https://h.example/a%0D%0AX-Injected:%201", "a carriage return (%0D) at byte 20" },
    { "https://h.example/a?q=%0a", "a line feed (%0a) at byte 23" },
    { "https://h.example/a%09b", "a tab (%09)" },
    { "https://h.example/a%00b", "a NUL (%00)" },
    { "https://h.example/a%7Fb", "a DEL (%7F)" },
    { "https://h.example/a%1Bb", "a control character (%1B)" },
    { "https://h.example/a\\r\\nX: 1", "a carriage return (U+000D) at byte 20" },
    { "https://h.example/a\\tb", "a tab (U+0009)" },
    { "https://h.example/a\\u007fb", "a DEL (U+007F)" },
    { "http://127.0.0.1:9/a%0Ab", "a line feed (%0A)" },
    /* C1: raw, GUri percent-encoded them and took the URL. */
    { "https://h.example/a\\u0085b", "a C1 control character (U+0085) at byte 20" },
    { "https://h.example/\\u009b[8m", "a C1 control character (U+009B)" },
    { "https://h.example/a?q=\\u0080", "a C1 control character (U+0080)" },
    { "https://h.example/a%C2%85b", "a C1 control character (%C2%85, U+0085) at byte 20" },
    { "https://h.example/a%c2%9fb", "(%c2%9f, U+009F)" },
  };
  /* More registrations than the 10 an hour the limit lets by default. */
  const char * const args[] = { "--limit", "registrations=30", NULL };
  const TriageTestServerOptions opts = { .extra_args = args };
  g_autoptr(GError) error = NULL;
  g_autoptr(TriageTestServer) server = triage_test_server_new (&opts, &error);
  g_autoptr(SrvAnswer) taken = NULL;

  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
    {
      g_autofree char *body = g_strdup_printf ("{\"name\":\"bot\",\"callback_url\":\"%s\"}",
                                               refused[i].url);
      g_autoptr(SrvAnswer) answer = register_service (server, body);

      g_test_message ("%s", refused[i].url);
      srv_assert_status (answer, 400, "INVALID_CALLBACK_URL");
      srv_assert_field (answer, "callback_url");
      srv_assert_message (answer, "must not contain control characters");
      srv_assert_message (answer, refused[i].named);
    }
  /* Percent-encoded characters that are not controls are a URL's own. */
  taken = register_service (server, "{\"name\":\"bot\",\"callback_url\":"
                                    "\"https://h.example/a%2Fb%20c?x=%26y%7E%C2%A0\\u00e9\"}");
  srv_assert_status (taken, 201, NULL);
  g_assert_true (triage_test_server_stop (server));
}

/* Names, each as JSON text, and what the message says of it. */
static const struct { const char *name, *said; } refused_names[] = {
  { "\\u200b", "name must show something" },
  { " \\t ", "name must show something" },
  { "\\u2800\\u3164\\u00ad", "name must show something" },
  { "a\\nb", "name must not contain control characters" },
  { "a\\u007fb", "it has U+007F at character 2" },
  { "ab\\u0085", "it has U+0085 at character 3" },
  { "evil\\u202egnp.exe", "name must not contain bidirectional controls" },
  { "evil\\u202egnp.exe", "it has U+202E at character 5" },
  { "x\\u202ay", "U+202A" },
  { "x\\u2066y", "U+2066" },
  { "x\\u2069y", "U+2069" },
  { "x\\u200ey", "U+200E" },
  { "x\\u200fy", "U+200F" },
};
static const char * const taken_names[] = {
  "deploy-bot", "caf\\u00e9 bot", "\\u0627\\u0644\\u0628\\u0648\\u062a",
  "\\ud83e\\udd16 bot", "a\\u200db",
};

/* Every name of refused_names[] is refused by POST @path, nothing made,
 * and every one of taken_names[] taken; each body has a member @unique
 * too, different in every request (a user's id). */
static void
assert_names_checked (const char *path,
                      const char *unique)
{
  const char * const args[] = { "--limit", "registrations=20", NULL };
  const TriageTestServerOptions opts = { .extra_args = args };
  g_autoptr(GError) error = NULL;
  g_autoptr(TriageTestServer) server = triage_test_server_new (&opts, &error);
  const char *admin = triage_test_server_get_admin_token (server);
  guint i = 0;

  g_assert_no_error (error);
  for (guint r = 0; r < G_N_ELEMENTS (refused_names); r++, i++)
    {
      g_autofree char *body = g_strdup_printf ("{\"%s\":\"n%u\",\"name\":\"%s\"}", unique, i,
                                               refused_names[r].name);
      g_autoptr(SrvAnswer) answer = srv_request (server, "POST", path, admin, body);

      g_test_message ("%s", refused_names[r].name);
      srv_assert_status (answer, 400, "INVALID_FIELD_VALUE");
      srv_assert_field (answer, "name");
      srv_assert_message (answer, refused_names[r].said);
    }
  for (guint t = 0; t < G_N_ELEMENTS (taken_names); t++, i++)
    {
      g_autofree char *body = g_strdup_printf ("{\"%s\":\"n%u\",\"name\":\"%s\"}", unique, i,
                                               taken_names[t]);
      g_autoptr(SrvAnswer) answer = srv_request (server, "POST", path, admin, body);

      g_test_message ("%s", taken_names[t]);
      srv_assert_status (answer, 201, NULL);
    }
  g_assert_true (triage_test_server_stop (server));
}

static void
test_service_names (void)
{
  assert_names_checked ("/api/v1/services", "description");
}

/* A user's name is what people see of a colleague: the same rule. (None
 * refused was made: each refused id is taken afterwards.) */
static void
test_user_names (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TriageTestServer) server = NULL;
  g_autoptr(SrvAnswer) refused = NULL, empty = NULL, again = NULL, nameless = NULL;

  assert_names_checked ("/api/v1/admin/users", "id");

  server = triage_test_server_new (NULL, &error);
  g_assert_no_error (error);
  refused = srv_request (server, "POST", "/api/v1/admin/users",
                         triage_test_server_get_admin_token (server),
                         "{\"id\":\"ann\",\"name\":\"Ann\\u202e\"}");
  srv_assert_status (refused, 400, "INVALID_FIELD_VALUE");
  srv_assert_message (refused, "it has U+202E at character 4");
  /* Given, a name must show something (left out, it is not given). */
  empty = srv_request (server, "POST", "/api/v1/admin/users",
                       triage_test_server_get_admin_token (server),
                       "{\"id\":\"ann\",\"name\":\"\"}");
  srv_assert_status (empty, 400, "INVALID_FIELD_VALUE");
  srv_assert_field (empty, "name");
  srv_assert_message (empty, "name must show something");
  again = srv_request (server, "POST", "/api/v1/admin/users",
                       triage_test_server_get_admin_token (server),
                       "{\"id\":\"ann\",\"name\":\"Ann\"}");
  srv_assert_status (again, 201, NULL);
  /* The name may still be left out. */
  nameless = srv_request (server, "POST", "/api/v1/admin/users",
                          triage_test_server_get_admin_token (server), "{\"id\":\"bob\"}");
  srv_assert_status (nameless, 201, NULL);
  g_assert_true (triage_test_server_stop (server));
}

static void
test_empty_webhook_secret (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TriageTestServer) server = triage_test_server_new (NULL, &error);
  g_autoptr(SrvAnswer) empty = NULL, given = NULL, chosen = NULL;
  g_autoptr(JsonObject) made = NULL;

  g_assert_no_error (error);
  empty = register_service (server, "{\"name\":\"bot\",\"webhook_secret\":\"\"}");
  srv_assert_status (empty, 400, "INVALID_FIELD_VALUE");
  srv_assert_field (empty, "webhook_secret");
  srv_assert_message (empty, "webhook_secret must not be empty");
  /* Left out: one is made. */
  given = register_service (server, "{\"name\":\"bot\"}");
  srv_assert_status (given, 201, NULL);
  made = srv_parse_object (given->body);
  g_assert_true (g_str_has_prefix (json_object_get_string_member (made, "webhook_secret"),
                                   "whsec_"));
  chosen = register_service (server, "{\"name\":\"other\",\"webhook_secret\":\"s3cr3t\"}");
  srv_assert_status (chosen, 201, NULL);
  g_assert_true (triage_test_server_stop (server));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/server/admin/callback-url-host", test_callback_url_host);
  g_test_add_func ("/server/admin/callback-url-controls", test_callback_url_controls);
  g_test_add_func ("/server/admin/service-names", test_service_names);
  g_test_add_func ("/server/admin/user-names", test_user_names);
  g_test_add_func ("/server/admin/empty-webhook-secret", test_empty_webhook_secret);
  return g_test_run ();
}
