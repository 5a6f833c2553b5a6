/* triage-aitp-images.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-aitp"

#include <glib/gi18n.h>

#include "triage-aitp-images.h"
#include "triage-attachment-fetch.h"
#include "triage-image-decoder.h"

/*
 * The pictures of an AITP request (`image_url` of its options and variants),
 * never fetched before the person asks, host by host ("Show images from
 * example.com"): a picture tells its host that the request was opened, and
 * when. Only https addresses are fetched, through the guarded fetcher of
 * attachments (no local network, no redirect to another host, bounded size
 * and time), and decoded off the main thread with the attachment preview's
 * limits. Each picture ends in ::loaded or ::failed.
 */

struct _TriageAitpImages
{
  GObject       parent_instance;

  GHashTable   *hosts;        /* host -> GPtrArray of urls */
  GHashTable   *shown;        /* hosts asked for */
  SoupSession  *session;
  GCancellable *cancellable;  /* the current request's downloads */
  guint         n_loading;
};

G_DEFINE_FINAL_TYPE (TriageAitpImages, triage_aitp_images, G_TYPE_OBJECT)

enum {
  LOADED,
  FAILED,
  N_SIGNALS
};

static guint signals [N_SIGNALS];

typedef struct
{
  TriageAitpImages *self;
  GCancellable     *cancellable;
  char             *url;
} Load;

static void
load_free (Load *load)
{
  g_object_unref (load->self);
  g_object_unref (load->cancellable);
  g_free (load->url);
  g_free (load);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Load, load_free)

static void
finish (Load         *load,
        GdkPaintable *image,
        const GError *error)
{
  TriageAitpImages *self = load->self;

  if (g_cancellable_is_cancelled (load->cancellable))
    return;

  self->n_loading--;
  if (image != NULL)
    g_signal_emit (self, signals [LOADED], 0, load->url, image);
  else
    {
      g_debug ("The picture %s is not shown: %s", load->url, error->message);
      g_signal_emit (self, signals [FAILED], 0, load->url, error->message);
    }
}

static void
decode_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(Load) load = user_data;
  g_autoptr(GdkPixbuf) pixbuf = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  g_autoptr(GError) error = NULL;

  pixbuf = triage_image_decode_finish (result, NULL, NULL, &error);
  if (pixbuf != NULL)
    texture = gdk_texture_new_for_pixbuf (pixbuf);

  finish (load, GDK_PAINTABLE (texture), error);
}

static void
fetch_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(Load) load = user_data;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *content_type = NULL;
  g_autofree char *mime_type = NULL;
  GCancellable *cancellable;

  bytes = triage_attachment_fetch_finish (result, &content_type, NULL, &error);
  if (bytes == NULL)
    {
      finish (load, NULL, error);
      return;
    }

  /* The declared type, else what the bytes look like; decoded only if it is
   * a picture type the previews show. */
  if (content_type != NULL)
    mime_type = g_strndup (content_type, strcspn (content_type, "; "));
  if (mime_type == NULL || !triage_image_type_is_supported (mime_type))
    {
      g_autofree char *guessed = g_content_type_guess (NULL, g_bytes_get_data (bytes, NULL),
                                                       g_bytes_get_size (bytes), NULL);

      g_free (mime_type);
      mime_type = g_content_type_get_mime_type (guessed);
    }
  if (mime_type == NULL || !triage_image_type_is_supported (mime_type))
    {
      g_autoptr(GError) refused = g_error_new (G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                                               _("This is not a picture Triage shows (%s)"),
                                               mime_type ? mime_type : content_type);

      finish (load, NULL, refused);
      return;
    }

  cancellable = load->cancellable;
  triage_image_decode_async (bytes, mime_type, TRIAGE_AITP_IMAGE_DISPLAY_SIZE, cancellable,
                             decode_cb, g_steal_pointer (&load));
}

static void
fetch (TriageAitpImages *self,
       const char       *url)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GUri) uri = triage_attachment_check_uri (url, &error);
  Load *load = g_new0 (Load, 1);

  load->self = g_object_ref (self);
  load->cancellable = g_object_ref (self->cancellable);
  load->url = g_strdup (url);
  self->n_loading++;

  /* https only: a picture never goes over plain http, not even to this computer. */
  if (uri != NULL && g_ascii_strcasecmp (g_uri_get_scheme (uri), "https") != 0)
    {
      g_clear_pointer (&uri, g_uri_unref);
      g_set_error (&error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                   _("Pictures are only loaded over https"));
    }
  if (uri == NULL)
    {
      finish (load, NULL, error);
      load_free (load);
      return;
    }

  if (self->session == NULL)
    self->session = soup_session_new_with_options ("user-agent", "Triage/" PACKAGE_VERSION, NULL);

  triage_attachment_fetch_async (self->session, uri, TRIAGE_AITP_IMAGE_MAX_SIZE,
                                 TRIAGE_AITP_IMAGE_TIMEOUT, self->cancellable, fetch_cb, load);
}

static void
add_url (TriageAitpImages *self,
         const char       *url)
{
  g_autoptr(GUri) uri = NULL;
  GPtrArray *urls;
  const char *host;

  if (url == NULL)
    return;

  /* Only https pictures are ever shown, so only their hosts are offered. */
  uri = g_uri_parse (url, G_URI_FLAGS_NONE, NULL);
  host = uri ? g_uri_get_host (uri) : NULL;
  if (host == NULL || *host == '\0' || g_ascii_strcasecmp (g_uri_get_scheme (uri), "https") != 0)
    return;

  urls = g_hash_table_lookup (self->hosts, host);
  if (urls == NULL)
    {
      urls = g_ptr_array_new_with_free_func (g_free);
      g_hash_table_insert (self->hosts, g_ascii_strdown (host, -1), urls);
    }
  if (!g_ptr_array_find_with_equal_func (urls, url, g_str_equal, NULL))
    g_ptr_array_add (urls, g_strdup (url));
}

