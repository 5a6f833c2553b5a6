/* triage-attachment-file.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-attachment-file"

#include <errno.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "triage-attachment-file.h"

#define MAX_FILENAME_CHARS 80
/* Well under NAME_MAX (255 bytes) with an extension added: 80 wide characters are not. */
#define MAX_FILENAME_BYTES 200

static const struct
{
  const char *mime_type;
  const char *extension;
} extensions[] = {
  { "text/plain", ".txt" },
  { "text/markdown", ".md" },
  { "text/csv", ".csv" },
  { "text/html", ".html" },
  { "text/x-diff", ".diff" },
  { "text/x-patch", ".patch" },
  { "application/json", ".json" },
  { "application/xml", ".xml" },
  { "text/xml", ".xml" },
  { "application/yaml", ".yaml" },
  { "application/x-yaml", ".yaml" },
  { "application/pdf", ".pdf" },
  { "application/zip", ".zip" },
  { "application/gzip", ".gz" },
  { "image/png", ".png" },
  { "image/jpeg", ".jpg" },
  { "image/gif", ".gif" },
  { "image/webp", ".webp" },
  { "image/svg+xml", ".svg" },
  { "image/bmp", ".bmp" },
  { "image/tiff", ".tiff" },
};

/**
 * triage_attachment_suggest_filename:
 * @description: (nullable): the attachment's description, untrusted
 * @mime_type: (nullable): its MIME type
 *
 * Derives a harmless file name: the description when it looks like a file
 * name (no directory parts, no leading dot, no control characters, at most
 * a few dozen characters), else "attachment"; an extension matching
 * @mime_type is added when it has none.
 *
 * Returns: (transfer full): a file name without any directory
 */
char *
triage_attachment_suggest_filename (const char *description,
                                    const char *mime_type)
{
  g_autoptr(GString) name = g_string_new (NULL);

  if (description != NULL && g_utf8_validate (description, -1, NULL))
    {
      const char *p = description;

      while (*p == '.' || g_unichar_isspace (g_utf8_get_char (p)))
        p = g_utf8_next_char (p);

      for (; *p && g_utf8_strlen (name->str, -1) < MAX_FILENAME_CHARS &&
             name->len + 4 <= MAX_FILENAME_BYTES;
           p = g_utf8_next_char (p))
        {
          gunichar c = g_utf8_get_char (p);

          if (c == '/' || c == '\\' || c == ':')
            g_string_append_c (name, '_');
          else if (g_unichar_iscntrl (c) || g_unichar_type (c) == G_UNICODE_FORMAT)
            continue;  /* controls and bidi overrides */
          else
            g_string_append_unichar (name, c);
        }

      while (name->len > 0 && g_ascii_isspace (name->str[name->len - 1]))
        g_string_truncate (name, name->len - 1);
    }

  if (name->len == 0)
    g_string_assign (name, _("attachment"));

  if (mime_type != NULL && strrchr (name->str, '.') == NULL)
    {
      for (guint i = 0; i < G_N_ELEMENTS (extensions); i++)
        {
          if (g_ascii_strcasecmp (extensions[i].mime_type, mime_type) == 0)
            {
              g_string_append (name, extensions[i].extension);
              break;
            }
        }
    }

  return g_string_free (g_steal_pointer (&name), FALSE);
}

/**
 * triage_attachment_get_cache_dir:
 *
 * Returns: (transfer full): `$XDG_CACHE_HOME/triage/attachments`
 */
char *
triage_attachment_get_cache_dir (void)
{
  return g_build_filename (g_get_user_cache_dir (), "triage", "attachments", NULL);
}

static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = NULL;
  const char *name;

  dir = g_dir_open (path, 0, NULL);
  if (dir != NULL)
    {
      while ((name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *child = g_build_filename (path, name, NULL);

          if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
            remove_tree (child);
          else
            g_unlink (child);
        }
    }

  g_remove (path);
}

/* Removes the copies left by earlier "Open with…" that are older than a day. */
static void
prune_cache (const char *cache_dir)
{
  g_autoptr(GDir) dir = NULL;
  const char *name;
  gint64 now = g_get_real_time ();

  dir = g_dir_open (cache_dir, 0, NULL);
  if (dir == NULL)
    return;

  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (cache_dir, name, NULL);
      GStatBuf st;

      if (g_lstat (path, &st) == 0 &&
          now - (gint64) st.st_mtime * G_USEC_PER_SEC > TRIAGE_ATTACHMENT_CACHE_MAX_AGE)
        remove_tree (path);
    }
}

static void
write_private_thread (GTask        *task,
                      gpointer      source_object,
                      gpointer      task_data,
                      GCancellable *cancellable)
{
  GBytes *bytes = task_data;
  const char *filename = g_object_get_data (G_OBJECT (task), "filename");
  g_autofree char *cache_dir = triage_attachment_get_cache_dir ();
  g_autofree char *template = NULL;
  g_autofree char *path = NULL;
  GError *error = NULL;
  gsize size;
  const char *data;

  if (g_mkdir_with_parents (cache_dir, 0700) != 0 || g_chmod (cache_dir, 0700) != 0)
    {
      int saved_errno = errno;

      g_task_return_new_error (task, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                               _("Could not create the folder %s: %s"),
                               cache_dir, g_strerror (saved_errno));
      return;
    }

  prune_cache (cache_dir);

  /* A folder of its own keeps the file name readable and unguessable at once. */
  template = g_build_filename (cache_dir, "XXXXXX", NULL);
  if (g_mkdtemp_full (template, 0700) == NULL)
    {
      int saved_errno = errno;

      g_task_return_new_error (task, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                               _("Could not create a private folder in %s: %s"),
                               cache_dir, g_strerror (saved_errno));
      return;
    }

  path = g_build_filename (template, filename, NULL);
  data = g_bytes_get_data (bytes, &size);
  if (!g_file_set_contents_full (path, data, size, G_FILE_SET_CONTENTS_CONSISTENT, 0600, &error))
    {
      g_remove (template);
      g_task_return_error (task, error);
      return;
    }

  g_task_return_pointer (task, g_file_new_for_path (path), g_object_unref);
}

/**
 * triage_attachment_write_private_async:
 * @bytes: the content
 * @filename: a file name from triage_attachment_suggest_filename()
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when done
 * @user_data: data for @callback
 *
 * Writes @bytes to a new file only the user can read (mode 0600, in a new
 * 0700 folder under triage_attachment_get_cache_dir()), for handing to
 * another application. Copies older than %TRIAGE_ATTACHMENT_CACHE_MAX_AGE
 * are removed first.
 */
void
triage_attachment_write_private_async (GBytes              *bytes,
                                       const char          *filename,
                                       GCancellable        *cancellable,
                                       GAsyncReadyCallback  callback,
                                       gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (bytes != NULL);
  g_return_if_fail (filename != NULL && *filename != '\0');
  g_return_if_fail (strchr (filename, '/') == NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, triage_attachment_write_private_async);
  g_task_set_task_data (task, g_bytes_ref (bytes), (GDestroyNotify) g_bytes_unref);
  g_object_set_data_full (G_OBJECT (task), "filename", g_strdup (filename), g_free);
  g_task_run_in_thread (task, write_private_thread);
}

/**
 * triage_attachment_write_private_finish:
 * @result: the #GAsyncResult
 * @error: a #GIOError
 *
 * Returns: (transfer full): the file written
 */
GFile *
triage_attachment_write_private_finish (GAsyncResult  *result,
                                        GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
