/* test-notification.c — the notification object: base, seeds, unknown members, flags; the
 * rules, submissions and hostile input are in test-notification-*.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "notification-test-common.h"

static void
test_not_an_object (void)
{
  static const char * const inputs[] = { "[]", "null", "\"x\"", "42", "true" };

  for (guint i = 0; i < G_N_ELEMENTS (inputs); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(AtpNotification) notification = NULL;

      notification = atp_notification_new_from_data (inputs[i], -1, ATP_PARSE_DEFAULT, &error);
      g_assert_null (notification);
      atp_assert_error (error, ATP_ERROR_INVALID_REQUEST, "A notification must be a JSON object");
    }

  {
    g_autoptr(GError) error = NULL;
    g_autoptr(AtpNotification) notification = atp_notification_new_from_json (NULL, 0, &error);

    g_assert_null (notification);
    atp_assert_error (error, ATP_ERROR_INVALID_REQUEST, "got null");
  }
}

static void
test_base (void)
{
  g_autoptr(JsonNode) root = atp_test_load_json ("base-notification.json");
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpNotification) n = NULL;
  const AtpAction *a;
  const AtpAttachment *attachment;
  g_autofree char *text = NULL;

  n = atp_notification_new_from_json (root, ATP_PARSE_DEFAULT, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (n->actions->len, ==, 7);

  g_assert_cmpuint (n->context.attachments->len, ==, 2);
  attachment = g_ptr_array_index (n->context.attachments, 0);
  g_assert_cmpstr (attachment->uri, ==, "https://example.com/notes.txt");
  g_assert_null (attachment->data);
  g_assert_cmpuint (attachment->decoded_size, ==, 0);
  attachment = g_ptr_array_index (n->context.attachments, 1);
  g_assert_null (attachment->uri);
  g_assert_cmpstr (attachment->data, ==, "aGk=");
  g_assert_cmpuint (attachment->decoded_size, ==, 2);

  a = atp_notification_find_action (n, "a1");
  g_assert_cmpstr (a->true_label, ==, "Yes");
  g_assert_cmpstr (a->false_label, ==, "No");
  g_assert_null (a->options);
  g_assert_null (a->extra_options);

  a = atp_notification_find_action (n, "a2");
  g_assert_cmpuint (a->options->len, ==, 2);
  g_assert_cmpstr (((AtpOption *) g_ptr_array_index (a->options, 1))->value, ==, "y");
  g_assert_cmpint (a->min_selections, ==, 0);
  g_assert_cmpint (a->max_selections, ==, -1);

  a = atp_notification_find_action (n, "a3");
  g_assert_cmpint (a->min_selections, ==, 1);
  g_assert_cmpint (a->max_selections, ==, 2);

  a = atp_notification_find_action (n, "a4");
  g_assert_cmpint (a->min_length, ==, 2);
  g_assert_cmpint (a->max_length, ==, 5);

  a = atp_notification_find_action (n, "a5");
  g_assert_true (a->has_min && a->has_max && a->has_step);
  g_assert_cmpfloat (a->min, ==, 0.1);
  g_assert_cmpfloat (a->max, ==, 0.9);
  g_assert_cmpfloat (a->step, ==, 0.05);

  a = atp_notification_find_action (n, "a6");
  g_assert_true (a->has_min && a->has_max && a->has_step);
  g_assert_cmpfloat (a->min, ==, 1);
  g_assert_cmpfloat (a->max, ==, 9);
  g_assert_cmpfloat (a->step, ==, 2);

  g_assert_null (atp_notification_find_action (n, "a7"));
  g_assert_null (atp_notification_find_action (n, NULL));

  text = atp_test_assert_round_trip (n);
  /* Integral numbers stay integral, fractions stay exact. */
  g_assert_nonnull (strstr (text, "\"constraints\":{\"min\":1,\"max\":9,\"step\":2}"));
  g_assert_nonnull (strstr (text, "\"constraints\":{\"min\":0.1,\"max\":0.9,\"step\":0.05}"));
  g_assert_nonnull (strstr (text, "\"constraints\":{\"min_selections\":1,\"max_selections\":2}"));
}

