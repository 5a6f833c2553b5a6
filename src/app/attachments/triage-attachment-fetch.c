/* triage-attachment-fetch.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-fetch"

#include <glib/gi18n.h>

#include "triage-attachment-fetch.h"
#include "triage-attachment-error.h"

#define READ_CHUNK_SIZE (64 * 1024)

static gboolean
host_is_valid (const char *host)
{
  if (host == NULL || *host == '\0')
    return FALSE;

  if (g_hostname_is_ip_address (host))
    return TRUE;

  /* After GUri's IDN handling a DNS name is ASCII letters, digits, '-' and '.'. */
  for (const char *p = host; *p; p++)
    {
      if (!g_ascii_isalnum (*p) && *p != '-' && *p != '.')
        return FALSE;
    }

  return TRUE;
}

/* An IPv4 address written as IPv6 (::ffff:a.b.c.d) is that IPv4 address. */
static GInetAddress *
inet_address_unmap (GInetAddress *address)
{
  const guint8 *bytes;

  if (g_inet_address_get_family (address) != G_SOCKET_FAMILY_IPV6)
    return g_object_ref (address);

  bytes = g_inet_address_to_bytes (address);
  for (guint i = 0; i < 10; i++)
    {
      if (bytes[i] != 0)
        return g_object_ref (address);
    }
  if (bytes[10] != 0xff || bytes[11] != 0xff)
    return g_object_ref (address);

  return g_inet_address_new_from_bytes (bytes + 12, G_SOCKET_FAMILY_IPV4);
}

static GInetAddress *
inet_address_parse (const char *host)
{
  g_autoptr(GInetAddress) address = g_inet_address_new_from_string (host);

  return address != NULL ? inet_address_unmap (address) : NULL;
}

static gboolean
host_is_loopback (const char *host)
{
  g_autoptr(GInetAddress) address = NULL;

  if (g_ascii_strcasecmp (host, "localhost") == 0)
    return TRUE;

  address = inet_address_parse (host);

  return address != NULL && g_inet_address_get_is_loopback (address);
}

typedef enum
{
  LOCALITY_INTERNET,
  LOCALITY_LOCAL_NETWORK,
  LOCALITY_THIS_COMPUTER,
} Locality;

/*
 * How close to the user @host is. A server must never send Triage closer than
 * itself: to services on this computer, a router, a cloud's metadata address.
 */
static Locality
host_locality (const char *host)
{
  g_autoptr(GInetAddress) address = NULL;
  gsize length = strlen (host);

  if (host_is_loopback (host) ||
      (length > strlen (".localhost") &&
       g_ascii_strcasecmp (host + length - strlen (".localhost"), ".localhost") == 0))
    return LOCALITY_THIS_COMPUTER;

  address = inet_address_parse (host);
  if (address == NULL)
    return LOCALITY_INTERNET;

  /* 0.0.0.0 and :: connect to this computer on Linux. */
  if (g_inet_address_get_is_any (address))
    return LOCALITY_THIS_COMPUTER;

  if (g_inet_address_get_is_link_local (address) || g_inet_address_get_is_site_local (address))
    return LOCALITY_LOCAL_NETWORK;

  /* Unique local IPv6 addresses (fc00::/7), which GLib does not count as site-local. */
  if (g_inet_address_get_family (address) == G_SOCKET_FAMILY_IPV6 &&
      (g_inet_address_to_bytes (address)[0] & 0xfe) == 0xfc)
    return LOCALITY_LOCAL_NETWORK;

  return LOCALITY_INTERNET;
}

/**
 * triage_attachment_check_uri:
 * @uri: an attachment's address, untrusted
 * @error: %TRIAGE_ATTACHMENT_ERROR_INVALID_URI or %TRIAGE_ATTACHMENT_ERROR_URI_REFUSED
 *
 * Applies Triage's rules for attachment addresses: https to anywhere, plain
 * http only to this computer (localhost or a loopback address), never
 * `file:` or any other scheme, and no user name or password in the address.
 *
 * Returns: (transfer full) (nullable): the parsed address if it may be loaded
 */
