/* triage-store-private.h — what a storage backend implements
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "triage-store.h"

G_BEGIN_DECLS

/* Every virtual function is required. The batch is the base class's: it
 * calls begin() when a write comes and no batch is open, and commit() (or
 * rollback() after a failed commit) when the main loop is idle; the write
 * functions are called with the batch already open. */
struct _TriageStoreClass
{
  GObjectClass parent_class;

  /* the batch */
  gboolean               (*begin)              (TriageStore *self,
                                                GError     **error);
  gboolean               (*commit)             (TriageStore *self,
                                                GError     **error);
  void                   (*rollback)           (TriageStore *self);

  /* users and services */
  gboolean               (*user_exists)        (TriageStore *self,
                                                const char  *id);
  gboolean               (*add_user)           (TriageStore *self,
                                                const char  *id,
                                                const char  *name,
                                                const char  *token_hash);
  char                  *(*user_by_token)      (TriageStore *self,
                                                const char  *token_hash);
  gboolean               (*add_service)        (TriageStore        *self,
                                                const char         *id,
                                                const char         *name,
                                                const char         *description,
                                                const char         *callback_url,
                                                const char         *webhook_secret,
                                                const char         *key_hash,
                                                const char * const *recipients);
  TriageServiceRow      *(*service_by_key)     (TriageStore *self,
                                                const char  *key_hash);
  TriageServiceRow      *(*service_by_id)      (TriageStore *self,
                                                const char  *id);
  TriageServiceRow      *(*service_by_name)    (TriageStore *self,
                                                const char  *name);

  /* notifications */
  TriageNotificationRow *(*get_notification)   (TriageStore *self,
                                                const char  *id);
  GPtrArray             *(*list)               (TriageStore           *self,
                                                const TriageListQuery *query,
                                                gint64                *total,
                                                gboolean              *has_more);
  gboolean               (*insert_notification) (TriageStore *self,
                                                 const char  *id,
                                                 const char  *service_id,
                                                 int          protocol,
                                                 const char  *protocol_id,
                                                 const char  *body,
                                                 const char  *json,
                                                 const char  *answer,
                                                 const char  *project,
                                                 gint64       created_at,
                                                 gint64       deadline);
  TriageNotificationRow *(*find_request)       (TriageStore *self,
                                                const char  *service_id,
                                                int          protocol,
                                                const char  *protocol_id);
  gboolean               (*is_recipient)       (TriageStore *self,
                                                const char  *notification_id,
                                                const char  *user_id);
  GStrv                  (*recipients)         (TriageStore *self,
                                                const char  *notification_id);
  gboolean               (*transition)         (TriageStore *self,
                                                const char  *id,
                                                guint        from_mask,
                                                int          status,
                                                const char  *response,
                                                gint64       now);
  gint64                 (*next_deadline)      (TriageStore *self);
  GStrv                  (*overdue)            (TriageStore *self,
                                                gint64       now);

  /* the event log */
  gint64                 (*add_event)          (TriageStore *self,
                                                const char  *user,
                                                const char  *type,
                                                int          protocol,
                                                const char  *data,
                                                gint64       now);
  gint64                 (*last_event)         (TriageStore *self);
  GPtrArray             *(*events_after)       (TriageStore *self,
                                                const char  *user,
                                                gint64       after,
                                                guint        limit);
  void                   (*prune_events)       (TriageStore *self,
                                                gint64       before);

  /* the webhook queue */
  gboolean               (*add_webhook)        (TriageStore *self,
                                                const char  *request_id,
                                                const char  *service_id,
                                                const char  *notification_id,
                                                const char  *event,
                                                const char  *body,
                                                gint64       now);
  GPtrArray             *(*due_webhooks)       (TriageStore *self,
                                                gint64       now,
                                                guint        per_service,
                                                guint        limit);
  gint64                 (*next_webhook)       (TriageStore *self);
  void                   (*schedule_webhook)   (TriageStore *self,
                                                gint64       id,
                                                int          attempts,
                                                gint64       next_attempt,
                                                const char  *last_error);
  void                   (*remove_webhook)     (TriageStore *self,
                                                gint64       id);
};

G_END_DECLS
