/* atp-aitp-private.h — what the AITP sources share, not part of the API
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "atp-aitp.h"
#include "atp-parse-private.h"

G_BEGIN_DECLS

/* atp-aitp-option.c: a DecisionOption (@variant: a DecisionOptionVariant,
 * which has no variants of its own) at the context's path. */
AtpAitpOption *atp_aitp_option_parse   (AtpParseCtx         *ctx,
                                        JsonNode            *node,
                                        gboolean             variant);
void           atp_aitp_option_free    (AtpAitpOption       *option);
JsonNode      *atp_aitp_option_to_json (const AtpAitpOption *option);

/* atp-aitp-request.c: FALSE (failed at @field) when a submission has more
 * than ATP_AITP_MAX_OPTIONS of @field ("options", "variants"): @n. */
gboolean       atp_aitp_check_option_count (AtpParseCtx     *ctx,
                                            const char      *field,
                                            guint            n);

/* A node holding @object (the reference is taken over). */
JsonNode      *atp_aitp_node_take_object (JsonObject        *object);

G_END_DECLS
