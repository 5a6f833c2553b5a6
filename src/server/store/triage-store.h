/* triage-store.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

#include "triage-log-limit.h"

G_BEGIN_DECLS

/* The server's storage interface. Everything the server keeps goes through
 * these functions; no SQL and no database type appears outside this folder.
 * TriageStore is an abstract class; each backend is a subclass that
 * implements every virtual function of triage-store-private.h with the same
 * promises:
 *
 *   - a write is durable once triage_store_commit() has returned TRUE (or the
 *     triage_store_after_commit() callbacks say committed);
 *   - triage_store_transition() is atomic: of two concurrent calls with the
 *     same from-mask exactly one changes the row, whichever server made them;
 *   - reads see the writes of the open batch (events excepted: they are
 *     written when the batch commits, see triage_store_add_events()).
 *
 * triage_store_open() picks the backend from the form of --database: a
 * postgresql:// or postgres:// URI is PostgreSQL (several servers may share
 * the database: triage_store_is_shared()), a libpq key=value string is
 * refused (triage_store_check_name()), anything else is a SQLite file.
 *
 * Group commit: every write joins one open transaction (a batch), which is
 * committed once the main loop has nothing else ready (or after
 * TRIAGE_STORE_BATCH_MAX_MS at the latest). Whatever must not be seen before
 * it is durable (an HTTP answer, a frame) waits with triage_store_after_commit().
 * A backend may commit without holding the main loop (PostgreSQL does: see
 * triage-store-private.h); then one batch commits while the next gathers,
 * triage_store_in_batch() is TRUE for both, and triage_store_after_commit()
 * waits for the last of them.
 *
 * A read that answers at once (without waiting for the commit) may show only
 * what is durable, with one exception: `delivered` marks. A lost mark is
 * harmless (the row is still created and is delivered again), so
 * triage_store_reads_durable() is TRUE while the batches not yet durable hold
 * nothing but marks (triage_store_mark_delivered() and _all()).
 *
 * Adding a function: declare it here, add its virtual function to
 * TriageStoreClass (triage-store-private.h), dispatch to it in triage-store.c
 * (a write opens the batch first: see WRITE there) and implement it in every
 * backend. */
#define TRIAGE_STORE_BATCH_MAX_MS 10

#define TRIAGE_TYPE_STORE (triage_store_get_type ())
G_DECLARE_DERIVABLE_TYPE (TriageStore, triage_store, TRIAGE, STORE, GObject)

typedef void (*TriageStoreCommitFunc) (gpointer data,
                                       gboolean committed);

typedef struct
{
  char *id;
  char *name;
  char *callback_url;
  char *webhook_secret;
} TriageServiceRow;

typedef struct
{
  gint64  seq;
  char   *id;
  char   *service_id;
  char   *body;          /* the submission as posted (the protocol's message) */
  char   *json;          /* the filled notification, the envelope clients see (status "created") */
  char   *answer;        /* the original 201 answer */
  int     status;        /* AtpStatus */
  gint64  deadline;      /* unix µs, 0 = none */
  char   *response;      /* response JSON or NULL */
  char   *reason;        /* the service's reason for withdrawing it, or NULL */
  gint64  updated_at;    /* unix µs */
  int     protocol;      /* AtpProtocol of the request */
  char   *protocol_id;   /* the agent's own id of a non-ATP request (AITP request_decision.id), or NULL */
  gint64  created_at;    /* unix µs: when this server (or another) stored it */
} TriageNotificationRow;

gboolean     triage_store_is_postgres     (const char   *database);
gboolean     triage_store_check_name      (const char   *database,
                                           GError      **error);
TriageStore *triage_store_open            (const char   *database,
                                           const char   *password,
                                           GError      **error);
gboolean     triage_store_is_shared       (TriageStore  *self);

void         triage_store_batch           (TriageStore  *self);
gboolean     triage_store_in_batch        (TriageStore  *self);
gboolean     triage_store_reads_durable   (TriageStore  *self);
gboolean     triage_store_commit          (TriageStore  *self,
                                           GError      **error);
void         triage_store_after_commit    (TriageStore  *self,
                                           TriageStoreCommitFunc func,
                                           gpointer      data);
void         triage_store_after_commit_of (TriageStore  *self,
                                           const char   *request_id,
                                           TriageStoreCommitFunc func,
                                           gpointer      data);
/* Rolls the open batch back at its turn (its waiters told: not stored). */
void         triage_store_fail_batch      (TriageStore  *self,
                                           const GError *error);

