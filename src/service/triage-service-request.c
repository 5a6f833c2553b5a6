/* triage-service-request.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-service"

#include "triage-service-request-private.h"

#include "atp.h"

#define BACKOFF_INITIAL_MS 500
#define BACKOFF_MAX_MS     15000


G_DEFINE_FINAL_TYPE (TriageServiceRequest, triage_service_request, G_TYPE_OBJECT)

enum
{
  RETRYING,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

typedef enum
{
  STEP_SEND,
  STEP_WAIT,
} Step;

/* One operation: its step, and the long-poll length. */
typedef struct
{
  Step     step;
  guint    wait_seconds;
  gint64   started;        /* monotonic µs the current try began */
} Op;

static void op_try (GTask *task);

static void
triage_service_request_finalize (GObject *object)
{
  TriageServiceRequest *self = TRIAGE_SERVICE_REQUEST (object);

  g_clear_object (&self->client);
  g_free (self->collection);
  g_free (self->notification_id);
  g_free (self->body);
  g_clear_object (&self->send_cancellable);
  g_clear_pointer (&self->withdrawals_waiting, g_ptr_array_unref);

  G_OBJECT_CLASS (triage_service_request_parent_class)->finalize (object);
}

static void
triage_service_request_class_init (TriageServiceRequestClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = triage_service_request_finalize;

  /**
   * TriageServiceRequest::retrying:
   * @self: the request
   * @error: the failure that will be retried
   * @remaining_us: how long the retries may still take, in µs
   *
   * Emitted once a run of failures begins: the first failure that will be
   * retried after a try that succeeded (or the first try). Nothing is emitted
   * for the retries that follow it, nor when one of them gets through.
   */
  signals[RETRYING] = g_signal_new ("retrying", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                    0, NULL, NULL, NULL, G_TYPE_NONE, 2,
                                    G_TYPE_ERROR, G_TYPE_INT64);
}

static void
triage_service_request_init (TriageServiceRequest *self)
{
}

TriageServiceRequest *
triage_service_request_new (AtpClient  *client,
                            const char *notification_id,
                            const char *body,
                            gint64      retry_for_us)
{
  TriageServiceRequest *self;

  g_return_val_if_fail (ATP_IS_CLIENT (client), NULL);
  g_return_val_if_fail (notification_id != NULL, NULL);
  g_return_val_if_fail (body != NULL, NULL);

  self = g_object_new (TRIAGE_TYPE_SERVICE_REQUEST, NULL);
  self->client = g_object_ref (client);
  self->notification_id = g_strdup (notification_id);
  self->body = g_strdup (body);
  self->retry_for_us = MAX (retry_for_us, 0);

  return self;
}

TriageServiceRequest *
triage_service_request_new_at (AtpClient  *client,
                               const char *collection,
                               const char *id,
                               const char *body,
                               gint64      retry_for_us)
{
  TriageServiceRequest *self;

  g_return_val_if_fail (ATP_IS_CLIENT (client), NULL);
  g_return_val_if_fail (collection != NULL && collection[0] == '/', NULL);
  g_return_val_if_fail (body != NULL, NULL);

  self = g_object_new (TRIAGE_TYPE_SERVICE_REQUEST, NULL);
  self->client = g_object_ref (client);
  self->collection = g_strdup (collection);
  self->notification_id = g_strdup (id);
  self->body = g_strdup (body);
  self->retry_for_us = MAX (retry_for_us, 0);
  return self;
}

const char *
triage_service_request_get_notification_id (TriageServiceRequest *self)
{
  g_return_val_if_fail (TRIAGE_IS_SERVICE_REQUEST (self), NULL);

  return self->notification_id;
}

AtpClient *
triage_service_request_get_client (TriageServiceRequest *self)
{
  g_return_val_if_fail (TRIAGE_IS_SERVICE_REQUEST (self), NULL);

  return self->client;
}

/*
 * A failure that may pass by itself, so worth another try within the retry
 * window. A 404 without ATP's error object (ATP_ERROR_NOT_FOUND: a proxy's
 * page, a route not yet up behind a load balancer, a wrong base path) says
 * the server was not reached as it should be, and nothing of the request
 * (atp_error_is_not_found ()): as for a 502, the operator mends it. Refused
 * for good, a withdrawal misrouted for a moment left the question in the
 * person's inbox, and a wait ended as if the request were gone.
 */
