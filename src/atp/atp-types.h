/* atp-types.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Limits of our profile, see docs/protocol.md. */
#define ATP_PROTOCOL_VERSION        "1.0"
#define ATP_MAX_FRAME_SIZE          (1024 * 1024)          /* WebSocket frame cap */
#define ATP_MAX_NOTIFICATION_SIZE   (ATP_MAX_FRAME_SIZE - 4096) /* a notification + envelope fits a frame */
#define ATP_MAX_JSON_DEPTH          64
/* The options of a choice or multi_choice action a person picks from: the
 * app's list of them, searched, was built and measured for 20,000 (a
 * submission's rule; a stored request with more still reads). */
#define ATP_MAX_CHOICE_OPTIONS      20000

/* The protocol an agent spoke to ask (docs/architecture.md): its wire name is
 * the `protocol` member of the envelope and the name of its payload member. */
typedef enum
{
  ATP_PROTOCOL_ATP,
  ATP_PROTOCOL_AITP,
  ATP_PROTOCOL_AFP,
  ATP_N_PROTOCOLS
} AtpProtocol;

#define ATP_PROTOCOL_MASK_ALL ((1u << ATP_N_PROTOCOLS) - 1)

typedef enum
{
  ATP_RESPONSE_TYPE_SIMPLE,
  ATP_RESPONSE_TYPE_BINARY,
  ATP_RESPONSE_TYPE_CHOICE,
  ATP_RESPONSE_TYPE_MULTI_CHOICE,
  ATP_RESPONSE_TYPE_TEXT,
  ATP_RESPONSE_TYPE_NUMBER,
  ATP_RESPONSE_TYPE_SCALE,
} AtpResponseType;

typedef enum
{
  ATP_STATUS_CREATED,
  ATP_STATUS_DELIVERED,
  ATP_STATUS_ACKNOWLEDGED,
  ATP_STATUS_RESPONDED,
  ATP_STATUS_EXPIRED,
  ATP_STATUS_INVALIDATED,
} AtpStatus;

/* The known flags. Unknown flag strings are kept (AtpAction.flag_names) and shown. */
typedef enum
{
  ATP_FLAG_NONE                  = 0,
  ATP_FLAG_DESTRUCTIVE           = 1 << 0,
  ATP_FLAG_IRREVERSIBLE          = 1 << 1,
  ATP_FLAG_TIME_SENSITIVE        = 1 << 2,
  ATP_FLAG_AFFECTS_OTHERS        = 1 << 3,
  ATP_FLAG_COSTLY                = 1 << 4,
  ATP_FLAG_EXPERIMENTAL          = 1 << 5,
  ATP_FLAG_REQUIRES_CONFIRMATION = 1 << 6,
} AtpFlags;

/* Flags for which a client must ask for confirmation before sending. */
#define ATP_FLAGS_CONFIRM (ATP_FLAG_DESTRUCTIVE | ATP_FLAG_IRREVERSIBLE | ATP_FLAG_REQUIRES_CONFIRMATION)

typedef enum
{
  ATP_RESPONDER_HUMAN,
  ATP_RESPONDER_AGENT,
} AtpResponderType;

const char *atp_protocol_to_string        (AtpProtocol       protocol);
gboolean    atp_protocol_from_string      (const char       *str,
                                           AtpProtocol      *protocol);
gboolean    atp_protocol_mask_from_string (const char       *str,
                                           guint            *mask,
                                           GError          **error);
const char *atp_response_type_to_string   (AtpResponseType   type);
gboolean    atp_response_type_from_string (const char       *str,
                                           AtpResponseType  *type);
const char *atp_status_to_string          (AtpStatus         status);
gboolean    atp_status_from_string        (const char       *str,
                                           AtpStatus        *status);
gboolean    atp_status_is_terminal        (AtpStatus         status);
gboolean    atp_status_is_pending         (AtpStatus         status);
const char *atp_flag_to_string            (AtpFlags          flag);   /* one bit */
AtpFlags    atp_flag_from_string          (const char       *str);   /* ATP_FLAG_NONE if unknown */
const char *atp_responder_type_to_string  (AtpResponderType  type);
gboolean    atp_responder_type_from_string (const char      *str,
                                            AtpResponderType *type);

G_END_DECLS
