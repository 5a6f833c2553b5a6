/* triage-service-json.c — reading the JSON an agent sends, leniently typed
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-service"

#include "triage-service.h"

const char *
triage_service_string_member (JsonObject *object,
                              const char *name)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, name) : NULL;

  return node != NULL && JSON_NODE_HOLDS_VALUE (node) &&
         json_node_get_value_type (node) == G_TYPE_STRING ? json_node_get_string (node) : NULL;
}
