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
