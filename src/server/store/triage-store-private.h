/* triage-store-private.h — what a storage backend implements
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "triage-store.h"
#include "triage-store-afp.h"

G_BEGIN_DECLS

/* Every virtual function is required, take_rate() excepted (the base class
 * keeps rates in memory). The batch is the base class's: it calls begin()
 * when a write comes and no batch is open, then, when the main loop is idle,
 * insert_events() with the events queued in the batch (it sets their ids) and
 * commit(), or rollback() when either failed. The write functions are called
 * with the batch already open.
 *
 * commit_start() and commit_wait() are optional: a backend that has them
 * commits without holding the main loop. When the batch is due the base
 * class calls commit_start() (after insert_events()), which sends the commit
 * and returns; the backend calls triage_store_committed() once it is done,
 * from the main loop, or from commit_wait(), which returns only once every
 * commit in flight (if any) is done. The next batch opens meanwhile (begin()
 * again) and its commit goes too, up to @flights commits in flight at once
 * (0 is one); the backend calls triage_store_committed() for them in the
 * order they were started, whatever order the database finished them in.
 * Reads must see what the commits in flight wrote: the backend waits for
 * them first.
 *
 * @shared: other servers may use the database at the same time. The base
 * class then leaves the delivery of events to the backend, which calls
 * triage_store_emit_event() for every event any server committed, in id
 * order; otherwise the base class delivers the batch's own events once it
 * has committed. A shared backend's own_events() (optional) is given the
 * events of each of this server's batches once it is done (@committed, their
 * ids set; or not), in the order they went, so it need not read them back. */
struct _TriageStoreClass
{
  GObjectClass parent_class;

  gboolean shared;
  guint    flights;

  /* the batch */
  gboolean               (*begin)              (TriageStore *self,
                                                GError     **error);
  gboolean               (*insert_events)      (TriageStore *self,
                                                GPtrArray   *events,
                                                GError     **error);
  gboolean               (*commit)             (TriageStore *self,
                                                GError     **error);
  void                   (*rollback)           (TriageStore *self);
  void                   (*commit_start)       (TriageStore *self);
  void                   (*commit_wait)        (TriageStore *self);
  void                   (*own_events)         (TriageStore *self,
                                                GPtrArray   *events,
                                                gboolean     committed);

  /* operations (triage-store-*-ops.c) */
  gboolean               (*check)              (TriageStore *self,
                                                GError     **error);
  /* NULL: always (a SQLite file is not restored under its server) */
  gboolean               (*trust_schema)       (TriageStore *self,
                                                GError     **error);
  gboolean               (*count_pending)      (TriageStore *self,
                                                gint64      *counts,
                                                guint        n_counts);
  gboolean               (*count_webhooks)     (TriageStore *self,
                                                gint64      *queued,
                                                gint64      *failed);
  /* NULL: none (a SQLite file's busy wait is said in the log) */
  guint64                (*count_lock_waits)   (TriageStore *self,
                                                gboolean    *locked);

  /* users and services */
  gboolean               (*user_exists)        (TriageStore *self,
                                                const char  *id,
                                                GError     **error);
  TriageStoreInsert      (*add_user)           (TriageStore *self,
                                                const char  *id,
                                                const char  *name,
                                                const char  *token_hash);
  /* NULL with @error unset: none; with @error set: the database failed */
  char                  *(*user_by_token)      (TriageStore *self,
                                                const char  *token_hash,
                                                GError     **error);
  TriageStoreInsert      (*add_service)        (TriageStore        *self,
                                                const char         *id,
                                                const char         *name,
                                                const char         *description,
                                                const char         *callback_url,
                                                const char         *webhook_secret,
                                                const char         *key_hash,
                                                const char * const *recipients);
  TriageServiceRow      *(*service_by_key)     (TriageStore *self,
                                                const char  *key_hash,
                                                GError     **error);
  TriageServiceRow      *(*service_by_id)      (TriageStore *self,
                                                const char  *id,
                                                GError     **error);
  TriageServiceRow      *(*service_by_name)    (TriageStore *self,
                                                const char  *name,
                                                GError     **error);

  /* notifications */
  /* NULL with @error unset: none; with @error set: the database failed */
  TriageNotificationRow *(*get_notification)   (TriageStore *self,
                                                const char  *id,
                                                GError     **error);
  GPtrArray             *(*list)               (TriageStore           *self,
                                                const TriageListQuery *query,
                                                gint64                *total,
                                                gboolean              *has_more,
                                                GError               **error);
  /* triage-store-*-reads.c; NULL: the server makes the page itself */
  char                  *(*page_json)          (TriageStore *self,
                                                GPtrArray   *rows,
                                                const char  *pagination);
  TriageStoreInsert      (*insert_notification) (TriageStore *self,
                                                 const char  *id,
                                                 const char  *service_id,
                                                 int          protocol,
                                                 const char  *protocol_id,
                                                 const char  *body,
                                                 const char  *json,
                                                 const char  *answer,
                                                 const char  *project,
                                                 gint64       created_at,
                                                 gint64       deadline);
  /* NULL with @error unset: none; with @error set: the database failed */
  TriageNotificationRow *(*find_request)       (TriageStore *self,
                                                const char  *service_id,
                                                int          protocol,
                                                const char  *protocol_id,
                                                GError     **error);
  gboolean               (*is_recipient)       (TriageStore *self,
                                                const char  *notification_id,
                                                const char  *user_id,
                                                GError     **error);
  /* NULL with @error set: the database failed */
  GStrv                  (*recipients)         (TriageStore *self,
                                                const char  *notification_id,
                                                GError     **error);
  /* FALSE with @error set: the database failed */
  gboolean               (*transition)         (TriageStore *self,
                                                const char  *id,
                                                guint        from_mask,
                                                int          status,
                                                const char  *response,
                                                const char  *reason,
                                                gint64       now,
                                                GError     **error);
  gboolean               (*mark_delivered)     (TriageStore *self,
                                                const char  *id,
                                                gint64       now);
  /* triage-store-*-delivered.c */
  GStrv                  (*mark_delivered_all) (TriageStore        *self,
                                                const char * const *ids,
                                                gint64              now);
  /* 0 with @error set: the database failed */
  gint64                 (*next_deadline)      (TriageStore *self,
                                                GError     **error);
  GStrv                  (*expire_overdue)     (TriageStore *self,
                                                gint64       now,
                                                const char  *reason);

