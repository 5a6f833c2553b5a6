/* triage-decision-outcome.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-decision-outcome"

#include <glib/gi18n.h>

#include "triage-decision-format.h"
#include "triage-decision-outcome.h"
#include "triage-protocol.h"

/**
 * triage_format_settled:
 * @status: a settled status: responded (elsewhere), expired or invalidated
 * @service_name: the service that asked (it withdraws a request)
 * @answer: (nullable): the answer given, as its protocol words it
 *   (triage_protocol_describe_answer())
 * @responder: (nullable): who gave it (their name or id)
 * @when: (nullable): when it happened
 *
 * Returns: (transfer full): "Answered ‘Stop’ by alex on another device at
 *   17:12", "Expired at 17:12", "Withdrawn by Deploy Bot at 17:12"; what is
 *   not known is left out
 */
char *
triage_format_settled (AtpStatus   status,
                       const char *service_name,
                       const char *answer,
                       const char *responder,
                       GDateTime  *when)
{
  g_autofree char *time = when ? triage_format_time (when, NULL) : NULL;

  g_return_val_if_fail (service_name != NULL, NULL);

  if (answer != NULL && *answer == '\0')
    answer = NULL;
  if (responder != NULL && *responder == '\0')
    responder = NULL;

  switch (status)
    {
    case ATP_STATUS_EXPIRED:
      if (time != NULL)
        /* Translators: %s is a time, e.g. "14:05" or "3 May, 14:05" */
        return g_strdup_printf (_("Expired at %s"), time);
      return g_strdup (_("Expired"));

    case ATP_STATUS_INVALIDATED:
      if (time != NULL)
        /* Translators: the service withdrew the request; %1$s is the service's name, %2$s a time */
        return g_strdup_printf (_("Withdrawn by %1$s at %2$s"), service_name, time);
      /* Translators: the service withdrew the request; %s is the service's name */
      return g_strdup_printf (_("Withdrawn by %s"), service_name);

    case ATP_STATUS_RESPONDED:
    default:
      if (answer != NULL && responder != NULL && time != NULL)
        /* Translators: %1$s is the answer (e.g. ‘Stop’ or ‘Rollout’: 25 %), %2$s who gave
         * it (a name or a user id), %3$s a time */
        return g_strdup_printf (_("Answered %1$s by %2$s on another device at %3$s"),
                                answer, responder, time);
      if (answer != NULL && responder != NULL)
        /* Translators: %1$s is the answer (e.g. ‘Stop’), %2$s who gave it (a name or an id) */
        return g_strdup_printf (_("Answered %1$s by %2$s on another device"), answer, responder);
      if (answer != NULL && time != NULL)
        /* Translators: %1$s is the answer (e.g. ‘Stop’), %2$s a time */
        return g_strdup_printf (_("Answered %1$s on another device at %2$s"), answer, time);
      if (answer != NULL)
        /* Translators: %s is the answer (e.g. ‘Stop’) */
        return g_strdup_printf (_("Answered %s on another device"), answer);
      if (time != NULL)
        /* Translators: %s is a time, e.g. "14:05" */
        return g_strdup_printf (_("Answered on another device at %s"), time);
      return g_strdup (_("Answered on another device"));
    }
}

/**
 * triage_describe_settled:
 * @notification: the request
 * @status: its settled status
 * @when: (nullable): when it was settled, as the status update says
 * @response: (nullable): the answer that settled it, when known
 *
 * triage_format_settled() for @notification: the answer in the words of the
 * request's protocol (an answer it cannot word is named by its action id),
 * the time of the answer or of the deadline when @when is not known.
 *
 * Returns: (transfer full): the outcome in one sentence
 */
char *
triage_describe_settled (AtpNotification *notification,
                         AtpStatus        status,
                         GDateTime       *when,
                         AtpResponse     *response)
{
  g_autofree char *answer = NULL;
  const char *responder = NULL;

  g_return_val_if_fail (notification != NULL, NULL);

  if (status == ATP_STATUS_RESPONDED && response != NULL)
    {
      TriageProtocol *protocol = triage_protocol_for_request (notification);

      if (protocol != NULL)
        answer = triage_protocol_describe_answer (protocol, notification, response->action_id,
                                                  response->response_data);
      if (answer == NULL)
        /* Translators: an answer the app cannot word (an action the request
         * does not have), named by its id in quotes */
        answer = g_strdup_printf (_("‘%s’"), response->action_id);
      responder = response->responder_id;
      if (when == NULL)
        when = response->responded_at;
    }
  else if (status == ATP_STATUS_EXPIRED && when == NULL)
    when = notification->deadline;

  return triage_format_settled (status, notification->service.name, answer, responder, when);
}
