/* webhook-receiver-util.h — the tests' side of webhook-receiver.py: start
 * it, and read what it was sent
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <string.h>
#include <json-glib/json-glib.h>
#include <libsoup/soup.h>

#include "triage-test-server.h"

/* No wait here comes near this; reaching it fails the test, it never hangs it. */
#define WAIT_LIMIT_S 20

/* ---- the receiver ---- */

typedef struct
{
  GSubprocess *process;
  SoupSession *session;
  char        *url;
  guint        port;
} Receiver;

static inline Receiver *
receiver_start (guint port)
{
  g_autofree char *port_text = g_strdup_printf ("%u", port);
  const char *args[] = { port_text, NULL };
  Receiver *receiver = g_new0 (Receiver, 1);
  const char *colon;

  receiver->process = triage_test_spawn_peer ("server/webhook-receiver.py", args, &receiver->url);
  colon = strrchr (receiver->url, ':');
  receiver->port = (guint) g_ascii_strtoull (colon + 1, NULL, 10);
  receiver->session = soup_session_new_with_options ("timeout", 5, NULL);
  return receiver;
}

static inline void
receiver_stop (Receiver *receiver)
{
  g_output_stream_close (g_subprocess_get_stdin_pipe (receiver->process), NULL, NULL);
  g_subprocess_wait (receiver->process, NULL, NULL);
  g_object_unref (receiver->process);
  g_object_unref (receiver->session);
  g_free (receiver->url);
  g_free (receiver);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Receiver, receiver_stop)

static inline char *
receiver_url (Receiver   *receiver,
              const char *path)
{
  return g_strconcat (receiver->url, path, NULL);
}

/* One delivery as the receiver saw it. */
typedef struct
{
  char   *signature;
  char   *request_id;
  char   *event;      /* X-Triage-Event */
  char   *content_type;
  char   *body;     /* the raw bytes, NUL added */
  double  time;     /* unix seconds */
} Delivery;

static inline void
delivery_free (Delivery *delivery)
{
  g_free (delivery->signature);
  g_free (delivery->request_id);
  g_free (delivery->event);
  g_free (delivery->content_type);
  g_free (delivery->body);
  g_free (delivery);
}

static inline const char *
member_or_null (JsonObject *object,
                const char *name)
{
  JsonNode *node = json_object_get_member (object, name);

  return node != NULL && !JSON_NODE_HOLDS_NULL (node) ? json_node_get_string (node) : NULL;
}

/* Every delivery the receiver got on @path, oldest first; @path NULL: all. */
static inline GPtrArray *
receiver_deliveries (Receiver   *receiver,
                     const char *path)
{
  g_autofree char *url = receiver_url (receiver, "/requests");
  g_autoptr(SoupMessage) msg = soup_message_new ("GET", url);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = soup_session_send_and_read (receiver->session, msg, NULL, &error);
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *text = NULL;
  GPtrArray *deliveries = g_ptr_array_new_with_free_func ((GDestroyNotify) delivery_free);
  JsonArray *array;

  g_assert_no_error (error);
  g_assert_cmpuint (soup_message_get_status (msg), ==, 200);
  /* The bytes read end where the body ends: no NUL after them. */
  text = g_strndup (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  root = json_from_string (text, &error);
  g_assert_no_error (error);
  array = json_node_get_array (root);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonObject *record = json_array_get_object_element (array, i);
      Delivery *delivery;
      gsize length;
      guchar *raw;

      if (path != NULL && g_strcmp0 (json_object_get_string_member (record, "path"), path) != 0)
        continue;
      delivery = g_new0 (Delivery, 1);
      delivery->signature = g_strdup (member_or_null (record, "signature"));
      delivery->request_id = g_strdup (member_or_null (record, "request_id"));
      delivery->event = g_strdup (member_or_null (record, "event"));
      delivery->content_type = g_strdup (member_or_null (record, "content_type"));
      raw = g_base64_decode (json_object_get_string_member (record, "body"), &length);
      delivery->body = g_strndup ((const char *) raw, length);
      g_free (raw);
      delivery->time = json_object_get_double_member (record, "time");
      g_ptr_array_add (deliveries, delivery);
    }
  return deliveries;
}

/* Waits until @path has had @count deliveries; fails after WAIT_LIMIT_S. */
static inline GPtrArray *
receiver_wait (Receiver   *receiver,
               const char *path,
               guint       count)
{
  gint64 limit = g_get_monotonic_time () + WAIT_LIMIT_S * G_USEC_PER_SEC;

  for (;;)
    {
      g_autoptr(GPtrArray) deliveries = receiver_deliveries (receiver, path);

      if (deliveries->len >= count)
        return g_steal_pointer (&deliveries);
      if (g_get_monotonic_time () > limit)
        g_error ("%s had %u deliveries after %d s, expected %u", path, deliveries->len,
                 WAIT_LIMIT_S, count);
      g_usleep (50 * 1000);
    }
}

static inline guint
receiver_count (Receiver   *receiver,
                const char *path)
{
  g_autoptr(GPtrArray) deliveries = receiver_deliveries (receiver, path);

  return deliveries->len;
}
