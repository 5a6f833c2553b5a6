/* attachment-view-save.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Save As… and Open With…: what is written, and where.
 */

#define G_LOG_DOMAIN "test-attachment-view"

#include "attachment-view-common.h"

/* ------------------------------------------------------------------ save as, open with */

typedef struct
{
  gboolean  done;
  gboolean  saved;
  GFile    *copy;
  char     *content_type;
  GError   *error;
} Outcome;

static void
outcome_clear (Outcome *outcome)
{
  g_clear_object (&outcome->copy);
  g_clear_pointer (&outcome->content_type, g_free);
  g_clear_error (&outcome->error);
  memset (outcome, 0, sizeof *outcome);
}

static void
save_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Outcome *outcome = user_data;

  outcome->saved = triage_attachment_view_save_finish (TRIAGE_ATTACHMENT_VIEW (object), result,
                                                       &outcome->error);
  outcome->done = TRUE;
}

/* What "Save As…" does once the user has chosen @path. */
static void
save_to (Fixture    *fixture,
         const char *path,
         Outcome    *outcome)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);

  outcome_clear (outcome);
  triage_attachment_view_save_async (fixture->view, file, NULL, save_cb, outcome);
  WAIT_UNTIL (outcome->done);
}

static void
assert_saved (Fixture    *fixture,
              const char *path)
{
  GBytes *bytes = triage_attachment_view_get_bytes (fixture->view);
  g_autofree char *contents = NULL;
  gsize length = 0;
  Outcome outcome = { 0, };

  save_to (fixture, path, &outcome);
  g_assert_no_error (outcome.error);
  g_assert_true (outcome.saved);
  g_assert_true (g_file_get_contents (path, &contents, &length, NULL));
  g_assert_cmpmem (contents, length, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  outcome_clear (&outcome);
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(char * const *) a, *(char * const *) b);
}

/* The names in @dir, sorted and joined by spaces: no temporary file is left behind. */
static char *
list_dir (const char *dir)
{
  g_autoptr(GDir) handle = g_dir_open (dir, 0, NULL);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  while (handle != NULL && (name = g_dir_read_name (handle)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);
  g_ptr_array_add (names, NULL);

  return g_strjoinv (" ", (char **) names->pdata);
}

/* A toast the user sees. */
static gboolean
toast_shown (Fixture    *fixture,
             const char *text)
{
  GtkWidget *label = attachment_view_test_find_widget (GTK_WIDGET (fixture->view),
                                                       attachment_view_test_label_contains, text);

  return label != NULL && gtk_widget_get_mapped (label);
}

void
attachment_view_test_save (Fixture       *fixture,
                           gconstpointer  data)
{
  static const char text[] = "Version 2.1.0\r\nno final newline";
  static const guint8 binary[] = { 0x00, 0xff, 0x7f, 0x80, 0x00, '\n', '\r', 0x1b, 0xc3 };
  g_autoptr(GBytes) png = attachment_view_test_make_image (16, 16, "png");
  g_autoptr(AtpAttachment) text_attachment = attachment_view_test_inline ("text/plain", "notes",
                                                                          text, strlen (text));
  g_autoptr(AtpAttachment) binary_attachment =
    attachment_view_test_inline ("application/octet-stream", "blob", binary, sizeof binary);
  g_autoptr(AtpAttachment) image_attachment =
    attachment_view_test_inline ("image/png", "shot.png",
                                 g_bytes_get_data (png, NULL), g_bytes_get_size (png));
  g_autofree char *dir = g_dir_make_tmp ("triage-save-XXXXXX", NULL);
  g_autofree char *text_path = g_build_filename (dir, "notes.txt", NULL);
  g_autofree char *binary_path = g_build_filename (dir, "blob", NULL);
  g_autofree char *image_path = g_build_filename (dir, "shot.png", NULL);
  g_autofree char *listed = NULL;

  attachment_view_test_show (fixture, text_attachment);
  assert_saved (fixture, text_path);
  WAIT_UNTIL (toast_shown (fixture, "Saved as “notes.txt”"));

  attachment_view_test_show (fixture, binary_attachment);
  assert_saved (fixture, binary_path);

  /* An image is saved as sent, not as decoded; an existing file is replaced. */
  g_assert_true (g_file_set_contents (image_path, "an older, longer file of another kind", -1,
                                      NULL));
  attachment_view_test_show (fixture, image_attachment);
  attachment_view_test_wait_for_kind (fixture, TRIAGE_ATTACHMENT_KIND_IMAGE);
  assert_saved (fixture, image_path);

  listed = list_dir (dir);
  g_assert_cmpstr (listed, ==, "blob notes.txt shot.png");
  ui_test_remove_tree (dir);
}

void
attachment_view_test_save_loaded_uri (Fixture       *fixture,
                                      gconstpointer  data)
{
  g_autofree char *uri = attachment_view_test_server_uri (fixture, "/notes.txt");
  g_autoptr(AtpAttachment) attachment = attachment_view_test_uri ("text/plain", "notes", uri);
  g_autofree char *dir = g_dir_make_tmp ("triage-save-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "notes.txt", NULL);
  g_autofree char *contents = NULL;

  attachment_view_test_show (fixture, attachment);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->view), "attachment.load", NULL));
  attachment_view_test_wait_for_kind (fixture, TRIAGE_ATTACHMENT_KIND_TEXT);
  assert_saved (fixture, path);
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "Downloaded notes\n");
  ui_test_remove_tree (dir);
}

