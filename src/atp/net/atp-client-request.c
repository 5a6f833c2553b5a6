/* atp-client-request.c — one HTTP request of AtpClient, from message to parsed answer
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "atp-client"

#include <string.h>
#include <libsoup/soup.h>

#include "atp-client-private.h"
#include "atp-error.h"
#include "atp-json.h"
#include "atp-private.h"

/*
 * Every call builds a message, reads the answer into memory up to a cap,
 * then either parses the 2xx body with the operation's parser or turns the
 * non-2xx body into an ATP_ERROR. Our own timer bounds each request.
 */

#define READ_CHUNK (64 * 1024)

typedef struct
{
  AtpClient      *self;
  SoupMessage    *message;
  GCancellable   *cancellable;          /* ours: the caller's or the timer cancel it */
  GCancellable   *caller_cancellable;
  gulong          cancel_handler;
  guint           timeout_id;
  guint           timeout_s;
  gboolean        timed_out;
  gulong          wrote_body_handler;
  gulong          wrote_body_data_handler;
  goffset         body_written;
  gboolean        wrote_body;           /* the whole request went out */
  gsize           max_size;
  GByteArray     *body;
  GInputStream   *stream;
  AtpClientParseFunc parse;
  gpointer        op_data;
  GDestroyNotify  op_data_free;
  GDestroyNotify  result_free;
  gboolean        in_thread;            /* parse off the main thread */
  GBytes         *answer;               /* the 2xx body, for the parse's thread */
} Request;

static void
request_free (Request *request)
{
  g_clear_handle_id (&request->timeout_id, g_source_remove);
  if (request->caller_cancellable != NULL)
    g_cancellable_disconnect (request->caller_cancellable, request->cancel_handler);
  g_clear_object (&request->caller_cancellable);
  g_clear_object (&request->cancellable);
  g_clear_signal_handler (&request->wrote_body_handler, request->message);
  g_clear_signal_handler (&request->wrote_body_data_handler, request->message);
  g_clear_object (&request->message);
  g_clear_object (&request->stream);
  g_clear_pointer (&request->body, g_byte_array_unref);
  g_clear_pointer (&request->answer, g_bytes_unref);
  if (request->op_data_free != NULL)
    g_clear_pointer (&request->op_data, request->op_data_free);
  g_clear_object (&request->self);
  g_free (request);
}

static void
on_caller_cancelled (GCancellable *caller,
                     GCancellable *ours)
{
  g_cancellable_cancel (ours);
}

static gboolean
on_request_timeout (gpointer data)
{
  Request *request = data;

  request->timeout_id = 0;
  request->timed_out = TRUE;
  g_cancellable_cancel (request->cancellable);

  return G_SOURCE_REMOVE;
}

static void
on_wrote_body (SoupMessage *message,
               Request     *request)
{
  request->wrote_body = TRUE;
}

/* libsoup says "wrote-body" only once its splice of the body ends, some main
 * loop iterations after the last byte went into the connection, and the
 * server may have stored the request meanwhile: a cancel there (the hook's
 * SIGTERM once the person saw the request) read as a request that never
 * arrived, left pending for nobody. The body's bytes are counted as they go
 * in instead. */
static void
on_wrote_body_data (SoupMessage *message,
                    guint        count,
                    Request     *request)
{
  SoupMessageHeaders *headers = soup_message_get_request_headers (message);

  request->body_written += count;
  if (soup_message_headers_get_encoding (headers) == SOUP_ENCODING_CONTENT_LENGTH &&
      request->body_written >= soup_message_headers_get_content_length (headers))
    request->wrote_body = TRUE;
}

/*
 * Whether the server may have acted on @request, which failed without an
 * answer: a request that changes something, once it went out whole. A POST
 * the server stored before it died must not look like one that never
 * arrived: the caller would leave it pending with nobody waiting.
 */
static gboolean
request_may_have_acted (Request *request)
{
  const char *method = soup_message_get_method (request->message);

  return request->wrote_body && strcmp (method, SOUP_METHOD_GET) != 0 &&
         strcmp (method, SOUP_METHOD_HEAD) != 0 && strcmp (method, SOUP_METHOD_OPTIONS) != 0;
}

/* A transport failure (@error, not a cancel) of @request, in ATP_ERROR. A
 * TLS-layer failure after the body went out whole ("Decryption has failed",
 * "TLS connection closed unexpectedly": the server dying once it stored the
 * request) is a loss like any other; it was CONNECTION_FAILED, so the request
 * was taken for one never made, left pending with nobody waiting. Only the
 * certificate refused is said as such (it comes with the handshake). */