static void
test_seed_notification (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpNotification) n = NULL;
  g_autoptr(GBytes) bytes = NULL;
  gsize length;
  g_autofree char *text = atp_test_load ("seed-002-notification.json", &length);
  g_autofree char *out = NULL;
  g_autofree char *timestamp = NULL;
  const AtpAttachment *attachment;
  const AtpAction *action;

  n = atp_notification_new_from_data (text, length, ATP_PARSE_DEFAULT, &error);
  g_assert_no_error (error);

  g_assert_cmpstr (n->id, ==, "550e8400-e29b-41d4-a716-446655440000");
  g_assert_cmpstr (n->version, ==, "1.0");
  timestamp = atp_format_timestamp (n->timestamp);
  g_assert_cmpstr (timestamp, ==, "2025-05-25T10:30:00Z");
  g_assert_nonnull (n->deadline);
  g_assert_cmpstr (n->service.id, ==, "lovelace-ide");
  g_assert_cmpstr (n->service.name, ==, "Lovelace IDE");
  g_assert_cmpstr (n->service.icon, ==, "https://lovelace.dev/icon.png");
  g_assert_cmpstr (n->context.title, ==, "Deploy to Production?");
  g_assert_cmpstr (n->context.project, ==, "backend-api");
  g_assert_cmpint (json_object_get_int_member (n->context.metadata, "changes"), ==, 47);
  g_assert_cmpint (n->status, ==, ATP_STATUS_CREATED);
  g_assert_null (n->response);

  attachment = g_ptr_array_index (n->context.attachments, 0);
  g_assert_cmpstr (attachment->type, ==, "text/plain");
  g_assert_cmpstr (attachment->description, ==, "Release notes");
  bytes = atp_attachment_decode (attachment, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_bytes_get_size (bytes), ==, attachment->decoded_size);
  g_assert_cmpmem (g_bytes_get_data (bytes, NULL), 15, "Version 2.1.0 i", 15);

  action = g_ptr_array_index (n->actions, 0);
  g_assert_cmpint (action->response_type, ==, ATP_RESPONSE_TYPE_SIMPLE);
  g_assert_cmpint (action->flags, ==, ATP_FLAG_IRREVERSIBLE);
  g_assert_true (atp_action_needs_confirmation (action));
  action = g_ptr_array_index (n->actions, 1);
  g_assert_cmpint (action->response_type, ==, ATP_RESPONSE_TYPE_TEXT);
  g_assert_cmpstr (action->placeholder, ==, "Reason for rejection");
  g_assert_false (atp_action_needs_confirmation (action));
  g_assert_cmpint (atp_notification_get_flags (n), ==, ATP_FLAG_IRREVERSIBLE);

  out = atp_test_assert_round_trip (n);
}

static const char * const seed_actions[] = {
  "simple", "binary", "choice", "multi_choice", "text", "number", "scale"
};

static void
test_seed_action (gconstpointer data)
{
  const char *type = data;
  g_autofree char *file = g_strdup_printf ("seed-000-action-%s.json", type);
  g_autoptr(JsonNode) action = atp_test_load_json (file);
  g_autoptr(JsonNode) answers = atp_test_load_json ("seed-000-answers.json");
  g_autoptr(JsonNode) root = atp_test_load_json ("base-notification.json");
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpNotification) n = NULL;
  g_autofree char *text = NULL;
  JsonArray *actions = json_array_new ();
  const AtpAction *parsed;
  AtpResponseType expected;

  json_array_add_element (actions, json_node_ref (action));
  json_object_set_array_member (json_node_get_object (root), "actions", actions);

  n = atp_notification_new_from_json (root, ATP_PARSE_DEFAULT, &error);
  g_assert_no_error (error);
  parsed = g_ptr_array_index (n->actions, 0);
  g_assert_true (atp_response_type_from_string (type, &expected));
  g_assert_cmpint (parsed->response_type, ==, expected);

  /* The seed's example answer is valid. */
  atp_action_validate_response (parsed,
                                json_object_get_member (json_node_get_object (answers), parsed->id),
                                &error);
  g_assert_no_error (error);

  text = atp_test_assert_round_trip (n);

  /* The action written back equals the seed's action, member for member. */
  {
    g_autoptr(JsonNode) out = atp_notification_to_json (n);
    JsonNode *written = json_array_get_element (json_object_get_array_member (json_node_get_object (out), "actions"), 0);

    if (g_str_equal (type, "scale"))
      {
        /* step 1 is the default and not written back */
        json_object_set_int_member (json_object_get_object_member (json_node_get_object (written), "constraints"), "step", 1);
      }
    g_assert_true (atp_json_node_equal (written, action));
  }
}

