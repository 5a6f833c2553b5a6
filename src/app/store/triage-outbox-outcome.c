/* triage-outbox-outcome.c — what the server's refusal of an answer settles
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "triage-outbox-outcome.h"

/* What the server's refusal settles: a conflict (409) of ATP's codes settles
 * the request otherwise, and so do 500 NOTIFICATION_UNREADABLE (gone: the
 * server can no longer read it) and 404 NOTIFICATION_NOT_FOUND or ATP's 403
 * twin (gone: the server no longer has it, or shows it to us;
 * atp_error_is_not_found ()); a refusal for good (a 4xx but 401, 404, 429
 * and ATP's 409s) rejects the answer; anything else (none: no connection,
 * other 5xx, 429, 401, and a 404 that names no notification: a proxy's
 * page, a wrong base path, an endpoint the server does not have) leaves it
 * queued. */
TriageOutcome
triage_outbox_outcome_for_error (const GError *error)
{
  if (error->domain != ATP_ERROR)
    return TRIAGE_OUTCOME_NONE;

  switch (error->code)
    {
    case ATP_ERROR_NOTIFICATION_ALREADY_RESPONDED:
      return TRIAGE_OUTCOME_ANSWERED_ELSEWHERE;
    case ATP_ERROR_NOTIFICATION_EXPIRED:
      return TRIAGE_OUTCOME_EXPIRED;
    case ATP_ERROR_NOTIFICATION_INVALIDATED:
      return TRIAGE_OUTCOME_INVALIDATED;
    case ATP_ERROR_NOTIFICATION_UNREADABLE:
      /* A damaged row on the server: no resend mends it, and what became
       * of the request is not known. */
      return TRIAGE_OUTCOME_GONE;
    case ATP_ERROR_NOTIFICATION_ACCESS_DENIED:
    case ATP_ERROR_NOTIFICATION_NOT_FOUND:
      /* Not on the server (for us): answering again meets the same 404. */
      return TRIAGE_OUTCOME_GONE;
    case ATP_ERROR_NOT_FOUND:
      /* Not the server's word on the request: the answer went somewhere
       * that is not the server's respond endpoint (a proxy's 404 page, a
       * wrong base path). A server problem, mended by its operator: kept
       * and tried again, as a 502 would be. */
      return TRIAGE_OUTCOME_NONE;
    case ATP_ERROR_INVALID_JSON:
    case ATP_ERROR_INVALID_REQUEST:
    case ATP_ERROR_MISSING_REQUIRED_FIELD:
    case ATP_ERROR_INVALID_FIELD_VALUE:
    case ATP_ERROR_INVALID_ACTION_ID:
    case ATP_ERROR_INVALID_RESPONSE_DATA:
    case ATP_ERROR_INVALID_PARAMETER:
    case ATP_ERROR_CONSTRAINT_VIOLATION:
    case ATP_ERROR_PAYLOAD_TOO_LARGE:
    case ATP_ERROR_CONFLICT:   /* another server's 409: resent, the same for ever */
      return TRIAGE_OUTCOME_REJECTED;
    default:
      return TRIAGE_OUTCOME_NONE;
    }
}
