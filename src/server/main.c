/* main.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <stdlib.h>   /* defines __GLIBC__ under glibc */
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "triage-server.h"

int
main (int argc, char **argv)
{
#ifdef __GLIBC__
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
