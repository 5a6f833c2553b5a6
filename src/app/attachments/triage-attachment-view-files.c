/* triage-attachment-view-files.c — an attachment saved, or opened with another application
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-attachment-view"

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "triage-attachment-file.h"
#include "triage-attachment-view-private.h"
#include "triage-decision-format.h"

/* Toast titles are markup; file names and error messages are not. */
static void
show_toast_escaped (TriageAttachmentView *self,
                    const char           *text)
{
  g_autofree char *escaped = g_markup_escape_text (text, -1);

  adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (escaped));
}

typedef struct
{
  GBytes *bytes;
  GFile  *file;
} SaveData;

static void
save_data_free (SaveData *data)
{
  g_bytes_unref (data->bytes);
  g_object_unref (data->file);
  g_free (data);
}

/*
 * Writes @bytes to a new file beside @path, synced, and renames it over
 * @path, so @path is either the whole attachment or as it was.
 */
static gboolean
replace_local_file (const char  *path,
                    GBytes      *bytes,
                    GError     **error)
{
  gsize size;
  const char *data = g_bytes_get_data (bytes, &size);

  return g_file_set_contents_full (path, data ? data : "", size,
                                   G_FILE_SET_CONTENTS_CONSISTENT | G_FILE_SET_CONTENTS_DURABLE,
                                   0666, error);
}

static void
save_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  SaveData *data = task_data;
  g_autofree char *path = g_file_get_path (data->file);
  GError *error = NULL;
  gboolean saved;

  if (path != NULL)
    {
      saved = replace_local_file (path, data->bytes, &error);
    }
  else
    {
      gsize size;
      const char *contents = g_bytes_get_data (data->bytes, &size);

      /* GIO's own replace: a temporary file renamed over the target, where the backend can. */
      saved = g_file_replace_contents (data->file, contents ? contents : "", size, NULL, FALSE,
                                       G_FILE_CREATE_REPLACE_DESTINATION, NULL, cancellable,
                                       &error);
    }

  if (saved)
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

static void
save_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  TriageAttachmentView *self = g_task_get_source_object (task);
  SaveData *data = g_task_get_task_data (G_TASK (result));
  g_autofree char *name = g_file_get_basename (data->file);
  g_autofree char *message = NULL;
  GError *error = NULL;

  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          /* Translators: %s is a file name, the second %s why it could not be written */
          message = g_strdup_printf (_("Could not save “%s”: %s"), name, error->message);
          show_toast_escaped (self, message);
        }
      g_task_return_error (task, error);
      return;
    }

  message = g_strdup_printf (_("Saved as “%s”"), name);
  show_toast_escaped (self, message);
  g_task_return_boolean (task, TRUE);
}

/**
 * triage_attachment_view_save_async:
 * @self: a #TriageAttachmentView
 * @file: where to save, as chosen by the user
 * @cancellable: (nullable): a #GCancellable
 * @callback: (nullable): called when done
 * @user_data: data for @callback
 *
 * Saves the attachment's bytes, exactly as decoded or downloaded, to @file:
 * what "Save As…" does once the user has chosen @file. The file is replaced
 * at once (a local file is written beside it and renamed over it), so it is
 * never left partly written. The outcome is shown in a toast, an error too.
 */
void
triage_attachment_view_save_async (TriageAttachmentView *self,
                                   GFile                *file,
                                   GCancellable         *cancellable,
                                   GAsyncReadyCallback   callback,
                                   gpointer              user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GTask) write = NULL;
  SaveData *data;

  g_return_if_fail (TRIAGE_IS_ATTACHMENT_VIEW (self));
  g_return_if_fail (G_IS_FILE (file));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, triage_attachment_view_save_async);

  if (self->bytes == NULL)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                               _("There is nothing to save"));
      return;
    }

  data = g_new0 (SaveData, 1);
  data->bytes = g_bytes_ref (self->bytes);
  data->file = g_object_ref (file);

  /* The write runs in a thread; its result comes back through save_cb() to @task. */
  write = g_task_new (self, cancellable, save_cb, g_steal_pointer (&task));
  g_task_set_task_data (write, data, (GDestroyNotify) save_data_free);
  g_task_run_in_thread (write, save_thread);
}

