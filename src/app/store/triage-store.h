/* triage-store.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "atp.h"

G_BEGIN_DECLS

#define TRIAGE_STORE_ERROR (triage_store_error_quark ())

/**
 * TriageStoreError:
 * @TRIAGE_STORE_ERROR_FAILED: SQLite failed (the message names the step and SQLite's reason)
 * @TRIAGE_STORE_ERROR_TOO_NEW: the database was written by a newer Triage
 * @TRIAGE_STORE_ERROR_ALREADY_ANSWERED: an answer to this request is already in the outbox
 * @TRIAGE_STORE_ERROR_NOT_FOUND: no such outbox entry
 */
typedef enum
{
  TRIAGE_STORE_ERROR_FAILED,
  TRIAGE_STORE_ERROR_TOO_NEW,
  TRIAGE_STORE_ERROR_ALREADY_ANSWERED,
  TRIAGE_STORE_ERROR_NOT_FOUND,
} TriageStoreError;

/**
 * TriageOutcome:
 * @TRIAGE_OUTCOME_NONE: still pending
 * @TRIAGE_OUTCOME_ANSWERED: answered here and confirmed by the server
 * @TRIAGE_OUTCOME_ANSWERED_ELSEWHERE: answered on another device (or ours lost a 409 race)
 * @TRIAGE_OUTCOME_EXPIRED: the deadline passed
 * @TRIAGE_OUTCOME_INVALIDATED: the service withdrew it
 * @TRIAGE_OUTCOME_REJECTED: the server refused our answer for good (4xx other than 409)
 * @TRIAGE_OUTCOME_GONE: no longer on the server, what became of it unknown: asked
 *   after it left the pending set, the server answered 404 (settled and forgotten
 *   since, withdrawn and deleted, or not shown to this user: another token)
 *
 * What became of a request, as kept for the history.
 */
typedef enum
{
  TRIAGE_OUTCOME_NONE,
  TRIAGE_OUTCOME_ANSWERED,
  TRIAGE_OUTCOME_ANSWERED_ELSEWHERE,
  TRIAGE_OUTCOME_EXPIRED,
  TRIAGE_OUTCOME_INVALIDATED,
  TRIAGE_OUTCOME_REJECTED,
  TRIAGE_OUTCOME_GONE,
} TriageOutcome;

const char    *triage_outcome_to_string   (TriageOutcome outcome);
TriageOutcome  triage_outcome_from_string (const char   *str);

/**
 * TriageOutboxState:
 * @TRIAGE_OUTBOX_QUEUED: stored, not yet confirmed by the server; sent (again) when connected
 * @TRIAGE_OUTBOX_FAILED: refused by the server for good; kept so the user can see it
 */
typedef enum
{
  TRIAGE_OUTBOX_QUEUED,
  TRIAGE_OUTBOX_FAILED,
} TriageOutboxState;

/**
 * TriageOutboxEntry:
 * @id: the row id
 * @notification_id: the request answered
 * @action_id: the action chosen
 * @response_data: the answer (never %NULL: a JSON null node for simple)
 * @responded_at: when the person answered
 * @state: #TriageOutboxState
 * @attempts: how many times sending was tried
 * @last_error: (nullable): why the last try failed
 * @server: (nullable): the server it is for (see triage_store_set_server())
 *
 * An answer waiting for the server's confirmation.
 */
typedef struct
{
  gint64             id;
  char              *notification_id;
  char              *action_id;
  JsonNode          *response_data;
  GDateTime         *responded_at;
  TriageOutboxState  state;
  guint              attempts;
  char              *last_error;
  char              *server;
} TriageOutboxEntry;

#define TRIAGE_TYPE_OUTBOX_ENTRY (triage_outbox_entry_get_type ())

GType              triage_outbox_entry_get_type (void) G_GNUC_CONST;
TriageOutboxEntry *triage_outbox_entry_copy     (const TriageOutboxEntry *entry);
void               triage_outbox_entry_free     (TriageOutboxEntry       *entry);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TriageOutboxEntry, triage_outbox_entry_free)

/**
 * TriageStoreRecord:
 * @notification: the request as last received
 * @outcome: #TriageOutcome
 * @first_seen: when this app first saw it
 *
 * A request as loaded back from the store.
 */
typedef struct
{
  AtpNotification *notification;
  TriageOutcome    outcome;
  GDateTime       *first_seen;
} TriageStoreRecord;

void triage_store_record_free (TriageStoreRecord *record);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TriageStoreRecord, triage_store_record_free)

#define TRIAGE_STORE_SCHEMA_VERSION 4

#define TRIAGE_TYPE_STORE (triage_store_get_type ())

G_DECLARE_FINAL_TYPE (TriageStore, triage_store, TRIAGE, STORE, GObject)

GQuark        triage_store_error_quark             (void);

TriageStore  *triage_store_new                     (const char          *path);
char         *triage_store_default_path            (void);
const char   *triage_store_get_path                (TriageStore         *self);
void          triage_store_set_server              (TriageStore         *self,
                                                    const char          *server);