gboolean
triage_service_error_is_transient (const GError *error)
{
  return triage_service_error_is_unreachable (error) ||
         g_error_matches (error, ATP_ERROR, ATP_ERROR_NOT_FOUND) ||
         g_error_matches (error, ATP_ERROR, ATP_ERROR_SERVICE_UNAVAILABLE) ||
         g_error_matches (error, ATP_ERROR, ATP_ERROR_STORAGE_UNAVAILABLE) ||
         g_error_matches (error, ATP_ERROR, ATP_ERROR_INTERNAL_ERROR) ||
         g_error_matches (error, ATP_ERROR, ATP_ERROR_RATE_LIMIT_EXCEEDED);
}

gboolean
triage_service_error_is_unreachable (const GError *error)
{
  return g_error_matches (error, ATP_ERROR, ATP_ERROR_CONNECTION_FAILED) ||
         g_error_matches (error, ATP_ERROR, ATP_ERROR_CONNECTION_LOST);
}

gboolean
triage_service_request_left_pending (TriageServiceRequest *self,
                                     const GError         *error)
{
  g_return_val_if_fail (TRIAGE_IS_SERVICE_REQUEST (self), FALSE);

  return (self->posted || self->maybe_posted) && error != NULL &&
         triage_service_error_is_transient (error);
}

gboolean
triage_service_request_may_exist (TriageServiceRequest *self)
{
  g_return_val_if_fail (TRIAGE_IS_SERVICE_REQUEST (self), FALSE);

  return !self->sending || self->posting || self->reached;
}

/* A wait before the next try: its timer and the cancellation of its task,
 * whichever comes first; the wait holds the task's reference. */
typedef struct
{
  GTask                  *task;
  TriageServiceRetryFunc  again;
  GSource                *timer;
  GSource                *cancelled;
} RetryWait;

/* Ends @wait (both its sources); the task's reference passes to the caller. */
static GTask *
retry_wait_end (RetryWait *wait)
{
  GTask *task = wait->task;

  g_source_destroy (wait->timer);
  g_source_unref (wait->timer);
  g_source_destroy (wait->cancelled);
  g_source_unref (wait->cancelled);
  g_free (wait);
  return task;
}

static gboolean
retry_due_cb (gpointer data)
{
  RetryWait *wait = data;
  TriageServiceRetryFunc again = wait->again;

  again (retry_wait_end (wait));
  return G_SOURCE_REMOVE;
}

static gboolean
retry_cancelled_cb (GCancellable *cancellable,
                    gpointer      data)
{
  g_autoptr(GTask) task = retry_wait_end (data);

  g_task_return_error_if_cancelled (task);
  return G_SOURCE_REMOVE;
}

/*
 * Calls @again with @task after @delay_ms; cancelling @task's cancellable
 * meanwhile ends the wait at once, @task returning %G_IO_ERROR_CANCELLED
 * (a withdrawal once slept its whole delay before it noticed). @task's
 * reference passes to the wait.
 */
void
triage_service_retry_later (GTask                  *task,
                            guint                   delay_ms,
                            TriageServiceRetryFunc  again)
{
  RetryWait *wait = g_new0 (RetryWait, 1);
  GMainContext *context = g_main_context_get_thread_default ();

  wait->task = task;
  wait->again = again;
  wait->timer = g_timeout_source_new (delay_ms);
  g_source_set_callback (wait->timer, retry_due_cb, wait, NULL);
  g_source_attach (wait->timer, context);
  wait->cancelled = g_cancellable_source_new (g_task_get_cancellable (task));
  g_source_set_callback (wait->cancelled, G_SOURCE_FUNC (retry_cancelled_cb), wait, NULL);
  g_source_attach (wait->cancelled, context);
}

