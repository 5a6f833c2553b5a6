/* triage-service-connect.c — a client for asking as a service, local or remote
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-service"

#include "triage-service.h"

#include <string.h>

#include "atp-local.h"

#define SERVICE_TIMEOUT_S 30

AtpClient *
triage_service_connect (const char  *server_url,
                        const char  *socket_path,
                        const char  *service_id,
                        const char  *service_name,
                        GError     **error)
{
  g_autoptr(AtpClient) client = NULL;

  g_return_val_if_fail (service_id != NULL, NULL);

  if (server_url != NULL)
    {
      g_autofree char *key = triage_service_lookup_key (server_url, error);

      if (key == NULL)
        return NULL;

      client = atp_client_new (server_url, error);
      if (client == NULL)
        {
          g_prefix_error (error, "--server: ");
          memset (key, 0, strlen (key));
          return NULL;
        }
      atp_client_set_token (client, key);
      memset (key, 0, strlen (key));
    }
  else
    {
      g_autofree char *path = socket_path != NULL ? g_strdup (socket_path)
                                                  : atp_local_socket_path ();

      client = atp_client_new_for_socket (path);
    }

  /* Over the trusted local socket the header names the service; a remote
   * server knows it from the key and ignores the header. */
  atp_client_set_service (client, service_id, service_name);
  atp_client_set_timeout (client, SERVICE_TIMEOUT_S);

  return g_steal_pointer (&client);
}

gboolean
triage_service_refuse_secrets (char   **argv,
                               GError **error)
{
  /* Secrets on the command line leak through ps and shell history. */
  for (guint i = 1; argv[i] != NULL; i++)
    {
      const char *arg = argv[i];

      if (g_str_equal (arg, "--"))
        break;
      if (g_str_has_prefix (arg, "--api-key") || g_str_has_prefix (arg, "--token") ||
          g_str_has_prefix (arg, "--key"))
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       "API keys are not taken from the command line (other users can read it "
                       "with ps, and it stays in shell history): set TRIAGE_API_KEY or store "
                       "the key in the keyring, e.g. secret-tool store --label='Triage key' "
                       "xdg:schema " TRIAGE_SERVICE_KEY_SCHEMA " server URL");
          return FALSE;
        }
    }

  return TRUE;
}
