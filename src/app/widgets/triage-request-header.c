/* triage-request-header.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-request-header"

#include <glib/gi18n.h>

#include "triage-countdown-chip.h"
#include "triage-decision-format.h"
#include "triage-protocol.h"
#include "triage-request-header.h"
#include "triage-widgets-style.h"
#include "triage-wrap-box.h"

/*
 * The top of a request view, whatever the protocol: who asks (the service's
 * name and id, and the mark of the protocol it asked in, "AITP"), what (the
 * title, the description), in which project, when it was sent and by when
 * it is due, as a countdown that turns critical under five minutes.
 * Everything is the envelope's, untrusted: plain labels, never markup.
 *
 * ::deadline-passed says when the countdown reaches zero (the view turns
 * read-only); set_counting (FALSE) hides it once the deadline no longer
 * matters (settled, or answered and recorded).
 */

struct _TriageRequestHeader
{
  GtkWidget        parent_instance;

  AtpNotification *request;
  gboolean         counting;
  gboolean         expired;
  guint            countdown_id;
  char            *spoken_countdown;   /* the countdown's accessible name */

  /* template */
  GtkWidget       *box;
  AdwAvatar       *service_avatar;
  GtkLabel        *service_label;
  GtkLabel        *mark_label;
  GtkLabel        *service_id_label;
  GtkWidget       *heading;
  GtkLabel        *title_label;
  GtkWidget       *project_chip;
  GtkLabel        *project_label;
  GtkWidget       *countdown_box;
  GtkLabel        *countdown_label;
  GtkLabel        *received_label;
  GtkLabel        *description_label;
};

G_DEFINE_FINAL_TYPE (TriageRequestHeader, triage_request_header, GTK_TYPE_WIDGET)

enum {
  DEADLINE_PASSED,
  N_SIGNALS
};

static guint signals [N_SIGNALS];

static void update_countdown (TriageRequestHeader *self);

static void
countdown_cb (gpointer data)
{
  TriageRequestHeader *self = data;

  self->countdown_id = 0;
  update_countdown (self);
}

static void
update_countdown (TriageRequestHeader *self)
{
  GTimeSpan remaining;

  g_clear_handle_id (&self->countdown_id, g_source_remove);

  if (self->request == NULL || self->request->deadline == NULL || !self->counting)
    {
      gtk_widget_set_visible (self->countdown_box, FALSE);
      return;
    }

  remaining = triage_countdown_chip_update (self->countdown_box, self->countdown_label,
                                            &self->spoken_countdown, self->request->deadline);
  if (remaining <= 0)
    {
      if (!self->expired)
        {
          self->expired = TRUE;
          g_signal_emit (self, signals [DEADLINE_PASSED], 0);
        }
      return;
    }

  /* Wake up when the shown second changes (the text rounds up). */
  self->countdown_id = g_timeout_add_once ((((remaining - 1) % G_TIME_SPAN_SECOND) + 1) / 1000 + 1,
                                           countdown_cb, self);
}

static void
triage_request_header_dispose (GObject *object)
{
  TriageRequestHeader *self = (TriageRequestHeader *)object;

  g_clear_handle_id (&self->countdown_id, g_source_remove);
  gtk_widget_dispose_template (GTK_WIDGET (self), TRIAGE_TYPE_REQUEST_HEADER);

  G_OBJECT_CLASS (triage_request_header_parent_class)->dispose (object);
}

static void
triage_request_header_finalize (GObject *object)
{
  TriageRequestHeader *self = (TriageRequestHeader *)object;

  g_clear_pointer (&self->request, atp_notification_unref);
  g_free (self->spoken_countdown);

  G_OBJECT_CLASS (triage_request_header_parent_class)->finalize (object);
}

