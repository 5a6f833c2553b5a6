/* triage-store.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The storage interface every backend implements: the choice of backend, the
 * group commit (one open batch, committed when the main loop is idle), the
 * events a batch carries, rates kept in memory (triage-rate-table.c), and
 * the dispatch of the checks and counts to the backend's implementation;
 * the calls on users, services, notifications and the webhook queue:
 * triage-store-calls.c. The rows it hands out: triage-store-rows.c.
 */

#define G_LOG_DOMAIN "triage-store"

#include <string.h>
#include <gio/gio.h>

#include "atp.h"
#include "triage-rate-table.h"
#include "triage-store-private.h"
#include "triage-store-postgres.h"
#include "triage-store-sqlite.h"

typedef struct
{
  TriageStoreCommitFunc func;
  gpointer              data;
  char                 *request_id;  /* of the HTTP request that waits, or NULL */
} CommitWaiter;

/* A batch that failed is named in the log by the requests it failed; a
 * busy one holds hundreds: the first few say which. */
#define NAMED_WAITERS 8

/* A batch whose commit is in flight (backends with commit_start ()). */
typedef struct
{
  gint64     start;
  GArray    *waiters;    /* of CommitWaiter */
  GPtrArray *events;
  gboolean   writes;     /* it holds more than delivered marks */
} Flight;

typedef struct
{
  gboolean             open;            /* a batch is open */
  gboolean             writes;          /* it holds more than delivered marks */
  guint                idle_source;     /* the batch's commit when idle */
  guint                timeout_source;  /* the batch's commit at the latest */
  GArray              *after_commit;    /* of CommitWaiter */
  GPtrArray           *events;          /* TriageEventRow*: the batch's, written as it commits */
  GQueue               flights;         /* Flight*, oldest first */
  gboolean             due;             /* the open batch's turn came while all flew */
  GError              *failure;         /* the open batch is to be rolled back: why */
  TriageStoreEventFunc event_func;
  gpointer             event_data;
  TriageRateTable     *rates;           /* created at the first use */
  TriageStoreCommitObserver commit_observer;
  TriageStoreBeforeCommit before_commit;
  gpointer             before_commit_data;
  TriageStoreInsertStatus insert_status;
  gpointer             insert_status_data;
} TriageStorePrivate;

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (TriageStore, triage_store, G_TYPE_OBJECT)

static gboolean triage_store_real_take_rate (TriageStore *self,
                                             const char  *key,
                                             gint64       interval,
                                             gint64       window,
                                             gint64      *wait);

#define CLASS(self) TRIAGE_STORE_GET_CLASS (self)
/* A write joins the open batch, opening one if needed. */
#define WRITE(self) (triage_store_batch (self), CLASS (self))

/* Opens the database @database names, creating or migrating its schema: a
 * postgresql:// (or postgres://) URI is a PostgreSQL database, with
 * @password (NULL: libpq's PGPASSWORD or PGPASSFILE, if the server asks for
 * one); anything else is the path of a SQLite file. */
TriageStore *
triage_store_open (const char *database,
                   const char *password,
                   GError    **error)
{
  g_return_val_if_fail (database != NULL, NULL);

  if (!triage_store_check_name (database, error))
    return NULL;
  if (triage_store_is_postgres (database))
    return triage_store_postgres_new (database, password, error);
  if (password != NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "a database password is for a PostgreSQL database (postgresql://…), "
                   "not for the SQLite file %s", database);
      return NULL;
    }
  return triage_store_sqlite_new (database, error);
}

/* Whether other servers may use the database at the same time. */
gboolean
triage_store_is_shared (TriageStore *self)
{
  return CLASS (self)->shared;
}

static void
triage_store_dispose (GObject *object)
{
  TriageStore *self = TRIAGE_STORE (object);

  triage_store_commit (self, NULL);
  G_OBJECT_CLASS (triage_store_parent_class)->dispose (object);
}

static void
commit_waiter_clear (gpointer data)
{
  CommitWaiter *waiter = data;

  g_free (waiter->request_id);
}

static GArray *
waiters_new (void)
{
  GArray *waiters = g_array_new (FALSE, FALSE, sizeof (CommitWaiter));

  g_array_set_clear_func (waiters, commit_waiter_clear);
  return waiters;
}

