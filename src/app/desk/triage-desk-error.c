/* triage-desk-error.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-desk"

#include "triage-desk-error.h"

G_DEFINE_QUARK (triage-desk-error-quark, triage_desk_error)
