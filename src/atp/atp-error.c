/* atp-error.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "atp-error"

#include "atp-error.h"

#include <string.h>

/* What an ATP_ERROR carries besides its code and message: the wait the
 * server asked for (Retry-After). GLib's extended error domain, written out
 * for the quark's name to stay "atp-error-quark" (G_DEFINE_EXTENDED_ERROR
 * would name it "AtpError"). */
typedef struct
{
  guint retry_after;   /* seconds, 0: none asked for */
} AtpErrorPrivate;

static AtpErrorPrivate *
atp_error_get_private (const GError *error)
{
  /* Where g_error_domain_register_static () keeps it: before the GError,
   * aligned as GType instances' private data are (gerror.h). */
  const gsize alignment = 2 * sizeof (gsize);
  const gsize offset = (sizeof (AtpErrorPrivate) + (alignment - 1)) & -alignment;

  return (AtpErrorPrivate *) (((guint8 *) error) - offset);
}

static void
atp_error_private_init (GError *error)
{
  atp_error_get_private (error)->retry_after = 0;
}

static void
atp_error_private_copy (const GError *src,
                        GError       *dest)
{
  *atp_error_get_private (dest) = *atp_error_get_private (src);
}

static void
atp_error_private_clear (GError *error)
{
}

GQuark
atp_error_quark (void)
{
  static GQuark quark;
  static gsize initialized = 0;

  if (g_once_init_enter (&initialized))
    {
      quark = g_error_domain_register_static ("atp-error-quark", sizeof (AtpErrorPrivate),
                                              atp_error_private_init, atp_error_private_copy,
                                              atp_error_private_clear);
      g_once_init_leave (&initialized, 1);
    }

  return quark;
}

/**
 * atp_error_get_retry_after:
 * @error: (nullable): an error
 *
 * Returns: how many seconds the server asked to wait before the next try
 *   (its `Retry-After`, capped at %ATP_ERROR_RETRY_AFTER_MAX seconds); 0 when
 *   it asked for none, or @error is no %ATP_ERROR
 */
guint
atp_error_get_retry_after (const GError *error)
{
  if (error == NULL || error->domain != ATP_ERROR)
    return 0;

  return atp_error_get_private (error)->retry_after;
}

/**
 * atp_error_set_retry_after:
 * @error: an %ATP_ERROR
 * @seconds: the wait the server asked for; over %ATP_ERROR_RETRY_AFTER_MAX
 *   it is that
 */
void
atp_error_set_retry_after (GError *error,
                           guint   seconds)
{
  g_return_if_fail (error != NULL && error->domain == ATP_ERROR);

  atp_error_get_private (error)->retry_after = MIN (seconds, ATP_ERROR_RETRY_AFTER_MAX);
}

/**
 * atp_error_is_not_found:
 * @error: (nullable): an error
 *
 * Whether the server said it no longer has the notification asked about or
 * answered, or does not show it to this client: an ATP error object with
 * `NOTIFICATION_NOT_FOUND` (404; what every Triage server sends, for another
 * user's notification too), or ATP's 403 `NOTIFICATION_ACCESS_DENIED`, which
 * is that 404 on other servers. What became of it (answered, expired,
 * withdrawn, then forgotten; another user's) is not known, and asking again
 * cannot change that.
 *
 * A 404 without such an object is not that: `NOT_FOUND`, a 404 without an
 * error object (a proxy's page, a wrong base path) or with a code of no
 * notification (a Triage server's "No such endpoint", another server's code
 * libatp does not know) says the server was not reached as it should be,
 * and nothing of the notification.
 *
 * Returns: whether @error is one of those
 */
gboolean
atp_error_is_not_found (const GError *error)
{
  return g_error_matches (error, ATP_ERROR, ATP_ERROR_NOTIFICATION_NOT_FOUND) ||
         g_error_matches (error, ATP_ERROR, ATP_ERROR_NOTIFICATION_ACCESS_DENIED);
}