static void
flight_free (Flight *flight)
{
  g_array_unref (flight->waiters);
  g_ptr_array_unref (flight->events);
  g_free (flight);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Flight, flight_free)

static void
triage_store_finalize (GObject *object)
{
  TriageStorePrivate *priv = triage_store_get_instance_private (TRIAGE_STORE (object));

  g_clear_pointer (&priv->after_commit, g_array_unref);
  g_clear_pointer (&priv->events, g_ptr_array_unref);
  g_clear_error (&priv->failure);
  /* The dispose waited for the commits in flight: none is left. */
  g_queue_clear_full (&priv->flights, (GDestroyNotify) flight_free);
  g_clear_pointer (&priv->rates, triage_rate_table_free);
  G_OBJECT_CLASS (triage_store_parent_class)->finalize (object);
}

static void
triage_store_class_init (TriageStoreClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = triage_store_dispose;
  object_class->finalize = triage_store_finalize;

  klass->take_rate = triage_store_real_take_rate;
}

static void
triage_store_init (TriageStore *self)
{
  TriageStorePrivate *priv = triage_store_get_instance_private (self);

  priv->after_commit = waiters_new ();
  priv->events = g_ptr_array_new_with_free_func ((GDestroyNotify) triage_event_row_free);
}

/* ---- group commit ---- */

/* A batch was not stored (@error: why): said in one line, which names the
 * requests it failed by their request ids, as their lines in the access
 * log do (a request the batch failed is answered 503 with that id). Said
 * once, then counted (triage-log-limit.h): on a full disk every batch
 * fails. The backend does not say it too. */
static void
say_not_stored (GArray       *waiters,
                const GError *error)
{
  g_autoptr(GString) requests = g_string_new (NULL);
  guint named = 0;

  for (guint i = 0; i < waiters->len; i++)
    {
      const char *id = g_array_index (waiters, CommitWaiter, i).request_id;

      if (id == NULL)
        continue;
      if (named++ < NAMED_WAITERS)
        g_string_append_printf (requests, "%s %s", named > 1 ? "," : " (request", id);
    }
  if (named > NAMED_WAITERS)
    g_string_append_printf (requests, " and %u more", named - NAMED_WAITERS);
  if (named > 0)
    g_string_append_c (requests, ')');
  triage_log_failure ("a batch was not stored%s: %s", requests->str,
                      error != NULL ? error->message : "it was not committed");
}

static void start_commit (TriageStore *self);
static void flight_done  (TriageStore  *self,
                          Flight       *done,
                          gboolean      committed,
                          const GError *error);

static gboolean
commit_due (gpointer data)
{
  TriageStore *self = data;

  /* A batch that fails is said by triage_store_commit (), once then
   * counted; its requests are told (503). */
  if (CLASS (self)->commit_start != NULL)
    start_commit (self);
  else
    triage_store_commit (self, NULL);
  return G_SOURCE_REMOVE;
}

/* Opens the batch the next writes join, unless one is open; FALSE when
 * none is (the database would not open one: @error, unless NULL, says why). */
static gboolean
open_batch (TriageStore *self,
            GError     **error)
{
  TriageStorePrivate *priv = triage_store_get_instance_private (self);
  g_autoptr(GError) failure = NULL;

  if (priv->open)
    return TRUE;
  if (!CLASS (self)->begin (self, &failure))
    {
      /* Said once in a while: while another process holds a SQLite file,
       * every write fails here at once (triage-store-sqlite-batch.c), and
       * a deadline past due is tried again every few ms. */
      triage_log_failure ("cannot open a batch: %s", failure->message);
      g_propagate_error (error, g_steal_pointer (&failure));
      return FALSE;
    }
  priv->open = TRUE;
  priv->writes = FALSE;
  g_clear_error (&priv->failure);
  priv->idle_source = g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, commit_due, self, NULL);
  priv->timeout_source = g_timeout_add_full (G_PRIORITY_HIGH, TRIAGE_STORE_BATCH_MAX_MS,
                                             commit_due, self, NULL);
  return TRUE;
}