static GError *
request_transport_error (Request      *request,
                         const GError *error,
                         gboolean      mid_answer)
{
  if (request_may_have_acted (request) &&
      !g_error_matches (error, G_TLS_ERROR, G_TLS_ERROR_BAD_CERTIFICATE))
    return atp_client_lost_error (request->self, error);
  return atp_client_connection_error (request->self, request->message, error, mid_answer);
}

static void
request_return_error (GTask  *task,
                      GError *error)
{
  Request *request = g_task_get_task_data (task);

  g_clear_handle_id (&request->timeout_id, g_source_remove);
  /* The connection goes back to the session's pool (or is dropped) now, not
   * when the caller lets go of the result: a caller holding results would
   * otherwise hold every connection the session may open. */
  g_clear_object (&request->stream);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) && request->timed_out &&
      !g_cancellable_is_cancelled (request->caller_cancellable))
    {
      g_error_free (error);
      error = g_error_new (ATP_ERROR, request_may_have_acted (request)
                                        ? ATP_ERROR_CONNECTION_LOST : ATP_ERROR_CONNECTION_FAILED,
                           "%s did not answer within %u seconds",
                           atp_client_get_display_name (request->self), request->timeout_s);
    }

  g_task_return_error (task, error);
}

/* What @request's parse makes of a 2xx body (@data, @size), or NULL and
 * @error: on the main thread, or on a worker's for a request started with
 * atp_client_start_request_in_thread (). */
static gpointer
parse_answer (Request     *request,
              const char  *data,
              gsize        size,
              GError     **error)
{
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GError) local_error = NULL;
  gpointer result;

  root = atp_json_parse (data, size, request->max_size, &local_error);
  if (root == NULL)
    {
      g_set_error (error, ATP_ERROR, ATP_ERROR_PROTOCOL, "%s answered with invalid JSON: %s",
                   atp_client_get_display_name (request->self), local_error->message);
      return NULL;
    }

  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, ATP_ERROR, ATP_ERROR_PROTOCOL, "%s answered with JSON that is not an object",
                   atp_client_get_display_name (request->self));
      return NULL;
    }

  result = request->parse (request->self, root, request->op_data, &local_error);
  if (result == NULL)
    g_set_error (error, ATP_ERROR, ATP_ERROR_PROTOCOL, "Unexpected answer from %s: %s",
                 atp_client_get_display_name (request->self), local_error->message);
  return result;
}

static void
request_return (GTask    *task,
                gpointer  result,
                GError   *error)
{
  Request *request = g_task_get_task_data (task);

  if (result == NULL)
    request_return_error (task, error);
  else
    g_task_return_pointer (task, result, request->result_free);
}

/* The parse on a worker thread is a task of its own, without a source
 * object, whose data is the request only borrowed: the request's own task
 * waits for it, and a worker drops its last reference to the task it ran
 * when it likes, which must not be the last of the client or the message
 * (finalized on the wrong thread, or after their owner was told they were
 * done with). */
static void
parse_thread (GTask        *job,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  Request *request = task_data;
  GError *error = NULL;
  gsize size;
  const char *data = g_bytes_get_data (request->answer, &size);
  gpointer result = parse_answer (request, data, size, &error);

  if (result == NULL)
    g_task_return_error (job, error);
  else
    g_task_return_pointer (job, result, request->result_free);
}

static void
parsed_cb (GObject      *source,
           GAsyncResult *job,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;
  gpointer result = g_task_propagate_pointer (G_TASK (job), &error);

  request_return (task, result, error);
}

static void
request_complete (GTask *task)
{
  Request *request = g_task_get_task_data (task);
  guint status = soup_message_get_status (request->message);
  g_autoptr(GBytes) body = g_byte_array_free_to_bytes (g_steal_pointer (&request->body));
  GError *error = NULL;
  gpointer result;
  gsize size = 0;
  const char *data;

  g_clear_handle_id (&request->timeout_id, g_source_remove);
  g_clear_object (&request->stream);

  if (status < 200 || status > 299)
    {
      error = atp_client_http_error (request->message, body);
      atp_client_hold_for (request->self, status, error);
      request_return_error (task, error);
      return;
    }

  data = g_bytes_get_data (body, &size);
  if (size == 0)
    {
      request_return_error (task, g_error_new (ATP_ERROR, ATP_ERROR_PROTOCOL,
                                               "%s answered HTTP %u with an empty body",
                                               atp_client_get_display_name (request->self), status));
      return;
    }

  if (request->in_thread)
    {
      g_autoptr(GTask) job = g_task_new (NULL, NULL, parsed_cb, g_object_ref (task));

      request->answer = g_steal_pointer (&body);
      g_task_set_task_data (job, request, NULL);
      g_task_run_in_thread (job, parse_thread);
      return;
    }
  result = parse_answer (request, data, size, &error);
  request_return (task, result, error);
}

