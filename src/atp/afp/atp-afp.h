/* atp-afp.h — the Agent Feedback Protocol 1.2 in libatp (no GTK)
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "atp-afp-request.h"
#include "atp-afp-feedback.h"
#include "atp-afp-response.h"
#include "atp-afp-wrapper.h"
#include "atp-afp-review.h"

G_BEGIN_DECLS

#define ATP_AFP_PROTOCOL_VERSION "1.2"

/*
 * Size caps (docs/protocol.md, "Agent Feedback Protocol"). The envelope the
 * server pushes to the app carries a request, the previous iteration's
 * artifact, the person's latest feedback and the ids issued in the session,
 * and must still fit one WebSocket frame (ATP_MAX_FRAME_SIZE).
 */
#define ATP_AFP_MAX_REQUEST_SIZE       (400 * 1024)
#define ATP_AFP_MAX_FEEDBACK_SIZE      (64 * 1024)
#define ATP_AFP_MAX_SESSION_ITEM_IDS   1000
/* A request's applied_feedback.items: each names an item id of the session
 * at most once, and a session issues no more than this (a submission's
 * rule: atp_afp_request_new_submission ()). */
#define ATP_AFP_MAX_APPLIED_ITEMS      ATP_AFP_MAX_SESSION_ITEM_IDS
#define ATP_AFP_ID_MIN_LENGTH          8
#define ATP_AFP_ID_MAX_LENGTH          128

/* Triage's error codes beside the protocol's three baseline ones. */
#define ATP_AFP_CODE_INVALID_REQUEST        "INVALID_REQUEST"
#define ATP_AFP_CODE_UNSUPPORTED_MEDIA_TYPE "UNSUPPORTED_MEDIA_TYPE"
#define ATP_AFP_CODE_INTERNAL_ERROR         "INTERNAL_ERROR"
#define ATP_AFP_CODE_REVIEW_EXPIRED         "REVIEW_EXPIRED"
#define ATP_AFP_CODE_REVIEW_DECLINED        "REVIEW_DECLINED"
#define ATP_AFP_CODE_REVIEW_WITHDRAWN       "REVIEW_WITHDRAWN"

/* `^[a-z0-9._-]{8,128}$`, the pattern of a feedback item's id. */
gboolean     atp_afp_id_is_valid             (const char   *id);

/**
 * atp_afp_id_generate:
 * @aspect: the aspect the item is about ("Scope Definition")
 * @taken: (nullable): ids that may not be used (a set of strings)
 *
 * An id that matches the pattern, made from @aspect (ASCII letters and
 * digits kept, accents dropped, everything else a dash) and a two-digit
 * counter, the first one not in @taken: "scope-definition-01".
 *
 * Returns: (transfer full): the id
 */
char        *atp_afp_id_generate             (const char   *aspect,
                                              GHashTable   *taken);

/*
 * The media types a person can review (text, JSON, XML, YAML and the source
 * code types GtkSourceView knows), ignoring case and parameters.
 */
gboolean     atp_afp_media_type_is_supported (const char   *media_type);
/* "type/subtype" in lower case without parameters; NULL if not a MIME type. */
char        *atp_afp_media_type_essence      (const char   *media_type);

/*
 * The AFP error code for a failure of libatp or of the server's API:
 * UNSUPPORTED_MEDIA_TYPE, INVALID_REQUEST for every problem of the request
 * (JSON, fields, size, session), INTERNAL_ERROR for anything else.
 */
const char  *atp_afp_error_code_for          (const GError *error);

G_END_DECLS