/* For operators (readiness, metrics):
 *
 *   - triage_store_check() asks the database a question: it answers (else
 *     G_IO_ERROR_NOT_CONNECTED), its schema is all there (else
 *     G_IO_ERROR_NOT_INITIALIZED: emptied, or being restored, under the
 *     server), and it is the version this server migrated it to, not newer
 *     (else G_IO_ERROR_FAILED);
 *   - triage_store_trust_schema() is whether requests may use the database:
 *     its schema was found whole (triage_store_check(), another version
 *     counting as whole) since anything gave cause to doubt it, asked only
 *     then; else the error of that check;
 *   - triage_store_count_pending() counts the pending requests of the whole
 *     database (every server's, when it is shared) by AtpProtocol;
 *   - the commit observer is told how long every commit of a batch took. */
typedef void (*TriageStoreCommitObserver) (gint64   duration_us,
                                           gboolean committed);

gboolean     triage_store_check           (TriageStore  *self,
                                           GError      **error);
gboolean     triage_store_trust_schema    (TriageStore  *self,
                                           GError      **error);
gboolean     triage_store_count_pending   (TriageStore  *self,
                                           gint64       *counts,
                                           guint         n_counts);
/* The webhook queue's rows: waiting for an attempt (@queued), kept as failed
 * for good (@failed); of the whole database. Both counts return FALSE (and
 * zeros) when the database did not answer. */
gboolean     triage_store_count_webhooks  (TriageStore  *self,
                                           gint64       *queued,
                                           gint64       *failed);
/* The lock waits the database gave up for this server (a table another
 * session held past lock_timeout), and whether it is taken as locked now
 * (@locked): statements fail at once until the lock is free. */
guint64      triage_store_count_lock_waits (TriageStore *self,
                                            gboolean    *locked);
void         triage_store_set_commit_observer (TriageStore              *self,
                                               TriageStoreCommitObserver observer);
/* Called as a batch's turn to commit comes, while it is still open: what
 * it writes (and the events it adds) joins the batch. */
typedef void (*TriageStoreBeforeCommit) (gpointer data);
void         triage_store_set_before_commit (TriageStore            *self,
                                             TriageStoreBeforeCommit func,
                                             gpointer                data);
/* Asked by a store one server owns alone (SQLite) as a new request @id of
 * @protocol goes to @recipients in the open batch: the status its row is
 * written with (ATP_STATUS_CREATED when no function is set). */
typedef int (*TriageStoreInsertStatus) (const char         *id,
                                        int                 protocol,
                                        const char * const *recipients,
                                        gpointer            data);
void         triage_store_set_insert_status (TriageStore            *self,
                                             TriageStoreInsertStatus func,
                                             gpointer                data);

void         triage_service_row_free      (TriageServiceRow *row);
TriageServiceRow *triage_service_row_copy (const TriageServiceRow *row);
void         triage_notification_row_free (TriageNotificationRow *row);

/* What an insert did: a row with the same key may already be there (another
 * server may have inserted it a moment ago), or it failed (the database did
 * not answer: nothing is known to exist). */
typedef enum
{
  TRIAGE_STORE_INSERT_FAILED,
  TRIAGE_STORE_INSERTED,
  TRIAGE_STORE_INSERT_EXISTS,
} TriageStoreInsert;

/* FALSE with @error set when the database did not answer. */
gboolean     triage_store_user_exists     (TriageStore  *self,
                                           const char   *id,
                                           GError      **error);
TriageStoreInsert triage_store_add_user   (TriageStore  *self,
                                           const char   *id,
                                           const char   *name,
                                           const char   *token_hash);
/* The lookups of a token (by its hash) answer one of three: the user id (the
 * service), NULL with @error unset when no user (service) holds it, or NULL
 * with @error set when the database did not answer: then the token is not
 * known to be wrong, and a caller must not say it is (a client told its token
 * is invalid drops it). A service found is kept; a failure never is. */
char        *triage_store_user_by_token   (TriageStore  *self,
                                           const char   *token_hash,
                                           GError      **error);

/* A service never changes once registered: a backend may keep what it read. */
TriageStoreInsert triage_store_add_service (TriageStore        *self,
                                            const char         *id,
                                            const char         *name,
                                            const char         *description,
                                            const char         *callback_url,
                                            const char         *webhook_secret,
                                            const char         *key_hash,
                                            const char * const *recipients);
TriageServiceRow *triage_store_service_by_key  (TriageStore *self,
                                                const char  *key_hash,
                                                GError     **error);
/* Like the token lookups: NULL with @error unset when no service has @id,
 * NULL with @error set when the database did not answer. */
TriageServiceRow *triage_store_service_by_id   (TriageStore *self,
                                                const char  *id,
                                                GError     **error);
