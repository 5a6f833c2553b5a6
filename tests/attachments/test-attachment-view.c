/* test-attachment-view.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The attachment preview in a real window (suite 'ui': needs a display).
 * The tests are in attachment-view-*.c by topic (inline, uri, save, window),
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

  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_setup, func, fixture_teardown)

  ADD ("/attachments/attachment-view/text", test_text);
  ADD ("/attachments/attachment-view/json", test_json);
  ADD ("/attachments/attachment-view/code", test_code);
  ADD ("/attachments/attachment-view/code-view-settings", test_code_view_settings);
  ADD ("/attachments/attachment-view/html-is-source", test_html_is_source);
  ADD ("/attachments/attachment-view/image", test_image);
  ADD ("/attachments/attachment-view/file", test_file);
  ADD ("/attachments/attachment-view/bad-base64", test_bad_base64);
  ADD ("/attachments/attachment-view/huge-image-header", test_huge_image_header);
  ADD ("/attachments/attachment-view/invalid-utf8", test_invalid_utf8);
  ADD ("/attachments/attachment-view/huge-text-truncated", test_huge_text_truncated);
  ADD ("/attachments/attachment-view/type-mismatch", test_type_mismatch);
  ADD ("/attachments/attachment-view/uri-refused", test_uri_refused);
  ADD ("/attachments/attachment-view/uri-host-emphasised", test_uri_host_emphasised);
  ADD ("/attachments/attachment-view/uri-load", test_uri_load);
  ADD ("/attachments/attachment-view/uri-redirect-elsewhere", test_uri_redirect_elsewhere);
  ADD ("/attachments/attachment-view/uri-size-limit", test_uri_size_limit);
  ADD ("/attachments/attachment-view/uri-type-mismatch", test_uri_type_mismatch);
  ADD ("/attachments/attachment-view/uri-cancel", test_uri_cancel);
  ADD ("/attachments/attachment-view/save", test_save);
  ADD ("/attachments/attachment-view/save-loaded-uri", test_save_loaded_uri);
  ADD ("/attachments/attachment-view/save-unwritable", test_save_unwritable);
  ADD ("/attachments/attachment-view/open-with-copy-name", test_open_with_copy_name);
  ADD ("/attachments/attachment-view/open-with-content-type", test_open_with_content_type);
  g_test_add_func ("/attachments/attachment-view/window", test_window);
  g_test_add_func ("/attachments/attachment-view/window-narrow", test_window_narrow);
  g_test_add_func ("/attachments/attachment-view/shortcuts-listed", test_shortcuts_listed);

#undef ADD

  status = g_test_run ();

  /* Everything the tests wrote there (and GL shader caches) lives under it. */
  g_assert_cmpstr (g_get_user_cache_dir (), ==, cache_home);
  ui_test_remove_tree (cache_home);

  return status;
}
