/* atp-notification-write.c — a notification's JSON text, written directly
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * atp_notification_to_string() on the server's hot path (every POST stores
 * the envelope's text): the same text as atp_json_to_string() of
 * atp_notification_to_json(), byte for byte, member for member in the same
 * order, without building the json-glib tree first (building, writing and
 * freeing it cost several times the writing). tests/atp/test-notification
 * compares the two on every notification of its data.
 */

#include <string.h>

#include "atp-notification-private.h"
#include "atp-json.h"
#include "atp-private.h"
#include "atp-response.h"

/* An object being written: what atp_json_object_append_extra () would find
 * already set in the tree, so that an unknown member by a known name is left
 * out as it is there. */
typedef struct
{
  GString    *out;
  const char *names[16];
  guint       n_names;
  gboolean    any;
} Object;

static void
object_begin (Object  *object,
              GString *out)
{
  object->out = out;
  object->n_names = 0;
  object->any = FALSE;
  g_string_append_c (out, '{');
}

static void
object_key (Object     *object,
            const char *name)
{
  if (object->any)
    g_string_append_c (object->out, ',');
  object->any = TRUE;
  g_assert (object->n_names < G_N_ELEMENTS (object->names));
  object->names[object->n_names++] = name;
  atp_json_write_string (object->out, name);
  g_string_append_c (object->out, ':');
}

/* json_object_set_string_member (): NULL is a JSON null. */
static void
object_string (Object     *object,
               const char *name,
               const char *value)
{
  object_key (object, name);
  if (value != NULL)
    atp_json_write_string (object->out, value);
  else
    g_string_append (object->out, "null");
}

static void
object_node (Object     *object,
             const char *name,
             JsonNode   *node)
{
  object_key (object, name);
  atp_json_write_node (object->out, node);
}

static void
object_int (Object     *object,
            const char *name,
            gint64      value)
{
  object_key (object, name);
  g_string_append_printf (object->out, "%" G_GINT64_FORMAT, value);
}

static void
object_number (Object     *object,
               const char *name,
               double      value)
{
  g_autoptr(JsonNode) node = atp_json_node_new_number (value);

  object_node (object, name, node);
}

static void
object_timestamp (Object     *object,
                  const char *name,
                  GDateTime  *time)
{
  g_autofree char *text = NULL;

  if (time == NULL)
    return;
  text = atp_format_timestamp (time);
  object_string (object, name, text);
}

/* atp_json_object_append_extra (), then the closing brace. */
static void
object_end (Object     *object,
            JsonObject *extra)
{
  if (extra != NULL && json_object_get_size (extra) > 0)
    {
      g_autoptr(GList) names = json_object_get_members (extra);

      for (const GList *l = names; l != NULL; l = l->next)
        {
          gboolean set = FALSE;

          /* The extra's own names are all different: only the known ones count. */
          for (guint i = 0; i < object->n_names && !set; i++)
            set = strcmp (object->names[i], l->data) == 0;
          if (set)
            continue;
          if (object->any)
            g_string_append_c (object->out, ',');
          object->any = TRUE;
          atp_json_write_string (object->out, l->data);
          g_string_append_c (object->out, ':');
          atp_json_write_node (object->out, json_object_get_member (extra, l->data));
        }
    }
  g_string_append_c (object->out, '}');
}

static void
write_attachment (GString             *out,
                  const AtpAttachment *attachment)
{
  Object object;

  object_begin (&object, out);
  object_string (&object, "type", attachment->type);
  if (attachment->description != NULL)
    object_string (&object, "description", attachment->description);
  if (attachment->uri != NULL)
    object_string (&object, "uri", attachment->uri);
  if (attachment->data != NULL)
    object_string (&object, "data", attachment->data);
  object_end (&object, attachment->extra);
}

/* The constraints of @action (atp_action_to_json ()): written to a string of
 * their own first, since an empty object is left out. */
static void
write_constraints (Object          *parent,
                   const AtpAction *action)
{
  g_autoptr(GString) text = g_string_new (NULL);
  Object object;

  object_begin (&object, text);
  switch (action->response_type)
    {
    case ATP_RESPONSE_TYPE_MULTI_CHOICE:
      if (action->min_selections != 0)
        object_int (&object, "min_selections", action->min_selections);
      if (action->max_selections >= 0)
        object_int (&object, "max_selections", action->max_selections);
      break;

    case ATP_RESPONSE_TYPE_TEXT:
      if (action->min_length != 0)
        object_int (&object, "min_length", action->min_length);
      if (action->max_length >= 0)
        object_int (&object, "max_length", action->max_length);
      if (action->placeholder != NULL)
        object_string (&object, "placeholder", action->placeholder);
      break;

    case ATP_RESPONSE_TYPE_NUMBER:
      if (action->has_min)
        object_number (&object, "min", action->min);
      if (action->has_max)
        object_number (&object, "max", action->max);
      if (action->has_step)
        object_number (&object, "step", action->step);
      if (action->unit != NULL)
        object_string (&object, "unit", action->unit);
      if (action->placeholder != NULL)
        object_string (&object, "placeholder", action->placeholder);
      break;

    case ATP_RESPONSE_TYPE_SCALE:
      object_number (&object, "min", action->min);
      object_number (&object, "max", action->max);
      if (action->step != 1.0)
        object_number (&object, "step", action->step);
      if (action->min_label != NULL)
        object_string (&object, "min_label", action->min_label);
      if (action->max_label != NULL)
        object_string (&object, "max_label", action->max_label);
      break;

    case ATP_RESPONSE_TYPE_CHOICE:
    case ATP_RESPONSE_TYPE_SIMPLE:
    case ATP_RESPONSE_TYPE_BINARY:
    default:
      break;
    }
  object_end (&object, action->extra_constraints);
  if (object.any)
    {
      object_key (parent, "constraints");
      g_string_append_len (parent->out, text->str, (gssize) text->len);
    }
}