/* A failure of the current try: try again later, or end the operation (@task is owned). */
static void
op_failed (GTask  *task,
           GError *error)
{
  TriageServiceRequest *self = g_task_get_source_object (task);
  Op *op = g_task_get_task_data (task);
  gint64 now = g_get_monotonic_time ();
  guint64 cap = BACKOFF_INITIAL_MS;
  guint delay;
  /* A try that hung until its timeout failed as it began (a long-poll once
   * its own wait was over): a server that takes connections and never
   * answers used the retry window up in full after the first try's 30 s,
   * then again, and "gave up after retrying for 5 s" at 61 s. */
  gint64 failed_at = MIN (now, op->started + (gint64) op->wait_seconds * G_USEC_PER_SEC);
  /* A try that hung until its timeout (GLib's whole seconds fire up to a quarter of one
   * early) is not begun again when another such could not end inside the window: it
   * was, and the request gave up a whole timeout past its window; triage-mcp's calls,
   * whose window is as long as the timeout (30 s), at 60 s whenever the timer fired a
   * little early, past the MCP SDKs' own 60 s. */
  gint64 timeout_us = (gint64) atp_client_get_timeout (self->client) * G_USEC_PER_SEC;
  gboolean hung = now - op->started >=
                  timeout_us + (gint64) op->wait_seconds * G_USEC_PER_SEC - G_USEC_PER_SEC / 2;

  /* The server may have stored it: retried, the POST finds it (the same
   * body is answered as the first would have been); given up, it is withdrawn. */
  if (op->step == STEP_SEND && g_error_matches (error, ATP_ERROR, ATP_ERROR_CONNECTION_LOST))
    self->maybe_posted = TRUE;
  /* A connection never opened (or the POST not sent whole) told the server
   * nothing: a withdrawal then has nothing to take back, where it once posted
   * a request nobody had asked, to withdraw it. Cut off by a cancel, the
   * POST's fate is unknown: it stays on its way. */
  if (op->step == STEP_SEND && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      self->posting = FALSE;
      if (!g_error_matches (error, ATP_ERROR, ATP_ERROR_CONNECTION_FAILED))
        self->reached = TRUE;
    }

  if (!triage_service_error_is_transient (error))
    {
      g_task_return_error (task, error);
      g_object_unref (task);
      return;
    }

  if (self->failing_since == 0)
    {
      self->failing_since = failed_at;
      if (self->retry_for_us > 0)
        g_signal_emit (self, signals[RETRYING], 0, error, self->retry_for_us);
    }

  if (now - self->failing_since >= self->retry_for_us ||
      (hung && self->failing_since + self->retry_for_us - now < timeout_us))
    {
      /* A try that hung met a server that took the connection: running, if hung,
       * where "is the local server running?" sent the person to start one. */
      gboolean local_down = atp_client_is_local (self->client) && !hung &&
                            g_error_matches (error, ATP_ERROR, ATP_ERROR_CONNECTION_FAILED);

      /* Tried once when there is no window (the hook's default): nothing was
       * given up after a time ("gave up after trying for 0 s"). */
      g_autofree char *tried = self->retry_for_us > 0
                               ? g_strdup_printf (" (gave up after trying for %" G_GINT64_FORMAT " s)",
                                                  (now - self->failing_since) / G_USEC_PER_SEC)
                               : g_strdup ("");

      g_task_return_new_error (task, error->domain, error->code, "%s%s%s", error->message, tried,
                               local_down
                                 ? "; is the local server running? The Triage app starts it, or "
                                   "run triage-server --local"
                                 : "");
      g_error_free (error);
      g_object_unref (task);
      return;
    }

  for (guint i = 0; i < self->attempt && cap < BACKOFF_MAX_MS; i++)
    cap *= 2;
  cap = MIN (cap, BACKOFF_MAX_MS);
  self->attempt++;
  delay = (guint) g_random_double_range (0, (double) cap + 1);

  /* Never wait past the end of the retry window. */
  delay = (guint) MIN ((gint64) delay,
                       (self->failing_since + self->retry_for_us - now) / 1000 + 1);

  g_debug ("%s; trying again in %u ms", error->message, delay);
  g_error_free (error);

  triage_service_retry_later (task, delay, op_try);
}

static void
op_succeeded (TriageServiceRequest *self)
{
  self->failing_since = 0;
  self->attempt = 0;
}

/* Whether a try brought @answer; if not, op_failed() takes @error over. */
static gboolean
op_answered (GTask    *task,
             gpointer  answer,
             GError   *error)
{
  if (answer == NULL)
    {
      op_failed (task, error);
      return FALSE;
    }

  op_succeeded (g_task_get_source_object (task));
  return TRUE;
}

/*
 * A POST's try ended (@error: how, or NULL). Cut off by a cancel before the
 * whole request went out (its connection still opening, or queued), it never
 * reached the server whole: there is nothing to take back, where the
 * withdrawal once posted it to withdraw it, a question never asked. Then the
 * withdrawals that waited for the try to end go on.
 */