static void
read_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Request *request = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;

  bytes = g_input_stream_read_bytes_finish (G_INPUT_STREAM (object), result, &error);
  if (bytes == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        request_return_error (task, g_steal_pointer (&error));
      else
        request_return_error (task, request_transport_error (request, error, TRUE));
      return;
    }

  if (g_bytes_get_size (bytes) == 0)
    {
      request_complete (task);
      return;
    }

  if (request->body->len + g_bytes_get_size (bytes) > request->max_size)
    {
      request_return_error (task, g_error_new (ATP_ERROR, ATP_ERROR_PAYLOAD_TOO_LARGE,
                                               "The answer of %s is larger than %" G_GSIZE_FORMAT
                                               " KiB; not read",
                                               atp_client_get_display_name (request->self),
                                               request->max_size / 1024));
      return;
    }

  g_byte_array_append (request->body, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  g_input_stream_read_bytes_async (request->stream, READ_CHUNK, G_PRIORITY_DEFAULT,
                                   request->cancellable, read_cb, g_steal_pointer (&task));
}

static void
send_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Request *request = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  goffset length;

  request->stream = soup_session_send_finish (SOUP_SESSION (object), result, &error);
  if (request->stream == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        request_return_error (task, g_steal_pointer (&error));
      else if (error->domain == SOUP_SESSION_ERROR &&
               (error->code == SOUP_SESSION_ERROR_PARSING ||
                error->code == SOUP_SESSION_ERROR_ENCODING))
        request_return_error (task, g_error_new (ATP_ERROR, ATP_ERROR_PROTOCOL,
                                                 "%s sent a broken HTTP answer: %s",
                                                 atp_client_get_display_name (request->self), error->message));
      else
        request_return_error (task, request_transport_error (request, error, FALSE));
      return;
    }

  length = soup_message_headers_get_content_length (soup_message_get_response_headers (request->message));
  if (length > 0 && (guint64) length > request->max_size)
    {
      request_return_error (task, g_error_new (ATP_ERROR, ATP_ERROR_PAYLOAD_TOO_LARGE,
                                               "The answer of %s is larger than %" G_GSIZE_FORMAT
                                               " KiB; not read",
                                               atp_client_get_display_name (request->self),
                                               request->max_size / 1024));
      return;
    }

  request->body = g_byte_array_new ();
  g_input_stream_read_bytes_async (request->stream, READ_CHUNK, G_PRIORITY_DEFAULT,
                                   request->cancellable, read_cb, g_steal_pointer (&task));
}

/*
 * Starts @message; the task's result is whatever @parse makes of the 2xx
 * body (transfer full, freed with @result_free).
 */
static void
start_request (AtpClient           *self,
               SoupMessage         *message,
               guint                extra_seconds,
               gsize                max_size,
               gboolean             in_thread,
               AtpClientParseFunc   parse,
               gpointer             op_data,
               GDestroyNotify       op_data_free,
               GDestroyNotify       result_free,
               gpointer             source_tag,
               GCancellable        *cancellable,
               GAsyncReadyCallback  callback,
               gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  Request *request;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, source_tag);

  request = g_new0 (Request, 1);
  request->self = g_object_ref (self);
  request->message = message;
  request->cancellable = g_cancellable_new ();
  request->timeout_s = atp_client_get_timeout (self) + extra_seconds;
  request->max_size = max_size;
  request->in_thread = in_thread;
  request->parse = parse;
  request->op_data = op_data;
  request->op_data_free = op_data_free;
  request->result_free = result_free;
  g_task_set_task_data (task, request, (GDestroyNotify) request_free);

  if (cancellable != NULL)
    {
      request->caller_cancellable = g_object_ref (cancellable);
      request->cancel_handler = g_cancellable_connect (cancellable, G_CALLBACK (on_caller_cancelled),
                                                       g_object_ref (request->cancellable),
                                                       g_object_unref);
    }

  request->wrote_body_handler = g_signal_connect (message, "wrote-body",
                                                  G_CALLBACK (on_wrote_body), request);
  request->wrote_body_data_handler = g_signal_connect (message, "wrote-body-data",
                                                       G_CALLBACK (on_wrote_body_data), request);
  request->timeout_id = g_timeout_add_seconds (request->timeout_s, on_request_timeout, request);

  soup_session_send_async (atp_client_get_session (self), message, G_PRIORITY_DEFAULT, request->cancellable,
                           send_cb, g_steal_pointer (&task));
}

void
atp_client_start_request (AtpClient           *self,
                          SoupMessage         *message,
                          guint                extra_seconds,
                          gsize                max_size,
                          AtpClientParseFunc   parse,
                          gpointer             op_data,
                          GDestroyNotify       op_data_free,
                          GDestroyNotify       result_free,
                          gpointer             source_tag,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  start_request (self, message, extra_seconds, max_size, FALSE, parse, op_data, op_data_free,
                 result_free, source_tag, cancellable, callback, user_data);
}

