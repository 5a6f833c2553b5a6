/* app-test-application.h — the whole application in a test process
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "app-test-common.h"
#include "triage-application.h"

/* A registered application, not unique on the bus: tests may run side by side
 * on one session bus. */
static inline TriageApplication *
app_test_application_new (void)
{
  TriageApplication *app = triage_application_new ();
  g_autoptr(GError) error = NULL;

  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_NON_UNIQUE);
  g_application_register (G_APPLICATION (app), NULL, &error);
  g_assert_no_error (error);

  return app;
}

/* Shuts it down (its shutdown work runs on the loop) and drops it. */
static inline void
app_test_application_free (TriageApplication *app)
{
  g_application_quit (G_APPLICATION (app));
  app_test_spin (100);
  g_object_unref (app);
}
