/* test-attachment-file.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "test-attachment-file"

#include <glib/gstdio.h>
#include <sys/stat.h>
#include <sys/time.h>

#include "ui-test-util.h"
#include "triage-attachment-file.h"

static void
assert_name (const char *description,
             const char *mime_type,
             const char *expected)
{
  g_autofree char *name = triage_attachment_suggest_filename (description, mime_type);

  g_assert_cmpstr (name, ==, expected);
}

static void
test_suggest_filename (void)
{
  assert_name ("report.pdf", "application/pdf", "report.pdf");
  assert_name ("Release notes", "text/plain", "Release notes.txt");
  assert_name ("config", "application/json", "config.json");
  assert_name (NULL, "image/png", "attachment.png");
  assert_name (NULL, "application/x-unknown", "attachment");
  /* No way out of the chosen folder, no hidden files. */
  assert_name ("../../.bashrc", "text/plain", "_.._.bashrc");
  assert_name ("/etc/passwd", NULL, "_etc_passwd");
  assert_name ("..", "text/plain", "attachment.txt");
  assert_name ("...hidden", NULL, "hidden");
  /* Controls and bidi overrides vanish: "exe.txt" must not pass for "txt.exe". */
  assert_name ("a\nb\tc.txt", NULL, "abc.txt");
  assert_name ("photo\xe2\x80\xaegnp.exe", NULL, "photognp.exe");
  assert_name ("\xff\xfe", "text/plain", "attachment.txt");
}

static void
test_long_name (void)
{
  g_autofree char *long_description = g_strnfill (500, 'x');
  g_autofree char *name = triage_attachment_suggest_filename (long_description, "text/plain");

  g_assert_cmpuint (g_utf8_strlen (name, -1), <=, 90);
  g_assert_true (g_str_has_suffix (name, ".txt"));
}

/* A file name has at most 255 bytes: 80 four-byte characters would not fit. */
static void
test_long_wide_name (void)
{
  g_autoptr(GString) description = g_string_new (NULL);
  g_autofree char *name = NULL;

  for (int i = 0; i < 500; i++)
    g_string_append (description, "\xf0\x9f\x98\x80");
  name = triage_attachment_suggest_filename (description->str, "application/json");

  g_assert_cmpuint (strlen (name), <=, 210);
  g_assert_true (g_utf8_validate (name, -1, NULL));
  g_assert_true (g_str_has_suffix (name, "\xf0\x9f\x98\x80.json"));
}

typedef struct
{
  gboolean  done;
  GFile    *file;
  GError   *error;
} Result;

static void
write_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  Result *r = user_data;

  r->file = triage_attachment_write_private_finish (result, &r->error);
  r->done = TRUE;
}

static void
write_private (GBytes     *bytes,
               const char *name,
               Result     *r)
{
  memset (r, 0, sizeof *r);
  triage_attachment_write_private_async (bytes, name, NULL, write_cb, r);
  while (!r->done)
    g_main_context_iteration (NULL, TRUE);
}

static void
test_write_private (void)
{
  g_autoptr(GBytes) bytes = g_bytes_new_static ("secret plan\n", 12);
  g_autofree char *cache_dir = triage_attachment_get_cache_dir ();
  g_autofree char *path = NULL;
  g_autofree char *folder = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *expected_dir = NULL;
  gsize length;
  GStatBuf st;
  Result r;
  Result again;

  expected_dir = g_build_filename (g_get_user_cache_dir (), "triage", "attachments", NULL);
  g_assert_cmpstr (cache_dir, ==, expected_dir);

  write_private (bytes, "plan.txt", &r);
  g_assert_no_error (r.error);
  path = g_file_get_path (r.file);
  g_assert_true (g_str_has_prefix (path, cache_dir));
  g_assert_true (g_str_has_suffix (path, "/plan.txt"));

  g_assert_true (g_file_get_contents (path, &contents, &length, NULL));
  g_assert_cmpmem (contents, length, "secret plan\n", 12);

  /* Only the user can read the copy, its folder, or the cache folder. */
  g_assert_cmpint (g_stat (path, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0600);
  folder = g_path_get_dirname (path);
  g_assert_cmpint (g_stat (folder, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0700);
  g_assert_cmpint (g_stat (cache_dir, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0700);

  /* The same name again gets a folder of its own: nothing is overwritten. */
  write_private (bytes, "plan.txt", &again);
  g_assert_no_error (again.error);
  g_assert_false (g_file_equal (r.file, again.file));
  g_assert_true (g_file_test (path, G_FILE_TEST_EXISTS));

  g_clear_object (&r.file);
  g_clear_object (&again.file);
}

static void
test_prune_old_copies (void)
{
  g_autoptr(GBytes) bytes = g_bytes_new_static ("x", 1);
  g_autofree char *cache_dir = triage_attachment_get_cache_dir ();
  g_autofree char *old_dir = g_build_filename (cache_dir, "oldcopy", NULL);
  g_autofree char *old_file = g_build_filename (old_dir, "old.txt", NULL);
  g_autofree char *fresh_dir = g_build_filename (cache_dir, "freshcopy", NULL);
  gint64 two_days_ago = g_get_real_time () / G_USEC_PER_SEC - 2 * 24 * 3600;
  struct timeval times[2] = { { two_days_ago, 0 }, { two_days_ago, 0 } };
  Result r;

  g_assert_cmpint (g_mkdir_with_parents (old_dir, 0700), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (fresh_dir, 0700), ==, 0);
  g_assert_true (g_file_set_contents (old_file, "old", -1, NULL));
  g_assert_cmpint (utimes (old_dir, times), ==, 0);

  write_private (bytes, "new.txt", &r);
  g_assert_no_error (r.error);

  g_assert_false (g_file_test (old_dir, G_FILE_TEST_EXISTS));
  g_assert_true (g_file_test (fresh_dir, G_FILE_TEST_IS_DIR));
  g_clear_object (&r.file);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  g_autofree char *cache_home = NULL;
  int status;

  g_test_init (&argc, &argv, NULL);

  /* A cache of our own, set before GLib reads it (not G_TEST_OPTION_ISOLATE_DIRS: it leaks). */
  cache_home = g_dir_make_tmp ("triage-test-cache-XXXXXX", &error);
  g_assert_no_error (error);
  g_setenv ("XDG_CACHE_HOME", cache_home, TRUE);

  g_test_add_func ("/attachments/file/suggest-filename", test_suggest_filename);
  g_test_add_func ("/attachments/file/long-name", test_long_name);
  g_test_add_func ("/attachments/file/long-wide-name", test_long_wide_name);
  g_test_add_func ("/attachments/file/write-private", test_write_private);
  g_test_add_func ("/attachments/file/prune-old-copies", test_prune_old_copies);

  status = g_test_run ();

  /* Everything the tests wrote lives under the temporary folder. */
  g_assert_cmpstr (g_get_user_cache_dir (), ==, cache_home);
  ui_test_remove_tree (cache_home);

  return status;
}
