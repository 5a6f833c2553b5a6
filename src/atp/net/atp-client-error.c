/* atp-client-error.c — the ATP_ERROR of AtpClient's transport failures and non-2xx answers
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "atp-client"

#include <libsoup/soup.h>
#include <string.h>

#include "atp-client-private.h"
#include "atp-error.h"
#include "atp-json.h"
#include "atp-private.h"

static const char *
describe_transport_error (const GError *error)
{
  if (error->domain == G_IO_ERROR)
    {
      switch (error->code)
        {
        case G_IO_ERROR_CONNECTION_REFUSED:
          return "Connection refused";
        case G_IO_ERROR_NOT_FOUND:
          return "No such file or directory";
        case G_IO_ERROR_PERMISSION_DENIED:
          return "Permission denied";
        case G_IO_ERROR_TIMED_OUT:
          return "Timed out";
        case G_IO_ERROR_HOST_UNREACHABLE:
        case G_IO_ERROR_NETWORK_UNREACHABLE:
          return "No route to host";
        case G_IO_ERROR_CONNECTION_CLOSED:
        case G_IO_ERROR_PARTIAL_INPUT:
          return "The server closed the connection";
        default:
          break;
        }
    }

  return error->message;
}

/* Why a certificate was not accepted, in words; NULL when none of the flags is known. */
static char *
describe_certificate_flags (GTlsCertificateFlags flags)
{
  static const struct
  {
    GTlsCertificateFlags flag;
    const char          *reason;
  } reasons[] = {
    { G_TLS_CERTIFICATE_UNKNOWN_CA, "its issuer is not trusted on this computer" },
    { G_TLS_CERTIFICATE_BAD_IDENTITY, "it was made for another host name" },
    { G_TLS_CERTIFICATE_NOT_ACTIVATED, "it is not valid yet" },
    { G_TLS_CERTIFICATE_EXPIRED, "it has expired" },
    { G_TLS_CERTIFICATE_REVOKED, "it was revoked" },
    { G_TLS_CERTIFICATE_INSECURE, "it uses an insecure algorithm" },
    { G_TLS_CERTIFICATE_GENERIC_ERROR, "it is invalid" },
  };
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint i = 0; i < G_N_ELEMENTS (reasons); i++)
    if (flags & reasons[i].flag)
      g_string_append_printf (text, "%s%s", text->len ? ", " : "", reasons[i].reason);

  return text->len ? g_string_free (g_steal_pointer (&text), FALSE) : NULL;
}

GError *
atp_client_connection_error (AtpClient    *self,
                             SoupMessage  *message,
                             const GError *error,
                             gboolean      mid_answer)
{
  const char *detail = describe_transport_error (error);
  GTlsCertificateFlags flags = message != NULL
                               ? soup_message_get_tls_peer_certificate_errors (message) : 0;

  /* Not an outage: the same certificate fails the same way until someone
   * installs its issuer, fixes the name or renews it. */
  if (g_error_matches (error, G_TLS_ERROR, G_TLS_ERROR_BAD_CERTIFICATE) ||
      (error->domain == G_TLS_ERROR && flags != 0))
    {
      g_autofree char *why = describe_certificate_flags (flags);

      return g_error_new (ATP_ERROR, ATP_ERROR_TLS_CERTIFICATE,
                          "The TLS certificate of %s is not accepted: %s",
                          atp_client_get_display_name (self), why ? why : error->message);
    }

  if (error->domain == G_TLS_ERROR)
    return g_error_new (ATP_ERROR, ATP_ERROR_CONNECTION_FAILED,
                        "Cannot reach %s: secure connection failed: %s",
                        atp_client_get_display_name (self), error->message);

  if (error->domain == G_RESOLVER_ERROR)
    return g_error_new (ATP_ERROR, ATP_ERROR_CONNECTION_FAILED,
                        "Cannot reach %s: unknown host (%s)",
                        atp_client_get_display_name (self), error->message);

  if (mid_answer)
    return g_error_new (ATP_ERROR, ATP_ERROR_CONNECTION_FAILED,
                        "The connection to %s broke before the answer was complete: %s",
                        atp_client_get_display_name (self), detail);

  return g_error_new (ATP_ERROR, ATP_ERROR_CONNECTION_FAILED,
                      "Cannot reach %s: %s", atp_client_get_display_name (self), detail);
}

GError *
atp_client_lost_error (AtpClient    *self,
                       const GError *error)
{
  return g_error_new (ATP_ERROR, ATP_ERROR_CONNECTION_LOST,
                      "The connection to %s broke after the request was sent, before the "
                      "whole answer came: %s; the server may have received it",
                      atp_client_get_display_name (self), describe_transport_error (error));
}

