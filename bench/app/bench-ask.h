/* bench-ask.h — triage-ask runs for bench-app: started, then interrupted
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* Starts @argv (argv[0]: triage-ask) with @launcher's environment, writes
 * @input (or nothing) on its standard input and closes it; its output is dropped. */
GSubprocess *bench_ask_start     (GSubprocessLauncher *launcher,
                                  const char * const  *argv,
                                  const char          *input);

/* SIGTERM: triage-ask withdraws what it asked, then exits; waits for that. */
void         bench_ask_interrupt (GSubprocess         *ask);

G_END_DECLS
