/* atp-message.h — the WebSocket envelope {"type": …, "data": {…}}
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "atp-notification.h"
#include "atp-response.h"

G_BEGIN_DECLS

typedef enum
{
  ATP_MESSAGE_UNKNOWN,                 /* a type this version does not know: ignore it */
  ATP_MESSAGE_NOTIFICATION,
  ATP_MESSAGE_STATUS_UPDATE,
  ATP_MESSAGE_HEARTBEAT,
  ATP_MESSAGE_HEARTBEAT_ACK,
  ATP_MESSAGE_ACKNOWLEDGE,
  ATP_MESSAGE_ERROR,
} AtpMessageType;

typedef struct
{
  AtpMessageType    type;
  char             *type_name;         /* as on the wire */
  AtpNotification  *notification;      /* NOTIFICATION */
  AtpStatusUpdate  *status_update;     /* STATUS_UPDATE */
  GDateTime        *timestamp;         /* HEARTBEAT, HEARTBEAT_ACK (nullable for an ack) */
  char             *notification_id;   /* ACKNOWLEDGE */
  AtpErrorInfo     *error;             /* ERROR */
  /*< private >*/
  gatomicrefcount   ref_count;
} AtpMessage;

#define ATP_TYPE_MESSAGE (atp_message_get_type ())

GType       atp_message_get_type               (void) G_GNUC_CONST;

/**
 * atp_message_new_from_data:
 * @data: a text frame
 * @length: its length or -1
 * @error: %ATP_ERROR_INVALID_JSON, or %ATP_ERROR_PROTOCOL for an envelope
 *   without a string `type`, with `data` that is not an object where one
 *   belongs, or with a payload that fails to parse (the nested error's
 *   message is kept)
 *
 * Bounded by %ATP_MAX_FRAME_SIZE. An unknown `type` is not an error: the
 * message has type %ATP_MESSAGE_UNKNOWN.
 */
AtpMessage *atp_message_new_from_data          (const char       *data,
                                                gssize            length,
                                                GError          **error);
AtpMessage *atp_message_new_notification       (AtpNotification  *notification);
AtpMessage *atp_message_new_status_update      (AtpStatusUpdate  *update);
AtpMessage *atp_message_new_heartbeat          (GDateTime        *timestamp);
AtpMessage *atp_message_new_heartbeat_ack      (GDateTime        *timestamp);
AtpMessage *atp_message_new_acknowledge        (const char       *notification_id);
AtpMessage *atp_message_new_error              (AtpErrorInfo     *error);
AtpMessage *atp_message_ref                    (AtpMessage       *self);
void        atp_message_unref                  (AtpMessage       *self);
char       *atp_message_to_string              (AtpMessage       *self,
                                                gsize            *length);
const char *atp_message_type_to_string         (AtpMessageType    type);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AtpMessage, atp_message_unref)

G_END_DECLS
