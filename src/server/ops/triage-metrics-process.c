/* triage-metrics-process.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The standard process metrics of Prometheus' client libraries (the same
 * names, types and units, read from /proc the way they read them), so the
 * dashboards and alerts written for any exporter work here: a restart seen
 * as process_start_time_seconds moving, a leak as the resident memory
 * growing, descriptors running out before accept () fails. Read at scrape
 * time: procfs answers from memory, nothing here waits for a disk.
 */

#define G_LOG_DOMAIN "triage-server"

#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include <gio/gio.h>

#include "triage-metrics.h"

typedef struct
{
  guint64 cpu_ticks;     /* user and system time, in clock ticks */
  guint64 start_ticks;   /* since boot, in clock ticks */
  guint64 virtual_bytes;
  guint64 resident_pages;
} ProcessStat;

/* /proc/self/stat's fields (proc(5)); FALSE if it could not be read. */
static gboolean
read_stat (ProcessStat *stat)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) fields = NULL;
  const char *after_name;

  if (!g_file_get_contents ("/proc/self/stat", &text, NULL, NULL))
    return FALSE;
  /* The name (field 2) is in parentheses and may hold spaces and ')':
   * the fields are counted from the last ')'. */
  after_name = strrchr (text, ')');
  if (after_name == NULL)
    return FALSE;
  fields = g_strsplit (after_name + 2, " ", -1);
  /* fields[0] is field 3 (state): field N is fields[N - 3]. */
  if (g_strv_length (fields) < 22)
    return FALSE;
  stat->cpu_ticks = g_ascii_strtoull (fields[14 - 3], NULL, 10) +
                    g_ascii_strtoull (fields[15 - 3], NULL, 10);
  stat->start_ticks = g_ascii_strtoull (fields[22 - 3], NULL, 10);
  stat->virtual_bytes = g_ascii_strtoull (fields[23 - 3], NULL, 10);
  stat->resident_pages = g_ascii_strtoull (fields[24 - 3], NULL, 10);
  return TRUE;
}

/* When the machine booted (unix seconds, /proc/stat's btime); 0 if unknown. */
static guint64
boot_time (void)
{
  g_autofree char *text = NULL;
  const char *line;

  if (!g_file_get_contents ("/proc/stat", &text, NULL, NULL))
    return 0;
  line = strstr (text, "\nbtime ");
  return line != NULL ? g_ascii_strtoull (line + strlen ("\nbtime "), NULL, 10) : 0;
}

/* The descriptors open now; -1 if they could not be counted. */
static int
count_open_fds (void)
{
  g_autoptr(GDir) dir = g_dir_open ("/proc/self/fd", 0, NULL);
  int count = 0;

  if (dir == NULL)
    return -1;
  while (g_dir_read_name (dir) != NULL)
    count++;
  return count;
}

static void
sample (GString    *out,
        const char *name,
        const char *type,
        const char *help,
        double      value)
{
  char text[G_ASCII_DTOSTR_BUF_SIZE];

  g_string_append_printf (out, "# HELP %s %s\n# TYPE %s %s\n%s %s\n", name, help, name, type,
                          name, g_ascii_dtostr (text, sizeof text, value));
}

/* Appends the process metrics to @out; one that could not be read is left
 * out (no sample rather than a 0 that looks like a value). */
void
triage_metrics_format_process (GString *out)
{
  /* Neither changes while the process lives. */
  static guint64 start_seconds_x100;
  static long ticks_per_second;
  ProcessStat stat;
  struct rlimit limit;
  int open_fds;

  if (ticks_per_second == 0)
    ticks_per_second = MAX (sysconf (_SC_CLK_TCK), 1);
  if (read_stat (&stat))
    {
      if (start_seconds_x100 == 0)
        {
          guint64 boot = boot_time ();

          if (boot > 0)
            start_seconds_x100 = boot * 100 + stat.start_ticks * 100 / (guint64) ticks_per_second;
        }
      sample (out, "process_cpu_seconds_total", "counter",
              "Total user and system CPU time spent in seconds.",
              (double) stat.cpu_ticks / (double) ticks_per_second);
      sample (out, "process_virtual_memory_bytes", "gauge", "Virtual memory size in bytes.",
              (double) stat.virtual_bytes);
      sample (out, "process_resident_memory_bytes", "gauge", "Resident memory size in bytes.",
              (double) stat.resident_pages * (double) sysconf (_SC_PAGESIZE));
    }
  if (start_seconds_x100 > 0)
    sample (out, "process_start_time_seconds", "gauge",
            "Start time of the process since unix epoch in seconds.",
            (double) start_seconds_x100 / 100.0);
  if ((open_fds = count_open_fds ()) >= 0)
    /* Less the one that counted them. */
    sample (out, "process_open_fds", "gauge", "Number of open file descriptors.",
            (double) (open_fds - 1));
  if (getrlimit (RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
    sample (out, "process_max_fds", "gauge", "Maximum number of open file descriptors.",
            (double) limit.rlim_cur);
}
