/* triage-mcp-withdrawals.c — questions nobody waits for taken back, now, later, or next run
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-mcp"

#include "triage-mcp-server-private.h"

#include "atp.h"

/* A withdrawal the server could not take is tried again after this, doubling. */
#define OWED_FIRST_S 2
#define OWED_MAX_S   60
/* Closing, how long the withdrawals under way may hold the end: as long as one withdrawal's
 * own tries (triage_service_request_withdraw_async ()). MCP clients close standard input,
 * wait (2 s in the official SDKs), then send SIGTERM, which ends the wait at once. */
#define EXIT_GRACE_S 5

/* A withdrawal under way: what it says, whether it is a later try of one the server
 * could not take, and whether an earlier run left it (and said so). */
typedef struct
{
  TriageMcpServer      *server;    /* strong while under way; NULL while owed */
  TriageServiceRequest *request;   /* strong */
  char                 *reason;
  gboolean              again;
  gboolean              inherited;
} Withdrawal;

static void
withdrawal_free (Withdrawal *withdrawal)
{
  g_clear_object (&withdrawal->server);
  g_object_unref (withdrawal->request);
  g_free (withdrawal->reason);
  g_free (withdrawal);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Withdrawal, withdrawal_free)

static void withdraw (TriageMcpServer      *self,
                      TriageServiceRequest *request,
                      const char           *reason,
                      gboolean              again,
                      gboolean              inherited);

static void
withdraw_owed (TriageMcpServer *self)
{
  g_autoptr(GPtrArray) owed = g_steal_pointer (&self->owed);

  g_clear_handle_id (&self->owed_id, g_source_remove);
  for (guint i = 0; owed != NULL && i < owed->len; i++)
    {
      Withdrawal *withdrawal = g_ptr_array_index (owed, i);

      withdraw (self, withdrawal->request, withdrawal->reason, TRUE, withdrawal->inherited);
    }
}

static gboolean
owed_cb (gpointer data)
{
  TriageMcpServer *self = data;

  self->owed_id = 0;
  withdraw_owed (self);
  return G_SOURCE_REMOVE;
}

/*
 * The server could not take the withdrawal (gone, restarting, failing) within its
 * bound: the request would wait in the person's inbox for its deadline, or for
 * ever without one, though nobody waits for its answer. Tried again while the
 * session lasts (after 2 s, doubling to a minute), and once more at its end; the
 * owed file keeps it for the next run meanwhile.
 */
static void
owe (TriageMcpServer *self,
     Withdrawal      *withdrawal)
{
  g_clear_object (&withdrawal->server);   /* the session holds it */
  if (self->owed == NULL)
    self->owed = g_ptr_array_new_with_free_func ((GDestroyNotify) withdrawal_free);
  g_ptr_array_add (self->owed, withdrawal);
  if (self->owed_id == 0)
    {
      self->owed_delay_s = CLAMP (self->owed_delay_s * 2, OWED_FIRST_S, OWED_MAX_S);
      self->owed_id = g_timeout_add_seconds (self->owed_delay_s, owed_cb, self);
    }
}

static void
withdrawn_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(Withdrawal) withdrawal = user_data;
  g_autoptr(TriageMcpServer) self = g_object_ref (withdrawal->server);
  TriageServiceRequest *request = TRIAGE_SERVICE_REQUEST (object);
  const char *id = triage_service_request_get_notification_id (request);
  g_autoptr(GError) error = NULL;

  self->withdrawing--;
  if (triage_service_request_withdraw_finish (request, result, &error))
    {
      self->owed_delay_s = 0;
      triage_mcp_owed_file_remove (self->owed_file, id);
    }
  /* The person answered after the agent stopped waiting (while the server was away, or
   * through another server of a cluster): nothing is left to withdraw, and the answer
   * reaches no agent. Said once (the file lets it go), or it would pass unseen. */
  else if (g_error_matches (error, ATP_ERROR, ATP_ERROR_NOTIFICATION_ALREADY_RESPONDED))
    {
      g_message ("request %s was answered after the agent stopped waiting; the answer "
                 "reached no agent", id);
      self->owed_delay_s = 0;
      triage_mcp_owed_file_remove (self->owed_file, id);
    }
  /* Gone, or settled meanwhile (its deadline passed, withdrawn by another run): nothing
   * is left to withdraw. */
  else if (atp_error_is_not_found (error) ||
           g_error_matches (error, ATP_ERROR, ATP_ERROR_NOTIFICATION_EXPIRED) ||
           g_error_matches (error, ATP_ERROR, ATP_ERROR_NOTIFICATION_INVALIDATED))
    {
      self->owed_delay_s = 0;
      triage_mcp_owed_file_remove (self->owed_file, id);
    }
  else if (triage_service_error_is_transient (error) && !self->closing)
    {
      if (!withdrawal->again)
        g_message ("could not withdraw request %s yet: %s; trying again while the session "
                   "lasts", id, error->message);
      owe (self, g_steal_pointer (&withdrawal));
    }
  /* The session ended first (cancelled: the end waited long enough, or was cut short):
   * the file keeps it for the next run. An earlier run's was said by that run: with a
   * server away for days, every run would list them all again. */
  else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ||
           triage_service_error_is_transient (error))
    {
      if (!withdrawal->inherited)
        g_message ("could not withdraw request %s before exiting: %s; the next triage-mcp run "
                   "for this server withdraws it", id,
                   g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED)
                     ? self->withdrawals_cut : error->message);
    }
  else
    {
      /* Refused for good (a key revoked meanwhile): no later try does better. Said once
       * (the file lets it go), as what it is: no fault of triage-mcp's, so no warning
       * (which the tests' fatal-warnings made an abort). */
      g_message ("could not withdraw request %s: the server refused it (%s); it is not tried "
                 "again and waits in the person's inbox until answered or expired%s", id,
                 error->message,
                 g_error_matches (error, ATP_ERROR, ATP_ERROR_AUTH_INVALID_TOKEN)
                   ? ": check the service key (TRIAGE_API_KEY or the keyring)" : "");
      triage_mcp_owed_file_remove (self->owed_file, id);
    }

  triage_mcp_server_maybe_closed (self);
}

