/* triage-history-export.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-history"

#include <glib/gi18n.h>
#include <string.h>

#include "triage-history-export.h"
#include "triage-history-private.h"

/*
 * Exports of the history as JSON Lines or CSV.
 *
 * Both carry the same fields in the same order (see FIELDS). Times are
 * RFC 3339 in UTC, empty/null when unknown; response_ms is the time from the
 * request to the answer given here, in milliseconds; response_data is the
 * answer as JSON (a JSON value in JSON Lines, its JSON text in CSV): for an
 * AITP decision, the options chosen with their ids, names and quantities.
 * protocol is the protocol the request was asked in ("atp", "aitp"), answer
 * the answer in words as the history shows it.
 *
 * CSV follows RFC 4180: CRLF line ends, a cell with a comma, a double quote,
 * CR or LF is quoted and its quotes doubled. No byte-order mark. A cell that
 * a spreadsheet would run as a formula (it starts with = + - @, a tab or a
 * CR) gets a leading apostrophe, so an agent's text cannot run in the
 * person's spreadsheet.
 *
 * The writer runs on a thread of its own with its own read-only connection,
 * reading 500 rows at a time, so 100,000 entries never block the window; the
 * file is written through g_file_replace(), so a failed or cancelled export
 * leaves any earlier file as it was.
 */

#define CHUNK_SIZE 500

static const char *fields[] = {
  "id", "title", "description", "service_id", "service", "project", "outcome", "status",
  "status_reason", "action_id", "action_label", "response_data", "responder_id",
  "responder_type", "created_at", "deadline", "answered_at", "delivered_at", "response_ms",
  "protocol", "answer",
};

const char *
triage_history_format_extension (TriageHistoryFormat format)
{
  return format == TRIAGE_HISTORY_FORMAT_CSV ? "csv" : "jsonl";
}

const char *
triage_history_format_content_type (TriageHistoryFormat format)
{
  return format == TRIAGE_HISTORY_FORMAT_CSV ? "text/csv" : "application/jsonl";
}

/**
 * triage_history_csv_header:
 *
 * Returns: the CSV header row, CRLF included
 */
const char *
triage_history_csv_header (void)
{
  return "id,title,description,service_id,service,project,outcome,status,status_reason,"
         "action_id,action_label,response_data,responder_id,responder_type,created_at,"
         "deadline,answered_at,delivered_at,response_ms,protocol,answer\r\n";
}

/**
 * triage_history_csv_cell:
 * @value: (nullable): a cell's text
 *
 * Returns: (transfer full): the cell as written to CSV, guarded and quoted as needed
 */
char *
triage_history_csv_cell (const char *value)
{
  GString *cell;
  gboolean guard;
  gboolean quote;

  if (value == NULL || value[0] == '\0')
    return g_strdup ("");

  guard = strchr ("=+-@\t\r", value[0]) != NULL;
  quote = strpbrk (value, ",\"\r\n") != NULL;

  if (!guard && !quote)
    return g_strdup (value);

  cell = g_string_new (NULL);
  if (quote)
    g_string_append_c (cell, '"');
  if (guard)
    g_string_append_c (cell, '\'');
  for (const char *c = value; *c != '\0'; c++)
    {
      if (*c == '"')
        g_string_append_c (cell, '"');
      g_string_append_c (cell, *c);
    }
  if (quote)
    g_string_append_c (cell, '"');

  return g_string_free (cell, FALSE);
}

static char *
format_time (gint64 usec)
{
  g_autoptr(GDateTime) seconds = NULL;
  g_autoptr(GDateTime) time = NULL;

  if (usec == 0)
    return NULL;

  seconds = g_date_time_new_from_unix_utc (usec / G_USEC_PER_SEC);
  if (seconds == NULL)
    return NULL;
  time = g_date_time_add (seconds, usec % G_USEC_PER_SEC);

  return time ? atp_format_timestamp (time) : NULL;
}

/**
 * triage_history_entry_export_outcome:
 *
 * Returns: the outcome as exported: "pending", "queued" (answered here, not
 *   yet sent), "answered", "answered-elsewhere", "expired", "invalidated",
 *   "rejected" or "gone"
 */
const char *
triage_history_entry_export_outcome (TriageHistoryEntry *entry)
{
  TriageOutcome outcome = triage_history_entry_get_outcome (entry);

  if (outcome != TRIAGE_OUTCOME_NONE)
    return triage_outcome_to_string (outcome);

  return triage_history_entry_is_queued (entry) ? "queued" : "pending";
}