/* The same, with the answer parsed on a worker thread: a page of 1,000
 * notifications is tens of milliseconds of JSON, which held the main loop
 * (and with it the app's window and the request for the next page). */
void
atp_client_start_request_in_thread (AtpClient           *self,
                                    SoupMessage         *message,
                                    gsize                max_size,
                                    AtpClientParseFunc   parse,
                                    GDestroyNotify       result_free,
                                    gpointer             source_tag,
                                    GCancellable        *cancellable,
                                    GAsyncReadyCallback  callback,
                                    gpointer             user_data)
{
  start_request (self, message, 0, max_size, TRUE, parse, NULL, NULL, result_free, source_tag,
                 cancellable, callback, user_data);
}

gpointer
atp_client_request_finish (AtpClient     *self,
                           GAsyncResult  *result,
                           gpointer       source_tag,
                           GError       **error)
{
  g_return_val_if_fail (ATP_IS_CLIENT (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == source_tag, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

gboolean
atp_client_result_went_out (GAsyncResult *result)
{
  Request *request;

  g_return_val_if_fail (G_IS_TASK (result), FALSE);

  request = g_task_get_task_data (G_TASK (result));
  return request != NULL && request->wrote_body;
}

void
atp_client_set_json_body (SoupMessage *message,
                          char        *text,
                          gsize        length)
{
  g_autoptr(GBytes) bytes = g_bytes_new_take (text, length);

  soup_message_set_request_body_from_bytes (message, "application/json", bytes);
}

/* A generic call: the answer is the 2xx body's JSON object. */

static gpointer
parse_object (AtpClient  *self,
              JsonNode   *root,
              gpointer    op_data,
              GError    **error)
{
  return json_node_ref (root);
}

void
atp_client_call_async (AtpClient           *self,
                       const char          *method,
                       const char          *path_and_query,
                       const char          *body,
                       gboolean             service_call,
                       guint                wait_seconds,
                       GCancellable        *cancellable,
                       GAsyncReadyCallback  callback,
                       gpointer             user_data)
{
  SoupMessage *message;

  g_return_if_fail (ATP_IS_CLIENT (self));
  g_return_if_fail (method != NULL);
  g_return_if_fail (path_and_query != NULL && path_and_query[0] == '/');

  message = atp_client_new_message (self, method, path_and_query, service_call);
  if (body != NULL)
    atp_client_set_json_body (message, g_strdup (body), strlen (body));

  atp_client_start_request (self, message, wait_seconds, ATP_CLIENT_MAX_ANSWER_SIZE, parse_object,
                            NULL, NULL, (GDestroyNotify) json_node_unref, atp_client_call_async,
                            cancellable, callback, user_data);
}

JsonNode *
atp_client_call_finish (AtpClient     *self,
                        GAsyncResult  *result,
                        GError       **error)
{
  return atp_client_request_finish (self, result, atp_client_call_async, error);
}

/* Shared by the calls */

gboolean
atp_client_id_is_sendable (const char  *id,
                           const char  *what,
                           GError     **error)
{
  if (id == NULL || !atp_is_uuid_v4 (id))
    {
      g_set_error (error, ATP_ERROR, ATP_ERROR_INVALID_FIELD_VALUE,
                   "%s: “%s” is not a notification id (a UUID v4)", what, id ? id : "");
      return FALSE;
    }
  return TRUE;
}

void
atp_client_report_bad_id (AtpClient           *self,
                          const char          *id,
                          gpointer             source_tag,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GTask) task = g_task_new (self, NULL, callback, user_data);

  g_task_set_source_tag (task, source_tag);
  atp_client_id_is_sendable (id, "notification_id", &error);
  g_task_return_error (task, g_steal_pointer (&error));
}

gboolean
atp_client_read_optional_string (JsonObject  *object,
                                 const char  *name,
                                 const char **value,
                                 GError     **error)
{
  JsonNode *node = atp_object_get (object, name);

  *value = NULL;
  if (node == NULL)
    return TRUE;

  if (json_node_get_value_type (node) != G_TYPE_STRING)
    {
      g_set_error (error, ATP_ERROR, ATP_ERROR_PROTOCOL, "“%s” is not a string", name);
      return FALSE;
    }

  *value = json_node_get_string (node);
  return TRUE;
}

gpointer
atp_client_parse_notification (AtpClient  *self,
                               JsonNode   *root,
                               gpointer    op_data,
                               GError    **error)
{
  return atp_notification_new_from_json (root, ATP_PARSE_DEFAULT, error);
}
