/* test-server-delivered.c — a REST read delivers without a push; a push delivers with one
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * docs/protocol.md: any REST read by a recipient moves `created` →
 * `delivered`, and the reader has that in its answer; it is not pushed as a
 * status update (a resync of 10,000 new requests was 10,000 of them). A
 * request pushed to an open stream is delivered by the push, which is pushed
 * to every stream of every recipient as before, and so is every later move.
 */

#define G_LOG_DOMAIN "test-server-delivered"

#include "server-test-util.h"

/* alice, bob, team-bot (theirs) and deploy-bot (alice's): server-test-util.h */
typedef SrvTeam Fixture;

/* The status of @id in alice's pending list (one page is enough here). */
static char *
listed_status (Fixture    *fixture,
               const char *id)
{
  g_autoptr(JsonObject) item = srv_find_listed (fixture->server, fixture->alice,
                                                "?status=pending&limit=100", id);

  return item != NULL ? g_strdup (json_object_get_string_member (item, "status")) : NULL;
}

/* Made while no stream was open: alice's devices connect (without the
 * snapshot, as the app's do), one lists. The list answers `delivered`, the
 * service sees `delivered`, and neither alice's streams nor bob's are sent a
 * status update for it; the answer that follows is sent to all of them. */
static void
test_read_not_pushed (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autofree char *id = srv_post (fixture->server, fixture->shared_key, "Made while away");
  g_autofree char *listed = NULL, *status = NULL, *marker = NULL;
  g_autoptr(SrvSocket) lister = srv_ws_open (fixture->server, fixture->alice, "?snapshot=false");
  g_autoptr(SrvSocket) other_device = srv_ws_open (fixture->server, fixture->alice, "?snapshot=false");
  g_autoptr(SrvSocket) bob = srv_ws_open (fixture->server, fixture->bob, "?snapshot=false");
  g_autofree char *path = g_strconcat ("/api/v1/client/notifications/", id, NULL);
  g_autoptr(SrvAnswer) get = NULL;

  g_assert_nonnull (lister->ws);
  g_assert_nonnull (other_device->ws);
  g_assert_nonnull (bob->ws);
  status = srv_status_of (fixture->server, fixture->shared_key, id);
  g_assert_cmpstr (status, ==, "created");

  listed = listed_status (fixture, id);
  g_assert_cmpstr (listed, ==, "delivered");
  g_clear_pointer (&status, g_free);
  status = srv_status_of (fixture->server, fixture->shared_key, id);
  g_assert_cmpstr (status, ==, "delivered");

  /* A marker posted after the list: its frames come after anything the
   * list would have pushed (events go out in the order they commit). */
  marker = srv_post (fixture->server, fixture->shared_key, "Marker");
  srv_wait_until (srv_count_frames (lister, "notification", marker) == 1, "the marker (lister)");
  srv_wait_until (srv_count_frames (other_device, "notification", marker) == 1,
                  "the marker (other device)");
  srv_wait_until (srv_count_frames (bob, "notification", marker) == 1, "the marker (bob)");
  g_assert_cmpuint (srv_count_frames (lister, "status_update", id), ==, 0);
  g_assert_cmpuint (srv_count_frames (other_device, "status_update", id), ==, 0);
  g_assert_cmpuint (srv_count_frames (bob, "status_update", id), ==, 0);

  /* The marker was pushed, so delivered by the push: that move is pushed. */
  srv_wait_until (srv_find_update (other_device, marker, "delivered") != NULL,
                  "the marker's delivered (other device)");
  srv_wait_until (srv_find_update (bob, marker, "delivered") != NULL, "the marker's delivered (bob)");

  /* A single GET delivers without a push too (already delivered here: no move). */
  get = srv_request (fixture->server, "GET", path, fixture->alice, NULL);
  srv_assert_status (get, 200, NULL);

  /* Answered on one device: every stream of every recipient hears of it. */
  srv_respond (fixture->server, fixture->alice, id);
  srv_wait_until (srv_find_update (lister, id, "responded") != NULL, "the answer (lister)");
  srv_wait_until (srv_find_update (other_device, id, "responded") != NULL,
                  "the answer (other device)");
  srv_wait_until (srv_find_update (bob, id, "responded") != NULL, "the answer (bob)");
  g_assert_null (srv_find_update (other_device, id, "delivered"));
}

/* A single GET of a request made while away delivers it, unpushed. */
static void
test_get_not_pushed (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autofree char *id = srv_post (fixture->server, fixture->shared_key, "Read by id");
  g_autoptr(SrvSocket) other_device = srv_ws_open (fixture->server, fixture->alice, "?snapshot=false");
  g_autofree char *path = g_strconcat ("/api/v1/client/notifications/", id, NULL);
  g_autofree char *status = NULL, *marker = NULL;
  g_autoptr(SrvAnswer) get = NULL;
  g_autoptr(JsonObject) object = NULL;

  g_assert_nonnull (other_device->ws);
  get = srv_request (fixture->server, "GET", path, fixture->alice, NULL);
  srv_assert_status (get, 200, NULL);
  object = srv_parse_object (get->body);
  g_assert_cmpstr (json_object_get_string_member (object, "status"), ==, "delivered");
  status = srv_status_of (fixture->server, fixture->shared_key, id);
  g_assert_cmpstr (status, ==, "delivered");

  marker = srv_post (fixture->server, fixture->shared_key, "Marker");
  srv_wait_until (srv_count_frames (other_device, "notification", marker) == 1, "the marker");
  g_assert_cmpuint (srv_count_frames (other_device, "status_update", id), ==, 0);
}

/* Open when it is made: pushed, which delivers it, and that is pushed to
 * every stream of every recipient; a list then moves nothing. */
static void
test_push_delivers_and_is_pushed (Fixture       *fixture,
                                  gconstpointer  data)
{
  g_autoptr(SrvSocket) alice = srv_ws_open (fixture->server, fixture->alice, "?snapshot=false");
  g_autoptr(SrvSocket) bob = srv_ws_open (fixture->server, fixture->bob, "?snapshot=false");
  g_autofree char *id = NULL, *listed = NULL, *marker = NULL;

  g_assert_nonnull (alice->ws);
  g_assert_nonnull (bob->ws);
  id = srv_post (fixture->server, fixture->shared_key, "Made while here");
  srv_wait_until (srv_find_update (alice, id, "delivered") != NULL, "alice's delivered");
  srv_wait_until (srv_find_update (bob, id, "delivered") != NULL, "bob's delivered");

  listed = listed_status (fixture, id);
  g_assert_cmpstr (listed, ==, "delivered");
  marker = srv_post (fixture->server, fixture->shared_key, "Marker");
  srv_wait_until (srv_count_frames (alice, "notification", marker) == 1, "the marker");
  g_assert_cmpuint (srv_count_frames (alice, "status_update", id), ==, 1);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, srv_team_setup, func, srv_team_teardown)

  ADD ("/server/delivered/read-not-pushed", test_read_not_pushed);
  ADD ("/server/delivered/get-not-pushed", test_get_not_pushed);
  ADD ("/server/delivered/push-delivers-and-is-pushed", test_push_delivers_and_is_pushed);
#undef ADD

  return g_test_run ();
}
