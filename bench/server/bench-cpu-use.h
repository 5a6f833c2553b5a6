/* bench-cpu-use.h — where a phase's CPU went: the servers, PostgreSQL, the
 * load generator and the machine's idle time, and what bounds the phase
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define BENCH_CPU_MAX_SERVERS 8

/* CPU of the servers, of PostgreSQL (its postmaster's whole process tree, when
 * run.sh says which it is: $BENCH_POSTMASTER_PID) and of this program, µs. */
typedef struct
{
  guint  n_servers;
  gint64 servers;
  gint64 database;
  gint64 load;
  gint64 wall;
  gint64 idle;       /* the machine's idle time, all cores (/proc/stat), µs */
  gint64 stolen;     /* ... and the time the hypervisor gave to others */
  /* Each server's main thread (its main loop, what saturates first): ns on
   * a core, and ns it was ready but waited for one. */
  gint64 main_cpu[BENCH_CPU_MAX_SERVERS];
  gint64 main_wait[BENCH_CPU_MAX_SERVERS];
} BenchCpu;

BenchCpu bench_cpu_now   (const GPid     *servers,
                          guint           n_servers,
                          gboolean        postgres);
char    *bench_cpu_since (const BenchCpu *before,
                          const BenchCpu *after,
                          guint           notifications);

G_END_DECLS