static void
assert_not_saved (Fixture    *fixture,
                  const char *path,
                  const char *reason)
{
  g_autofree char *name = g_path_get_basename (path);
  g_autofree char *message = g_strdup_printf ("Could not save “%s”: ", name);
  Outcome outcome = { 0, };
  GtkWidget *label;

  save_to (fixture, path, &outcome);
  g_assert_false (outcome.saved);
  g_assert_nonnull (outcome.error);
  g_assert_false (g_file_test (path, G_FILE_TEST_IS_REGULAR));
  /* The error is in view, naming the file the user chose, and why. */
  WAIT_UNTIL (toast_shown (fixture, message));
  label = attachment_view_test_find_widget (GTK_WIDGET (fixture->view),
                                            attachment_view_test_label_contains, message);
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (label)), reason));
  outcome_clear (&outcome);
}

void
attachment_view_test_save_unwritable (Fixture       *fixture,
                                      gconstpointer  data)
{
  static const char text[] = "secret plan";
  g_autoptr(AtpAttachment) attachment = attachment_view_test_inline ("text/plain", "plan", text,
                                                                     strlen (text));
  g_autofree char *dir = g_dir_make_tmp ("triage-save-XXXXXX", NULL);
  g_autofree char *folder = g_build_filename (dir, "plan.txt", NULL);
  g_autofree char *listed = NULL;

  attachment_view_test_show (fixture, attachment);

  /* The write succeeds and the rename over a folder fails: the copy is removed. */
  g_assert_cmpint (g_mkdir (folder, 0700), ==, 0);
  assert_not_saved (fixture, folder, "Is a directory");
  listed = list_dir (dir);
  g_assert_cmpstr (listed, ==, "plan.txt");
  g_assert_cmpint (g_rmdir (folder), ==, 0);

  /* A folder the user may not write to (root may write anywhere). */
  if (geteuid () != 0)
    {
      g_autofree char *read_only = g_build_filename (dir, "read-only", NULL);
      g_autofree char *path = g_build_filename (read_only, "plan.txt", NULL);

      g_assert_cmpint (g_mkdir (read_only, 0500), ==, 0);
      assert_not_saved (fixture, path, "Permission denied");
      g_assert_cmpint (g_chmod (read_only, 0700), ==, 0);
    }

  ui_test_remove_tree (dir);
}

static void
write_copy_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  Outcome *outcome = user_data;

  outcome->copy = triage_attachment_view_write_copy_finish (TRIAGE_ATTACHMENT_VIEW (object),
                                                            result, &outcome->content_type,
                                                            &outcome->error);
  outcome->done = TRUE;
}

/*
 * What "Open With…" hands to the application the user picks: a private copy
 * of @attachment, byte for byte. Returns the copy's name and, in @content_type,
 * the type whose applications are offered.
 */