/**
 * triage_attachment_view_save_finish:
 * @self: a #TriageAttachmentView
 * @result: the #GAsyncResult
 * @error: a #GIOErrorEnum
 *
 * Returns: whether the file was written
 */
gboolean
triage_attachment_view_save_finish (TriageAttachmentView  *self,
                                    GAsyncResult          *result,
                                    GError               **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
on_save_dialog_response (TriageAttachmentView *self,
                         int                   response,
                         GtkNativeDialog      *dialog)
{
  g_autoptr(GFile) file = NULL;

  if (response == GTK_RESPONSE_ACCEPT && self->bytes != NULL)
    file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));

  if (file != NULL)
    triage_attachment_view_save_async (self, file, self->cancellable, NULL, NULL);

  gtk_native_dialog_destroy (dialog);
  g_clear_object (&self->save_dialog);
}

void
_triage_attachment_view_save_action (GtkWidget  *widget,
                                     const char *action_name,
                                     GVariant   *parameter)
{
  TriageAttachmentView *self = TRIAGE_ATTACHMENT_VIEW (widget);
  g_autofree char *name = NULL;
  GtkRoot *root;

  if (self->bytes == NULL || self->save_dialog != NULL)
    return;

  root = gtk_widget_get_root (widget);
  self->save_dialog = gtk_file_chooser_native_new (_("Save Attachment"),
                                                   GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                                   GTK_FILE_CHOOSER_ACTION_SAVE,
                                                   _("_Save"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->save_dialog), TRUE);

  name = triage_attachment_suggest_filename (self->description, self->mime_type);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (self->save_dialog), name);

  g_signal_connect_object (self->save_dialog, "response",
                           G_CALLBACK (on_save_dialog_response), self, G_CONNECT_SWAPPED);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->save_dialog));
}

/*
 * The type whose applications "Open With…" offers. The declared type is the
 * sender's word; when the content is recognisably something else (a page of
 * HTML sent as image/png), the applications for what it really is are
 * offered. Content nothing recognises leaves the declared type standing.
 */
static char *
content_type_to_open (const char *declared,
                      GBytes     *bytes)
{
  g_autofree char *sniffed = NULL;
  const guchar *data;
  gsize size;

  data = g_bytes_get_data (bytes, &size);
  if (size == 0)
    return g_strdup (declared);

  sniffed = g_content_type_guess (NULL, data, MIN (size, SNIFF_SIZE), NULL);
  if (g_content_type_is_unknown (sniffed) ||
      g_content_type_is_a (sniffed, declared) ||
      g_content_type_is_a (declared, sniffed))
    return g_strdup (declared);

  return g_steal_pointer (&sniffed);
}

static void
write_private_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;
  GFile *file;

  file = triage_attachment_write_private_finish (result, &error);
  if (file == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, file, g_object_unref);
}

/**
 * triage_attachment_view_write_copy_async:
 * @self: a #TriageAttachmentView
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when done
 * @user_data: data for @callback
 *
 * Writes the attachment's bytes to a private copy for "Open With…": a file
 * only the user can read, in a new folder only the user can open, named
 * after the description with triage_attachment_suggest_filename() (no
 * folder parts, no leading dot, bounded length). The content type to offer
 * applications for comes with it, see
 * triage_attachment_view_write_copy_finish().
 */
void
triage_attachment_view_write_copy_async (TriageAttachmentView *self,
                                         GCancellable         *cancellable,
                                         GAsyncReadyCallback   callback,
                                         gpointer              user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autofree char *content_type = NULL;
  g_autofree char *name = NULL;

  g_return_if_fail (TRIAGE_IS_ATTACHMENT_VIEW (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, triage_attachment_view_write_copy_async);

  if (self->bytes == NULL)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                               _("There is nothing to open"));
      return;
    }

  content_type = content_type_to_open (self->mime_type, self->bytes);
  name = triage_attachment_suggest_filename (self->description, content_type);
  g_task_set_task_data (task, g_steal_pointer (&content_type), g_free);
  triage_attachment_write_private_async (self->bytes, name, cancellable,
                                         write_private_cb, g_steal_pointer (&task));
}

