/* triage-inbox-row.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-inbox"

#include <glib/gi18n.h>

#include "triage-browse-style.h"
#include "triage-decision-format.h"
#include "triage-inbox-row.h"

/*
 * One row of the inbox: a dot and a bold title while unread, the subtitle
 * (service, project, deadline or where our answer stands) below. Light on
 * purpose: two GtkInscriptions, updated when the request it shows notifies. Built in code rather than from a template: GTK 4.8 makes a
 * new row for every request that comes into view (a search can bring forty
 * at once), and instantiating a template costs more than these few lines.
 */

struct _TriageInboxRow
{
  GtkWidget       parent_instance;

  TriageRequest  *request;
  gulong          notify_id;
  gboolean        unread;
  GDateTime      *server_wait;   /* the end of the server's wait, or NULL */

  /* children */
  GtkWidget      *dot;
  GtkInscription *title_label;
  GtkInscription *subtitle_label;
};

G_DEFINE_FINAL_TYPE (TriageInboxRow, triage_inbox_row, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_REQUEST,
  PROP_UNREAD,
  N_PROPS
};

static GParamSpec *properties [N_PROPS];

/* The list's item, which takes the focus, says what the row says: its
 * title, then whether it is unread and the subtitle. */
static void
name_item (TriageInboxRow *self)
{
  const char *title, *subtitle;
  g_autofree char *description = NULL;

  if (self->title_label == NULL)   /* disposed */
    return;

  title = gtk_inscription_get_text (self->title_label);
  subtitle = gtk_inscription_get_text (self->subtitle_label);
  if (self->unread)
    /* Translators: a request in the inbox, to a screen reader: unread, then
     * its service, project and deadline */
    description = g_strdup_printf (_("Unread, %s"), subtitle ? subtitle : "");
  triage_browse_name_list_item (GTK_WIDGET (self), title, description ? description : subtitle);
}

static void
update_texts (TriageInboxRow *self)
{
  g_autofree char *subtitle = NULL;
  g_autofree char *title = NULL;

  /* One line each: what an agent sent is cut to what a row can show. */
  if (self->request != NULL)
    {
      g_autofree char *full = triage_request_dup_subtitle_waiting (self->request, self->server_wait);

      title = triage_format_cut_text (triage_request_get_title (self->request),
                                      TRIAGE_SHOWN_ROW_CHARS);
      subtitle = triage_format_cut_text (full, TRIAGE_SHOWN_ROW_CHARS);
    }

  gtk_inscription_set_text (self->title_label, title);
  {
    g_autofree char *directed = triage_browse_dup_in_direction_of (subtitle, title);

    gtk_inscription_set_text (self->subtitle_label, directed);
  }
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, title ? title : "",
                                  -1);
  name_item (self);
}

static void
on_request_notify (TriageInboxRow *self,
                   GParamSpec     *pspec)
{
  /* A resync may bring a new title; our answer's state shows in the subtitle. */
  if (g_str_equal (pspec->name, "title") || g_str_equal (pspec->name, "subtitle"))
    update_texts (self);
}

TriageRequest *
triage_inbox_row_get_request (TriageInboxRow *self)
{
  g_return_val_if_fail (TRIAGE_IS_INBOX_ROW (self), NULL);

  return self->request;
}

/**
 * triage_inbox_row_set_request:
 * @self: a #TriageInboxRow
 * @request: (nullable): the request to show
 */
void
triage_inbox_row_set_request (TriageInboxRow *self,
                              TriageRequest  *request)
{
  g_return_if_fail (TRIAGE_IS_INBOX_ROW (self));
  g_return_if_fail (request == NULL || TRIAGE_IS_REQUEST (request));

  if (self->request == request)
    return;

  if (self->request != NULL)
    g_clear_signal_handler (&self->notify_id, self->request);
  g_set_object (&self->request, request);
  if (request != NULL)
    self->notify_id = g_signal_connect_object (request, "notify",
                                               G_CALLBACK (on_request_notify), self,
                                               G_CONNECT_SWAPPED);

  update_texts (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_REQUEST]);
}

gboolean
triage_inbox_row_get_unread (TriageInboxRow *self)
{
  g_return_val_if_fail (TRIAGE_IS_INBOX_ROW (self), FALSE);

  return self->unread;
}

void
triage_inbox_row_set_unread (TriageInboxRow *self,
                             gboolean        unread)
{
  g_return_if_fail (TRIAGE_IS_INBOX_ROW (self));

  unread = !!unread;
  if (self->unread == unread)
    return;

  self->unread = unread;
  if (unread)
    gtk_widget_add_css_class (GTK_WIDGET (self), "unread");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self), "unread");
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, unread ? _("Unread") : "",
                                  -1);
  name_item (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_UNREAD]);
}

/**
 * triage_inbox_row_get_title:
 *
 * Returns: (nullable): the title shown
 */
const char *
triage_inbox_row_get_title (TriageInboxRow *self)
{
  g_return_val_if_fail (TRIAGE_IS_INBOX_ROW (self), NULL);

  return gtk_inscription_get_text (self->title_label);
}

