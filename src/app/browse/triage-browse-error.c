/* triage-browse-error.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-browse"

#include "triage-browse-error.h"

G_DEFINE_QUARK (triage-browse-error-quark, triage_browse_error)