/* Opens the batch the next writes join, unless one is open. Without one
 * (the database would not open it) a write that carries no events (a user,
 * a service, the webhook queue's rows) runs on its own, committed at once. */
void
triage_store_batch (TriageStore *self)
{
  TriageStorePrivate *priv = triage_store_get_instance_private (self);

  if (open_batch (self, NULL))
    priv->writes = TRUE;
}

/* The batch a change of a notification joins (a delivered mark's with
 * @marks): its events, and the webhook delivery an end owes, are written in
 * it. FALSE with @error set when the database would not open one: the
 * change is then refused, not written on its own, as a change committed at
 * once and its events after it would stay without them when they failed
 * (a stream resumed from the log would never hear of it). */
gboolean
triage_store_batch_change (TriageStore *self,
                           gboolean     marks,
                           GError     **error)
{
  TriageStorePrivate *priv = triage_store_get_instance_private (self);
  g_autoptr(GError) failure = NULL;

  if (!open_batch (self, &failure))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "not stored: the database would not "
                   "open a transaction to store it with its events (%s)", failure->message);
      return FALSE;
    }
  if (!marks)
    priv->writes = TRUE;
  return TRUE;
}

/* Fails the open batch: at its turn it is rolled back instead of committed,
 * and whoever waits for it is told it was not stored (@error, copied, says
 * why). For a write whose consequences could not be written with it (the
 * end of a request and the webhook delivery it owes): the two are stored
 * together or not at all, as on PostgreSQL, where a statement that fails
 * fails its batch. A change is always made in a batch
 * (triage_store_batch_change ()), which stays open until its turn; a
 * backend's failure met during the commit (SQLite's lost batch) fails the
 * commit itself. */
void
triage_store_fail_batch (TriageStore  *self,
                         const GError *error)
{
  TriageStorePrivate *priv = triage_store_get_instance_private (self);

  g_return_if_fail (error != NULL);

  if (priv->open && priv->failure == NULL)
    priv->failure = g_error_copy (error);
}

/* Whether something written is not durable yet: a batch is open, or its
 * commit in flight. */
gboolean
triage_store_in_batch (TriageStore *self)
{
  TriageStorePrivate *priv = triage_store_get_instance_private (self);

  return priv->open || !g_queue_is_empty (&priv->flights);
}

/* Whether whatever a read sees now may be shown before the next commit: the
 * batches not durable yet (open, or their commit in flight) hold nothing but
 * delivered marks. A read sees the open batch's rows (on the batch's own
 * connection, SQLite's or PostgreSQL's writer), and a new notification, an
 * answer or any other status it saw could be lost in a crash; a lost mark
 * only delivers the row again. A resync reads its pages one after the other,
 * each marking its rows: the next page is read while the last one's marks
 * are still open, and need not wait for their fsync. */
gboolean
triage_store_reads_durable (TriageStore *self)
{
  TriageStorePrivate *priv = triage_store_get_instance_private (self);

  if (priv->open && priv->writes)
    return FALSE;
  for (GList *l = priv->flights.head; l != NULL; l = l->next)
    if (((Flight *) l->data)->writes)
      return FALSE;
  return TRUE;
}

/* Hands the events of a committed batch to the server, unless the backend
 * does (shared stores deliver every server's events, in id order: they are
 * told of their own batches, done or not). */
static void
deliver (TriageStore *self,
         GPtrArray   *events,
         gboolean     committed)
{
  if (CLASS (self)->shared)
    {
      if (CLASS (self)->own_events != NULL)
        CLASS (self)->own_events (self, events, committed);
      return;
    }
  for (guint i = 0; committed && i < events->len; i++)
    triage_store_emit_event (self, events->pdata[i]);
}

void
triage_store_emit_event (TriageStore          *self,
                         const TriageEventRow *event)
{
  TriageStorePrivate *priv = triage_store_get_instance_private (self);

  if (priv->event_func != NULL)
    priv->event_func (event, priv->event_data);
}

/* Commits the open batch (if any): its events first, then the rest. Then the
 * events go out and everyone who waited for the batch is told. A failed
 * commit rolls the batch back; the waiters learn it was not stored. */
