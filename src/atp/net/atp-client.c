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
  gint64       hold_until;    /* monotonic usec: the server's Retry-After, for every request */
  GSource     *hold_over;     /* fires at hold_until, in the context the refusal came in */
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
  PROP_HOLD_UNTIL,
  N_PROPS
};

static GParamSpec *properties [N_PROPS];

enum {
  TOKEN_CHANGED,
  N_SIGNALS
};

static guint signals [N_SIGNALS];

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

  /* GLib's parser takes "https://triage example.com" (a host with a
   * space), which no lookup ever finds: refused here, where it is said. */
  for (const char *p = url; *p != '\0'; p++)
    if (g_ascii_isspace (*p) || g_ascii_iscntrl (*p))
      {
        g_set_error (error, ATP_ERROR, ATP_ERROR_INVALID_FIELD_VALUE,
                     "“%s” is not a server address: it contains %s, which an address cannot "
                     "have", url, *p == ' ' ? "a space" : "a blank or control character");
        return FALSE;
      }

  uri = g_uri_parse (url, G_URI_FLAGS_NONE, &local_error);
  /* "triage.example.com:8443" or "localhost:8443" parse as a scheme and a
   * path: no "://" is an address typed without its scheme. */
  if (uri == NULL || strstr (url, "://") == NULL)
    {
      g_autofree char *with_https = g_strconcat ("https://", url, NULL);

      if (strstr (url, "://") == NULL && check_url (with_https, NULL, NULL))
        g_set_error (error, ATP_ERROR, ATP_ERROR_INVALID_FIELD_VALUE,
                     "“%s” is not a server address: it must begin with https:// (%s)", url,
                     with_https);
      else
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
                   "“%s” is not a server address: its scheme must be https:// (or http:// "
                   "for this computer), not %s://", url, scheme);
      return FALSE;
    }

  host = g_uri_get_host (uri);
  if (host == NULL || *host == '\0')
    {
      g_set_error (error, ATP_ERROR, ATP_ERROR_INVALID_FIELD_VALUE,
                   "“%s” has no host name", url);
      return FALSE;
    }

  /* No server listens there: every try would be "Connection refused". */
  if (g_uri_get_port (uri) == 0)
    {
      g_set_error (error, ATP_ERROR, ATP_ERROR_INVALID_FIELD_VALUE,
                   "“%s” names port 0, where no server listens (give the server's port, or "
                   "none for the scheme's own)", url);
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
                   "“%s” is not a server address: it may not contain a query (?) or fragment "
                   "(#); give the server's address alone", url);
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
  if (self->hold_over != NULL)
    g_source_destroy (self->hold_over);
  g_clear_pointer (&self->hold_over, g_source_unref);
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

    case PROP_HOLD_UNTIL:
      g_value_set_int64 (value, self->hold_until);
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
  /**
   * AtpClient:hold-until:
   *
   * atp_client_get_hold_until(): notified when a 429 or 503 starts or
   * lengthens the server's wait, and when the wait is over (then 0), so
   * that those who hold their requests back for it resume then.
   */
  properties [PROP_HOLD_UNTIL] =
    g_param_spec_int64 ("hold-until", NULL, NULL, 0, G_MAXINT64, 0,
                        G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

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

gint64
atp_client_get_hold_until (AtpClient *self)
{
  g_return_val_if_fail (ATP_IS_CLIENT (self), 0);

  return self->hold_until;
}

/**
 * atp_client_is_held:
 * @self: an #AtpClient
 *
 * Whether the server's wait (atp_client_get_hold_until()) is still on:
 * what those that send on their own check before each request, resuming
 * on #AtpClient:hold-until's notify once it is over.
 *
 * Returns: %TRUE until the end of the latest 429's or 503's Retry-After
 */
gboolean
atp_client_is_held (AtpClient *self)
{
  g_return_val_if_fail (ATP_IS_CLIENT (self), FALSE);

  return self->hold_until > g_get_monotonic_time ();
}

/* Private API */

static gboolean
hold_over_cb (gpointer data)
{
  AtpClient *self = data;

  g_clear_pointer (&self->hold_over, g_source_unref);
  self->hold_until = 0;
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_HOLD_UNTIL]);

  return G_SOURCE_REMOVE;
}

void
atp_client_hold_for (AtpClient    *self,
                     guint         status,
                     const GError *error)
{
  guint seconds = atp_error_get_retry_after (error);
  gint64 until;

  /* RFC 6585's 429 and 503 say when the server will take requests again;
   * libsoup 3.2 has no name for 429. */
  if ((status != 429 && status != SOUP_STATUS_SERVICE_UNAVAILABLE) || seconds == 0)
    return;

  until = g_get_monotonic_time () + (gint64) seconds * G_USEC_PER_SEC;
  if (until <= self->hold_until)
    return;

  self->hold_until = until;
  /* One timer for the end of the wait, moved to the later end; whole
   * milliseconds, up: it never fires before the wait is over. */
  if (self->hold_over != NULL)
    g_source_destroy (self->hold_over);
  g_clear_pointer (&self->hold_over, g_source_unref);
  self->hold_over = g_timeout_source_new ((guint) (((gint64) seconds * G_USEC_PER_SEC + 999) / 1000));
  g_source_set_callback (self->hold_over, hold_over_cb, self, NULL);
  g_source_set_static_name (self->hold_over, "[atp] AtpClient hold over");
  g_source_attach (self->hold_over, g_main_context_get_thread_default ());
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_HOLD_UNTIL]);
}

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
