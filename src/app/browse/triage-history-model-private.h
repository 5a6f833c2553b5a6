/* triage-history-model-private.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "triage-history-model.h"

G_BEGIN_DECLS

/*
 * TriageHistoryModel spans two files: triage-history-model.c (the object,
 * the query, a new result and the selection) and
 * triage-history-model-pages.c (the entries, read a page at a time).
 */

struct _TriageHistoryModel
{
  GObject              parent_instance;

  TriageHistoryDb     *db;
  TriageHistoryFilter *filter;
  GArray              *keys;         /* TriageHistoryKey, the current result */
  GHashTable          *pages;        /* page + 1 -> Page */
  GQueue               lru;          /* page + 1, most recently used first */
  GCancellable        *cancellable;  /* the query in flight */
  GCancellable        *page_cancellable;  /* the page reads for the current keys */
  GPtrArray           *waiters;      /* GTask of get_entry_async, until their page is read */
  GHashTable          *selected;     /* gint64 rowid set */
  gboolean             loading;
};

/* triage-history-model-pages.c */
void     triage_history_model_init_pages   (TriageHistoryModel *self);
void     triage_history_model_forget_pages (TriageHistoryModel *self);
gpointer triage_history_model_get_item     (GListModel         *model,
                                            guint               position);

G_END_DECLS
