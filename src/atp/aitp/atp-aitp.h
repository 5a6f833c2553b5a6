/* atp-aitp.h — NEAR AI's AITP-02 Decisions in libatp (no GTK)
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "atp-aitp-request.h"
#include "atp-aitp-decision.h"

G_BEGIN_DECLS

/* The `$schema` of the decision messages Triage writes (AITP-02's own examples). */
#define ATP_AITP_SCHEMA_URL "https://aitp.dev/v1/decisions/schema.json"

/* The action id of an AITP answer through the respond endpoint. */
#define ATP_AITP_ACTION_ID "decision"

G_END_DECLS
