/* atp-afp-wrapper.h — the NDJSON wrapper stream of AFP's standard I/O binding
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>
#include <json-glib/json-glib.h>

#include "atp-afp-response.h"

G_BEGIN_DECLS

typedef enum
{
  ATP_AFP_WRAPPER_STEP_START,
  ATP_AFP_WRAPPER_TEXT,
  ATP_AFP_WRAPPER_STEP_FINISH,
  ATP_AFP_WRAPPER_UNKNOWN,             /* to be ignored (§2.2.1) */
} AtpAfpWrapperType;

/* One line of the stream. Fields read-only. */
typedef struct
{
  AtpAfpWrapperType  type;
  char              *type_name;        /* as sent */
  gint64             timestamp;        /* Unix milliseconds */
  char              *session_id;       /* `sessionID` */
  JsonObject        *part;             /* type-specific, kept as sent */
  JsonObject        *extra;            /* other members, kept as sent */
  /*< private >*/
  gatomicrefcount    ref_count;
} AtpAfpWrapperMessage;

#define ATP_TYPE_AFP_WRAPPER_MESSAGE (atp_afp_wrapper_message_get_type ())

GType                 atp_afp_wrapper_message_get_type      (void) G_GNUC_CONST;

/**
 * atp_afp_wrapper_message_new_from_json:
 * @node: one wrapper message
 * @error: an %ATP_ERROR naming the field: `type` (a non-empty string),
 *   `timestamp` (an integer ≥ 0), `sessionID` (a non-empty string) and
 *   `part` (an object) are required; a `text` message's `part.text` must be
 *   a string
 *
 * Returns: (transfer full) (nullable): the message
 */
AtpAfpWrapperMessage *atp_afp_wrapper_message_new_from_json (JsonNode              *node,
                                                             GError               **error);
/* One line (without or with its "\n"), bounded by %ATP_MAX_FRAME_SIZE. */
AtpAfpWrapperMessage *atp_afp_wrapper_message_new_from_data (const char            *data,
                                                             gssize                 length,
                                                             GError               **error);
AtpAfpWrapperMessage *atp_afp_wrapper_message_ref           (AtpAfpWrapperMessage  *self);
void                  atp_afp_wrapper_message_unref         (AtpAfpWrapperMessage  *self);
JsonNode             *atp_afp_wrapper_message_to_json       (AtpAfpWrapperMessage  *self);
/* The Response Object in `part.text` of a `text` message. */
AtpAfpResponse       *atp_afp_wrapper_message_get_response  (AtpAfpWrapperMessage  *self,
                                                             GError               **error);

/* What the three lines say besides the Response Object. */
typedef struct
{
  const char *session_id;
  const char *message_id;              /* NULL: a random "msg_…" */
  gint64      started_ms;              /* step_start: the review was asked for */
  gint64      answered_ms;             /* text: the answer was given */
  gint64      finished_ms;             /* step_finish: the stream is written */
  JsonObject *finish_extensions;       /* nullable: `x-` members of step_finish's part */
} AtpAfpStreamInfo;

/**
 * atp_afp_wrapper_write_stream:
 * @info: session, message id and times
 * @response: the Response Object
 * @length: (out) (optional): the length of the text
 *
 * The three NDJSON lines, each ending in "\n": `step_start`, `text` with
 * @response serialized as a JSON string in `part.text`, and `step_finish`
 * with `cost` 0 and `tokens` {input 0, output 0}.
 *
 * Returns: (transfer full): the text
 */
char                 *atp_afp_wrapper_write_stream          (const AtpAfpStreamInfo *info,
                                                             AtpAfpResponse         *response,
                                                             gsize                  *length);

/**
 * atp_afp_wrapper_read_stream:
 * @data: NDJSON text
 * @length: its length, or -1
 * @session_id: (out) (optional) (transfer full): the session
 * @error: %ATP_ERROR_PROTOCOL (or the error of the line at fault, its
 *   number added) when a line is not a wrapper message, the `sessionID`
 *   changes, or there is not exactly one `text` message
 *
 * What a Requester does (§2.2.1): every line is parsed, unknown types are
 * ignored, and the Response Object of the `text` message is returned. Lines
 * after `step_finish` are not read.
 *
 * Returns: (transfer full) (nullable): the response
 */
AtpAfpResponse       *atp_afp_wrapper_read_stream           (const char             *data,
                                                             gssize                  length,
                                                             char                  **session_id,
                                                             GError                **error);

/* @prefix followed by @length random characters of [A-Za-z0-9] (getrandom). */
char                 *atp_afp_random_id                     (const char             *prefix,
                                                             guint                   length);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AtpAfpWrapperMessage, atp_afp_wrapper_message_unref)

G_END_DECLS
