/* test-image-decoder.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "test-image-decoder"

#include <sys/resource.h>

#include "triage-attachment-error.h"
#include "triage-image-decoder.h"

typedef struct
{
  gboolean   done;
  GdkPixbuf *pixbuf;
  int        width;
  int        height;
  GError    *error;
} Result;

static void
decode_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  Result *r = user_data;

  r->pixbuf = triage_image_decode_finish (result, &r->width, &r->height, &r->error);
  r->done = TRUE;
  g_main_context_wakeup (NULL);
}

static gboolean
on_watchdog (gpointer user_data)
{
  g_error ("decoding took longer than 20 s");
  return G_SOURCE_REMOVE;
}

static void
decode (GBytes       *bytes,
        const char   *mime_type,
        int           max_size,
        GCancellable *cancellable,
        Result       *r)
{
  guint watchdog = g_timeout_add_seconds (20, on_watchdog, NULL);

  memset (r, 0, sizeof *r);
  triage_image_decode_async (bytes, mime_type, max_size, cancellable, decode_cb, r);
  while (!r->done)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (watchdog);
}

static void
result_clear (Result *r)
{
  g_clear_object (&r->pixbuf);
  g_clear_error (&r->error);
}

static GBytes *
make_image (int         width,
            int         height,
            const char *format)
{
  g_autoptr(GdkPixbuf) pixbuf = gdk_pixbuf_new (GDK_COLORSPACE_RGB, FALSE, 8, width, height);
  g_autoptr(GError) error = NULL;
  char *buffer = NULL;
  gsize size = 0;

  gdk_pixbuf_fill (pixbuf, 0x3366ccff);
  g_assert_true (gdk_pixbuf_save_to_buffer (pixbuf, &buffer, &size, format, &error, NULL));
  g_assert_no_error (error);

  return g_bytes_new_take (buffer, size);
}

static guint32
crc32 (const guint8 *data,
       gsize         size)
{
  guint32 crc = 0xffffffff;

  for (gsize i = 0; i < size; i++)
    {
      crc ^= data[i];
      for (int k = 0; k < 8; k++)
        crc = (crc >> 1) ^ (0xedb88320 & -(crc & 1));
    }

  return crc ^ 0xffffffff;
}

static void
append_chunk (GByteArray   *png,
              const char   *type,
              const guint8 *data,
              guint32       size)
{
  g_autoptr(GByteArray) typed = g_byte_array_new ();
  guint32 be_size = GUINT32_TO_BE (size);
  guint32 be_crc;

  g_byte_array_append (typed, (const guint8 *) type, 4);
  if (size > 0)
    g_byte_array_append (typed, data, size);
  be_crc = GUINT32_TO_BE (crc32 (typed->data, typed->len));

  g_byte_array_append (png, (const guint8 *) &be_size, 4);
  g_byte_array_append (png, typed->data, typed->len);
  g_byte_array_append (png, (const guint8 *) &be_crc, 4);
}

/* A well-formed PNG header that claims @width × @height, then a bit of IDAT. */
static GBytes *
make_png_header (guint32 width,
                 guint32 height)
{
  static const guint8 signature[] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
  static const guint8 idat[] = { 0x78, 0x9c, 0x00, 0x00, 0x00, 0xff, 0xff, 0x00 };
  GByteArray *png = g_byte_array_new ();
  guint8 ihdr[13];
  guint32 be;

  be = GUINT32_TO_BE (width);
  memcpy (ihdr, &be, 4);
  be = GUINT32_TO_BE (height);
  memcpy (ihdr + 4, &be, 4);
  ihdr[8] = 8;   /* bit depth */
  ihdr[9] = 6;   /* RGBA */
  ihdr[10] = ihdr[11] = ihdr[12] = 0;

  g_byte_array_append (png, signature, sizeof signature);
  append_chunk (png, "IHDR", ihdr, sizeof ihdr);
  append_chunk (png, "IDAT", idat, sizeof idat);

  return g_byte_array_free_to_bytes (png);
}

static glong
max_rss_kib (void)
{
  struct rusage usage;

  g_assert_cmpint (getrusage (RUSAGE_SELF, &usage), ==, 0);
  return usage.ru_maxrss;
}

