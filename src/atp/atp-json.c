/* atp-json.c — bounded JSON input, compact output and small shared helpers
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "atp-json"

#include "atp-json.h"

#include <math.h>
#include <string.h>

#include "atp-error.h"
#include "atp-private.h"
#include "atp-response.h"
#include "atp-types.h"

/* ------------------------------------------------------------------------ */
/* Strict pre-scan                                                           */
/* ------------------------------------------------------------------------ */

/*
 * json-glib 1.6 is lenient (comments, single quotes, hex numbers, a leading
 * "var x =", 1e400 read as inf, integers wrapping past int64, \u0000 cutting a
 * string) and recurses once per nesting level. So every byte is checked here
 * first, in one pass without recursion, against RFC 8259: once this passes,
 * json-glib only ever sees plain, bounded JSON.
 */

enum
{
  CH_PLAIN = 0,
  CH_STOP = 1,   /* '"', '\\' or a control character: escaped on output */
};

static const guint8 string_class[256] = {
  [0x00] = CH_STOP, [0x01] = CH_STOP, [0x02] = CH_STOP, [0x03] = CH_STOP,
  [0x04] = CH_STOP, [0x05] = CH_STOP, [0x06] = CH_STOP, [0x07] = CH_STOP,
  [0x08] = CH_STOP, [0x09] = CH_STOP, [0x0a] = CH_STOP, [0x0b] = CH_STOP,
  [0x0c] = CH_STOP, [0x0d] = CH_STOP, [0x0e] = CH_STOP, [0x0f] = CH_STOP,
  [0x10] = CH_STOP, [0x11] = CH_STOP, [0x12] = CH_STOP, [0x13] = CH_STOP,
  [0x14] = CH_STOP, [0x15] = CH_STOP, [0x16] = CH_STOP, [0x17] = CH_STOP,
  [0x18] = CH_STOP, [0x19] = CH_STOP, [0x1a] = CH_STOP, [0x1b] = CH_STOP,
  [0x1c] = CH_STOP, [0x1d] = CH_STOP, [0x1e] = CH_STOP, [0x1f] = CH_STOP,
  ['"'] = CH_STOP, ['\\'] = CH_STOP,
};

/*
 * Bytes that end the fast loop inside a string: '"', '\\', control
 * characters and every non-ASCII byte (whose UTF-8 sequence is then checked).
 */
static const guint8 scan_stop[256] = {
  [0x00 ... 0x1f] = 1,
  ['"'] = 1, ['\\'] = 1,
  [0x80 ... 0xff] = 1,
};

/* Sixteen bytes at a time with GCC/clang vector extensions (SSE2, NEON, or
 * plain code elsewhere) through the long stretches of plain text: a base64
 * attachment is most of a large notification. */
typedef guint8 AtpU8x16 __attribute__ ((vector_size (16)));
typedef gint8 AtpI8x16 __attribute__ ((vector_size (16)));

/* Whether any of the sixteen bytes at @p is one of scan_stop's. */
static inline gboolean
block_has_stop (const guchar *p)
{
  AtpU8x16 v;
  AtpI8x16 stop;
  guint64 halves[2];

  memcpy (&v, p, sizeof v);
  stop = (AtpI8x16) (v == '"') | (AtpI8x16) (v == '\\') |
         (AtpI8x16) (v < 0x20) | (AtpI8x16) (v >= 0x80);
  memcpy (halves, &stop, sizeof halves);
  return (halves[0] | halves[1]) != 0;
}

/* Length of the valid UTF-8 sequence at @s (RFC 3629: no overlong forms, no
 * surrogates, nothing above U+10FFFF), 0 if there is none. */
static inline guint
utf8_sequence_length (const guchar *s,
                      gsize         avail)
{
  guchar c = s[0];

  if (c < 0x80)
    return 1;
  if (c < 0xc2)
    return 0;
  if (c < 0xe0)
    return (avail >= 2 && (s[1] & 0xc0) == 0x80) ? 2 : 0;
  if (c < 0xf0)
    {
      if (avail < 3 || (s[1] & 0xc0) != 0x80 || (s[2] & 0xc0) != 0x80)
        return 0;
      if ((c == 0xe0 && s[1] < 0xa0) || (c == 0xed && s[1] >= 0xa0))
        return 0;
      return 3;
    }
  if (c < 0xf5)
    {
      if (avail < 4 || (s[1] & 0xc0) != 0x80 || (s[2] & 0xc0) != 0x80 || (s[3] & 0xc0) != 0x80)
        return 0;
      if ((c == 0xf0 && s[1] < 0x90) || (c == 0xf4 && s[1] >= 0x90))
        return 0;
      return 4;
    }
  return 0;
}

/*
 * Duplicate member names are refused: json-glib keeps the last one, other
 * parsers the first, and a body two programs read differently is a way to
 * smuggle a value past a check. The names of the objects being scanned are
 * kept on one stack; an object with many members gets a hash set.
 */
#define KEYS_LINEAR_MAX 16

typedef struct
{
  const char *name;          /* into the input, or into a decoded copy */
  gsize       length;
  guint32     hash;
} KeyRef;

#define KEYS_INLINE 128

typedef struct
{
  const guchar *s;
  gsize         len;
  gsize         pos;
  GError      **error;
  KeyRef       *keys;                             /* inline_keys, or on the heap when larger */
  guint         n_keys;
  guint         keys_size;
  KeyRef        inline_keys[KEYS_INLINE];
  guint         first_key[ATP_MAX_JSON_DEPTH];    /* per open container */
  GHashTable   *big[ATP_MAX_JSON_DEPTH];          /* per open object, when large */
  GPtrArray    *decoded;                          /* names that had escapes */
  gboolean      any_number;                       /* numbers of any size (text is only shown) */
} Scan;

static void
scan_clear (Scan *scan)
{
  for (guint i = 0; i < G_N_ELEMENTS (scan->big); i++)
    g_clear_pointer (&scan->big[i], g_hash_table_unref);
  if (scan->keys != scan->inline_keys)
    g_free (scan->keys);
  scan->keys = NULL;
  g_clear_pointer (&scan->decoded, g_ptr_array_unref);
}

static void
position_of (const guchar *s,
             gsize         offset,
             guint        *line,
             guint        *column)
{
  gsize line_start = 0;

  *line = 1;
  for (gsize i = 0; i < offset; i++)
    {
      if (s[i] == '\n')
        {
          (*line)++;
          line_start = i + 1;
        }
    }

  /* Columns count characters; inside invalid UTF-8 they count lead bytes. */
  *column = 1;
  for (gsize i = line_start; i < offset; i++)
    {
      if ((s[i] & 0xc0) != 0x80)
        (*column)++;
    }
}

