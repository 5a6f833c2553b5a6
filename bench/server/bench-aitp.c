/* bench-aitp.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * AITP-02 decisions in triage-server: what posting one costs next to an ATP
 * request, in the same run on the same server. A person's WebSocket stream
 * takes both protocols (protocols=atp,aitp), so every request is stored
 * durably, published and pushed. N ATP requests (bench-load.h's realistic
 * one: title, description, metadata, three actions) and N AITP requests (a
 * products decision of two products with ratings, quotes and two variants,
 * about as long) are posted one after another, in alternating rounds of 100
 * so that a busy machine weighs on both alike; for each kind the server's own
 * CPU time (the schedstat of each of its threads in /proc) and the wall time
 * from the first POST sent to the last frame received are summed.
 *
 * Target (issue 10): 1,000 AITP requests cost no more than 1.2 x as many ATP
 * requests of server time. Run by bench/server/run.sh, never by meson test.
 */

#define G_LOG_DOMAIN "bench-aitp"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libsoup/soup.h>

#include "bench-load.h"
#include "bench-stats.h"
#include "triage-test-server.h"

#define ROUND 100
#define TARGET_RATIO 1.2

/* A products decision like the seed's, with two products and variants. */
#define AITP_BODY_TEMPLATE \
  "{\"$schema\":\"https://aitp.dev/v1/decisions/schema.json\",\"request_decision\":{" \
  "\"id\":\"%s\",\"title\":\"Headphones for build %u?\",\"description\":\"Two pairs " \
  "fit your budget.\",\"type\":\"products\",\"options\":[{\"id\":\"jbl\",\"name\":" \
  "\"JBL Tour One M2\",\"description\":\"Over-ear, noise cancelling\",\"five_star_rating\":" \
  "4.2,\"reviews_count\":132,\"url\":\"https://example.com/jbl\",\"quote\":{\"type\":\"Quote\"," \
  "\"quote_id\":\"q-jbl\",\"payee_id\":\"shop\",\"payment_plans\":[{\"plan_id\":\"p-jbl\"," \
  "\"plan_type\":\"one-time\",\"amount\":199.5,\"currency\":\"USD\"}],\"valid_until\":" \
  "\"2050-01-01T00:00:00Z\"},\"variants\":[{\"id\":\"jbl-black\",\"short_variant_name\":" \
  "\"Black\"},{\"id\":\"jbl-sand\",\"short_variant_name\":\"Sand\"}]},{\"id\":\"sony\"," \
  "\"name\":\"Sony WH-1000XM5\",\"five_star_rating\":4.7,\"reviews_count\":2210}]}," \
  "\"x-triage\":{\"project\":\"web\"}}"

static int count = 1000;

typedef struct
{
  TriageTestServer        *server;
  SoupSession             *session;
  SoupWebsocketConnection *stream;
  char                    *key;
  char                    *user;
  guint                    received;
} Bench;

typedef struct
{
  const char *name;
  const char *path;
  gboolean    aitp;
  gint64      cpu_ns;
  gint64      wall_us;
  GArray     *round_trips;   /* double ms: POST sent -> 201 read */
  gsize       bytes;
} Kind;

static void
on_message (SoupWebsocketConnection *stream,
            int                      type,
            GBytes                  *message,
            gpointer                 data)
{
  Bench *bench = data;
  gsize size;
  const char *text = g_bytes_get_data (message, &size);

  /* {"type":"notification",…}; status updates and heartbeats are not counted. */
  if (g_strstr_len (text, MIN (size, 40), "\"type\":\"notification\"") != NULL)
    bench->received++;
}

static void
on_connected (GObject      *object,
              GAsyncResult *result,
              gpointer      data)
{
  Bench *bench = data;
  g_autoptr(GError) error = NULL;

  bench->stream = soup_session_websocket_connect_finish (SOUP_SESSION (object), result, &error);
  if (bench->stream == NULL)
    g_error ("the person's stream: %s", error->message);
  g_signal_connect (bench->stream, "message", G_CALLBACK (on_message), bench);
}

static void
connect_stream (Bench *bench)
{
  g_autofree char *url = g_strconcat (triage_test_server_get_url (bench->server),
                                      "/api/v1/client/stream?protocols=atp,aitp", NULL);
  g_autofree char *auth = g_strconcat ("Bearer ", bench->user, NULL);
  g_autoptr(SoupMessage) msg = soup_message_new ("GET", url);

  soup_message_headers_replace (soup_message_get_request_headers (msg), "Authorization", auth);
  soup_session_websocket_connect_async (bench->session, msg, NULL, NULL, G_PRIORITY_DEFAULT, NULL,
                                        on_connected, bench);
  while (bench->stream == NULL)
    g_main_context_iteration (NULL, TRUE);
}

/* Posts one request of @kind and waits for its 201; returns the round trip in ms. */
static double
post (Bench      *bench,
      Kind       *kind,
      const char *body)
{
  g_autoptr(GBytes) answer = NULL;
  double ms;

  answer = bench_call (bench->session, triage_test_server_get_url (bench->server), "POST",
                       kind->path, bench->key, body, SOUP_STATUS_CREATED, &ms);
  return ms;
}

