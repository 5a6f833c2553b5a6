/* atp-json-scan.c — the strict pre-scan of untrusted JSON text (RFC 8259, UTF-8, depth, names)
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

/*
 * Bytes that end the fast loop inside a string: '"', '\\', control
 * characters and every non-ASCII byte (whose UTF-8 sequence is then checked).
 */
static const guint8 scan_stop[256] = {
  [0x00 ... 0x1f] = 1,
  ['"'] = 1, ['\\'] = 1,
  [0x80 ... 0xff] = 1,
};

/* Sixteen bytes at a time (atp_block_has_string_stop (), atp-private.h)
 * through the long stretches of plain text: a base64 attachment is most of a
 * large notification. */

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
      while (i + 16 <= len && !atp_block_has_string_stop (s + i, TRUE))
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

/* The size and pre-scan of untrusted text: UTF-8, depth, syntax, member
 * names. *@data NULL is "", @length -1 is up to the NUL; *@len is the length. */
gboolean
atp_json_check_text (const char **data,
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