G_GNUC_PRINTF (3, 4)
static gboolean
scan_fail (Scan       *scan,
           gsize       offset,
           const char *format,
           ...)
{
  g_autofree char *what = NULL;
  guint line, column;
  va_list args;

  va_start (args, format);
  what = g_strdup_vprintf (format, args);
  va_end (args);

  position_of (scan->s, offset, &line, &column);
  g_set_error (scan->error, ATP_ERROR, ATP_ERROR_INVALID_JSON,
               "Invalid JSON at line %u, column %u: %s", line, column, what);
  return FALSE;
}

static gboolean
scan_unexpected (Scan       *scan,
                 const char *expected)
{
  guchar c = scan->s[scan->pos];

  if (c >= 0x20 && c < 0x7f)
    return scan_fail (scan, scan->pos, "unexpected character '%c', expected %s", c, expected);
  if (c == 0)
    return scan_fail (scan, scan->pos, "NUL byte in the text, expected %s", expected);
  if (c >= 0x80 && utf8_sequence_length (scan->s + scan->pos, scan->len - scan->pos) == 0)
    return scan_fail (scan, scan->pos, "invalid UTF-8 (byte 0x%02x at offset %" G_GSIZE_FORMAT ")",
                      c, scan->pos);
  return scan_fail (scan, scan->pos, "unexpected byte 0x%02x, expected %s", c, expected);
}