void          triage_store_wait_all                (void);

void          triage_store_open_async              (TriageStore         *self,
                                                    GCancellable        *cancellable,
                                                    GAsyncReadyCallback  callback,
                                                    gpointer             user_data);
gboolean      triage_store_open_finish             (TriageStore         *self,
                                                    GAsyncResult        *result,
                                                    GError             **error);

void          triage_store_save_notification_async (TriageStore         *self,
                                                    AtpNotification     *notification,
                                                    GCancellable        *cancellable,
                                                    GAsyncReadyCallback  callback,
                                                    gpointer             user_data);
gboolean      triage_store_save_notification_finish (TriageStore        *self,
                                                     GAsyncResult       *result,
                                                     GError            **error);

void          triage_store_set_outcome_async       (TriageStore         *self,
                                                    const char          *notification_id,
                                                    AtpStatus            status,
                                                    TriageOutcome        outcome,
                                                    const char          *reason,
                                                    GCancellable        *cancellable,
                                                    GAsyncReadyCallback  callback,
                                                    gpointer             user_data);
gboolean      triage_store_set_outcome_finish      (TriageStore         *self,
                                                    GAsyncResult        *result,
                                                    GError             **error);

void          triage_store_set_response_async      (TriageStore         *self,
                                                    AtpResponse         *response,
                                                    GCancellable        *cancellable,
                                                    GAsyncReadyCallback  callback,
                                                    gpointer             user_data);
gboolean      triage_store_set_response_finish     (TriageStore         *self,
                                                    GAsyncResult        *result,
                                                    GError             **error);

void          triage_store_prune_async             (TriageStore         *self,
                                                    GDateTime           *before,
                                                    GCancellable        *cancellable,
                                                    GAsyncReadyCallback  callback,
                                                    gpointer             user_data);
gssize        triage_store_prune_finish            (TriageStore         *self,
                                                    GAsyncResult        *result,
                                                    GError             **error);

void          triage_store_load_pending_async      (TriageStore         *self,
                                                    GCancellable        *cancellable,
                                                    GAsyncReadyCallback  callback,
                                                    gpointer             user_data);
GPtrArray    *triage_store_load_pending_finish     (TriageStore         *self,
                                                    GAsyncResult        *result,
                                                    GError             **error);

void          triage_store_outbox_add_async        (TriageStore         *self,
                                                    const char          *notification_id,
                                                    const char          *action_id,
                                                    JsonNode            *response_data,
                                                    GDateTime           *responded_at,
                                                    GCancellable        *cancellable,
                                                    GAsyncReadyCallback  callback,
                                                    gpointer             user_data);
TriageOutboxEntry *triage_store_outbox_add_finish  (TriageStore         *self,
                                                    GAsyncResult        *result,
                                                    GError             **error);

void          triage_store_outbox_list_async       (TriageStore         *self,
                                                    GCancellable        *cancellable,
                                                    GAsyncReadyCallback  callback,
                                                    gpointer             user_data);
GPtrArray    *triage_store_outbox_list_finish      (TriageStore         *self,
                                                    GAsyncResult        *result,
                                                    GError             **error);

void          triage_store_outbox_complete_async   (TriageStore         *self,
                                                    gint64               entry_id,
                                                    TriageOutcome        outcome,
                                                    const char          *responder_id,
                                                    GDateTime           *delivered_at,
                                                    GCancellable        *cancellable,
                                                    GAsyncReadyCallback  callback,
                                                    gpointer             user_data);
gboolean      triage_store_outbox_complete_finish  (TriageStore         *self,
                                                    GAsyncResult        *result,
                                                    GError             **error);

void          triage_store_outbox_failed_async     (TriageStore         *self,
                                                    gint64               entry_id,
                                                    gboolean             permanent,
                                                    const char          *message,
                                                    GCancellable        *cancellable,
                                                    GAsyncReadyCallback  callback,
                                                    gpointer             user_data);
gboolean      triage_store_outbox_failed_finish    (TriageStore         *self,
                                                    GAsyncResult        *result,
                                                    GError             **error);

/* triage-store-drafts.c */
void          triage_store_save_draft_async        (TriageStore         *self,
                                                    const char          *notification_id,
                                                    const char          *json,
                                                    GCancellable        *cancellable,
                                                    GAsyncReadyCallback  callback,
                                                    gpointer             user_data);
gboolean      triage_store_save_draft_finish       (TriageStore         *self,
                                                    GAsyncResult        *result,
                                                    GError             **error);
void          triage_store_load_draft_async        (TriageStore         *self,
                                                    const char          *notification_id,
                                                    GCancellable        *cancellable,
                                                    GAsyncReadyCallback  callback,
                                                    gpointer             user_data);
char         *triage_store_load_draft_finish       (TriageStore         *self,
                                                    GAsyncResult        *result,
                                                    GError             **error);

G_END_DECLS
