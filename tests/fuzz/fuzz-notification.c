/* fuzz-notification.c — libFuzzer target: JSON text → notification → answers → text → notification
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Besides crashes, leaks and undefined behaviour, it aborts when an invariant
 * breaks: the pre-scan accepts what yajl or json-glib refuses, the tree yajl's
 * events build differs from json-glib's JsonParser's, an error message is not
 * UTF-8, an answer that must be valid is refused, or a round trip changes the
 * notification.
 */

#define G_LOG_DOMAIN "fuzz-notification"

#include <math.h>
#include <string.h>

#include "atp.h"
#include "fuzz-common.h"

static void
check_error (const GError *error)
{
  g_assert_nonnull (error);
  g_assert_true (error->domain == ATP_ERROR);
  g_assert_true (g_utf8_validate (error->message, -1, NULL));
  /* yajl refusing what the pre-scan let through means the two disagree. */
  g_assert_false (g_str_has_prefix (error->message, "Invalid JSON: "));
}

static JsonNode *
parse_literal (const char *text)
{
  g_autoptr(GError) error = NULL;
  JsonNode *node = atp_json_parse (text, -1, 0, &error);

  g_assert_no_error (error);
  return node;
}

/* Tries the answer; when @must_pass, a refusal is a bug. */
static void
try_answer (const AtpAction *action,
            JsonNode        *answer,
            gboolean         must_pass)
{
  g_autoptr(GError) error = NULL;
  gboolean ok = atp_action_validate_response (action, answer, &error);

  if (ok)
    {
      g_assert_no_error (error);
      return;
    }

  check_error (error);
  g_assert_true (error->code == ATP_ERROR_INVALID_RESPONSE_DATA ||
                 error->code == ATP_ERROR_CONSTRAINT_VIOLATION);
  g_assert_true (g_str_has_prefix (error->message, "response_data"));
  if (must_pass)
    fuzz_fail ("valid answer refused for action \"%s\": %s", action->id, error->message);
}

static void
try_number (const AtpAction *action,
            double           value,
            gboolean         must_pass)
{
  JsonNode *node = json_node_alloc ();

  json_node_init_double (node, value);
  try_answer (action, node, must_pass);
  json_node_unref (node);
}

static void
exercise_action (const AtpAction *action)
{
  static const char * const generic[] = {
    "null", "true", "false", "\"x\"", "\"\"", "0", "-1", "1.5", "[]", "[\"x\"]", "{}",
    "[\"x\", \"x\"]", "9007199254740993", "-0.0", "1e300"
  };

  /* Every kind of JSON value: never a crash, always a proper error. */
  for (guint i = 0; i < G_N_ELEMENTS (generic); i++)
    {
      g_autoptr(JsonNode) node = parse_literal (generic[i]);

      try_answer (action, node, FALSE);
    }
  try_answer (action, NULL, action->response_type == ATP_RESPONSE_TYPE_SIMPLE);

  switch (action->response_type)
    {
    case ATP_RESPONSE_TYPE_BINARY:
      {
        g_autoptr(JsonNode) yes = parse_literal ("true");

        try_answer (action, yes, TRUE);
      }
      break;

    case ATP_RESPONSE_TYPE_CHOICE:
    case ATP_RESPONSE_TYPE_MULTI_CHOICE:
      {
        gboolean multi = action->response_type == ATP_RESPONSE_TYPE_MULTI_CHOICE;
        JsonArray *array = json_array_new ();
        g_autoptr(JsonNode) all = json_node_alloc ();

        for (guint i = 0; i < action->options->len; i++)
          {
            const AtpOption *option = g_ptr_array_index (action->options, i);
            g_autoptr(JsonNode) one = json_node_init_string (json_node_alloc (), option->value);

            try_answer (action, one, !multi);
            json_array_add_string_element (array, option->value);

            if (multi)
              {
                /* The first n options, for every n: valid exactly within the bounds. */
                g_autoptr(JsonNode) prefix = json_node_alloc ();
                gint64 n = i + 1;
                gboolean in_bounds = n >= action->min_selections &&
                                     (action->max_selections < 0 || n <= action->max_selections);

                json_node_init_array (prefix, array);
                try_answer (action, prefix, in_bounds);
              }
          }
        json_node_init_array (all, array);
        try_answer (action, all, FALSE);
        json_array_unref (array);
      }
      break;

    case ATP_RESPONSE_TYPE_TEXT:
      {
        gint64 n = MIN (action->min_length, 4096);
        g_autofree char *text = g_malloc (n * 2 + 1);
        g_autoptr(JsonNode) node = NULL;

        /* n two-byte characters: lengths count characters, not bytes. */
        for (gint64 i = 0; i < n; i++)
          memcpy (text + i * 2, "\xc3\xa9", 2);
        text[n * 2] = '\0';
        node = json_node_init_string (json_node_alloc (), text);
        try_answer (action, node, n == action->min_length &&
                                  (action->max_length < 0 || n <= action->max_length));
      }
      break;

    case ATP_RESPONSE_TYPE_NUMBER:
      if (action->has_min)
        try_number (action, action->min, TRUE);
      if (action->has_max)
        try_number (action, action->max, !action->has_step && (!action->has_min || action->min <= action->max));
      if (action->has_min && action->has_step && action->min + action->step <= action->max)
        try_number (action, action->min + action->step, FALSE);
      if (!action->has_min && !action->has_max)
        try_number (action, action->has_step ? 3 * action->step : 0.5, action->step < 1e300);
      try_number (action, 0, FALSE);
      break;

    case ATP_RESPONSE_TYPE_SCALE:
      try_number (action, action->min, TRUE);
      /* Scale bounds are integers up to 2^53: exact in int64, not as a double difference. */
      try_number (action, action->max,
                  ((gint64) action->max - (gint64) action->min) % (gint64) action->step == 0);
      /* Exact integer arithmetic only up to 2^53. */
      try_number (action, action->min + action->step,
                  action->min + action->step <= action->max && fabs (action->min) + action->step <= 9007199254740992.0);
      try_number (action, action->min - 1, FALSE);
      try_number (action, (action->min + action->max) / 2, FALSE);
      break;

    case ATP_RESPONSE_TYPE_SIMPLE:
    default:
      break;
    }

  (void) atp_action_needs_confirmation (action);
}