static int
hex_value (guchar c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

/* The four hex digits of a \u escape at @at; -1 if they are not there. */
static gint32
scan_hex4 (const guchar *s,
           gsize         len,
           gsize         at)
{
  gint32 value = 0;

  if (at > len || len - at < 4)
    return -1;

  for (guint k = 0; k < 4; k++)
    {
      int h = hex_value (s[at + k]);

      if (h < 0)
        return -1;
      value = (value << 4) | h;
    }

  return value;
}

/* scan->pos is on the opening quote; sets *escaped if a backslash was seen. */
static gboolean
scan_string (Scan     *scan,
             gboolean *escaped)
{
  const guchar *s = scan->s;
  gsize len = scan->len;
  gsize start = scan->pos;
  gsize i = start + 1;

  *escaped = FALSE;

  for (;;)
    {
      while (i + 16 <= len && !block_has_stop (s + i))
        i += 16;
      while (i < len && !scan_stop[s[i]])
        i++;

      if (i >= len)
        return scan_fail (scan, start, "unterminated string");

      if (s[i] == '"')
        {
          scan->pos = i + 1;
          return TRUE;
        }

      if (s[i] >= 0x80)
        {
          guint n = utf8_sequence_length (s + i, len - i);

          if (n == 0)
            return scan_fail (scan, i, "invalid UTF-8 (byte 0x%02x at offset %" G_GSIZE_FORMAT ")",
                              s[i], i);
          i += n;
          continue;
        }

      if (s[i] == 0)
        return scan_fail (scan, i, "NUL byte in a string");

      if (s[i] != '\\')
        return scan_fail (scan, i, "control character 0x%02x in a string (it must be escaped)", s[i]);

      *escaped = TRUE;
      if (i + 1 >= len)
        return scan_fail (scan, start, "unterminated string");

      switch (s[i + 1])
        {
        case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r': case 't':
          i += 2;
          break;

        case 'u':
          {
            gint32 cp = scan_hex4 (s, len, i + 2);

            if (cp < 0)
              return scan_fail (scan, i, "invalid \\u escape (four hex digits expected)");
            if (cp == 0)
              return scan_fail (scan, i, "\\u0000 is not allowed in a string");
            if (cp >= 0xdc00 && cp <= 0xdfff)
              return scan_fail (scan, i, "unpaired UTF-16 surrogate \\u%04x", (guint) cp);
            if (cp >= 0xd800 && cp <= 0xdbff)
              {
                gint32 low = -1;

                if (i + 7 < len && s[i + 6] == '\\' && s[i + 7] == 'u')
                  low = scan_hex4 (s, len, i + 8);
                if (low < 0xdc00 || low > 0xdfff)
                  return scan_fail (scan, i, "unpaired UTF-16 surrogate \\u%04x", (guint) cp);
                i += 12;
              }
            else
              {
                i += 6;
              }
          }
          break;

        default:
          return scan_fail (scan, i, "invalid escape sequence in a string");
        }
    }
}

/* The text of the (already checked) string between @start and @end, quotes excluded. */
static char *
unescape (const guchar *s,
          gsize         start,
          gsize         end)
{
  GString *out = g_string_sized_new (end - start);

  for (gsize i = start; i < end; i++)
    {
      if (s[i] != '\\')
        {
          g_string_append_c (out, s[i]);
          continue;
        }

      i++;
      switch (s[i])
        {
        case 'b': g_string_append_c (out, '\b'); break;
        case 'f': g_string_append_c (out, '\f'); break;
        case 'n': g_string_append_c (out, '\n'); break;
        case 'r': g_string_append_c (out, '\r'); break;
        case 't': g_string_append_c (out, '\t'); break;
        case 'u':
          {
            gunichar cp = (gunichar) scan_hex4 (s, end, i + 1);

            i += 4;
            if (cp >= 0xd800 && cp <= 0xdbff)
              {
                gunichar low = (gunichar) scan_hex4 (s, end, i + 3);

                cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
                i += 6;
              }
            g_string_append_unichar (out, cp);
          }
          break;
        default:
          g_string_append_c (out, s[i]);
          break;
        }
    }

  return g_string_free (out, FALSE);
}

static gboolean
key_equal (const KeyRef *a,
           const KeyRef *b)
{
  return a->hash == b->hash && a->length == b->length && memcmp (a->name, b->name, a->length) == 0;
}

static guint
key_ref_hash (gconstpointer key)
{
  return ((const KeyRef *) key)->hash;
}

static gboolean
key_ref_equal (gconstpointer a,
               gconstpointer b)
{
  return key_equal (a, b);
}

/* A member name of the innermost object was scanned from @start to scan->pos. */
static gboolean
scan_check_key (Scan     *scan,
                guint     depth,
                gsize     start,
                gboolean  escaped)
{
  KeyRef key;
  guint32 hash = 2166136261u;
  guint first = scan->first_key[depth - 1];
  GHashTable *big = scan->big[depth - 1];

  if (escaped)
    {
      char *decoded = unescape (scan->s, start + 1, scan->pos - 1);

      if (scan->decoded == NULL)
        scan->decoded = g_ptr_array_new_with_free_func (g_free);
      g_ptr_array_add (scan->decoded, decoded);
      key.name = decoded;
      key.length = strlen (decoded);
    }
  else
    {
      key.name = (const char *) scan->s + start + 1;
      key.length = scan->pos - start - 2;
    }

  for (gsize i = 0; i < key.length; i++)
    hash = (hash ^ (guchar) key.name[i]) * 16777619u;
  key.hash = hash;

  if (big == NULL)
    {
      for (guint i = first; i < scan->n_keys; i++)
        {
          if (key_equal (&scan->keys[i], &key))
            goto duplicate;
        }

      if (scan->n_keys == scan->keys_size)
        {
          scan->keys_size *= 2;
          if (scan->keys == scan->inline_keys)
            scan->keys = g_memdup2 (scan->inline_keys, sizeof (KeyRef) * scan->n_keys);
          scan->keys = g_renew (KeyRef, scan->keys, scan->keys_size);
        }
      scan->keys[scan->n_keys++] = key;

      if (scan->n_keys - first > KEYS_LINEAR_MAX)
        {
          /* Many members: from now on a set, so a hostile object stays linear. */
          big = g_hash_table_new_full (key_ref_hash, key_ref_equal, g_free, NULL);
          for (guint i = first; i < scan->n_keys; i++)
            g_hash_table_add (big, g_memdup2 (&scan->keys[i], sizeof (KeyRef)));
          scan->big[depth - 1] = big;
        }
    }
  else
    {
      if (g_hash_table_contains (big, &key))
        goto duplicate;
      g_hash_table_add (big, g_memdup2 (&key, sizeof key));
    }

  return TRUE;

duplicate:
  {
    g_autofree char *name = g_strndup (key.name, MIN (key.length, 40));

    /* Do not cut a character in half. */
    if (!g_utf8_validate (name, -1, NULL))
      {
        const char *end;

        g_utf8_validate (name, -1, &end);
        name[end - name] = '\0';
      }
    return scan_fail (scan, start, "duplicate member name \"%s%s\"", name, key.length > 40 ? "…" : "");
  }
}

static inline gboolean
is_digit (guchar c)
{
  return c >= '0' && c <= '9';
}

/* scan->pos is on '-' or a digit. */
static gboolean
scan_number (Scan *scan)
{
  const guchar *s = scan->s;
  gsize len = scan->len;
  gsize start = scan->pos;
  gsize i = start;
  gsize int_start, int_digits;
  gboolean negative = FALSE;
  gboolean is_float = FALSE;
  gboolean has_exponent = FALSE;

  if (s[i] == '-')
    {
      negative = TRUE;
      i++;
    }

  if (i >= len || !is_digit (s[i]))
    return scan_fail (scan, start, "invalid number (a digit must follow '-')");

  int_start = i;
  if (s[i] == '0')
    {
      i++;
      if (i < len && is_digit (s[i]))
        return scan_fail (scan, start, "invalid number (leading zero)");
    }
  else
    {
      while (i < len && is_digit (s[i]))
        i++;
    }
  int_digits = i - int_start;

  if (i < len && s[i] == '.')
    {
      i++;
      is_float = TRUE;
      if (i >= len || !is_digit (s[i]))
        return scan_fail (scan, start, "invalid number (a digit must follow '.')");
      while (i < len && is_digit (s[i]))
        i++;
    }

  if (i < len && (s[i] == 'e' || s[i] == 'E'))
    {
      i++;
      is_float = TRUE;
      has_exponent = TRUE;
      if (i < len && (s[i] == '+' || s[i] == '-'))
        i++;
      if (i >= len || !is_digit (s[i]))
        return scan_fail (scan, start, "invalid number (a digit must follow the exponent)");
      while (i < len && is_digit (s[i]))
        i++;
    }

  if (scan->any_number)
    ;   /* the text is kept as written, never read as a number */
  else if (!is_float)
    {
      /* json-glib reads integers as int64 and silently wraps past it. */
      static const char max_pos[] = "9223372036854775807";
      static const char max_neg[] = "9223372036854775808";

      if (int_digits > 19 ||
          (int_digits == 19 &&
           memcmp (s + int_start, negative ? max_neg : max_pos, 19) > 0))
        return scan_fail (scan, start, "integer out of range (64-bit signed integers only)");
    }
  else if (has_exponent || int_digits > 300)
    {
      /* Only these can overflow a double; json-glib would read inf. */
      g_autofree char *copy = g_strndup ((const char *) s + start, i - start);
      double value = g_ascii_strtod (copy, NULL);

      if (!isfinite (value))
        return scan_fail (scan, start, "number out of range");
    }

  scan->pos = i;
  return TRUE;
}

static gboolean
scan_literal (Scan       *scan,
              const char *literal)
{
  gsize n = strlen (literal);

  if (scan->len - scan->pos < n || memcmp (scan->s + scan->pos, literal, n) != 0)
    return scan_unexpected (scan, "a value");

  scan->pos += n;
  return TRUE;
}

static inline void
scan_whitespace (Scan *scan)
{
  while (scan->pos < scan->len)
    {
      guchar c = scan->s[scan->pos];

      if (c != ' ' && c != '\n' && c != '\r' && c != '\t')
        break;
      scan->pos++;
    }
}

typedef enum
{
  ST_VALUE,
  ST_VALUE_OR_END_ARRAY,
  ST_KEY,
  ST_KEY_OR_END_OBJECT,
  ST_AFTER_VALUE,
} ScanState;

static void
scan_close (Scan  *scan,
            guint *depth)
{
  (*depth)--;
  scan->n_keys = scan->first_key[*depth];
  g_clear_pointer (&scan->big[*depth], g_hash_table_unref);
}

/*
 * One pass, no recursion, over the whole text: UTF-8 (RFC 3629), syntax
 * (RFC 8259), nesting depth, number range, \u escapes, duplicate names.
 */
static gboolean
json_prescan (Scan *scan)
{
  guchar stack[ATP_MAX_JSON_DEPTH];
  guint depth = 0;
  ScanState state = ST_VALUE;

  for (;;)
    {
      gboolean escaped;
      gsize start;
      guchar c;

      scan_whitespace (scan);

      if (scan->pos >= scan->len)
        {
          if (state == ST_AFTER_VALUE && depth == 0)
            return TRUE;
          return scan_fail (scan, scan->len, "unexpected end of input");
        }

      c = scan->s[scan->pos];

      switch (state)
        {
        case ST_AFTER_VALUE:
          if (depth == 0)
            return scan_unexpected (scan, "the end of the input");
          if (c == ',')
            {
              state = stack[depth - 1] == '{' ? ST_KEY : ST_VALUE;
              scan->pos++;
            }
          else if ((c == '}' && stack[depth - 1] == '{') ||
                   (c == ']' && stack[depth - 1] == '['))
            {
              scan_close (scan, &depth);
              scan->pos++;
            }
          else
            {
              return scan_unexpected (scan, stack[depth - 1] == '{' ? "',' or '}'" : "',' or ']'");
            }
          break;

        case ST_KEY_OR_END_OBJECT:
        case ST_KEY:
          if (c == '}' && state == ST_KEY_OR_END_OBJECT)
            {
              scan_close (scan, &depth);
              scan->pos++;
              state = ST_AFTER_VALUE;
              break;
            }
          if (c != '"')
            return scan_unexpected (scan, "a member name (a string)");
          start = scan->pos;
          if (!scan_string (scan, &escaped) ||
              !scan_check_key (scan, depth, start, escaped))
            return FALSE;
          scan_whitespace (scan);
          if (scan->pos >= scan->len)
            return scan_fail (scan, scan->len, "unexpected end of input");
          if (scan->s[scan->pos] != ':')
            return scan_unexpected (scan, "':'");
          scan->pos++;
          state = ST_VALUE;
          break;

        case ST_VALUE_OR_END_ARRAY:
        case ST_VALUE:
          if (c == ']' && state == ST_VALUE_OR_END_ARRAY)
            {
              scan_close (scan, &depth);
              scan->pos++;
              state = ST_AFTER_VALUE;
              break;
            }
          switch (c)
            {
            case '{':
            case '[':
              if (depth >= ATP_MAX_JSON_DEPTH)
                return scan_fail (scan, scan->pos, "nested deeper than %d levels", ATP_MAX_JSON_DEPTH);
              scan->first_key[depth] = scan->n_keys;
              stack[depth++] = c;
              scan->pos++;
              state = c == '{' ? ST_KEY_OR_END_OBJECT : ST_VALUE_OR_END_ARRAY;
              break;

            case '"':
              if (!scan_string (scan, &escaped))
                return FALSE;
              state = ST_AFTER_VALUE;
              break;

            case 't':
              if (!scan_literal (scan, "true"))
                return FALSE;
              state = ST_AFTER_VALUE;
              break;

            case 'f':
              if (!scan_literal (scan, "false"))
                return FALSE;
              state = ST_AFTER_VALUE;
              break;

            case 'n':
              if (!scan_literal (scan, "null"))
                return FALSE;
              state = ST_AFTER_VALUE;
              break;

            default:
              if (c != '-' && !is_digit (c))
                return scan_unexpected (scan, "a value");
              if (!scan_number (scan))
                return FALSE;
              state = ST_AFTER_VALUE;
              break;
            }
          break;

        default:
          g_assert_not_reached ();
        }
    }
}

/* ------------------------------------------------------------------------ */
/* Parsing                                                                   */
/* ------------------------------------------------------------------------ */

/**
 * atp_json_parse:
 * @data: (array length=length): the bytes received
 * @length: their length, or -1 if NUL-terminated
 * @max_length: reject input longer than this with %ATP_ERROR_PAYLOAD_TOO_LARGE (0: no limit)
 * @error: return location for an error
 *
 * The one entry point for untrusted JSON text. Before json-glib sees the
 * bytes, one pass without recursion checks the size, UTF-8, the syntax
 * (strict RFC 8259: no comments, single quotes, hex or NaN), the nesting
 * depth (%ATP_MAX_JSON_DEPTH), number range (int64, finite doubles), \u
 * escapes (no \u0000, no unpaired surrogates) and duplicate member names.
 * Errors give the line and column.
 *
 * Returns: (transfer full) (nullable): the root node
 */
/* The size and pre-scan of untrusted text: UTF-8, depth, syntax, member
 * names. *@data NULL is "", @length -1 is up to the NUL; *@len is the length. */
static gboolean
check_text (const char **data,
            gssize       length,
            gsize        max_length,
            gboolean     any_number,
            gsize       *len,
            GError     **error)
{
  Scan scan;
  gboolean ok;

  if (*data == NULL)
    *data = "";
  *len = length < 0 ? strlen (*data) : (gsize) length;

  if (max_length > 0 && *len > max_length)
    {
      g_set_error (error, ATP_ERROR, ATP_ERROR_PAYLOAD_TOO_LARGE,
                   "JSON text of %" G_GSIZE_FORMAT " bytes is larger than the limit of %" G_GSIZE_FORMAT " bytes",
                   *len, max_length);
      return FALSE;
    }

  /* Not "= { 0 }": that would clear the inline key storage on every call. */
  scan.s = (const guchar *) *data;
  scan.len = *len;
  scan.pos = 0;
  scan.error = error;
  scan.keys = scan.inline_keys;
  scan.n_keys = 0;
  scan.keys_size = KEYS_INLINE;
  memset (scan.big, 0, sizeof scan.big);
  scan.decoded = NULL;
  scan.any_number = any_number;
  ok = json_prescan (&scan);
  scan_clear (&scan);

  return ok;
}

JsonNode *
atp_json_parse (const char  *data,
                gssize       length,
                gsize        max_length,
                GError     **error)
{
  g_autoptr(JsonParser) parser = NULL;
  g_autoptr(GError) local_error = NULL;
  gsize len;

  g_return_val_if_fail (data != NULL || length <= 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);


  if (!check_text (&data, length, max_length, FALSE, &len, error))
    return NULL;

  parser = json_parser_new ();
  if (!json_parser_load_from_data (parser, data, len, &local_error))
    {
      /* Not expected once the pre-scan passed; kept as a safety net. */
      g_set_error (error, ATP_ERROR, ATP_ERROR_INVALID_JSON,
                   "Invalid JSON: %s", local_error->message);
      return NULL;
    }

  return json_parser_steal_root (parser);
}

static void
newline (GString *out,
         guint    depth)
{
  g_string_append_c (out, '\n');
  for (guint i = 0; i < depth; i++)
    g_string_append (out, "  ");
}

/**
 * atp_json_pretty:
 * @data: (array length=length): JSON text
 * @length: its length, or -1 if NUL-terminated
 * @max_length: reject longer input with %ATP_ERROR_PAYLOAD_TOO_LARGE (0: no limit)
 * @error: %ATP_ERROR_INVALID_JSON as atp_json_parse() says it
 *
 * @data checked as atp_json_parse() checks it, and laid out two spaces an
 * indent, one member or element a line. Strings and numbers stay exactly as
 * written: "0.1" is not "0.10000000000000001", "1e3" not "1000.0", and an
 * integer past 64 bits is not refused (json-glib would change them all).
 *
 * Returns: (transfer full): the text laid out
 */
char *
atp_json_pretty (const char  *data,
                 gssize       length,
                 gsize        max_length,
                 GError     **error)
{
  GString *out;
  gboolean in_string = FALSE;
  guint depth = 0;
  gsize len;

  g_return_val_if_fail (data != NULL || length <= 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!check_text (&data, length, max_length, TRUE, &len, error))
    return NULL;

  /* Valid from here on: only the layout changes. */
  out = g_string_sized_new (len + len / 4);
  for (gsize i = 0; i < len; i++)
    {
      char c = data[i];

      if (in_string)
        {
          g_string_append_c (out, c);
          if (c == '\\')
            g_string_append_c (out, data[++i]);
          else if (c == '"')
            in_string = FALSE;
          continue;
        }

      switch (c)
        {
        case ' ': case '\t': case '\n': case '\r':
          break;
        case '"':
          in_string = TRUE;
          g_string_append_c (out, c);
          break;
        case '{': case '[':
          {
            gsize next = i + 1;

            while (next < len && g_ascii_isspace (data[next]))
              next++;
            g_string_append_c (out, c);
            if (data[next] == '}' || data[next] == ']')
              {
                g_string_append_c (out, data[next]);   /* {} and [] stay on one line */
                i = next;
              }
            else
              newline (out, ++depth);
          }
          break;
        case '}': case ']':
          newline (out, --depth);
          g_string_append_c (out, c);
          break;
        case ',':
          g_string_append_c (out, c);
          newline (out, depth);
          break;
        case ':':
          g_string_append (out, ": ");
          break;
        default:
          g_string_append_c (out, c);
          break;
        }
    }

  return g_string_free (out, FALSE);
}

/* ------------------------------------------------------------------------ */
/* Output                                                                    */
/* ------------------------------------------------------------------------ */

static const char hex_digits[] = "0123456789abcdef";

static void
write_string (GString    *out,
              const char *str)
{
  const guchar *s = (const guchar *) str;
  const guchar *run = s;

  g_string_append_c (out, '"');

  for (; *s != '\0'; s++)
    {
      if (string_class[*s] == CH_PLAIN)
        continue;

      if (s > run)
        g_string_append_len (out, (const char *) run, s - run);
      run = s + 1;

      switch (*s)
        {
        case '"': g_string_append (out, "\\\""); break;
        case '\\': g_string_append (out, "\\\\"); break;
        case '\b': g_string_append (out, "\\b"); break;
        case '\f': g_string_append (out, "\\f"); break;
        case '\n': g_string_append (out, "\\n"); break;
        case '\r': g_string_append (out, "\\r"); break;
        case '\t': g_string_append (out, "\\t"); break;
        default:
          {
            char esc[7] = { '\\', 'u', '0', '0', hex_digits[*s >> 4], hex_digits[*s & 0xf], '\0' };
            g_string_append_len (out, esc, 6);
          }
          break;
        }
    }

  if (s > run)
    g_string_append_len (out, (const char *) run, s - run);

  g_string_append_c (out, '"');
}

/* The shortest text that reads back as exactly @value. */
static void
format_double (char   *buf,
               gsize   size,
               double  value)
{
  g_ascii_formatd (buf, size, "%.15g", value);
  if (g_ascii_strtod (buf, NULL) == value)
    return;
  g_ascii_formatd (buf, size, "%.16g", value);
  if (g_ascii_strtod (buf, NULL) == value)
    return;
  g_ascii_formatd (buf, size, "%.17g", value);
}

static void
write_double (GString *out,
              double   value)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE + 2];

  if (!isfinite (value))
    {
      /* Never from parsed input; JSON has no text for it. */
      g_string_append (out, "null");
      return;
    }

  format_double (buf, sizeof buf - 2, value);
  g_string_append (out, buf);
  /* Keep a double a double: 1.0 reads back as a double, not an integer. */
  if (strpbrk (buf, ".eE") == NULL)
    g_string_append (out, ".0");
}