/**
 * triage_attachment_view_write_copy_finish:
 * @self: a #TriageAttachmentView
 * @result: the #GAsyncResult
 * @content_type: (out) (optional) (transfer full): the content type to offer
 *   applications for: the declared one, or the sniffed one when the content
 *   is recognisably something else
 * @error: a #GIOErrorEnum
 *
 * Returns: (transfer full): the private copy
 */
GFile *
triage_attachment_view_write_copy_finish (TriageAttachmentView  *self,
                                          GAsyncResult          *result,
                                          char                 **content_type,
                                          GError               **error)
{
  GFile *file;

  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  file = g_task_propagate_pointer (G_TASK (result), error);
  if (file != NULL && content_type != NULL)
    *content_type = g_strdup (g_task_get_task_data (G_TASK (result)));

  return file;
}

static void
on_app_chooser_response (GtkDialog *dialog,
                         int        response,
                         gpointer   user_data)
{
  TriageAttachmentView *self = g_object_get_data (G_OBJECT (dialog), "view");
  GFile *file = g_object_get_data (G_OBJECT (dialog), "file");

  if (response == GTK_RESPONSE_OK)
    {
      g_autoptr(GAppInfo) app_info = gtk_app_chooser_get_app_info (GTK_APP_CHOOSER (dialog));
      g_autoptr(GAppLaunchContext) context = NULL;
      g_autoptr(GError) error = NULL;
      GList files = { file, NULL, NULL };

      context = G_APP_LAUNCH_CONTEXT (gdk_display_get_app_launch_context (
                                        gtk_widget_get_display (GTK_WIDGET (self))));

      if (app_info != NULL && !g_app_info_launch (app_info, &files, context, &error))
        {
          g_autofree char *message = NULL;

          message = g_strdup_printf (_("Could not open the attachment: %s"), error->message);
          show_toast_escaped (self, message);
        }
    }

  gtk_window_destroy (GTK_WINDOW (dialog));
}

static void
write_copy_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(TriageAttachmentView) self = user_data;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *content_type = NULL;
  GtkWidget *dialog;
  GtkRoot *root;

  file = triage_attachment_view_write_copy_finish (self, result, &content_type, &error);
  if (file == NULL)
    {
      g_autofree char *message = NULL;

      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;
      message = g_strdup_printf (_("Could not prepare the attachment for opening: %s"),
                                 error->message);
      show_toast_escaped (self, message);
      return;
    }

  root = gtk_widget_get_root (GTK_WIDGET (self));
  dialog = gtk_app_chooser_dialog_new_for_content_type (GTK_IS_WINDOW (root) ? GTK_WINDOW (root)
                                                                             : NULL,
                                                        GTK_DIALOG_MODAL |
                                                        GTK_DIALOG_DESTROY_WITH_PARENT,
                                                        content_type);
  g_object_set_data_full (G_OBJECT (dialog), "file", g_steal_pointer (&file), g_object_unref);
  g_object_set_data_full (G_OBJECT (dialog), "view", g_object_ref (self), g_object_unref);
  g_signal_connect (dialog, "response", G_CALLBACK (on_app_chooser_response), NULL);
  gtk_window_present (GTK_WINDOW (dialog));
}

void
_triage_attachment_view_open_with_action (GtkWidget  *widget,
                                          const char *action_name,
                                          GVariant   *parameter)
{
  TriageAttachmentView *self = TRIAGE_ATTACHMENT_VIEW (widget);

  if (self->bytes == NULL)
    return;

  triage_attachment_view_write_copy_async (self, self->cancellable,
                                           write_copy_cb, g_object_ref (self));
}

