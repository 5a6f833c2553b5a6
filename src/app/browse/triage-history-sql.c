/* triage-history-sql.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-history"

#include <glib/gi18n.h>
#include <stdlib.h>
#include <string.h>

#include "triage-browse-error.h"
#include "triage-decision-format.h"
#include "triage-history-private.h"
#include "triage-history-schema.h"
#include "triage-inbox-search.h"

/*
 * The SQL that the history's database, model and export share: each calls
 * it on its own thread with its own connection.
 */


/*
 * @failure is a whole sentence ("Could not search the history in the local database"); SQLite's own
 * explanation follows it.
 */
gboolean
triage_history_set_error (GError     **error,
                          sqlite3     *db,
                          const char  *failure)
{
  g_set_error (error, TRIAGE_BROWSE_ERROR, TRIAGE_BROWSE_ERROR_FAILED,
               /* Translators: a failure such as "Could not search the history", then
                * the database's explanation */
               _("%s: %s"),
               failure, db ? sqlite3_errmsg (db) : _("out of memory"));
  return FALSE;
}

/* triage_fold (text): @text folded as the inbox folds what it searches
 * (triage_format_fold (): case, accents, width), for the words of scripts
 * written without spaces, which the history looks for anywhere in the text
 * (triage_history_prepare_filtered ()) where the index cannot. */
static void
fold_function (sqlite3_context  *context,
               int               n_values,
               sqlite3_value   **values)
{
  const char *text = (const char *) sqlite3_value_text (values[0]);

  if (text == NULL)
    sqlite3_result_null (context);
  else
    sqlite3_result_text (context, triage_format_fold (text), -1, g_free);
}

/* triage_has_word (text, word): @word (folded, as triage_inbox_search_parse ()
 * gives it) starts a word of @text as the inbox folds it, for the words
 * whose marks the index keeps (triage_history_marked_words ()). */
static void
has_word_function (sqlite3_context  *context,
                   int               n_values,
                   sqlite3_value   **values)
{
  const char *text = (const char *) sqlite3_value_text (values[0]);
  const char *word = (const char *) sqlite3_value_text (values[1]);

  sqlite3_result_int (context, word != NULL && triage_inbox_search_has_word (text, word));
}

/**
 * triage_history_open_connection:
 * @path: the app's database (the store's file)
 * @read_only: open it read-only
 * @error: %TRIAGE_BROWSE_ERROR_NO_DATABASE if the file is not there
 *
 * Returns: (transfer full) (nullable): a connection, used by one thread at a time
 */
sqlite3 *
triage_history_open_connection (const char  *path,
                                gboolean     read_only,
                                GError     **error)
{
  sqlite3 *db = NULL;
  int flags = (read_only ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE) | SQLITE_OPEN_NOMUTEX;
  int rc;

  if (!g_file_test (path, G_FILE_TEST_IS_REGULAR))
    {
      g_set_error (error, TRIAGE_BROWSE_ERROR, TRIAGE_BROWSE_ERROR_NO_DATABASE,
                   _("The local database “%s” does not exist yet; it is created when Triage first starts"),
                   path);
      return NULL;
    }

  rc = sqlite3_open_v2 (path, &db, flags, NULL);
  if (rc != SQLITE_OK)
    {
      g_set_error (error, TRIAGE_BROWSE_ERROR, TRIAGE_BROWSE_ERROR_FAILED,
                   _("Could not open the local database “%s”: %s"),
                   path, db ? sqlite3_errmsg (db) : _("out of memory"));
      sqlite3_close (db);
      return NULL;
    }

  sqlite3_busy_timeout (db, 5000);
  sqlite3_extended_result_codes (db, 1);
  sqlite3_create_function_v2 (db, "triage_fold", 1,
                              SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, NULL,
                              fold_function, NULL, NULL, NULL);
  sqlite3_create_function_v2 (db, "triage_has_word", 2,
                              SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, NULL,
                              has_word_function, NULL, NULL, NULL);
  /* Reads by rowid and index scans gain little from a large page cache;
   * three connections of SQLite's default 2 MiB each would be 6 MiB. */
  sqlite3_exec (db, "PRAGMA cache_size = -1024", NULL, NULL, NULL);

  return db;
}