static void
write_object (GString    *out,
              JsonObject *object)
{
  g_autoptr(GList) names = json_object_get_members (object);
  gboolean first = TRUE;

  g_string_append_c (out, '{');
  for (const GList *l = names; l != NULL; l = l->next)
    {
      if (!first)
        g_string_append_c (out, ',');
      first = FALSE;
      write_string (out, l->data);
      g_string_append_c (out, ':');
      atp_json_write_node (out, json_object_get_member (object, l->data));
    }
  g_string_append_c (out, '}');
}

static void
write_array (GString   *out,
             JsonArray *array)
{
  guint n = json_array_get_length (array);

  g_string_append_c (out, '[');
  for (guint i = 0; i < n; i++)
    {
      if (i > 0)
        g_string_append_c (out, ',');
      atp_json_write_node (out, json_array_get_element (array, i));
    }
  g_string_append_c (out, ']');
}

void
atp_json_write_node (GString  *out,
                     JsonNode *node)
{
  if (node == NULL)
    {
      g_string_append (out, "null");
      return;
    }

  switch (json_node_get_node_type (node))
    {
    case JSON_NODE_OBJECT:
      write_object (out, json_node_get_object (node));
      break;

    case JSON_NODE_ARRAY:
      write_array (out, json_node_get_array (node));
      break;

    case JSON_NODE_NULL:
      g_string_append (out, "null");
      break;

    case JSON_NODE_VALUE:
      switch (json_node_get_value_type (node))
        {
        case G_TYPE_INT64:
          g_string_append_printf (out, "%" G_GINT64_FORMAT, json_node_get_int (node));
          break;

        case G_TYPE_DOUBLE:
          write_double (out, json_node_get_double (node));
          break;

        case G_TYPE_BOOLEAN:
          g_string_append (out, json_node_get_boolean (node) ? "true" : "false");
          break;

        case G_TYPE_STRING:
          if (json_node_get_string (node) != NULL)
            write_string (out, json_node_get_string (node));
          else
            g_string_append (out, "null");
          break;

        default:
          /* A node built with an odd GValue type: the closest JSON is null. */
          g_string_append (out, "null");
          break;
        }
      break;

    default:
      g_string_append (out, "null");
      break;
    }
}

