/* bench-load.h — agents posting to triage-server and a person's stream
 * receiving, for the server benchmarks
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <libsoup/soup.h>

G_BEGIN_DECLS

/* A realistic request: title, description, metadata, three actions. */
#define BENCH_BODY_TEMPLATE \
  "{\"id\":\"%s\",\"context\":{\"title\":\"Deploy build %u to production?\"," \
  "\"description\":\"The pipeline for main finished: 412 tests passed, the canary " \
  "has been healthy for 30 minutes. Approve to roll out to all regions.\"," \
  "\"project\":\"web\",\"metadata\":{\"commit\":\"4f2a9c1\",\"author\":\"ci\"}}," \
  "\"actions\":[{\"id\":\"approve\",\"label\":\"Approve\",\"response_type\":\"simple\"," \
  "\"flags\":[\"irreversible\"]},{\"id\":\"deny\",\"label\":\"Deny\"," \
  "\"response_type\":\"simple\"},{\"id\":\"reason\",\"label\":\"Reason\"," \
  "\"response_type\":\"text\",\"constraints\":{\"max_length\":500}}]}"

typedef struct _BenchLoad BenchLoad;

/* What one phase came to. */
typedef struct
{
  guint   posted;       /* 201 answers */
  guint   failed;       /* any other answer */
  guint   retried;      /* sent again to another server after theirs went away */
  guint   received;     /* notifications of the phase the stream got */
  guint   duplicates;   /* ... that it got a second time */
  guint   missing;      /* posted, never got */
  guint   delayed;      /* open loop: had to wait for a free connection */
  double  seconds;
  GArray *latencies;    /* double ms: POST sent → frame received */
  GArray *answers;      /* double ms: POST sent → 201 read */
} BenchPhase;

BenchLoad *bench_load_new          (const char              *api_key);
void       bench_load_free         (BenchLoad               *self);
void       bench_load_add_posters  (BenchLoad               *self,
                                    const char              *url,
                                    guint                    count);
void       bench_load_clear_posters (BenchLoad              *self);
void       bench_load_set_failover (BenchLoad               *self,
                                    const char              *url);
void       bench_load_listen       (BenchLoad               *self,
                                    SoupWebsocketConnection *stream);

const BenchPhase *bench_load_closed (BenchLoad              *self,
                                     double                  seconds);
const BenchPhase *bench_load_count  (BenchLoad              *self,
                                     guint                   total,
                                     guint                   at,
                                     GSourceFunc             then,
                                     gpointer                data);
const BenchPhase *bench_load_open   (BenchLoad              *self,
                                     int                     rate,
                                     double                  seconds);

GBytes    *bench_call              (SoupSession              *session,
                                    const char               *url,
                                    const char               *method,
                                    const char               *path,
                                    const char               *token,
                                    const char               *body,
                                    guint                     expected,
                                    double                   *ms);
void       bench_connect_streams   (SoupSession              *session,
                                    const char               *url,
                                    const char               *token,
                                    SoupWebsocketConnection **streams,
                                    guint                     count);
gint64     bench_cpu_us            (GPid                      pid);
gint64     bench_threads_cpu_ns    (GPid                      pid);
void       bench_main_thread_ns    (GPid                      pid,
                                    gint64                   *on_cpu,
                                    gint64                   *waiting);
gsize      bench_rss_kib           (GPid                      pid);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (BenchLoad, bench_load_free)

G_END_DECLS
