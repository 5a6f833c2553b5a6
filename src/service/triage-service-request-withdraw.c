/* triage-service-request-withdraw.c — a request taken back when nobody waits for its answer
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-service"

#include "triage-service-request-private.h"

#include "atp.h"

#define WITHDRAW_TIMEOUT_S 5
#define RETRY_INITIAL_MS   100
#define RETRY_MAX_MS       1000

/* A withdrawal under way: the reason, another protocol's PATCH body, and its bound. */
typedef struct
{
  char    *reason;
  char    *patch;     /* another protocol's */
  gint64   ends;      /* monotonic µs: no try starts after it, none outlasts it */
  guint    delay_ms;  /* before the next try */
} Withdrawal;

static void withdraw_try (GTask *task);

static void
withdrawal_free (Withdrawal *withdrawal)
{
  g_free (withdrawal->reason);
  g_free (withdrawal->patch);
  g_free (withdrawal);
}

/*
 * A try that failed for a reason that passes (a server restarting or draining
 * answers 503, or is not there for a moment): tried again, sooner than a
 * request's retries, while the bound allows. A server that is only being
 * restarted then still hears that nobody waits for the request, which would
 * otherwise wait for its deadline, or for ever without one. TRUE when the
 * next try is set: @task's reference passes to it.
 */
static gboolean
retry_later (GTask        *task,
             const GError *error)
{
  Withdrawal *withdrawal = g_task_get_task_data (task);
  GCancellable *cancellable = g_task_get_cancellable (task);

  if (!triage_service_error_is_transient (error) || g_cancellable_is_cancelled (cancellable) ||
      g_get_monotonic_time () + (gint64) withdrawal->delay_ms * 1000 >= withdrawal->ends)
    return FALSE;

  g_debug ("could not withdraw the request yet: %s; trying again in %u ms", error->message,
           withdrawal->delay_ms);
  triage_service_retry_later (task, withdrawal->delay_ms, withdraw_try);
  withdrawal->delay_ms = MIN (withdrawal->delay_ms * 2, RETRY_MAX_MS);
  return TRUE;
}

static void
withdraw_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  GTask *task = user_data;
  TriageServiceRequest *self = g_task_get_source_object (task);
  GError *error = NULL;
  gboolean withdrawn;

  if (self->collection != NULL)
    {
      g_autoptr(JsonNode) answer = atp_client_call_finish (ATP_CLIENT (object), result, &error);

      withdrawn = answer != NULL;
    }
  else
    withdrawn = atp_client_invalidate_finish (ATP_CLIENT (object), result, &error);

  if (withdrawn)
    g_task_return_boolean (task, TRUE);
  else if (retry_later (task, error))
    {
      g_error_free (error);
      return;
    }
  else
    g_task_return_error (task, error);
  g_object_unref (task);
}

/*
 * Nobody waits long for a withdrawal. The client reads its timeout as a
 * request starts, so the short one is set around the start alone: it bounds
 * only the withdrawal's own request, however many run at once on a client
 * others share (triage-mcp's calls): what is left of the withdrawal's bound,
 * a second at least. Returns the timeout to set back.
 */
static guint
short_timeout_begin (AtpClient  *client,
                     Withdrawal *withdrawal)
{
  guint timeout = atp_client_get_timeout (client);
  gint64 left = withdrawal->ends - g_get_monotonic_time ();

  atp_client_set_timeout (client, (guint) CLAMP ((left + G_USEC_PER_SEC - 1) / G_USEC_PER_SEC,
                                                 1, WITHDRAW_TIMEOUT_S));
  return timeout;
}

/* The request known by its id: withdrawn. */
static void
withdraw_known (GTask *task)
{
  TriageServiceRequest *self = g_task_get_source_object (task);
  Withdrawal *withdrawal = g_task_get_task_data (task);
  guint timeout = short_timeout_begin (self->client, withdrawal);
  g_autofree char *path = NULL;

  if (self->collection == NULL)
    atp_client_invalidate_async (self->client, self->notification_id, withdrawal->reason,
                                 g_task_get_cancellable (task), withdraw_cb, task);
  else
    {
      path = g_strdup_printf ("%s/%s", self->collection, self->notification_id);
      atp_client_call_async (self->client, "PATCH", path, withdrawal->patch, TRUE, 0,
                             g_task_get_cancellable (task), withdraw_cb, task);
    }
  atp_client_set_timeout (self->client, timeout);
}

/* The POST again (a retry, the same body): the request now exists, and its
 * answer names it where the server gives the id. Failed, the POST changed
 * nothing; the withdrawal then says whether the first one made it. */