/**
 * atp_json_to_string:
 * @node: (nullable): a node (%NULL is written as `null`)
 * @length: (out) (optional): the length of the text
 *
 * Compact JSON text: no whitespace, members in insertion order, integers as
 * integers, doubles in their shortest exact form (always with a '.' or an
 * exponent), non-ASCII characters as UTF-8.
 *
 * Returns: (transfer full): the text
 */
char *
atp_json_to_string (JsonNode *node,
                    gsize    *length)
{
  GString *out = g_string_sized_new (256);

  atp_json_write_node (out, node);
  if (length != NULL)
    *length = out->len;
  return g_string_free (out, FALSE);
}

/**
 * atp_json_object_to_string:
 * @object: an object
 * @length: (out) (optional): the length of the text
 *
 * Returns: (transfer full): the compact JSON text of @object
 */
char *
atp_json_object_to_string (JsonObject *object,
                           gsize      *length)
{
  GString *out;

  g_return_val_if_fail (object != NULL, NULL);

  out = g_string_sized_new (256);
  write_object (out, object);
  if (length != NULL)
    *length = out->len;
  return g_string_free (out, FALSE);
}

/**
 * atp_json_error_body:
 * @code: the wire code, e.g. "MALFORMED_ACTION"
 * @message: a human-readable message
 * @details: (nullable): extra context
 * @request_id: (nullable): the request id (omitted when %NULL)
 *
 * Returns: (transfer full): the error object `{code, message, details?, request_id}` as text
 */
