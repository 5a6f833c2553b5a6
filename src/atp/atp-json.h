/* atp-json.h — bounded JSON input and the small json-glib helpers every part shares
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/**
 * atp_json_parse:
 * @data: (array length=length): the bytes received
 * @length: their length, or -1 if NUL-terminated
 * @max_length: reject input longer than this with %ATP_ERROR_PAYLOAD_TOO_LARGE (0: no limit)
 * @error: %ATP_ERROR_INVALID_JSON for invalid UTF-8, nesting deeper than
 *   %ATP_MAX_JSON_DEPTH, or syntax errors (with line and column)
 *
 * The one entry point for untrusted JSON text. It checks UTF-8, syntax and
 * nesting depth before a parser sees the bytes; yajl then reads them into
 * json-glib's tree.
 *
 * Returns: (transfer full): the root node
 */
JsonNode   *atp_json_parse          (const char   *data,
                                     gssize        length,
                                     gsize         max_length,
                                     GError      **error);

char       *atp_json_pretty         (const char   *data,
                                     gssize        length,
                                     gsize         max_length,
                                     GError      **error);

/* Compact serialization (no pretty printing). */
char       *atp_json_to_string      (JsonNode     *node,
                                     gsize        *length);
char       *atp_json_object_to_string (JsonObject *object,
                                       gsize      *length);
char       *atp_json_strings_to_string (const char *first_name,
                                        ...) G_GNUC_NULL_TERMINATED;

/* Error object body {code, message, details?, request_id} as a string. */
char       *atp_json_error_body     (const char   *code,
                                     const char   *message,
                                     JsonObject   *details,
                                     const char   *request_id);

/* A short description of a JSON value sent, for error messages: `"3"`, `12`, `an
 * object`; a text quoted as JSON writes it, cut to 40 characters with "…". */
char       *atp_json_describe       (JsonNode     *node);

/* RFC 3339 / ISO 8601 helpers built on GDateTime. */
GDateTime  *atp_parse_timestamp     (const char   *text);        /* NULL if not RFC 3339 with an offset */
char       *atp_format_timestamp    (GDateTime    *time);        /* UTC, "Z", microseconds only when non-zero */
gboolean    atp_is_uuid_v4          (const char   *text);
/* NULL, empty or only what shows nothing: (Unicode) whitespace, control and format
 * characters (U+200B, U+2060, U+00AD, …), variation selectors, U+2800 BRAILLE PATTERN
 * BLANK, the Hangul fillers: what a required text may not be. */
gboolean    atp_str_is_blank        (const char   *text);
/* NULL, empty or only (Unicode) whitespace: the rule before atp_str_is_blank () took
 * invisible characters in, which requests stored before it still meet. */
gboolean    atp_str_is_space        (const char   *text);
/* A bidirectional embedding, override or isolate (U+202A–U+202E, U+2066–U+2069):
 * what reorders the text after it ("\u202e~/ fr- mr" shows as "rm -rf /~"). Not the
 * marks (U+200E, U+200F, U+061C), which right-to-left text needs and which only
 * set the direction of the characters around them. */
gboolean    atp_unichar_is_bidi_override (gunichar c);
char       *atp_new_uuid            (void);                      /* g_uuid_string_random() */

G_END_DECLS