/* A round of @n requests of @kind: posted, then every frame received. */
static void
run_round (Bench *bench,
           Kind  *kind,
           guint  n,
           guint  first)
{
  GPid pid = triage_test_server_get_pid (bench->server);
  guint expected = bench->received + n;
  gint64 give_up;
  gint64 cpu_before = bench_threads_cpu_ns (pid);
  gint64 start = g_get_monotonic_time ();

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *id = g_uuid_string_random ();
      g_autofree char *body = kind->aitp ? g_strdup_printf (AITP_BODY_TEMPLATE, id, first + i)
                                         : g_strdup_printf (BENCH_BODY_TEMPLATE, id, first + i);
      double ms;

      kind->bytes += strlen (body);
      ms = post (bench, kind, body);
      g_array_append_val (kind->round_trips, ms);
      while (g_main_context_iteration (NULL, FALSE))
        ;
    }
  give_up = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  while (bench->received < expected && g_get_monotonic_time () < give_up)
    g_main_context_iteration (NULL, TRUE);
  if (bench->received < expected)
    g_error ("%s: the stream got %u of %u requests", kind->name, bench->received - (expected - n), n);

  kind->wall_us += g_get_monotonic_time () - start;
  kind->cpu_ns += bench_threads_cpu_ns (pid) - cpu_before;
}

static void
report (Kind *kind)
{
  printf ("  %-5s %u requests (%zu bytes each on average): server CPU %.3f ms a request, "
          "%.0f requests/s end to end, POST round trip p50 %.2f ms, p99 %.2f ms\n",
          kind->name, kind->round_trips->len, kind->bytes / MAX (kind->round_trips->len, 1),
          kind->cpu_ns / 1e6 / kind->round_trips->len,
          kind->round_trips->len / (kind->wall_us / (double) G_USEC_PER_SEC),
          bench_percentile (kind->round_trips, 0.5), bench_percentile (kind->round_trips, 0.99));
}

int
main (int    argc,
      char **argv)
{
  GOptionEntry entries[] = {
    { "count", 'n', 0, G_OPTION_ARG_INT, &count, "Requests of each protocol (1000)", "N" },
    { NULL }
  };
  const char * const extra[] = { "--no-limits", NULL };
  TriageTestServerOptions options = { .extra_args = extra };
  const char * const recipients[] = { "bench", NULL };
  g_autoptr(GOptionContext) context = g_option_context_new ("- AITP decisions benchmark");
  g_autoptr(GError) error = NULL;
  Kind atp = { "ATP", "/api/v1/notifications", FALSE };
  Kind aitp = { "AITP", "/api/v1/aitp/decisions", TRUE };
  Bench bench = { 0 };
  double ratio;
  double load[3] = { 0 };

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || count < 1)
    {
      g_printerr ("bench-aitp: %s\n", error ? error->message : "--count must be positive");
      return 2;
    }

  bench.server = triage_test_server_new (&options, &error);
  if (bench.server == NULL)
    g_error ("cannot start triage-server: %s", error->message);
  if (!triage_test_server_create_user (bench.server, "bench", &bench.user, &error) ||
      !triage_test_server_create_service (bench.server, "bench", recipients, NULL, NULL,
                                          &bench.key, NULL, &error))
    g_error ("setup: %s", error->message);
  bench.session = soup_session_new_with_options ("timeout", 30, NULL);
  connect_stream (&bench);
  atp.round_trips = g_array_new (FALSE, FALSE, sizeof (double));
  aitp.round_trips = g_array_new (FALSE, FALSE, sizeof (double));

  /* A warm-up round of each, not counted. */
  run_round (&bench, &atp, 20, 0);
  run_round (&bench, &aitp, 20, 0);
  g_array_set_size (atp.round_trips, 0);
  g_array_set_size (aitp.round_trips, 0);
  atp.cpu_ns = aitp.cpu_ns = atp.wall_us = aitp.wall_us = 0;
  atp.bytes = aitp.bytes = 0;

  for (guint done = 0; done < (guint) count; done += ROUND)
    {
      guint n = MIN (ROUND, (guint) count - done);

      run_round (&bench, &atp, n, done);
      run_round (&bench, &aitp, n, done);
    }

  ratio = (double) aitp.cpu_ns / MAX (atp.cpu_ns, 1);
  if (getloadavg (load, 3) < 0)
    load[0] = -1;
  printf ("AITP-02 decisions vs ATP requests, posted one at a time by one service, stored "
          "durably and pushed to one WebSocket stream (load average %.1f):\n", load[0]);
  report (&atp);
  report (&aitp);
  printf ("  target: AITP <= %.1f x ATP in server CPU time: %.2f x, %s (end to end %.2f x)\n",
          TARGET_RATIO, ratio, ratio <= TARGET_RATIO ? "met" : "NOT met",
          (double) aitp.wall_us / MAX (atp.wall_us, 1));

  g_array_unref (atp.round_trips);
  g_array_unref (aitp.round_trips);
  soup_websocket_connection_close (bench.stream, SOUP_WEBSOCKET_CLOSE_NORMAL, NULL);
  g_object_unref (bench.stream);
  g_object_unref (bench.session);
  g_free (bench.key);
  g_free (bench.user);
  triage_test_server_free (bench.server);
  return ratio <= TARGET_RATIO ? 0 : 1;
}
