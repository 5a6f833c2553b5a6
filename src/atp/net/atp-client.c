/* atp-client.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "atp-client"

#include "atp-client.h"

#include <string.h>
#include <libsoup/soup.h>

#include "atp-client-private.h"
#include "atp-error.h"
#include "atp-json.h"
#include "atp-private.h"

/*
 * One SoupSession per server description. Every call builds a message, reads
 * the answer into memory up to a cap, then either parses the 2xx body with
 * the operation's parser or turns the non-2xx body into an ATP_ERROR. Our
 * own timer bounds each request (the session's idle timeout would cut a
 * long-poll short), and redirects are not followed: a redirect would carry
 * the token to wherever it points.
 */

#define DEFAULT_TIMEOUT_S   30

struct _AtpClient
{
  GObject      parent_instance;

  SoupSession *session;
  char        *base_url;      /* no trailing slash; http://localhost for a socket */
  char        *socket_path;   /* NULL for a URL */
  char        *display_name;
  char        *token;
  char        *service_id;
  char        *service_name;
  guint        timeout_s;
  guint        protocols;     /* bit per AtpProtocol listed and streamed */
  gboolean     needs_network;
};

G_DEFINE_FINAL_TYPE (AtpClient, atp_client, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_BASE_URL,
  PROP_SOCKET_PATH,
  PROP_TOKEN,
  PROP_SERVICE_ID,
  PROP_SERVICE_NAME,
  PROP_TIMEOUT,
  N_PROPS
};

static GParamSpec *properties [N_PROPS];

enum {
  TOKEN_CHANGED,
  N_SIGNALS
};

static guint signals [N_SIGNALS];

/* Boxed results */

G_DEFINE_BOXED_TYPE (AtpNotificationPage, atp_notification_page,
                     atp_notification_page_ref, atp_notification_page_unref)
G_DEFINE_BOXED_TYPE (AtpPostResult, atp_post_result,
                     atp_post_result_ref, atp_post_result_unref)

static AtpNotificationPage *
notification_page_new (void)
{
  AtpNotificationPage *self = g_new0 (AtpNotificationPage, 1);

  g_atomic_ref_count_init (&self->ref_count);
  self->notifications = g_ptr_array_new_with_free_func ((GDestroyNotify) atp_notification_unref);
  self->total_count = -1;

  return self;
}

