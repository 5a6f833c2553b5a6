/* atp-afp-private.h — parsing helpers shared by the AFP sources, not part of the API
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "atp-afp.h"
#include "atp-notification-private.h"
#include "atp-private.h"

G_BEGIN_DECLS

/* A context with an empty path, MISSING_REQUIRED_FIELD / INVALID_FIELD_VALUE codes. */
void        atp_afp_parse_ctx_init        (AtpParseCtx        *ctx,
                                           GString            *path,
                                           GError            **error);
/*
 * The members of @object not in @known: `x-` members are returned (in their
 * order, a new object, never NULL), any other one is an INVALID_REQUEST that
 * names it (a session field gets its own message: sessions are the tool's).
 */
gboolean    atp_afp_read_extensions       (AtpParseCtx        *ctx,
                                           JsonObject         *object,
                                           const char * const *known,
                                           JsonObject        **extensions);
/* The index of @text in @names (the wire names of an enum's values). */
gboolean    atp_afp_name_lookup           (const char * const *names,
                                           guint               n_names,
                                           const char         *text,
                                           guint              *index);
/* "1.2"; a missing member is "1.2" only when @default_ok. */
gboolean    atp_afp_read_version          (AtpParseCtx        *ctx,
                                           JsonObject         *object,
                                           gboolean            default_ok);
/* A required integer ≥ @minimum. */
gboolean    atp_afp_read_iteration        (AtpParseCtx        *ctx,
                                           JsonObject         *object,
                                           gint64              minimum,
                                           gint64             *value);
/* A required array of objects; @each is called with the path at "<name>[i]". */
typedef gboolean (*AtpAfpItemFunc)        (AtpParseCtx        *ctx,
                                           JsonObject         *item,
                                           guint               index,
                                           gpointer            user_data);
gboolean    atp_afp_read_items            (AtpParseCtx        *ctx,
                                           JsonObject         *object,
                                           const char         *name,
                                           AtpAfpItemFunc      each,
                                           gpointer            user_data);
/* atp_read_string(), the value duplicated into *@value (NULL when absent). */
gboolean    atp_afp_read_string_dup       (AtpParseCtx        *ctx,
                                           JsonObject         *object,
                                           const char         *name,
                                           AtpReadFlags        flags,
                                           char              **value);
/* The feedback object at the context's path (atp-afp-feedback.c). */
AtpAfpFeedback *atp_afp_feedback_parse    (AtpParseCtx        *ctx,
                                           JsonObject         *object);
/* The `artifact` member of @object, at the context's path (atp-afp-request.c). */
gboolean    atp_afp_artifact_parse        (AtpParseCtx        *ctx,
                                           JsonObject         *object,
                                           AtpAfpArtifact     *artifact);
void        atp_afp_artifact_clear        (AtpAfpArtifact     *artifact);
JsonObject *atp_afp_artifact_to_json      (const AtpAfpArtifact *artifact);
/* A node holding @object (the reference is taken over). */
JsonNode   *atp_afp_node_take_object      (JsonObject         *object);

G_END_DECLS
