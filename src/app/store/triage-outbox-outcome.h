/* triage-outbox-outcome.h — what the server's refusal of an answer settles
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "atp-client.h"
#include "triage-store.h"

G_BEGIN_DECLS

TriageOutcome triage_outbox_outcome_for_error (const GError *error);

G_END_DECLS
