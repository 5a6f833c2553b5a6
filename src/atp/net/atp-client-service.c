/* atp-client-service.c — the service role: post, wait for and invalidate notifications
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "atp-client"

#include <libsoup/soup.h>

#include "atp-client-private.h"
#include "atp-error.h"
#include "atp-json.h"
#include "atp-private.h"

/* Boxed results */

G_DEFINE_BOXED_TYPE (AtpPostResult, atp_post_result,
                     atp_post_result_ref, atp_post_result_unref)

AtpPostResult *
atp_post_result_ref (AtpPostResult *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
atp_post_result_unref (AtpPostResult *self)
{
  g_return_if_fail (self != NULL);

  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;

  g_free (self->notification_id);
  g_clear_pointer (&self->estimated_delivery, g_date_time_unref);
  g_free (self);
}

/* Parsers */

static gpointer
parse_post (AtpClient  *self,
            JsonNode   *root,
            gpointer    op_data,
            GError    **error)
{
  JsonObject *object = json_node_get_object (root);
  g_autoptr(AtpPostResult) post = NULL;
  const char *id = NULL;
  const char *status = NULL;
  const char *estimate = NULL;

  if (!atp_client_read_optional_string (object, "notification_id", &id, error) ||
      !atp_client_read_optional_string (object, "status", &status, error) ||
      !atp_client_read_optional_string (object, "estimated_delivery", &estimate, error))
    return NULL;

  if (id == NULL || !atp_is_uuid_v4 (id))
    {
      g_set_error_literal (error, ATP_ERROR, ATP_ERROR_PROTOCOL,
                           "“notification_id” is missing or not a UUID v4");
      return NULL;
    }

  post = g_new0 (AtpPostResult, 1);
  g_atomic_ref_count_init (&post->ref_count);
  post->notification_id = g_strdup (id);
  post->status = ATP_STATUS_CREATED;
  if (status != NULL && !atp_status_from_string (status, &post->status))
    {
      g_set_error (error, ATP_ERROR, ATP_ERROR_PROTOCOL, "unknown status “%s”", status);
      return NULL;
    }
  if (estimate != NULL)
    post->estimated_delivery = atp_parse_timestamp (estimate);

  return g_steal_pointer (&post);
}

static gpointer
parse_any_object (AtpClient  *self,
                  JsonNode   *root,
                  gpointer    op_data,
                  GError    **error)
{
  /* Any non-NULL pointer; the result is a boolean. */
  return GINT_TO_POINTER (TRUE);
}

/* Requests */

SoupMessage *
atp_client_new_json_message (AtpClient   *self,
                             const char  *method,
                             const char  *path_and_query,
                             gboolean     service_call,
                             JsonObject  *body)
{
  g_autoptr(JsonNode) root = json_node_init_object (json_node_alloc (), body);
  SoupMessage *message = atp_client_new_message (self, method, path_and_query, service_call);
  gsize length;
  char *text = atp_json_to_string (root, &length);

  atp_client_set_json_body (message, text, length);

  return message;
}

void
atp_client_start_notification_get (AtpClient           *self,
                                   const char          *path_prefix,
                                   gboolean             service_call,
                                   const char          *notification_id,
                                   guint                wait_seconds,
                                   gpointer             source_tag,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  g_autofree char *path = NULL;

  if (!atp_client_id_is_sendable (notification_id, "notification_id", NULL))
    {
      atp_client_report_bad_id (self, notification_id, source_tag, callback, user_data);
      return;
    }

  if (wait_seconds > 0)
    path = g_strdup_printf ("%s%s?wait=%u", path_prefix, notification_id, wait_seconds);
  else
    path = g_strconcat (path_prefix, notification_id, NULL);

  atp_client_start_request (self, atp_client_new_message (self, "GET", path, service_call),
                            wait_seconds, ATP_CLIENT_MAX_ANSWER_SIZE,
                            atp_client_parse_notification, NULL, NULL,
                            (GDestroyNotify) atp_notification_unref,
                            source_tag, cancellable, callback, user_data);
}

/* Service role */

static void
post_notification (AtpClient           *self,
                   char                *text,
                   gsize                length,
                   GCancellable        *cancellable,
                   GAsyncReadyCallback  callback,
                   gpointer             user_data)
{
  SoupMessage *message = atp_client_new_message (self, "POST", "/api/v1/notifications", TRUE);

  atp_client_set_json_body (message, text, length);
  atp_client_start_request (self, message, 0, ATP_CLIENT_MAX_ANSWER_SIZE, parse_post, NULL, NULL,
                 (GDestroyNotify) atp_post_result_unref,
                 atp_client_post_notification_async, cancellable, callback, user_data);
}

void
atp_client_post_notification_async (AtpClient           *self,
                                    AtpNotification     *notification,
                                    GCancellable        *cancellable,
                                    GAsyncReadyCallback  callback,
                                    gpointer             user_data)
{
  char *text;
  gsize length;

  g_return_if_fail (ATP_IS_CLIENT (self));
  g_return_if_fail (notification != NULL);

  text = atp_notification_to_string (notification, &length);
  post_notification (self, text, length, cancellable, callback, user_data);
}

void
atp_client_post_notification_data_async (AtpClient           *self,
                                         const char          *data,
                                         gssize               length,
                                         GCancellable        *cancellable,
                                         GAsyncReadyCallback  callback,
                                         gpointer             user_data)
{
  g_return_if_fail (ATP_IS_CLIENT (self));
  g_return_if_fail (data != NULL);

  if (length < 0)
    length = strlen (data);

  post_notification (self, g_strndup (data, length), length, cancellable, callback, user_data);
}

AtpPostResult *
atp_client_post_notification_finish (AtpClient     *self,
                                     GAsyncResult  *result,
                                     GError       **error)
{
  return atp_client_request_finish (self, result, atp_client_post_notification_async, error);
}

void
atp_client_wait_notification_async (AtpClient           *self,
                                    const char          *notification_id,
                                    guint                wait_seconds,
                                    GCancellable        *cancellable,
                                    GAsyncReadyCallback  callback,
                                    gpointer             user_data)
{
  g_return_if_fail (ATP_IS_CLIENT (self));

  atp_client_start_notification_get (self, "/api/v1/notifications/", TRUE, notification_id,
                                     MIN (wait_seconds, ATP_CLIENT_MAX_WAIT_SECONDS),
                                     atp_client_wait_notification_async, cancellable, callback,
                                     user_data);
}

AtpNotification *
atp_client_wait_notification_finish (AtpClient     *self,
                                     GAsyncResult  *result,
                                     GError       **error)
{
  return atp_client_request_finish (self, result, atp_client_wait_notification_async, error);
}

void
atp_client_invalidate_async (AtpClient           *self,
                             const char          *notification_id,
                             const char          *reason,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_autofree char *path = NULL;
  g_autoptr(JsonObject) body = NULL;
  SoupMessage *message;

  g_return_if_fail (ATP_IS_CLIENT (self));

  if (!atp_client_id_is_sendable (notification_id, "notification_id", NULL))
    {
      atp_client_report_bad_id (self, notification_id, atp_client_invalidate_async,
                                callback, user_data);
      return;
    }

  body = json_object_new ();
  json_object_set_string_member (body, "status", "invalidated");
  if (reason != NULL)
    json_object_set_string_member (body, "reason", reason);

  path = g_strdup_printf ("/api/v1/notifications/%s", notification_id);
  message = atp_client_new_json_message (self, "PATCH", path, TRUE, body);

  atp_client_start_request (self, message, 0, ATP_CLIENT_MAX_ANSWER_SIZE, parse_any_object, NULL, NULL,
                 NULL, atp_client_invalidate_async, cancellable, callback, user_data);
}

gboolean
atp_client_invalidate_finish (AtpClient     *self,
                              GAsyncResult  *result,
                              GError       **error)
{
  return atp_client_request_finish (self, result, atp_client_invalidate_async, error) != NULL;
}