static const struct
{
  AtpErrorCode  code;
  const char   *name;
  guint         http_status;
} error_table[] = {
  { ATP_ERROR_UNKNOWN, "UNKNOWN", 500 },
  { ATP_ERROR_INVALID_JSON, "INVALID_JSON", 400 },
  { ATP_ERROR_INVALID_REQUEST, "INVALID_REQUEST", 400 },
  { ATP_ERROR_MISSING_REQUIRED_FIELD, "MISSING_REQUIRED_FIELD", 400 },
  { ATP_ERROR_INVALID_FIELD_VALUE, "INVALID_FIELD_VALUE", 400 },
  { ATP_ERROR_MALFORMED_ACTION, "MALFORMED_ACTION", 400 },
  { ATP_ERROR_INVALID_RESPONSE_TYPE, "INVALID_RESPONSE_TYPE", 400 },
  { ATP_ERROR_INVALID_ACTION_ID, "INVALID_ACTION_ID", 400 },
  { ATP_ERROR_INVALID_RESPONSE_DATA, "INVALID_RESPONSE_DATA", 400 },
  { ATP_ERROR_INVALID_PARAMETER, "INVALID_PARAMETER", 400 },
  { ATP_ERROR_INVALID_CALLBACK_URL, "INVALID_CALLBACK_URL", 400 },
  { ATP_ERROR_INVALID_STATUS, "INVALID_STATUS", 400 },
  { ATP_ERROR_CONSTRAINT_VIOLATION, "CONSTRAINT_VIOLATION", 422 },
  { ATP_ERROR_AUTH_INVALID_TOKEN, "AUTH_INVALID_TOKEN", 401 },
  { ATP_ERROR_AUTH_INSUFFICIENT_PERMISSIONS, "AUTH_INSUFFICIENT_PERMISSIONS", 403 },
  { ATP_ERROR_SERVICE_SUSPENDED, "SERVICE_SUSPENDED", 403 },
  { ATP_ERROR_SERVICE_NOT_OWNER, "SERVICE_NOT_OWNER", 403 },
  { ATP_ERROR_NOTIFICATION_ACCESS_DENIED, "NOTIFICATION_ACCESS_DENIED", 403 },
  { ATP_ERROR_NOT_FOUND, "NOT_FOUND", 404 },
  { ATP_ERROR_NOTIFICATION_NOT_FOUND, "NOTIFICATION_NOT_FOUND", 404 },
  { ATP_ERROR_SESSION_NOT_FOUND, "SESSION_NOT_FOUND", 404 },
  { ATP_ERROR_METHOD_NOT_ALLOWED, "METHOD_NOT_ALLOWED", 405 },
  { ATP_ERROR_SERVICE_ALREADY_EXISTS, "SERVICE_ALREADY_EXISTS", 409 },
  { ATP_ERROR_USER_ALREADY_EXISTS, "USER_ALREADY_EXISTS", 409 },
  { ATP_ERROR_NOTIFICATION_ALREADY_EXISTS, "NOTIFICATION_ALREADY_EXISTS", 409 },
  { ATP_ERROR_NOTIFICATION_EXPIRED, "NOTIFICATION_EXPIRED", 409 },
  { ATP_ERROR_NOTIFICATION_INVALIDATED, "NOTIFICATION_INVALIDATED", 409 },
  { ATP_ERROR_NOTIFICATION_ALREADY_RESPONDED, "NOTIFICATION_ALREADY_RESPONDED", 409 },
  { ATP_ERROR_PAYLOAD_TOO_LARGE, "PAYLOAD_TOO_LARGE", 413 },
  { ATP_ERROR_UNSUPPORTED_MEDIA_TYPE, "UNSUPPORTED_MEDIA_TYPE", 415 },
  { ATP_ERROR_RATE_LIMIT_EXCEEDED, "RATE_LIMIT_EXCEEDED", 429 },
  { ATP_ERROR_INTERNAL_ERROR, "INTERNAL_ERROR", 500 },
  { ATP_ERROR_SERVICE_UNAVAILABLE, "SERVICE_UNAVAILABLE", 503 },
  { ATP_ERROR_STORAGE_UNAVAILABLE, "STORAGE_UNAVAILABLE", 503 },
  { ATP_ERROR_NOTIFICATION_UNREADABLE, "NOTIFICATION_UNREADABLE", 500 },
  /* What a 409 whose code libatp does not know means; no server of ours sends it. */
  { ATP_ERROR_CONFLICT, "CONFLICT", 409 },
  /* Local failures, no HTTP status (0); a server sends PROTOCOL_ERROR only in
   * a stream's error frame. */
  { ATP_ERROR_CONNECTION_FAILED, "CONNECTION_FAILED", 0 },
  { ATP_ERROR_PROTOCOL, "PROTOCOL_ERROR", 0 },
  { ATP_ERROR_TLS_CERTIFICATE, "TLS_CERTIFICATE", 0 },
  { ATP_ERROR_CONNECTION_LOST, "CONNECTION_LOST", 0 },
  /* The names older Triage servers sent for two of ATP's codes: read, never
   * written (a code's first row names it). */
  { ATP_ERROR_AUTH_INVALID_TOKEN, "UNAUTHORIZED", 401 },
  { ATP_ERROR_AUTH_INSUFFICIENT_PERMISSIONS, "FORBIDDEN", 403 },
};

/**
 * atp_error_code_to_string:
 * @code: an #AtpErrorCode
 *
 * Returns: (transfer none): the wire name of @code ("UNKNOWN" if out of range)
 */
const char *
atp_error_code_to_string (AtpErrorCode code)
{
  for (guint i = 0; i < G_N_ELEMENTS (error_table); i++)
    {
      if (error_table[i].code == code)
        return error_table[i].name;
    }

  return "UNKNOWN";
}

/**
 * atp_error_code_from_string:
 * @code: (nullable): a wire code such as "NOTIFICATION_EXPIRED"
 *
 * Returns: the matching code, %ATP_ERROR_UNKNOWN for anything else
 */
AtpErrorCode
atp_error_code_from_string (const char *code)
{
  if (code == NULL)
    return ATP_ERROR_UNKNOWN;

  for (guint i = 0; i < G_N_ELEMENTS (error_table); i++)
    {
      if (strcmp (code, error_table[i].name) == 0)
        return error_table[i].code;
    }

  return ATP_ERROR_UNKNOWN;
}

/**
 * atp_error_code_http_status:
 * @code: an #AtpErrorCode
 *
 * Returns: the HTTP status a server answers with for @code; 0 for the local
 *   codes that never travel (%ATP_ERROR_CONNECTION_FAILED, %ATP_ERROR_PROTOCOL,
 *   %ATP_ERROR_TLS_CERTIFICATE, %ATP_ERROR_CONNECTION_LOST)
 */
guint
atp_error_code_http_status (AtpErrorCode code)
{
  for (guint i = 0; i < G_N_ELEMENTS (error_table); i++)
    {
      if (error_table[i].code == code)
        return error_table[i].http_status;
    }

  return 500;
}
