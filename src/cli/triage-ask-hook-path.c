/* triage-ask-hook-path.c — the file a coding agent's tool call names, as the person sees it
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-ask"

#include "triage-ask-hook-path.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <gio/gio.h>

/*
 * A tool writes where the path leads, not where its name says: a link inside
 * the project (notes.txt → ~/.ssh/authorized_keys), or a folder that is one,
 * would otherwise read as one of the project's own files, the very thing the
 * title's whole path for a file outside the project is there to prevent.
 */

#define MAX_LINKS 16

char *
triage_ask_hook_shown_path (const char *path,
                            const char *cwd)
{
  gsize length = cwd != NULL ? strlen (cwd) : 0;

  while (length > 1 && cwd[length - 1] == '/')
    length--;
  if (length > 0 && g_path_is_absolute (cwd) && strncmp (path, cwd, length) == 0 &&
      path[length] == '/' && path[length + 1] != '\0' && strstr (path + length, "/..") == NULL)
    return g_strdup (path + length + 1);
  return g_strdup (path);
}

/* @path with every symbolic link followed, though it (or its folders) need
 * not be there yet: a write creates the file, and a link to nothing yet
 * creates its target. NULL when that cannot be known. */
static char *
resolve (const char *path,
         guint       links)
{
  char *real = realpath (path, NULL);
  g_autofree char *target = NULL;
  g_autofree char *folder = NULL;
  g_autofree char *real_folder = NULL;
  g_autofree char *name = NULL;

  if (real != NULL)
    {
      char *copy = g_strdup (real);

      free (real);
      return copy;
    }
  if (links > MAX_LINKS || !g_path_is_absolute (path))
    return NULL;

  folder = g_path_get_dirname (path);
  target = g_file_read_link (path, NULL);
  if (target != NULL)
    {
      g_autofree char *whole = g_path_is_absolute (target)
                                 ? g_strdup (target) : g_build_filename (folder, target, NULL);

      return resolve (whole, links + 1);
    }
  if (g_str_equal (folder, path))
    return NULL;
  real_folder = resolve (folder, links + 1);
  if (real_folder == NULL)
    return NULL;
  name = g_path_get_basename (path);
  return g_build_filename (real_folder, name, NULL);
}

char *
triage_ask_hook_real_path (const char  *path,
                           const char  *cwd,
                           char       **shown)
{
  g_autofree char *real = NULL;
  g_autofree char *real_cwd = NULL;
  g_autofree char *canonical = NULL;
  g_autofree char *named = NULL;
  g_autofree char *reached = NULL;

  *shown = NULL;
  if (!g_path_is_absolute (path))
    return NULL;
  real = resolve (path, 0);
  if (real == NULL)
    return NULL;
  real_cwd = cwd != NULL ? resolve (cwd, 0) : NULL;

  /* "a/../b" names what it leads to once ".." is read: no link in that. */
  canonical = g_canonicalize_filename (path, NULL);
  named = triage_ask_hook_shown_path (canonical, cwd);
  reached = triage_ask_hook_shown_path (real, real_cwd != NULL ? real_cwd : cwd);
  if (g_str_equal (named, reached))
    return NULL;
  *shown = g_steal_pointer (&reached);
  return g_steal_pointer (&real);
}
