/* triage-inbox-row.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-inbox"

#include <glib/gi18n.h>

#include "triage-inbox-row.h"

/*
 * One row of the inbox: a dot and a bold title while unread, the subtitle
 * (service, project, deadline or where our answer stands) below. Light on
 * purpose: two GtkInscriptions, bound to the request's properties while the
 * row shows it; the list recycles rows as it scrolls.
 */

struct _TriageInboxRow
{
  GtkWidget       parent_instance;

  TriageRequest  *request;
  GBindingGroup  *bindings;
  gboolean        unread;

  /* template */
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

static void
update_accessible (TriageInboxRow *self)
{
  const char *title = gtk_inscription_get_text (self->title_label);

  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, title ? title : "",
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  self->unread ? _("Unread") : "",
                                  -1);
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

  if (!g_set_object (&self->request, request))
    return;

  g_binding_group_set_source (self->bindings, request);
  update_accessible (self);
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
  gtk_widget_set_has_tooltip (self->dot, unread);
  update_accessible (self);
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

static void
on_title_changed (TriageInboxRow *self)
{
  update_accessible (self);
}

static void
triage_inbox_row_dispose (GObject *object)
{
  TriageInboxRow *self = (TriageInboxRow *)object;
  GtkWidget *child;

  if (self->bindings != NULL)
    g_binding_group_set_source (self->bindings, NULL);
  g_clear_object (&self->request);

  gtk_widget_dispose_template (GTK_WIDGET (self), TRIAGE_TYPE_INBOX_ROW);
  /* Children the template did not name are ours to drop too. */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);

  G_OBJECT_CLASS (triage_inbox_row_parent_class)->dispose (object);
}

static void
triage_inbox_row_finalize (GObject *object)
{
  TriageInboxRow *self = (TriageInboxRow *)object;

  g_clear_object (&self->bindings);

  G_OBJECT_CLASS (triage_inbox_row_parent_class)->finalize (object);
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
  object_class->finalize = triage_inbox_row_finalize;
  object_class->get_property = triage_inbox_row_get_property;
  object_class->set_property = triage_inbox_row_set_property;

  properties [PROP_REQUEST] =
    g_param_spec_object ("request", NULL, NULL, TRIAGE_TYPE_REQUEST,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties [PROP_UNREAD] =
    g_param_spec_boolean ("unread", NULL, NULL, FALSE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               RESOURCE_BASE "/browse/triage-inbox-row.ui");
  gtk_widget_class_bind_template_child (widget_class, TriageInboxRow, dot);
  gtk_widget_class_bind_template_child (widget_class, TriageInboxRow, title_label);
  gtk_widget_class_bind_template_child (widget_class, TriageInboxRow, subtitle_label);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "inboxrow");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
triage_inbox_row_init (TriageInboxRow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  gtk_box_layout_set_spacing (GTK_BOX_LAYOUT (gtk_widget_get_layout_manager (GTK_WIDGET (self))), 8);
  gtk_widget_set_has_tooltip (self->dot, FALSE);

  self->bindings = g_binding_group_new ();
  g_binding_group_bind (self->bindings, "title", self->title_label, "text", G_BINDING_SYNC_CREATE);
  g_binding_group_bind (self->bindings, "subtitle", self->subtitle_label, "text", G_BINDING_SYNC_CREATE);
  g_signal_connect_object (self->title_label, "notify::text",
                           G_CALLBACK (on_title_changed), self, G_CONNECT_SWAPPED);
}

GtkWidget *
triage_inbox_row_new (void)
{
  return g_object_new (TRIAGE_TYPE_INBOX_ROW, NULL);
}