/**
 * triage_inbox_row_get_subtitle:
 *
 * Returns: (nullable): the line shown under the title
 */
const char *
triage_inbox_row_get_subtitle (TriageInboxRow *self)
{
  g_return_val_if_fail (TRIAGE_IS_INBOX_ROW (self), NULL);

  return gtk_inscription_get_text (self->subtitle_label);
}

/**
 * triage_inbox_row_set_server_wait:
 * @self: a #TriageInboxRow
 * @until: (nullable): the end of the wait the server asked for (a 429's or
 *   503's Retry-After), or %NULL
 *
 * An answer waiting to be sent says when it goes.
 */
void
triage_inbox_row_set_server_wait (TriageInboxRow *self,
                                  GDateTime      *until)
{
  g_return_if_fail (TRIAGE_IS_INBOX_ROW (self));

  if (self->server_wait == until)
    return;

  g_clear_pointer (&self->server_wait, g_date_time_unref);
  self->server_wait = until ? g_date_time_ref (until) : NULL;
  update_texts (self);
}

/**
 * triage_inbox_row_update:
 *
 * Shows the request's texts again: a deadline "due tomorrow" is due today
 * once the day changed.
 */
void
triage_inbox_row_update (TriageInboxRow *self)
{
  g_return_if_fail (TRIAGE_IS_INBOX_ROW (self));

  update_texts (self);
}

static void
triage_inbox_row_dispose (GObject *object)
{
  TriageInboxRow *self = (TriageInboxRow *)object;
  GtkWidget *child;

  if (self->request != NULL)
    g_clear_signal_handler (&self->notify_id, self->request);
  g_clear_object (&self->request);
  g_clear_pointer (&self->server_wait, g_date_time_unref);

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  self->dot = NULL;
  self->title_label = NULL;
  self->subtitle_label = NULL;

  G_OBJECT_CLASS (triage_inbox_row_parent_class)->dispose (object);
}

static void
triage_inbox_row_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  TriageInboxRow *self = TRIAGE_INBOX_ROW (object);

  switch (prop_id)
    {
    case PROP_REQUEST:
      g_value_set_object (value, self->request);
      break;

    case PROP_UNREAD:
      g_value_set_boolean (value, self->unread);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
triage_inbox_row_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  TriageInboxRow *self = TRIAGE_INBOX_ROW (object);

  switch (prop_id)
    {
    case PROP_REQUEST:
      triage_inbox_row_set_request (self, g_value_get_object (value));
      break;

    case PROP_UNREAD:
      triage_inbox_row_set_unread (self, g_value_get_boolean (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
triage_inbox_row_class_init (TriageInboxRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = triage_inbox_row_dispose;
  object_class->get_property = triage_inbox_row_get_property;
  object_class->set_property = triage_inbox_row_set_property;

  properties [PROP_REQUEST] =
    g_param_spec_object ("request", NULL, NULL, TRIAGE_TYPE_REQUEST,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties [PROP_UNREAD] =
    g_param_spec_boolean ("unread", NULL, NULL, FALSE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "inboxrow");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
triage_inbox_row_init (TriageInboxRow *self)
{
  GtkWidget *text;

  gtk_box_layout_set_spacing (GTK_BOX_LAYOUT (gtk_widget_get_layout_manager (GTK_WIDGET (self))), 8);

  self->dot = g_object_new (GTK_TYPE_BOX,
                            "valign", GTK_ALIGN_CENTER,
                            "css-classes", (const char *[]) { "unread-dot", NULL },
                            NULL);
  gtk_widget_set_parent (self->dot, GTK_WIDGET (self));

  text = g_object_new (GTK_TYPE_BOX,
                       "orientation", GTK_ORIENTATION_VERTICAL,
                       "spacing", 2,
                       "hexpand", TRUE,
                       NULL);
  gtk_widget_set_parent (text, GTK_WIDGET (self));

  self->title_label = g_object_new (GTK_TYPE_INSCRIPTION,
                                    "text-overflow", GTK_INSCRIPTION_OVERFLOW_ELLIPSIZE_END,
                                    "nat-chars", 30,
                                    "xalign", 0.0f,
                                    "css-classes", (const char *[]) { "inbox-row-title", NULL },
                                    NULL);
  gtk_box_append (GTK_BOX (text), GTK_WIDGET (self->title_label));

  self->subtitle_label = g_object_new (GTK_TYPE_INSCRIPTION,
                                       "text-overflow", GTK_INSCRIPTION_OVERFLOW_ELLIPSIZE_END,
                                       "nat-chars", 30,
                                       "xalign", 0.0f,
                                       "css-classes", (const char *[]) { "caption", "dim-label", NULL },
                                       NULL);
  gtk_box_append (GTK_BOX (text), GTK_WIDGET (self->subtitle_label));

  /* A row is made before the list's item takes it. */
  g_signal_connect (self, "notify::parent", G_CALLBACK (name_item), NULL);
}

GtkWidget *
triage_inbox_row_new (void)
{
  return g_object_new (TRIAGE_TYPE_INBOX_ROW, NULL);
}
