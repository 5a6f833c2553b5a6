/* fuzz-message.c — libFuzzer target: WebSocket frame → message → frame → message
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "fuzz-message"

#include <string.h>

#include "atp.h"
#include "fuzz-common.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpMessage) message = NULL;
  g_autoptr(AtpMessage) again = NULL;
  g_autofree char *first = NULL;
  g_autofree char *second = NULL;
  gsize length;

  /* Any text laid out for display is JSON still, and laid out again unchanged. */
  {
    g_autofree char *pretty = atp_json_pretty ((const char *) data, size, ATP_MAX_FRAME_SIZE, NULL);
    g_autofree char *twice = pretty ? atp_json_pretty (pretty, -1, 0, NULL) : NULL;

    if (g_strcmp0 (pretty, twice) != 0)
      fuzz_fail ("laying out is not stable:\n%s\n%s", pretty, twice ? twice : "(refused)");
  }

  message = atp_message_new_from_data ((const char *) data, size, &error);
  if (message == NULL)
    {
      g_assert_nonnull (error);
      g_assert_true (error->domain == ATP_ERROR);
      g_assert_true (error->code == ATP_ERROR_INVALID_JSON ||
                     error->code == ATP_ERROR_PAYLOAD_TOO_LARGE ||
                     error->code == ATP_ERROR_PROTOCOL);
      g_assert_true (g_utf8_validate (error->message, -1, NULL));
      return 0;
    }

  g_assert_nonnull (message->type_name);
  switch (message->type)
    {
    case ATP_MESSAGE_NOTIFICATION:
      g_assert_nonnull (message->notification);
      break;
    case ATP_MESSAGE_STATUS_UPDATE:
      g_assert_nonnull (message->status_update);
      break;
    case ATP_MESSAGE_HEARTBEAT:
      g_assert_nonnull (message->timestamp);
      break;
    case ATP_MESSAGE_ACKNOWLEDGE:
      g_assert_true (atp_is_uuid_v4 (message->notification_id));
      break;
    case ATP_MESSAGE_ERROR:
      {
        g_autoptr(GError) gerror = atp_error_info_to_gerror (message->error);

        g_assert_true (gerror->domain == ATP_ERROR);
      }
      break;
    case ATP_MESSAGE_HEARTBEAT_ACK:
    case ATP_MESSAGE_UNKNOWN:
    default:
      break;
    }

  first = atp_message_to_string (message, &length);
  again = atp_message_new_from_data (first, length, &error);
  if (again == NULL)
    {
      g_assert_true (g_error_matches (error, ATP_ERROR, ATP_ERROR_PAYLOAD_TOO_LARGE));
      return 0;
    }
  g_assert_cmpint (again->type, ==, message->type);
  second = atp_message_to_string (again, NULL);
  if (strcmp (first, second) != 0)
    fuzz_fail ("round trip changed the frame:\n%s\n%s", first, second);

  return 0;
}
