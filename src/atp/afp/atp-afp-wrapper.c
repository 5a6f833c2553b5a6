/* atp-afp-wrapper.c — the NDJSON wrapper stream of AFP's standard I/O binding
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "atp-afp"

#include "atp-afp-private.h"

#include <errno.h>
#include <string.h>
#include <sys/random.h>

#include "atp-json.h"
#include "atp-types.h"

G_DEFINE_BOXED_TYPE (AtpAfpWrapperMessage, atp_afp_wrapper_message,
                     atp_afp_wrapper_message_ref, atp_afp_wrapper_message_unref)

static const char * const type_names[] = { "step_start", "text", "step_finish" };

char *
atp_afp_random_id (const char *prefix,
                   guint       length)
{
  static const char alphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  GString *text = g_string_new (prefix);
  guint8 bytes[64];

  while (length > 0)
    {
      ssize_t got = getrandom (bytes, sizeof bytes, 0);

      if (got < 0)
        {
          if (errno == EINTR)
            continue;
          g_error ("getrandom failed: %s", g_strerror (errno));
        }

      /* 62 · 4 = 248: bytes from 248 up would favour the first letters. */
      for (ssize_t i = 0; i < got && length > 0; i++)
        {
          if (bytes[i] >= 248)
            continue;
          g_string_append_c (text, alphabet[bytes[i] % 62]);
          length--;
        }
    }

  return g_string_free (text, FALSE);
}

/* ------------------------------------------------------------------------ */
/* One message                                                               */
/* ------------------------------------------------------------------------ */

AtpAfpWrapperMessage *
atp_afp_wrapper_message_new_from_json (JsonNode  *node,
                                       GError   **error)
{
  static const char * const known[] = { "type", "timestamp", "sessionID", "part", NULL };
  g_autoptr(AtpAfpWrapperMessage) self = NULL;
  g_autoptr(GString) path = g_string_sized_new (16);
  JsonObject *object;
  const char *text;
  gboolean present;
  AtpParseCtx ctx;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  object = atp_json_require_object (node, "A wrapper message", error);
  if (object == NULL)
    return NULL;

  atp_afp_parse_ctx_init (&ctx, path, error);
  self = g_new0 (AtpAfpWrapperMessage, 1);
  g_atomic_ref_count_init (&self->ref_count);

  if (!atp_read_string (&ctx, object, "type", ATP_READ_REQUIRED | ATP_READ_NOT_EMPTY, &text))
    return NULL;
  self->type_name = g_strdup (text);
  {
    guint index;

    self->type = atp_afp_name_lookup (type_names, G_N_ELEMENTS (type_names), text, &index)
                 ? index : ATP_AFP_WRAPPER_UNKNOWN;
  }

  if (!atp_read_integer (&ctx, object, "timestamp", TRUE, &present, &self->timestamp))
    return NULL;
  if (!present)
    {
      atp_parse_fail_missing (&ctx, "timestamp");
      return NULL;
    }

  if (!atp_afp_read_string_dup (&ctx, object, "sessionID", ATP_READ_REQUIRED | ATP_READ_NOT_EMPTY,
                                &self->session_id) ||
      !atp_read_object (&ctx, object, "part", ATP_READ_REQUIRED, &self->part))
    return NULL;
  json_object_ref (self->part);

  if (self->type == ATP_AFP_WRAPPER_TEXT)
    {
      atp_parse_ctx_push (&ctx, "part");
      if (!atp_read_string (&ctx, self->part, "text", ATP_READ_REQUIRED, &text))
        return NULL;
    }

  self->extra = atp_json_object_collect_extra (object, known);
  return g_steal_pointer (&self);
}

AtpAfpWrapperMessage *
atp_afp_wrapper_message_new_from_data (const char  *data,
                                       gssize       length,
                                       GError     **error)
{
  g_autoptr(JsonNode) root = NULL;

  if (length < 0)
    length = strlen (data);
  if (length > 0 && data[length - 1] == '\n')
    length--;

  root = atp_json_parse (data, length, ATP_MAX_FRAME_SIZE, error);
  if (root == NULL)
    return NULL;

  return atp_afp_wrapper_message_new_from_json (root, error);
}