static void
triage_request_header_class_init (TriageRequestHeaderClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = triage_request_header_dispose;
  object_class->finalize = triage_request_header_finalize;

  /**
   * TriageRequestHeader::deadline-passed:
   *
   * The countdown reached zero on this computer's clock.
   */
  signals [DEADLINE_PASSED] =
    g_signal_new ("deadline-passed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  g_type_ensure (TRIAGE_TYPE_WRAP_BOX);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               RESOURCE_BASE "/widgets/triage-request-header.ui");
  gtk_widget_class_bind_template_child (widget_class, TriageRequestHeader, box);
  gtk_widget_class_bind_template_child (widget_class, TriageRequestHeader, service_avatar);
  gtk_widget_class_bind_template_child (widget_class, TriageRequestHeader, service_label);
  gtk_widget_class_bind_template_child (widget_class, TriageRequestHeader, mark_label);
  gtk_widget_class_bind_template_child (widget_class, TriageRequestHeader, service_id_label);
  gtk_widget_class_bind_template_child (widget_class, TriageRequestHeader, heading);
  gtk_widget_class_bind_template_child (widget_class, TriageRequestHeader, title_label);
  gtk_widget_class_bind_template_child (widget_class, TriageRequestHeader, project_chip);
  gtk_widget_class_bind_template_child (widget_class, TriageRequestHeader, project_label);
  gtk_widget_class_bind_template_child (widget_class, TriageRequestHeader, countdown_box);
  gtk_widget_class_bind_template_child (widget_class, TriageRequestHeader, countdown_label);
  gtk_widget_class_bind_template_child (widget_class, TriageRequestHeader, received_label);
  gtk_widget_class_bind_template_child (widget_class, TriageRequestHeader, description_label);
}

static void
triage_request_header_init (TriageRequestHeader *self)
{
  triage_widgets_style_init ();
  gtk_widget_init_template (GTK_WIDGET (self));
  self->counting = TRUE;
}

GtkWidget *
triage_request_header_new (void)
{
  return g_object_new (TRIAGE_TYPE_REQUEST_HEADER, NULL);
}

/**
 * triage_request_header_set_request:
 * @self: a #TriageRequestHeader
 * @request: (nullable): the request shown
 *
 * The same request again (a resync) keeps whether its deadline has passed.
 */
void
triage_request_header_set_request (TriageRequestHeader *self,
                                   AtpNotification     *request)
{
  g_autofree char *received = NULL;
  g_autofree char *sent_at = NULL;
  TriageProtocol *protocol;
  const char *mark;
  const char *description;
  g_autofree char *service = NULL;
  g_autofree char *service_id = NULL;
  g_autofree char *shown_service = NULL;
  g_autofree char *title = NULL;
  g_autofree char *shown_description = NULL;
  g_autofree char *project = NULL;

  g_return_if_fail (TRIAGE_IS_REQUEST_HEADER (self));

  if (request == NULL || self->request == NULL || !g_str_equal (request->id, self->request->id))
    self->expired = FALSE;
  if (request != self->request)
    {
      g_clear_pointer (&self->request, atp_notification_unref);
      self->request = request ? atp_notification_ref (request) : NULL;
    }

  if (request == NULL)
    {
      update_countdown (self);
      return;
    }

  service = triage_format_cut_text (request->service.name, TRIAGE_SHOWN_NAME_CHARS);
  /* Labels that wrap: places to break a long word, as the title has. */
  shown_service = triage_format_shown_text (request->service.name, TRIAGE_SHOWN_NAME_CHARS);
  service_id = triage_format_shown_text (request->service.id ? request->service.id : "",
                                         TRIAGE_SHOWN_NAME_CHARS);
  adw_avatar_set_text (self->service_avatar, service);
  gtk_label_set_label (self->service_label, shown_service);
  gtk_label_set_label (self->service_id_label, service_id);
  gtk_widget_set_visible (GTK_WIDGET (self->service_id_label), request->service.id != NULL);

  /* The protocol it was asked in, as a word (the inbox and the bubble say it too). */
  protocol = triage_protocol_for_request (request);
  mark = protocol ? triage_protocol_get_mark (protocol) : atp_protocol_to_string (request->protocol);
  gtk_label_set_label (self->mark_label, mark ? mark : "");
  gtk_widget_set_visible (GTK_WIDGET (self->mark_label), mark != NULL);
  if (protocol != NULL)
    {
      /* Translators: the protocol a request was asked in, e.g. "Asked in AITP-02 Decisions" */
      g_autofree char *tooltip = g_strdup_printf (_("Asked in %s"), triage_protocol_get_display_name (protocol));

      gtk_widget_set_tooltip_text (GTK_WIDGET (self->mark_label), tooltip);
      gtk_accessible_update_property (GTK_ACCESSIBLE (self->mark_label),
                                      GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, tooltip, -1);
    }

  title = triage_format_shown_text (request->context.title, TRIAGE_SHOWN_TITLE_CHARS);
  gtk_label_set_label (self->title_label, title);
  description = triage_format_get_description (request);
  shown_description = triage_format_shown_text (description ? description : "",
                                              TRIAGE_SHOWN_DESCRIPTION_CHARS);
  gtk_label_set_label (self->description_label, shown_description);
  gtk_widget_set_visible (GTK_WIDGET (self->description_label), description != NULL);

  project = triage_format_cut_text (request->context.project ? request->context.project : "",
                                    TRIAGE_SHOWN_NAME_CHARS);
  gtk_label_set_label (self->project_label, project);
  gtk_widget_set_visible (self->project_chip, request->context.project != NULL);

  received = triage_format_time (request->timestamp, NULL);
  /* Translators: when the service sent the request; %s is a time */
  sent_at = g_strdup_printf (_("Sent %s"), received);
  gtk_label_set_label (self->received_label, sent_at);

  update_countdown (self);
}

/**
 * triage_request_header_set_counting:
 * @self: a #TriageRequestHeader
 * @counting: whether the deadline still matters (a pending request not
 *   answered and recorded yet)
 */
void
triage_request_header_set_counting (TriageRequestHeader *self,
                                    gboolean             counting)
{
  g_return_if_fail (TRIAGE_IS_REQUEST_HEADER (self));

  self->counting = !!counting;
  update_countdown (self);
}

/**
 * triage_request_header_get_expired:
 *
 * Returns: whether the deadline has passed on this computer's clock
 */
gboolean
triage_request_header_get_expired (TriageRequestHeader *self)
{
  g_return_val_if_fail (TRIAGE_IS_REQUEST_HEADER (self), FALSE);

  return self->expired;
}

/**
 * triage_request_header_get_countdown:
 *
 * Returns: (nullable): the countdown's text, %NULL when none is shown
 */
const char *
triage_request_header_get_countdown (TriageRequestHeader *self)
{
  g_return_val_if_fail (TRIAGE_IS_REQUEST_HEADER (self), NULL);

  if (!gtk_widget_get_visible (self->countdown_box))
    return NULL;

  return gtk_label_get_label (self->countdown_label);
}

/**
 * triage_request_header_take_focus:
 * @self: a #TriageRequestHeader
 *
 * Puts the keyboard on the request's heading (its title, which a screen
 * reader reads), the place a request opens at.
 *
 * Returns: %TRUE if the heading took the focus
 */
gboolean
triage_request_header_take_focus (TriageRequestHeader *self)
{
  g_return_val_if_fail (TRIAGE_IS_REQUEST_HEADER (self), FALSE);

  return gtk_widget_grab_focus (self->heading);
}