/* Every field as text, in the order of fields[] (and of the CSV header); response_data as JSON text. */
static void
entry_to_texts (TriageHistoryEntry *entry,
                char               *texts[G_N_ELEMENTS (fields)])
{
  const TriageHistoryEntryData *data = triage_history_entry_get_data (entry);
  gint64 response_time = triage_history_entry_get_response_time (entry);
  guint i = 0;

  texts[i++] = g_strdup (data->id);
  texts[i++] = g_strdup (data->title);
  texts[i++] = g_strdup (data->description);
  texts[i++] = g_strdup (data->service_id);
  texts[i++] = g_strdup (data->service_name);
  texts[i++] = g_strdup (data->project);
  texts[i++] = g_strdup (data->id ? triage_history_entry_export_outcome (entry) : NULL);
  texts[i++] = g_strdup (data->id ? atp_status_to_string (data->status) : NULL);
  texts[i++] = g_strdup (data->status_reason);
  texts[i++] = g_strdup (data->action_id);
  texts[i++] = g_strdup (data->action_label);
  texts[i++] = g_strdup (data->response_data);
  texts[i++] = g_strdup (data->responder_id);
  texts[i++] = g_strdup (data->responder_type);
  texts[i++] = format_time (data->created_at);
  texts[i++] = format_time (data->deadline);
  texts[i++] = format_time (data->answered_at);
  texts[i++] = format_time (data->delivered_at);
  texts[i++] = response_time >= 0
    ? g_strdup_printf ("%" G_GINT64_FORMAT, response_time / 1000) : NULL;
  texts[i++] = g_strdup (data->id ? atp_protocol_to_string (data->protocol) : NULL);
  texts[i++] = data->action_id ? triage_history_entry_dup_answer_text (entry) : NULL;

  g_assert (i == G_N_ELEMENTS (fields));
}

static void
free_texts (char *texts[G_N_ELEMENTS (fields)])
{
  for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
    g_free (texts[i]);
}

/**
 * triage_history_entry_to_csv_row:
 *
 * Returns: (transfer full): the entry as one CSV row, CRLF included
 */
char *
triage_history_entry_to_csv_row (TriageHistoryEntry *entry)
{
  char *texts[G_N_ELEMENTS (fields)];
  GString *row;

  g_return_val_if_fail (TRIAGE_IS_HISTORY_ENTRY (entry), NULL);

  entry_to_texts (entry, texts);
  row = g_string_new (NULL);

  for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
    {
      g_autofree char *cell = triage_history_csv_cell (texts[i]);

      if (i > 0)
        g_string_append_c (row, ',');
      g_string_append (row, cell);
    }
  g_string_append (row, "\r\n");
  free_texts (texts);

  return g_string_free (row, FALSE);
}

/**
 * triage_history_entry_to_json_line:
 *
 * Returns: (transfer full): the entry as one line of JSON, newline included
 */
char *
triage_history_entry_to_json_line (TriageHistoryEntry *entry)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *json = NULL;
  char *texts[G_N_ELEMENTS (fields)];
  const char *response_data;

  g_return_val_if_fail (TRIAGE_IS_HISTORY_ENTRY (entry), NULL);

  entry_to_texts (entry, texts);
  response_data = triage_history_entry_get_data (entry)->response_data;

  json_builder_begin_object (builder);
  for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
    {
      json_builder_set_member_name (builder, fields[i]);

      if (g_str_equal (fields[i], "response_data") && response_data != NULL)
        {
          JsonNode *value = atp_json_parse (response_data, -1, 0, NULL);

          /* The store writes valid JSON; anything else is kept as text. */
          if (value != NULL)
            json_builder_add_value (builder, value);
          else
            json_builder_add_string_value (builder, response_data);
        }
      else if (g_str_equal (fields[i], "response_ms") && texts[i] != NULL)
        json_builder_add_int_value (builder, g_ascii_strtoll (texts[i], NULL, 10));
      else if (texts[i] != NULL)
        json_builder_add_string_value (builder, texts[i]);
      else
        json_builder_add_null_value (builder);
    }
  json_builder_end_object (builder);
  free_texts (texts);

  root = json_builder_get_root (builder);
  json = atp_json_to_string (root, NULL);

  return g_strconcat (json, "\n", NULL);
}

/**
 * triage_history_export_to_stream:
 * @db_path: the app's database
 * @rowids: (element-type gint64): the rows, in the order to write them
 * @format: the format
 * @stream: where to write
 * @n_written: (out) (optional): how many entries were written
 * @cancellable: (nullable): a #GCancellable
 * @error: where to put an error
 *
 * Writes the entries with a connection of its own; blocking, for a worker
 * thread (or a test).
 *
 * Returns: %TRUE if every entry was written
 */