AtpAfpWrapperMessage *
atp_afp_wrapper_message_ref (AtpAfpWrapperMessage *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
atp_afp_wrapper_message_unref (AtpAfpWrapperMessage *self)
{
  g_return_if_fail (self != NULL);

  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;

  g_free (self->type_name);
  g_free (self->session_id);
  g_clear_pointer (&self->part, json_object_unref);
  g_clear_pointer (&self->extra, json_object_unref);
  g_free (self);
}

JsonNode *
atp_afp_wrapper_message_to_json (AtpAfpWrapperMessage *self)
{
  JsonObject *object;

  g_return_val_if_fail (self != NULL, NULL);

  object = json_object_new ();
  json_object_set_string_member (object, "type", self->type_name);
  json_object_set_int_member (object, "timestamp", self->timestamp);
  json_object_set_string_member (object, "sessionID", self->session_id);
  json_object_set_object_member (object, "part", json_object_ref (self->part));
  atp_json_object_append_extra (object, self->extra);
  return atp_afp_node_take_object (object);
}

AtpAfpResponse *
atp_afp_wrapper_message_get_response (AtpAfpWrapperMessage  *self,
                                      GError               **error)
{
  g_autoptr(GError) local_error = NULL;
  AtpAfpResponse *response;
  const char *text;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (self->type != ATP_AFP_WRAPPER_TEXT)
    {
      g_set_error (error, ATP_ERROR, ATP_ERROR_PROTOCOL,
                   "A \"%s\" message holds no Response Object (only \"text\" does)",
                   self->type_name);
      return NULL;
    }

  text = json_object_get_string_member (self->part, "text");
  response = atp_afp_response_new_from_data (text, -1, &local_error);
  if (response == NULL)
    {
      g_set_error (error, ATP_ERROR, local_error->code, "part.text: %s", local_error->message);
      return NULL;
    }

  return response;
}

/* ------------------------------------------------------------------------ */
/* The stream                                                                */
/* ------------------------------------------------------------------------ */

static JsonObject *
new_part (const char *session_id,
          const char *message_id,
          const char *type)
{
  JsonObject *part = json_object_new ();
  g_autofree char *id = atp_afp_random_id ("prt_", 20);

  json_object_set_string_member (part, "id", id);
  json_object_set_string_member (part, "sessionID", session_id);
  json_object_set_string_member (part, "messageID", message_id);
  json_object_set_string_member (part, "type", type);
  return part;
}

static void
append_line (GString    *out,
             const char *type,
             gint64      timestamp,
             const char *session_id,
             JsonObject *part)   /* takes */
{
  g_autoptr(JsonObject) object = json_object_new ();

  json_object_set_string_member (object, "type", type);
  json_object_set_int_member (object, "timestamp", timestamp);
  json_object_set_string_member (object, "sessionID", session_id);
  json_object_set_object_member (object, "part", part);

  {
    g_autoptr(JsonNode) node = atp_afp_node_take_object (g_steal_pointer (&object));

    atp_json_write_node (out, node);
  }
  g_string_append_c (out, '\n');
}

char *
atp_afp_wrapper_write_stream (const AtpAfpStreamInfo *info,
                              AtpAfpResponse         *response,
                              gsize                  *length)
{
  g_autofree char *random_message_id = NULL;
  g_autofree char *text = NULL;
  const char *message_id;
  GString *out;
  JsonObject *part, *time, *tokens;

  g_return_val_if_fail (info != NULL && info->session_id != NULL, NULL);
  g_return_val_if_fail (response != NULL, NULL);

  message_id = info->message_id;
  if (message_id == NULL)
    message_id = random_message_id = atp_afp_random_id ("msg_", 20);

  out = g_string_sized_new (1024);

  part = new_part (info->session_id, message_id, "step-start");
  append_line (out, "step_start", info->started_ms, info->session_id, part);

  text = atp_afp_response_to_string (response, NULL);
  part = new_part (info->session_id, message_id, "text");
  json_object_set_string_member (part, "text", text);
  time = json_object_new ();
  json_object_set_int_member (time, "start", info->started_ms);
  json_object_set_int_member (time, "end", info->answered_ms);
  json_object_set_object_member (part, "time", time);
  append_line (out, "text", info->answered_ms, info->session_id, part);

  part = new_part (info->session_id, message_id, "step-finish");
  json_object_set_int_member (part, "cost", 0);
  tokens = json_object_new ();
  json_object_set_int_member (tokens, "input", 0);
  json_object_set_int_member (tokens, "output", 0);
  json_object_set_object_member (part, "tokens", tokens);
  atp_json_object_append_extra (part, info->finish_extensions);
  append_line (out, "step_finish", info->finished_ms, info->session_id, part);

  if (length != NULL)
    *length = out->len;
  return g_string_free (out, FALSE);
}

AtpAfpResponse *
atp_afp_wrapper_read_stream (const char  *data,
                             gssize       length,
                             char       **session_id,
                             GError     **error)
{
  g_autoptr(AtpAfpResponse) response = NULL;
  g_autofree char *session = NULL;
  const char *p, *end;
  guint line_number = 0;

  g_return_val_if_fail (data != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  end = data + (length < 0 ? strlen (data) : (gsize) length);
  for (p = data; p < end; )
    {
      const char *newline = memchr (p, '\n', end - p);
      const char *line_end = newline != NULL ? newline : end;
      g_autoptr(GError) local_error = NULL;
      g_autoptr(AtpAfpWrapperMessage) message = NULL;
      JsonNode *part_session;

      line_number++;
      if (line_end == p)
        {
          p = line_end + 1;
          continue;
        }

      message = atp_afp_wrapper_message_new_from_data (p, line_end - p, &local_error);
      p = line_end + 1;
      if (message == NULL)
        {
          g_set_error (error, ATP_ERROR, ATP_ERROR_PROTOCOL, "line %u: %s", line_number,
                       local_error->message);
          return NULL;
        }

      if (session == NULL)
        session = g_strdup (message->session_id);
      else if (strcmp (session, message->session_id) != 0)
        {
          g_set_error (error, ATP_ERROR, ATP_ERROR_PROTOCOL,
                       "line %u: sessionID \"%s\" differs from the stream's \"%s\"",
                       line_number, message->session_id, session);
          return NULL;
        }

      part_session = atp_object_get (message->part, "sessionID");
      if (part_session != NULL &&
          (!JSON_NODE_HOLDS_VALUE (part_session) ||
           json_node_get_value_type (part_session) != G_TYPE_STRING ||
           strcmp (json_node_get_string (part_session), session) != 0))
        {
          g_autofree char *got = atp_json_describe (part_session);

          g_set_error (error, ATP_ERROR, ATP_ERROR_PROTOCOL,
                       "line %u: part.sessionID %s differs from the stream's \"%s\"",
                       line_number, got, session);
          return NULL;
        }

      if (message->type == ATP_AFP_WRAPPER_TEXT)
        {
          if (response != NULL)
            {
              g_set_error (error, ATP_ERROR, ATP_ERROR_PROTOCOL,
                           "line %u: a second \"text\" message", line_number);
              return NULL;
            }
          response = atp_afp_wrapper_message_get_response (message, &local_error);
          if (response == NULL)
            {
              g_set_error (error, ATP_ERROR, ATP_ERROR_PROTOCOL, "line %u: %s", line_number,
                           local_error->message);
              return NULL;
            }
        }
      else if (message->type == ATP_AFP_WRAPPER_STEP_FINISH)
        {
          break;
        }
    }

  if (response == NULL)
    {
      g_set_error_literal (error, ATP_ERROR, ATP_ERROR_PROTOCOL,
                           "The stream holds no \"text\" message");
      return NULL;
    }

  if (session_id != NULL)
    *session_id = g_steal_pointer (&session);
  return g_steal_pointer (&response);
}
