/* atp-test-common.h — small helpers shared by the libatp tests
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <string.h>

#include "atp.h"

/* Asserts @error is ATP_ERROR/@code and its message contains every one of the NULL-terminated @...*/
#define atp_assert_error(error, code, ...) \
  atp_test_assert_error ((error), (code), __FILE__, __LINE__, __VA_ARGS__, NULL)

G_GNUC_NULL_TERMINATED
static inline void
atp_test_assert_error (const GError *error,
                       int           code,
                       const char   *file,
                       int           line,
                       ...)
{
  va_list args;
  const char *needle;

  if (error == NULL)
    {
      g_printerr ("%s:%d: expected error %s, got success\n", file, line,
                  atp_error_code_to_string (code));
      g_test_fail ();
      return;
    }

  if (error->domain != ATP_ERROR || error->code != code)
    {
      g_printerr ("%s:%d: expected error %s, got %s: %s\n", file, line,
                  atp_error_code_to_string (code),
                  error->domain == ATP_ERROR ? atp_error_code_to_string (error->code)
                                             : g_quark_to_string (error->domain),
                  error->message);
      g_test_fail ();
      return;
    }

  va_start (args, line);
  while ((needle = va_arg (args, const char *)) != NULL)
    {
      if (strstr (error->message, needle) == NULL)
        {
          g_printerr ("%s:%d: message \"%s\" does not contain \"%s\"\n",
                      file, line, error->message, needle);
          g_test_fail ();
        }
    }
  va_end (args);
}

/* The contents of tests/atp/data/@name. */
static inline char *
atp_test_load (const char *name,
               gsize      *length)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "atp", "data", name, NULL);
  char *contents = NULL;

  g_file_get_contents (path, &contents, length, &error);
  g_assert_no_error (error);
  return contents;
}

/* parse → serialize → parse → serialize gives the same text twice. */
static inline char *
atp_test_assert_round_trip (AtpNotification *notification)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpNotification) again = NULL;
  g_autofree char *first = atp_notification_to_string (notification, NULL);
  g_autofree char *second = NULL;
  g_autoptr(JsonNode) a = NULL;
  g_autoptr(JsonNode) b = NULL;

  again = atp_notification_new_from_data (first, -1,
                                          notification->service.name == NULL ? ATP_PARSE_SUBMISSION
                                                                             : ATP_PARSE_DEFAULT,
                                          &error);
  g_assert_no_error (error);
  second = atp_notification_to_string (again, NULL);
  g_assert_cmpstr (first, ==, second);

  a = atp_notification_to_json (notification);
  b = atp_notification_to_json (again);
  g_assert_true (atp_json_node_equal (a, b));
  return g_steal_pointer (&first);
}

/*
 * Changes @root in place: sets the member at @path ("context.attachments[1].data")
 * to the JSON text @value, or removes it when @value is NULL. An index may
 * appear anywhere but last.
 */
static inline void
atp_test_patch (JsonNode   *root,
                const char *path,
                const char *value)
{
  g_auto(GStrv) parts = g_strsplit (path, ".", -1);
  JsonNode *node = root;

  for (guint i = 0; parts[i] != NULL; i++)
    {
      char *bracket = strchr (parts[i], '[');
      gboolean last = parts[i + 1] == NULL;
      JsonObject *object;

      if (bracket != NULL)
        *bracket = '\0';

      object = json_node_get_object (node);
      if (last && bracket == NULL)
        {
          if (value == NULL)
            {
              json_object_remove_member (object, parts[i]);
            }
          else
            {
              g_autoptr(GError) error = NULL;
              JsonNode *member = atp_json_parse (value, -1, 0, &error);

              g_assert_no_error (error);
              json_object_set_member (object, parts[i], member);
            }
          return;
        }

      node = json_object_get_member (object, parts[i]);
      g_assert_nonnull (node);

      if (bracket != NULL)
        {
          guint index = (guint) g_ascii_strtoull (bracket + 1, NULL, 10);

          g_assert_false (last);
          node = json_array_get_element (json_node_get_array (node), index);
          g_assert_nonnull (node);
        }
    }
}

/* tests/atp/data/@name, parsed. */
static inline JsonNode *
atp_test_load_json (const char *name)
{
  g_autoptr(GError) error = NULL;
  gsize length;
  g_autofree char *text = atp_test_load (name, &length);
  JsonNode *root = atp_json_parse (text, length, 0, &error);

  g_assert_no_error (error);
  return root;
}
