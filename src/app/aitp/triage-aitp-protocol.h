/* triage-aitp-protocol.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "atp-aitp.h"
#include "triage-protocol.h"

G_BEGIN_DECLS

/**
 * TriageAitpChoice:
 * @id: an option's id, or a variant's for a product with variants
 * @quantity: how many (a products decision; 0 elsewhere)
 *
 * One option a person chose, before it becomes `response_data`.
 */
typedef struct
{
  const char *id;
  guint64     quantity;
} TriageAitpChoice;

#define TRIAGE_TYPE_AITP_PROTOCOL (triage_aitp_protocol_get_type ())

G_DECLARE_FINAL_TYPE (TriageAitpProtocol, triage_aitp_protocol, TRIAGE, AITP_PROTOCOL, GObject)

TriageProtocol *triage_aitp_protocol_get_default   (void);

AtpAitpRequest *triage_aitp_request_from           (AtpNotification        *notification,
                                                    GError                **error);
JsonNode       *triage_aitp_response_data_new      (AtpAitpRequest         *request,
                                                    const TriageAitpChoice *choices,
                                                    guint                   n_choices);

G_END_DECLS