gboolean
triage_history_export_to_stream (const char           *db_path,
                                 GArray               *rowids,
                                 TriageHistoryFormat   format,
                                 GOutputStream        *stream,
                                 guint                *n_written,
                                 GCancellable         *cancellable,
                                 GError              **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  sqlite3 *db = NULL;
  gboolean ok = FALSE;
  guint written = 0;

  g_return_val_if_fail (db_path != NULL, FALSE);
  g_return_val_if_fail (rowids != NULL, FALSE);
  g_return_val_if_fail (G_IS_OUTPUT_STREAM (stream), FALSE);

  if (n_written != NULL)
    *n_written = 0;

  if (!(db = triage_history_open_connection (db_path, TRUE, error)) ||
      !(stmt = triage_history_prepare_fetch (db, error)))
    goto out;

  if (format == TRIAGE_HISTORY_FORMAT_CSV &&
      !g_output_stream_write_all (stream, triage_history_csv_header (),
                                  strlen (triage_history_csv_header ()),
                                  NULL, cancellable, error))
    goto out;

  for (guint first = 0; first < rowids->len; first += CHUNK_SIZE)
    {
      guint n = MIN (CHUNK_SIZE, rowids->len - first);
      g_autoptr(GPtrArray) entries = NULL;
      g_autoptr(GString) chunk = g_string_new (NULL);

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        goto out;

      entries = triage_history_fetch_rows (db, stmt, &g_array_index (rowids, gint64, first), n,
                                           error);
      if (entries == NULL)
        goto out;

      for (guint i = 0; i < entries->len; i++)
        {
          TriageHistoryEntry *entry = g_ptr_array_index (entries, i);
          g_autofree char *line = NULL;

          /* A row gone since the list was made is left out. */
          if (triage_history_entry_get_id (entry) == NULL)
            continue;

          line = format == TRIAGE_HISTORY_FORMAT_CSV ? triage_history_entry_to_csv_row (entry)
                                                     : triage_history_entry_to_json_line (entry);
          g_string_append (chunk, line);
          written++;
        }

      if (!g_output_stream_write_all (stream, chunk->str, chunk->len, NULL, cancellable, error))
        goto out;
    }

  ok = TRUE;

out:
  g_clear_pointer (&stmt, sqlite3_finalize);
  sqlite3_close (db);
  if (n_written != NULL)
    *n_written = written;

  return ok;
}

typedef struct
{
  TriageHistoryExportTally  tally;   /* first: see triage_history_export_task_finish() */
  char                     *db_path;
  GArray                   *rowids;
  TriageHistoryFormat       format;
  GFile                    *file;
} ExportData;

static void
export_data_free (ExportData *data)
{
  g_free (data->db_path);
  g_array_unref (data->rowids);
  g_object_unref (data->file);
  g_free (data);
}

static void
export_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  ExportData *data = task_data;
  g_autoptr(GFileOutputStream) file_stream = NULL;
  g_autoptr(GOutputStream) stream = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GCancellable) abort = NULL;

  file_stream = g_file_replace (data->file, NULL, FALSE, G_FILE_CREATE_REPLACE_DESTINATION,
                                cancellable, &error);
  if (file_stream == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  stream = g_buffered_output_stream_new_sized (G_OUTPUT_STREAM (file_stream), 64 * 1024);

  if (triage_history_export_to_stream (data->db_path, data->rowids, data->format, stream,
                                       &data->tally.n_written, cancellable, &error) &&
      g_output_stream_close (stream, cancellable, &error))
    {
      g_task_return_boolean (task, TRUE);
      return;
    }

  /* Closing with a cancelled cancellable drops the temporary file and keeps
   * whatever was at the destination before. */
  abort = g_cancellable_new ();
  g_cancellable_cancel (abort);
  g_output_stream_close (G_OUTPUT_STREAM (file_stream), abort, NULL);
  g_task_return_error (task, g_steal_pointer (&error));
}

/**
 * triage_history_export_async:
 * @db_path: the app's database
 * @rowids: (element-type gint64): the rows, in the order to write them
 * @format: the format
 * @file: the file to write (replaced once the export is complete)
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the file is written
 * @user_data: data for @callback
 *
 * Exports entries on a thread of its own.
 */
void
triage_history_export_async (const char          *db_path,
                             GArray              *rowids,
                             TriageHistoryFormat  format,
                             GFile               *file,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  ExportData *data;

  g_return_if_fail (db_path != NULL);
  g_return_if_fail (rowids != NULL);
  g_return_if_fail (G_IS_FILE (file));

  data = g_new0 (ExportData, 1);
  data->db_path = g_strdup (db_path);
  data->rowids = g_array_ref (rowids);
  data->format = format;
  data->file = g_object_ref (file);

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, triage_history_export_async);
  g_task_set_task_data (task, data, (GDestroyNotify) export_data_free);
  g_task_run_in_thread (task, export_thread);
}

/**
 * triage_history_export_finish:
 * @result: the result
 * @n_written: (out) (optional): how many entries were written
 * @error: where to put an error
 *
 * Returns: %TRUE if the file is complete
 */
gboolean
triage_history_export_finish (GAsyncResult  *result,
                              guint         *n_written,
                              GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);

  return triage_history_export_task_finish (result, n_written, error);
}

/**
 * triage_history_export_task_finish:
 * @result: an export's task, its task data starting with a #TriageHistoryExportTally
 * @n_written: (out) (optional): how many entries were written
 * @error: where to put an error
 *
 * The _finish of an export, once the caller checked that @result is its task.
 *
 * Returns: %TRUE if the file is complete
 */
gboolean
triage_history_export_task_finish (GAsyncResult  *result,
                                   guint         *n_written,
                                   GError       **error)
{
  TriageHistoryExportTally *tally = g_task_get_task_data (G_TASK (result));

  if (n_written != NULL)
    *n_written = tally->n_written;

  return g_task_propagate_boolean (G_TASK (result), error);
}
