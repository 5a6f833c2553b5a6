/* main.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gi18n.h>

#include "triage-application.h"

int
main (int   argc,
      char *argv[])
{
  g_autoptr(TriageApplication) app = NULL;

  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  app = triage_application_new ();

  return g_application_run (G_APPLICATION (app), argc, argv);
}
