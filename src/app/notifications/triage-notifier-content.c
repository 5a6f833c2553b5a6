/* triage-notifier-content.c — what a bubble shows
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-notifier"

#include <glib/gi18n.h>
#include <string.h>

#include "triage-bubble-body.h"
#include "triage-decision-format.h"
#include "triage-image-types.h"
#include "triage-notifier-private.h"
#include "triage-protocol.h"

/*
 * A bubble's words, buttons and picture, from the untrusted request: pure
 * functions, callable from any thread (the notifier's runs libnotify), but
 * for the question of what the notification server does, a synchronous
 * call for that thread. The body is escaped for servers that read it as
 * markup; the icon is used only when it is inline data, decoded with size
 * limits, never fetched.
 */

#define MAX_ICON_SIDE   1024
#define ICON_SIZE       128

/**
 * triage_notifier_dup_summary:
 *
 * Returns: (transfer full): "Service: Title", the service with its
 *   protocol's mark if it has one ("Shop Bot (AITP): Title"); plain text,
 *   servers never interpret markup in a summary; a right-to-left name is
 *   kept in its place by LEFT-TO-RIGHT MARKs (triage_format_in_sentence())
 */
char *
triage_notifier_dup_summary (AtpNotification *notification)
{
  TriageProtocol *protocol;
  g_autofree char *name = NULL;
  g_autofree char *named = NULL;
  g_autofree char *service = NULL;
  g_autofree char *headline = NULL;
  g_autofree char *title = NULL;
  g_autofree char *summary = NULL;

  g_return_val_if_fail (notification != NULL, NULL);

  /* A long title is cut here, not by the server; a server that wraps it
   * rather than cut it needs places to break a long word (without them
   * notification-daemon draws it past the bubble's edge). */
  name = triage_format_shown_text (notification->service.name, TRIAGE_SHOWN_NAME_CHARS);
  /* A Hebrew or Arabic name ends its run before the colon: "Backup גיבוי: 3
   * files" was read "Backup 3 :גיבוי files", the title's number taken into
   * the name. */
  named = triage_format_in_sentence (name);
  service = triage_protocol_dup_marked (notification->protocol, named);
  protocol = triage_protocol_for_request (notification);
  headline = protocol ? triage_protocol_dup_headline (protocol, notification)
                      : g_strdup (notification->context.title);
  title = triage_format_shown_text (headline, TRIAGE_SHOWN_ROW_CHARS);
  /* Translators: bubble title, "<service name>: <request title>" */
  summary = g_strdup_printf (_("%s: %s"), service, title);

  /* The server lays a line out in the direction of its first letter: the
   * app's sentence, written left to right, stays so when the name is
   * Hebrew (the colon stays after the name, not at the line's far end). */
  if (!g_str_equal (named, name))
    return g_strconcat ("\u200E", summary, NULL);

  return g_steal_pointer (&summary);
}

/* Markup-escapes @text for a bubble body. Quotes become numeric references:
 * g_markup_escape_text() writes &apos; (or &#39;, by GLib version), and
 * &apos; is XML but not HTML, which some notification servers parse.
 * Control characters (not allowed in markup, even as references) become
 * spaces; an agent's text reaches here with them shown as U+FFFD already
 * (triage_format_shown_text()). */
char *
triage_notifier_escape_body (const char *text)
{
  GString *out = g_string_sized_new (strlen (text) + 16);

  for (const char *p = text; *p != '\0'; p++)
    {
      switch (*p)
        {
        case '&':  g_string_append (out, "&amp;"); break;
        case '<':  g_string_append (out, "&lt;"); break;
        case '>':  g_string_append (out, "&gt;"); break;
        case '"':  g_string_append (out, "&#34;"); break;
        case '\'': g_string_append (out, "&#39;"); break;
        default:
          /* Control characters are not allowed in markup, even as references. */
          g_string_append_c (out, ((guchar) *p < 0x20 && *p != '\n' && *p != '\t') ? ' ' : *p);
          break;
        }
    }

  return g_string_free (out, FALSE);
}

/* What the notification server does, asked for each bubble (the server
 * may have been replaced since the last): a synchronous D-Bus call, for the
 * notifier's thread. Asked here rather than with notify_get_server_caps (),
 * which warns when no server runs (a warning a session without one must not
 * see: the bubble's own show fails quietly then). One that does not answer
 * is taken to do both: escaped text is the safe side, and its bubble will
 * not show anyway. */
