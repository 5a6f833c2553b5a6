/* bench-cpu-use.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Where a phase's CPU went, read from /proc: each server's, PostgreSQL's
 * (its postmaster's process tree), the load generator's, the machine's idle
 * and stolen time; each server's main loop on a core and waiting for one;
 * and the machine's ceiling that CPU a notification implies.
 */

#define G_LOG_DOMAIN "bench-server"

#include <string.h>
#include <unistd.h>

#include "bench-cpu-use.h"
#include "bench-load.h"

/* The machine's idle and stolen time so far, µs of all its cores. */
static void
machine_idle (gint64 *idle,
              gint64 *stolen)
{
  g_autofree char *stat = NULL;
  g_auto(GStrv) fields = NULL;
  gint64 tick = G_USEC_PER_SEC / sysconf (_SC_CLK_TCK);

  *idle = *stolen = 0;
  /* "cpu  user nice system idle iowait irq softirq steal …" */
  if (!g_file_get_contents ("/proc/stat", &stat, NULL, NULL) || !g_str_has_prefix (stat, "cpu "))
    return;
  fields = g_strsplit_set (stat + 4, " \n", 0);
  for (guint i = 0, n = 0; fields[i] != NULL && n < 8; i++)
    {
      if (*fields[i] == '\0')
        continue;
      if (n == 3 || n == 4)
        *idle += g_ascii_strtoll (fields[i], NULL, 10) * tick;
      else if (n == 7)
        *stolen = g_ascii_strtoll (fields[i], NULL, 10) * tick;
      n++;
    }
}

static gint64
tree_cpu_us (GPid root)
{
  g_autoptr(GDir) proc = g_dir_open ("/proc", 0, NULL);
  const char *name;
  gint64 total = bench_cpu_us (root);

  while (proc != NULL && (name = g_dir_read_name (proc)) != NULL)
    {
      g_autofree char *path = g_strdup_printf ("/proc/%s/stat", name);
      g_autofree char *stat = NULL;
      const char *after_name;

      if (!g_ascii_isdigit (*name) || !g_file_get_contents (path, &stat, NULL, NULL) ||
          (after_name = strrchr (stat, ')')) == NULL)
        continue;
      /* state, then the parent's pid */
      if (g_ascii_strtoll (after_name + 4, NULL, 10) == root)
        total += bench_cpu_us ((GPid) g_ascii_strtoll (name, NULL, 10));
    }
  return total;
}

BenchCpu
bench_cpu_now (const GPid *servers,
               guint       n_servers,
               gboolean    postgres)
{
  const char *postmaster = g_getenv ("BENCH_POSTMASTER_PID");
  BenchCpu cpu = { n_servers, 0, 0, bench_cpu_us (0), g_get_monotonic_time () };

  for (guint i = 0; i < n_servers; i++)
    {
      cpu.servers += bench_cpu_us (servers[i]);
      if (i < BENCH_CPU_MAX_SERVERS)
        bench_main_thread_ns (servers[i], &cpu.main_cpu[i], &cpu.main_wait[i]);
    }
  if (postmaster != NULL && postgres)
    cpu.database = tree_cpu_us ((GPid) g_ascii_strtoll (postmaster, NULL, 10));
  machine_idle (&cpu.idle, &cpu.stolen);
  return cpu;
}

/* The first three fields of /proc/loadavg. */
static const char *
load_average (void)
{
  static char text[64];
  g_autofree char *contents = NULL;
  g_auto(GStrv) fields = NULL;

  if (!g_file_get_contents ("/proc/loadavg", &contents, NULL, NULL) ||
      g_strv_length (fields = g_strsplit (contents, " ", 4)) < 3)
    return "?";
  g_snprintf (text, sizeof text, "%s %s %s", fields[0], fields[1], fields[2]);
  return text;
}

/* Cores used from @before to @after: servers, database, load generator. */
char *
bench_cpu_since (const BenchCpu *before,
                 const BenchCpu *after,
                 guint           notifications)
{
  double wall = (double) (after->wall - before->wall);
  GString *text = g_string_new (NULL);

  g_string_append_printf (text, "servers %.0f µs/notification (%.2f cores)",
                          notifications ? (double) (after->servers - before->servers) / notifications : 0,
                          (after->servers - before->servers) / wall);
  if (after->database > 0)
    g_string_append_printf (text, ", PostgreSQL %.0f µs (%.2f cores)",
                            notifications ? (double) (after->database - before->database) / notifications : 0,
                            (after->database - before->database) / wall);
  g_string_append_printf (text, ", load generator %.0f µs (%.2f cores) of %d cores",
                          notifications ? (double) (after->load - before->load) / notifications : 0,
                          (after->load - before->load) / wall, (int) g_get_num_processors ());
  /* What nobody used (others on the machine count: a busy machine is the
   * bottleneck when this is near 0), and what the hypervisor kept. */
  g_string_append_printf (text, "; the machine idle %.2f cores, stolen %.2f, load average %s",
                          (after->idle - before->idle) / wall, (after->stolen - before->stolen) / wall,
                          load_average ());
  /* Is a server the bottleneck? Its main loop is one thread: saturated, it
   * is on a core all the wall time. Its wait for a core is the machine's
   * CPU, shared, holding it up. */
  g_string_append (text, "\n  CPU of each server's main loop (of the wall time: on a core, "
                         "waiting for one):");
  for (guint i = 0; i < MIN (after->n_servers, BENCH_CPU_MAX_SERVERS); i++)
    g_string_append_printf (text, "%s%u %.0f %%, %.0f %%", i > 0 ? "; " : " ", i + 1,
                            (after->main_cpu[i] - before->main_cpu[i]) / 10.0 / wall,
                            (after->main_wait[i] - before->main_wait[i]) / 10.0 / wall);
  /* What the machine could do were our processes alone on it and their
   * CPU per notification unchanged: its cores over that CPU. */
  if (notifications > 0)
    {
      double per = (double) ((after->servers - before->servers) + (after->database - before->database) +
                             (after->load - before->load)) / notifications;
      double ceiling = g_get_num_processors () * (double) G_USEC_PER_SEC / per;
      double measured = notifications / (wall / G_USEC_PER_SEC);

      g_string_append_printf (text, "\n  ceiling of the machine: %d cores / %.0f µs of CPU a "
                              "notification = %.0f /s; measured %.0f /s, %.0f %% of it",
                              (int) g_get_num_processors (), per, ceiling, measured,
                              100 * measured / ceiling);
    }
  return g_string_free (text, FALSE);
}
