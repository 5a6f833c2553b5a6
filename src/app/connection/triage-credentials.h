/* triage-credentials.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define TRIAGE_CREDENTIALS_ERROR (triage_credentials_error_quark ())

/**
 * TriageCredentialsError:
 * @TRIAGE_CREDENTIALS_ERROR_TIMED_OUT: the keyring did not answer in time (locked
 *   and waiting for a password prompt nobody sees, or hung)
 * @TRIAGE_CREDENTIALS_ERROR_UNAVAILABLE: there is no keyring (Secret Service) in this session
 * @TRIAGE_CREDENTIALS_ERROR_LOCKED: the keyring is locked and was not unlocked
 * @TRIAGE_CREDENTIALS_ERROR_FAILED: the keyring failed otherwise
 * @TRIAGE_CREDENTIALS_ERROR_UNSENDABLE: the token (typed, or the one stored)
 *   holds a space, a line break or another control character, which no
 *   request can carry, or nothing but white space (atp_token_check ())
 */
typedef enum
{
  TRIAGE_CREDENTIALS_ERROR_TIMED_OUT,
  TRIAGE_CREDENTIALS_ERROR_UNAVAILABLE,
  TRIAGE_CREDENTIALS_ERROR_LOCKED,
  TRIAGE_CREDENTIALS_ERROR_FAILED,
  TRIAGE_CREDENTIALS_ERROR_UNSENDABLE,
} TriageCredentialsError;

/* How long a keyring call may take before it is given up, by default. */
#define TRIAGE_CREDENTIALS_DEFAULT_TIMEOUT_MS 10000

#define TRIAGE_TYPE_CREDENTIALS (triage_credentials_get_type ())

G_DECLARE_FINAL_TYPE (TriageCredentials, triage_credentials, TRIAGE, CREDENTIALS, GObject)

GQuark             triage_credentials_error_quark     (void);

TriageCredentials *triage_credentials_new             (void);
TriageCredentials *triage_credentials_new_in_memory   (void);
gboolean           triage_credentials_is_in_memory    (TriageCredentials   *self);
void               triage_credentials_set_timeout     (TriageCredentials   *self,
                                                       guint                timeout_ms);
void               triage_credentials_set_unresponsive (TriageCredentials  *self,
                                                        gboolean            unresponsive);

void               triage_credentials_store_token_async  (TriageCredentials   *self,
                                                          const char          *server_url,
                                                          const char          *token,
                                                          GCancellable        *cancellable,
                                                          GAsyncReadyCallback  callback,
                                                          gpointer             user_data);
gboolean           triage_credentials_store_token_finish (TriageCredentials   *self,
                                                          GAsyncResult        *result,
                                                          GError             **error);

void               triage_credentials_lookup_token_async  (TriageCredentials   *self,
                                                           const char          *server_url,
                                                           GCancellable        *cancellable,
                                                           GAsyncReadyCallback  callback,
                                                           gpointer             user_data);
char              *triage_credentials_lookup_token_finish (TriageCredentials   *self,
                                                           GAsyncResult        *result,
                                                           GError             **error);

void               triage_credentials_clear_token_async  (TriageCredentials   *self,
                                                          const char          *server_url,
                                                          GCancellable        *cancellable,
                                                          GAsyncReadyCallback  callback,
                                                          gpointer             user_data);
gboolean           triage_credentials_clear_token_finish (TriageCredentials   *self,
                                                          GAsyncResult        *result,
                                                          GError             **error);

G_END_DECLS
