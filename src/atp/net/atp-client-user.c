/* atp-client-user.c — the client role: list, get and respond to notifications
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

G_DEFINE_BOXED_TYPE (AtpNotificationPage, atp_notification_page,
                     atp_notification_page_ref, atp_notification_page_unref)

static AtpNotificationPage *
notification_page_new (void)
{
  AtpNotificationPage *self = g_new0 (AtpNotificationPage, 1);

  g_atomic_ref_count_init (&self->ref_count);
  self->notifications = g_ptr_array_new_with_free_func ((GDestroyNotify) atp_notification_unref);
  self->total_count = -1;

  return self;
}

AtpNotificationPage *
atp_notification_page_ref (AtpNotificationPage *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
atp_notification_page_unref (AtpNotificationPage *self)
{
  g_return_if_fail (self != NULL);

  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;

  g_ptr_array_unref (self->notifications);
  g_free (self->next_cursor);
  g_free (self);
}

/* Parsers */

static gpointer
parse_page (AtpClient  *self,
            JsonNode   *root,
            gpointer    op_data,
            GError    **error)
{
  g_autoptr(AtpNotificationPage) page = notification_page_new ();
  JsonObject *object = json_node_get_object (root);
  JsonNode *list = atp_object_get (object, "notifications");
  JsonNode *pagination = atp_object_get (object, "pagination");
  JsonArray *array;

  if (list == NULL || !JSON_NODE_HOLDS_ARRAY (list))
    {
      g_set_error_literal (error, ATP_ERROR, ATP_ERROR_PROTOCOL,
                           "“notifications” is missing or not an array");
      return NULL;
    }

  array = json_node_get_array (list);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      g_autoptr(GError) item_error = NULL;
      AtpNotification *notification;

      notification = atp_notification_new_from_json (json_array_get_element (array, i),
                                                     ATP_PARSE_DEFAULT, &item_error);
      /* One broken item must not hide the others from the person. */
      if (notification == NULL)
        g_message ("Skipped item %u of a notification list from %s: %s",
                   i, atp_client_get_display_name (self), item_error->message);
      else
        g_ptr_array_add (page->notifications, notification);
    }

  if (pagination != NULL)
    {
      JsonObject *p;
      JsonNode *node;
      const char *cursor = NULL;

      if (!JSON_NODE_HOLDS_OBJECT (pagination))
        {
          g_set_error_literal (error, ATP_ERROR, ATP_ERROR_PROTOCOL, "“pagination” is not an object");
          return NULL;
        }

      p = json_node_get_object (pagination);
      if (!atp_client_read_optional_string (p, "next_cursor", &cursor, error))
        return NULL;
      page->next_cursor = g_strdup (cursor);

      node = atp_object_get (p, "has_more");
      if (node != NULL && json_node_get_value_type (node) == G_TYPE_BOOLEAN)
        page->has_more = json_node_get_boolean (node);
      else if (node != NULL)
        {
          g_set_error_literal (error, ATP_ERROR, ATP_ERROR_PROTOCOL,
                               "“pagination.has_more” is not a boolean");
          return NULL;
        }

      node = atp_object_get (p, "total_count");
      if (node != NULL && json_node_get_value_type (node) == G_TYPE_INT64)
        page->total_count = json_node_get_int (node);
    }

  return g_steal_pointer (&page);
}

typedef struct
{
  char     *notification_id;
  char     *action_id;
  JsonNode *response_data;
} RespondData;

static void
respond_data_free (RespondData *data)
{
  g_free (data->notification_id);
  g_free (data->action_id);
  g_clear_pointer (&data->response_data, json_node_unref);
  g_free (data);
}

static gpointer
parse_respond (AtpClient  *self,
               JsonNode   *root,
               gpointer    op_data,
               GError    **error)
{
  RespondData *data = op_data;
  JsonObject *object = json_node_get_object (root);
  const char *id = NULL;
  const char *action_id = NULL;
  const char *when = NULL;
  const char *responder_id = "";
  AtpResponderType responder_type = ATP_RESPONDER_HUMAN;
  g_autoptr(GDateTime) responded_at = NULL;
  JsonNode *responder;

  if (!atp_client_read_optional_string (object, "notification_id", &id, error) ||
      !atp_client_read_optional_string (object, "action_id", &action_id, error) ||
      !atp_client_read_optional_string (object, "responded_at", &when, error))
    return NULL;

  if (id != NULL && g_ascii_strcasecmp (id, data->notification_id) != 0)
    {
      g_set_error (error, ATP_ERROR, ATP_ERROR_PROTOCOL,
                   "the answer names notification %s, not %s", id, data->notification_id);
      return NULL;
    }

  if (when != NULL && (responded_at = atp_parse_timestamp (when)) == NULL)
    {
      g_set_error (error, ATP_ERROR, ATP_ERROR_PROTOCOL,
                   "“responded_at” is not an RFC 3339 time: %s", when);
      return NULL;
    }
  if (responded_at == NULL)
    responded_at = g_date_time_new_now_utc ();

  responder = atp_object_get (object, "responder");
  if (responder != NULL && JSON_NODE_HOLDS_OBJECT (responder))
    {
      JsonObject *r = json_node_get_object (responder);
      const char *rid = NULL;
      const char *rtype = NULL;

      if (atp_client_read_optional_string (r, "id", &rid, NULL) && rid != NULL)
        responder_id = rid;
      if (atp_client_read_optional_string (r, "type", &rtype, NULL) && rtype != NULL)
        atp_responder_type_from_string (rtype, &responder_type);
    }

  return atp_response_new (data->notification_id,
                           action_id != NULL ? action_id : data->action_id,
                           data->response_data, responded_at, responder_id, responder_type);
}