#define ENTRY_SQL \
  "SELECT n.rowid, n.id, n.service_id, n.service_name, n.project, n.title," \
  "  json_extract (n.json, '$.context.description'), n.status, n.status_reason, n.outcome," \
  "  n.action_id, json_extract (a.value, '$.label')," \
  "  n.response_data, n.responder_id, n.responder_type, n.created_at, n.deadline," \
  "  n.first_seen, n.updated_at, n.answered_at, n.delivered_at, json_extract (n.json, '$.protocol')," \
  "  a.value" \
  " FROM notifications AS n" \
  " LEFT JOIN json_each (n.json, '$.actions') AS a ON json_extract (a.value, '$.id') = n.action_id" \
  " WHERE n.rowid = ?1 LIMIT 1"

sqlite3_stmt *
triage_history_prepare_fetch (sqlite3  *db,
                              GError  **error)
{
  sqlite3_stmt *stmt = NULL;

  if (sqlite3_prepare_v3 (db, ENTRY_SQL, -1, SQLITE_PREPARE_PERSISTENT, &stmt, NULL) != SQLITE_OK)
    {
      triage_history_set_error (error, db, _("Could not read the history in the local database"));
      sqlite3_finalize (stmt);
      return NULL;
    }

  return stmt;
}

char *
triage_history_column_text (sqlite3_stmt *stmt,
                            int           column)
{
  const char *text = (const char *) sqlite3_column_text (stmt, column);

  return text ? g_utf8_make_valid (text, -1) : NULL;
}

static void
read_entry (sqlite3_stmt           *stmt,
            TriageHistoryEntryData *data)
{
  const char *status = (const char *) sqlite3_column_text (stmt, 7);
  AtpStatus parsed = ATP_STATUS_CREATED;

  if (status != NULL)
    atp_status_from_string (status, &parsed);

  data->rowid = sqlite3_column_int64 (stmt, 0);
  data->id = triage_history_column_text (stmt, 1);
  data->service_id = triage_history_column_text (stmt, 2);
  data->service_name = triage_history_column_text (stmt, 3);
  data->project = triage_history_column_text (stmt, 4);
  data->title = triage_history_column_text (stmt, 5);
  data->description = triage_history_column_text (stmt, 6);
  data->status = parsed;
  data->status_reason = triage_history_column_text (stmt, 8);
  data->stored_outcome = triage_outcome_from_string ((const char *) sqlite3_column_text (stmt, 9));
  data->action_id = triage_history_column_text (stmt, 10);
  data->action_label = triage_history_column_text (stmt, 11);
  data->response_data = triage_history_column_text (stmt, 12);
  data->responder_id = triage_history_column_text (stmt, 13);
  data->responder_type = triage_history_column_text (stmt, 14);
  data->created_at = sqlite3_column_int64 (stmt, 15);
  data->deadline = sqlite3_column_int64 (stmt, 16);
  data->first_seen = sqlite3_column_int64 (stmt, 17);
  data->updated_at = sqlite3_column_int64 (stmt, 18);
  data->answered_at = sqlite3_column_int64 (stmt, 19);
  data->delivered_at = sqlite3_column_int64 (stmt, 20);
  /* No member: ATP's own envelope (docs/architecture.md). */
  if (sqlite3_column_text (stmt, 21) == NULL ||
      !atp_protocol_from_string ((const char *) sqlite3_column_text (stmt, 21), &data->protocol))
    data->protocol = ATP_PROTOCOL_ATP;
  data->action_json = triage_history_column_text (stmt, 22);
}

/**
 * triage_history_fetch_rows:
 * @db: a connection
 * @stmt: from triage_history_prepare_fetch() on @db
 * @rowids: (array length=n_rowids): the rows
 * @n_rowids: how many
 * @error: where to put an error
 *
 * Returns: (transfer container) (element-type TriageHistoryEntry): one entry
 *   per row id, in order; a row that no longer exists gives an entry with
 *   only its rowid
 */