static void
withdraw_reposted_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  GTask *task = user_data;
  TriageServiceRequest *self = g_task_get_source_object (task);
  g_autoptr(JsonNode) answer = NULL;
  g_autoptr(AtpPostResult) post = NULL;
  GError *error = NULL;
  const char *id;

  if (self->collection == NULL)
    post = atp_client_post_notification_finish (ATP_CLIENT (object), result, &error);
  else
    answer = atp_client_call_finish (ATP_CLIENT (object), result, &error);
  if (answer != NULL && self->notification_id == NULL)
    {
      id = json_object_get_string_member_with_default (json_node_get_object (answer), "id", NULL);
      if (id != NULL && atp_is_uuid_v4 (id))
        self->notification_id = g_ascii_strdown (id, -1);
    }
  if (post != NULL || answer != NULL)
    self->posted = TRUE;
  /* Not there for a moment: the POST again, later (it may still be on its way). */
  if (error != NULL && retry_later (task, error))
    {
      g_error_free (error);
      return;
    }
  /* Past the bound, the PATCH would fail alike. */
  if (self->notification_id == NULL ||
      (error != NULL && triage_service_error_is_transient (error)))
    {
      if (error == NULL)
        error = g_error_new (ATP_ERROR, ATP_ERROR_PROTOCOL, "%s accepted the request without "
                             "naming it", atp_client_get_display_name (self->client));
      g_task_return_error (task, error);
      g_object_unref (task);
      return;
    }
  g_clear_error (&error);
  withdraw_known (task);
}

/* One try: the POST first where it may not have arrived yet, else the PATCH. */
static void
withdraw_try (GTask *task)
{
  TriageServiceRequest *self = g_task_get_source_object (task);
  Withdrawal *withdrawal = g_task_get_task_data (task);
  guint timeout;

  /* A POST's try cut off by a cancel has not ended yet: whether it went out
   * whole decides whether there is anything to take back. It ends at once. */
  if (self->send_trying && self->send_cancellable != NULL &&
      g_cancellable_is_cancelled (self->send_cancellable))
    {
      if (self->withdrawals_waiting == NULL)
        self->withdrawals_waiting = g_ptr_array_new ();
      g_ptr_array_add (self->withdrawals_waiting, task);
      return;
    }

  /* Sent, but no POST reached the server (the connection never opened: the
   * server down, its socket missing): there is nothing to take back. Posting
   * it here made a request nobody had asked for, to withdraw it at once, or
   * left one owed to the next run while the server stayed away. */
  if (!triage_service_request_may_exist (self))
    {
      g_task_return_new_error (task, ATP_ERROR, ATP_ERROR_NOTIFICATION_NOT_FOUND,
                               "The request never reached %s; nothing to withdraw",
                               atp_client_get_display_name (self->client));
      g_object_unref (task);
      return;
    }

  /* Interrupted before a POST was answered: the server may have made the
   * request, or may make it yet (the POST still on its way, behind the
   * withdrawal: a 404 would leave it pending with nobody waiting). Posting
   * the same body again (idempotent) makes sure it exists, and names it
   * where the server gives the id; then it is withdrawn. */
  if (self->notification_id == NULL || (self->sending && !self->posted))
    {
      timeout = short_timeout_begin (self->client, withdrawal);
      if (self->collection == NULL)
        atp_client_post_notification_data_async (self->client, self->body, -1,
                                                 g_task_get_cancellable (task),
                                                 withdraw_reposted_cb, task);
      else
        atp_client_call_async (self->client, "POST", self->collection, self->body, TRUE, 0,
                               g_task_get_cancellable (task), withdraw_reposted_cb, task);
      atp_client_set_timeout (self->client, timeout);
      return;
    }
  withdraw_known (task);
}

void
triage_service_request_withdrawals_resume (TriageServiceRequest *self)
{
  g_autoptr(GPtrArray) waiting = g_steal_pointer (&self->withdrawals_waiting);

  for (guint i = 0; waiting != NULL && i < waiting->len; i++)
    withdraw_try (g_ptr_array_index (waiting, i));
}

void
triage_service_request_withdraw_async (TriageServiceRequest *self,
                                       const char           *reason,
                                       GCancellable         *cancellable,
                                       GAsyncReadyCallback   callback,
                                       gpointer              user_data)
{
  Withdrawal *withdrawal = g_new0 (Withdrawal, 1);
  GTask *task;

  g_return_if_fail (TRIAGE_IS_SERVICE_REQUEST (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, triage_service_request_withdraw_async);
  withdrawal->reason = g_strdup (reason);
  withdrawal->ends = g_get_monotonic_time () + WITHDRAW_TIMEOUT_S * G_USEC_PER_SEC;
  withdrawal->delay_ms = RETRY_INITIAL_MS;
  g_task_set_task_data (task, withdrawal, (GDestroyNotify) withdrawal_free);

  if (self->collection != NULL)
    {
      g_autoptr(JsonObject) object = json_object_new ();
      g_autoptr(JsonNode) node = NULL;

      json_object_set_string_member (object, "status", "invalidated");
      if (reason != NULL)
        json_object_set_string_member (object, "reason", reason);
      node = json_node_init_object (json_node_alloc (), object);
      withdrawal->patch = atp_json_to_string (node, NULL);
    }

  withdraw_try (task);
}

gboolean
triage_service_request_withdraw_finish (TriageServiceRequest  *self,
                                        GAsyncResult          *result,
                                        GError               **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