AtpNotificationPage *
atp_notification_page_ref (AtpNotificationPage *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
atp_notification_page_unref (AtpNotificationPage *self)
{
  g_return_if_fail (self != NULL);

  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;

  g_ptr_array_unref (self->notifications);
  g_free (self->next_cursor);
  g_free (self);
}

AtpPostResult *
atp_post_result_ref (AtpPostResult *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
atp_post_result_unref (AtpPostResult *self)
{
  g_return_if_fail (self != NULL);

  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;

  g_free (self->notification_id);
  g_clear_pointer (&self->estimated_delivery, g_date_time_unref);
  g_free (self);
}

/* Address policy */

gboolean
atp_host_is_loopback (const char *host)
{
  g_autoptr(GInetAddress) address = NULL;
  gsize len;

  if (host == NULL || *host == '\0')
    return FALSE;

  len = strlen (host);
  if (g_ascii_strcasecmp (host, "localhost") == 0 ||
      (len == strlen ("localhost.") && g_ascii_strcasecmp (host, "localhost.") == 0))
    return TRUE;

  /* GUri keeps the brackets of an IPv6 literal off the host. */
  address = g_inet_address_new_from_string (host);
  return address != NULL && g_inet_address_get_is_loopback (address);
}

static gboolean
check_url (const char  *url,
           GUri       **out_uri,
           GError     **error)
{
  g_autoptr(GUri) uri = NULL;
  g_autoptr(GError) local_error = NULL;
  const char *scheme;
  const char *host;
  gboolean secure;

  if (url == NULL || *url == '\0')
    {
      g_set_error_literal (error, ATP_ERROR, ATP_ERROR_INVALID_FIELD_VALUE,
                           "No server address given");
      return FALSE;
    }

  uri = g_uri_parse (url, G_URI_FLAGS_NONE, &local_error);
  if (uri == NULL)
    {
      g_set_error (error, ATP_ERROR, ATP_ERROR_INVALID_FIELD_VALUE,
                   "“%s” is not a server address (expected https://host[:port])", url);
      return FALSE;
    }

  scheme = g_uri_get_scheme (uri);
  if (g_ascii_strcasecmp (scheme, "https") == 0 || g_ascii_strcasecmp (scheme, "wss") == 0)
    secure = TRUE;
  else if (g_ascii_strcasecmp (scheme, "http") == 0 || g_ascii_strcasecmp (scheme, "ws") == 0)
    secure = FALSE;
  else
    {
      g_set_error (error, ATP_ERROR, ATP_ERROR_INVALID_FIELD_VALUE,
                   "“%s” is not a server address: the scheme must be https:// (or http:// "
                   "for this computer), not %s:", url, scheme);
      return FALSE;
    }

  host = g_uri_get_host (uri);
  if (host == NULL || *host == '\0')
    {
      g_set_error (error, ATP_ERROR, ATP_ERROR_INVALID_FIELD_VALUE,
                   "“%s” has no host name", url);
      return FALSE;
    }

  if (g_uri_get_userinfo (uri) != NULL)
    {
      g_set_error (error, ATP_ERROR, ATP_ERROR_INVALID_FIELD_VALUE,
                   "The server address may not contain a user name or password; "
                   "the token is entered separately");
      return FALSE;
    }

  if (g_uri_get_query (uri) != NULL || g_uri_get_fragment (uri) != NULL)
    {
      g_set_error (error, ATP_ERROR, ATP_ERROR_INVALID_FIELD_VALUE,
                   "The server address may not contain a query (?) or fragment (#): “%s”", url);
      return FALSE;
    }

  if (!secure && !atp_host_is_loopback (host))
    {
      g_set_error (error, ATP_ERROR, ATP_ERROR_INVALID_FIELD_VALUE,
                   "“%s” is not encrypted: use https:// (plain http:// is allowed only for "
                   "this computer: localhost, 127.0.0.1 or ::1)", url);
      return FALSE;
    }

  if (out_uri != NULL)
    *out_uri = g_steal_pointer (&uri);

  return TRUE;
}

gboolean
atp_client_check_url (const char  *url,
                      GError     **error)
{
  return check_url (url, NULL, error);
}

/* Construction */

static void
clear_token (AtpClient *self)
{
  if (self->token != NULL)
    {
      memset (self->token, 0, strlen (self->token));
      g_clear_pointer (&self->token, g_free);
    }
}

static void
atp_client_constructed (GObject *object)
{
  AtpClient *self = ATP_CLIENT (object);

  G_OBJECT_CLASS (atp_client_parent_class)->constructed (object);

  if (self->socket_path != NULL)
    {
      g_autoptr(GSocketAddress) address = g_unix_socket_address_new (self->socket_path);

      self->session = soup_session_new_with_options ("remote-connectable", address,
                                                     "max-conns", ATP_CLIENT_MAX_CONNECTIONS,
                                                     "max-conns-per-host",
                                                     ATP_CLIENT_MAX_CONNECTIONS, NULL);
      g_free (self->base_url);
      self->base_url = g_strdup ("http://localhost");
      self->display_name = g_strdup_printf ("the local server at %s", self->socket_path);
      self->needs_network = FALSE;
    }
  else
    {
      self->session = soup_session_new_with_options ("max-conns", ATP_CLIENT_MAX_CONNECTIONS,
                                                     "max-conns-per-host",
                                                     ATP_CLIENT_MAX_CONNECTIONS, NULL);
      if (self->base_url == NULL)
        self->base_url = g_strdup ("http://localhost");
      self->display_name = g_strdup (self->base_url);
    }

  soup_session_set_user_agent (self->session, "Triage/" PACKAGE_VERSION " libatp ");
  /* Our own timer bounds every request (see atp_client_start_request). */
  soup_session_set_timeout (self->session, 0);
}

static void
atp_client_finalize (GObject *object)
{
  AtpClient *self = ATP_CLIENT (object);

  if (self->session != NULL)
    soup_session_abort (self->session);
  g_clear_object (&self->session);
  clear_token (self);
  g_free (self->base_url);
  g_free (self->socket_path);
  g_free (self->display_name);
  g_free (self->service_id);
  g_free (self->service_name);

  G_OBJECT_CLASS (atp_client_parent_class)->finalize (object);
}

static void
atp_client_get_property (GObject    *object,
                         guint       prop_id,
                         GValue     *value,
                         GParamSpec *pspec)
{
  AtpClient *self = ATP_CLIENT (object);

  switch (prop_id)
    {
    case PROP_BASE_URL:
      g_value_set_string (value, self->base_url);
      break;

    case PROP_SOCKET_PATH:
      g_value_set_string (value, self->socket_path);
      break;

    case PROP_SERVICE_ID:
      g_value_set_string (value, self->service_id);
      break;

    case PROP_SERVICE_NAME:
      g_value_set_string (value, self->service_name);
      break;

    case PROP_TIMEOUT:
      g_value_set_uint (value, self->timeout_s);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
atp_client_set_property (GObject      *object,
                         guint         prop_id,
                         const GValue *value,
                         GParamSpec   *pspec)
{
  AtpClient *self = ATP_CLIENT (object);

  switch (prop_id)
    {
    case PROP_BASE_URL:
      {
        const char *url = g_value_get_string (value);
        gsize len;

        if (url == NULL)
          break;

        /* ws/wss name the same server; requests are http(s). */
        if (g_ascii_strncasecmp (url, "ws://", 5) == 0)
          self->base_url = g_strconcat ("http://", url + 5, NULL);
        else if (g_ascii_strncasecmp (url, "wss://", 6) == 0)
          self->base_url = g_strconcat ("https://", url + 6, NULL);
        else
          self->base_url = g_strdup (url);

        len = strlen (self->base_url);
        while (len > 0 && self->base_url[len - 1] == '/')
          self->base_url[--len] = '\0';
      }
      break;

    case PROP_SOCKET_PATH:
      self->socket_path = g_value_dup_string (value);
      break;

    case PROP_TOKEN:
      atp_client_set_token (self, g_value_get_string (value));
      break;

    case PROP_SERVICE_ID:
      atp_client_set_service (self, g_value_get_string (value), self->service_name);
      break;

    case PROP_SERVICE_NAME:
      atp_client_set_service (self, self->service_id, g_value_get_string (value));
      break;

    case PROP_TIMEOUT:
      atp_client_set_timeout (self, g_value_get_uint (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
atp_client_class_init (AtpClientClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = atp_client_constructed;
  object_class->finalize = atp_client_finalize;
  object_class->get_property = atp_client_get_property;
  object_class->set_property = atp_client_set_property;

  properties [PROP_BASE_URL] =
    g_param_spec_string ("base-url", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties [PROP_SOCKET_PATH] =
    g_param_spec_string ("socket-path", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /* Write-only: the token never comes back out through GObject. */
  properties [PROP_TOKEN] =
    g_param_spec_string ("token", NULL, NULL, NULL,
                         G_PARAM_WRITABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties [PROP_SERVICE_ID] =
    g_param_spec_string ("service-id", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties [PROP_SERVICE_NAME] =
    g_param_spec_string ("service-name", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties [PROP_TIMEOUT] =
    g_param_spec_uint ("timeout", NULL, NULL, 1, 3600, DEFAULT_TIMEOUT_S,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * AtpClient::token-changed:
   *
   * The bearer token was set, replaced or cleared (the "token" property is
   * write-only, so it has no notify). A stream that stopped on refused
   * credentials tries again.
   */
  signals [TOKEN_CHANGED] =
    g_signal_new ("token-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
atp_client_init (AtpClient *self)
{
  self->timeout_s = DEFAULT_TIMEOUT_S;
  self->protocols = 1u << ATP_PROTOCOL_ATP;
  self->needs_network = TRUE;
}

AtpClient *
atp_client_new (const char  *base_url,
                GError     **error)
{
  g_autoptr(GUri) uri = NULL;
  AtpClient *self;

  if (!check_url (base_url, &uri, error))
    return NULL;

  self = g_object_new (ATP_TYPE_CLIENT, "base-url", base_url, NULL);
  self->needs_network = !atp_host_is_loopback (g_uri_get_host (uri));

  return self;
}

AtpClient *
atp_client_new_for_socket (const char *socket_path)
{
  g_return_val_if_fail (socket_path != NULL && *socket_path != '\0', NULL);

  return g_object_new (ATP_TYPE_CLIENT, "socket-path", socket_path, NULL);
}

const char *
atp_client_get_base_url (AtpClient *self)
{
  g_return_val_if_fail (ATP_IS_CLIENT (self), NULL);

  return self->base_url;
}

const char *
atp_client_get_socket_path (AtpClient *self)
{
  g_return_val_if_fail (ATP_IS_CLIENT (self), NULL);

  return self->socket_path;
}

gboolean
atp_client_is_local (AtpClient *self)
{
  g_return_val_if_fail (ATP_IS_CLIENT (self), FALSE);

  return self->socket_path != NULL;
}

const char *
atp_client_get_display_name (AtpClient *self)
{
  g_return_val_if_fail (ATP_IS_CLIENT (self), NULL);

  return self->display_name;
}

void
atp_client_set_token (AtpClient  *self,
                      const char *token)
{
  g_return_if_fail (ATP_IS_CLIENT (self));

  if (token != NULL && *token == '\0')
    token = NULL;

  if (g_strcmp0 (self->token, token) == 0)
    return;

  clear_token (self);
  self->token = g_strdup (token);
  /* GObject never emits notify for a property that cannot be read. */
  g_signal_emit (self, signals [TOKEN_CHANGED], 0);
}

gboolean
atp_client_has_token (AtpClient *self)
{
  g_return_val_if_fail (ATP_IS_CLIENT (self), FALSE);

  return self->token != NULL;
}

void
atp_client_set_service (AtpClient  *self,
                        const char *service_id,
                        const char *service_name)
{
  g_autofree char *id = NULL;
  g_autofree char *name = NULL;

  g_return_if_fail (ATP_IS_CLIENT (self));

  id = g_strdup (service_id);
  name = g_strdup (service_name);

  if (g_strcmp0 (self->service_id, id) != 0)
    {
      g_free (self->service_id);
      self->service_id = g_steal_pointer (&id);
      g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_SERVICE_ID]);
    }

  if (g_strcmp0 (self->service_name, name) != 0)
    {
      g_free (self->service_name);
      self->service_name = g_steal_pointer (&name);
      g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_SERVICE_NAME]);
    }
}

const char *
atp_client_get_service_id (AtpClient *self)
{
  g_return_val_if_fail (ATP_IS_CLIENT (self), NULL);

  return self->service_id;
}

void
atp_client_set_timeout (AtpClient *self,
                        guint      seconds)
{
  g_return_if_fail (ATP_IS_CLIENT (self));

  seconds = CLAMP (seconds, 1, 3600);
  if (self->timeout_s == seconds)
    return;

  self->timeout_s = seconds;
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_TIMEOUT]);
}

guint
atp_client_get_timeout (AtpClient *self)
{
  g_return_val_if_fail (ATP_IS_CLIENT (self), 0);

  return self->timeout_s;
}

/**
 * atp_client_set_protocols:
 * @self: an #AtpClient
 * @mask: one bit per #AtpProtocol; ATP's is always included
 *
 * The protocols whose requests the client list and the stream bring: a
 * client that can show requests of other protocols than ATP opts in to them
 * (without it the server sends ATP requests only).
 */
void
atp_client_set_protocols (AtpClient *self,
                          guint      mask)
{
  g_return_if_fail (ATP_IS_CLIENT (self));

  self->protocols = (mask & ATP_PROTOCOL_MASK_ALL) | (1u << ATP_PROTOCOL_ATP);
}

guint
atp_client_get_protocols (AtpClient *self)
{
  g_return_val_if_fail (ATP_IS_CLIENT (self), 1u << ATP_PROTOCOL_ATP);

  return self->protocols;
}

/* Private API */

char *
atp_client_dup_protocols_param (AtpClient *self)
{
  GString *names;

  if (self->protocols == 1u << ATP_PROTOCOL_ATP)
    return NULL;

  names = g_string_new (NULL);
  for (guint i = 0; i < ATP_N_PROTOCOLS; i++)
    if (self->protocols & (1u << i))
      g_string_append_printf (names, "%s%s", names->len > 0 ? "," : "", atp_protocol_to_string (i));

  return g_string_free (names, FALSE);
}

SoupSession *
atp_client_get_session (AtpClient *self)
{
  return self->session;
}

gboolean
atp_client_needs_network (AtpClient *self)
{
  return self->needs_network;
}

SoupMessage *
atp_client_new_message (AtpClient  *self,
                        const char *method,
                        const char *path_and_query,
                        gboolean    service_call)
{
  g_autofree char *url = g_strconcat (self->base_url, path_and_query, NULL);
  SoupMessage *message;
  SoupMessageHeaders *headers;

  message = soup_message_new (method, url);
  g_return_val_if_fail (message != NULL, NULL);

  soup_message_add_flags (message, SOUP_MESSAGE_NO_REDIRECT);
  headers = soup_message_get_request_headers (message);
  soup_message_headers_replace (headers, "Accept", "application/json");

  if (self->token != NULL)
    {
      g_autofree char *bearer = g_strconcat ("Bearer ", self->token, NULL);

      soup_message_headers_replace (headers, "Authorization", bearer);
      memset (bearer, 0, strlen (bearer));
    }

  if (service_call && self->service_id != NULL)
    {
      soup_message_headers_replace (headers, "X-Triage-Service", self->service_id);
      if (self->service_name != NULL)
        soup_message_headers_replace (headers, "X-Triage-Service-Name", self->service_name);
    }

  return message;
}

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

GError *
atp_client_connection_error (AtpClient    *self,
                             const GError *error,
                             gboolean      mid_answer)
{
  const char *detail = describe_transport_error (error);

  if (error->domain == G_TLS_ERROR)
    return g_error_new (ATP_ERROR, ATP_ERROR_CONNECTION_FAILED,
                        "Cannot reach %s: secure connection failed: %s",
                        self->display_name, error->message);

  if (error->domain == G_RESOLVER_ERROR)
    return g_error_new (ATP_ERROR, ATP_ERROR_CONNECTION_FAILED,
                        "Cannot reach %s: unknown host (%s)", self->display_name, error->message);

  if (mid_answer)
    return g_error_new (ATP_ERROR, ATP_ERROR_CONNECTION_FAILED,
                        "The connection to %s broke before the answer was complete: %s",
                        self->display_name, detail);

  return g_error_new (ATP_ERROR, ATP_ERROR_CONNECTION_FAILED,
                      "Cannot reach %s: %s", self->display_name, detail);
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

GError *
atp_client_http_error (SoupMessage *message,
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
      if (info->request_id == NULL && request_id != NULL)
        {
          AtpErrorInfo *with_id = atp_error_info_new (info->code, info->message, info->details,
                                                      request_id);

          atp_error_info_unref (info);
          info = with_id;
        }
      return atp_error_info_to_gerror (info);
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

static gboolean
id_is_sendable (const char  *id,
                const char  *what,
                GError     **error)
{
  if (id == NULL || !atp_is_uuid_v4 (id))
    {
      g_set_error (error, ATP_ERROR, ATP_ERROR_INVALID_FIELD_VALUE,
                   "%s: “%s” is not a notification id (a UUID v4)", what, id ? id : "");
      return FALSE;
    }
  return TRUE;
}

static void
report_bad_id (AtpClient           *self,
               const char          *id,
               gpointer             source_tag,
               GAsyncReadyCallback  callback,
               gpointer             user_data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GTask) task = g_task_new (self, NULL, callback, user_data);

  g_task_set_source_tag (task, source_tag);
  id_is_sendable (id, "notification_id", &error);
  g_task_return_error (task, g_steal_pointer (&error));
}

/* Parsers */

static gboolean
read_optional_string (JsonObject  *object,
                      const char  *name,
                      const char **value,
                      GError     **error)
{
  JsonNode *node = atp_object_get (object, name);

  *value = NULL;
  if (node == NULL)
    return TRUE;

  if (json_node_get_value_type (node) != G_TYPE_STRING)
    {
      g_set_error (error, ATP_ERROR, ATP_ERROR_PROTOCOL, "“%s” is not a string", name);
      return FALSE;
    }

  *value = json_node_get_string (node);
  return TRUE;
}

static gpointer
parse_notification (AtpClient  *self,
                    JsonNode   *root,
                    gpointer    op_data,
                    GError    **error)
{
  return atp_notification_new_from_json (root, ATP_PARSE_DEFAULT, error);
}

static gpointer
parse_page (AtpClient  *self,
            JsonNode   *root,
            gpointer    op_data,
            GError    **error)
{
  g_autoptr(AtpNotificationPage) page = notification_page_new ();
  JsonObject *object = json_node_get_object (root);
  JsonNode *list = atp_object_get (object, "notifications");
  JsonNode *pagination = atp_object_get (object, "pagination");
  JsonArray *array;

  if (list == NULL || !JSON_NODE_HOLDS_ARRAY (list))
    {
      g_set_error_literal (error, ATP_ERROR, ATP_ERROR_PROTOCOL,
                           "“notifications” is missing or not an array");
      return NULL;
    }

  array = json_node_get_array (list);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      g_autoptr(GError) item_error = NULL;
      AtpNotification *notification;

      notification = atp_notification_new_from_json (json_array_get_element (array, i),
                                                     ATP_PARSE_DEFAULT, &item_error);
      /* One broken item must not hide the others from the person. */
      if (notification == NULL)
        g_message ("Skipped item %u of a notification list from %s: %s",
                   i, self->display_name, item_error->message);
      else
        g_ptr_array_add (page->notifications, notification);
    }

  if (pagination != NULL)
    {
      JsonObject *p;
      JsonNode *node;
      const char *cursor = NULL;

      if (!JSON_NODE_HOLDS_OBJECT (pagination))
        {
          g_set_error_literal (error, ATP_ERROR, ATP_ERROR_PROTOCOL, "“pagination” is not an object");
          return NULL;
        }

      p = json_node_get_object (pagination);
      if (!read_optional_string (p, "next_cursor", &cursor, error))
        return NULL;
      page->next_cursor = g_strdup (cursor);

      node = atp_object_get (p, "has_more");
      if (node != NULL && json_node_get_value_type (node) == G_TYPE_BOOLEAN)
        page->has_more = json_node_get_boolean (node);
      else if (node != NULL)
        {
          g_set_error_literal (error, ATP_ERROR, ATP_ERROR_PROTOCOL,
                               "“pagination.has_more” is not a boolean");
          return NULL;
        }

      node = atp_object_get (p, "total_count");
      if (node != NULL && json_node_get_value_type (node) == G_TYPE_INT64)
        page->total_count = json_node_get_int (node);
    }

  return g_steal_pointer (&page);
}

typedef struct
{
  char     *notification_id;
  char     *action_id;
  JsonNode *response_data;
} RespondData;

static void
respond_data_free (RespondData *data)
{
  g_free (data->notification_id);
  g_free (data->action_id);
  g_clear_pointer (&data->response_data, json_node_unref);
  g_free (data);
}

static gpointer
parse_respond (AtpClient  *self,
               JsonNode   *root,
               gpointer    op_data,
               GError    **error)
{
  RespondData *data = op_data;
  JsonObject *object = json_node_get_object (root);
  const char *id = NULL;
  const char *action_id = NULL;
  const char *when = NULL;
  const char *responder_id = "";
  AtpResponderType responder_type = ATP_RESPONDER_HUMAN;
  g_autoptr(GDateTime) responded_at = NULL;
  JsonNode *responder;

  if (!read_optional_string (object, "notification_id", &id, error) ||
      !read_optional_string (object, "action_id", &action_id, error) ||
      !read_optional_string (object, "responded_at", &when, error))
    return NULL;

  if (id != NULL && g_ascii_strcasecmp (id, data->notification_id) != 0)
    {
      g_set_error (error, ATP_ERROR, ATP_ERROR_PROTOCOL,
                   "the answer names notification %s, not %s", id, data->notification_id);
      return NULL;
    }

  if (when != NULL && (responded_at = atp_parse_timestamp (when)) == NULL)
    {
      g_set_error (error, ATP_ERROR, ATP_ERROR_PROTOCOL,
                   "“responded_at” is not an RFC 3339 time: %s", when);
      return NULL;
    }
  if (responded_at == NULL)
    responded_at = g_date_time_new_now_utc ();

  responder = atp_object_get (object, "responder");
  if (responder != NULL && JSON_NODE_HOLDS_OBJECT (responder))
    {
      JsonObject *r = json_node_get_object (responder);
      const char *rid = NULL;
      const char *rtype = NULL;

      if (read_optional_string (r, "id", &rid, NULL) && rid != NULL)
        responder_id = rid;
      if (read_optional_string (r, "type", &rtype, NULL) && rtype != NULL)
        atp_responder_type_from_string (rtype, &responder_type);
    }

  return atp_response_new (data->notification_id,
                           action_id != NULL ? action_id : data->action_id,
                           data->response_data, responded_at, responder_id, responder_type);
}

static gpointer
parse_post (AtpClient  *self,
            JsonNode   *root,
            gpointer    op_data,
            GError    **error)
{
  JsonObject *object = json_node_get_object (root);
  g_autoptr(AtpPostResult) post = NULL;
  const char *id = NULL;
  const char *status = NULL;
  const char *estimate = NULL;

  if (!read_optional_string (object, "notification_id", &id, error) ||
      !read_optional_string (object, "status", &status, error) ||
      !read_optional_string (object, "estimated_delivery", &estimate, error))
    return NULL;

  if (id == NULL || !atp_is_uuid_v4 (id))
    {
      g_set_error_literal (error, ATP_ERROR, ATP_ERROR_PROTOCOL,
                           "“notification_id” is missing or not a UUID v4");
      return NULL;
    }

  post = g_new0 (AtpPostResult, 1);
  g_atomic_ref_count_init (&post->ref_count);
  post->notification_id = g_strdup (id);
  post->status = ATP_STATUS_CREATED;
  if (status != NULL && !atp_status_from_string (status, &post->status))
    {
      g_set_error (error, ATP_ERROR, ATP_ERROR_PROTOCOL, "unknown status “%s”", status);
      return NULL;
    }
  if (estimate != NULL)
    post->estimated_delivery = atp_parse_timestamp (estimate);

  return g_steal_pointer (&post);
}

static gpointer
parse_any_object (AtpClient  *self,
                  JsonNode   *root,
                  gpointer    op_data,
                  GError    **error)
{
  /* Any non-NULL pointer; the result is a boolean. */
  return GINT_TO_POINTER (TRUE);
}

/* Client role */

SoupMessage *
atp_client_new_list_message (AtpClient          *self,
                             const AtpListQuery *query)
{
  g_autoptr(GString) path = NULL;
  g_autofree char *protocols = NULL;
  char sep = '?';

  path = g_string_new ("/api/v1/client/notifications");

#define ADD_PARAM(name, value)                                          \
  G_STMT_START {                                                        \
    g_string_append_printf (path, "%c%s=", sep, name);                  \
    g_string_append_uri_escaped (path, value, NULL, FALSE);             \
    sep = '&';                                                          \
  } G_STMT_END

  protocols = atp_client_dup_protocols_param (self);
  if (protocols != NULL)
    ADD_PARAM ("protocols", protocols);

  if (query != NULL)
    {
      if (query->status != NULL)
        ADD_PARAM ("status", query->status);
      if (query->service_id != NULL)
        ADD_PARAM ("service_id", query->service_id);
      if (query->project != NULL)
        ADD_PARAM ("project", query->project);
      if (query->cursor != NULL)
        ADD_PARAM ("cursor", query->cursor);
      if (query->limit > 0)
        {
          char limit[16];

          g_snprintf (limit, sizeof limit, "%u", MIN (query->limit, ATP_CLIENT_PAGE_LIMIT));
          ADD_PARAM ("limit", limit);
        }
      ADD_PARAM ("sort", query->oldest_first ? "oldest" : "newest");
    }

#undef ADD_PARAM

  return atp_client_new_message (self, "GET", path->str, FALSE);
}

void
atp_client_start_list (AtpClient           *self,
                       SoupMessage         *message,
                       GCancellable        *cancellable,
                       GAsyncReadyCallback  callback,
                       gpointer             user_data)
{
  atp_client_start_request (self, message, 0, ATP_CLIENT_MAX_PAGE_SIZE, parse_page, NULL, NULL,
                            (GDestroyNotify) atp_notification_page_unref,
                            atp_client_list_notifications_async, cancellable, callback, user_data);
}

void
atp_client_list_notifications_async (AtpClient           *self,
                                     const AtpListQuery  *query,
                                     GCancellable        *cancellable,
                                     GAsyncReadyCallback  callback,
                                     gpointer             user_data)
{
  g_return_if_fail (ATP_IS_CLIENT (self));

  atp_client_start_list (self, atp_client_new_list_message (self, query), cancellable, callback,
                         user_data);
}

AtpNotificationPage *
atp_client_list_notifications_finish (AtpClient     *self,
                                      GAsyncResult  *result,
                                      GError       **error)
{
  return atp_client_request_finish (self, result, atp_client_list_notifications_async, error);
}

void
atp_client_get_notification_async (AtpClient           *self,
                                   const char          *notification_id,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  g_autofree char *path = NULL;

  g_return_if_fail (ATP_IS_CLIENT (self));

  if (!id_is_sendable (notification_id, "notification_id", NULL))
    {
      report_bad_id (self, notification_id, atp_client_get_notification_async, callback, user_data);
      return;
    }

  path = g_strdup_printf ("/api/v1/client/notifications/%s", notification_id);
  atp_client_start_request (self, atp_client_new_message (self, "GET", path, FALSE), 0,
                 ATP_CLIENT_MAX_ANSWER_SIZE, parse_notification, NULL, NULL,
                 (GDestroyNotify) atp_notification_unref,
                 atp_client_get_notification_async, cancellable, callback, user_data);
}

AtpNotification *
atp_client_get_notification_finish (AtpClient     *self,
                                    GAsyncResult  *result,
                                    GError       **error)
{
  return atp_client_request_finish (self, result, atp_client_get_notification_async, error);
}

void
atp_client_respond_async (AtpClient           *self,
                          const char          *notification_id,
                          const char          *action_id,
                          JsonNode            *response_data,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  g_autoptr(JsonObject) body = NULL;
  g_autoptr(JsonNode) root = NULL;
  SoupMessage *message;
  RespondData *data;
  char *text;
  gsize length;

  g_return_if_fail (ATP_IS_CLIENT (self));
  g_return_if_fail (action_id != NULL);

  if (!id_is_sendable (notification_id, "notification_id", NULL))
    {
      report_bad_id (self, notification_id, atp_client_respond_async, callback, user_data);
      return;
    }

  data = g_new0 (RespondData, 1);
  data->notification_id = g_strdup (notification_id);
  data->action_id = g_strdup (action_id);
  data->response_data = response_data != NULL ? json_node_copy (response_data)
                                              : json_node_new (JSON_NODE_NULL);

  body = json_object_new ();
  json_object_set_string_member (body, "notification_id", notification_id);
  json_object_set_string_member (body, "action_id", action_id);
  json_object_set_member (body, "response_data", json_node_copy (data->response_data));
  root = json_node_init_object (json_node_alloc (), body);
  text = atp_json_to_string (root, &length);

  message = atp_client_new_message (self, "POST", "/api/v1/client/respond", FALSE);
  atp_client_set_json_body (message, text, length);

  atp_client_start_request (self, message, 0, ATP_CLIENT_MAX_ANSWER_SIZE, parse_respond,
                 data, (GDestroyNotify) respond_data_free, (GDestroyNotify) atp_response_unref,
                 atp_client_respond_async, cancellable, callback, user_data);
}

AtpResponse *
atp_client_respond_finish (AtpClient     *self,
                           GAsyncResult  *result,
                           GError       **error)
{
  return atp_client_request_finish (self, result, atp_client_respond_async, error);
}

/* Service role */

static void
post_notification (AtpClient           *self,
                   char                *text,
                   gsize                length,
                   GCancellable        *cancellable,
                   GAsyncReadyCallback  callback,
                   gpointer             user_data)
{
  SoupMessage *message = atp_client_new_message (self, "POST", "/api/v1/notifications", TRUE);

  atp_client_set_json_body (message, text, length);
  atp_client_start_request (self, message, 0, ATP_CLIENT_MAX_ANSWER_SIZE, parse_post, NULL, NULL,
                 (GDestroyNotify) atp_post_result_unref,
                 atp_client_post_notification_async, cancellable, callback, user_data);
}

void
atp_client_post_notification_async (AtpClient           *self,
                                    AtpNotification     *notification,
                                    GCancellable        *cancellable,
                                    GAsyncReadyCallback  callback,
                                    gpointer             user_data)
{
  char *text;
  gsize length;

  g_return_if_fail (ATP_IS_CLIENT (self));
  g_return_if_fail (notification != NULL);

  text = atp_notification_to_string (notification, &length);
  post_notification (self, text, length, cancellable, callback, user_data);
}

void
atp_client_post_notification_data_async (AtpClient           *self,
                                         const char          *data,
                                         gssize               length,
                                         GCancellable        *cancellable,
                                         GAsyncReadyCallback  callback,
                                         gpointer             user_data)
{
  g_return_if_fail (ATP_IS_CLIENT (self));
  g_return_if_fail (data != NULL);

  if (length < 0)
    length = strlen (data);

  post_notification (self, g_strndup (data, length), length, cancellable, callback, user_data);
}

AtpPostResult *
atp_client_post_notification_finish (AtpClient     *self,
                                     GAsyncResult  *result,
                                     GError       **error)
{
  return atp_client_request_finish (self, result, atp_client_post_notification_async, error);
}

void
atp_client_wait_notification_async (AtpClient           *self,
                                    const char          *notification_id,
                                    guint                wait_seconds,
                                    GCancellable        *cancellable,
                                    GAsyncReadyCallback  callback,
                                    gpointer             user_data)
{
  g_autofree char *path = NULL;

  g_return_if_fail (ATP_IS_CLIENT (self));

  if (!id_is_sendable (notification_id, "notification_id", NULL))
    {
      report_bad_id (self, notification_id, atp_client_wait_notification_async, callback, user_data);
      return;
    }

  wait_seconds = MIN (wait_seconds, ATP_CLIENT_MAX_WAIT_SECONDS);
  if (wait_seconds > 0)
    path = g_strdup_printf ("/api/v1/notifications/%s?wait=%u", notification_id, wait_seconds);
  else
    path = g_strdup_printf ("/api/v1/notifications/%s", notification_id);

  atp_client_start_request (self, atp_client_new_message (self, "GET", path, TRUE), wait_seconds,
                 ATP_CLIENT_MAX_ANSWER_SIZE, parse_notification, NULL, NULL,
                 (GDestroyNotify) atp_notification_unref,
                 atp_client_wait_notification_async, cancellable, callback, user_data);
}

AtpNotification *
atp_client_wait_notification_finish (AtpClient     *self,
                                     GAsyncResult  *result,
                                     GError       **error)
{
  return atp_client_request_finish (self, result, atp_client_wait_notification_async, error);
}

void
atp_client_invalidate_async (AtpClient           *self,
                             const char          *notification_id,
                             const char          *reason,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_autofree char *path = NULL;
  g_autoptr(JsonObject) body = NULL;
  g_autoptr(JsonNode) root = NULL;
  SoupMessage *message;
  char *text;
  gsize length;

  g_return_if_fail (ATP_IS_CLIENT (self));

  if (!id_is_sendable (notification_id, "notification_id", NULL))
    {
      report_bad_id (self, notification_id, atp_client_invalidate_async, callback, user_data);
      return;
    }

  body = json_object_new ();
  json_object_set_string_member (body, "status", "invalidated");
  if (reason != NULL)
    json_object_set_string_member (body, "reason", reason);
  root = json_node_init_object (json_node_alloc (), body);
  text = atp_json_to_string (root, &length);

  path = g_strdup_printf ("/api/v1/notifications/%s", notification_id);
  message = atp_client_new_message (self, "PATCH", path, TRUE);
  atp_client_set_json_body (message, text, length);

  atp_client_start_request (self, message, 0, ATP_CLIENT_MAX_ANSWER_SIZE, parse_any_object, NULL, NULL,
                 NULL, atp_client_invalidate_async, cancellable, callback, user_data);
}

gboolean
atp_client_invalidate_finish (AtpClient     *self,
                              GAsyncResult  *result,
                              GError       **error)
{
  return atp_client_request_finish (self, result, atp_client_invalidate_async, error) != NULL;
}
