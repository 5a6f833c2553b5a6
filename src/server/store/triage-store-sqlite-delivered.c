/* triage-store-sqlite-delivered.c — a page of rows marked delivered at once (SQLite)
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A list page of 1,000 was 1,000 UPDATEs; it is one statement now. The ids go
 * in as a JSON array (json_each), the one list parameter SQLite has built in.
 */

#define G_LOG_DOMAIN "triage-store-sqlite"

#include <gio/gio.h>
#include <json-glib/json-glib.h>
#include <sqlite3.h>

#include "atp.h"
#include "triage-store-sqlite.h"

static GStrv
sqlite_mark_delivered_all (TriageStore        *store,
                           const char * const *ids,
                           gint64              now)
{
  g_autoptr(JsonArray) array = json_array_new ();
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_ARRAY);
  g_autoptr(GPtrArray) moved = g_ptr_array_new ();
  g_autofree char *text = NULL;
  sqlite3_stmt *stmt;

  G_STATIC_ASSERT (ATP_STATUS_CREATED == 0 && ATP_STATUS_DELIVERED == 1);
  for (guint i = 0; ids[i] != NULL; i++)
    json_array_add_string_element (array, ids[i]);
  json_node_set_array (node, array);
  text = json_to_string (node, FALSE);

  /* One server owns the database: nobody else is changing the rows. */
  stmt = triage_store_sqlite_statement (TRIAGE_STORE_SQLITE (store),
                                        "UPDATE notifications SET status = 1, updated_at = ?"
                                        " WHERE status = 0 AND id IN (SELECT value FROM json_each (?))"
                                        " RETURNING id");
  triage_store_sqlite_bind_int64 (stmt, 1, now);
  triage_store_sqlite_bind_text (stmt, 2, text);
  while (triage_store_sqlite_step (TRIAGE_STORE_SQLITE (store), stmt) == SQLITE_ROW)
    g_ptr_array_add (moved, triage_store_sqlite_column_text (stmt, 0));
  triage_store_sqlite_done (stmt);
  g_ptr_array_add (moved, NULL);
  return (GStrv) g_ptr_array_free (g_steal_pointer (&moved), FALSE);
}

void
triage_store_sqlite_delivered_class_init (TriageStoreClass *store_class)
{
  store_class->mark_delivered_all = sqlite_mark_delivered_all;
}