gboolean
triage_store_commit (TriageStore *self,
                     GError     **error)
{
  TriageStorePrivate *priv = triage_store_get_instance_private (self);
  g_autoptr(GArray) waiters = NULL;
  g_autoptr(GPtrArray) events = NULL;
  g_autoptr(GError) failure = NULL;
  gboolean ok = TRUE;
  gint64 start;

  if (!g_queue_is_empty (&priv->flights))
    CLASS (self)->commit_wait (self);
  g_clear_handle_id (&priv->idle_source, g_source_remove);
  g_clear_handle_id (&priv->timeout_source, g_source_remove);
  if (!priv->open)
    return TRUE;
  if (priv->before_commit != NULL)
    priv->before_commit (priv->before_commit_data);
  priv->open = FALSE;
  priv->due = FALSE;
  start = g_get_monotonic_time ();
  events = g_steal_pointer (&priv->events);
  priv->events = g_ptr_array_new_with_free_func ((GDestroyNotify) triage_event_row_free);
  if (priv->failure != NULL)
    {
      CLASS (self)->rollback (self);
      failure = g_steal_pointer (&priv->failure);
      ok = FALSE;
    }
  else if ((events->len > 0 && !CLASS (self)->insert_events (self, events, &failure)) ||
           !CLASS (self)->commit (self, &failure))
    {
      CLASS (self)->rollback (self);
      ok = FALSE;
    }
  if (priv->commit_observer != NULL)
    priv->commit_observer (g_get_monotonic_time () - start, ok);
  deliver (self, events, ok);
  waiters = g_steal_pointer (&priv->after_commit);
  if (!ok)
    say_not_stored (waiters, failure);
  priv->after_commit = waiters_new ();
  for (guint i = 0; i < waiters->len; i++)
    {
      CommitWaiter *waiter = &g_array_index (waiters, CommitWaiter, i);

      waiter->func (waiter->data, ok);
    }
  if (failure != NULL)
    g_propagate_error (error, g_steal_pointer (&failure));
  return ok;
}

/* The open batch's turn (a backend with commit_start ()): its commit is
 * sent, unless as many as the backend keeps are in flight; then it goes
 * once the oldest is done. */
static void
start_commit (TriageStore *self)
{
  TriageStorePrivate *priv = triage_store_get_instance_private (self);
  g_autoptr(GError) error = NULL;
  Flight *flight;

  g_clear_handle_id (&priv->idle_source, g_source_remove);
  g_clear_handle_id (&priv->timeout_source, g_source_remove);
  if (!priv->open)
    return;
  if (g_queue_get_length (&priv->flights) >= MAX (CLASS (self)->flights, 1))
    {
      priv->due = TRUE;
      return;
    }
  if (priv->before_commit != NULL)
    priv->before_commit (priv->before_commit_data);
  priv->open = FALSE;
  priv->due = FALSE;
  flight = g_new0 (Flight, 1);
  flight->start = g_get_monotonic_time ();
  flight->writes = priv->writes;
  flight->waiters = g_steal_pointer (&priv->after_commit);
  priv->after_commit = waiters_new ();
  flight->events = g_steal_pointer (&priv->events);
  priv->events = g_ptr_array_new_with_free_func ((GDestroyNotify) triage_event_row_free);
  if (priv->failure != NULL)
    {
      /* Failed by its writer (triage_store_fail_batch ()): nothing of it is stored. */
      error = g_steal_pointer (&priv->failure);
      CLASS (self)->rollback (self);
      flight_done (self, flight, FALSE, error);
      return;
    }
  if (flight->events->len > 0 && !CLASS (self)->insert_events (self, flight->events, &error))
    {
      /* Nothing of it is stored, whatever the flights before it come to. */
      CLASS (self)->rollback (self);
      flight_done (self, flight, FALSE, error);
      return;
    }
  g_queue_push_tail (&priv->flights, flight);
  CLASS (self)->commit_start (self);
}

gboolean
triage_store_error_expected (const GError *error)
{
  return g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CONNECTION_CLOSED) ||
         g_error_matches (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT) ||
         g_error_matches (error, G_IO_ERROR, G_IO_ERROR_BUSY) ||
         g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CONNECTION_REFUSED) ||
         g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_CONNECTED) ||
         g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED) ||
         g_error_matches (error, G_IO_ERROR, G_IO_ERROR_READ_ONLY);
}

