/* server-test-sse.h — the server tests' raw Server-Sent Events client: an
 * event stream opened with its headers, read event by event as the wire
 * carries them (part of server-test-util.h, which includes it)
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "server-test-util.h"

typedef struct
{
  char *id;      /* NULL when the event had none */
  char *event;
  char *data;
} SrvEvent;

static inline void
srv_event_free (SrvEvent *event)
{
  g_free (event->id);
  g_free (event->event);
  g_free (event->data);
  g_free (event);
}

typedef struct
{
  SoupMessage      *msg;
  GInputStream     *body;
  GDataInputStream *lines;
  GCancellable     *cancellable;
  GPtrArray        *events;     /* SrvEvent* */
  SrvEvent         *current;
  gboolean          ended;
  guint             status;
  char             *error_body;
} SrvEvents;

static inline void srv_events_read (SrvEvents *events);

static inline void
srv_events_line_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  SrvEvents *events = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *line = g_data_input_stream_read_line_finish_utf8 (G_DATA_INPUT_STREAM (object),
                                                                     result, NULL, &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (line == NULL)
    {
      events->ended = TRUE;
      return;
    }
  if (*line == '\0')
    {
      if (events->current != NULL)
        g_ptr_array_add (events->events, g_steal_pointer (&events->current));
    }
  else
    {
      const char *colon = strchr (line, ':');
      g_autofree char *field = colon ? g_strndup (line, colon - line) : g_strdup (line);
      const char *value = colon ? colon + 1 : "";
      char **slot;

      if (*value == ' ')
        value++;
      if (events->current == NULL)
        events->current = g_new0 (SrvEvent, 1);
      slot = g_str_equal (field, "id") ? &events->current->id
           : g_str_equal (field, "event") ? &events->current->event
           : g_str_equal (field, "data") ? &events->current->data : NULL;

      /* Our data is always one line, and no field comes twice. */
      if (slot != NULL)
        {
          g_assert_null (*slot);
          *slot = g_strdup (value);
        }
    }
  srv_events_read (events);
}

static inline void
srv_events_read (SrvEvents *events)
{
  g_data_input_stream_read_line_async (events->lines, G_PRIORITY_DEFAULT, events->cancellable,
                                       srv_events_line_cb, events);
}

/* Opens the event stream; @query after /api/v1/client/events and a
 * Last-Event-ID header (both may be NULL). */
static inline SrvEvents *
srv_events_open (TriageTestServer *server,
                 const char       *token,
                 const char       *query,
                 const char       *last_event_id)
{
  SoupSession *session = triage_test_server_get_session (server);
  g_autofree char *url = g_strconcat (triage_test_server_get_url (server), "/api/v1/client/events",
                                      query ? query : "", NULL);
  g_autoptr(GError) error = NULL;
  SrvEvents *events = g_new0 (SrvEvents, 1);
  SrvWait wait = { NULL };

  events->msg = soup_message_new ("GET", url);
  events->events = g_ptr_array_new_with_free_func ((GDestroyNotify) srv_event_free);
  events->cancellable = g_cancellable_new ();
  if (token != NULL)
    {
      g_autofree char *auth = g_strconcat ("Bearer ", token, NULL);

      soup_message_headers_replace (soup_message_get_request_headers (events->msg),
                                    "Authorization", auth);
    }
  if (last_event_id != NULL)
    soup_message_headers_replace (soup_message_get_request_headers (events->msg),
                                  "Last-Event-ID", last_event_id);
  soup_session_send_async (session, events->msg, G_PRIORITY_DEFAULT, events->cancellable,
                           srv_result_cb, &wait);
  srv_wait_until (wait.result != NULL, "the event stream's headers");
  events->body = soup_session_send_finish (session, wait.result, &error);
  g_object_unref (wait.result);
  g_assert_no_error (error);
  events->status = soup_message_get_status (events->msg);
  if (events->status != 200)
    {
      g_autoptr(GBytes) bytes = g_input_stream_read_bytes (events->body, 64 * 1024, NULL, &error);

      events->error_body = g_strndup (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
      events->ended = TRUE;
      return events;
    }
  events->lines = g_data_input_stream_new (events->body);
  srv_events_read (events);
  return events;
}

static inline void
srv_events_free (SrvEvents *events)
{
  g_cancellable_cancel (events->cancellable);
  /* Let the cancelled read finish before its stream goes. */
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_clear_object (&events->lines);
  g_clear_object (&events->body);
  g_clear_object (&events->msg);
  g_clear_object (&events->cancellable);
  g_clear_pointer (&events->current, srv_event_free);
  g_ptr_array_unref (events->events);
  g_free (events->error_body);
  g_free (events);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SrvEvents, srv_events_free)

/* The first event named @name whose data mentions @needle (NULL: any). */
static inline SrvEvent *
srv_find_event (SrvEvents  *events,
                const char *name,
                const char *needle)
{
  for (guint i = 0; i < events->events->len; i++)
    {
      SrvEvent *event = events->events->pdata[i];

      if (g_strcmp0 (event->event, name) == 0 &&
          (needle == NULL || (event->data != NULL && strstr (event->data, needle) != NULL)))
        return event;
    }
  return NULL;
}