GUri *
triage_attachment_check_uri (const char  *uri,
                             GError     **error)
{
  g_autoptr(GUri) parsed = NULL;
  const char *scheme;
  const char *host;

  if (uri == NULL || *uri == '\0')
    {
      g_set_error_literal (error, TRIAGE_ATTACHMENT_ERROR, TRIAGE_ATTACHMENT_ERROR_INVALID_URI,
                           _("The attachment’s address is empty"));
      return NULL;
    }

  parsed = g_uri_parse (uri, G_URI_FLAGS_ENCODED, NULL);
  if (parsed == NULL)
    {
      g_set_error_literal (error, TRIAGE_ATTACHMENT_ERROR, TRIAGE_ATTACHMENT_ERROR_INVALID_URI,
                           _("The attachment’s address is not a valid URL"));
      return NULL;
    }

  scheme = g_uri_get_scheme (parsed);
  if (g_ascii_strcasecmp (scheme, "https") != 0 && g_ascii_strcasecmp (scheme, "http") != 0)
    {
      /* GUri only accepts letters, digits, '+', '-' and '.' in a scheme. */
      g_set_error (error, TRIAGE_ATTACHMENT_ERROR, TRIAGE_ATTACHMENT_ERROR_URI_REFUSED,
                   _("Triage never loads “%s:” addresses; only https, or http to this "
                     "computer, is allowed"), scheme);
      return NULL;
    }

  host = g_uri_get_host (parsed);
  if (!host_is_valid (host))
    {
      g_set_error_literal (error, TRIAGE_ATTACHMENT_ERROR, TRIAGE_ATTACHMENT_ERROR_INVALID_URI,
                           _("The attachment’s address has no valid host name"));
      return NULL;
    }

  if (g_uri_get_userinfo (parsed) != NULL)
    {
      g_set_error_literal (error, TRIAGE_ATTACHMENT_ERROR, TRIAGE_ATTACHMENT_ERROR_URI_REFUSED,
                           _("Addresses that carry a user name or password are never loaded"));
      return NULL;
    }

  if (g_ascii_strcasecmp (scheme, "http") == 0 && !host_is_loopback (host))
    {
      g_set_error (error, TRIAGE_ATTACHMENT_ERROR, TRIAGE_ATTACHMENT_ERROR_URI_REFUSED,
                   _("Plain http is only used for this computer; “%s” must be reached "
                     "over https"), host);
      return NULL;
    }

  return g_steal_pointer (&parsed);
}

/**
 * triage_attachment_check_redirect:
 * @agreed: the address the user chose to load
 * @target: where the server redirected, as an absolute address
 * @error: %TRIAGE_ATTACHMENT_ERROR_REDIRECTED, %TRIAGE_ATTACHMENT_ERROR_URI_REFUSED or
 *   %TRIAGE_ATTACHMENT_ERROR_INVALID_URI
 *
 * Decides whether a download from @agreed may follow a redirect to @target
 * without asking. It may when @target passes triage_attachment_check_uri(),
 * stays on the host the user agreed to, and keeps https unless @agreed was
 * itself plain http to this computer. A server elsewhere can never send
 * Triage to this computer or its local network (%TRIAGE_ATTACHMENT_ERROR_URI_REFUSED).
 * Any other host is %TRIAGE_ATTACHMENT_ERROR_REDIRECTED: a message that names the
 * new address, which the user may then choose to load.
 *
 * Returns: (transfer full) (nullable): the parsed @target if it may be followed
 */
GUri *
triage_attachment_check_redirect (GUri        *agreed,
                                  const char  *target,
                                  GError     **error)
{
  g_autoptr(GUri) parsed = NULL;
  g_autofree char *display = NULL;
  const char *agreed_host;
  const char *host;

  g_return_val_if_fail (agreed != NULL, NULL);

  parsed = triage_attachment_check_uri (target, error);
  if (parsed == NULL)
    return NULL;

  agreed_host = g_uri_get_host (agreed);
  host = g_uri_get_host (parsed);
  display = triage_attachment_uri_display (parsed, NULL, NULL);

  if (host_locality (host) > host_locality (agreed_host))
    {
      g_set_error (error, TRIAGE_ATTACHMENT_ERROR, TRIAGE_ATTACHMENT_ERROR_URI_REFUSED,
                   _("The server at %s tried to send Triage to %s, an address on this "
                     "computer or its local network; that is never followed"),
                   agreed_host, display);
      return NULL;
    }

  if (g_ascii_strcasecmp (g_uri_get_scheme (parsed), "http") == 0 &&
      g_ascii_strcasecmp (g_uri_get_scheme (agreed), "http") != 0)
    {
      g_set_error (error, TRIAGE_ATTACHMENT_ERROR, TRIAGE_ATTACHMENT_ERROR_URI_REFUSED,
                   _("The server at %s redirected from https to plain http (%s); that is "
                     "never followed"), agreed_host, display);
      return NULL;
    }

  if (g_ascii_strcasecmp (host, agreed_host) != 0)
    {
      g_set_error (error, TRIAGE_ATTACHMENT_ERROR, TRIAGE_ATTACHMENT_ERROR_REDIRECTED,
                   _("The server at %s sent the attachment on to another address: %s. "
                     "Nothing was loaded from there; load it only if you trust that address."),
                   agreed_host, display);
      return NULL;
    }

  return g_steal_pointer (&parsed);
}