TriageServiceRow *triage_store_service_by_name (TriageStore *self,
                                                const char  *name,
                                                GError     **error);

/* The notification with @id; NULL with @error unset when there is none, NULL
 * with @error set when the database did not answer (a lock or statement
 * timeout, a session ended, an I/O error): then the notification is not known
 * to be missing, and a caller must not say it is (a client told 404 drops
 * the person's answer for good). */
TriageNotificationRow *triage_store_get_notification (TriageStore *self,
                                                      const char  *id,
                                                      GError     **error);

typedef struct
{
  const char *user;
  guint       status_mask;   /* bit per AtpStatus, 0 = any */
  const char *service_id;    /* NULL = any */
  const char *project;       /* NULL = any */
  guint       protocol_mask; /* bit per AtpProtocol, 0 = any */
  gboolean    newest;        /* newest first, else oldest first */
  gint64      after;         /* the cursor: a seq, 0 = from the start */
  guint       limit;
} TriageListQuery;

GPtrArray   *triage_store_list            (TriageStore           *self,
                                           const TriageListQuery *query,
                                           gint64                *total,
                                           gboolean              *has_more,
                                           GError               **error);
/* A list page's answer, made by the database in one statement: an object of
 * "notifications", the stored JSON of @rows (TriageNotificationRow, in their
 * order) each with its status as it is now, and "pagination", @pagination
 * (JSON text). NULL when the backend does not make it: the caller does. */
char        *triage_store_page_json       (TriageStore           *self,
                                           GPtrArray             *rows,
                                           const char            *pagination);