char *
atp_json_error_body (const char *code,
                     const char *message,
                     JsonObject *details,
                     const char *request_id)
{
  g_autoptr(JsonObject) object = json_object_new ();

  g_return_val_if_fail (code != NULL, NULL);

  json_object_set_string_member (object, "code", code);
  json_object_set_string_member (object, "message", message != NULL ? message : code);
  if (details != NULL)
    json_object_set_object_member (object, "details", json_object_ref (details));
  if (request_id != NULL)
    json_object_set_string_member (object, "request_id", request_id);

  return atp_json_object_to_string (object, NULL);
}

/* ------------------------------------------------------------------------ */
/* Times and ids                                                             */
/* ------------------------------------------------------------------------ */

static gboolean
read_digits (const char **p,
             guint        n,
             int         *value)
{
  int v = 0;

  for (guint i = 0; i < n; i++)
    {
      char c = (*p)[i];

      if (c < '0' || c > '9')
        return FALSE;
      v = v * 10 + (c - '0');
    }

  *p += n;
  *value = v;
  return TRUE;
}

/**
 * atp_parse_timestamp:
 * @text: (nullable): an RFC 3339 date-time
 *
 * Accepts exactly `YYYY-MM-DD"T"hh:mm:ss[.fraction](Z|±hh:mm)` (a lower-case
 * `t`/`z` too, as RFC 3339 allows); the offset is required. Fractions beyond
 * microseconds are truncated. Leap seconds (`:60`) are refused.
 *
 * Returns: (transfer full) (nullable): the time with its offset, %NULL if @text is not one
 */
GDateTime *
atp_parse_timestamp (const char *text)
{
  g_autoptr(GTimeZone) tz = NULL;
  g_autoptr(GDateTime) whole = NULL;
  g_autoptr(GDateTime) utc = NULL;
  const char *p = text;
  int year, month, day, hour, minute, second;
  gint64 usec = 0;

  if (text == NULL)
    return NULL;

  if (!read_digits (&p, 4, &year) || *p++ != '-' ||
      !read_digits (&p, 2, &month) || *p++ != '-' ||
      !read_digits (&p, 2, &day) ||
      (*p != 'T' && *p != 't'))
    return NULL;
  p++;
  if (!read_digits (&p, 2, &hour) || *p++ != ':' ||
      !read_digits (&p, 2, &minute) || *p++ != ':' ||
      !read_digits (&p, 2, &second))
    return NULL;

  if (*p == '.')
    {
      guint n = 0;

      p++;
      if (*p < '0' || *p > '9')
        return NULL;
      while (*p >= '0' && *p <= '9')
        {
          if (n < 6)
            usec = usec * 10 + (*p - '0');
          n++;
          p++;
        }
      for (; n < 6; n++)
        usec *= 10;
    }

  if (*p == 'Z' || *p == 'z')
    {
      p++;
      tz = g_time_zone_new_utc ();
    }
  else if (*p == '+' || *p == '-')
    {
      int sign = *p == '-' ? -1 : 1;
      int off_h, off_m;

      p++;
      if (!read_digits (&p, 2, &off_h) || *p++ != ':' || !read_digits (&p, 2, &off_m))
        return NULL;
      if (off_h > 23 || off_m > 59)
        return NULL;
      tz = g_time_zone_new_offset (sign * (off_h * 3600 + off_m * 60));
    }
  else
    {
      return NULL;
    }

  if (*p != '\0' || tz == NULL)
    return NULL;

  if (year < 1 || month < 1 || month > 12 || day < 1 || day > 31 ||
      hour > 23 || minute > 59 || second > 59)
    return NULL;

  whole = g_date_time_new (tz, year, month, day, hour, minute, second);
  if (whole == NULL)
    return NULL;

  /* A time that is in range locally but not in UTC (0001-01-01T00:30+01:00)
   * could not be written back: GDateTime refuses to convert it. */
  utc = g_date_time_to_utc (whole);
  if (utc == NULL)
    return NULL;

  /* g_date_time_new() would round a fractional second through a double. */
  return g_date_time_add (whole, usec);
}

/**
 * atp_format_timestamp:
 * @time: a time
 *
 * Returns: (transfer full): @time in UTC as `YYYY-MM-DDThh:mm:ss[.uuuuuu]Z`,
 *   with six fraction digits only when the microseconds are not zero
 */
char *
atp_format_timestamp (GDateTime *time)
{
  g_autoptr(GDateTime) utc = NULL;
  int year, month, day, usec;

  g_return_val_if_fail (time != NULL, NULL);

  utc = g_date_time_to_utc (time);
  if (utc == NULL)
    {
      /* Only a time built elsewhere, at the very edge of year 1 or 9999:
       * keep its own offset rather than fail. */
      gint64 offset = g_date_time_get_utc_offset (time) / G_TIME_SPAN_MINUTE;

      g_date_time_get_ymd (time, &year, &month, &day);
      return g_strdup_printf ("%04d-%02d-%02dT%02d:%02d:%02d%c%02d:%02d",
                              year, month, day,
                              g_date_time_get_hour (time),
                              g_date_time_get_minute (time),
                              g_date_time_get_second (time),
                              offset < 0 ? '-' : '+',
                              (int) (ABS (offset) / 60), (int) (ABS (offset) % 60));
    }
  g_date_time_get_ymd (utc, &year, &month, &day);
  usec = g_date_time_get_microsecond (utc);

  if (usec != 0)
    return g_strdup_printf ("%04d-%02d-%02dT%02d:%02d:%02d.%06dZ",
                            year, month, day,
                            g_date_time_get_hour (utc),
                            g_date_time_get_minute (utc),
                            g_date_time_get_second (utc),
                            usec);

  return g_strdup_printf ("%04d-%02d-%02dT%02d:%02d:%02dZ",
                          year, month, day,
                          g_date_time_get_hour (utc),
                          g_date_time_get_minute (utc),
                          g_date_time_get_second (utc));
}