/* Percent-encodes whatever could render deceptively: controls, spaces, non-ASCII. */
static void
append_for_display (GString    *string,
                    const char *part)
{
  for (const guchar *p = (const guchar *) part; *p; p++)
    {
      if (*p <= 0x20 || *p >= 0x7f)
        g_string_append_printf (string, "%%%02X", *p);
      else
        g_string_append_c (string, *p);
    }
}

/**
 * triage_attachment_uri_display:
 * @uri: a parsed address
 * @host_start: (out) (optional): byte offset where the host starts in the result
 * @host_end: (out) (optional): byte offset just after the host
 *
 * Builds the text shown to the user for @uri: plain ASCII (international
 * host names in their xn-- form, everything else unusual percent-encoded),
 * so no character can disguise where the address leads. Loading the result
 * fetches exactly what is shown. Without a host, both offsets are 0.
 *
 * Returns: (transfer full): the address to show
 */
char *
triage_attachment_uri_display (GUri  *uri,
                               gsize *host_start,
                               gsize *host_end)
{
  GString *string;
  const char *host;
  gsize start = 0;
  gsize end = 0;

  g_return_val_if_fail (uri != NULL, NULL);

  string = g_string_new (NULL);
  append_for_display (string, g_uri_get_scheme (uri));
  g_string_append_c (string, ':');

  host = g_uri_get_host (uri);
  if (host != NULL)
    {
      g_autofree char *lower = g_ascii_strdown (host, -1);

      g_string_append (string, "//");
      if (g_uri_get_userinfo (uri) != NULL)
        {
          append_for_display (string, g_uri_get_userinfo (uri));
          g_string_append_c (string, '@');
        }

      if (strchr (lower, ':') != NULL)
        {
          g_string_append_c (string, '[');
          start = string->len;
          append_for_display (string, lower);
          end = string->len;
          g_string_append_c (string, ']');
        }
      else
        {
          start = string->len;
          append_for_display (string, lower);
          end = string->len;
        }

      if (g_uri_get_port (uri) != -1)
        g_string_append_printf (string, ":%d", g_uri_get_port (uri));
    }

  append_for_display (string, g_uri_get_path (uri));
  if (g_uri_get_query (uri) != NULL)
    {
      g_string_append_c (string, '?');
      append_for_display (string, g_uri_get_query (uri));
    }
  if (g_uri_get_fragment (uri) != NULL)
    {
      g_string_append_c (string, '#');
      append_for_display (string, g_uri_get_fragment (uri));
    }

  if (host_start != NULL)
    *host_start = start;
  if (host_end != NULL)
    *host_end = end;

  return g_string_free (string, FALSE);
}

typedef struct
{
  SoupSession  *session;
  GUri         *agreed;               /* the address the user chose */
  GUri         *uri;                  /* the one being loaded: @agreed or a redirect */
  GUri         *redirect;             /* another host a redirect named, not followed */
  gsize         max_size;
  guint         timeout_seconds;
  guint         redirects;
  GCancellable *cancellable;          /* ours: cancelled by the caller's or by the timer */
  GCancellable *caller_cancellable;
  gulong        cancelled_id;
  GSource      *timeout_source;
  gboolean      timed_out;
  GInputStream *stream;
  GByteArray   *buffer;
  char         *content_type;
} FetchData;

