/* triage-history-entry.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

#include "atp.h"
#include "triage-store.h"

G_BEGIN_DECLS

/**
 * TriageHistoryEntryData:
 *
 * The columns of one history row, as read from the app's database. Times are
 * Unix microseconds (UTC), 0 when unknown; strings are %NULL when unknown.
 */
typedef struct
{
  gint64         rowid;
  char          *id;
  char          *service_id;
  char          *service_name;
  char          *project;
  char          *title;
  char          *description;
  AtpStatus      status;
  char          *status_reason;
  TriageOutcome  stored_outcome;
  char          *action_id;
  char          *action_label;
  char          *response_data;   /* JSON text */
  char          *responder_id;
  char          *responder_type;
  gint64         created_at;
  gint64         deadline;
  gint64         first_seen;
  gint64         updated_at;
  gint64         answered_at;
  gint64         delivered_at;
  AtpProtocol    protocol;        /* the protocol the request was asked in */
  char          *action_json;     /* ATP: the action answered, as the request has it */
} TriageHistoryEntryData;

#define TRIAGE_TYPE_HISTORY_ENTRY (triage_history_entry_get_type ())

G_DECLARE_FINAL_TYPE (TriageHistoryEntry, triage_history_entry, TRIAGE, HISTORY_ENTRY, GObject)

TriageHistoryEntry           *triage_history_entry_new                (TriageHistoryEntryData *data);
const TriageHistoryEntryData *triage_history_entry_get_data           (TriageHistoryEntry     *self);
gint64                        triage_history_entry_get_rowid          (TriageHistoryEntry     *self);
const char                   *triage_history_entry_get_id             (TriageHistoryEntry     *self);
const char                   *triage_history_entry_get_title          (TriageHistoryEntry     *self);
const char                   *triage_history_entry_get_service_name   (TriageHistoryEntry     *self);
const char                   *triage_history_entry_get_project        (TriageHistoryEntry     *self);
TriageOutcome                 triage_history_entry_get_outcome        (TriageHistoryEntry     *self);
gboolean                      triage_history_entry_is_queued          (TriageHistoryEntry     *self);
gint64                        triage_history_entry_get_response_time  (TriageHistoryEntry     *self);
char                         *triage_history_entry_dup_outcome_label  (TriageHistoryEntry     *self);
char                         *triage_history_entry_dup_answer_text    (TriageHistoryEntry     *self);
char                         *triage_history_entry_dup_service_text   (TriageHistoryEntry     *self);
char                         *triage_history_entry_dup_responder_text (TriageHistoryEntry     *self);

void                          triage_history_entry_data_clear         (TriageHistoryEntryData *data);
TriageOutcome                 triage_history_effective_outcome        (TriageOutcome           stored,
                                                                       AtpStatus               status);
const char                   *triage_history_outcome_label            (TriageOutcome           outcome);
char                         *triage_history_format_duration          (gint64                  usec);

G_END_DECLS