GPtrArray *
triage_history_fetch_rows (sqlite3       *db,
                           sqlite3_stmt  *stmt,
                           const gint64  *rowids,
                           guint          n_rowids,
                           GError       **error)
{
  g_autoptr(GPtrArray) entries = g_ptr_array_new_full (n_rowids, g_object_unref);
  gboolean in_transaction;

  /* One read transaction for the page: a lookup each would take and drop
   * SQLite's locks (and check the WAL) every time. */
  in_transaction = sqlite3_get_autocommit (db) &&
                   sqlite3_exec (db, "BEGIN", NULL, NULL, NULL) == SQLITE_OK;

  for (guint i = 0; i < n_rowids; i++)
    {
      TriageHistoryEntryData data = { 0 };
      int rc;

      sqlite3_reset (stmt);
      sqlite3_bind_int64 (stmt, 1, rowids[i]);
      rc = sqlite3_step (stmt);

      if (rc == SQLITE_ROW)
        read_entry (stmt, &data);
      else if (rc == SQLITE_DONE)
        data.rowid = rowids[i];
      else
        {
          triage_history_set_error (error, db,
                                    _("Could not read the history in the local database"));
          sqlite3_reset (stmt);
          if (in_transaction)
            sqlite3_exec (db, "COMMIT", NULL, NULL, NULL);
          return NULL;
        }

      g_ptr_array_add (entries, triage_history_entry_new (&data));
    }

  sqlite3_reset (stmt);
  if (in_transaction)
    sqlite3_exec (db, "COMMIT", NULL, NULL, NULL);

  return g_steal_pointer (&entries);
}

static int
compare_rowids (gconstpointer a,
                gconstpointer b)
{
  gint64 x = *(const gint64 *) a;
  gint64 y = *(const gint64 *) b;

  return (x > y) - (x < y);
}

/* The rows the full-text search matches, ascending. */
static GArray *
load_matches (sqlite3     *db,
              const char  *match,
              GError     **error)
{
  g_autoptr(GArray) rowids = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(sqlite3_stmt) stmt = NULL;
  int rc;

  if (sqlite3_prepare_v2 (db, "SELECT rowid FROM history_fts WHERE history_fts MATCH ?1"
                              " ORDER BY rowid", -1, &stmt, NULL) != SQLITE_OK)
    {
      triage_history_set_error (error, db, _("Could not search the history in the local database"));
      return NULL;
    }

  sqlite3_bind_text (stmt, 1, match, -1, SQLITE_STATIC);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      gint64 rowid = sqlite3_column_int64 (stmt, 0);

      g_array_append_val (rowids, rowid);
    }

  if (rc != SQLITE_DONE)
    {
      triage_history_set_error (error, db, _("Could not search the history in the local database"));
      return NULL;
    }

  return g_steal_pointer (&rowids);
}

/**
 * triage_history_matches_contain:
 * @matches: (nullable): what triage_history_prepare_filtered() gave
 * @rowid: a row
 *
 * Returns: %TRUE if the row matches the search (every row does without one)
 */
gboolean
triage_history_matches_contain (GArray *matches,
                                gint64  rowid)
{
  return matches == NULL ||
         bsearch (&rowid, matches->data, matches->len, sizeof (gint64), compare_rowids) != NULL;
}

/* Appends " AND (…)": the condition @before field @between ?@param @after
 * holds for the title, description, service or project. */
static void
append_any_field (GString    *sql,
                  const char *before,
                  const char *between,
                  int         param,
                  const char *after)
{
  static const char * const fields[] = {
    "title", "json_extract (json, '$.context.description')", "service_name",
    "IFNULL (project, '')",
  };

  g_string_append (sql, " AND (");
  for (guint f = 0; f < G_N_ELEMENTS (fields); f++)
    {
      if (f > 0)
        g_string_append (sql, " OR ");
      g_string_append_printf (sql, "%s%s%s?%d%s", before, fields[f], between, param, after);
    }
  g_string_append_c (sql, ')');
}

/**
 * triage_history_prepare_filtered:
 * @db: a connection
 * @columns: what to select from notifications (unqualified column names),
 *   `rowid` first
 * @filter: the filter
 * @from_usec: an extra lower bound on created_at (0: none)
 * @to_usec: an extra upper bound on created_at, exclusive (0: none)
 * @order: (nullable): an ORDER BY clause without the keywords
 * @matches: (out) (transfer full) (nullable): the rows the search text matches,
 *   %NULL without one
 * @error: where to put an error
 *
 * The statement applies every filter but the search text: a row is a result
 * when triage_history_matches_contain() also says so of its rowid. Testing
 * the rows of a covering index, walked in date order, against the matches
 * in C takes a third of what SQLite's IN (SELECT … MATCH …) takes when most
 * rows match (100,000 matches: about 20 ms against 55), and no longer when
 * few do (the index is walked either way).
 *
 * Returns: (transfer full) (nullable): the statement, bound
 */
