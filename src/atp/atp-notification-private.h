/* atp-notification-private.h — what the notification's sources share
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "atp-error.h"
#include "atp-notification.h"
#include "atp-parse-private.h"

G_BEGIN_DECLS

/* atp-context.c: the parts every request has. */
gboolean    atp_service_parse        (AtpParseCtx      *ctx,
                                      JsonObject       *root,
                                      AtpService       *service);
gboolean    atp_context_parse        (AtpParseCtx      *ctx,
                                      JsonObject       *root,
                                      gboolean          description_required,
                                      AtpContext       *context);
void        atp_service_copy         (AtpService       *to,
                                      const AtpService *from);
void        atp_context_copy         (AtpContext       *to,
                                      const AtpContext *from);
void        atp_service_clear        (AtpService       *service);
void        atp_context_clear        (AtpContext       *context);
void        atp_attachment_free      (AtpAttachment    *attachment);
JsonObject *atp_service_to_json      (const AtpService *service);
JsonObject *atp_context_to_json      (const AtpContext *context);

/* atp-validate.c: one action definition, every rule of the profile §2. */
AtpAction *atp_action_parse          (AtpParseCtx   *ctx,
                                      JsonNode      *node);
AtpAction *atp_action_copy           (const AtpAction *action);
void       atp_action_free           (AtpAction     *action);
JsonNode  *atp_action_to_json        (const AtpAction *action);

G_END_DECLS