static char *
write_copy (Fixture              *fixture,
            const AtpAttachment  *attachment,
            char                **content_type)
{
  g_autofree char *cache_dir = triage_attachment_get_cache_dir ();
  g_autofree char *path = NULL;
  g_autofree char *folder = NULL;
  g_autofree char *contents = NULL;
  g_autoptr(GBytes) expected = NULL;
  Outcome outcome = { 0, };
  GStatBuf st;
  gsize length = 0;
  char *name;

  attachment_view_test_show (fixture, attachment);
  expected = g_bytes_ref (triage_attachment_view_get_bytes (fixture->view));
  triage_attachment_view_write_copy_async (fixture->view, NULL, write_copy_cb, &outcome);
  WAIT_UNTIL (outcome.done);
  g_assert_no_error (outcome.error);

  path = g_file_get_path (outcome.copy);
  name = g_file_get_basename (outcome.copy);
  folder = g_path_get_dirname (path);
  g_assert_true (g_str_has_prefix (path, cache_dir));

  /* Only the user can read it, or list its folder. */
  g_assert_cmpint (g_stat (path, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0600);
  g_assert_cmpint (g_stat (folder, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0700);
  g_assert_true (g_file_get_contents (path, &contents, &length, NULL));
  g_assert_cmpmem (contents, length, g_bytes_get_data (expected, NULL),
                   g_bytes_get_size (expected));

  g_assert_cmpint (g_unlink (path), ==, 0);
  g_assert_cmpint (g_rmdir (folder), ==, 0);
  *content_type = g_steal_pointer (&outcome.content_type);
  outcome_clear (&outcome);

  return name;
}

static void
assert_copy_named (Fixture    *fixture,
                   const char *description,
                   const char *expected)
{
  g_autoptr(AtpAttachment) attachment = attachment_view_test_inline ("text/plain", description,
                                                                     "hi", 2);
  g_autofree char *content_type = NULL;
  g_autofree char *name = write_copy (fixture, attachment, &content_type);

  g_assert_cmpstr (name, ==, expected);
  g_assert_cmpstr (content_type, ==, "text/plain");
}

void
attachment_view_test_open_with_copy_name (Fixture       *fixture,
                                          gconstpointer  data)
{
  g_autofree char *long_ascii = g_strnfill (500, 'x');
  g_autoptr(GString) long_wide = g_string_new (NULL);
  g_autofree char *name = NULL;
  g_autofree char *content_type = NULL;
  g_autoptr(AtpAttachment) wide = NULL;

  /* No way out of the private folder, no hidden file. */
  assert_copy_named (fixture, "../../etc/passwd", "_.._etc_passwd");
  assert_copy_named (fixture, ".bashrc", "bashrc.txt");
  assert_copy_named (fixture, "/", "_.txt");
  assert_copy_named (fixture, NULL, "attachment.txt");

  /* A long description makes a short name, also in bytes (a name has at most 255). */
  for (int i = 0; i < 500; i++)
    g_string_append (long_wide, "\xf0\x9f\x98\x80");   /* 😀, four bytes */
  wide = attachment_view_test_inline ("text/plain", long_wide->str, "hi", 2);
  name = write_copy (fixture, wide, &content_type);
  g_assert_cmpuint (strlen (name), <=, 210);
  g_assert_true (g_str_has_prefix (name, "\xf0\x9f\x98\x80"));
  g_assert_true (g_str_has_suffix (name, ".txt"));
  g_assert_true (g_utf8_validate (name, -1, NULL));

  g_clear_pointer (&name, g_free);
  g_clear_pointer (&content_type, g_free);
  g_clear_pointer (&wide, attachment_view_test_attachment_free);
  wide = attachment_view_test_inline ("text/plain", long_ascii, "hi", 2);
  name = write_copy (fixture, wide, &content_type);
  g_assert_cmpuint (strlen (name), <=, 90);
  g_assert_true (g_str_has_suffix (name, ".txt"));
}

static void
assert_offered (Fixture    *fixture,
                const char *declared,
                GBytes     *bytes,
                const char *expected)
{
  g_autoptr(AtpAttachment) attachment = attachment_view_test_inline (declared, "file",
                                                                     g_bytes_get_data (bytes, NULL),
                                                                     g_bytes_get_size (bytes));
  g_autofree char *content_type = NULL;
  g_autofree char *name = write_copy (fixture, attachment, &content_type);

  g_assert_cmpstr (content_type, ==, expected);
}

/* The applications offered are for what the content is, when it is not what it says. */
void
attachment_view_test_open_with_content_type (Fixture       *fixture,
                                             gconstpointer  data)
{
  static const char html[] = "<!DOCTYPE html><html><head><title>x</title></head></html>\n";
  g_autoptr(GBytes) png = attachment_view_test_make_image (8, 8, "png");
  g_autoptr(GBytes) text = g_bytes_new_static ("just words\n", 11);
  g_autoptr(GBytes) page = g_bytes_new_static (html, strlen (html));
  g_autoptr(GBytes) shell = g_bytes_new_static ("#!/bin/sh\necho hi\n", 18);
  g_autoptr(GBytes) zeros = g_bytes_new_take (g_malloc0 (64), 64);

  /* Agreeing: the declared type, which may be the more precise one. */
  assert_offered (fixture, "text/plain", text, "text/plain");
  assert_offered (fixture, "image/png", png, "image/png");
  assert_offered (fixture, "text/plain", shell, "text/plain");
  assert_offered (fixture, "application/x-shellscript", shell, "application/x-shellscript");
  /* Nothing recognises the content: the declared type stands. */
  assert_offered (fixture, "application/x-custom-log", zeros, "application/x-custom-log");
  /* Disagreeing: the sniffed type. */
  assert_offered (fixture, "text/plain", png, "image/png");
  assert_offered (fixture, "image/png", page, "text/html");
  assert_offered (fixture, "application/pdf", png, "image/png");
}
