/* test-remote-servers.c — the application in remote mode, on other servers
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The whole app in-process, connected to a real triage-server on 127.0.0.1
 * with its user token in the real keyring (as test-remote leaves it), then
 * set to other servers in Preferences: requests and answers stay with the
 * server they came from, a rate limit's wait is shown on the answer it
 * holds, and a server whose certificate is not trusted is a configuration
 * error.
 */

#include "remote-test-common.h"
#include "triage-decision-view.h"
#include "triage-inbox-row.h"
#include "triage-request-banner.h"

/* How many of @ids the inbox holds. */
static guint
count_listed (TriageInboxModel *inbox,
              char            **ids,
              guint             n_ids)
{
  guint listed = 0;

  for (guint i = 0; i < n_ids; i++)
    listed += triage_inbox_model_lookup (inbox, ids[i]) != NULL;
  return listed;
}

/* Posts a one-button request to @to as the service of @key; returns its id. */
static char *
post_simple (TriageTestServer *to,
             const char       *key,
             const char       *title)
{
  g_autofree char *id = g_uuid_string_random ();
  g_autofree char *body = g_strdup_printf ("{\"id\": \"%s\", \"context\": {\"title\": \"%s\", \"description\": \"Test.\"},"
                                           " \"actions\": [{\"id\": \"yes\", \"label\": \"Yes\","
                                           " \"response_type\": \"simple\"}]}", id, title);
  g_autoptr(GError) error = NULL;
  guint status = 0;

  g_assert_true (triage_test_http (to, "POST", "/api/v1/notifications", key, body, &status, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (status, ==, 201);

  return g_steal_pointer (&id);
}

static gboolean
is_responded (TriageTestServer *on,
              const char       *key,
              const char       *id)
{
  g_autofree char *path = g_strconcat ("/api/v1/notifications/", id, NULL);
  g_autofree char *reply = NULL;
  guint status = 0;

  return triage_test_http (on, "GET", path, key, NULL, &status, &reply, NULL) && status == 200 &&
         strstr (reply, "\"status\":\"responded\"") != NULL;
}

static void
switch_to (TriageTestServer *to,
           const char       *token)
{
  TriagePreferencesWindow *preferences = remote_test_open_preferences ();

  remote_test_enter_server (preferences, triage_test_server_get_url (to), token);
  app_test_wait_for (remote_test_connection () == TRIAGE_CONNECTION_CONNECTED &&
                     g_strcmp0 (g_settings_get_string (remote_test_settings, "server-url"),
                                triage_test_server_get_url (to)) == 0,
                     APP_TEST_WAIT_MS);
  gtk_window_destroy (GTK_WINDOW (preferences));
}

/* Requests and answers belong to the server they came from: another server
 * shows its own inbox and is never sent the last one's answers, which are
 * delivered where they belong on the way back. And a lookup refused for now
 * (a rate limit) says nothing about what became of a request. */
static void
test_switch_servers (void)
{
  const char * const polling[] = { "--limit", "polling=3", NULL };
  const char * const recipients[] = { "alice", NULL };
  g_autoptr(TriageTestServer) other = NULL;
  g_autoptr(JsonNode) null = json_node_new (JSON_NODE_NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *other_token = NULL;
  g_autofree char *other_key = NULL;
  g_autofree char *here = NULL;
  TriageInboxModel *inbox = triage_application_get_inbox (remote_test_app);
  TriageOutbox *outbox = triage_application_get_outbox (remote_test_app);
  char *there[4];
  guint remaining = 0;

  other = triage_test_server_new (&(TriageTestServerOptions) { .extra_args = polling }, &error);
  g_assert_no_error (error);
  g_assert_true (triage_test_server_create_user (other, "alice", &other_token, &error));
  g_assert_true (triage_test_server_create_service (other, "Other Bot", recipients, NULL,
                                                    NULL, &other_key, NULL, &error));
  g_assert_no_error (error);

  /* An answer given while the first server is gone waits in the outbox. */
  app_test_wait_for (remote_test_connection () == TRIAGE_CONNECTION_CONNECTED, APP_TEST_WAIT_MS);
  here = post_simple (remote_test_server, remote_test_api_key, "First server");
  app_test_wait_for (triage_inbox_model_lookup (inbox, here) != NULL, APP_TEST_WAIT_MS);
  triage_test_server_kill (remote_test_server);
  app_test_wait_for (remote_test_connection () != TRIAGE_CONNECTION_CONNECTED, APP_TEST_WAIT_MS);
  g_signal_emit_by_name (triage_application_get_window (remote_test_app), "submit", here, "yes",
                         null);
  app_test_wait_for (triage_outbox_get_n_pending (outbox) == 1, APP_TEST_WAIT_MS);

  /* The other server: its requests, not the first one's, and not its answer. */
  for (guint i = 0; i < G_N_ELEMENTS (there); i++)
    there[i] = post_simple (other, other_key, "Other server");
  switch_to (other, other_token);
  for (guint i = 0; i < G_N_ELEMENTS (there); i++)
    app_test_wait_for (triage_inbox_model_lookup (inbox, there[i]) != NULL, APP_TEST_WAIT_MS);
  g_assert_null (triage_inbox_model_lookup (inbox, here));
  g_assert_cmpuint (triage_outbox_get_n_pending (outbox), ==, 0);

  /* Back to the first, restarted: the answer reaches it. */
  g_assert_true (triage_test_server_restart (remote_test_server, &error));
  g_assert_no_error (error);
  switch_to (remote_test_server, remote_test_user_token);
  app_test_poll_for (is_responded (remote_test_server, remote_test_api_key, here),
                     APP_TEST_WAIT_MS);
  g_assert_null (triage_inbox_model_lookup (inbox, there[0]));

  /* Meanwhile the other server's four are answered elsewhere. Back there,
   * its limit lets the app ask about one or two of them; the others stay
   * in the inbox (asked about again later), not "answered elsewhere". */
  for (guint i = 0; i < G_N_ELEMENTS (there); i++)
    {
      g_autofree char *body = g_strdup_printf ("{\"notification_id\": \"%s\", \"action_id\": \"yes\"}",
                                               there[i]);
      guint status = 0;

      g_assert_true (triage_test_http (other, "POST", "/api/v1/client/respond", other_token, body,
                                       &status, NULL, &error));
      g_assert_cmpuint (status, ==, 200);
    }
  switch_to (other, other_token);
  app_test_wait_for (count_listed (inbox, there, G_N_ELEMENTS (there)) < G_N_ELEMENTS (there),
                     APP_TEST_WAIT_MS);
  /* The lookups go four at a time: the refused ones end about when the
   * others do, and must not take theirs out meanwhile. */
  app_test_spin (1000);
  remaining = count_listed (inbox, there, G_N_ELEMENTS (there));
  g_assert_cmpuint (remaining, >=, 2);
  g_assert_cmpuint (remaining, <, G_N_ELEMENTS (there));

  for (guint i = 0; i < G_N_ELEMENTS (there); i++)
    g_free (there[i]);
}

/* An answer a rate limit holds back (a 429's Retry-After, 5 s here) says in
 * its open view and its inbox row until when, then goes by itself and says
 * it was sent. */
/* The subtitle of the inbox row under @widget that shows request @id, or NULL. */
static const char *
inbox_row_subtitle (GtkWidget  *widget,
                    const char *id)
{
  if (TRIAGE_IS_INBOX_ROW (widget))
    {
      TriageRequest *request = triage_inbox_row_get_request (TRIAGE_INBOX_ROW (widget));

      if (request != NULL && g_str_equal (triage_request_get_id (request), id))
        return triage_inbox_row_get_subtitle (TRIAGE_INBOX_ROW (widget));
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      const char *subtitle = inbox_row_subtitle (child, id);

      if (subtitle != NULL)
        return subtitle;
    }

  return NULL;
}

static void
test_server_wait_shown (void)
{
  const char * const limit[] = { "--limit", "responses=12", NULL };   /* then one in 5 s */
  const char * const recipients[] = { "alice", NULL };
  const char *waiting = "The server asked to wait — sending at ";
  g_autoptr(TriageTestServer) limited = NULL;
  g_autoptr(JsonNode) null = json_node_new (JSON_NODE_NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *token = NULL;
  g_autofree char *key = NULL;
  g_autofree char *id = NULL;
  TriageWindow *window = triage_application_get_window (remote_test_app);
  TriageRequestBanner *banner;

  limited = triage_test_server_new (&(TriageTestServerOptions) { .extra_args = limit }, &error);
  g_assert_no_error (error);
  g_assert_true (triage_test_server_create_user (limited, "alice", &token, &error));
  g_assert_true (triage_test_server_create_service (limited, "Limited Bot", recipients, NULL,
                                                    NULL, &key, NULL, &error));
  switch_to (limited, token);
  id = post_simple (limited, key, "Held by the server");
  app_test_wait_for (triage_window_show_request (window, id), APP_TEST_WAIT_MS);
  banner = TRIAGE_REQUEST_BANNER (gtk_widget_get_template_child (triage_window_get_decision_view (window),
                                                                 TRIAGE_TYPE_DECISION_VIEW, "banner"));

  /* Another device of alice's spends her allowance (404s count too). */
  for (guint i = 0; i < 12; i++)
    {
      g_autofree char *other = g_uuid_string_random ();
      g_autofree char *body = g_strdup_printf ("{\"notification_id\": \"%s\", \"action_id\": \"yes\"}", other);
      guint status = 0;

      g_assert_true (triage_test_http (limited, "POST", "/api/v1/client/respond", token, body,
                                       &status, NULL, &error));
      g_assert_cmpuint (status, ==, 404);
    }

  g_signal_emit_by_name (window, "submit", id, "yes", null);
  app_test_wait_for (g_str_has_prefix (triage_request_banner_get_title (banner), waiting),
                     APP_TEST_WAIT_MS);
  /* Its inbox row says when it goes too. */
  g_assert_nonnull (strstr (inbox_row_subtitle (GTK_WIDGET (window), id), "Answer sending at "));
  g_assert_false (is_responded (limited, key, id));
  app_test_poll_for (is_responded (limited, key, id) &&
                     g_str_equal (triage_request_banner_get_title (banner), "Answer sent"),
                     APP_TEST_WAIT_MS);
}

/* A server whose certificate this computer does not trust: a configuration
 * error, shown as one with why (the window's bar in its error style, the
 * retry button), not "Reconnecting…" for ever. */
static void
test_tls_untrusted (void)
{
  TriagePreferencesWindow *preferences = remote_test_open_preferences ();
  g_autoptr(TriageTestServer) tls = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *tls_token = NULL;
  TriageWindow *window;

  tls = triage_test_server_new (&(TriageTestServerOptions) { .tls = TRUE }, &error);
  g_assert_no_error (error);
  g_assert_true (triage_test_server_create_user (tls, "alice", &tls_token, &error));
  g_assert_no_error (error);

  remote_test_enter_server (preferences, triage_test_server_get_url (tls), tls_token);
  g_action_group_activate_action (G_ACTION_GROUP (remote_test_app), "show", NULL);
  window = triage_application_get_window (remote_test_app);
  app_test_wait_for (remote_test_connection () == TRIAGE_CONNECTION_OFFLINE &&
                     strstr (triage_window_get_connection_text (window),
                             "its issuer is not trusted on this computer") != NULL,
                     APP_TEST_WAIT_MS);
  g_assert_nonnull (strstr (triage_window_get_connection_text (window),
                            triage_test_server_get_url (tls)));
  g_assert_null (strstr (triage_window_get_connection_text (window), "Reconnecting"));

  gtk_window_destroy (GTK_WINDOW (preferences));
}

int
main (int   argc,
      char *argv[])
{
  remote_test_init (&argc, &argv);
  /* Connected as test-remote leaves the app: alice's token stored, the
   * window shown. */
  app_test_store_token_elsewhere (triage_test_server_get_url (remote_test_server),
                                  remote_test_user_token);
  remote_test_start_app ();
  g_action_group_activate_action (G_ACTION_GROUP (remote_test_app), "show", NULL);

  g_test_add_func ("/remote/switch-servers", test_switch_servers);
  g_test_add_func ("/remote/tls-untrusted", test_tls_untrusted);
  g_test_add_func ("/remote/server-wait-shown", test_server_wait_shown);

  return remote_test_run ();
}