static void
write_action (GString         *out,
              const AtpAction *action)
{
  Object object;

  object_begin (&object, out);
  object_string (&object, "id", action->id);
  object_string (&object, "label", action->label);
  object_string (&object, "response_type", atp_response_type_to_string (action->response_type));
  if (action->flag_names != NULL && action->flag_names[0] != NULL)
    {
      object_key (&object, "flags");
      g_string_append_c (out, '[');
      for (guint i = 0; action->flag_names[i] != NULL; i++)
        {
          if (i > 0)
            g_string_append_c (out, ',');
          atp_json_write_string (out, action->flag_names[i]);
        }
      g_string_append_c (out, ']');
    }
  if (action->response_type == ATP_RESPONSE_TYPE_BINARY)
    {
      Object options;

      object_key (&object, "options");
      object_begin (&options, out);
      object_string (&options, "true_label", action->true_label);
      object_string (&options, "false_label", action->false_label);
      object_end (&options, action->extra_options);
    }
  else if (action->response_type == ATP_RESPONSE_TYPE_CHOICE ||
           action->response_type == ATP_RESPONSE_TYPE_MULTI_CHOICE)
    {
      object_key (&object, "options");
      g_string_append_c (out, '[');
      for (guint i = 0; i < action->options->len; i++)
        {
          const AtpOption *option = g_ptr_array_index (action->options, i);
          Object item;

          if (i > 0)
            g_string_append_c (out, ',');
          object_begin (&item, out);
          object_string (&item, "value", option->value);
          object_string (&item, "label", option->label);
          object_end (&item, option->extra);
        }
      g_string_append_c (out, ']');
    }
  write_constraints (&object, action);
  object_end (&object, action->extra);
}

/* Appends the text atp_notification_to_string () returns to @out. */
void
atp_notification_write (GString         *out,
                        AtpNotification *self)
{
  Object object;

  object_begin (&object, out);
  if (self->id != NULL)
    object_string (&object, "id", self->id);
  object_string (&object, "version", self->version);
  if (self->protocol != ATP_PROTOCOL_ATP)
    object_string (&object, "protocol", atp_protocol_to_string (self->protocol));
  object_timestamp (&object, "timestamp", self->timestamp);
  object_timestamp (&object, "deadline", self->deadline);

  if (self->service.id != NULL || self->service.name != NULL)
    {
      Object service;

      object_key (&object, "service");
      object_begin (&service, out);
      if (self->service.id != NULL)
        object_string (&service, "id", self->service.id);
      if (self->service.name != NULL)
        object_string (&service, "name", self->service.name);
      if (self->service.icon != NULL)
        object_string (&service, "icon", self->service.icon);
      object_end (&service, self->service.extra);
    }

  {
    const AtpContext *context = &self->context;
    Object object_context;

    object_key (&object, "context");
    object_begin (&object_context, out);
    object_string (&object_context, "title", context->title);
    if (context->description != NULL)
      object_string (&object_context, "description", context->description);
    if (context->project != NULL)
      object_string (&object_context, "project", context->project);
    if (context->metadata != NULL)
      {
        object_key (&object_context, "metadata");
        atp_json_write_object (out, context->metadata);
      }
    if (context->attachments->len > 0)
      {
        object_key (&object_context, "attachments");
        g_string_append_c (out, '[');
        for (guint i = 0; i < context->attachments->len; i++)
          {
            if (i > 0)
              g_string_append_c (out, ',');
            write_attachment (out, g_ptr_array_index (context->attachments, i));
          }
        g_string_append_c (out, ']');
      }
    object_end (&object_context, context->extra);
  }

  /* Named after its protocol, a name no other member of the envelope has. */
  if (self->payload != NULL)
    {
      object_node (&object, atp_protocol_to_string (self->protocol), self->payload);
    }
  if (self->protocol == ATP_PROTOCOL_ATP)
    {
      object_key (&object, "actions");
      g_string_append_c (out, '[');
      for (guint i = 0; i < self->actions->len; i++)
        {
          if (i > 0)
            g_string_append_c (out, ',');
          write_action (out, g_ptr_array_index (self->actions, i));
        }
      g_string_append_c (out, ']');
    }

  object_string (&object, "status", atp_status_to_string (self->status));
  if (self->response != NULL)
    {
      g_autoptr(JsonNode) response = atp_response_to_json (self->response);

      object_node (&object, "response", response);
    }
  object_end (&object, self->extra);
}
