/* test-attachment-view.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The attachment preview in a real window (suite 'ui': needs a display).
 * The tests are in attachment-view-*.c by topic (inline, uri, save, page),
 * the fixture and helpers in attachment-view-common.c.
 */

#define G_LOG_DOMAIN "test-attachment-view"

#include "attachment-view-common.h"

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  g_autofree char *cache_home = NULL;
  int status;

  /* Private copies for "Open With…" go to a cache of our own, set before GLib reads it. */
  cache_home = g_dir_make_tmp ("triage-test-cache-XXXXXX", &error);
  g_assert_no_error (error);
  g_setenv ("XDG_CACHE_HOME", cache_home, TRUE);

  /* The in-process accessibility backend, so the tests can read names. */
  g_setenv ("GTK_A11Y", "test", TRUE);
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, attachment_view_test_setup, func, attachment_view_test_teardown)

  ADD ("/attachments/attachment-view/text", attachment_view_test_text);
  ADD ("/attachments/attachment-view/json", attachment_view_test_json);
  ADD ("/attachments/attachment-view/code", attachment_view_test_code);
  ADD ("/attachments/attachment-view/code-view-settings", attachment_view_test_code_view_settings);
  ADD ("/attachments/attachment-view/html-is-source", attachment_view_test_html_is_source);
  ADD ("/attachments/attachment-view/image", attachment_view_test_image);
  ADD ("/attachments/attachment-view/file", attachment_view_test_file);
  ADD ("/attachments/attachment-view/bad-base64", attachment_view_test_bad_base64);
  ADD ("/attachments/attachment-view/huge-image-header", attachment_view_test_huge_image_header);
  ADD ("/attachments/attachment-view/invalid-utf8", attachment_view_test_invalid_utf8);
  ADD ("/attachments/attachment-view/huge-text-truncated",
       attachment_view_test_huge_text_truncated);
  ADD ("/attachments/attachment-view/type-mismatch", attachment_view_test_type_mismatch);
  ADD ("/attachments/attachment-view/whole-lines-copy", attachment_view_test_whole_lines_copy);
  ADD ("/attachments/attachment-view/find-named", attachment_view_test_find_named);
  ADD ("/attachments/attachment-view/uri-refused", attachment_view_test_uri_refused);
  ADD ("/attachments/attachment-view/uri-host-emphasised",
       attachment_view_test_uri_host_emphasised);
  ADD ("/attachments/attachment-view/uri-load", attachment_view_test_uri_load);
  ADD ("/attachments/attachment-view/uri-redirect-elsewhere",
       attachment_view_test_uri_redirect_elsewhere);
  ADD ("/attachments/attachment-view/uri-size-limit", attachment_view_test_uri_size_limit);
  ADD ("/attachments/attachment-view/uri-type-mismatch", attachment_view_test_uri_type_mismatch);
  ADD ("/attachments/attachment-view/uri-cancel", attachment_view_test_uri_cancel);
  ADD ("/attachments/attachment-view/save", attachment_view_test_save);
  ADD ("/attachments/attachment-view/save-loaded-uri", attachment_view_test_save_loaded_uri);
  ADD ("/attachments/attachment-view/save-unwritable", attachment_view_test_save_unwritable);
  ADD ("/attachments/attachment-view/open-with-copy-name",
       attachment_view_test_open_with_copy_name);
  ADD ("/attachments/attachment-view/open-with-content-type",
       attachment_view_test_open_with_content_type);
  g_test_add_func ("/attachments/attachment-view/page", attachment_view_test_page);
  g_test_add_func ("/attachments/attachment-view/page-narrow",
                   attachment_view_test_page_narrow);
  g_test_add_func ("/attachments/attachment-view/shortcuts-listed",
                   attachment_view_test_shortcuts_listed);

#undef ADD

  status = g_test_run ();

  /* Everything the tests wrote there (and GL shader caches) lives under it. */
  g_assert_cmpstr (g_get_user_cache_dir (), ==, cache_home);
  ui_test_remove_tree (cache_home);

  return status;
}
