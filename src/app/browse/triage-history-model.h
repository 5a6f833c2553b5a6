/* triage-history-model.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "triage-history-db.h"
#include "triage-history-entry.h"

G_BEGIN_DECLS

/* Entries are read from the database this many at a time. */
#define TRIAGE_HISTORY_PAGE_SIZE 200
/* The model holds at most this many pages (the most recently read). */
#define TRIAGE_HISTORY_MAX_PAGES 8

#define TRIAGE_TYPE_HISTORY_MODEL (triage_history_model_get_type ())

G_DECLARE_FINAL_TYPE (TriageHistoryModel, triage_history_model, TRIAGE, HISTORY_MODEL, GObject)

TriageHistoryModel        *triage_history_model_new          (TriageHistoryDb           *db);
TriageHistoryDb           *triage_history_model_get_db       (TriageHistoryModel        *self);
const TriageHistoryFilter *triage_history_model_get_filter   (TriageHistoryModel        *self);
void                       triage_history_model_set_filter   (TriageHistoryModel        *self,
                                                              const TriageHistoryFilter *filter);
void                       triage_history_model_reload       (TriageHistoryModel        *self);
gboolean                   triage_history_model_get_loading  (TriageHistoryModel        *self);
guint                      triage_history_model_find_rowid   (TriageHistoryModel        *self,
                                                              gint64                     rowid);
GArray                    *triage_history_model_dup_rowids   (TriageHistoryModel        *self,
                                                              GtkBitset                 *positions);
guint                      triage_history_model_get_n_cached (TriageHistoryModel        *self);
void                       triage_history_model_get_entry_async  (TriageHistoryModel   *self,
                                                                  guint                 position,
                                                                  GCancellable         *cancellable,
                                                                  GAsyncReadyCallback   callback,
                                                                  gpointer              user_data);
TriageHistoryEntry        *triage_history_model_get_entry_finish (TriageHistoryModel   *self,
                                                                  GAsyncResult         *result,
                                                                  GError              **error);

G_END_DECLS
