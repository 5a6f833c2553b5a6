/* triage-dnd.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-dnd"

#include "triage-dnd.h"

/**
 * triage_should_show_bubble:
 * @notification: the request about to be announced
 * @dnd: whether the user has turned on do-not-disturb
 * @now: the current time
 *
 * Decides whether a desktop notification bubble is shown for @notification.
 *
 * A request that is no longer pending (answered, expired, withdrawn) never
 * gets a bubble, nor does one whose deadline has already passed: nobody can
 * act on it any more. Otherwise, without do-not-disturb every request gets
 * one; under do-not-disturb only requests with an action flagged
 * `time_sensitive`, or whose deadline is at most %TRIAGE_DND_DEADLINE_WINDOW
 * away, break through. The request still lands in the inbox and the tray
 * either way; this only governs the interruption.
 *
 * Returns: %TRUE if a bubble should be shown
 */
gboolean
triage_should_show_bubble (AtpNotification *notification,
                           gboolean         dnd,
                           GDateTime       *now)
{
  GTimeSpan left = 0;

  g_return_val_if_fail (notification != NULL, FALSE);
  g_return_val_if_fail (now != NULL, FALSE);

  if (!atp_status_is_pending (notification->status))
    return FALSE;

  if (notification->deadline != NULL)
    {
      left = g_date_time_difference (notification->deadline, now);
      if (left <= 0)
        return FALSE;
    }

  if (!dnd)
    return TRUE;

  if ((atp_notification_get_flags (notification) & ATP_FLAG_TIME_SENSITIVE) != 0)
    return TRUE;

  return notification->deadline != NULL && left <= TRIAGE_DND_DEADLINE_WINDOW;
}