static void
fetch_data_free (gpointer data)
{
  FetchData *fd = data;

  if (fd->timeout_source != NULL)
    {
      g_source_destroy (fd->timeout_source);
      g_clear_pointer (&fd->timeout_source, g_source_unref);
    }
  if (fd->cancelled_id != 0)
    g_cancellable_disconnect (fd->caller_cancellable, fd->cancelled_id);
  g_clear_object (&fd->caller_cancellable);
  g_clear_object (&fd->cancellable);
  g_clear_object (&fd->session);
  g_clear_pointer (&fd->agreed, g_uri_unref);
  g_clear_pointer (&fd->uri, g_uri_unref);
  g_clear_pointer (&fd->redirect, g_uri_unref);
  if (fd->stream != NULL)
    g_input_stream_close_async (fd->stream, G_PRIORITY_DEFAULT, NULL, NULL, NULL);
  g_clear_object (&fd->stream);
  g_clear_pointer (&fd->buffer, g_byte_array_unref);
  g_clear_pointer (&fd->content_type, g_free);
  g_free (fd);
}

static void
on_caller_cancelled (GCancellable *caller_cancellable,
                     gpointer      user_data)
{
  g_cancellable_cancel (G_CANCELLABLE (user_data));
}

static gboolean
on_timeout (gpointer user_data)
{
  GTask *task = user_data;
  FetchData *fd = g_task_get_task_data (task);

  fd->timed_out = TRUE;
  g_cancellable_cancel (fd->cancellable);
  g_clear_pointer (&fd->timeout_source, g_source_unref);

  return G_SOURCE_REMOVE;
}

static void
fetch_return_error (GTask  *task,
                    GError *error)
{
  FetchData *fd = g_task_get_task_data (task);

  if (fd->timed_out && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_error_free (error);
      g_task_return_new_error (task, TRIAGE_ATTACHMENT_ERROR, TRIAGE_ATTACHMENT_ERROR_TIMED_OUT,
                               g_dngettext (GETTEXT_PACKAGE,
                                            "Loading from %s took longer than %u second",
                                            "Loading from %s took longer than %u seconds",
                                            fd->timeout_seconds),
                               g_uri_get_host (fd->uri), fd->timeout_seconds);
      return;
    }

  if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_prefix_error (&error, _("Could not load from %s: "), g_uri_get_host (fd->uri));

  g_task_return_error (task, error);
}

static void fetch_send (GTask *task);

static void
read_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  FetchData *fd = g_task_get_task_data (task);
  g_autoptr(GBytes) chunk = NULL;
  GError *error = NULL;
  gsize size;

  chunk = g_input_stream_read_bytes_finish (G_INPUT_STREAM (object), result, &error);
  if (chunk == NULL)
    {
      fetch_return_error (task, error);
      return;
    }

  size = g_bytes_get_size (chunk);
  if (size == 0)
    {
      g_task_return_pointer (task, g_byte_array_free_to_bytes (g_steal_pointer (&fd->buffer)),
                             (GDestroyNotify) g_bytes_unref);
      return;
    }

  if (size > fd->max_size - fd->buffer->len)
    {
      g_autofree char *limit = g_format_size (fd->max_size);

      g_task_return_new_error (task, TRIAGE_ATTACHMENT_ERROR, TRIAGE_ATTACHMENT_ERROR_TOO_LARGE,
                               _("The attachment at %s is larger than %s; the download "
                                 "was stopped"), g_uri_get_host (fd->uri), limit);
      return;
    }

  g_byte_array_append (fd->buffer, g_bytes_get_data (chunk, NULL), size);

  g_input_stream_read_bytes_async (fd->stream, READ_CHUNK_SIZE, G_PRIORITY_DEFAULT,
                                   fd->cancellable, read_cb, g_steal_pointer (&task));
}

