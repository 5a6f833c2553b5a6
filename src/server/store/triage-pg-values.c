/* triage-pg-values.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Values to and from the PostgreSQL backend's statements: a result's
 * columns as text or numbers, parameters as text (numbers, text[]
 * literals).
 */

#define G_LOG_DOMAIN "triage-store-postgres"

#include <string.h>
#include <json-glib/json-glib.h>

#include "triage-pg-connection.h"

char *
triage_pg_text (const PGresult *result,
                int             row,
                int             column)
{
  if (PQgetisnull (result, row, column))
    return NULL;
  return g_strdup (PQgetvalue (result, row, column));
}

/* Whether an event's stored data (@column of @row) is a JSON object on one
 * line; not a damaged row, nor a raw line break that would end the SSE
 * event's data line halfway. A client sent it whole would fail on it,
 * resume from the event before it and fail again for ever. Asked of a
 * replay (triage-store-postgres-events.c) and of another server's events
 * read live (triage-pg-listener.c), as the SQLite store asks it of a replay
 * (triage-store-sqlite-events.c; its live events are its own, never read
 * back); read here, as PostgreSQL 15 has no test of JSON text but a cast
 * that fails the query. */
gboolean
triage_pg_event_data_reads (const PGresult *result,
                            int             row,
                            int             column)
{
  const char *text = PQgetvalue (result, row, column);
  g_autoptr(JsonNode) node = NULL;

  if (PQgetisnull (result, row, column) || text[0] != '{' || strpbrk (text, "\r\n") != NULL)
    return FALSE;
  node = json_from_string (text, NULL);
  return node != NULL && JSON_NODE_HOLDS_OBJECT (node);
}

/* A number column; 0 for NULL. */
gint64
triage_pg_int (const PGresult *result,
               int             row,
               int             column)
{
  if (PQgetisnull (result, row, column))
    return 0;
  return g_ascii_strtoll (PQgetvalue (result, row, column), NULL, 10);
}

/* The rows an INSERT, UPDATE or DELETE changed. */
gint64
triage_pg_changed (const PGresult *result)
{
  return g_ascii_strtoll (PQcmdTuples ((PGresult *) result), NULL, 10);
}

const char *
triage_pg_number (TriagePgNumber *slot,
                  gint64          value)
{
  g_snprintf (slot->text, sizeof slot->text, "%" G_GINT64_FORMAT, value);
  return slot->text;
}

/* One element of an array literal ("{…}"), quoted; NULL is SQL NULL. */
void
triage_pg_array_append (GString    *array,
                        const char *value)
{
  if (array->len > 1)
    g_string_append_c (array, ',');
  if (value == NULL)
    {
      g_string_append (array, "NULL");
      return;
    }
  g_string_append_c (array, '"');
  for (const char *p = value; *p != '\0'; p++)
    {
      if (*p == '"' || *p == '\\')
        g_string_append_c (array, '\\');
      g_string_append_c (array, *p);
    }
  g_string_append_c (array, '"');
}

/* @values (NULL-terminated) as a text[] literal. */
char *
triage_pg_text_array (const char * const *values)
{
  GString *array = g_string_new ("{");

  for (guint i = 0; values != NULL && values[i] != NULL; i++)
    triage_pg_array_append (array, values[i]);
  g_string_append_c (array, '}');
  return g_string_free (array, FALSE);
}
