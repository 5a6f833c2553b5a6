/* triage-history-export.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "triage-history-entry.h"

G_BEGIN_DECLS

/**
 * TriageHistoryFormat:
 * @TRIAGE_HISTORY_FORMAT_JSON_LINES: one JSON object per line (JSON Lines)
 * @TRIAGE_HISTORY_FORMAT_CSV: RFC 4180 comma-separated values with a header row
 *
 * What an export writes.
 */
typedef enum
{
  TRIAGE_HISTORY_FORMAT_JSON_LINES,
  TRIAGE_HISTORY_FORMAT_CSV,
} TriageHistoryFormat;

const char *triage_history_format_extension     (TriageHistoryFormat   format);
const char *triage_history_format_content_type  (TriageHistoryFormat   format);
const char *triage_history_csv_header           (void);
char       *triage_history_csv_cell             (const char           *value);
char       *triage_history_entry_to_csv_row     (TriageHistoryEntry   *entry);
char       *triage_history_entry_to_json_line   (TriageHistoryEntry   *entry);
const char *triage_history_entry_export_outcome (TriageHistoryEntry   *entry);

gboolean    triage_history_export_to_stream     (const char           *db_path,
                                                 GArray               *rowids,
                                                 TriageHistoryFormat   format,
                                                 GOutputStream        *stream,
                                                 guint                *n_written,
                                                 GCancellable         *cancellable,
                                                 GError              **error);
void        triage_history_export_async         (const char           *db_path,
                                                 GArray               *rowids,
                                                 TriageHistoryFormat   format,
                                                 GFile                *file,
                                                 GCancellable         *cancellable,
                                                 GAsyncReadyCallback   callback,
                                                 gpointer              user_data);
gboolean    triage_history_export_finish        (GAsyncResult         *result,
                                                 guint                *n_written,
                                                 GError              **error);

/*
 * What the task data of an export's GTask starts with (this file's and the
 * history view's): how many entries were written, which its _finish hands
 * out even when the export failed.
 */
typedef struct
{
  guint n_written;
} TriageHistoryExportTally;

gboolean    triage_history_export_task_finish   (GAsyncResult         *result,
                                                 guint                *n_written,
                                                 GError              **error);

G_END_DECLS
