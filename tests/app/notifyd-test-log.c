/* notifyd-test-log.c — bubbles as tests/fake-notifyd.py saw them
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <string.h>

#include "app-test-common.h"
#include "notifyd-test-log.h"

/* The fake server's log (FAKE_NOTIFYD_LOG), one event a line, as a JSON array. */
JsonNode *
notifyd_read_log (void)
{
  const char *path = g_getenv ("FAKE_NOTIFYD_LOG");
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;
  JsonArray *array = json_array_new ();
  JsonNode *node = json_node_new (JSON_NODE_ARRAY);

  json_node_take_array (node, array);
  if (!g_file_get_contents (path, &contents, NULL, NULL))
    return node;

  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (*lines[i] != '\0')
      json_array_add_element (array, atp_json_parse (lines[i], -1, 0, NULL));

  return node;
}

/* The last log event of @kind for @summary_part (or any), NULL if none. */
JsonObject *
notifyd_find_event (JsonNode   *log,
                    const char *kind,
                    const char *summary_part,
                    guint       id)
{
  JsonArray *array = json_node_get_array (log);

  for (guint i = json_array_get_length (array); i > 0; i--)
    {
      JsonObject *event = json_array_get_object_element (array, i - 1);

      if (g_strcmp0 (json_object_get_string_member (event, "event"), kind) != 0)
        continue;
      if (summary_part != NULL &&
          strstr (json_object_get_string_member_with_default (event, "summary", ""), summary_part) == NULL)
        continue;
      if (id != 0 && (guint) json_object_get_int_member (event, "id") != id)
        continue;
      return event;
    }

  return NULL;
}

JsonObject *
notifyd_wait_event (const char *kind,
                    const char *summary_part,
                    guint       id,
                    JsonNode  **log_out)
{
  gint64 end = g_get_monotonic_time () + APP_TEST_WAIT_MS * 1000;

  while (g_get_monotonic_time () < end)
    {
      g_autoptr(JsonNode) log = notifyd_read_log ();
      JsonObject *event = notifyd_find_event (log, kind, summary_part, id);

      if (event != NULL)
        {
          json_object_ref (event);
          *log_out = g_steal_pointer (&log);
          return event;
        }
      g_main_context_iteration (NULL, FALSE);
      g_usleep (10000);
    }

  g_error ("No %s event for %s in the fake notification server's log", kind,
           summary_part ? summary_part : "any bubble");
  return NULL;
}

void
notifyd_press (guint       id,
               const char *key)
{
  g_autoptr(GDBusConnection) bus = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, NULL);
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GError) error = NULL;

  reply = g_dbus_connection_call_sync (bus, "org.freedesktop.Notifications",
                                       "/org/freedesktop/Notifications",
                                       "io.github.atptriage.Triage.FakeNotifyd", "InvokeAction",
                                       g_variant_new ("(us)", id, key), NULL,
                                       G_DBUS_CALL_FLAGS_NONE, 5000, NULL, &error);
  g_assert_no_error (error);
}

gboolean
notifyd_skip_without (void)
{
  if (g_getenv ("FAKE_NOTIFYD_LOG") == NULL)
    {
      g_test_skip ("Runs under tests/fake-notifyd.py (FAKE_NOTIFYD_LOG unset)");
      return TRUE;
    }
  return FALSE;
}

/* Waits for the bubble @id to say @body (a Notify replacing it). */
JsonObject *
notifyd_wait_body (guint       id,
                   const char *body,
                   JsonNode  **log_out)
{
  gint64 end = g_get_monotonic_time () + APP_TEST_WAIT_MS * 1000;

  while (g_get_monotonic_time () < end)
    {
      g_autoptr(JsonNode) log = notifyd_read_log ();
      JsonObject *event = notifyd_find_event (log, "Notify", NULL, id);

      if (event != NULL && g_strcmp0 (json_object_get_string_member (event, "body"), body) == 0)
        {
          json_object_ref (event);
          *log_out = g_steal_pointer (&log);
          return event;
        }
      g_main_context_iteration (NULL, FALSE);
      g_usleep (10000);
    }

  g_error ("Bubble %u never said “%s”", id, body);
  return NULL;
}

void
notifyd_close (guint id)
{
  g_autoptr(GDBusConnection) bus = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, NULL);
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GError) error = NULL;

  /* As the person closing it (reason 2). */
  reply = g_dbus_connection_call_sync (bus, "org.freedesktop.Notifications",
                                       "/org/freedesktop/Notifications",
                                       "io.github.atptriage.Triage.FakeNotifyd", "Close",
                                       g_variant_new ("(uu)", id, 2), NULL,
                                       G_DBUS_CALL_FLAGS_NONE, 5000, NULL, &error);
  g_assert_no_error (error);
}


/* Waits for the bubble @id to be replaced in place (a Notify naming it in
 * replaces_id). */
JsonObject *
notifyd_wait_replaced (guint      id,
                       JsonNode **log_out)
{
  gint64 end = g_get_monotonic_time () + APP_TEST_WAIT_MS * 1000;

  while (g_get_monotonic_time () < end)
    {
      g_autoptr(JsonNode) log = notifyd_read_log ();
      JsonObject *event = notifyd_find_event (log, "Notify", NULL, id);

      if (event != NULL && (guint) json_object_get_int_member (event, "replaces_id") == id)
        {
          json_object_ref (event);
          *log_out = g_steal_pointer (&log);
          return event;
        }
      g_main_context_iteration (NULL, FALSE);
      g_usleep (10000);
    }

  g_error ("Bubble %u was never replaced", id);
  return NULL;
}

/* Whether the notification server names @capability (GetCapabilities). */
gboolean
notifyd_has_capability (const char *capability)
{
  g_autoptr(GDBusConnection) bus = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, NULL);
  g_autoptr(GVariant) reply = NULL;
  g_autofree const char **caps = NULL;
  g_autoptr(GError) error = NULL;

  reply = g_dbus_connection_call_sync (bus, "org.freedesktop.Notifications",
                                       "/org/freedesktop/Notifications",
                                       "org.freedesktop.Notifications", "GetCapabilities",
                                       NULL, G_VARIANT_TYPE ("(as)"),
                                       G_DBUS_CALL_FLAGS_NONE, 5000, NULL, &error);
  g_assert_no_error (error);
  g_variant_get (reply, "(^a&s)", &caps);

  return g_strv_contains (caps, capability);
}