static gboolean
follow_redirect (GTask        *task,
                 SoupMessage  *message,
                 GError      **error)
{
  FetchData *fd = g_task_get_task_data (task);
  g_autoptr(GUri) target = NULL;
  g_autoptr(GUri) checked = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *target_string = NULL;
  const char *location;

  location = soup_message_headers_get_one (soup_message_get_response_headers (message),
                                           "Location");
  if (location == NULL)
    {
      g_set_error (error, TRIAGE_ATTACHMENT_ERROR, TRIAGE_ATTACHMENT_ERROR_HTTP,
                   _("The server at %s answered a redirect without a destination"),
                   g_uri_get_host (fd->uri));
      return FALSE;
    }

  if (++fd->redirects > TRIAGE_ATTACHMENT_FETCH_MAX_REDIRECTS)
    {
      g_set_error (error, TRIAGE_ATTACHMENT_ERROR, TRIAGE_ATTACHMENT_ERROR_TOO_MANY_REDIRECTS,
                   g_dngettext (GETTEXT_PACKAGE,
                                "Loading from %s was redirected more than %d time",
                                "Loading from %s was redirected more than %d times",
                                TRIAGE_ATTACHMENT_FETCH_MAX_REDIRECTS),
                   g_uri_get_host (fd->uri), TRIAGE_ATTACHMENT_FETCH_MAX_REDIRECTS);
      return FALSE;
    }

  /*
   * Checked against the address the user agreed to, not the previous hop: a
   * server on the internet must not reach this computer by redirecting, and
   * another host is the user's choice, never followed silently.
   */
  target = g_uri_parse_relative (fd->uri, location, G_URI_FLAGS_ENCODED, NULL);
  if (target != NULL)
    target_string = g_uri_to_string (target);
  checked = triage_attachment_check_uri (target_string, &local_error);
  if (checked == NULL)
    {
      g_set_error (error, TRIAGE_ATTACHMENT_ERROR, local_error->code,
                   _("The server at %s redirected elsewhere, and that address is refused: %s"),
                   g_uri_get_host (fd->uri), local_error->message);
      return FALSE;
    }
  g_clear_pointer (&checked, g_uri_unref);

  checked = triage_attachment_check_redirect (fd->agreed, target_string, &local_error);
  if (checked == NULL)
    {
      if (g_error_matches (local_error, TRIAGE_ATTACHMENT_ERROR, TRIAGE_ATTACHMENT_ERROR_REDIRECTED))
        {
          /* Kept as shown in the message: loading what is shown fetches exactly that. */
          g_autofree char *display = triage_attachment_uri_display (target, NULL, NULL);

          fd->redirect = triage_attachment_check_uri (display, NULL);
        }

      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }

  g_clear_pointer (&fd->uri, g_uri_unref);
  fd->uri = g_steal_pointer (&checked);

  return TRUE;
}

static void
send_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  FetchData *fd = g_task_get_task_data (task);
  SoupMessage *message;
  SoupMessageHeaders *headers;
  GError *error = NULL;
  guint status;

  fd->stream = soup_session_send_finish (SOUP_SESSION (object), result, &error);
  if (fd->stream == NULL)
    {
      fetch_return_error (task, error);
      return;
    }

  message = soup_session_get_async_result_message (SOUP_SESSION (object), result);
  status = soup_message_get_status (message);
  headers = soup_message_get_response_headers (message);

  if (SOUP_STATUS_IS_REDIRECTION (status) && status != SOUP_STATUS_NOT_MODIFIED)
    {
      g_input_stream_close_async (fd->stream, G_PRIORITY_DEFAULT, NULL, NULL, NULL);
      g_clear_object (&fd->stream);

      if (!follow_redirect (task, message, &error))
        {
          g_task_return_error (task, error);
          return;
        }

      fetch_send (g_steal_pointer (&task));
      return;
    }

  if (!SOUP_STATUS_IS_SUCCESSFUL (status))
    {
      /* The standard phrase, not the server's: it is untrusted text. */
      g_task_return_new_error (task, TRIAGE_ATTACHMENT_ERROR, TRIAGE_ATTACHMENT_ERROR_HTTP,
                               _("The server at %s answered %u %s"),
                               g_uri_get_host (fd->uri), status,
                               soup_status_get_phrase (status) ? soup_status_get_phrase (status) : "");
      return;
    }

  if (soup_message_headers_get_encoding (headers) == SOUP_ENCODING_CONTENT_LENGTH &&
      (guint64) soup_message_headers_get_content_length (headers) > fd->max_size)
    {
      g_autofree char *have = g_format_size (soup_message_headers_get_content_length (headers));
      g_autofree char *limit = g_format_size (fd->max_size);

      g_task_return_new_error (task, TRIAGE_ATTACHMENT_ERROR, TRIAGE_ATTACHMENT_ERROR_TOO_LARGE,
                               _("The attachment at %s is %s, more than the %s allowed; "
                                 "it was not downloaded"),
                               g_uri_get_host (fd->uri), have, limit);
      return;
    }

  if (soup_message_headers_get_content_type (headers, NULL) != NULL)
    fd->content_type = g_ascii_strdown (soup_message_headers_get_content_type (headers, NULL), -1);

  fd->buffer = g_byte_array_new ();
  g_input_stream_read_bytes_async (fd->stream, READ_CHUNK_SIZE, G_PRIORITY_DEFAULT,
                                   fd->cancellable, read_cb, g_steal_pointer (&task));
}

