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
 * written or removed whenever the `autostart` or the `run-in-background`
 * setting changes. The entry starts the app without a window, which only
 * stays while it runs in the background: with `run-in-background` off it
 * would quit as soon as it started, so there is no entry then (the
 * `autostart` key keeps the person's choice for when it is turned back on).
 */

struct _TriageAutostart
{
  GObject       parent_instance;

  GSettings    *settings;
  GCancellable *cancellable;
};

G_DEFINE_FINAL_TYPE (TriageAutostart, triage_autostart, G_TYPE_OBJECT)

/* The application stays until the entry is written or removed: started at
 * login with nothing to keep it, it would quit before a stale entry is gone. */
static GApplication *
hold_application (void)
{
  GApplication *app = g_application_get_default ();

  if (app == NULL)
    return NULL;

  g_application_hold (app);
  return g_object_ref (app);
}

static void
release_application (GApplication *app)
{
  if (app == NULL)
    return;

  g_application_release (app);
  g_object_unref (app);
}

static void
autostart_written_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  if (!g_file_replace_contents_finish (G_FILE (object), result, NULL, &error) &&
      !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_warning ("Could not turn on start at login: %s", error->message);
  release_application (user_data);
}

static void
autostart_deleted_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  if (!g_file_delete_finish (G_FILE (object), result, &error) &&
      !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND) &&
      !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_warning ("Could not turn off start at login: %s", error->message);
  release_application (user_data);
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

static void
remove_entry (TriageAutostart *self,
              GFile           *file)
{
  g_file_delete_async (file, G_PRIORITY_DEFAULT, self->cancellable, autostart_deleted_cb,
                       hold_application ());
}

/* Start at login: an XDG autostart entry in the user's configuration,
 * written or removed as the settings change. */
static void
on_settings_changed (TriageAutostart *self)
{
  g_autofree char *path = triage_autostart_dup_path ();
  g_autoptr(GFile) file = g_file_new_for_path (path);

  if (triage_autostart_get_effective (self->settings))
    {
      g_autofree char *dir = g_path_get_dirname (path);
      g_autoptr(GBytes) contents = autostart_entry ();

      g_mkdir_with_parents (dir, 0700);
      g_file_replace_contents_bytes_async (file, contents, NULL, FALSE, G_FILE_CREATE_NONE,
                                           self->cancellable, autostart_written_cb,
                                           hold_application ());
    }
  else
    remove_entry (self, file);
}

/* An entry of ours that should not be there, left by a version that wrote it
 * with run-in-background off (the app it starts quits at once), or from
 * before the settings were changed with the app not running: removed. One
 * that another tool made (GNOME Tweaks copies the launcher, which opens the
 * window) is not ours to remove; one that the person removed is not put back
 * until they turn Start at Login on again. */
static void
remove_stale_entry (TriageAutostart *self)
{
  g_autofree char *path = triage_autostart_dup_path ();
  g_autoptr(GKeyFile) entry = g_key_file_new ();
  g_autofree char *exec = NULL;
  g_autoptr(GFile) file = NULL;

  if (triage_autostart_get_effective (self->settings) ||
      !g_key_file_load_from_file (entry, path, G_KEY_FILE_NONE, NULL))
    return;

  exec = g_key_file_get_string (entry, G_KEY_FILE_DESKTOP_GROUP, G_KEY_FILE_DESKTOP_KEY_EXEC,
                                NULL);
  if (exec == NULL || strstr (exec, "--gapplication-service") == NULL)
    return;

  file = g_file_new_for_path (path);
  remove_entry (self, file);
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
 * @settings: the app's settings (`autostart`, `run-in-background`)
 *
 * Returns: (transfer full): an object that keeps the autostart entry as the
 *   settings say (triage_autostart_get_effective ()), from now on: the entry
 *   is written when they change; one of ours that should not be there is
 *   removed at once
 */
TriageAutostart *
triage_autostart_new (GSettings *settings)
{
  TriageAutostart *self;

  g_return_val_if_fail (G_IS_SETTINGS (settings), NULL);

  self = g_object_new (TRIAGE_TYPE_AUTOSTART, NULL);
  self->settings = g_object_ref (settings);
  g_signal_connect_object (settings, "changed::autostart",
                           G_CALLBACK (on_settings_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (settings, "changed::run-in-background",
                           G_CALLBACK (on_settings_changed), self, G_CONNECT_SWAPPED);
  remove_stale_entry (self);

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

/**
 * triage_autostart_get_effective:
 * @settings: the app's settings
 *
 * Whether the app starts at login: `autostart` asks for it, and only an app
 * that runs in the background (`run-in-background`) has anything to stay for
 * once started without a window.
 *
 * Returns: %TRUE if there is an autostart entry to keep
 */
gboolean
triage_autostart_get_effective (GSettings *settings)
{
  g_return_val_if_fail (G_IS_SETTINGS (settings), FALSE);

  return g_settings_get_boolean (settings, "autostart") &&
         g_settings_get_boolean (settings, "run-in-background");
}
