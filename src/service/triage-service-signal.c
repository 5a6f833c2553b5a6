/* triage-service-signal.c — the terminal closing, for the programs that ask a person
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <signal.h>

#include <glib-unix.h>

#include "triage-service.h"

/**
 * triage_service_add_sighup:
 * @func: called on SIGHUP (the terminal closed)
 * @data: for @func
 *
 * Withdrawing a question when its terminal closes is for a program started
 * from one; a program started under nohup (or anything else that ignores
 * SIGHUP before it runs) was asked to outlive its terminal, and keeps doing so.
 *
 * Returns: the source's id, or 0 when SIGHUP is ignored (nothing added)
 */
guint
triage_service_add_sighup (GSourceFunc func,
                           gpointer    data)
{
  struct sigaction current;

  if (sigaction (SIGHUP, NULL, &current) == 0 && current.sa_handler == SIG_IGN)
    return 0;
  return g_unix_signal_add (SIGHUP, func, data);
}
