/* triage-autostart.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-autostart"

#include <glib/gi18n.h>
#include <string.h>

#include "triage-autostart.h"

/*
 * Start at login: an XDG autostart entry in the user's configuration,
 * written or removed whenever the `autostart` setting changes.
 */

struct _TriageAutostart
{
  GObject       parent_instance;

  GSettings    *settings;
  GCancellable *cancellable;
};

G_DEFINE_FINAL_TYPE (TriageAutostart, triage_autostart, G_TYPE_OBJECT)

static void
autostart_written_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  if (!g_file_replace_contents_finish (G_FILE (object), result, NULL, &error))
    g_warning ("Could not turn on start at login: %s", error->message);
}

static void
autostart_deleted_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  if (!g_file_delete_finish (G_FILE (object), result, &error) &&
      !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
    g_warning ("Could not turn off start at login: %s", error->message);
}

/* The installed autostart entry (data/, translated), else one written here
 * (a run from the build tree). */
static GBytes *
autostart_entry (void)
{
  g_autofree char *name = g_strconcat (APPLICATION_ID, "-autostart.desktop", NULL);
  const char * const *dirs = g_get_system_data_dirs ();
  char *contents;

  for (guint i = 0; dirs[i] != NULL; i++)
    {
      g_autofree char *path = g_build_filename (dirs[i], "triage", name, NULL);
      gsize length;

      if (g_file_get_contents (path, &contents, &length, NULL))
        return g_bytes_new_take (contents, length);
    }

  contents = g_strdup_printf ("[Desktop Entry]\n"
                              "Type=Application\n"
                              "Name=Triage\n"
                              "Comment=%s\n"
                              "Exec=triage --gapplication-service\n"
                              "Icon=%s\n"
                              "Terminal=false\n"
                              "NoDisplay=true\n"
                              "X-GNOME-Autostart-enabled=true\n"
                              "X-GNOME-UsesNotifications=true\n",
                              _("Keep Triage running in the background to receive decision requests"),
                              APPLICATION_ID);
  return g_bytes_new_take (contents, strlen (contents));
}

/* Start at login: an XDG autostart entry in the user's configuration,
 * written or removed as the setting changes. */
static void
on_autostart_changed (TriageAutostart *self)
{
  g_autofree char *path = triage_autostart_dup_path ();
  g_autoptr(GFile) file = g_file_new_for_path (path);

  if (g_settings_get_boolean (self->settings, "autostart"))
    {
      g_autofree char *dir = g_path_get_dirname (path);
      g_autoptr(GBytes) contents = autostart_entry ();

      g_mkdir_with_parents (dir, 0700);
      g_file_replace_contents_bytes_async (file, contents, NULL, FALSE, G_FILE_CREATE_NONE,
                                           self->cancellable, autostart_written_cb, NULL);
    }
  else
    g_file_delete_async (file, G_PRIORITY_DEFAULT, self->cancellable, autostart_deleted_cb, NULL);
}

static void
triage_autostart_dispose (GObject *object)
{
  TriageAutostart *self = (TriageAutostart *)object;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (triage_autostart_parent_class)->dispose (object);
}

static void
triage_autostart_class_init (TriageAutostartClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = triage_autostart_dispose;
}

static void
triage_autostart_init (TriageAutostart *self)
{
  self->cancellable = g_cancellable_new ();
}

/**
 * triage_autostart_new:
 * @settings: the app's settings (`autostart`)
 *
 * Returns: (transfer full): an object that keeps the autostart entry as the
 *   setting says, from now on (not at once: the entry is written when the
 *   setting changes)
 */
TriageAutostart *
triage_autostart_new (GSettings *settings)
{
  TriageAutostart *self;

  g_return_val_if_fail (G_IS_SETTINGS (settings), NULL);

  self = g_object_new (TRIAGE_TYPE_AUTOSTART, NULL);
  self->settings = g_object_ref (settings);
  g_signal_connect_object (settings, "changed::autostart",
                           G_CALLBACK (on_autostart_changed), self, G_CONNECT_SWAPPED);

  return self;
}

/**
 * triage_autostart_dup_path:
 *
 * Returns: (transfer full): where the user's autostart entry is written
 */
char *
triage_autostart_dup_path (void)
{
  g_autofree char *name = g_strconcat (APPLICATION_ID, ".desktop", NULL);

  return g_build_filename (g_get_user_config_dir (), "autostart", name, NULL);
}
