/* test-server-malloc.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The server's allocator. Linked with mimalloc (src/server/meson.build), its
 * every block comes from mimalloc (GLib's malloc () and free () are bound to
 * it, as the dynamic linker's log shows), and it does not start itself again to
 * tune glibc's. Otherwise it runs with glibc's per-thread cache of 128 free
 * blocks a size (src/server/main.c starts itself again with
 * GLIBC_TUNABLES), keeps the other tunables an operator gave, and keeps the
 * operator's own count. Read from the server's debug message: glibc cuts
 * the variable short in /proc/PID/environ as it parses it.
 */

#include <gio/gio.h>
#include <glib/gstdio.h>

#include "server-test-util.h"

/* The tunables a server started with @given (NULL: none) runs with; it
 * answers too. With @maps, the server's memory map (/proc/PID/maps). */
static char *
server_tunables (const char  *given,
                 char       **maps)
{
  g_autofree char *dir = g_dir_make_tmp ("test-server-malloc-XXXXXX", NULL);
  g_autofree char *log = g_build_filename (dir, "server.log", NULL);
  TriageTestServerOptions options = { .log_file = log };
  g_autoptr(GError) error = NULL;
  g_autoptr(TriageTestServer) server = NULL;
  g_autoptr(SrvAnswer) health = NULL;
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;
  char *tunables = NULL;

  if (given != NULL)
    g_setenv ("GLIBC_TUNABLES", given, TRUE);
  else
    g_unsetenv ("GLIBC_TUNABLES");
  g_setenv ("G_MESSAGES_DEBUG", "triage-server", TRUE);
  server = triage_test_server_new (&options, &error);
  g_unsetenv ("GLIBC_TUNABLES");
  g_unsetenv ("G_MESSAGES_DEBUG");
  g_assert_no_error (error);
  health = srv_request (server, "GET", "/healthz", NULL, NULL);
  g_assert_cmpuint (health->status, ==, 200);
  /* Written before the server said where it listens. */
  g_assert_true (g_file_get_contents (log, &contents, NULL, NULL));
  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i] != NULL && tunables == NULL; i++)
    {
      const char *found = strstr (lines[i], "glibc tunables: ");

      if (found != NULL)
        tunables = g_strdup (found + strlen ("glibc tunables: "));
    }
  g_assert_nonnull (tunables);
  if (maps != NULL)
    {
      g_autofree char *path = g_strdup_printf ("/proc/%d/maps",
                                               (int) triage_test_server_get_pid (server));

      g_assert_true (g_file_get_contents (path, maps, NULL, NULL));
    }
  g_assert_true (triage_test_server_stop (server));
  g_unlink (log);
  g_rmdir (dir);
  return tunables;
}

#ifdef TRIAGE_MIMALLOC
/* Whether the dynamic linker's log (LD_DEBUG=bindings) in @dir shows GLib's
 * calls of @symbol bound to mimalloc: mapped is not enough, it must come
 * before the C library. */
static gboolean
glib_binds_to_mimalloc (const char *dir,
                        const char *symbol)
{
  g_autoptr(GDir) files = g_dir_open (dir, 0, NULL);
  g_autofree char *needle = g_strdup_printf ("/libmimalloc.so.2 [0]: normal symbol `%s'", symbol);
  const char *name;
  gboolean found = FALSE;

  while (!found && files != NULL && (name = g_dir_read_name (files)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autofree char *log = NULL;
      g_auto(GStrv) lines = NULL;

      g_assert_true (g_file_get_contents (path, &log, NULL, NULL));
      lines = g_strsplit (log, "\n", -1);
      for (guint i = 0; !found && lines[i] != NULL; i++)
        found = strstr (lines[i], "/libglib-2.0.so") != NULL && strstr (lines[i], needle) != NULL;
    }

  return found;
}

static void
test_mimalloc (void)
{
  g_autofree char *dir = g_dir_make_tmp ("test-server-malloc-ld-XXXXXX", NULL);
  g_autofree char *prefix = g_build_filename (dir, "ld", NULL);
  g_autofree char *maps = NULL;
  g_autofree char *tunables = NULL;
  g_autoptr(GDir) files = NULL;
  const char *name;

  g_setenv ("LD_DEBUG", "bindings", TRUE);
  g_setenv ("LD_DEBUG_OUTPUT", prefix, TRUE);
  tunables = server_tunables (NULL, &maps);
  g_unsetenv ("LD_DEBUG");
  g_unsetenv ("LD_DEBUG_OUTPUT");

  g_assert_nonnull (strstr (maps, "/libmimalloc.so"));
  g_assert_true (glib_binds_to_mimalloc (dir, "malloc"));
  g_assert_true (glib_binds_to_mimalloc (dir, "free"));
  /* Not started again for glibc's sake. */
  g_assert_cmpstr (tunables, ==, "(null)");

  files = g_dir_open (dir, 0, NULL);
  while ((name = g_dir_read_name (files)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      g_unlink (path);
    }
  g_rmdir (dir);
}
#elif defined (__GLIBC__)
static void
test_tcache_set (void)
{
  g_autofree char *tunables = server_tunables (NULL, NULL);

  g_assert_cmpstr (tunables, ==, "glibc.malloc.tcache_count=128");
}

static void
test_other_tunables_kept (void)
{
  g_autofree char *tunables = server_tunables ("glibc.malloc.mmap_threshold=1048576", NULL);

  g_assert_cmpstr (tunables, ==, "glibc.malloc.mmap_threshold=1048576:glibc.malloc.tcache_count=128");
}

static void
test_operator_count_kept (void)
{
  g_autofree char *tunables = server_tunables ("glibc.malloc.tcache_count=16", NULL);

  g_assert_cmpstr (tunables, ==, "glibc.malloc.tcache_count=16");
}
#endif

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
#if defined (TRIAGE_MIMALLOC)
  g_test_add_func ("/server/malloc/mimalloc", test_mimalloc);
#elif defined (__GLIBC__)
  g_test_add_func ("/server/malloc/tcache-set", test_tcache_set);
  g_test_add_func ("/server/malloc/other-tunables-kept", test_other_tunables_kept);
  g_test_add_func ("/server/malloc/operator-count-kept", test_operator_count_kept);
#endif
  return g_test_run ();
}
