/* triage-server-admin.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The admin endpoints: registering services and users. */

#define G_LOG_DOMAIN "triage-server-admin"

#include <string.h>
#include <gio/gio.h>

#include "triage-server-private.h"

/* A bidirectional embedding, override or isolate, or a left-to-right or
 * right-to-left mark: a name needs no mark, and one would turn the sentence
 * around the name wherever it is shown. (The app hides only the first kind:
 * it puts a U+200E after a right-to-left text itself.) */
static gboolean
is_bidi_control (gunichar c)
{
  return atp_unichar_is_bidi_override (c) || c == 0x200e || c == 0x200f;
}

/* A service's name is what people see as its requests' sender (and what
 * the admin picks it by), a user's what people see of a colleague: one that
 * shows as nothing, holds a line break or another control, or turns the
 * text around it ("evil\u202egnp.exe" reads "evilexe.png") would pass for
 * something else. NULL when @name may be used, else what is wrong with it. */
static char *
check_shown_name (const char *name)
{
  glong at = 1, length;

  if (atp_str_is_blank (name))
    return g_strdup ("name must show something (not only spaces, zero-width or other invisible "
                     "characters)");
  if ((length = g_utf8_strlen (name, -1)) > TRIAGE_MAX_KEY_CHARS)
    return g_strdup_printf ("name must be at most %d characters: it has %ld",
                            TRIAGE_MAX_KEY_CHARS, length);
  for (const char *p = name; *p != '\0'; p = g_utf8_next_char (p), at++)
    {
      gunichar c = g_utf8_get_char (p);

      if (g_unichar_type (c) == G_UNICODE_CONTROL)
        return g_strdup_printf ("name must not contain control characters (a line break, a tab, "
                                "U+0000–U+001F, U+007F–U+009F): it has U+%04X at character %ld",
                                c, at);
      if (is_bidi_control (c))
        return g_strdup_printf ("name must not contain bidirectional controls (U+202A–U+202E, "
                                "U+2066–U+2069, U+200E, U+200F), which change how the text "
                                "around them reads: it has U+%04X at character %ld", c, at);
    }
  return NULL;
}

void
handle_create_service (TriageServer      *self,
                       SoupServerMessage *msg)
{
  g_autoptr(JsonNode) root = parse_body (msg);
  JsonObject *object;
  const char *name, *description, *callback_url, *secret;
  g_autoptr(GPtrArray) recipients = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *id = NULL, *key = NULL, *key_hash = NULL, *secret_copy = NULL;
  g_autofree char *name_problem = NULL;
  g_autoptr(JsonObject) answer = NULL;
  g_autoptr(TriageServiceRow) existing = NULL;
  g_autoptr(GError) error = NULL;
  TriageStoreInsert inserted;
  gboolean failed = FALSE;
  JsonNode *node;

  if (root == NULL)
    return;
  object = json_node_get_object (root);
  name = get_string (msg, object, "name", TRUE, &failed);
  if (failed)
    return;
  if ((name_problem = check_shown_name (name)) != NULL)
    {
      reply_error_field (msg, ATP_ERROR_INVALID_FIELD_VALUE, name_problem, "name");
      return;
    }
  description = get_string (msg, object, "description", FALSE, &failed);
  if (failed)
    return;
  callback_url = get_string_or (msg, object, "callback_url", FALSE, ATP_ERROR_INVALID_CALLBACK_URL,
                                &failed);
  if (failed)
    return;
  secret = get_string (msg, object, "webhook_secret", FALSE, &failed);
  if (failed)
    return;
  /* An empty key signs nothing: anyone can make its HMAC. */
  if (secret != NULL && *secret == '\0')
    {
      reply_error_field (msg, ATP_ERROR_INVALID_FIELD_VALUE,
                         "webhook_secret must not be empty (it keys the webhooks' signatures); "
                         "leave it out to be given one", "webhook_secret");
      return;
    }
  if (callback_url != NULL)
    {
      g_autoptr(GUri) uri = triage_server_parse_callback_url (callback_url, &error);

      if (uri == NULL)
        {
          reply_error_field (msg, error->code, error->message, "callback_url");
          return;
        }
    }
  node = json_object_get_member (object, "recipients");
  if (node != NULL && !JSON_NODE_HOLDS_NULL (node))
    {
      JsonArray *array = JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;

      if (array == NULL || json_array_get_length (array) == 0)
        {
          reply_error_field (msg, ATP_ERROR_INVALID_FIELD_VALUE,
                             "recipients must be a non-empty array of user ids", "recipients");
          return;
        }
      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          JsonNode *item = json_array_get_element (array, i);
          const char *user;
          gboolean exists;

          if (!JSON_NODE_HOLDS_VALUE (item) || json_node_get_value_type (item) != G_TYPE_STRING)
            {
              reply_error_field (msg, ATP_ERROR_INVALID_FIELD_VALUE,
                                 "recipients must be user ids (strings)", "recipients");
              return;
            }
          user = json_node_get_string (item);
          exists = triage_store_user_exists (self->store, user, &error);
          if (error != NULL)
            {
              reply_unanswered (msg, "a recipient", "Cannot check the recipients now (the "
                                "server's database did not answer); nothing was changed, try "
                                "again later", error);
              return;
            }
          if (!exists)
            {
              g_autofree char *message = g_strdup_printf ("Unknown recipient user '%s'", user);

              reply_error_field (msg, ATP_ERROR_INVALID_FIELD_VALUE, message, "recipients");
              return;
            }
          g_ptr_array_add (recipients, g_strdup (user));
        }
    }
  else
    g_ptr_array_add (recipients, g_strdup (TRIAGE_DEFAULT_USER));
  g_ptr_array_add (recipients, NULL);

  existing = triage_store_service_by_name (self->store, name, &error);
  if (error != NULL)
    {
      reply_unanswered (msg, "a service's name", "Cannot check the service's name now (the "
                        "server's database did not answer); nothing was changed, try again "
                        "later", error);
      return;
    }
  if (existing != NULL)
    {
      reply_error (msg, ATP_ERROR_SERVICE_ALREADY_EXISTS, "A service with this name already exists");
      return;
    }
  id = atp_new_uuid ();
  key = triage_random_token ("sk_");
  key_hash = triage_hash_token (key);
  secret_copy = secret ? g_strdup (secret) : triage_random_token ("whsec_");
  inserted = triage_store_add_service (self->store, id, name, description, callback_url,
                                       secret_copy, key_hash,
                                       (const char * const *) recipients->pdata);
  if (inserted == TRIAGE_STORE_INSERT_EXISTS)
    {
      reply_error (msg, ATP_ERROR_SERVICE_ALREADY_EXISTS, "A service with this name already exists");
      return;
    }
  if (inserted != TRIAGE_STORE_INSERTED)
    {
      reply_error (msg, ATP_ERROR_STORAGE_UNAVAILABLE,
                   "Cannot store the service now (the server's database did not take it); "
                   "nothing was changed, try again later");
      return;
    }
  answer = json_object_new ();
  json_object_set_string_member (answer, "service_id", id);
  json_object_set_string_member (answer, "api_key", key);
  json_object_set_string_member (answer, "webhook_secret", secret_copy);
  reply_text (msg, 201, object_to_string (answer));
}