sqlite3_stmt *
triage_history_prepare_filtered (sqlite3                   *db,
                                 const char                *columns,
                                 const TriageHistoryFilter *filter,
                                 gint64                     from_usec,
                                 gint64                     to_usec,
                                 const char                *order,
                                 GArray                   **matches,
                                 GError                   **error)
{
  g_autoptr(GString) sql = g_string_new (NULL);
  g_autofree char *match = triage_history_fts_query (filter->text);
  g_auto(GStrv) unspaced = triage_history_unspaced_words (filter->text);
  g_auto(GStrv) marked = triage_history_marked_words (filter->text);
  g_autoptr(GArray) matched = NULL;
  g_autoptr(GPtrArray) texts = g_ptr_array_new ();
  g_autoptr(GPtrArray) folded = g_ptr_array_new_with_free_func (g_free);
  gint64 lower = MAX (filter->from_usec, from_usec);
  gint64 upper;
  sqlite3_stmt *stmt = NULL;
  int param = 0;

  if (filter->to_usec != 0 && to_usec != 0)
    upper = MIN (filter->to_usec, to_usec);
  else
    upper = filter->to_usec != 0 ? filter->to_usec : to_usec;

  if (match != NULL && (matched = load_matches (db, match, error)) == NULL)
    return NULL;

  g_string_append_printf (sql, "SELECT %s FROM notifications WHERE 1", columns);
  if (filter->service != NULL)
    {
      g_string_append_printf (sql, " AND service_name = ?%d", ++param);
      g_ptr_array_add (texts, filter->service);
    }
  if (filter->project != NULL && filter->project[0] == '\0')
    g_string_append (sql, " AND project IS NULL");
  else if (filter->project != NULL)
    {
      g_string_append_printf (sql, " AND project = ?%d", ++param);
      g_ptr_array_add (texts, filter->project);
    }
  if (filter->outcome != TRIAGE_HISTORY_OUTCOME_ANY)
    {
      g_string_append_printf (sql, " AND " TRIAGE_HISTORY_EFFECTIVE_OUTCOME_SQL " = ?%d", ++param);
      g_ptr_array_add (texts, (gpointer) triage_outcome_to_string (filter->outcome));
    }
  /* Words of scripts written without spaces, anywhere in the text (the
   * index has them only as whole runs): a scan of the rows left, both sides
   * folded as the inbox folds them ("删除api" finds "删除ＡＰＩ"). */
  for (guint i = 0; unspaced != NULL && unspaced[i] != NULL; i++)
    {
      append_any_field (sql, "instr (triage_fold (", "), ", ++param, ") > 0");
      g_ptr_array_add (folded, triage_format_fold (unspaced[i]));
      g_ptr_array_add (texts, g_ptr_array_index (folded, folded->len - 1));
    }
  /* Words whose marks the index keeps (Greek, Cyrillic, …): at a word's
   * start, a scan too, both sides folded ("καλημερα" finds "Καλημέρα"). */
  for (guint i = 0; marked != NULL && marked[i] != NULL; i++)
    {
      g_auto(GStrv) parsed = triage_inbox_search_parse (marked[i]);

      if (parsed[0] == NULL)
        continue;
      append_any_field (sql, "triage_has_word (", ", ", ++param, ")");
      g_ptr_array_add (folded, g_strdup (parsed[0]));
      g_ptr_array_add (texts, g_ptr_array_index (folded, folded->len - 1));
    }
  if (lower != 0)
    g_string_append_printf (sql, " AND created_at >= %" G_GINT64_FORMAT, lower);
  if (upper != 0)
    g_string_append_printf (sql, " AND created_at < %" G_GINT64_FORMAT, upper);
  if (order != NULL)
    g_string_append_printf (sql, " ORDER BY %s", order);

  if (sqlite3_prepare_v2 (db, sql->str, -1, &stmt, NULL) != SQLITE_OK)
    {
      triage_history_set_error (error, db, _("Could not search the history in the local database"));
      sqlite3_finalize (stmt);
      return NULL;
    }

  for (guint i = 0; i < texts->len; i++)
    sqlite3_bind_text (stmt, i + 1, g_ptr_array_index (texts, i), -1, SQLITE_TRANSIENT);

  *matches = g_steal_pointer (&matched);
  return stmt;
}
