/* triage-request.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-request"

#include <glib/gi18n.h>
#include <string.h>

#include "triage-decision-format.h"
#include "triage-request.h"

/*
 * One request in the inbox: the notification as last received plus what this
 * app knows about it (its lifecycle status, where our own answer stands).
 * Properties are what the list rows bind to.
 */

/* A request whose deadline is this close counts as urgent (critical bubble, badge). */
#define URGENT_WINDOW (5 * G_TIME_SPAN_MINUTE)

struct _TriageRequest
{
  GObject            parent_instance;

  AtpNotification   *notification;
  AtpStatus          status;
  char              *status_reason;
  GDateTime         *status_time;
  AtpResponse       *response;
  TriageAnswerState  answer_state;
};

G_DEFINE_FINAL_TYPE (TriageRequest, triage_request, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_NOTIFICATION,
  PROP_ID,
  PROP_TITLE,
  PROP_SERVICE_NAME,
  PROP_SUBTITLE,
  PROP_STATUS,
  PROP_ANSWER_STATE,
  PROP_RESPONSE,
  N_PROPS
};

static GParamSpec *properties [N_PROPS];

static void
triage_request_finalize (GObject *object)
{
  TriageRequest *self = (TriageRequest *)object;

  g_clear_pointer (&self->notification, atp_notification_unref);
  g_clear_pointer (&self->status_time, g_date_time_unref);
  g_clear_pointer (&self->response, atp_response_unref);
  g_free (self->status_reason);

  G_OBJECT_CLASS (triage_request_parent_class)->finalize (object);
}