TriageStoreInsert triage_store_insert_notification (TriageStore *self,
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
/* The request of @service_id and @protocol the agent calls @protocol_id;
 * NULL with @error set when the database did not answer (as
 * triage_store_get_notification ()): then it is not known whether the
 * agent asked before, and a caller must not answer as if it had not. */
TriageNotificationRow *triage_store_find_request (TriageStore *self,
                                                  const char  *service_id,
                                                  int          protocol,
                                                  const char  *protocol_id,
                                                  GError     **error);
/* FALSE with @error set when the database did not answer (as
 * triage_store_get_notification ()). */
gboolean     triage_store_is_recipient    (TriageStore  *self,
                                           const char   *notification_id,
                                           const char   *user_id,
                                           GError      **error);
/* Who @notification_id goes to; NULL with @error set when the database did
 * not answer (not "nobody": a push skipped for it would never be made). */
GStrv        triage_store_recipients      (TriageStore  *self,
                                           const char   *notification_id,
                                           GError      **error);
/* Moves to @status if the current status is in @from_mask (bit per
 * AtpStatus), storing @response (an answer's JSON) and @reason (the
 * service's reason for a withdrawal) unless NULL. FALSE when it is not (or
 * there is no such row); FALSE with
 * @error set when the database did not answer (a lock, a busy file, an I/O
 * error): then nothing is known of the row, and a caller must not answer as
 * if it had ended (a client told "already answered" drops its answer). */
gboolean     triage_store_transition      (TriageStore  *self,
                                           const char   *id,
                                           guint         from_mask,
                                           int          status,
                                           const char   *response,
                                           const char   *reason,
                                           gint64        now,
                                           GError      **error);
/* created → delivered, unless another server is changing the row at this
 * very moment (it wins: delivery is a courtesy, never worth a wait). */
gboolean     triage_store_mark_delivered  (TriageStore  *self,
                                           const char   *id,
                                           gint64        now);
/* The same for every one of @ids in one statement (a list page); returns the
 * ids it moved, in no particular order. */
GStrv        triage_store_mark_delivered_all (TriageStore        *self,
                                              const char * const *ids,
                                              gint64              now);
/* 0 = none, or the database did not answer (@error set: not known). */
gint64       triage_store_next_deadline   (TriageStore  *self,
                                           GError      **error);
/* Stores @reason (the status update's, so that a read says it too) with
 * each expiry. */
GStrv        triage_store_expire_overdue  (TriageStore  *self,
                                           gint64        now,
                                           const char   *reason);

/* The event log: every event a user's streams are sent, kept for a while so
 * an SSE client can resume with Last-Event-ID.
 *
 *   - triage_store_add_events() queues one event per user in the open batch;
 *     the events are written (and given their ids) as the batch commits, so
 *     ids increase in the order batches commit, on every server;
 *   - once they are durable, the function set with
 *     triage_store_set_event_func() is called with each, in id order: the
 *     events of this server only, or, when the store is shared, those of
 *     every server on the database (this one's included). */
/* The type of the event that announces a new notification: its data is
 * always the JSON stored in the notification (`json`), which is never
 * changed, so the log refers to the notification instead of holding
 * another copy (schema: SQLite 7, PostgreSQL 4). */
#define TRIAGE_EVENT_NOTIFICATION "notification"

typedef struct
{
  gint64  id;
  char   *user;
  char   *type;
  char   *data;
  char   *notification_id;   /* the notification it is about */
  gint64  created_at;        /* unix µs */
  int     protocol;          /* AtpProtocol of a new request (a `notification` event); -1 for
                              * an event every stream is sent (a status update) */
} TriageEventRow;

typedef void (*TriageStoreEventFunc) (const TriageEventRow *event,
                                      gpointer              data);

void         triage_event_row_free        (TriageEventRow *row);
void         triage_store_set_event_func  (TriageStore  *self,
                                           TriageStoreEventFunc func,
                                           gpointer      data);
void         triage_store_add_events      (TriageStore  *self,
                                           const char * const *users,
                                           const char   *type,
                                           int           protocol,
                                           const char   *data,
                                           const char   *notification_id,
                                           gint64        now);
gint64       triage_store_last_event      (TriageStore  *self);
GPtrArray   *triage_store_events_after    (TriageStore  *self,
                                           const char   *user,
                                           gint64        after,
                                           guint         limit);
void         triage_store_prune_events    (TriageStore  *self,
                                           gint64        before);

/* Retention (--retain): forgets at most @limit of the requests that settled
 * (answered, expired or withdrawn) before @before (unix µs), oldest first,
 * with their recipients and AFP review rows, and the AFP sessions begun
 * before @before that have no review left. Returns how many requests went:
 * @limit means there may be more. */
guint        triage_store_forget_settled  (TriageStore  *self,
                                           gint64        before,
                                           guint         limit);

/* Rate limits (generic cell rate algorithm): counts one request of @key,
 * allowed while the allowance in use stays within @window (µs) at one request
 * per @interval. FALSE when over, with the wait until the next allowed one in
 * @wait. A shared store keeps the state in the database, for every server. */
gboolean     triage_store_take_rate       (TriageStore  *self,
                                           const char   *key,
                                           gint64        interval,
                                           gint64        window,
                                           gint64       *wait);

/* The webhook queue (profile §6): one row per delivery a service is owed.
 *
 *   - triage_store_add_webhook() joins the open batch, so a delivery written
 *     with the transition it reports is durable exactly when that is;
 *   - a row is due once its next attempt time has come; a row with no next
 *     attempt (next_attempt 0) has failed for good and is kept, never due;
 *   - triage_store_claim_webhooks() takes due rows, earliest first, at most
 *     @per_service of any one service (none of @skip_services) and @limit in
 *     all, and moves their next attempt to @lease_until in the open batch:
 *     once that is durable no other server takes them, and if this one dies
 *     they are due again when the lease ends. Attempts start only after the
 *     claim has committed;
 *   - triage_store_remove_webhook() forgets a delivered row. */
typedef struct
{
  gint64  id;
  char   *request_id;      /* X-ATP-Request-ID, the same for every attempt */
  char   *service_id;
  char   *notification_id;
  char   *callback_url;    /* the service's, read with the row; NULL = it has none */
  char   *webhook_secret;
  char   *body;            /* sent byte for byte on every attempt */
  int     attempts;        /* attempts that failed so far */
  char   *event;           /* X-Triage-Event ("aitp.decision"), or NULL */
} TriageWebhookRow;

void         triage_webhook_row_free      (TriageWebhookRow *row);
gboolean     triage_store_add_webhook     (TriageStore  *self,
                                           const char   *request_id,
                                           const char   *service_id,
                                           const char   *notification_id,
                                           const char   *event,
                                           const char   *body,
                                           gint64        now);
GPtrArray   *triage_store_claim_webhooks  (TriageStore  *self,
                                           gint64        now,
                                           gint64        lease_until,
                                           const char * const *skip_services,
                                           guint         per_service,
                                           guint         limit);
/* The earliest next attempt of any row (unix µs), 0 = none is scheduled. */
gint64       triage_store_next_webhook    (TriageStore  *self);
/* Sets the row's failed attempts and its next attempt (unix µs; 0 = never:
 * failed for good); @last_error NULL keeps the one recorded. */
void         triage_store_schedule_webhook (TriageStore *self,
                                            gint64       id,
                                            int          attempts,
                                            gint64       next_attempt,
                                            const char  *last_error);
void         triage_store_remove_webhook  (TriageStore  *self,
                                           gint64        id);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TriageServiceRow, triage_service_row_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TriageNotificationRow, triage_notification_row_free)

G_END_DECLS
