/* triage-history-row.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-history"

#include <glib/gi18n.h>

#include "triage-browse-style.h"
#include "triage-decision-format.h"
#include "triage-history-row.h"

/*
 * One entry of the history: its title on the first line; when it arrived,
 * service, project, what became of it, the answer, who gave it and how long
 * it took on the second. Two GtkInscriptions built in code: GTK 4.8 makes a
 * new row for every entry that comes into view after a search (it keeps up
 * to 200 rows around the scroll position), so a row must be cheap to make;
 * a column view (eight cells, sixteen widgets a row) took three times as
 * long.
 */

struct _TriageHistoryRow
{
  GtkWidget           parent_instance;

  TriageHistoryEntry *entry;

  GtkInscription     *title_label;
  GtkInscription     *details_label;
};

G_DEFINE_FINAL_TYPE (TriageHistoryRow, triage_history_row, GTK_TYPE_WIDGET)

static GtkInscription *
new_inscription (GtkWidget   *parent,
                 const char **classes)
{
  GtkInscription *label = g_object_new (GTK_TYPE_INSCRIPTION,
                                        "text-overflow", GTK_INSCRIPTION_OVERFLOW_ELLIPSIZE_END,
                                        "nat-chars", 60,
                                        "xalign", 0.0f,
                                        "hexpand", TRUE,
                                        "css-classes", classes,
                                        NULL);

  gtk_widget_set_parent (GTK_WIDGET (label), parent);

  return label;
}

static char *
format_details (TriageHistoryEntry *entry)
{
  const TriageHistoryEntryData *data = triage_history_entry_get_data (entry);
  g_autofree char *outcome = triage_history_entry_dup_outcome_label (entry);
  g_autofree char *answer = triage_history_entry_dup_answer_text (entry);
  g_autofree char *who = triage_history_entry_dup_responder_text (entry);
  g_autofree char *took = triage_history_format_duration (triage_history_entry_get_response_time (entry));
  g_autofree char *service = triage_history_entry_dup_service_text (entry);
  g_autofree char *time = NULL;
  GString *text;
  const char *parts[] = { service, data->project, outcome, answer, who, took };

  if (data->created_at != 0)
    {
      g_autoptr(GDateTime) local = g_date_time_new_from_unix_local (data->created_at / G_USEC_PER_SEC);

      /* Translators: when a request arrived, strftime format */
      time = g_date_time_format (local, _("%Y-%m-%d %H:%M"));
    }
  text = g_string_new (time);

  for (guint i = 0; i < G_N_ELEMENTS (parts); i++)
    if (parts[i] != NULL && parts[i][0] != '\0')
      {
        if (text->len > 0)
          g_string_append (text, " · ");
        if (i == G_N_ELEMENTS (parts) - 1)
          /* Translators: in the history, how long the answer took, e.g. "in 3 min" */
          g_string_append_printf (text, _("in %s"), parts[i]);
        else
          g_string_append (text, parts[i]);
      }

  return g_string_free (text, FALSE);
}

/* The grid's item, which takes the focus, says what the row says. */
static void
name_item (TriageHistoryRow *self)
{
  if (self->title_label == NULL)   /* disposed */
    return;

  triage_browse_name_list_item (GTK_WIDGET (self),
                                gtk_inscription_get_text (self->title_label),
                                gtk_inscription_get_text (self->details_label));
}

TriageHistoryEntry *
triage_history_row_get_entry (TriageHistoryRow *self)
{
  g_return_val_if_fail (TRIAGE_IS_HISTORY_ROW (self), NULL);

  return self->entry;
}

/**
 * triage_history_row_set_entry:
 * @self: a #TriageHistoryRow
 * @entry: (nullable): the entry to show
 */
void
triage_history_row_set_entry (TriageHistoryRow   *self,
                              TriageHistoryEntry *entry)
{
  g_autofree char *details = NULL;
  g_autofree char *title = NULL;
  const TriageHistoryEntryData *data;

  g_return_if_fail (TRIAGE_IS_HISTORY_ROW (self));
  g_return_if_fail (entry == NULL || TRIAGE_IS_HISTORY_ENTRY (entry));

  if (!g_set_object (&self->entry, entry))
    return;

  if (entry == NULL)
    {
      gtk_inscription_set_text (self->title_label, NULL);
      gtk_inscription_set_text (self->details_label, NULL);
      name_item (self);
      return;
    }

  data = triage_history_entry_get_data (entry);
  /* One line each: what an agent sent is cut to what a row can show. */
  if (data->id != NULL)
    {
      g_autofree char *full = format_details (entry);

      details = triage_format_cut_text (full, TRIAGE_SHOWN_ROW_CHARS);
    }
  title = triage_format_cut_text (data->title ? data->title : "", TRIAGE_SHOWN_ROW_CHARS);

  gtk_inscription_set_text (self->title_label, title);
  {
    g_autofree char *directed = triage_browse_dup_in_direction_of (details, title);

    gtk_inscription_set_text (self->details_label, directed);
  }
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, title,
                                  -1);
  name_item (self);
}

const char *
triage_history_row_get_title (TriageHistoryRow *self)
{
  g_return_val_if_fail (TRIAGE_IS_HISTORY_ROW (self), NULL);

  return gtk_inscription_get_text (self->title_label);
}

const char *
triage_history_row_get_details (TriageHistoryRow *self)
{
  g_return_val_if_fail (TRIAGE_IS_HISTORY_ROW (self), NULL);

  return gtk_inscription_get_text (self->details_label);
}

static void
triage_history_row_dispose (GObject *object)
{
  TriageHistoryRow *self = (TriageHistoryRow *)object;
  GtkWidget *child;

  g_clear_object (&self->entry);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  self->title_label = NULL;
  self->details_label = NULL;

  G_OBJECT_CLASS (triage_history_row_parent_class)->dispose (object);
}

static void
triage_history_row_class_init (TriageHistoryRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = triage_history_row_dispose;

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "historyrow");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
triage_history_row_init (TriageHistoryRow *self)
{
  GtkLayoutManager *layout = gtk_widget_get_layout_manager (GTK_WIDGET (self));

  gtk_orientable_set_orientation (GTK_ORIENTABLE (layout), GTK_ORIENTATION_VERTICAL);
  gtk_box_layout_set_spacing (GTK_BOX_LAYOUT (layout), 2);

  self->title_label = new_inscription (GTK_WIDGET (self),
                                       (const char *[]) { "history-row-title", NULL });
  self->details_label = new_inscription (GTK_WIDGET (self),
                                         (const char *[]) { "caption", "dim-label", NULL });

  /* A row is made before the grid's item takes it. */
  g_signal_connect (self, "notify::parent", G_CALLBACK (name_item), NULL);
}

GtkWidget *
triage_history_row_new (void)
{
  return g_object_new (TRIAGE_TYPE_HISTORY_ROW, NULL);
}
