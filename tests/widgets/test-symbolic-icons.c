/* test-symbolic-icons.c — the symbolic icons are drawn with fills only
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * GTK 4.8 recolours a symbolic icon by overriding the fill of its shapes;
 * a stroke keeps its own colour and its open path gets filled. The app's
 * symbolic icon, drawn with strokes, showed beige lines and grey wedges in
 * the inbox's empty page (and wherever a desktop shows it: the tray, dark).
 */

#include <gtk/gtk.h>

static void
assert_fills_only (const char *path)
{
  g_autofree char *svg = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (g_file_get_contents (path, &svg, NULL, &error));
  g_assert_no_error (error);
  g_assert_nonnull (strstr (svg, "<path"));
  /* No stroke of any kind (stroke=, stroke-width=, style="stroke:…"). */
  if (strstr (svg, "stroke") != NULL)
    g_error ("%s draws with a stroke; a symbolic icon must be filled outlines", path);
}

static void
test_app_icon (void)
{
  assert_fills_only (TRIAGE_SOURCE_ROOT "/data/icons/hicolor/symbolic/apps/io.github.atptriage.Triage-symbolic.svg");
}

static void
test_widget_icons (void)
{
  const char *folder = TRIAGE_SOURCE_ROOT "/src/app/widgets/icons/scalable/actions";
  g_autoptr(GDir) dir = g_dir_open (folder, 0, NULL);
  const char *name;
  guint n = 0;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    if (g_str_has_suffix (name, "-symbolic.svg"))
      {
        g_autofree char *path = g_build_filename (folder, name, NULL);

        assert_fills_only (path);
        n++;
      }
  g_assert_cmpuint (n, >, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/symbolic-icons/app", test_app_icon);
  g_test_add_func ("/symbolic-icons/widgets", test_widget_icons);

  return g_test_run ();
}