/* Client role */

SoupMessage *
atp_client_new_list_message (AtpClient          *self,
                             const AtpListQuery *query)
{
  g_autoptr(GString) path = NULL;
  g_autofree char *protocols = NULL;
  char sep = '?';

  path = g_string_new ("/api/v1/client/notifications");

#define ADD_PARAM(name, value)                                          \
  G_STMT_START {                                                        \
    g_string_append_printf (path, "%c%s=", sep, name);                  \
    g_string_append_uri_escaped (path, value, NULL, FALSE);             \
    sep = '&';                                                          \
  } G_STMT_END

  protocols = atp_client_dup_protocols_param (self);
  if (protocols != NULL)
    ADD_PARAM ("protocols", protocols);

  if (query != NULL)
    {
      if (query->status != NULL)
        ADD_PARAM ("status", query->status);
      if (query->service_id != NULL)
        ADD_PARAM ("service_id", query->service_id);
      if (query->project != NULL)
        ADD_PARAM ("project", query->project);
      if (query->cursor != NULL)
        ADD_PARAM ("cursor", query->cursor);
      if (query->limit > 0)
        {
          char limit[16];

          g_snprintf (limit, sizeof limit, "%u", MIN (query->limit, ATP_CLIENT_PAGE_LIMIT));
          ADD_PARAM ("limit", limit);
        }
      ADD_PARAM ("sort", query->oldest_first ? "oldest" : "newest");
    }

#undef ADD_PARAM

  return atp_client_new_message (self, "GET", path->str, FALSE);
}

void
atp_client_start_list (AtpClient           *self,
                       SoupMessage         *message,
                       GCancellable        *cancellable,
                       GAsyncReadyCallback  callback,
                       gpointer             user_data)
{
  /* A page is parsed off the main thread (parse_page () only reads @self). */
  atp_client_start_request_in_thread (self, message, ATP_CLIENT_MAX_PAGE_SIZE, parse_page,
                                      (GDestroyNotify) atp_notification_page_unref,
                                      atp_client_list_notifications_async, cancellable, callback,
                                      user_data);
}

void
atp_client_list_notifications_async (AtpClient           *self,
                                     const AtpListQuery  *query,
                                     GCancellable        *cancellable,
                                     GAsyncReadyCallback  callback,
                                     gpointer             user_data)
{
  g_return_if_fail (ATP_IS_CLIENT (self));

  atp_client_start_list (self, atp_client_new_list_message (self, query), cancellable, callback,
                         user_data);
}

AtpNotificationPage *
atp_client_list_notifications_finish (AtpClient     *self,
                                      GAsyncResult  *result,
                                      GError       **error)
{
  return atp_client_request_finish (self, result, atp_client_list_notifications_async, error);
}

void
atp_client_get_notification_async (AtpClient           *self,
                                   const char          *notification_id,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  g_return_if_fail (ATP_IS_CLIENT (self));

  atp_client_start_notification_get (self, "/api/v1/client/notifications/", FALSE,
                                     notification_id, 0, atp_client_get_notification_async,
                                     cancellable, callback, user_data);
}

AtpNotification *
atp_client_get_notification_finish (AtpClient     *self,
                                    GAsyncResult  *result,
                                    GError       **error)
{
  return atp_client_request_finish (self, result, atp_client_get_notification_async, error);
}

void
atp_client_respond_async (AtpClient           *self,
                          const char          *notification_id,
                          const char          *action_id,
                          JsonNode            *response_data,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  g_autoptr(JsonObject) body = NULL;
  SoupMessage *message;
  RespondData *data;

  g_return_if_fail (ATP_IS_CLIENT (self));
  g_return_if_fail (action_id != NULL);

  if (!atp_client_id_is_sendable (notification_id, "notification_id", NULL))
    {
      atp_client_report_bad_id (self, notification_id, atp_client_respond_async,
                                callback, user_data);
      return;
    }

  data = g_new0 (RespondData, 1);
  data->notification_id = g_strdup (notification_id);
  data->action_id = g_strdup (action_id);
  data->response_data = response_data != NULL ? json_node_copy (response_data)
                                              : json_node_new (JSON_NODE_NULL);

  body = json_object_new ();
  json_object_set_string_member (body, "notification_id", notification_id);
  json_object_set_string_member (body, "action_id", action_id);
  json_object_set_member (body, "response_data", json_node_copy (data->response_data));
  message = atp_client_new_json_message (self, "POST", "/api/v1/client/respond", FALSE, body);

  atp_client_start_request (self, message, 0, ATP_CLIENT_MAX_ANSWER_SIZE, parse_respond,
                 data, (GDestroyNotify) respond_data_free, (GDestroyNotify) atp_response_unref,
                 atp_client_respond_async, cancellable, callback, user_data);
}

AtpResponse *
atp_client_respond_finish (AtpClient     *self,
                           GAsyncResult  *result,
                           GError       **error)
{
  return atp_client_request_finish (self, result, atp_client_respond_async, error);
}
