/* triage-service-key.c — the service key for a remote server
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-service"

#include "triage-service.h"

#include <string.h>
#include <libsecret/secret.h>

/*
 * The service key for a remote server: TRIAGE_API_KEY, else the Secret
 * Service. A locked keyring prompts; where nobody sees the prompt libsecret
 * would wait forever, so the lookup is bounded.
 */

#define KEYRING_TIMEOUT_S 10

/* Items stored by hand with secret-tool have no xdg:schema: match on the attribute only. */
static const SecretSchema service_key_schema = {
  TRIAGE_SERVICE_KEY_SCHEMA, SECRET_SCHEMA_DONT_MATCH_NAME,
  {
    { "server", SECRET_SCHEMA_ATTRIBUTE_STRING },
    { NULL, 0 },
  }
};

typedef struct
{
  GMainLoop *loop;
  char      *password;
  GError    *error;
  gboolean   timed_out;
} Lookup;

static void
lookup_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  Lookup *lookup = user_data;

  lookup->password = secret_password_lookup_finish (result, &lookup->error);
  g_main_loop_quit (lookup->loop);
}

static gboolean
lookup_timeout_cb (gpointer user_data)
{
  GCancellable *cancellable = user_data;

  g_cancellable_cancel (cancellable);
  return G_SOURCE_REMOVE;
}

char *
triage_service_lookup_key (const char  *server_url,
                       GError     **error)
{
  g_autoptr(GMainContext) context = g_main_context_new ();
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GSource) timeout = NULL;
  Lookup lookup = { 0 };
  const char *env = g_getenv ("TRIAGE_API_KEY");
  char *key;

  if (env != NULL && *env != '\0')
    return g_strdup (env);

  g_main_context_push_thread_default (context);

  lookup.loop = g_main_loop_new (context, FALSE);
  timeout = g_timeout_source_new_seconds (KEYRING_TIMEOUT_S);
  g_source_set_callback (timeout, lookup_timeout_cb, cancellable, NULL);
  g_source_attach (timeout, context);

  secret_password_lookup (&service_key_schema, cancellable, lookup_cb, &lookup,
                          "server", server_url, NULL);
  g_main_loop_run (lookup.loop);

  g_source_destroy (timeout);
  g_main_loop_unref (lookup.loop);
  g_main_context_pop_thread_default (context);

  if (lookup.error != NULL)
    {
      if (g_error_matches (lookup.error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
                     "no API key for %s: TRIAGE_API_KEY is not set and the keyring did not "
                     "answer within %d s (locked?)", server_url, KEYRING_TIMEOUT_S);
      else
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                     "no API key for %s: TRIAGE_API_KEY is not set and the keyring could not be "
                     "read: %s", server_url, lookup.error->message);
      g_error_free (lookup.error);
      return NULL;
    }

  if (lookup.password == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   "no API key for %s: set TRIAGE_API_KEY, or store the key in the keyring: "
                   "secret-tool store --label='Triage service key' xdg:schema "
                   TRIAGE_SERVICE_KEY_SCHEMA " server %s", server_url, server_url);
      return NULL;
    }

  key = g_strdup (lookup.password);
  secret_password_free (lookup.password);
  return key;
}