static void
test_png (void)
{
  g_autoptr(GBytes) png = make_image (40, 30, "png");
  Result r;

  decode (png, "image/png", 2048, NULL, &r);
  g_assert_no_error (r.error);
  g_assert_nonnull (r.pixbuf);
  g_assert_cmpint (gdk_pixbuf_get_width (r.pixbuf), ==, 40);
  g_assert_cmpint (gdk_pixbuf_get_height (r.pixbuf), ==, 30);
  g_assert_cmpint (r.width, ==, 40);
  g_assert_cmpint (r.height, ==, 30);
  /* The pixels are the ones encoded. */
  g_assert_cmpint (gdk_pixbuf_get_pixels (r.pixbuf)[0], ==, 0x33);
  g_assert_cmpint (gdk_pixbuf_get_pixels (r.pixbuf)[1], ==, 0x66);
  g_assert_cmpint (gdk_pixbuf_get_pixels (r.pixbuf)[2], ==, 0xcc);
  result_clear (&r);
}

static void
test_jpeg_scaled (void)
{
  g_autoptr(GBytes) jpeg = make_image (300, 100, "jpeg");
  Result r;

  decode (jpeg, "image/jpeg", 150, NULL, &r);
  g_assert_no_error (r.error);
  g_assert_cmpint (gdk_pixbuf_get_width (r.pixbuf), ==, 150);
  g_assert_cmpint (gdk_pixbuf_get_height (r.pixbuf), ==, 50);
  g_assert_cmpint (r.width, ==, 300);
  g_assert_cmpint (r.height, ==, 100);
  result_clear (&r);
}

static void
test_huge_header_refused (void)
{
  g_autoptr(GBytes) png = make_png_header (50000, 50000);
  glong before = max_rss_kib ();
  Result r;

  decode (png, "image/png", 2048, NULL, &r);
  g_assert_error (r.error, TRIAGE_ATTACHMENT_ERROR, TRIAGE_ATTACHMENT_ERROR_IMAGE_TOO_LARGE);
  g_assert_nonnull (strstr (r.error->message, "50000 × 50000"));
  g_assert_null (r.pixbuf);
  g_assert_cmpint (r.width, ==, 50000);
  g_assert_cmpint (r.height, ==, 50000);
  /* 50000 × 50000 RGBA would be 10 GB; refused from the header, nothing near that was touched. */
  g_assert_cmpint (max_rss_kib () - before, <, 64 * 1024);
  result_clear (&r);
}

static void
test_limits_side_and_pixels (void)
{
  g_autoptr(GBytes) wide = make_png_header (TRIAGE_IMAGE_MAX_SIDE + 1, 10);
  g_autoptr(GBytes) many = make_png_header (12000, 9000);  /* 108 megapixels */
  g_autoptr(GBytes) bomb = make_png_header (16000, 16000);  /* 256 megapixels */
  g_autoptr(GBytes) just_over = make_png_header (10001, 10000);  /* 100.01 megapixels */
  g_autoptr(GBytes) ok = make_png_header (TRIAGE_IMAGE_MAX_SIDE, 100);
  Result r;

  decode (wide, "image/png", 2048, NULL, &r);
  g_assert_error (r.error, TRIAGE_ATTACHMENT_ERROR, TRIAGE_ATTACHMENT_ERROR_IMAGE_TOO_LARGE);
  g_assert_nonnull (strstr (r.error->message, "sides up to 16384 pixels are shown"));
  result_clear (&r);

  decode (many, "image/png", 2048, NULL, &r);
  g_assert_error (r.error, TRIAGE_ATTACHMENT_ERROR, TRIAGE_ATTACHMENT_ERROR_IMAGE_TOO_LARGE);
  g_assert_cmpint (r.width, ==, 12000);
  /* The message names the limit broken, and by how much. */
  g_assert_cmpstr (r.error->message, ==,
                   "The image claims to be 12000 × 9000 pixels, 108 megapixels; up to 100 are shown");
  result_clear (&r);

  decode (bomb, "image/png", 2048, NULL, &r);
  g_assert_error (r.error, TRIAGE_ATTACHMENT_ERROR, TRIAGE_ATTACHMENT_ERROR_IMAGE_TOO_LARGE);
  g_assert_nonnull (strstr (r.error->message, "256 megapixels; up to 100 are shown"));
  result_clear (&r);

  decode (just_over, "image/png", 2048, NULL, &r);
  g_assert_error (r.error, TRIAGE_ATTACHMENT_ERROR, TRIAGE_ATTACHMENT_ERROR_IMAGE_TOO_LARGE);
  g_assert_nonnull (strstr (r.error->message, "100.01 megapixels"));
  result_clear (&r);

  /* At the limit the header passes, and the (blank) picture is scaled for display. */
  decode (ok, "image/png", 2048, NULL, &r);
  g_assert_no_error (r.error);
  g_assert_cmpint (r.width, ==, TRIAGE_IMAGE_MAX_SIDE);
  g_assert_cmpint (r.height, ==, 100);
  g_assert_cmpint (gdk_pixbuf_get_width (r.pixbuf), ==, 2048);
  g_assert_cmpint (gdk_pixbuf_get_height (r.pixbuf), ==, 12);
  result_clear (&r);
}

