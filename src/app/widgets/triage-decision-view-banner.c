/* triage-decision-view-banner.c — what became of the request, or of the answer given here
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-decision-view"

#include <glib/gi18n.h>

#include "triage-atp-format.h"
#include "triage-atp-protocol.h"
#include "triage-decision-format.h"
#include "triage-decision-outcome.h"
#include "triage-decision-view-private.h"

/*
 * The banner above the request. A settled status (answered elsewhere,
 * expired, withdrawn) says what happened, when and why; an answer given here
 * says where it stands (sending, queued, sent, refused); a deadline passed on
 * the local clock and an answer that could not leave say so too. The banner
 * is a status region: a screen reader reads its title.
 */

/* "You answered ‘Rollout’: 25 %" for the answer given here, or NULL. */
static char *
describe_sent_answer (TriageDecisionView *self)
{
  const AtpAction *action = NULL;
  g_autofree char *answer = NULL;

  if (self->notification != NULL && self->state.sent_action_id != NULL)
    action = atp_notification_find_action (self->notification, self->state.sent_action_id);
  if (action == NULL)
    return NULL;

  answer = triage_atp_describe_answer (action, self->state.sent_response);
  /* Translators: %s is the answer given here, e.g. ‘Stop’ or ‘Rollout’: 25 % */
  return g_strdup_printf (_("You answered %s"), answer);
}

static void
join_line (GString    *str,
           const char *line)
{
  if (line == NULL || *line == '\0')
    return;
  if (str->len > 0)
    g_string_append_c (str, '\n');
  g_string_append (str, line);
}

static const char * const banner_styles[] = {
  "banner-neutral", "banner-accent", "banner-success", "banner-warning", "banner-error",
};

static void
show_banner (TriageDecisionView *self,
             const char         *style,
             const char         *icon_name,
             const char         *title,
             const char         *detail)
{
  for (guint i = 0; i < G_N_ELEMENTS (banner_styles); i++)
    gtk_widget_remove_css_class (self->banner, banner_styles[i]);
  gtk_widget_add_css_class (self->banner, style);

  gtk_widget_set_visible (GTK_WIDGET (self->banner_icon), icon_name != NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->banner_spinner), icon_name == NULL);
  gtk_spinner_set_spinning (self->banner_spinner, icon_name == NULL);
  if (icon_name != NULL)
    gtk_image_set_from_icon_name (self->banner_icon, icon_name);

  gtk_label_set_label (self->banner_title, title);
  gtk_label_set_label (self->banner_detail, detail ? detail : "");
  gtk_widget_set_visible (GTK_WIDGET (self->banner_detail), detail != NULL && *detail != '\0');
  /* A status region: a screen reader reads the outcome, then the rest. */
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->banner),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, title,
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, detail ? detail : "",
                                  -1);

  gtk_revealer_set_reveal_child (self->banner_revealer, TRUE);
}

static void
hide_banner (TriageDecisionView *self)
{
  gtk_spinner_set_spinning (self->banner_spinner, FALSE);
  gtk_revealer_set_reveal_child (self->banner_revealer, FALSE);
}

static char *
format_when (GDateTime *when)
{
  return when ? triage_format_time (when, NULL) : NULL;
}

static void
show_status_banner (TriageDecisionView *self)
{
  g_autofree char *title = NULL;
  g_autoptr(GString) detail = g_string_new (NULL);
  const char *icon_name;

  switch (self->state.status)
    {
    case ATP_STATUS_RESPONDED:
      icon_name = "object-select-symbolic";
      break;
    case ATP_STATUS_EXPIRED:
      icon_name = "alarm-symbolic";
      break;
    case ATP_STATUS_INVALIDATED:
    default:
      icon_name = "action-unavailable-symbolic";
      break;
    }

  /* The answer that settled it is known once the app has it (a status
   * update does not carry it); until then, when and that it happened. */
  title = triage_describe_settled (self->notification, self->state.status, self->state.status_when,
                                   self->state.status == ATP_STATUS_RESPONDED
                                   ? self->state.response : NULL);

  if (self->state.status_reason != NULL)
    {
      /* Translators: %s is the reason the server gave for a status change */
      g_autofree char *reason = g_strdup_printf (_("Reason: %s"), self->state.status_reason);

      join_line (detail, reason);
    }
  join_line (detail, self->state.status_detail);
  join_line (detail, _("The request is read-only now; nothing you entered was sent."));

  show_banner (self,
               self->state.status == ATP_STATUS_RESPONDED ? "banner-neutral" : "banner-warning",
               icon_name, title, detail->str);
}

static void
show_delivery_banner (TriageDecisionView *self)
{
  g_autofree char *answer = describe_sent_answer (self);
  g_autoptr(GString) detail = g_string_new (NULL);

  switch (self->state.delivery)
    {
    case TRIAGE_DELIVERY_SENDING:
      show_banner (self, "banner-accent", NULL, _("Sending your answer…"), answer);
      break;

    case TRIAGE_DELIVERY_SENT:
      /* The outcome, as for an answer given elsewhere; "You answered ‘Stop’". */
      show_banner (self, "banner-success", "object-select-symbolic", answer ? answer : _("Answer sent"),
                   _("Sent: the service has your answer."));
      break;

    case TRIAGE_DELIVERY_QUEUED:
      join_line (detail, answer);
      join_line (detail, _("It is saved and will be sent as soon as the server can be reached."));
      show_banner (self, "banner-warning", "network-offline-symbolic",
                   _("Queued, will send when online"), detail->str);
      break;

    case TRIAGE_DELIVERY_FAILED:
      join_line (detail, self->state.delivery_message);
      join_line (detail, answer);
      show_banner (self, "banner-error", "dialog-error-symbolic",
                   _("The answer was not accepted"), detail->str);
      break;

    case TRIAGE_DELIVERY_NONE:
    default:
      g_assert_not_reached ();
    }
}

/* Shows the banner the state calls for (or none) and says whether the
 * request can no longer be answered here. */
gboolean
_triage_decision_view_update_banner (TriageDecisionView *self)
{
  gboolean read_only = FALSE;

  if (self->notification == NULL)
    {
      hide_banner (self);
    }
  else if (atp_status_is_terminal (self->state.status))
    {
      read_only = TRUE;
      show_status_banner (self);
    }
  else if (self->state.delivery != TRIAGE_DELIVERY_NONE)
    {
      read_only = TRUE;
      show_delivery_banner (self);
    }
  else if (self->expired_locally)
    {
      g_autofree char *time = format_when (self->notification->deadline);
      /* Translators: %s is the time of the deadline */
      g_autofree char *title = g_strdup_printf (_("The deadline passed at %s"), time);

      read_only = TRUE;
      show_banner (self, "banner-warning", "alarm-symbolic", title,
                   _("Answers are no longer accepted; nothing you entered was sent."));
    }
  else if (self->state.answer_error != NULL)
    show_banner (self, "banner-error", "dialog-error-symbolic",
                 _("Your answer was not sent"), self->state.answer_error);
  else
    hide_banner (self);

  return read_only;
}
