/* test-notifier-servers.c — test-notifier's bubbles on servers that do
 * less: one without body-markup, one without actions
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each runs under tests/fake-notifyd.py --capabilities (a test of its own
 * in meson.build), and is skipped under a server that does more.
 */

#include "app-test-common.h"
#include "notifier-test.h"
#include "notifyd-test-log.h"
#include "triage-notifier.h"

#define ID_PLAIN      "2c6f1e3c-3a1b-4c5d-8e9f-0a1b2c3d4e5f"
#define ID_NO_BUTTONS "3d6f1e3c-3a1b-4c5d-8e9f-0a1b2c3d4e5f"

/* On the server this test runs under: the request @id's bubble
 * (app_test_notification()) says @body; one settled saying @settled, and a
 * notice saying @notice, reach it as given. */
static void
assert_server_bodies (const char *id,
                      const char *body,
                      const char *settled,
                      const char *notice)
{
  g_autoptr(TriageNotifier) notifier = NULL;
  g_autoptr(AtpNotification) n = NULL;
  g_autoptr(JsonNode) log = NULL, log2 = NULL, log3 = NULL;
  g_autoptr(JsonObject) notify = NULL, said = NULL, noticed = NULL;
  g_autofree char *notice_summary = g_strconcat ("More for ", id, NULL);

  n = app_test_notification (id, 0, 10, NULL);
  notifier = triage_notifier_new ("Triage", "io.github.atptriage.Triage");
  triage_notifier_show (notifier, n, FALSE);
  notify = notifyd_wait_event ("Notify", id, 0, &log);
  g_assert_cmpstr (json_object_get_string_member (notify, "body"), ==, body);

  triage_notifier_settle (notifier, id, settled);
  said = notifyd_wait_body (json_object_get_int_member (notify, "id"), settled, &log2);

  triage_notifier_show_notice (notifier, "more", notice_summary, notice);
  noticed = notifyd_wait_event ("Notify", notice_summary, 0, &log3);
  g_assert_cmpstr (json_object_get_string_member (noticed, "body"), ==, notice);

  g_assert_finalize_object (g_steal_pointer (&notifier));
}

/* A server without body-markup shows the body as it gets it (the spec: it
 * must be plain text): a request's, a notice's and a settled request's
 * words reach it as typed, not as "&amp;" and "&lt;b&gt;". */
static void
test_plain_server_body (void)
{
  if (notifyd_skip_without ())
    return;
  if (notifyd_has_capability ("body-markup"))
    {
      g_test_skip ("Runs under a notification server without body-markup "
                   "(fake-notifyd.py --capabilities actions,body)");
      return;
    }

  assert_server_bodies (ID_PLAIN, "Ship <b>it</b> & see",
                        "Answered ‘Stop’ by <alex> & \"co\" on another device", "Tom's <list> & more");
}

/* A server without buttons (nor clicks): a request's bubble says to open
 * Triage to answer; a notice, and what became of a request, do not. */
static void
test_no_buttons_server_body (void)
{
  if (notifyd_skip_without ())
    return;
  if (notifyd_has_capability ("actions"))
    {
      g_test_skip ("Runs under a notification server without actions "
                   "(fake-notifyd.py --capabilities body,body-markup)");
      return;
    }

  assert_server_bodies (ID_NO_BUTTONS, "Ship &lt;b&gt;it&lt;/b&gt; &amp; see\nOpen Triage to answer.",
                        "Expired at 17:12", "Too many at once");
}

void
notifier_test_add_servers (void)
{
  g_test_add_func ("/notifier/plain-server/body", test_plain_server_body);
  g_test_add_func ("/notifier/no-buttons-server/body", test_no_buttons_server_body);
}
