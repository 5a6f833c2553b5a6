/* triage-store-private.h — what the store's files share (triage-store.c, triage-store-drafts.c)
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <sqlite3.h>

#include "triage-store.h"

G_BEGIN_DECLS

/* Runs on the store's one worker thread, the only user of its database. */
typedef void (*TriageStoreFunc) (TriageStore *self,
                                 GTask       *task,
                                 gpointer     task_data);

void     _triage_store_run    (TriageStore         *self,
                               TriageStoreFunc      func,
                               gpointer             task_data,
                               GDestroyNotify       task_data_destroy,
                               gpointer             source_tag,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data);
/* On the worker thread only. */
sqlite3 *_triage_store_get_db (TriageStore         *self);

G_END_DECLS
