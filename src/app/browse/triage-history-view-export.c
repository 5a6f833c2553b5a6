/* triage-history-view-export.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-history"

#include <glib/gi18n.h>

#include "triage-history-view-private.h"

/*
 * The history view's export: "Export Selected" and "Export All" ask for a
 * file (GtkFileChooserNative) and write JSON Lines or CSV on a thread of
 * their own; the result is a toast in the view's overlay.
 */

void
triage_history_view_update_export_actions (TriageHistoryView *self)
{
  guint n = self->model ? g_list_model_get_n_items (G_LIST_MODEL (self->model)) : 0;
  gboolean selected = FALSE;

  if (self->model != NULL && n > 0)
    {
      g_autoptr(GtkBitset) bits = gtk_selection_model_get_selection (GTK_SELECTION_MODEL (self->model));

      selected = !gtk_bitset_is_empty (bits);
    }

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "history.export-all",
                                 n > 0 && self->exports_running == 0);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "history.export-selected",
                                 selected && self->exports_running == 0);
}


/* Export */

typedef struct
{
  TriageHistoryExportTally  tally;   /* first: see triage_history_export_task_finish() */
  char                     *name;
} ExportResult;

static void
export_result_free (ExportResult *result)
{
  g_free (result->name);
  g_free (result);
}

static void
export_done_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  TriageHistoryView *self = g_task_get_source_object (task);
  ExportResult *data = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;

  self->exports_running--;
  triage_history_view_update_export_actions (self);

  if (!triage_history_export_finish (result, &data->tally.n_written, &error))
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_boolean (task, TRUE);
}

/**
 * triage_history_view_export_async:
 * @self: a #TriageHistoryView
 * @selected_only: export the selected entries, else every entry shown
 * @format: JSON Lines or CSV
 * @file: the file to write (replaced once complete)
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the file is written
 * @user_data: data for @callback
 *
 * Exports on a thread of its own; the window stays responsive for any size.
 */
void
triage_history_view_export_async (TriageHistoryView   *self,
                                  gboolean             selected_only,
                                  TriageHistoryFormat  format,
                                  GFile               *file,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GArray) rowids = NULL;
  g_autoptr(GtkBitset) bits = NULL;
  ExportResult *data;

  g_return_if_fail (TRIAGE_IS_HISTORY_VIEW (self));
  g_return_if_fail (G_IS_FILE (file));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, triage_history_view_export_async);
  data = g_new0 (ExportResult, 1);
  data->name = g_file_get_parse_name (file);
  g_task_set_task_data (task, data, (GDestroyNotify) export_result_free);

  if (self->model == NULL || self->db == NULL)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED,
                               "%s", _("The history is not open"));
      return;
    }

  if (selected_only)
    bits = gtk_selection_model_get_selection (GTK_SELECTION_MODEL (self->model));
  rowids = triage_history_model_dup_rowids (self->model, bits);

  self->exports_running++;
  triage_history_view_update_export_actions (self);
  triage_history_export_async (triage_history_db_get_path (self->db), rowids, format, file,
                               cancellable, export_done_cb, g_steal_pointer (&task));
}

/**
 * triage_history_view_export_finish:
 * @self: a #TriageHistoryView
 * @result: the result
 * @n_written: (out) (optional): how many entries were written
 * @error: where to put an error
 *
 * Returns: %TRUE if the file is complete
 */
gboolean
triage_history_view_export_finish (TriageHistoryView  *self,
                                   GAsyncResult       *result,
                                   guint              *n_written,
                                   GError            **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return triage_history_export_task_finish (result, n_written, error);
}

static void
export_toast_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  TriageHistoryView *self = TRIAGE_HISTORY_VIEW (object);
  ExportResult *data = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_autofree char *escaped = NULL;
  guint n = 0;

  if (triage_history_view_export_finish (self, result, &n, &error))
    /* Translators: %u is a number of requests, %s a file name */
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Exported %u request to “%s”",
                                         "Exported %u requests to “%s”", n), n, data->name);
  else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  else
    /* Translators: %s says why */
    text = g_strdup_printf (_("Could not export the history: %s"), error->message);

  escaped = g_markup_escape_text (text, -1);
  adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (escaped));
}

static void
on_chooser_response (TriageHistoryView *self,
                     int                response,
                     GtkNativeDialog   *chooser)
{
  gboolean selected_only = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (chooser), "selected-only"));
  TriageHistoryFormat format = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (chooser), "format"));
  g_autoptr(GFile) file = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));

  gtk_native_dialog_destroy (chooser);
  g_clear_object (&self->chooser);

  if (file != NULL)
    triage_history_view_export_async (self, selected_only, format, file, self->cancellable,
                                      export_toast_cb, NULL);
}

static void
choose_export_file (TriageHistoryView *self,
                    gboolean           selected_only,
                    GVariant          *parameter)
{
  TriageHistoryFormat format = g_str_equal (g_variant_get_string (parameter, NULL), "csv")
    ? TRIAGE_HISTORY_FORMAT_CSV : TRIAGE_HISTORY_FORMAT_JSON_LINES;
  g_autoptr(GtkFileFilter) file_filter = gtk_file_filter_new ();
  g_autofree char *name = NULL;
  g_autofree char *pattern = NULL;
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));

  if (self->chooser != NULL)
    return;

  self->chooser = gtk_file_chooser_native_new (selected_only ? _("Export Selected Requests")
                                                             : _("Export the History"),
                                               GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                               GTK_FILE_CHOOSER_ACTION_SAVE,
                                               _("_Export"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->chooser), TRUE);

  name = g_strdup_printf ("triage-history.%s", triage_history_format_extension (format));
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (self->chooser), name);

  pattern = g_strdup_printf ("*.%s", triage_history_format_extension (format));
  gtk_file_filter_add_pattern (file_filter, pattern);
  gtk_file_filter_set_name (file_filter, format == TRIAGE_HISTORY_FORMAT_CSV
                                         ? _("CSV (comma-separated values)")
                                         : _("JSON Lines"));
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (self->chooser), file_filter);

  g_object_set_data (G_OBJECT (self->chooser), "selected-only", GINT_TO_POINTER (selected_only));
  g_object_set_data (G_OBJECT (self->chooser), "format", GINT_TO_POINTER (format));
  g_signal_connect_object (self->chooser, "response",
                           G_CALLBACK (on_chooser_response), self, G_CONNECT_SWAPPED);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

static void
export_selected_action (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *parameter)
{
  choose_export_file (TRIAGE_HISTORY_VIEW (widget), TRUE, parameter);
}

static void
export_all_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  choose_export_file (TRIAGE_HISTORY_VIEW (widget), FALSE, parameter);
}


void
triage_history_view_class_init_export (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "history.export-selected", "s", export_selected_action);
  gtk_widget_class_install_action (widget_class, "history.export-all", "s", export_all_action);
}
