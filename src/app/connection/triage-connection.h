/* triage-connection.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "atp.h"
#include "atp-client.h"
#include "atp-stream.h"
#include "triage-credentials.h"

G_BEGIN_DECLS

/**
 * TriageConnectionState:
 * @TRIAGE_CONNECTION_CONNECTING: first connection (or the local server starting)
 * @TRIAGE_CONNECTION_CONNECTED: live
 * @TRIAGE_CONNECTION_RECONNECTING: lost; the next try is scheduled
 * @TRIAGE_CONNECTION_OFFLINE: no connection; a try may be scheduled (retry by hand)
 * @TRIAGE_CONNECTION_AUTH_FAILED: the server refused the token (or none is stored)
 *
 * The connection to the server, as the window shows it; why it is not live
 * is its #TriageConnectionProblem.
 */
typedef enum
{
  TRIAGE_CONNECTION_CONNECTING,
  TRIAGE_CONNECTION_CONNECTED,
  TRIAGE_CONNECTION_RECONNECTING,
  TRIAGE_CONNECTION_OFFLINE,
  TRIAGE_CONNECTION_AUTH_FAILED,
} TriageConnectionState;

/**
 * TriageConnectionProblem:
 * @TRIAGE_CONNECTION_PROBLEM_NONE: none, or none known beyond the state
 * @TRIAGE_CONNECTION_PROBLEM_NO_NETWORK: this computer has no network (tried again)
 * @TRIAGE_CONNECTION_PROBLEM_UNREACHABLE: the server could not be reached since the
 *   connection was started (tried again)
 * @TRIAGE_CONNECTION_PROBLEM_LOST: the connection was live, then lost (tried again)
 * @TRIAGE_CONNECTION_PROBLEM_LOCAL_SERVER: the local server could not be found or
 *   started (tried again)
 * @TRIAGE_CONNECTION_PROBLEM_KEYRING: the keyring is locked, slow or not there
 *   (tried again)
 * @TRIAGE_CONNECTION_PROBLEM_KEYRING_FAILED: the keyring failed otherwise
 * @TRIAGE_CONNECTION_PROBLEM_NO_ADDRESS: remote mode without a server address
 * @TRIAGE_CONNECTION_PROBLEM_BAD_ADDRESS: the server address is not one (a
 *   configuration error)
 * @TRIAGE_CONNECTION_PROBLEM_CERTIFICATE: the server's TLS certificate is not
 *   accepted (a configuration error)
 * @TRIAGE_CONNECTION_PROBLEM_NO_TOKEN: no token is stored for the server
 * @TRIAGE_CONNECTION_PROBLEM_TOKEN_REFUSED: the server refused the token
 * @TRIAGE_CONNECTION_PROBLEM_NOT_USER_TOKEN: the token is not a user token (a
 *   service key)
 * @TRIAGE_CONNECTION_PROBLEM_TOKEN_UNSENDABLE: the token stored is blank, or holds
 *   a space or a control character (a line break, a tab), which no request can
 *   carry (stored by another program)
 * @TRIAGE_CONNECTION_PROBLEM_STORAGE: the app's own database cannot be opened, so
 *   no answer could be kept safe: not connected until it opens (a restart)
 *
 * Why the connection is not live, so the window can say what is wrong and
 * what to do: wait (it is tried again), or fix the settings (a configuration
 * error, which trying again cannot help).
 */
typedef enum
{
  TRIAGE_CONNECTION_PROBLEM_NONE,
  TRIAGE_CONNECTION_PROBLEM_NO_NETWORK,
  TRIAGE_CONNECTION_PROBLEM_UNREACHABLE,
  TRIAGE_CONNECTION_PROBLEM_LOST,
  TRIAGE_CONNECTION_PROBLEM_LOCAL_SERVER,
  TRIAGE_CONNECTION_PROBLEM_KEYRING,
  TRIAGE_CONNECTION_PROBLEM_KEYRING_FAILED,
  TRIAGE_CONNECTION_PROBLEM_NO_ADDRESS,
  TRIAGE_CONNECTION_PROBLEM_BAD_ADDRESS,
  TRIAGE_CONNECTION_PROBLEM_CERTIFICATE,
  TRIAGE_CONNECTION_PROBLEM_NO_TOKEN,
  TRIAGE_CONNECTION_PROBLEM_TOKEN_REFUSED,
  TRIAGE_CONNECTION_PROBLEM_NOT_USER_TOKEN,
  TRIAGE_CONNECTION_PROBLEM_STORAGE,
  TRIAGE_CONNECTION_PROBLEM_TOKEN_UNSENDABLE,
} TriageConnectionProblem;

/* How long the local server may be unreachable before it is looked for (and
 * started) again: long enough for a restart by hand to land first. */
#define TRIAGE_CONNECTION_LOCAL_RECHECK_SECONDS 5

#define TRIAGE_TYPE_CONNECTION (triage_connection_get_type ())

G_DECLARE_FINAL_TYPE (TriageConnection, triage_connection, TRIAGE, CONNECTION, GObject)

TriageConnection      *triage_connection_new           (GSettings             *settings,
                                                        TriageCredentials     *credentials);
void                   triage_connection_start         (TriageConnection      *self);
void                   triage_connection_stop          (TriageConnection      *self);
void                   triage_connection_disconnect    (TriageConnection      *self,
                                                        TriageConnectionState  state,
                                                        TriageConnectionProblem problem,
                                                        const char            *message);
void                   triage_connection_retry_now     (TriageConnection      *self);
void                   triage_connection_acknowledge   (TriageConnection      *self,
                                                        const char            *notification_id);
gboolean               triage_connection_is_local      (TriageConnection      *self);
char                  *triage_connection_dup_server_key (TriageConnection     *self);

TriageConnectionState  triage_connection_get_state     (TriageConnection      *self);
TriageConnectionProblem triage_connection_get_problem  (TriageConnection      *self);
const char            *triage_connection_get_message   (TriageConnection      *self);
gint64                 triage_connection_get_retry_at  (TriageConnection      *self);
AtpClient             *triage_connection_get_client    (TriageConnection      *self);

G_END_DECLS