static void
test_encoded_size_limit (void)
{
  g_autoptr(GBytes) big = g_bytes_new_take (g_malloc0 (TRIAGE_IMAGE_MAX_ENCODED_SIZE + 1),
                                            TRIAGE_IMAGE_MAX_ENCODED_SIZE + 1);
  Result r;

  decode (big, "image/png", 2048, NULL, &r);
  g_assert_error (r.error, TRIAGE_ATTACHMENT_ERROR, TRIAGE_ATTACHMENT_ERROR_TOO_LARGE);
  result_clear (&r);
}

static void
test_wrong_format (void)
{
  g_autoptr(GBytes) jpeg = make_image (20, 20, "jpeg");
  g_autoptr(GBytes) png = make_image (20, 20, "png");
  g_autoptr(GBytes) cut = NULL;
  Result r;

  /* The declared type picks the decoder: a JPEG sent as PNG fails. */
  decode (jpeg, "image/png", 2048, NULL, &r);
  g_assert_error (r.error, TRIAGE_ATTACHMENT_ERROR, TRIAGE_ATTACHMENT_ERROR_BAD_IMAGE);
  result_clear (&r);

  /* Cut inside the header: there is no picture at all. */
  cut = g_bytes_new_from_bytes (png, 0, 20);
  decode (cut, "image/png", 2048, NULL, &r);
  g_assert_error (r.error, TRIAGE_ATTACHMENT_ERROR, TRIAGE_ATTACHMENT_ERROR_BAD_IMAGE);
  g_assert_null (r.pixbuf);
  result_clear (&r);
}

static void
test_unsupported_types (void)
{
  g_autoptr(GBytes) svg = g_bytes_new_static ("<svg xmlns='http://www.w3.org/2000/svg'/>", 41);
  Result r;

  g_assert_true (triage_image_type_is_supported ("image/png"));
  g_assert_true (triage_image_type_is_supported ("image/jpeg"));
  g_assert_false (triage_image_type_is_supported ("image/svg+xml"));
  g_assert_false (triage_image_type_is_supported ("image/x-xpixmap"));

  decode (svg, "image/svg+xml", 2048, NULL, &r);
  g_assert_error (r.error, TRIAGE_ATTACHMENT_ERROR, TRIAGE_ATTACHMENT_ERROR_BAD_IMAGE);
  result_clear (&r);
}

static void
test_cancelled (void)
{
  g_autoptr(GBytes) png = make_image (64, 64, "png");
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  Result r;

  g_cancellable_cancel (cancellable);
  decode (png, "image/png", 2048, cancellable, &r);
  g_assert_error (r.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_null (r.pixbuf);
  result_clear (&r);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/attachments/image/png", test_png);
  g_test_add_func ("/attachments/image/jpeg-scaled", test_jpeg_scaled);
  g_test_add_func ("/attachments/image/huge-header-refused", test_huge_header_refused);
  g_test_add_func ("/attachments/image/limits-side-and-pixels", test_limits_side_and_pixels);
  g_test_add_func ("/attachments/image/encoded-size-limit", test_encoded_size_limit);
  g_test_add_func ("/attachments/image/wrong-format", test_wrong_format);
  g_test_add_func ("/attachments/image/unsupported-types", test_unsupported_types);
  g_test_add_func ("/attachments/image/cancelled", test_cancelled);

  return g_test_run ();
}
