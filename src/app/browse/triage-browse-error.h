/* triage-browse-error.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define TRIAGE_BROWSE_ERROR (triage_browse_error_quark ())

/**
 * TriageBrowseError:
 * @TRIAGE_BROWSE_ERROR_FAILED: SQLite failed (the message names the step and SQLite's reason)
 * @TRIAGE_BROWSE_ERROR_NO_DATABASE: the app's database is missing or has no
 *   requests table yet (the store has not created it)
 * @TRIAGE_BROWSE_ERROR_NOT_OPEN: the history database was used before it was opened
 *
 * Errors of the inbox and history browser.
 */
typedef enum
{
  TRIAGE_BROWSE_ERROR_FAILED,
  TRIAGE_BROWSE_ERROR_NO_DATABASE,
  TRIAGE_BROWSE_ERROR_NOT_OPEN,
} TriageBrowseError;

GQuark triage_browse_error_quark (void);

G_END_DECLS