TriageNotifierServerCaps
triage_notifier_get_server_caps (void)
{
  g_autoptr(GDBusConnection) bus = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, NULL);
  g_autoptr(GVariant) reply = NULL;
  g_autofree const char **caps = NULL;

  if (bus != NULL)
    reply = g_dbus_connection_call_sync (bus, "org.freedesktop.Notifications",
                                         "/org/freedesktop/Notifications",
                                         "org.freedesktop.Notifications", "GetCapabilities",
                                         NULL, G_VARIANT_TYPE ("(as)"), G_DBUS_CALL_FLAGS_NONE,
                                         -1, NULL, NULL);
  if (reply == NULL)
    return (TriageNotifierServerCaps) { TRUE, TRUE };
  g_variant_get (reply, "(^a&s)", &caps);
  return (TriageNotifierServerCaps) { g_strv_contains (caps, "body-markup"),
                                      g_strv_contains (caps, "actions") };
}

/* @text (plain) as the body of a bubble on a server that does as @caps
 * says: escaped for one that reads markup in it; as it is for one that does
 * not, which would show the entities as typed (the spec: such a server
 * shows markup as text). A request's (@request) on a server without
 * buttons, nor clicks (the default action is one), says where to answer:
 * the bubble leads nowhere. */
char *
triage_notifier_dup_server_body (const TriageNotifierServerCaps *caps,
                                 const char                     *text,
                                 gboolean                        request)
{
  g_autofree char *said = NULL;

  if (request && !caps->shows_buttons)
    {
      /* Translators: said in a request's notification when the desktop
       * shows notifications without buttons */
      said = g_strconcat (text, *text != '\0' ? "\n" : "", _("Open Triage to answer."), NULL);
      text = said;
    }

  return caps->reads_markup ? triage_notifier_escape_body (text) : g_strdup (text);
}

/**
 * triage_notifier_dup_bubble_text:
 * @text: an agent's text (or one that holds an agent's words), plain text
 *
 * Returns: (transfer full): @text with a place to break every
 *   %TRIAGE_SHOWN_RUN_CHARS characters of a long word (servers wrap a body
 *   at word boundaries only, and draw an unbroken line past the bubble's
 *   edge), still plain text: triage_notifier_escape_body() escapes it for a
 *   server that reads the body as markup
 */
char *
triage_notifier_dup_bubble_text (const char *text)
{
  return triage_format_shown_text (text, 0);
}

/**
 * triage_notifier_dup_body:
 *
 * Returns: (transfer full): the description, shortened and escaped for
 *   servers that read the body as markup
 */
char *
triage_notifier_dup_body (AtpNotification *notification)
{
  g_autofree char *text = NULL;

  g_return_val_if_fail (notification != NULL, NULL);

  text = triage_notifier_dup_plain_body (notification);
  return triage_notifier_escape_body (text);
}

/* The description, shortened where a bubble's lines end
 * (triage_bubble_body_dup(), the rule TriageProtocol offers answer buttons
 * by), plain text (a bubble's body before it is escaped for a server that
 * reads markup in it). */
char *
triage_notifier_dup_plain_body (AtpNotification *notification)
{
  g_autofree char *body = triage_bubble_body_dup (notification, NULL);

  return triage_notifier_dup_bubble_text (body);
}

/**
 * triage_notifier_decode_icon:
 * @icon: (nullable): the service icon as sent
 * @mime_type: (out) (optional): the image type named by the URI
 * @error: why it is not used
 *
 * Only inline `data:image/…;base64,` URIs are accepted; anything that would
 * need a fetch is refused.
 *
 * Returns: (transfer full) (nullable): the encoded image
 */