  /* the event log */
  gint64                 (*last_event)         (TriageStore *self);
  GPtrArray             *(*events_after)       (TriageStore *self,
                                                const char  *user,
                                                gint64       after,
                                                guint        limit);
  void                   (*prune_events)       (TriageStore *self,
                                                gint64       before);

  /* retention (triage-store-*-ops.c) */
  guint                  (*forget_settled)     (TriageStore *self,
                                                gint64       before,
                                                guint        limit);

  /* rate limits */
  gboolean               (*take_rate)          (TriageStore *self,
                                                const char  *key,
                                                gint64       interval,
                                                gint64       window,
                                                gint64      *wait);

  /* the webhook queue */
  gboolean               (*add_webhook)        (TriageStore *self,
                                                const char  *request_id,
                                                const char  *service_id,
                                                const char  *notification_id,
                                                const char  *event,
                                                const char  *body,
                                                gint64       now);
  GPtrArray             *(*claim_webhooks)     (TriageStore        *self,
                                                gint64              now,
                                                gint64              lease_until,
                                                const char * const *skip_services,
                                                guint               per_service,
                                                guint               limit);
  gint64                 (*next_webhook)       (TriageStore *self);
  void                   (*schedule_webhook)   (TriageStore *self,
                                                gint64       id,
                                                int          attempts,
                                                gint64       next_attempt,
                                                const char  *last_error);
  void                   (*remove_webhook)     (TriageStore *self,
                                                gint64       id);

  /* AFP review sessions (triage-store-afp.h) */
  gboolean               (*afp_add_session)    (TriageStore *self,
                                                const char  *id,
                                                const char  *service_id,
                                                gint64       now);
  /* NULL with @error unset: none; with @error set: the database failed */
  TriageAfpSessionRow   *(*afp_get_session)    (TriageStore *self,
                                                const char  *id,
                                                GError     **error);
  /* FALSE with @error set: the database failed */
  gboolean               (*afp_claim_iteration) (TriageStore *self,
                                                 const char  *session_id,
                                                 gint64       iteration,
                                                 GError     **error);
  void                   (*afp_release_iteration) (TriageStore *self,
                                                   const char  *session_id,
                                                   gint64       iteration);
  gboolean               (*afp_add_review)     (TriageStore *self,
                                                const char  *notification_id,
                                                const char  *session_id,
                                                gint64       iteration);
  /* FALSE with @error unset: none; with @error set: the database failed */
  gboolean               (*afp_last_review)    (TriageStore *self,
                                                const char  *session_id,
                                                char       **notification_id,
                                                gint64      *iteration,
                                                GError     **error);
  GPtrArray             *(*afp_reviews)        (TriageStore *self,
                                                const char  *session_id,
                                                gint64       after,
                                                guint        limit,
                                                gint64      *total,
                                                GError     **error);
};

/* For the calls that change a notification (triage-store-calls.c): opens
 * the batch the change joins, or says why the database would not; with
 * @marks (it only marks rows delivered), without counting it as a write a
 * read must wait for (triage_store_reads_durable ()). */
gboolean triage_store_batch_change (TriageStore   *self,
                                    gboolean       marks,
                                    GError       **error);

/* For backends: the commit commit_start() sent is done (@error: why not). */
void triage_store_committed  (TriageStore          *self,
                              gboolean              committed,
                              const GError         *error);

/* For backends: hands a committed event to the server (shared stores). */
void triage_store_emit_event (TriageStore          *self,
                              const TriageEventRow *event);

/* For backends that can write a new request with a status other than
 * created (triage_store_set_insert_status ()): the status to write. */
int  triage_store_insert_status (TriageStore        *self,
                                 const char         *id,
                                 int                 protocol,
                                 const char * const *recipients);

/* Whether @error (of a statement or a commit) is one the database gives in
 * the normal course under load, not a fault: the session ended
 * (G_IO_ERROR_CONNECTION_CLOSED), a lock wait or the wait for an answer ran
 * out (G_IO_ERROR_TIMED_OUT), the database refused a new connection or is
 * still away since it did (G_IO_ERROR_CONNECTION_REFUSED,
 * G_IO_ERROR_NOT_CONNECTED: a restart), a table or schema is missing
 * (G_IO_ERROR_NOT_INITIALIZED: the database emptied or being restored under
 * the server, which /readyz says), the database is read-only
 * (G_IO_ERROR_READ_ONLY: a hot standby, default_transaction_read_only; /readyz
 * says it too). Logged as a message, at most one a
 * TRIAGE_LOG_LIMIT_INTERVAL_S per kind; the requests get 503. */
gboolean triage_store_error_expected (const GError *error);

G_END_DECLS