static void
test_seed_action_details (void)
{
  g_autoptr(JsonNode) root = atp_test_load_json ("base-notification.json");
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpNotification) n = NULL;
  JsonArray *actions = json_array_new ();
  const AtpAction *a;

  for (guint i = 0; i < G_N_ELEMENTS (seed_actions); i++)
    {
      g_autofree char *file = g_strdup_printf ("seed-000-action-%s.json", seed_actions[i]);

      json_array_add_element (actions, atp_test_load_json (file));
    }
  json_object_set_array_member (json_node_get_object (root), "actions", actions);
  n = atp_notification_new_from_json (root, ATP_PARSE_DEFAULT, &error);
  g_assert_no_error (error);

  a = atp_notification_find_action (n, "include_logs");
  g_assert_cmpstr (a->true_label, ==, "Yes, include logs");
  g_assert_cmpstr (a->false_label, ==, "No, skip logs");
  a = atp_notification_find_action (n, "select_priority");
  g_assert_cmpuint (a->options->len, ==, 4);
  g_assert_cmpstr (((AtpOption *) g_ptr_array_index (a->options, 3))->label, ==, "Low - Minor issue");
  a = atp_notification_find_action (n, "select_recipients");
  g_assert_cmpint (a->min_selections, ==, 1);
  g_assert_cmpint (a->max_selections, ==, 3);
  g_assert_cmpint (a->flags, ==, ATP_FLAG_AFFECTS_OTHERS);
  a = atp_notification_find_action (n, "feedback");
  g_assert_cmpint (a->min_length, ==, 10);
  g_assert_cmpint (a->max_length, ==, 1000);
  g_assert_cmpstr (a->placeholder, ==, "What would you change about this suggestion?");
  a = atp_notification_find_action (n, "set_threshold");
  g_assert_cmpstr (a->unit, ==, "confidence");
  g_assert_cmpstr (a->placeholder, ==, "Enter value between 0.1 and 0.9");
  a = atp_notification_find_action (n, "confidence_rating");
  g_assert_cmpstr (a->min_label, ==, "Not confident at all");
  g_assert_cmpstr (a->max_label, ==, "Extremely confident");
  g_assert_cmpfloat (a->step, ==, 1);
  g_assert_cmpint (atp_notification_get_flags (n), ==, ATP_FLAG_IRREVERSIBLE | ATP_FLAG_AFFECTS_OTHERS);
}

/* A read of a withdrawn request says why (`reason`, as its status update
 * did): kept through a copy and written again; not a string is refused. */
static void
test_reason (void)
{
  g_autoptr(JsonNode) root = atp_test_load_json ("base-notification.json");
  JsonObject *object = json_node_get_object (root);
  g_autoptr(AtpNotification) n = NULL, copy = NULL, wrong = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  n = atp_notification_new_from_json (root, ATP_PARSE_DEFAULT, &error);
  g_assert_no_error (error);
  g_assert_null (n->reason);
  g_clear_pointer (&n, atp_notification_unref);

  json_object_set_string_member (object, "status", "invalidated");
  json_object_set_string_member (object, "reason", "Rolled back instead");
  n = atp_notification_new_from_json (root, ATP_PARSE_DEFAULT, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (n->reason, ==, "Rolled back instead");
  g_assert_null (n->extra);
  copy = atp_notification_copy_with (n, NULL, NULL, NULL, NULL, NULL, -1);
  g_assert_cmpstr (copy->reason, ==, "Rolled back instead");
  text = atp_test_assert_round_trip (n);
  g_assert_nonnull (strstr (text, "\"reason\":\"Rolled back instead\""));

  json_object_set_int_member (object, "reason", 7);
  wrong = atp_notification_new_from_json (root, ATP_PARSE_DEFAULT, &error);
  g_assert_null (wrong);
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "reason"));
}

