/* main.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <signal.h>
#include <stdlib.h>   /* defines __GLIBC__ under glibc */

/* Linked with mimalloc (src/server/meson.build), the server's every block
 * comes from it, and glibc's allocator, tuned below otherwise, serves none.
 * Under full load it is a sixth of the server's instructions less: a POST
 * frees about 650 blocks, most in bursts of one size, and glibc's malloc ()
 * and free () cost 75-100 instructions each even with the tuning below
 * (bench/server/bench-cpu.c under callgrind, 30 November, each allocator
 * preloaded: 489,500 instructions a notification with glibc tuned, 414,600
 * with mimalloc, 442,600 with jemalloc, 422,200 with tcmalloc; linked with
 * mimalloc, 412,800). */
#if defined (__GLIBC__) && !defined (TRIAGE_MIMALLOC)
#define TUNE_GLIBC_MALLOC 1
#endif

#ifdef TUNE_GLIBC_MALLOC
#include <malloc.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#endif

#include "triage-server.h"

#ifdef TUNE_GLIBC_MALLOC
/* Freed blocks glibc keeps per thread and size for the next malloc () of that
 * size, without a lock or a look in its bins: 7 unless told otherwise. A
 * notification frees about 650 blocks, most of them in bursts of one size
 * (json-glib's nodes, its scanner's strings, libsoup's headers), and past the
 * seventh each went to glibc's bins and came back from them (a malloc () or
 * free () cost 100 instructions instead of 30): 128 take 28,000 instructions
 * off a notification's 575,000 (bench/server/bench-cpu.c under callgrind).
 * A thread keeps at most about 4 MiB of free blocks so.
 *
 * Only the environment sets it (GLIBC_TUNABLES, read before main ()), so the
 * server starts itself once again with it; one given by the operator is kept
 * as it is. Not under valgrind, which would run the new image untraced:
 * bench/server/run.sh --callgrind gives the same setting itself. */
#define TCACHE_TUNABLE "glibc.malloc.tcache_count"
#define TCACHE_COUNT "128"

static void
exec_with_tcache (char **argv)
{
  const char *tunables = getenv ("GLIBC_TUNABLES");
  const char *preload = getenv ("LD_PRELOAD");
  char *value;
  size_t size;

  if ((tunables != NULL && strstr (tunables, TCACHE_TUNABLE) != NULL) ||
      (preload != NULL && strstr (preload, "vgpreload") != NULL))
    return;
  if (tunables == NULL)
    tunables = "";
  size = strlen (tunables) + sizeof ":" TCACHE_TUNABLE "=" TCACHE_COUNT;
  if ((value = malloc (size)) == NULL)
    return;
  snprintf (value, size, "%s%s" TCACHE_TUNABLE "=" TCACHE_COUNT, tunables,
            *tunables != '\0' ? ":" : "");
  if (setenv ("GLIBC_TUNABLES", value, 1) == 0)
    execv ("/proc/self/exe", argv);
  /* Only without /proc: the server runs as it is. */
  free (value);
}
#endif /* TUNE_GLIBC_MALLOC */

int
main (int argc, char **argv)
{
  /* A file size limit (systemd's LimitFSIZE=, a shell's ulimit -f) is a
   * full disk: a write past it fails with EFBIG, which SQLite reports as an
   * I/O error ("disk I/O error"), the server answers 503 STORAGE_UNAVAILABLE
   * and service comes back once the limit is raised. SIGXFSZ's default
   * action killed the server (and its core was one more file past the
   * limit). */
  signal (SIGXFSZ, SIG_IGN);
#ifdef TUNE_GLIBC_MALLOC
  exec_with_tcache (argv);
  /* A request's memory is freed when it is answered, and the top of the
   * heap went back to the kernel (glibc trims above 128 KiB by default)
   * only to be asked for again, page fault by page fault, by the next
   * ones: under full load a third of all brk () calls shrank the heap,
   * and trimming and faulting pages in again were 3 % of the server's CPU
   * (bench/server/bench-cpu.c). A few MiB freed stay for the next
   * requests; allocations under 1 MiB come from the heap (fixing the trim
   * threshold ends glibc's own raising of this one). */
  mallopt (M_TRIM_THRESHOLD, 8 << 20);
  mallopt (M_TOP_PAD, 1 << 20);
  mallopt (M_MMAP_THRESHOLD, 1 << 20);
#endif
  return triage_server_run (argc, argv);
}