/* GObject */

static void
triage_aitp_images_dispose (GObject *object)
{
  TriageAitpImages *self = (TriageAitpImages *)object;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->session);

  G_OBJECT_CLASS (triage_aitp_images_parent_class)->dispose (object);
}

static void
triage_aitp_images_finalize (GObject *object)
{
  TriageAitpImages *self = (TriageAitpImages *)object;

  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->hosts, g_hash_table_unref);
  g_clear_pointer (&self->shown, g_hash_table_unref);

  G_OBJECT_CLASS (triage_aitp_images_parent_class)->finalize (object);
}

static void
triage_aitp_images_class_init (TriageAitpImagesClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = triage_aitp_images_dispose;
  object_class->finalize = triage_aitp_images_finalize;

  /**
   * TriageAitpImages::loaded:
   * @url: a picture's address
   * @image: the picture, decoded
   */
  signals [LOADED] =
    g_signal_new ("loaded", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_STRING, GDK_TYPE_PAINTABLE);

  /**
   * TriageAitpImages::failed:
   * @url: a picture's address
   * @message: why it is not shown
   */
  signals [FAILED] =
    g_signal_new ("failed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_STRING, G_TYPE_STRING);
}

static void
triage_aitp_images_init (TriageAitpImages *self)
{
  self->hosts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                       (GDestroyNotify) g_ptr_array_unref);
  self->shown = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->cancellable = g_cancellable_new ();
}

TriageAitpImages *
triage_aitp_images_new (void)
{
  return g_object_new (TRIAGE_TYPE_AITP_IMAGES, NULL);
}

/**
 * triage_aitp_images_set_request:
 * @self: a #TriageAitpImages
 * @request: (nullable): the request whose pictures are offered
 *
 * Forgets the last request's pictures (downloads on their way are dropped)
 * and which hosts the person asked for.
 */
void
triage_aitp_images_set_request (TriageAitpImages *self,
                                AtpAitpRequest   *request)
{
  g_return_if_fail (TRIAGE_IS_AITP_IMAGES (self));

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  self->n_loading = 0;
  g_hash_table_remove_all (self->hosts);
  g_hash_table_remove_all (self->shown);

  for (guint i = 0; request != NULL && i < request->options->len; i++)
    {
      const AtpAitpOption *option = g_ptr_array_index (request->options, i);

      add_url (self, option->image_url);
      for (guint v = 0; v < option->variants->len; v++)
        add_url (self, ((const AtpAitpOption *) g_ptr_array_index (option->variants, v))->image_url);
    }
}

static int
compare_hosts (gconstpointer a,
               gconstpointer b,
               gpointer      data)
{
  return g_strcmp0 (*(const char * const *) a, *(const char * const *) b);
}

/**
 * triage_aitp_images_dup_hosts:
 *
 * Returns: (transfer full): the hosts the request's https pictures are on, sorted
 */
GStrv
triage_aitp_images_dup_hosts (TriageAitpImages *self)
{
  g_autofree const char **hosts = NULL;
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  guint n;

  g_return_val_if_fail (TRIAGE_IS_AITP_IMAGES (self), NULL);

  hosts = (const char **) g_hash_table_get_keys_as_array (self->hosts, &n);
  g_qsort_with_data (hosts, n, sizeof (char *), compare_hosts, NULL);
  for (guint i = 0; i < n; i++)
    g_strv_builder_add (builder, hosts[i]);

  return g_strv_builder_end (builder);
}

gboolean
triage_aitp_images_get_shown (TriageAitpImages *self,
                              const char       *host)
{
  g_return_val_if_fail (TRIAGE_IS_AITP_IMAGES (self), FALSE);
  g_return_val_if_fail (host != NULL, FALSE);

  return g_hash_table_contains (self->shown, host);
}

/**
 * triage_aitp_images_show:
 * @self: a #TriageAitpImages
 * @host: a host of triage_aitp_images_dup_hosts()
 *
 * The person asked to see the pictures from @host: each is fetched and
 * decoded, and ends in ::loaded or ::failed. Asking again does nothing.
 */
void
triage_aitp_images_show (TriageAitpImages *self,
                         const char       *host)
{
  GPtrArray *urls;

  g_return_if_fail (TRIAGE_IS_AITP_IMAGES (self));
  g_return_if_fail (host != NULL);

  urls = g_hash_table_lookup (self->hosts, host);
  if (urls == NULL || g_hash_table_contains (self->shown, host))
    return;

  g_hash_table_add (self->shown, g_strdup (host));
  for (guint i = 0; i < urls->len; i++)
    fetch (self, urls->pdata[i]);
}

/**
 * triage_aitp_images_set_session:
 * @self: a #TriageAitpImages
 * @session: (nullable): the session pictures are fetched with (tests give
 *   one that trusts their own certificate authority)
 */
void
triage_aitp_images_set_session (TriageAitpImages *self,
                                SoupSession      *session)
{
  g_return_if_fail (TRIAGE_IS_AITP_IMAGES (self));

  g_set_object (&self->session, session);
}

/**
 * triage_aitp_images_get_n_loading:
 *
 * Returns: how many pictures are on their way
 */
guint
triage_aitp_images_get_n_loading (TriageAitpImages *self)
{
  g_return_val_if_fail (TRIAGE_IS_AITP_IMAGES (self), 0);

  return self->n_loading;
}
