/* triage-attachment-error.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-attachments"

#include "triage-attachment-error.h"

G_DEFINE_QUARK (triage-attachment-error-quark, triage_attachment_error)