static void
send_try_ended (TriageServiceRequest *self,
                GAsyncResult         *result,
                const GError         *error)
{
  self->send_trying = FALSE;
  g_clear_object (&self->send_cancellable);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) &&
      !atp_client_result_went_out (result))
    self->posting = FALSE;
  triage_service_request_withdrawals_resume (self);
}

static void
post_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  GTask *task = user_data;
  TriageServiceRequest *self = g_task_get_source_object (task);
  AtpPostResult *post;
  GError *error = NULL;

  post = atp_client_post_notification_finish (ATP_CLIENT (object), result, &error);
  send_try_ended (self, result, error);
  if (!op_answered (task, post, error))
    return;

  self->posting = FALSE;
  self->reached = self->posted = TRUE;
  g_task_return_pointer (task, post, (GDestroyNotify) atp_post_result_unref);
  g_object_unref (task);
}

static void
wait_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  GTask *task = user_data;
  TriageServiceRequest *self = g_task_get_source_object (task);
  AtpNotification *notification;
  GError *error = NULL;

  notification = atp_client_wait_notification_finish (ATP_CLIENT (object), result, &error);
  if (!op_answered (task, notification, error))
    return;


  switch (notification->status)
    {
    case ATP_STATUS_RESPONDED:
      if (notification->response == NULL)
        {
          g_task_return_new_error (task, ATP_ERROR, ATP_ERROR_PROTOCOL,
                                   "%s says the request was answered but sent no answer",
                                   atp_client_get_display_name (self->client));
          atp_notification_unref (notification);
          g_object_unref (task);
          return;
        }
      G_GNUC_FALLTHROUGH;
    case ATP_STATUS_EXPIRED:
    case ATP_STATUS_INVALIDATED:
      g_task_return_pointer (task, notification, (GDestroyNotify) atp_notification_unref);
      g_object_unref (task);
      return;

    case ATP_STATUS_CREATED:
    case ATP_STATUS_DELIVERED:
    case ATP_STATUS_ACKNOWLEDGED:
    default:
      atp_notification_unref (notification);
      op_try (task);   /* still pending: wait again */
      return;
    }
}

static void
post_json_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  GTask *task = user_data;
  TriageServiceRequest *self = g_task_get_source_object (task);
  JsonNode *answer;
  GError *error = NULL;

  answer = atp_client_call_finish (ATP_CLIENT (object), result, &error);
  send_try_ended (self, result, error);
  if (!op_answered (task, answer, error))
    return;

  /* The server names the request it made (an AITP decision's id). */
  if (self->notification_id == NULL)
    {
      const char *id = json_object_get_string_member_with_default (json_node_get_object (answer),
                                                                   "id", NULL);

      if (id == NULL || !atp_is_uuid_v4 (id))
        {
          g_task_return_new_error (task, ATP_ERROR, ATP_ERROR_PROTOCOL,
                                   "%s accepted the request without naming it",
                                   atp_client_get_display_name (self->client));
          json_node_unref (answer);
          g_object_unref (task);
          return;
        }
      self->notification_id = g_ascii_strdown (id, -1);
    }
  self->posting = FALSE;
  self->reached = self->posted = TRUE;
  g_task_return_pointer (task, answer, (GDestroyNotify) json_node_unref);
  g_object_unref (task);
}

/* The statuses of a request still waiting, in ATP's words and in the other protocols'. */
static gboolean
status_is_pending (const char *status)
{
  static const char * const pending[] = { "pending", "created", "delivered", "acknowledged", NULL };

  return status == NULL || g_strv_contains (pending, status);
}

static void
wait_json_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  GTask *task = user_data;
  TriageServiceRequest *self = g_task_get_source_object (task);
  JsonNode *answer;
  GError *error = NULL;
  const char *status;

  answer = atp_client_call_finish (ATP_CLIENT (object), result, &error);
  if (!op_answered (task, answer, error))
    return;

  status = json_object_get_string_member_with_default (json_node_get_object (answer), "status", NULL);
  if (status == NULL)
    {
      g_task_return_new_error (task, ATP_ERROR, ATP_ERROR_PROTOCOL,
                               "%s answered without the request's status",
                               atp_client_get_display_name (self->client));
      json_node_unref (answer);
      g_object_unref (task);
      return;
    }
  if (status_is_pending (status))
    {
      json_node_unref (answer);
      op_try (task);   /* still pending: wait again */
      return;
    }

  g_task_return_pointer (task, answer, (GDestroyNotify) json_node_unref);
  g_object_unref (task);
}