/**
 * atp_is_uuid_v4:
 * @text: (nullable): a string
 *
 * Returns: %TRUE for `xxxxxxxx-xxxx-4xxx-Nxxx-xxxxxxxxxxxx` with N one of
 *   8, 9, a, b; hex digits in either case
 */
gboolean
atp_is_uuid_v4 (const char *text)
{
  if (text == NULL)
    return FALSE;

  for (guint i = 0; i < 36; i++)
    {
      char c = text[i];

      if (i == 8 || i == 13 || i == 18 || i == 23)
        {
          if (c != '-')
            return FALSE;
        }
      else if (hex_value ((guchar) c) < 0)
        {
          return FALSE;
        }
    }

  if (text[36] != '\0' || text[14] != '4')
    return FALSE;

  return strchr ("89abAB", text[19]) != NULL;
}

char *
atp_uuid_normalize (const char *text)
{
  if (!atp_is_uuid_v4 (text))
    return NULL;
  return g_ascii_strdown (text, -1);
}

/**
 * atp_new_uuid:
 *
 * Returns: (transfer full): a new random UUID v4, lower case
 */
char *
atp_new_uuid (void)
{
  return g_uuid_string_random ();
}

/* ------------------------------------------------------------------------ */
/* Node helpers                                                              */
/* ------------------------------------------------------------------------ */

#define MAX_EXACT_INT 9007199254740992.0 /* 2^53 */

void
atp_json_object_append_extra (JsonObject *to,
                              JsonObject *extra)
{
  g_autoptr(GList) names = NULL;

  if (extra == NULL || json_object_get_size (extra) == 0)
    return;

  /* json_object_get_members() keeps the order (json_object_iter does not). */
  names = json_object_get_members (extra);
  for (const GList *l = names; l != NULL; l = l->next)
    {
      if (!json_object_has_member (to, l->data))
        json_object_set_member (to, l->data, json_node_ref (json_object_get_member (extra, l->data)));
    }
}

JsonObject *
atp_json_object_collect_extra (JsonObject         *object,
                               const char * const *known)
{
  JsonObject *extra = json_object_new ();
  g_autoptr(GList) names = NULL;
  JsonObjectIter iter;
  const char *name;
  gboolean any = FALSE;

  /* Usually every member is known: find out without building the ordered list. */
  json_object_iter_init (&iter, object);
  while (!any && json_object_iter_next (&iter, &name, NULL))
    any = !g_strv_contains (known, name);
  if (!any)
    return extra;

  names = json_object_get_members (object);
  for (const GList *l = names; l != NULL; l = l->next)
    {
      if (g_strv_contains (known, l->data))
        continue;
      json_object_set_member (extra, l->data, json_node_ref (json_object_get_member (object, l->data)));
    }

  return extra;
}

JsonObject *
atp_json_object_collect_extra_or_null (JsonObject         *object,
                                       const char * const *known)
{
  JsonObjectIter iter;
  const char *name;

  json_object_iter_init (&iter, object);
  while (json_object_iter_next (&iter, &name, NULL))
    if (!g_strv_contains (known, name))
      return atp_json_object_collect_extra (object, known);

  return NULL;
}

JsonObject *
atp_json_require_object (JsonNode    *node,
                         const char  *what,
                         GError     **error)
{
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      g_autofree char *got = atp_json_describe (node);

      g_set_error (error, ATP_ERROR, ATP_ERROR_INVALID_REQUEST,
                   "%s must be a JSON object, got %s", what, got);
      return NULL;
    }

  return json_node_get_object (node);
}

JsonNode *
atp_object_get (JsonObject *object,
                const char *name)
{
  JsonNode *node = json_object_get_member (object, name);

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return NULL;
  return node;
}

JsonNode *
atp_json_node_new_number (double value)
{
  JsonNode *node = json_node_alloc ();

  if (value == floor (value) && fabs (value) <= MAX_EXACT_INT)
    json_node_init_int (node, (gint64) value);
  else
    json_node_init_double (node, value);

  return node;
}

JsonNode *
atp_json_node_new_string (const char *value)
{
  JsonNode *node = json_node_alloc ();

  if (value == NULL)
    return json_node_init_null (node);
  return json_node_init_string (node, value);
}

gboolean
atp_json_node_get_number (JsonNode *node,
                          double   *value)
{
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return FALSE;

  switch (json_node_get_value_type (node))
    {
    case G_TYPE_INT64:
      *value = (double) json_node_get_int (node);
      return TRUE;

    case G_TYPE_DOUBLE:
      *value = json_node_get_double (node);
      return isfinite (*value);

    default:
      return FALSE;
    }
}

char *
atp_json_describe (JsonNode *node)
{
  g_autofree char *text = NULL;

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return g_strdup ("null");
  if (JSON_NODE_HOLDS_OBJECT (node))
    return g_strdup ("an object");
  if (JSON_NODE_HOLDS_ARRAY (node))
    return g_strdup ("an array");

  text = atp_json_to_string (node, NULL);
  if (g_utf8_strlen (text, -1) > 40)
    {
      char *cut = g_utf8_offset_to_pointer (text, 37);

      *cut = '\0';
      return g_strconcat (text, "…", NULL);
    }

  return g_steal_pointer (&text);
}

/**
 * atp_json_node_equal:
 * @a: (nullable): a node (%NULL counts as JSON null)
 * @b: (nullable): a node (%NULL counts as JSON null)
 *
 * JSON equality: objects member-wise regardless of order, arrays element-wise,
 * numbers by value (1 equals 1.0), strings byte-wise.
 *
 * Returns: %TRUE if @a and @b hold the same JSON value
 */
