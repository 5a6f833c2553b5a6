/* main.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "triage-server.h"

int
main (int argc, char **argv)
{
  return triage_server_run (argc, argv);
}
