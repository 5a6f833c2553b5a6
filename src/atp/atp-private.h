/* atp-private.h — helpers shared by the libatp sources, not part of the API
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <string.h>
#include <json-glib/json-glib.h>

#include "atp-error.h"

G_BEGIN_DECLS

/* Sixteen bytes at a time with GCC/clang vector extensions (SSE2, NEON, or
 * plain code elsewhere): the pre-scan's and the base64 check's hot loops. */
typedef guint8 AtpU8x16 __attribute__ ((vector_size (16)));
typedef gint8 AtpI8x16 __attribute__ ((vector_size (16)));

/* Whether any of the sixteen bytes at @p ends a plain stretch of a JSON
 * string: '"', '\\' or a control character, and with @non_ascii any byte of
 * 0x80 or more (whose UTF-8 the pre-scan checks; the writer copies it). */
static inline gboolean
atp_block_has_string_stop (const guchar *p,
                           gboolean      non_ascii)
{
  AtpU8x16 v;
  AtpI8x16 stop;
  guint64 halves[2];

  memcpy (&v, p, sizeof v);
  stop = (AtpI8x16) (v == '"') | (AtpI8x16) (v == '\\') | (AtpI8x16) (v < 0x20);
  if (non_ascii)
    stop |= (AtpI8x16) (v >= 0x80);
  memcpy (halves, &stop, sizeof halves);
  return (halves[0] | halves[1]) != 0;
}

/* The size and strict pre-scan of untrusted JSON text (atp-json-scan.c): UTF-8, depth,
 * syntax, numbers (any size when @any_number), member names. *@data NULL is "",
 * @length -1 is up to the NUL; *@len is set to the length. */
gboolean  atp_json_check_text         (const char    **data,
                                       gssize          length,
                                       gsize           max_length,
                                       gboolean        any_number,
                                       gsize          *len,
                                       GError        **error);
/* The tree of @len bytes of @data that atp_json_check_text() passed, as
 * JsonParser would build it, read by yajl (atp-json-build.c). */
JsonNode *atp_json_build              (const char     *data,
                                       gsize           len,
                                       GError        **error);
/* Appends the compact JSON text of @node to @out. */
void      atp_json_write_node         (GString        *out,
                                       JsonNode       *node);
/* @node as an object, or NULL with INVALID_REQUEST "<what> must be a JSON object, got …". */
JsonObject *atp_json_require_object   (JsonNode       *node,
                                       const char     *what,
                                       GError        **error);
/* The member @name of @object; NULL when absent or JSON null. */
JsonNode *atp_object_get              (JsonObject     *object,
                                       const char     *name);
/* Adds the members of @extra (in order) that @to does not have yet. */
void      atp_json_object_append_extra (JsonObject    *to,
                                        JsonObject    *extra);
/* A new object with the members of @object not named in @known, in order. */
JsonObject *atp_json_object_collect_extra (JsonObject        *object,
                                           const char * const *known);
/* The same, but NULL when there are none (nearly always): for the parts of
 * every request an app keeps thousands of (an empty object is 260 bytes). */
JsonObject *atp_json_object_collect_extra_or_null (JsonObject        *object,
                                                   const char * const *known);
/* A number node: an integer node when @value is integral and exactly representable. */
JsonNode *atp_json_node_new_number    (double          value);
/* Number value of a JSON number node (int or double), FALSE for anything else (bool included). */
gboolean  atp_json_node_get_number    (JsonNode       *node,
                                       double         *value);
/* A string as a JSON value, or a JSON null node for NULL. */
JsonNode *atp_json_node_new_string    (const char     *value);

/* Strict base64 (RFC 4648 §4 alphabet, padding required, no whitespace, zero pad bits). */
gboolean  atp_base64_check            (const char     *data,
                                       gsize           length,
                                       gsize          *decoded_size);
/* type "/" subtype *( ";" parameter ), RFC 2045 tokens. */
gboolean  atp_mime_type_is_valid      (const char     *text);
/* An absolute URI with a scheme (RFC 3986), without spaces or control characters. */
gboolean  atp_uri_is_absolute         (const char     *text);

/* Validates a `uuid` and returns it lower-cased, or NULL. */
char     *atp_uuid_normalize          (const char     *text);

G_END_DECLS
