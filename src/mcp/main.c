/* main.c — triage-mcp
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <locale.h>

#include "triage-mcp.h"

int
main (int    argc,
      char **argv)
{
  setlocale (LC_ALL, "");

  return triage_mcp_main (argc, argv);
}
