/* atp-error.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define ATP_ERROR (atp_error_quark ())

/**
 * AtpErrorCode:
 *
 * The ATP error codes as sent on the wire (`code` of the error object): the
 * ones the public ATP documents name, Triage's own where ATP has none, and a
 * few local failures. Every non-2xx HTTP answer maps to one of these;
 * %ATP_ERROR_UNKNOWN keeps a code this version does not know (its wire text is
 * in the message). The names older Triage servers sent before they used ATP's
 * (`UNAUTHORIZED`, `FORBIDDEN`) read as the ATP code that replaced them.
 */
typedef enum
{
  ATP_ERROR_UNKNOWN,
  /* 400 */
  ATP_ERROR_INVALID_JSON,             /* body is not (valid, UTF-8, bounded) JSON */
  ATP_ERROR_INVALID_REQUEST,          /* JSON, but not the object expected (wrong type, bad query) */
  ATP_ERROR_MISSING_REQUIRED_FIELD,
  ATP_ERROR_INVALID_FIELD_VALUE,      /* a field of the right JSON type with a bad value (UUID, time, URI, base64) */
  ATP_ERROR_MALFORMED_ACTION,
  ATP_ERROR_INVALID_RESPONSE_TYPE,
  ATP_ERROR_INVALID_ACTION_ID,
  ATP_ERROR_INVALID_RESPONSE_DATA,
  ATP_ERROR_INVALID_PARAMETER,        /* a bad query parameter (or Last-Event-ID) */
  ATP_ERROR_INVALID_CALLBACK_URL,
  ATP_ERROR_INVALID_STATUS,           /* the status of a PATCH */
  /* 422 */
  ATP_ERROR_CONSTRAINT_VIOLATION,
  /* 401 / 403 */
  ATP_ERROR_AUTH_INVALID_TOKEN,             /* missing or unknown token; was UNAUTHORIZED */
  ATP_ERROR_AUTH_INSUFFICIENT_PERMISSIONS,  /* a valid token of the wrong kind; was FORBIDDEN */
  ATP_ERROR_SERVICE_SUSPENDED,
  ATP_ERROR_SERVICE_NOT_OWNER,
  ATP_ERROR_NOTIFICATION_ACCESS_DENIED,
  /* 404 */
  ATP_ERROR_NOT_FOUND,
  ATP_ERROR_NOTIFICATION_NOT_FOUND,
  ATP_ERROR_SESSION_NOT_FOUND,        /* an AFP review session the server does not hold */
  /* 405 */
  ATP_ERROR_METHOD_NOT_ALLOWED,
  /* 409 */
  ATP_ERROR_SERVICE_ALREADY_EXISTS,
  ATP_ERROR_USER_ALREADY_EXISTS,
  ATP_ERROR_NOTIFICATION_ALREADY_EXISTS, /* same id posted again with a different body */
  ATP_ERROR_NOTIFICATION_EXPIRED,
  ATP_ERROR_NOTIFICATION_INVALIDATED,
  ATP_ERROR_NOTIFICATION_ALREADY_RESPONDED,
  /* 413 */
  ATP_ERROR_PAYLOAD_TOO_LARGE,
  /* 415 */
  ATP_ERROR_UNSUPPORTED_MEDIA_TYPE,   /* an AFP artifact of a type nobody can review here */
  /* 429 */
  ATP_ERROR_RATE_LIMIT_EXCEEDED,
  /* 5xx */
  ATP_ERROR_INTERNAL_ERROR,
  ATP_ERROR_SERVICE_UNAVAILABLE,
  ATP_ERROR_STORAGE_UNAVAILABLE,      /* the server cannot write its database now (disk full,
                                       * I/O error); nothing was changed, a retry is safe */
  /* local */
  ATP_ERROR_CONNECTION_FAILED,        /* server unreachable, vanished mid-request, TLS failure */
  ATP_ERROR_PROTOCOL,                 /* the peer broke the protocol (bad frame, unexpected answer);
                                       * on the wire only in a stream's error frame */
  ATP_ERROR_TLS_CERTIFICATE,          /* the server's certificate is not accepted (untrusted
                                       * issuer, another name, expired): a configuration error,
                                       * trying again cannot help until someone fixes it */
  /* 500, after the local ones to keep their numbers */
  ATP_ERROR_NOTIFICATION_UNREADABLE,  /* the stored notification does not read (a damaged row):
                                       * trying again cannot mend it */
  /* local */
  ATP_ERROR_CONNECTION_LOST,          /* a request that changes something (POST, PATCH…) went
                                       * out whole, then its connection broke or its answer did
                                       * not come in time: the server may have acted on it */
  /* 409, last to keep the numbers above */
  ATP_ERROR_CONFLICT,                 /* a 409 with a code this version does not know (another
                                       * server's): the request conflicts with what the server
                                       * holds, and sending it again cannot change that */
} AtpErrorCode;

/* The longest wait a server's Retry-After is taken for, in seconds: a server
 * that asks for more (a day, a date far ahead) would hold answers and the
 * stream back for that long; it is tried again after this instead. */
#define ATP_ERROR_RETRY_AFTER_MAX 300

GQuark        atp_error_quark            (void);

guint         atp_error_get_retry_after  (const GError *error);
void          atp_error_set_retry_after  (GError       *error,
                                          guint         seconds);

gboolean      atp_error_is_not_found     (const GError *error);

const char   *atp_error_code_to_string   (AtpErrorCode code);
AtpErrorCode  atp_error_code_from_string (const char  *code);
guint         atp_error_code_http_status (AtpErrorCode code);

G_END_DECLS