/* Withdraws @request in the background; the session's end waits for it, within its grace. */
static void
withdraw (TriageMcpServer      *self,
          TriageServiceRequest *request,
          const char           *reason,
          gboolean              again,
          gboolean              inherited)
{
  Withdrawal *withdrawal = g_new0 (Withdrawal, 1);
  AtpClient *client = triage_service_request_get_client (request);

  /* Kept in the file until the server takes it, so that neither the end of the session
   * nor a SIGKILL loses it (written only when it is not taken within a moment). */
  triage_mcp_owed_file_add (self->owed_file, triage_service_request_get_notification_id (request),
                            atp_client_get_socket_path (client) != NULL
                              ? atp_client_get_service_id (client) : NULL,
                            reason);
  withdrawal->server = g_object_ref (self);
  withdrawal->request = g_object_ref (request);
  withdrawal->reason = g_strdup (reason);
  withdrawal->again = again;
  withdrawal->inherited = inherited;
  self->withdrawing++;
  triage_service_request_withdraw_async (request, reason, self->withdrawals, withdrawn_cb,
                                         withdrawal);
}

void
triage_mcp_withdraw_request (TriageMcpServer      *self,
                             TriageServiceRequest *request,
                             const char           *reason)
{
  /* No POST of it reached the server: nothing to take back, nor to owe the next run. */
  if (!triage_service_request_may_exist (request))
    {
      g_debug ("request %s never reached the server; nothing to withdraw",
               triage_service_request_get_notification_id (request));
      return;
    }
  withdraw (self, request, reason, FALSE, FALSE);
}

void
triage_mcp_withdrawals_start (TriageMcpServer *self)
{
  g_autoptr(GPtrArray) saved = triage_mcp_owed_file_load (self->owed_file);

  for (guint i = 0; i < saved->len; i++)
    {
      TriageMcpOwedEntry *entry = g_ptr_array_index (saved, i);
      AtpClient *client = triage_mcp_server_client_for_service (self, entry->service, NULL);
      /* Known by its id, it is never posted again: the body is not sent. */
      g_autoptr(TriageServiceRequest) request = triage_service_request_new (client, entry->id,
                                                                            "{}", 0);

      withdraw (self, request, entry->reason, TRUE, TRUE);
    }
  if (saved->len > 0)
    g_debug ("withdrawing %u requests that an earlier run could not", saved->len);
}

static gboolean
grace_over_cb (gpointer data)
{
  TriageMcpServer *self = data;

  self->grace_id = 0;
  triage_mcp_withdrawals_stop (self, "the end waited " G_STRINGIFY (EXIT_GRACE_S) " s for it");
  return G_SOURCE_REMOVE;
}

void
triage_mcp_withdrawals_close (TriageMcpServer *self)
{
  withdraw_owed (self);
  if (self->withdrawing > 0 && self->grace_id == 0)
    self->grace_id = g_timeout_add_seconds (EXIT_GRACE_S, grace_over_cb, self);
}

void
triage_mcp_withdrawals_stop (TriageMcpServer *self,
                             const char      *why)
{
  g_clear_handle_id (&self->grace_id, g_source_remove);
  if (!g_cancellable_is_cancelled (self->withdrawals))
    self->withdrawals_cut = why;
  g_cancellable_cancel (self->withdrawals);
  triage_mcp_owed_file_flush (self->owed_file);
}