GBytes *
triage_notifier_decode_icon (const char  *icon,
                             char       **mime_type,
                             GError     **error)
{
  const char *comma;
  const char *header;
  g_autofree char *type = NULL;
  g_autofree guchar *data = NULL;
  gsize len = 0;

  if (icon == NULL || !g_str_has_prefix (icon, "data:"))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                           "The service icon is not inline data; it is not fetched for a bubble");
      return NULL;
    }

  header = icon + strlen ("data:");
  comma = strchr (header, ',');
  if (comma == NULL || comma - header < (gssize) strlen (";base64") ||
      strncmp (comma - strlen (";base64"), ";base64", strlen (";base64")) != 0)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           "The service icon is not a base64 data: URI");
      return NULL;
    }

  /* MIME types are case-insensitive. */
  type = g_ascii_strdown (header, comma - header - strlen (";base64"));
  /* Parameters such as ";charset=…" are not expected for images; drop them. */
  if (strchr (type, ';') != NULL)
    *strchr (type, ';') = '\0';
  if (!g_str_has_prefix (type, "image/"))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "The service icon is of type “%s”, not an image", type);
      return NULL;
    }
  /* The types attachments are limited to: no SVG, XPM, TGA, ICNS, ANI, …
   * reaches a gdk-pixbuf loader from a bubble either. */
  if (!triage_image_type_is_supported (type))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                   "The service icon is of type “%s”, which is not shown (PNG, JPEG, GIF, BMP, WebP, TIFF or ICO only)",
                   type);
      return NULL;
    }

  if (strlen (comma + 1) > TRIAGE_NOTIFIER_MAX_ICON_SIZE)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_MESSAGE_TOO_LARGE,
                   "The service icon is larger than %d KiB", TRIAGE_NOTIFIER_MAX_ICON_SIZE / 1024);
      return NULL;
    }

  data = g_base64_decode (comma + 1, &len);
  if (data == NULL || len == 0)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           "The service icon is not valid base64");
      return NULL;
    }

  if (mime_type != NULL)
    *mime_type = g_steal_pointer (&type);

  return g_bytes_new_take (g_steal_pointer (&data), len);
}

static void
size_prepared_cb (GdkPixbufLoader *loader,
                  int              width,
                  int              height,
                  gpointer         user_data)
{
  /* Refuse to allocate pixels for a huge image: decode it at zero size. */
  if (width > MAX_ICON_SIDE || height > MAX_ICON_SIDE)
    {
      g_object_set_data (G_OBJECT (loader), "triage-too-large", GINT_TO_POINTER (TRUE));
      gdk_pixbuf_loader_set_size (loader, 1, 1);
    }
}

/* The service icon (@bytes, of @type) as a bubble's image: refused when it
 * claims more than MAX_ICON_SIDE pixels a side (before any pixel is
 * allocated), scaled down to ICON_SIZE. */
GdkPixbuf *
triage_notifier_load_icon (GBytes      *bytes,
                           const char  *type,
                           GError     **error)
{
  g_autoptr(GdkPixbufLoader) loader = NULL;
  GdkPixbuf *pixbuf;
  int width;
  int height;

  if (!triage_image_type_is_supported (type))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                   "The service icon is of type “%s”, which is not shown", type);
      return NULL;
    }

  loader = gdk_pixbuf_loader_new_with_mime_type (type, error);
  if (loader == NULL)
    return NULL;
  g_signal_connect (loader, "size-prepared", G_CALLBACK (size_prepared_cb), NULL);

  if (!gdk_pixbuf_loader_write_bytes (loader, bytes, error) ||
      !gdk_pixbuf_loader_close (loader, error))
    {
      gdk_pixbuf_loader_close (loader, NULL);
      return NULL;
    }

  pixbuf = gdk_pixbuf_loader_get_pixbuf (loader);
  if (pixbuf == NULL)
    {
      g_set_error_literal (error, GDK_PIXBUF_ERROR, GDK_PIXBUF_ERROR_CORRUPT_IMAGE,
                           "The service icon could not be decoded");
      return NULL;
    }

  width = gdk_pixbuf_get_width (pixbuf);
  height = gdk_pixbuf_get_height (pixbuf);
  if (width > MAX_ICON_SIDE || height > MAX_ICON_SIDE ||
      GPOINTER_TO_INT (g_object_get_data (G_OBJECT (loader), "triage-too-large")))
    {
      g_set_error (error, GDK_PIXBUF_ERROR, GDK_PIXBUF_ERROR_INSUFFICIENT_MEMORY,
                   "The service icon is %d×%d, larger than %d×%d",
                   width, height, MAX_ICON_SIDE, MAX_ICON_SIDE);
      return NULL;
    }

  if (width > ICON_SIZE || height > ICON_SIZE)
    {
      double scale = (double) ICON_SIZE / MAX (width, height);

      return gdk_pixbuf_scale_simple (pixbuf, MAX (1, width * scale), MAX (1, height * scale),
                                      GDK_INTERP_BILINEAR);
    }

  return g_object_ref (pixbuf);
}
