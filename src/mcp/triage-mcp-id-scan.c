/* triage-mcp-id-scan.c — the id of a message too long to parse, read as it streams past
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-mcp"

#include "triage-mcp-server-private.h"

#include <math.h>
#include <string.h>

#include "atp.h"

/*
 * A line over the bound is not kept, so it is never parsed; yet a client waits
 * for the answer to its request id, and an error with id null answers nothing
 * it waits for (the official SDKs drop it, and the call hangs until the
 * client's own timeout). So the bytes of such a line pass through this
 * scanner, which follows the top-level object's members, skipping their
 * values, and keeps the value of "id" alone. The TypeScript SDK writes the id
 * last, after the params that made the line long, so the whole line is
 * scanned. Best effort: a line that is not an object, or an id that is not a
 * string or a number, gives none.
 */

/* An id longer than this is not one a client made: none. */
#define ID_MAX 1024

typedef enum
{
  SCAN_START,        /* before the top-level '{' */
  SCAN_KEY_WAIT,     /* before a member's name */
  SCAN_KEY,          /* in a member's name */
  SCAN_COLON,        /* after it */
  SCAN_ID_VALUE,     /* before the value of "id" */
  SCAN_ID_STRING,    /* in it, a string */
  SCAN_ID_NUMBER,    /* in it, a number */
  SCAN_SKIP_VALUE,   /* in the value of another member */
  SCAN_DONE,
} ScanPhase;

struct _TriageMcpIdScan
{
  ScanPhase phase;
  guint     depth;       /* of the value skipped */
  gboolean  in_string;   /* of the value skipped */
  gboolean  escaped;     /* after a backslash in any string */
  GString  *text;        /* the member's name, then the id's JSON text */
  JsonNode *id;
};

TriageMcpIdScan *
triage_mcp_id_scan_new (void)
{
  TriageMcpIdScan *scan = g_new0 (TriageMcpIdScan, 1);

  scan->text = g_string_new (NULL);
  return scan;
}

void
triage_mcp_id_scan_free (TriageMcpIdScan *scan)
{
  g_string_free (scan->text, TRUE);
  g_clear_pointer (&scan->id, json_node_unref);
  g_free (scan);
}

static gboolean
is_space (guint8 c)
{
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* The id's text read: kept if it is JSON for an id. Read as every untrusted text is:
 * json-glib's own parser wrapped an integer past 64 bits (18446744073709551617 was -1),
 * and the error went out with the id of some other call. */
static void
take_id (TriageMcpIdScan *scan)
{
  g_autoptr(JsonNode) node = atp_json_parse (scan->text->str, scan->text->len, 0, NULL);

  scan->phase = SCAN_DONE;
  if (node != NULL && triage_mcp_id_is_valid (node))
    scan->id = g_steal_pointer (&node);
}

/*
 * Whether @id is a JSON-RPC id MCP allows (RequestId: string | number): a string, an
 * integer, or a finite fraction. A fraction is echoed as the same number, in the
 * shortest text that reads back as it (1.5 as 1.5; 1.50 as 1.5, 1.0 as 1.0): the
 * value the client sent, which is what its parser compares. It was refused (-32600
 * with id null), and the client's call waited for its own timeout.
 */
gboolean
triage_mcp_id_is_valid (JsonNode *id)
{
  GType type;

  if (id == NULL || !JSON_NODE_HOLDS_VALUE (id))
    return FALSE;
  type = json_node_get_value_type (id);
  return type == G_TYPE_STRING || type == G_TYPE_INT64 ||
         (type == G_TYPE_DOUBLE && isfinite (json_node_get_double (id)));
}

/* A byte of a string: TRUE at its closing quote. */
static gboolean
string_ends (TriageMcpIdScan *scan,
             guint8           c)
{
  if (scan->escaped)
    scan->escaped = FALSE;
  else if (c == '\\')
    scan->escaped = TRUE;
  else if (c == '"')
    return TRUE;
  return FALSE;
}

static void
skip_value (TriageMcpIdScan *scan,
            guint8           c)
{
  if (scan->in_string)
    scan->in_string = !string_ends (scan, c);
  else if (c == '"')
    scan->in_string = TRUE;
  else if (c == '{' || c == '[')
    scan->depth++;
  else if ((c == '}' || c == ']') && scan->depth == 0)
    scan->phase = SCAN_DONE;   /* the message's end: no id in it */
  else if (c == '}' || c == ']')
    scan->depth--;
  else if (c == ',' && scan->depth == 0)
    scan->phase = SCAN_KEY_WAIT;
}

static void
scan_byte (TriageMcpIdScan *scan,
           guint8           c)
{
  switch (scan->phase)
    {
    case SCAN_START:
      if (!is_space (c))
        scan->phase = c == '{' ? SCAN_KEY_WAIT : SCAN_DONE;
      break;

    case SCAN_KEY_WAIT:
      if (c == '"')
        {
          g_string_truncate (scan->text, 0);
          scan->phase = SCAN_KEY;
        }
      else if (!is_space (c) && c != ',')
        scan->phase = SCAN_DONE;
      break;

    case SCAN_KEY:
      if (string_ends (scan, c))
        scan->phase = SCAN_COLON;
      else if (scan->text->len < 8)
        g_string_append_c (scan->text, c);
      break;

    case SCAN_COLON:
      if (c == ':')
        {
          scan->phase = g_str_equal (scan->text->str, "id") ? SCAN_ID_VALUE : SCAN_SKIP_VALUE;
          scan->depth = 0;
          scan->in_string = FALSE;
        }
      else if (!is_space (c))
        scan->phase = SCAN_DONE;
      break;

    case SCAN_ID_VALUE:
      if (is_space (c))
        break;
      g_string_truncate (scan->text, 0);
      g_string_append_c (scan->text, c);
      if (c == '"')
        scan->phase = SCAN_ID_STRING;
      else if (c == '-' || g_ascii_isdigit (c))
        scan->phase = SCAN_ID_NUMBER;
      else
        scan->phase = SCAN_DONE;   /* null, an object, …: not an id */
      break;

    case SCAN_ID_STRING:
      g_string_append_c (scan->text, c);
      if (string_ends (scan, c))
        take_id (scan);
      else if (scan->text->len > ID_MAX)
        scan->phase = SCAN_DONE;
      break;

    case SCAN_ID_NUMBER:
      if (g_ascii_isdigit (c) || (c != '\0' && strchr ("+-.eE", c) != NULL))
        {
          g_string_append_c (scan->text, c);
          if (scan->text->len > ID_MAX)
            scan->phase = SCAN_DONE;
        }
      else
        take_id (scan);
      break;

    case SCAN_SKIP_VALUE:
      skip_value (scan, c);
      break;

    case SCAN_DONE:
    default:
      break;
    }
}

void
triage_mcp_id_scan_feed (TriageMcpIdScan *scan,
                         const guint8    *data,
                         gsize            length)
{
  for (gsize i = 0; i < length && scan->phase != SCAN_DONE; i++)
    scan_byte (scan, data[i]);
}

JsonNode *
triage_mcp_id_scan_get_id (TriageMcpIdScan *scan)
{
  /* A number ends at the byte after it, which a line's end does not bring. */
  if (scan->phase == SCAN_ID_NUMBER)
    take_id (scan);
  return scan->id;
}