static AtpErrorCode
code_for_status (guint status)
{
  switch (status)
    {
    case 400: return ATP_ERROR_INVALID_REQUEST;
    case 401: return ATP_ERROR_AUTH_INVALID_TOKEN;
    case 403: return ATP_ERROR_AUTH_INSUFFICIENT_PERMISSIONS;
    case 404: return ATP_ERROR_NOT_FOUND;
    case 405: return ATP_ERROR_METHOD_NOT_ALLOWED;
    case 409: return ATP_ERROR_CONFLICT;
    case 413: return ATP_ERROR_PAYLOAD_TOO_LARGE;
    case 422: return ATP_ERROR_CONSTRAINT_VIOLATION;
    case 429: return ATP_ERROR_RATE_LIMIT_EXCEEDED;
    case 500: return ATP_ERROR_INTERNAL_ERROR;
    case 502:
    case 503:
    case 504: return ATP_ERROR_SERVICE_UNAVAILABLE;
    default:
      if (status >= 300 && status < 400)
        return ATP_ERROR_PROTOCOL;
      if (status >= 500)
        return ATP_ERROR_INTERNAL_ERROR;
      return ATP_ERROR_UNKNOWN;
    }
}

/* The GError of a non-2xx answer, but for its Retry-After. */
static GError *
http_error_for_status (SoupMessage *message,
                       GBytes      *body)
{
  guint status = soup_message_get_status (message);
  const char *request_id;
  g_autoptr(AtpErrorInfo) info = NULL;
  g_autoptr(GString) text = NULL;

  request_id = soup_message_headers_get_one (soup_message_get_response_headers (message),
                                             "X-Request-ID");

  if (body != NULL && g_bytes_get_size (body) > 0)
    {
      g_autoptr(JsonNode) root = NULL;
      gsize size = 0;
      const char *data = g_bytes_get_data (body, &size);

      root = atp_json_parse (data, size, ATP_CLIENT_MAX_ANSWER_SIZE, NULL);
      if (root != NULL && JSON_NODE_HOLDS_OBJECT (root))
        info = atp_error_info_new_from_json (root, NULL);
    }

  if (info != NULL)
    {
      GError *mapped;

      if (info->request_id == NULL && request_id != NULL)
        {
          AtpErrorInfo *with_id = atp_error_info_new (info->code, info->message, info->details,
                                                      request_id);

          atp_error_info_unref (info);
          info = with_id;
        }
      mapped = atp_error_info_to_gerror (info);
      /* A code this client does not know (another ATP server's, a newer
       * one's, kept in the message as "[CODE]") means what its status says:
       * a 401 is a refused token all the same (the stream stops trying it),
       * a 400 an answer refused for good (the outbox keeps it as failed),
       * a 409 a conflict (settled: sending it again cannot help), not an
       * unknown failure tried again for ever. */
      if (mapped->code == ATP_ERROR_UNKNOWN)
        mapped->code = code_for_status (status);
      return mapped;
    }

  text = g_string_new (NULL);
  if (status >= 300 && status < 400)
    {
      const char *location = soup_message_headers_get_one (soup_message_get_response_headers (message),
                                                           "Location");

      g_string_append_printf (text, "The server redirected the request (HTTP %u)", status);
      if (location != NULL)
        g_string_append_printf (text, " to %s: use that address instead", location);
    }
  else
    {
      const char *phrase = soup_message_get_reason_phrase (message);

      g_string_append_printf (text, "The server answered HTTP %u", status);
      if (phrase != NULL && *phrase != '\0')
        g_string_append_printf (text, " %s", phrase);
    }
  if (request_id != NULL)
    g_string_append_printf (text, " (request %s)", request_id);

  return g_error_new_literal (ATP_ERROR, code_for_status (status), text->str);
}

/* The server's Retry-After: a number of seconds, or an HTTP-date (a time
 * past is no wait); 0 when there is none, or it is neither. Capped by
 * atp_error_set_retry_after (). */
guint
atp_client_read_retry_after (SoupMessage *message)
{
  const char *value = soup_message_headers_get_one (soup_message_get_response_headers (message),
                                                    "Retry-After");
  g_autoptr(GDateTime) when = NULL;
  g_autoptr(GDateTime) now = NULL;
  const char *end = NULL;
  guint64 seconds;
  GTimeSpan wait;

  if (value == NULL)
    return 0;
  value += strspn (value, " \t");

  if (g_ascii_isdigit (*value))
    {
      seconds = g_ascii_strtoull (value, (char **) &end, 10);
      if (end[strspn (end, " \t")] == '\0')
        return (guint) MIN (seconds, G_MAXUINT);
      return 0;
    }

  when = soup_date_time_new_from_http_string (value);
  if (when == NULL)
    return 0;
  now = g_date_time_new_now_utc ();
  wait = g_date_time_difference (when, now);
  if (wait <= 0)
    return 0;
  /* Whole seconds, up: the date is that of the second it names. */
  return (guint) MIN ((wait + G_TIME_SPAN_SECOND - 1) / G_TIME_SPAN_SECOND, G_MAXUINT);
}

GError *
atp_client_http_error (SoupMessage *message,
                       GBytes      *body)
{
  GError *error = http_error_for_status (message, body);

  atp_error_set_retry_after (error, atp_client_read_retry_after (message));
  return error;
}
