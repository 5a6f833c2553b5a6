/* atp-parse-private.h — reading JSON members with errors that name the field
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "atp-error.h"

G_BEGIN_DECLS

/*
 * Where the parser is ("actions[1].constraints") and which codes a missing
 * or wrong field gets there: MISSING_REQUIRED_FIELD / INVALID_FIELD_VALUE at
 * the top, MALFORMED_ACTION inside an action.
 */
typedef struct
{
  GString       *path;
  guint          flags;         /* the parser's own (AtpParseFlags for a notification) */
  AtpErrorCode   missing_code;
  AtpErrorCode   invalid_code;
  GError       **error;
} AtpParseCtx;

typedef enum
{
  ATP_READ_OPTIONAL  = 0,
  ATP_READ_REQUIRED  = 1 << 0,
  ATP_READ_NOT_EMPTY = 1 << 1,   /* "" refused */
  ATP_READ_NOT_BLANK = 1 << 2,   /* "" and whitespace-only refused */
} AtpReadFlags;

/* An empty path, MISSING_REQUIRED_FIELD / INVALID_FIELD_VALUE codes. */
void       atp_parse_ctx_init        (AtpParseCtx   *ctx,
                                      GString       *path,
                                      guint          flags,
                                      GError       **error);
gsize      atp_parse_ctx_push        (AtpParseCtx   *ctx,
                                      const char    *field);
gsize      atp_parse_ctx_push_index  (AtpParseCtx   *ctx,
                                      guint          index);
void       atp_parse_ctx_pop         (AtpParseCtx   *ctx,
                                      gsize          length);
gboolean   atp_parse_fail            (AtpParseCtx   *ctx,
                                      AtpErrorCode   code,
                                      const char    *field,
                                      const char    *format,
                                      ...) G_GNUC_PRINTF (4, 5);
/* "<path>.<name>: must be <expected>, got <value>" with the context's invalid code. */
gboolean   atp_parse_fail_type       (AtpParseCtx   *ctx,
                                      const char    *name,
                                      const char    *expected,
                                      JsonNode      *node);
/* "<path>.<name>: required field is missing" with the context's missing code. */
gboolean   atp_parse_fail_missing    (AtpParseCtx   *ctx,
                                      const char    *name);

gboolean   atp_read_string           (AtpParseCtx   *ctx,
                                      JsonObject    *object,
                                      const char    *name,
                                      AtpReadFlags   flags,
                                      const char   **value);
gboolean   atp_read_integer          (AtpParseCtx   *ctx,
                                      JsonObject    *object,
                                      const char    *name,
                                      gboolean       non_negative,
                                      gboolean      *present,
                                      gint64        *value);
/* atp_read_integer() of an integer ≥ @minimum (G_MININT64: any). */
gboolean   atp_read_integer_at_least (AtpParseCtx   *ctx,
                                      JsonObject    *object,
                                      const char    *name,
                                      gint64         minimum,
                                      gboolean      *present,
                                      gint64        *value);
gboolean   atp_read_number           (AtpParseCtx   *ctx,
                                      JsonObject    *object,
                                      const char    *name,
                                      gboolean      *present,
                                      double        *value);
gboolean   atp_read_object           (AtpParseCtx   *ctx,
                                      JsonObject    *object,
                                      const char    *name,
                                      AtpReadFlags   flags,
                                      JsonObject   **value);
gboolean   atp_read_array            (AtpParseCtx   *ctx,
                                      JsonObject    *object,
                                      const char    *name,
                                      AtpReadFlags   flags,
                                      JsonArray    **value);
/* atp_read_string(), the value duplicated into *@value (NULL when absent). */
gboolean   atp_read_string_dup       (AtpParseCtx   *ctx,
                                      JsonObject    *object,
                                      const char    *name,
                                      AtpReadFlags   flags,
                                      char         **value);
/* An RFC 3339 date-time with an offset (atp_parse_timestamp()); NULL when absent. */
gboolean   atp_read_timestamp        (AtpParseCtx   *ctx,
                                      JsonObject    *object,
                                      const char    *name,
                                      AtpReadFlags   flags,
                                      GDateTime    **value);

G_END_DECLS