static void
round_trip (AtpNotification *notification,
            AtpParseFlags    flags)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpNotification) again = NULL;
  g_autoptr(JsonNode) a = NULL;
  g_autoptr(JsonNode) b = NULL;
  g_autofree char *first = NULL;
  g_autofree char *second = NULL;
  gsize length;

  first = atp_notification_to_string (notification, &length);
  g_assert_true (g_utf8_validate (first, length, NULL));
  again = atp_notification_new_from_data (first, length, flags, &error);
  if (again == NULL)
    {
      /* The output may only outgrow the limit (times gain digits, "1.0" → …). */
      g_assert_true (g_error_matches (error, ATP_ERROR, ATP_ERROR_PAYLOAD_TOO_LARGE));
      return;
    }

  second = atp_notification_to_string (again, NULL);
  if (strcmp (first, second) != 0)
    fuzz_fail ("round trip changed the text:\n%s\n%s", first, second);

  a = atp_notification_to_json (notification);
  b = atp_notification_to_json (again);
  g_assert_true (atp_json_node_equal (a, b));
}

static void
exercise (const char    *text,
          gsize          length,
          AtpParseFlags  flags)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpNotification) notification = NULL;

  notification = atp_notification_new_from_data (text, length, flags, &error);
  if (notification == NULL)
    {
      check_error (error);
      return;
    }
  g_assert_no_error (error);

  /* The envelope: ATP has actions and no payload, the others a payload object and no actions. */
  if (notification->protocol == ATP_PROTOCOL_ATP)
    g_assert_true (notification->payload == NULL && notification->actions->len > 0);
  else
    g_assert_true (notification->payload != NULL && JSON_NODE_HOLDS_OBJECT (notification->payload) &&
                   notification->actions->len == 0);

  for (guint i = 0; i < notification->actions->len; i++)
    {
      const AtpAction *action = g_ptr_array_index (notification->actions, i);

      g_assert_true (atp_notification_find_action (notification, action->id) != NULL);
      exercise_action (action);
    }
  (void) atp_notification_get_flags (notification);

  for (guint i = 0; i < notification->context.attachments->len; i++)
    {
      const AtpAttachment *attachment = g_ptr_array_index (notification->context.attachments, i);
      g_autoptr(GError) decode_error = NULL;
      g_autoptr(GBytes) bytes = atp_attachment_decode (attachment, &decode_error);

      if (attachment->data != NULL)
        g_assert_cmpuint (g_bytes_get_size (bytes), ==, attachment->decoded_size);
      else
        g_assert_null (bytes);
    }

  round_trip (notification, flags);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  const char *text = (const char *) data;

  /* Generic JSON: whatever parses writes back and parses equal. */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(JsonNode) root = atp_json_parse (text, size, 0, &error);

    if (root == NULL)
      {
        check_error (error);
      }
    else
      {
        gsize length;
        g_autofree char *out = atp_json_to_string (root, &length);
        g_autoptr(JsonNode) again = atp_json_parse (out, length, 0, &error);
        g_autoptr(JsonParser) parser = json_parser_new ();
        g_autofree char *out2 = NULL, *theirs = NULL;

        g_assert_no_error (error);
        /* The tree yajl's events built is JsonParser's: written out, a
         * double stays "1.0" and an int "1", so the texts say it all. */
        g_assert_true (json_parser_load_from_data (parser, text, (gssize) size, NULL));
        theirs = atp_json_to_string (json_parser_get_root (parser), NULL);
        g_assert_cmpstr (out, ==, theirs);
        g_assert_true (atp_json_node_equal (root, again));
        out2 = atp_json_to_string (again, NULL);
        g_assert_cmpstr (out, ==, out2);
      }
  }

  exercise (text, size, ATP_PARSE_DEFAULT);
  exercise (text, size, ATP_PARSE_SUBMISSION);
  return 0;
}