static void
test_unknown_members (void)
{
  g_autoptr(JsonNode) root = atp_test_load_json ("base-notification.json");
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpNotification) n = NULL;
  g_autofree char *text = NULL;
  const AtpAction *a;

  atp_test_patch (root, "x_top", "{\"nested\": [1, 2.5, \"s\"]}");
  atp_test_patch (root, "service.x_service", "true");
  atp_test_patch (root, "context.x_context", "\"c\"");
  atp_test_patch (root, "context.attachments[0].x_attachment", "1");
  atp_test_patch (root, "actions[0].x_action", "null");
  atp_test_patch (root, "actions[0].options", "[\"meaningless for simple\"]");
  atp_test_patch (root, "actions[0].constraints", "{\"whatever\": 1}");
  atp_test_patch (root, "actions[1].options.x_options", "\"o\"");
  atp_test_patch (root, "actions[2].options[0].description", "\"An option description\"");
  atp_test_patch (root, "actions[3].constraints.x_constraint", "[]");
  atp_test_patch (root, "actions[4].options", "{}");

  n = atp_notification_new_from_json (root, ATP_PARSE_DEFAULT, &error);
  g_assert_no_error (error);

  g_assert_true (json_object_has_member (n->extra, "x_top"));
  g_assert_cmpuint (json_object_get_size (n->extra), ==, 1);
  g_assert_true (json_object_has_member (n->service.extra, "x_service"));
  g_assert_true (json_object_has_member (n->context.extra, "x_context"));
  g_assert_true (json_object_has_member (((AtpAttachment *) g_ptr_array_index (n->context.attachments, 0))->extra,
                                         "x_attachment"));
  a = g_ptr_array_index (n->actions, 0);
  g_assert_true (json_object_has_member (a->extra, "x_action"));
  g_assert_true (json_object_has_member (a->extra, "options"));
  g_assert_true (json_object_has_member (a->extra_constraints, "whatever"));
  a = g_ptr_array_index (n->actions, 1);
  g_assert_true (json_object_has_member (a->extra_options, "x_options"));
  a = g_ptr_array_index (n->actions, 2);
  g_assert_true (json_object_has_member (((AtpOption *) g_ptr_array_index (a->options, 0))->extra, "description"));
  a = g_ptr_array_index (n->actions, 3);
  g_assert_true (json_object_has_member (a->extra_constraints, "x_constraint"));
  g_assert_false (json_object_has_member (a->extra_constraints, "min_selections"));
  a = g_ptr_array_index (n->actions, 4);
  g_assert_true (json_object_has_member (a->extra, "options"));

  text = atp_test_assert_round_trip (n);
  g_assert_nonnull (strstr (text, "\"x_top\":{\"nested\":[1,2.5,\"s\"]}"));
  g_assert_nonnull (strstr (text, "\"x_service\":true"));
  g_assert_nonnull (strstr (text, "\"x_context\":\"c\""));
  g_assert_nonnull (strstr (text, "\"x_attachment\":1"));
  g_assert_nonnull (strstr (text, "\"x_action\":null"));
  g_assert_nonnull (strstr (text, "\"options\":[\"meaningless for simple\"]"));
  g_assert_nonnull (strstr (text, "\"constraints\":{\"whatever\":1}"));
  g_assert_nonnull (strstr (text, "\"false_label\":\"No\",\"x_options\":\"o\""));
  g_assert_nonnull (strstr (text, "{\"value\":\"x\",\"label\":\"X\",\"description\":\"An option description\"}"));
  g_assert_nonnull (strstr (text, "\"max_selections\":2,\"x_constraint\":[]"));

  /* Every member of the input survives: the output equals the input as JSON. */
  {
    g_autoptr(JsonNode) out = atp_notification_to_json (n);

    g_assert_true (atp_json_node_equal (out, root));
  }
}