/* @flight is done: its events go out and everyone who waited for it is
 * told; then the open batch may take its turn. */
static void
flight_done (TriageStore  *self,
             Flight       *done,
             gboolean      committed,
             const GError *error)
{
  TriageStorePrivate *priv = triage_store_get_instance_private (self);
  g_autoptr(Flight) flight = done;
  GArray *waiters;
  GPtrArray *events;

  /* A session the database ended, or a lock wait it gave up (PostgreSQL),
   * is no fault of ours, and the waiters are told (a 503 to each request:
   * not stored, or if the COMMIT was in flight perhaps stored; a retry with
   * the same id settles it). Said once, then counted, either way. */
  if (!committed)
    say_not_stored (flight->waiters, error);
  if (priv->commit_observer != NULL)
    priv->commit_observer (g_get_monotonic_time () - flight->start, committed);
  waiters = flight->waiters;
  events = flight->events;
  deliver (self, events, committed);
  /* Not from here: this may be a read's wait, in the middle of a request. */
  if (priv->open && priv->due && priv->idle_source == 0)
    priv->idle_source = g_idle_add_full (G_PRIORITY_HIGH, commit_due, self, NULL);
  for (guint i = 0; i < waiters->len; i++)
    {
      CommitWaiter *waiter = &g_array_index (waiters, CommitWaiter, i);

      waiter->func (waiter->data, committed);
    }
}

/* The oldest commit in flight is done: the backend says so in the order it
 * started them, so whoever waits for one learns of the flights before it
 * first. */
void
triage_store_committed (TriageStore  *self,
                        gboolean      committed,
                        const GError *error)
{
  TriageStorePrivate *priv = triage_store_get_instance_private (self);

  g_return_if_fail (!g_queue_is_empty (&priv->flights));
  flight_done (self, g_queue_pop_head (&priv->flights), committed, error);
}

/* Calls @func once everything written so far is durable: at once when no
 * batch is open nor in flight, else after the commit of the last one. */
void
triage_store_after_commit (TriageStore          *self,
                           TriageStoreCommitFunc func,
                           gpointer              data)
{
  triage_store_after_commit_of (self, NULL, func, data);
}

/* The same for the HTTP request @request_id: a batch that fails names it in
 * the log. */
void
triage_store_after_commit_of (TriageStore          *self,
                              const char           *request_id,
                              TriageStoreCommitFunc func,
                              gpointer              data)
{
  TriageStorePrivate *priv = triage_store_get_instance_private (self);
  CommitWaiter waiter = { func, data, NULL };

  if (!priv->open && g_queue_is_empty (&priv->flights))
    {
      func (data, TRUE);
      return;
    }
  waiter.request_id = g_strdup (request_id);
  if (priv->open)
    g_array_append_val (priv->after_commit, waiter);
  else
    g_array_append_val (((Flight *) g_queue_peek_tail (&priv->flights))->waiters, waiter);
}

void
triage_store_set_commit_observer (TriageStore              *self,
                                  TriageStoreCommitObserver observer)
{
  TriageStorePrivate *priv = triage_store_get_instance_private (self);

  priv->commit_observer = observer;
}

void
triage_store_set_before_commit (TriageStore            *self,
                                TriageStoreBeforeCommit func,
                                gpointer                data)
{
  TriageStorePrivate *priv = triage_store_get_instance_private (self);

  priv->before_commit = func;
  priv->before_commit_data = data;
}

void
triage_store_set_insert_status (TriageStore            *self,
                                TriageStoreInsertStatus func,
                                gpointer                data)
{
  TriageStorePrivate *priv = triage_store_get_instance_private (self);

  priv->insert_status = func;
  priv->insert_status_data = data;
}

int
triage_store_insert_status (TriageStore        *self,
                            const char         *id,
                            int                 protocol,
                            const char * const *recipients)
{
  TriageStorePrivate *priv = triage_store_get_instance_private (self);

  if (priv->insert_status == NULL)
    return ATP_STATUS_CREATED;
  return priv->insert_status (id, protocol, recipients, priv->insert_status_data);
}