static void
fetch_send (GTask *task)
{
  FetchData *fd = g_task_get_task_data (task);
  g_autoptr(SoupMessage) message = NULL;

  message = soup_message_new_from_uri (SOUP_METHOD_GET, fd->uri);
  /* Redirects are followed by hand so that each hop passes the address rules. */
  soup_message_add_flags (message, SOUP_MESSAGE_NO_REDIRECT);

  soup_session_send_async (fd->session, message, G_PRIORITY_DEFAULT, fd->cancellable,
                           send_cb, task);
}

/**
 * triage_attachment_fetch_async:
 * @session: (nullable): the session to use; %NULL makes a private one
 * @uri: an address accepted by triage_attachment_check_uri()
 * @max_size: the largest body accepted, in bytes, counted after content decoding
 * @timeout_seconds: the time allowed for the whole download, redirects included
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when done
 * @user_data: data for @callback
 *
 * Downloads an attachment the user asked for. A declared Content-Length over
 * @max_size is refused before the body is read; otherwise reading stops as
 * soon as the body grows past it. Redirects are followed (at most
 * %TRIAGE_ATTACHMENT_FETCH_MAX_REDIRECTS) only as
 * triage_attachment_check_redirect() allows: on the host the user agreed
 * to; a redirect to another host ends the download with
 * %TRIAGE_ATTACHMENT_ERROR_REDIRECTED.
 */
void
triage_attachment_fetch_async (SoupSession         *session,
                               GUri                *uri,
                               gsize                max_size,
                               guint                timeout_seconds,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  FetchData *fd;

  g_return_if_fail (!session || SOUP_IS_SESSION (session));
  g_return_if_fail (uri != NULL);
  g_return_if_fail (max_size > 0);
  g_return_if_fail (timeout_seconds > 0);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  fd = g_new0 (FetchData, 1);
  fd->session = session ? g_object_ref (session)
                        : soup_session_new_with_options ("user-agent", "Triage/" PACKAGE_VERSION,
                                                         NULL);
  fd->agreed = g_uri_ref (uri);
  fd->uri = g_uri_ref (uri);
  fd->max_size = max_size;
  fd->timeout_seconds = timeout_seconds;
  fd->cancellable = g_cancellable_new ();

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, triage_attachment_fetch_async);
  g_task_set_task_data (task, fd, fetch_data_free);

  if (cancellable != NULL)
    {
      fd->caller_cancellable = g_object_ref (cancellable);
      fd->cancelled_id = g_cancellable_connect (cancellable, G_CALLBACK (on_caller_cancelled),
                                                g_object_ref (fd->cancellable), g_object_unref);
    }

  fd->timeout_source = g_timeout_source_new_seconds (timeout_seconds);
  g_task_attach_source (task, fd->timeout_source, on_timeout);

  fetch_send (g_steal_pointer (&task));
}

/**
 * triage_attachment_fetch_finish:
 * @result: the #GAsyncResult
 * @content_type: (out) (optional) (nullable): the Content-Type the server
 *   declared, lower case, without parameters
 * @redirect: (out) (optional) (nullable): with %TRIAGE_ATTACHMENT_ERROR_REDIRECTED,
 *   the address on another host that the server named, as shown in the
 *   message; it passes triage_attachment_check_uri() and is the user's to load
 * @error: a %TRIAGE_ATTACHMENT_ERROR, a network error (prefixed with the host), or
 *   %G_IO_ERROR_CANCELLED
 *
 * Returns: (transfer full): the body
 */
GBytes *
triage_attachment_fetch_finish (GAsyncResult  *result,
                                char         **content_type,
                                GUri         **redirect,
                                GError       **error)
{
  FetchData *fd;

  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == triage_attachment_fetch_async,
                        NULL);

  fd = g_task_get_task_data (G_TASK (result));
  if (content_type != NULL)
    *content_type = g_strdup (fd->content_type);
  if (redirect != NULL)
    *redirect = fd->redirect ? g_uri_ref (fd->redirect) : NULL;

  return g_task_propagate_pointer (G_TASK (result), error);
}