static void
test_flags (void)
{
  g_autoptr(JsonNode) root = atp_test_load_json ("base-notification.json");
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpNotification) n = NULL;
  const AtpAction *a;

  atp_test_patch (root, "actions[0].flags", "[\"costly\", \"self_destruct\", \"destructive\"]");
  atp_test_patch (root, "actions[1].flags", "[\"requires_confirmation\"]");
  atp_test_patch (root, "actions[2].flags", "[\"time_sensitive\", \"experimental\"]");
  n = atp_notification_new_from_json (root, ATP_PARSE_DEFAULT, &error);
  g_assert_no_error (error);

  a = g_ptr_array_index (n->actions, 0);
  g_assert_cmpint (a->flags, ==, ATP_FLAG_COSTLY | ATP_FLAG_DESTRUCTIVE);
  g_assert_cmpuint (g_strv_length (a->flag_names), ==, 3);
  g_assert_cmpstr (a->flag_names[1], ==, "self_destruct");
  g_assert_true (atp_action_needs_confirmation (a));
  a = g_ptr_array_index (n->actions, 1);
  g_assert_true (atp_action_needs_confirmation (a));
  a = g_ptr_array_index (n->actions, 2);
  g_assert_false (atp_action_needs_confirmation (a));
  a = g_ptr_array_index (n->actions, 3);
  g_assert_nonnull (a->flag_names);
  g_assert_null (a->flag_names[0]);
  g_assert_cmpint (atp_notification_get_flags (n), ==,
                   ATP_FLAG_COSTLY | ATP_FLAG_DESTRUCTIVE | ATP_FLAG_REQUIRES_CONFIRMATION |
                   ATP_FLAG_TIME_SENSITIVE | ATP_FLAG_EXPERIMENTAL);
}

static void
test_normalization (void)
{
  g_autoptr(JsonNode) root = atp_test_load_json ("base-notification.json");
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpNotification) n = NULL;
  g_autofree char *text = NULL;

  atp_test_patch (root, "id", "\"7D444840-9DC0-41F4-A0B4-8F2B2D3C5E6A\"");
  atp_test_patch (root, "timestamp", "\"2025-05-25T12:30:00.250+02:00\"");
  atp_test_patch (root, "deadline", "\"2025-05-25T06:00:00-05:00\"");
  atp_test_patch (root, "actions[5].constraints.min", "1.0");
  atp_test_patch (root, "actions[5].constraints.max", "2E1");
  n = atp_notification_new_from_json (root, ATP_PARSE_DEFAULT, &error);
  g_assert_no_error (error);

  g_assert_cmpstr (n->id, ==, "7d444840-9dc0-41f4-a0b4-8f2b2d3c5e6a");
  text = atp_test_assert_round_trip (n);
  g_assert_nonnull (strstr (text, "\"timestamp\":\"2025-05-25T10:30:00.250000Z\""));
  g_assert_nonnull (strstr (text, "\"deadline\":\"2025-05-25T11:00:00Z\""));
  g_assert_nonnull (strstr (text, "\"min\":1,\"max\":20,\"step\":0.05"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  notification_test_add_rules ();

  g_test_add_func ("/atp/notification/not-an-object", test_not_an_object);
  g_test_add_func ("/atp/notification/base", test_base);
  g_test_add_func ("/atp/notification/seed-002", test_seed_notification);
  for (guint i = 0; i < G_N_ELEMENTS (seed_actions); i++)
    {
      g_autofree char *path = g_strdup_printf ("/atp/notification/seed-000/%s", seed_actions[i]);

      g_test_add_data_func (path, seed_actions[i], test_seed_action);
    }
  g_test_add_func ("/atp/notification/seed-000/details", test_seed_action_details);
  g_test_add_func ("/atp/notification/reason", test_reason);
  g_test_add_func ("/atp/notification/unknown-members", test_unknown_members);
  g_test_add_func ("/atp/notification/flags", test_flags);
  g_test_add_func ("/atp/notification/normalization", test_normalization);
  notification_test_add_submission ();
  notification_test_add_hostile ();

  return g_test_run ();
}