static gboolean
valid_user_id (const char *id)
{
  gsize len = strlen (id);

  if (len == 0 || len > 64)
    return FALSE;
  for (const char *p = id; *p; p++)
    if (!g_ascii_isalnum (*p) && *p != '-' && *p != '_' && *p != '.' && *p != '@')
      return FALSE;
  return TRUE;
}

void
handle_create_user (TriageServer      *self,
                    SoupServerMessage *msg)
{
  g_autoptr(JsonNode) root = parse_body (msg);
  const char *id, *name;
  g_autofree char *token = NULL, *hash = NULL, *name_problem = NULL;
  g_autoptr(JsonObject) answer = NULL;
  TriageStoreInsert inserted;
  gboolean failed = FALSE;

  if (root == NULL)
    return;
  id = get_string (msg, json_node_get_object (root), "id", TRUE, &failed);
  if (failed)
    return;
  name = get_string (msg, json_node_get_object (root), "name", FALSE, &failed);
  if (failed)
    return;
  if (!valid_user_id (id))
    {
      reply_error_field (msg, ATP_ERROR_INVALID_FIELD_VALUE,
                         "id must be 1-64 characters of letters, digits, '-', '_', '.', '@'", "id");
      return;
    }
  if (name != NULL && (name_problem = check_shown_name (name)) != NULL)
    {
      reply_error_field (msg, ATP_ERROR_INVALID_FIELD_VALUE, name_problem, "name");
      return;
    }
  token = triage_random_token ("ut_");
  hash = triage_hash_token (token);
  /* No look first: the insert says whether the id is taken. */
  inserted = triage_store_add_user (self->store, id, name, hash);
  if (inserted == TRIAGE_STORE_INSERT_EXISTS)
    {
      reply_error (msg, ATP_ERROR_USER_ALREADY_EXISTS, "A user with this id already exists");
      return;
    }
  if (inserted != TRIAGE_STORE_INSERTED)
    {
      reply_error (msg, ATP_ERROR_STORAGE_UNAVAILABLE,
                   "Cannot store the user now (the server's database did not take it); "
                   "nothing was changed, try again later");
      return;
    }
  answer = json_object_new ();
  json_object_set_string_member (answer, "user_id", id);
  json_object_set_string_member (answer, "token", token);
  reply_text (msg, 201, object_to_string (answer));
}