gboolean
atp_json_node_equal (JsonNode *a,
                     JsonNode *b)
{
  JsonNodeType ta = a != NULL ? json_node_get_node_type (a) : JSON_NODE_NULL;
  JsonNodeType tb = b != NULL ? json_node_get_node_type (b) : JSON_NODE_NULL;

  if (ta != tb)
    return FALSE;

  switch (ta)
    {
    case JSON_NODE_NULL:
      return TRUE;

    case JSON_NODE_OBJECT:
      {
        JsonObject *oa = json_node_get_object (a);
        JsonObject *ob = json_node_get_object (b);
        JsonObjectIter iter;
        const char *name;
        JsonNode *member;

        if (oa == ob)
          return TRUE;
        if (json_object_get_size (oa) != json_object_get_size (ob))
          return FALSE;

        json_object_iter_init (&iter, oa);
        while (json_object_iter_next (&iter, &name, &member))
          {
            JsonNode *other = json_object_get_member (ob, name);

            if (other == NULL || !atp_json_node_equal (member, other))
              return FALSE;
          }
        return TRUE;
      }

    case JSON_NODE_ARRAY:
      {
        JsonArray *aa = json_node_get_array (a);
        JsonArray *ab = json_node_get_array (b);
        guint n = json_array_get_length (aa);

        if (aa == ab)
          return TRUE;
        if (n != json_array_get_length (ab))
          return FALSE;
        for (guint i = 0; i < n; i++)
          {
            if (!atp_json_node_equal (json_array_get_element (aa, i),
                                      json_array_get_element (ab, i)))
              return FALSE;
          }
        return TRUE;
      }

    case JSON_NODE_VALUE:
      {
        GType va = json_node_get_value_type (a);
        GType vb = json_node_get_value_type (b);
        double da, db;

        if (va == G_TYPE_INT64 && vb == G_TYPE_INT64)
          return json_node_get_int (a) == json_node_get_int (b);
        if (atp_json_node_get_number (a, &da) && atp_json_node_get_number (b, &db))
          return da == db;
        if (va != vb)
          return FALSE;
        if (va == G_TYPE_BOOLEAN)
          return json_node_get_boolean (a) == json_node_get_boolean (b);
        if (va == G_TYPE_STRING)
          return g_strcmp0 (json_node_get_string (a), json_node_get_string (b)) == 0;
        return FALSE;
      }

    default:
      return FALSE;
    }
}

/* ------------------------------------------------------------------------ */
/* Field syntaxes                                                            */
/* ------------------------------------------------------------------------ */

/* 0–63 for the alphabet, 64 for '=', 255 for anything else. */
static const guint8 base64_value[256] = {
  255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
  255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
  255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,  62, 255, 255, 255,  63,
   52,  53,  54,  55,  56,  57,  58,  59,  60,  61, 255, 255, 255,  64, 255, 255,
  255,   0,   1,   2,   3,   4,   5,   6,   7,   8,   9,  10,  11,  12,  13,  14,
   15,  16,  17,  18,  19,  20,  21,  22,  23,  24,  25, 255, 255, 255, 255, 255,
  255,  26,  27,  28,  29,  30,  31,  32,  33,  34,  35,  36,  37,  38,  39,  40,
   41,  42,  43,  44,  45,  46,  47,  48,  49,  50,  51, 255, 255, 255, 255, 255,
  255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
  255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
  255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
  255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
  255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
  255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
  255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
  255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
};

gboolean
atp_base64_check (const char *data,
                  gsize       length,
                  gsize      *decoded_size)
{
  const guchar *s = (const guchar *) data;
  AtpI8x16 valid = { -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1 };
  gsize body, i = 0;
  guint8 acc = 0;
  guint padding = 0;

  if (length % 4 != 0)
    return FALSE;

  if (length > 0 && s[length - 1] == '=')
    padding = (length > 1 && s[length - 2] == '=') ? 2 : 1;
  body = length - padding;

  /* Every byte must be in A-Z, a-z, 0-9, '+' or '/' (an inline attachment
   * is most of a large notification, so this loop is the hot one). */
  for (; i + 16 <= body; i += 16)
    {
      AtpU8x16 v;

      memcpy (&v, s + i, sizeof v);
      valid &= (AtpI8x16) ((AtpU8x16) (v - 'A') < 26) |
               (AtpI8x16) ((AtpU8x16) (v - 'a') < 26) |
               (AtpI8x16) ((AtpU8x16) (v - '0') < 10) |
               (AtpI8x16) (v == '+') |
               (AtpI8x16) (v == '/');
    }
  for (guint k = 0; k < 16; k++)
    {
      if (valid[k] != -1)
        return FALSE;
    }

  /* The rest: a byte outside the alphabet (or a '=' before the padding)
   * sets a bit above 63. */
  for (; i < body; i++)
    acc |= base64_value[s[i]];
  if (acc > 63)
    return FALSE;

  /* The bits the padding drops must be zero (one text per byte string). */
  if (padding == 1 && (base64_value[s[body - 1]] & 0x03) != 0)
    return FALSE;
  if (padding == 2 && (base64_value[s[body - 1]] & 0x0f) != 0)
    return FALSE;

  if (decoded_size != NULL)
    *decoded_size = length / 4 * 3 - padding;
  return TRUE;
}

static inline gboolean
is_token_char (guchar c)
{
  return c > 0x20 && c < 0x7f && strchr ("()<>@,;:\\\"/[]?=", c) == NULL;
}

gboolean
atp_mime_type_is_valid (const char *text)
{
  const guchar *p = (const guchar *) text;
  const guchar *start;

  if (text == NULL)
    return FALSE;

  start = p;
  while (is_token_char (*p))
    p++;
  if (p == start || *p++ != '/')
    return FALSE;
  start = p;
  while (is_token_char (*p))
    p++;
  if (p == start)
    return FALSE;

  for (;;)
    {
      while (*p == ' ' || *p == '\t')
        p++;
      if (*p == '\0')
        return TRUE;
      if (*p++ != ';')
        return FALSE;
      while (*p == ' ' || *p == '\t')
        p++;
      start = p;
      while (is_token_char (*p))
        p++;
      if (p == start || *p++ != '=')
        return FALSE;
      if (*p == '"')
        {
          p++;
          while (*p != '"')
            {
              if (*p == '\0' || *p < 0x20 || *p == 0x7f)
                return FALSE;
              if (*p == '\\')
                {
                  p++;
                  if (*p == '\0')
                    return FALSE;
                }
              p++;
            }
          p++;
        }
      else
        {
          start = p;
          while (is_token_char (*p))
            p++;
          if (p == start)
            return FALSE;
        }
    }
}

gboolean
atp_uri_is_absolute (const char *text)
{
  if (text == NULL || *text == '\0')
    return FALSE;

  for (const guchar *p = (const guchar *) text; *p != '\0'; p++)
    {
      if (*p <= 0x20 || *p == 0x7f)
        return FALSE;
    }

  return g_uri_is_valid (text, G_URI_FLAGS_NONE, NULL);
}

gboolean
atp_str_is_blank (const char *text)
{
  if (text == NULL)
    return TRUE;

  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    {
      if (!g_unichar_isspace (g_utf8_get_char (p)))
        return FALSE;
    }

  return TRUE;
}