gboolean
triage_store_check (TriageStore  *self,
                    GError      **error)
{
  return CLASS (self)->check (self, error);
}

gboolean
triage_store_count_pending (TriageStore *self,
                            gint64      *counts,
                            guint        n_counts)
{
  memset (counts, 0, n_counts * sizeof *counts);
  if (CLASS (self)->count_pending (self, counts, n_counts))
    return TRUE;
  memset (counts, 0, n_counts * sizeof *counts);
  return FALSE;
}

gboolean
triage_store_count_webhooks (TriageStore *self,
                             gint64      *queued,
                             gint64      *failed)
{
  *queued = *failed = 0;
  if (CLASS (self)->count_webhooks (self, queued, failed))
    return TRUE;
  *queued = *failed = 0;
  return FALSE;
}

guint64
triage_store_count_lock_waits (TriageStore *self,
                               gboolean    *locked)
{
  *locked = FALSE;
  if (CLASS (self)->count_lock_waits == NULL)
    return 0;
  return CLASS (self)->count_lock_waits (self, locked);
}

/* ---- the event log (SSE ids and resume) ---- */

void
triage_store_set_event_func (TriageStore          *self,
                             TriageStoreEventFunc  func,
                             gpointer              data)
{
  TriageStorePrivate *priv = triage_store_get_instance_private (self);

  priv->event_func = func;
  priv->event_data = data;
}

/* Queues an event for each of @users in the open batch: the batch of the
 * change they are about (triage_store_batch_change ()), written with it. */
void
triage_store_add_events (TriageStore        *self,
                         const char * const *users,
                         const char         *type,
                         int                 protocol,
                         const char         *data,
                         const char         *notification_id,
                         gint64              now)
{
  TriageStorePrivate *priv = triage_store_get_instance_private (self);

  g_return_if_fail (priv->open);

  priv->writes = TRUE;
  for (guint i = 0; users[i] != NULL; i++)
    {
      TriageEventRow *event = g_new0 (TriageEventRow, 1);

      event->user = g_strdup (users[i]);
      event->type = g_strdup (type);
      event->protocol = protocol;
      event->data = g_strdup (data);
      event->notification_id = g_strdup (notification_id);
      event->created_at = now;
      g_ptr_array_add (priv->events, event);
    }
}

/* The id of the newest event of any user (0 = none yet): where a snapshot of
 * the current state stands in the log. */
gint64
triage_store_last_event (TriageStore *self)
{
  return CLASS (self)->last_event (self);
}

/* @user's events after @after, oldest first, at most @limit. Returns NULL when
 * the log no longer reaches back to @after (pruned), never reached it (@after
 * is above the newest id: the database was restored from a backup), or holds
 * more than
 * @limit: the caller starts over from a snapshot. */
GPtrArray *
triage_store_events_after (TriageStore *self,
                           const char  *user,
                           gint64       after,
                           guint        limit)
{
  return CLASS (self)->events_after (self, user, after, limit);
}

/* Forgets the events written before @before (unix µs). */
void
triage_store_prune_events (TriageStore *self,
                           gint64       before)
{
  WRITE (self)->prune_events (self, before);
}

guint
triage_store_forget_settled (TriageStore *self,
                             gint64       before,
                             guint        limit)
{
  return WRITE (self)->forget_settled (self, before, limit);
}

/* ---- rate limits ---- */

/* The rates of one server, in memory (triage-rate-table.c). */
static gboolean
triage_store_real_take_rate (TriageStore *self,
                             const char  *key,
                             gint64       interval,
                             gint64       window,
                             gint64      *wait)
{
  TriageStorePrivate *priv = triage_store_get_instance_private (self);

  if (priv->rates == NULL)
    priv->rates = triage_rate_table_new ();
  return triage_rate_table_take (priv->rates, key, interval, window, wait);
}

gboolean
triage_store_take_rate (TriageStore *self,
                        const char  *key,
                        gint64       interval,
                        gint64       window,
                        gint64      *wait)
{
  g_return_val_if_fail (interval > 0 && window >= interval, TRUE);

  *wait = 0;
  return CLASS (self)->take_rate (self, key, interval, window, wait);
}
