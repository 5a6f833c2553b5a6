/* triage-store-rows.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The rows the storage interface hands out (services, notifications, events,
 * webhook deliveries): freeing them, and copying a service's.
 */

#include "triage-store-private.h"

void
triage_service_row_free (TriageServiceRow *row)
{
  if (row == NULL)
    return;
  g_free (row->id);
  g_free (row->name);
  g_free (row->callback_url);
  g_free (row->webhook_secret);
  g_free (row);
}

TriageServiceRow *
triage_service_row_copy (const TriageServiceRow *row)
{
  TriageServiceRow *copy = g_new0 (TriageServiceRow, 1);

  copy->id = g_strdup (row->id);
  copy->name = g_strdup (row->name);
  copy->callback_url = g_strdup (row->callback_url);
  copy->webhook_secret = g_strdup (row->webhook_secret);
  return copy;
}

void
triage_notification_row_free (TriageNotificationRow *row)
{
  if (row == NULL)
    return;
  g_free (row->id);
  g_free (row->service_id);
  g_free (row->body);
  g_free (row->json);
  g_free (row->answer);
  g_free (row->response);
  g_free (row->reason);
  g_free (row->protocol_id);
  g_free (row);
}

void
triage_event_row_free (TriageEventRow *row)
{
  if (row == NULL)
    return;
  g_free (row->user);
  g_free (row->type);
  g_free (row->data);
  g_free (row->notification_id);
  g_free (row);
}

void
triage_webhook_row_free (TriageWebhookRow *row)
{
  if (row == NULL)
    return;
  g_free (row->request_id);
  g_free (row->service_id);
  g_free (row->notification_id);
  g_free (row->callback_url);
  g_free (row->webhook_secret);
  g_free (row->body);
  g_free (row->event);
  g_free (row);
}