static void
triage_request_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  TriageRequest *self = TRIAGE_REQUEST (object);

  switch (prop_id)
    {
    case PROP_NOTIFICATION:
      g_value_set_boxed (value, self->notification);
      break;

    case PROP_ID:
      g_value_set_string (value, triage_request_get_id (self));
      break;

    case PROP_TITLE:
      g_value_set_string (value, triage_request_get_title (self));
      break;

    case PROP_SERVICE_NAME:
      g_value_set_string (value, triage_request_get_service_name (self));
      break;

    case PROP_SUBTITLE:
      g_value_take_string (value, triage_request_dup_subtitle (self));
      break;

    case PROP_STATUS:
      g_value_set_uint (value, self->status);
      break;

    case PROP_ANSWER_STATE:
      g_value_set_uint (value, self->answer_state);
      break;

    case PROP_RESPONSE:
      g_value_set_boxed (value, self->response);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
triage_request_class_init (TriageRequestClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = triage_request_finalize;
  object_class->get_property = triage_request_get_property;

  properties [PROP_NOTIFICATION] =
    g_param_spec_boxed ("notification", NULL, NULL,
                        ATP_TYPE_NOTIFICATION,
                        (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties [PROP_ID] =
    g_param_spec_string ("id", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  properties [PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties [PROP_SERVICE_NAME] =
    g_param_spec_string ("service-name", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties [PROP_SUBTITLE] =
    g_param_spec_string ("subtitle", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties [PROP_STATUS] =
    g_param_spec_uint ("status", NULL, NULL,
                       ATP_STATUS_CREATED, ATP_STATUS_INVALIDATED, ATP_STATUS_CREATED,
                       (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties [PROP_ANSWER_STATE] =
    g_param_spec_uint ("answer-state", NULL, NULL,
                       TRIAGE_ANSWER_NONE, TRIAGE_ANSWER_FAILED, TRIAGE_ANSWER_NONE,
                       (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties [PROP_RESPONSE] =
    g_param_spec_boxed ("response", NULL, NULL,
                        ATP_TYPE_RESPONSE,
                        (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
triage_request_init (TriageRequest *self)
{
}

/**
 * triage_request_new:
 * @notification: the request as received
 *
 * Returns: (transfer full): a new #TriageRequest
 */
TriageRequest *
triage_request_new (AtpNotification *notification)
{
  TriageRequest *self;

  g_return_val_if_fail (notification != NULL, NULL);

  self = g_object_new (TRIAGE_TYPE_REQUEST, NULL);
  self->notification = atp_notification_ref (notification);
  self->status = notification->status;

  return self;
}

AtpNotification *
triage_request_get_notification (TriageRequest *self)
{
  g_return_val_if_fail (TRIAGE_IS_REQUEST (self), NULL);

  return self->notification;
}

/**
 * triage_request_set_notification:
 * @self: a #TriageRequest
 * @notification: a newer copy of the same request
 *
 * Replaces the notification (a resync may bring a changed body or status).
 */
void
triage_request_set_notification (TriageRequest   *self,
                                 AtpNotification *notification)
{
  g_return_if_fail (TRIAGE_IS_REQUEST (self));
  g_return_if_fail (notification != NULL);
  g_return_if_fail (g_str_equal (notification->id, self->notification->id));

  if (notification == self->notification)
    return;

  atp_notification_ref (notification);
  g_clear_pointer (&self->notification, atp_notification_unref);
  self->notification = notification;

  g_object_freeze_notify (G_OBJECT (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_NOTIFICATION]);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_TITLE]);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_SERVICE_NAME]);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_SUBTITLE]);
  triage_request_set_status (self, notification->status);
  g_object_thaw_notify (G_OBJECT (self));
}

const char *
triage_request_get_id (TriageRequest *self)
{
  g_return_val_if_fail (TRIAGE_IS_REQUEST (self), NULL);

  return self->notification->id;
}

const char *
triage_request_get_title (TriageRequest *self)
{
  g_return_val_if_fail (TRIAGE_IS_REQUEST (self), NULL);

  return self->notification->context.title;
}

const char *
triage_request_get_service_name (TriageRequest *self)
{
  g_return_val_if_fail (TRIAGE_IS_REQUEST (self), NULL);

  return self->notification->service.name;
}

/**
 * triage_request_get_protocol:
 *
 * Returns: (transfer none) (nullable): what the app knows of the request's
 *   protocol, %NULL when this version cannot answer it
 */
TriageProtocol *
triage_request_get_protocol (TriageRequest *self)
{
  g_return_val_if_fail (TRIAGE_IS_REQUEST (self), NULL);

  return triage_protocol_for_request (self->notification);
}

GDateTime *
triage_request_get_deadline (TriageRequest *self)
{
  g_return_val_if_fail (TRIAGE_IS_REQUEST (self), NULL);

  return self->notification->deadline;
}

AtpStatus
triage_request_get_status (TriageRequest *self)
{
  g_return_val_if_fail (TRIAGE_IS_REQUEST (self), ATP_STATUS_CREATED);

  return self->status;
}

void
triage_request_set_status (TriageRequest *self,
                           AtpStatus      status)
{
  g_return_if_fail (TRIAGE_IS_REQUEST (self));

  if (self->status == status)
    return;

  self->status = status;
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_STATUS]);
}

/**
 * triage_request_settle:
 * @self: a #TriageRequest
 * @status: its new status (usually terminal)
 * @reason: (nullable): the server's reason
 * @when: (nullable): when it changed
 *
 * Records a status change with its reason and time, for the view to show.
 */
void
triage_request_settle (TriageRequest *self,
                       AtpStatus      status,
                       const char    *reason,
                       GDateTime     *when)
{
  g_return_if_fail (TRIAGE_IS_REQUEST (self));

  g_free (self->status_reason);
  self->status_reason = g_strdup (reason);
  g_clear_pointer (&self->status_time, g_date_time_unref);
  self->status_time = when ? g_date_time_ref (when) : NULL;

  triage_request_set_status (self, status);
}

/**
 * triage_request_set_response:
 * @self: a #TriageRequest
 * @response: (nullable): the answer that settled it, given elsewhere
 *
 * What was answered on another device or by another person, and by whom,
 * once the app has learnt it (a status update does not say), for the view
 * to show.
 */
void
triage_request_set_response (TriageRequest *self,
                             AtpResponse   *response)
{
  g_return_if_fail (TRIAGE_IS_REQUEST (self));

  if (self->response == response)
    return;

  g_clear_pointer (&self->response, atp_response_unref);
  self->response = response ? atp_response_ref (response) : NULL;
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_RESPONSE]);
}

/**
 * triage_request_get_response:
 *
 * Returns: (transfer none) (nullable): the answer given elsewhere, if known
 */
AtpResponse *
triage_request_get_response (TriageRequest *self)
{
  g_return_val_if_fail (TRIAGE_IS_REQUEST (self), NULL);

  return self->response;
}

const char *
triage_request_get_status_reason (TriageRequest *self)
{
  g_return_val_if_fail (TRIAGE_IS_REQUEST (self), NULL);

  return self->status_reason;
}

GDateTime *
triage_request_get_status_time (TriageRequest *self)
{
  g_return_val_if_fail (TRIAGE_IS_REQUEST (self), NULL);

  return self->status_time;
}

TriageAnswerState
triage_request_get_answer_state (TriageRequest *self)
{
  g_return_val_if_fail (TRIAGE_IS_REQUEST (self), TRIAGE_ANSWER_NONE);

  return self->answer_state;
}

void
triage_request_set_answer_state (TriageRequest     *self,
                                 TriageAnswerState  state)
{
  g_return_if_fail (TRIAGE_IS_REQUEST (self));

  if (self->answer_state == state)
    return;

  self->answer_state = state;
  g_object_freeze_notify (G_OBJECT (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_ANSWER_STATE]);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_SUBTITLE]);
  g_object_thaw_notify (G_OBJECT (self));
}

/**
 * triage_request_is_urgent:
 * @self: a #TriageRequest
 * @now: (nullable): the current time, %NULL for now
 *
 * Returns: %TRUE if an action is time-sensitive or the deadline is less
 *   than five minutes away
 */
gboolean
triage_request_is_urgent (TriageRequest *self,
                          GDateTime     *now)
{
  g_autoptr(GDateTime) current = NULL;

  g_return_val_if_fail (TRIAGE_IS_REQUEST (self), FALSE);

  if (atp_notification_get_flags (self->notification) & ATP_FLAG_TIME_SENSITIVE)
    return TRUE;

  if (self->notification->deadline == NULL)
    return FALSE;

  current = now ? g_date_time_ref (now) : g_date_time_new_now_utc ();

  return g_date_time_difference (self->notification->deadline, current) < URGENT_WINDOW;
}

/**
 * triage_request_get_urgent_at:
 * @self: a #TriageRequest
 *
 * Returns: when (Unix seconds) the deadline comes close enough for the
 *   request to be urgent; 0 when it has no deadline or is urgent anyway
 *   (time-sensitive)
 */
gint64
triage_request_get_urgent_at (TriageRequest *self)
{
  g_return_val_if_fail (TRIAGE_IS_REQUEST (self), 0);

  if (self->notification->deadline == NULL ||
      (atp_notification_get_flags (self->notification) & ATP_FLAG_TIME_SENSITIVE))
    return 0;

  return g_date_time_to_unix (self->notification->deadline) - URGENT_WINDOW / G_USEC_PER_SEC;
}

/**
 * triage_format_deadline:
 * @deadline: when a request is due
 * @now: (nullable): the present (default: the current time)
 *
 * The deadline as the inbox and the tray menu show it: always with its day
 * unless it is today, so a request due in three days never looks like one
 * due in ten minutes: "due 14:05", "due tomorrow, 14:05", "due Thu 3 Oct,
 * 14:05" within a week, "due 3 Oct, 14:05", "due 3 Oct 2027, 14:05". It is
 * not relative ("in 10 min"), so a list that is not redrawn every minute
 * stays true; only its day's words change, at midnight (TriageDayClock).
 *
 * Returns: (transfer full): the text
 */
char *
triage_format_deadline (GDateTime *deadline,
                        GDateTime *now)
{
  g_autoptr(GDateTime) local = NULL;
  g_autoptr(GDateTime) local_now = NULL;
  GDate day;
  GDate today;
  int days;

  g_return_val_if_fail (deadline != NULL, NULL);

  local = g_date_time_to_local (deadline);
  local_now = now ? g_date_time_to_local (now) : g_date_time_new_now_local ();
  g_date_clear (&day, 1);
  g_date_clear (&today, 1);
  g_date_set_dmy (&day, g_date_time_get_day_of_month (local), g_date_time_get_month (local),
                  g_date_time_get_year (local));
  g_date_set_dmy (&today, g_date_time_get_day_of_month (local_now),
                  g_date_time_get_month (local_now), g_date_time_get_year (local_now));
  days = g_date_days_between (&today, &day);

  if (days == 0)
    /* Translators: a deadline today, in the inbox and the tray menu; a strftime
     * format (see its manual page), e.g. "due 14:05" */
    return g_date_time_format (local, C_("deadline", "due %H:%M"));

  if (days == 1)
    /* Translators: a deadline tomorrow; a strftime format, e.g. "due tomorrow, 14:05" */
    return g_date_time_format (local, C_("deadline", "due tomorrow, %H:%M"));

  if (days > 1 && days < 7)
    /* Translators: a deadline within the next week; a strftime format, e.g.
     * "due Thu 3 Oct, 14:05" (%a the short weekday, %-d the day, %b the short month) */
    return g_date_time_format (local, C_("deadline", "due %a %-d %b, %H:%M"));

  if (g_date_time_get_year (local) == g_date_time_get_year (local_now))
    /* Translators: a deadline later this year (or past); a strftime format, e.g.
     * "due 3 Oct, 14:05" */
    return g_date_time_format (local, C_("deadline", "due %-d %b, %H:%M"));

  /* Translators: a deadline in another year; a strftime format, e.g. "due 3 Oct 2027, 14:05" */
  return g_date_time_format (local, C_("deadline", "due %-d %b %Y, %H:%M"));
}

/**
 * triage_request_dup_subtitle:
 * @self: a #TriageRequest
 *
 * Returns: (transfer full): the line under the title in the list: service,
 *   project and deadline, or where our answer stands
 */
char *
triage_request_dup_subtitle (TriageRequest *self)
{
  return triage_request_dup_subtitle_waiting (self, NULL);
}

/**
 * triage_request_dup_subtitle_waiting:
 * @self: a #TriageRequest
 * @server_wait: (nullable): the end of the wait the server asked for (a
 *   429's or 503's Retry-After), or %NULL
 *
 * Returns: (transfer full): triage_request_dup_subtitle(), saying when an
 *   answer waiting to be sent goes while the server asks to wait
 */
char *
triage_request_dup_subtitle_waiting (TriageRequest *self,
                                     GDateTime     *server_wait)
{
  g_autofree char *name = NULL;
  g_autofree char *service = NULL;
  GString *str;

  g_return_val_if_fail (TRIAGE_IS_REQUEST (self), NULL);

  name = triage_format_cut_text (self->notification->service.name, TRIAGE_SHOWN_NAME_CHARS);
  service = triage_protocol_dup_marked (self->notification->protocol, name);
  str = g_string_new (service);

  if (self->notification->context.project != NULL)
    {
      g_autofree char *project = triage_format_cut_text (self->notification->context.project,
                                                         TRIAGE_SHOWN_NAME_CHARS);

      g_string_append_printf (str, " · %s", project);
    }

  if (self->answer_state == TRIAGE_ANSWER_QUEUED && server_wait != NULL)
    {
      g_autofree char *time = triage_format_time (server_wait, NULL);

      /* Translators: in the inbox, an answer the server asked to wait for; %s is a time */
      g_string_append (str, " · ");
      g_string_append_printf (str, _("Answer sending at %s (the server asked to wait)"), time);
    }
  else if (self->answer_state == TRIAGE_ANSWER_QUEUED)
    g_string_append_printf (str, " · %s", _("Answer waiting to be sent"));
  else if (self->answer_state == TRIAGE_ANSWER_DELIVERED)
    g_string_append_printf (str, " · %s", _("Answered"));
  else if (self->answer_state == TRIAGE_ANSWER_FAILED)
    g_string_append_printf (str, " · %s", _("Answer refused"));
  else if (self->notification->deadline != NULL)
    {
      g_autofree char *due = triage_format_deadline (self->notification->deadline, NULL);

      g_string_append_printf (str, " · %s", due);
    }

  return g_string_free (str, FALSE);
}

/**
 * triage_request_compare:
 *
 * The inbox order: earliest deadline first (requests without one last),
 * then oldest first, then by id so the order is total.
 */
int
triage_request_compare (TriageRequest *a,
                        TriageRequest *b)
{
  GDateTime *da = a->notification->deadline;
  GDateTime *db = b->notification->deadline;
  int cmp;

  if (da != NULL && db == NULL)
    return -1;
  if (da == NULL && db != NULL)
    return 1;
  if (da != NULL && (cmp = g_date_time_compare (da, db)) != 0)
    return cmp;

  if ((cmp = g_date_time_compare (a->notification->timestamp, b->notification->timestamp)) != 0)
    return cmp;

  return strcmp (a->notification->id, b->notification->id);
}
