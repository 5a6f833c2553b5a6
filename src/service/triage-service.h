/* triage-service.h — the service side for Triage's programs that ask a person
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "atp-client.h"

G_BEGIN_DECLS

/* The keyring schema of a service key: attribute server = the server URL as given. */
#define TRIAGE_SERVICE_KEY_SCHEMA "io.github.atptriage.Triage.ServiceKey"

/**
 * triage_service_lookup_key:
 * @server_url: the server the key is for
 * @error: %G_IO_ERROR_NOT_FOUND (with the secret-tool command to store one),
 *   %G_IO_ERROR_TIMED_OUT (the keyring did not answer in 10 s) or
 *   %G_IO_ERROR_INVALID_DATA (the key holds a space, line break or control
 *   character, the message naming where it came from)
 *
 * The service API key for @server_url: `TRIAGE_API_KEY`, else the Secret
 * Service, without the white space around it. Blocks for at most 10 s (a
 * locked keyring's prompt nobody sees).
 *
 * Returns: (transfer full): the key
 */
char      *triage_service_lookup_key (const char  *server_url,
                                      GError     **error);

/**
 * triage_service_connect:
 * @server_url: (nullable): a remote server (checked with
 *   atp_client_check_url()), or %NULL for the local server
 * @socket_path: (nullable): the local server's socket; %NULL for the contract
 *   path (atp_local_socket_path())
 * @service_id: the service id sent over the local socket (X-Triage-Service)
 * @service_name: (nullable): its display name
 * @error: the key lookup's error, or an %ATP_ERROR for a bad URL
 *
 * A client for asking as a service: over the trusted local socket with no
 * key, or to @server_url with the key from triage_service_lookup_key().
 * A remote server knows the service from its key and ignores the id.
 *
 * Returns: (transfer full): the client, with a 30 s timeout
 */
AtpClient *triage_service_connect    (const char  *server_url,
                                      const char  *socket_path,
                                      const char  *service_id,
                                      const char  *service_name,
                                      GError     **error);

/* The string member @name of @object (nullable), or %NULL when it is missing or
 * not a string: input from agents is checked, never asserted on. */
const char *triage_service_string_member (JsonObject *object,
                                          const char *name);

/* Refuses --api-key, --token and --key (before "--") with a %G_OPTION_ERROR that
 * says where keys come from instead. */
gboolean   triage_service_refuse_secrets (char       **argv,
                                          GError     **error);

/* Parses "90s", "15m", "2h", "1d", "1h30m" or plain seconds (at most ten years) into µs. */
gboolean   triage_service_parse_duration (const char  *text,
                                          gint64      *microseconds);
/* What is wrong with @text, which triage_service_parse_duration() refused:
 * too long, or no duration; for a message that names the option. */
const char *triage_service_duration_problem (const char *text);

/**
 * triage_service_parse_deadline:
 * @text: a duration counted from @now, or an RFC 3339 time after @now
 * @rfc3339: (out): the deadline as ATP writes it
 * @problem: (out) (transfer none): what is wrong with @text, for a message
 *   that names where it came from
 */
gboolean   triage_service_parse_deadline (const char  *text,
                                          GDateTime   *now,
                                          char       **rfc3339,
                                          const char **problem);

/**
 * triage_service_set_deadline:
 * @request: the request (a notification being built)
 * @text: as for triage_service_parse_deadline()
 * @now: when the request is made
 * @problem: (out) (transfer none): as for triage_service_parse_deadline()
 *
 * Sets @request's `deadline` and, with it, its `timestamp` (@now): a server
 * checks the deadline against the request's timestamp, or without one
 * against when it got the request, which on a busy machine or after a retry
 * can already be past a short deadline.
 */
gboolean   triage_service_set_deadline   (JsonObject  *request,
                                          const char  *text,
                                          GDateTime   *now,
                                          const char **problem);

/* The longest service id and display name the bridges send (in characters): a
 * huge one travelled in a header with every request, and the local server
 * closed the connection at it. */
#define TRIAGE_SERVICE_ID_MAX   64
#define TRIAGE_SERVICE_NAME_MAX 100

guint      triage_service_add_sighup     (GSourceFunc  func,
                                          gpointer     data);
void       triage_service_hold_standard_fds (void);

G_END_DECLS