static void
send_try_begins (TriageServiceRequest *self,
                 GCancellable         *cancellable)
{
  self->posting = self->send_trying = TRUE;
  g_set_object (&self->send_cancellable, cancellable);
}

/* One try of the operation; @task's reference passes to the callback. */
static void
op_try (GTask *task)
{
  TriageServiceRequest *self = g_task_get_source_object (task);
  Op *op = g_task_get_task_data (task);
  GCancellable *cancellable = g_task_get_cancellable (task);

  if (g_task_return_error_if_cancelled (task))
    {
      g_object_unref (task);
      return;
    }

  op->started = g_get_monotonic_time ();
  if (self->collection != NULL)
    {
      g_autofree char *path = NULL;

      if (op->step == STEP_SEND)
        {
          send_try_begins (self, cancellable);
          atp_client_call_async (self->client, "POST", self->collection, self->body, TRUE, 0,
                                 cancellable, post_json_cb, task);
          return;
        }
      path = g_strdup_printf ("%s/%s?wait=%u", self->collection, self->notification_id,
                              op->wait_seconds);
      atp_client_call_async (self->client, "GET", path, NULL, TRUE, op->wait_seconds,
                             cancellable, wait_json_cb, task);
    }
  else if (op->step == STEP_SEND)
    {
      send_try_begins (self, cancellable);
      atp_client_post_notification_data_async (self->client, self->body, -1, cancellable,
                                               post_cb, task);
    }
  else
    atp_client_wait_notification_async (self->client, self->notification_id, op->wait_seconds,
                                        cancellable, wait_cb, task);
}

static void
op_start (TriageServiceRequest *self,
          Step                  step,
          guint                 wait_seconds,
          GCancellable         *cancellable,
          GAsyncReadyCallback   callback,
          gpointer              user_data,
          gpointer              source_tag)
{
  GTask *task = g_task_new (self, cancellable, callback, user_data);
  Op *op = g_new0 (Op, 1);

  if (step == STEP_SEND)
    self->sending = TRUE;
  op->step = step;
  op->wait_seconds = MIN (wait_seconds, ATP_CLIENT_MAX_WAIT_SECONDS);
  g_task_set_source_tag (task, source_tag);
  g_task_set_task_data (task, op, g_free);

  op_try (task);
}

/* What an operation's _finish returns, for a request of the kind it is for:
 * one of another protocol (@json: sent and answered as JSON) or an ATP one. */
static gpointer
op_finish (TriageServiceRequest  *self,
           GAsyncResult          *result,
           gboolean               json,
           GError               **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail ((self->collection != NULL) == json, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

void
triage_service_request_send_async (TriageServiceRequest *self,
                                   GCancellable         *cancellable,
                                   GAsyncReadyCallback   callback,
                                   gpointer              user_data)
{
  g_return_if_fail (TRIAGE_IS_SERVICE_REQUEST (self));

  op_start (self, STEP_SEND, 0, cancellable, callback, user_data,
            triage_service_request_send_async);
}

AtpPostResult *
triage_service_request_send_finish (TriageServiceRequest  *self,
                                    GAsyncResult          *result,
                                    GError               **error)
{
  return op_finish (self, result, FALSE, error);
}

JsonNode *
triage_service_request_send_json_finish (TriageServiceRequest  *self,
                                         GAsyncResult          *result,
                                         GError               **error)
{
  return op_finish (self, result, TRUE, error);
}

void
triage_service_request_wait_async (TriageServiceRequest *self,
                                   guint                 wait_seconds,
                                   GCancellable         *cancellable,
                                   GAsyncReadyCallback   callback,
                                   gpointer              user_data)
{
  g_return_if_fail (TRIAGE_IS_SERVICE_REQUEST (self));

  op_start (self, STEP_WAIT, wait_seconds, cancellable, callback, user_data,
            triage_service_request_wait_async);
}

AtpNotification *
triage_service_request_wait_finish (TriageServiceRequest  *self,
                                    GAsyncResult          *result,
                                    GError               **error)
{
  return op_finish (self, result, FALSE, error);
}

JsonNode *
triage_service_request_wait_json_finish (TriageServiceRequest  *self,
                                         GAsyncResult          *result,
                                         GError               **error)
{
  return op_finish (self, result, TRUE, error);
}
