/* atp-local.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "atp-local"

#include "atp-local.h"

#include <libsoup/soup.h>

#include "atp-client-private.h"
#include "atp-error.h"

#define DEFAULT_PROBE_TIMEOUT_MS 2000

/* A notification id nobody has: reading it has no side effect (a listing would mark items delivered). */
#define PROBE_PATH "/api/v1/client/notifications/00000000-0000-4000-8000-000000000000"

char *
atp_local_socket_path (void)
{
  return g_build_filename (g_get_user_runtime_dir (), "triage", "triage.sock", NULL);
}

typedef struct
{
  AtpClient    *client;
  SoupMessage  *message;
  GCancellable *cancellable;
  GCancellable *caller_cancellable;
  gulong        cancel_handler;
  guint         timeout_id;
  guint         timeout_ms;
  gboolean      timed_out;
} Probe;

static void
probe_free (Probe *probe)
{
  g_clear_handle_id (&probe->timeout_id, g_source_remove);
  if (probe->caller_cancellable != NULL)
    g_cancellable_disconnect (probe->caller_cancellable, probe->cancel_handler);
  g_clear_object (&probe->caller_cancellable);
  g_clear_object (&probe->cancellable);
  g_clear_object (&probe->message);
  g_clear_object (&probe->client);
  g_free (probe);
}

static void
on_caller_cancelled (GCancellable *caller,
                     GCancellable *ours)
{
  g_cancellable_cancel (ours);
}

static gboolean
on_probe_timeout (gpointer data)
{
  Probe *probe = data;

  probe->timeout_id = 0;
  probe->timed_out = TRUE;
  g_cancellable_cancel (probe->cancellable);

  return G_SOURCE_REMOVE;
}

static void
probe_send_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Probe *probe = g_task_get_task_data (task);
  g_autoptr(GInputStream) stream = NULL;
  g_autoptr(GError) error = NULL;
  const char *content_type;

  g_clear_handle_id (&probe->timeout_id, g_source_remove);

  stream = soup_session_send_finish (SOUP_SESSION (object), result, &error);
  if (stream == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) && probe->timed_out &&
          !g_cancellable_is_cancelled (probe->caller_cancellable))
        g_task_return_new_error (task, ATP_ERROR, ATP_ERROR_CONNECTION_FAILED,
                                 "%s did not answer within %u ms",
                                 atp_client_get_display_name (probe->client), probe->timeout_ms);
      else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_task_return_error (task, g_steal_pointer (&error));
      else
        g_task_return_error (task, atp_client_connection_error (probe->client, NULL, error, FALSE));
      return;
    }

  /* Any HTTP answer with a JSON body (a 404 error object, or the
   * notification should that id exist) is an ATP server. */
  content_type = soup_message_headers_get_content_type (soup_message_get_response_headers (probe->message),
                                                        NULL);
  if (content_type == NULL || !g_str_has_prefix (content_type, "application/json"))
    {
      g_task_return_new_error (task, ATP_ERROR, ATP_ERROR_PROTOCOL,
                               "Something answered at %s, but not an ATP server (HTTP %u, %s)",
                               atp_client_get_socket_path (probe->client),
                               soup_message_get_status (probe->message),
                               content_type ? content_type : "no content type");
      return;
    }

  g_task_return_boolean (task, TRUE);
}

void
atp_local_probe_async (const char          *socket_path,
                       guint                timeout_ms,
                       GCancellable        *cancellable,
                       GAsyncReadyCallback  callback,
                       gpointer             user_data)
{
  g_autofree char *default_path = NULL;
  g_autoptr(GTask) task = NULL;
  Probe *probe;

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, atp_local_probe_async);

  if (socket_path == NULL)
    socket_path = default_path = atp_local_socket_path ();

  probe = g_new0 (Probe, 1);
  probe->client = atp_client_new_for_socket (socket_path);
  probe->message = atp_client_new_message (probe->client, "GET", PROBE_PATH, FALSE);
  probe->cancellable = g_cancellable_new ();
  probe->timeout_ms = timeout_ms > 0 ? timeout_ms : DEFAULT_PROBE_TIMEOUT_MS;
  g_task_set_task_data (task, probe, (GDestroyNotify) probe_free);

  if (cancellable != NULL)
    {
      probe->caller_cancellable = g_object_ref (cancellable);
      probe->cancel_handler = g_cancellable_connect (cancellable, G_CALLBACK (on_caller_cancelled),
                                                     g_object_ref (probe->cancellable),
                                                     g_object_unref);
    }
  probe->timeout_id = g_timeout_add (probe->timeout_ms, on_probe_timeout, probe);

  soup_session_send_async (atp_client_get_session (probe->client), probe->message,
                           G_PRIORITY_DEFAULT, probe->cancellable, probe_send_cb,
                           g_steal_pointer (&task));
}

gboolean
atp_local_probe_finish (GAsyncResult  *result,
                        GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == atp_local_probe_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
