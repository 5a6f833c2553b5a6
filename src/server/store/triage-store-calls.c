/* triage-store-calls.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * TriageStore's calls that go to the backend as they are: users, services,
 * notifications and the webhook queue. A write joins the open batch first; a change of a
 * notification, which carries events, is refused when no batch opens
 * (triage_store_batch_change ()). The group commit, the events and the
 * rates: triage-store.c. And what --database names, before it is opened.
 */

#define G_LOG_DOMAIN "triage-store"

#include <string.h>
#include <gio/gio.h>
#include <libpq-fe.h>

#include "triage-store-private.h"

#define CLASS(self) TRIAGE_STORE_GET_CLASS (self)
/* A write joins the open batch, opening one if needed. */
#define WRITE(self) (triage_store_batch (self), CLASS (self))

/* ---- the database's name ---- */

/* Whether @database (as given to triage_store_open ()) names a PostgreSQL
 * database: a postgresql:// (or postgres://) URI; else a SQLite file. */
gboolean
triage_store_is_postgres (const char *database)
{
  return g_str_has_prefix (database, "postgresql://") || g_str_has_prefix (database, "postgres://");
}

/* Refuses a --database that is a libpq key=value string ("dbname=triage
 * user=triage", "host=/run/postgresql dbname=triage"), which would have been
 * taken for the name of a new SQLite file: G_IO_ERROR_INVALID_ARGUMENT, with
 * the URI to give instead. A file name holding '=' is one when libpq does not
 * read it as key=value pairs (the word before the '=' is none of its). */
gboolean
triage_store_check_name (const char  *database,
                         GError     **error)
{
  PQconninfoOption *options;
  char *message = NULL;

  if (triage_store_is_postgres (database) || strchr (database, '=') == NULL)
    return TRUE;
  options = PQconninfoParse (database, &message);
  PQfreemem (message);
  if (options == NULL)
    return TRUE;
  PQconninfoFree (options);
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
               "--database %s is a libpq key=value string, not a SQLite file: give PostgreSQL as "
               "a URI, e.g. postgresql://triage@db.example.com/triage (a socket folder as "
               "postgresql:///triage?host=/run/postgresql, several hosts as "
               "postgresql://triage@db1,db2/triage)", database);
  return FALSE;
}

/* ---- the schema ---- */

gboolean
triage_store_trust_schema (TriageStore  *self,
                           GError      **error)
{
  return CLASS (self)->trust_schema == NULL || CLASS (self)->trust_schema (self, error);
}

/* ---- users and services ---- */

gboolean
triage_store_user_exists (TriageStore *self,
                          const char  *id,
                          GError     **error)
{
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return CLASS (self)->user_exists (self, id, error);
}

TriageStoreInsert
triage_store_add_user (TriageStore *self,
                       const char  *id,
                       const char  *name,
                       const char  *token_hash)
{
  return WRITE (self)->add_user (self, id, name, token_hash);
}

char *
triage_store_user_by_token (TriageStore *self,
                            const char  *token_hash,
                            GError     **error)
{
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return CLASS (self)->user_by_token (self, token_hash, error);
}

TriageStoreInsert
triage_store_add_service (TriageStore        *self,
                          const char         *id,
                          const char         *name,
                          const char         *description,
                          const char         *callback_url,
                          const char         *webhook_secret,
                          const char         *key_hash,
                          const char * const *recipients)
{
  return WRITE (self)->add_service (self, id, name, description, callback_url, webhook_secret,
                                    key_hash, recipients);
}

TriageServiceRow *
triage_store_service_by_key (TriageStore *self,
                             const char  *key_hash,
                             GError     **error)
{
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return CLASS (self)->service_by_key (self, key_hash, error);
}

TriageServiceRow *
triage_store_service_by_id (TriageStore *self,
                            const char  *id,
                            GError     **error)
{
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return CLASS (self)->service_by_id (self, id, error);
}

TriageServiceRow *
triage_store_service_by_name (TriageStore *self,
                              const char  *name,
                              GError     **error)
{
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return CLASS (self)->service_by_name (self, name, error);
}

/* ---- notifications ---- */

TriageNotificationRow *
triage_store_get_notification (TriageStore *self,
                               const char  *id,
                               GError     **error)
{
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return CLASS (self)->get_notification (self, id, error);
}

/* One page of a user's notifications, by seq (the cursor), newest or oldest
 * first; *total (unless NULL: not counted) counts every match, ignoring the
 * cursor. NULL with @error set when the database did not answer: never an
 * empty page, which a client resyncing takes for "nothing is pending". */
GPtrArray *
triage_store_list (TriageStore           *self,
                   const TriageListQuery *query,
                   gint64                *total,
                   gboolean              *has_more,
                   GError               **error)
{
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return CLASS (self)->list (self, query, total, has_more, error);
}

char *
triage_store_page_json (TriageStore *self,
                        GPtrArray   *rows,
                        const char  *pagination)
{
  if (CLASS (self)->page_json == NULL)
    return NULL;
  return CLASS (self)->page_json (self, rows, pagination);
}

TriageStoreInsert
triage_store_insert_notification (TriageStore *self,
                                  const char  *id,
                                  const char  *service_id,
                                  int          protocol,
                                  const char  *protocol_id,
                                  const char  *body,
                                  const char  *json,
                                  const char  *answer,
                                  const char  *project,
                                  gint64       created_at,
                                  gint64       deadline)
{
  if (!triage_store_batch_change (self, FALSE, NULL))
    return TRIAGE_STORE_INSERT_FAILED;
  return CLASS (self)->insert_notification (self, id, service_id, protocol, protocol_id, body, json,
                                            answer, project, created_at, deadline);
}

TriageNotificationRow *
triage_store_find_request (TriageStore *self,
                           const char  *service_id,
                           int          protocol,
                           const char  *protocol_id,
                           GError     **error)
{
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return CLASS (self)->find_request (self, service_id, protocol, protocol_id, error);
}

gboolean
triage_store_is_recipient (TriageStore *self,
                           const char  *notification_id,
                           const char  *user_id,
                           GError     **error)
{
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return CLASS (self)->is_recipient (self, notification_id, user_id, error);
}

GStrv
triage_store_recipients (TriageStore *self,
                         const char  *notification_id,
                         GError     **error)
{
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return CLASS (self)->recipients (self, notification_id, error);
}

gboolean
triage_store_transition (TriageStore *self,
                         const char  *id,
                         guint        from_mask,
                         int          status,
                         const char  *response,
                         const char  *reason,
                         gint64       now,
                         GError     **error)
{
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!triage_store_batch_change (self, FALSE, error))
    return FALSE;
  return CLASS (self)->transition (self, id, from_mask, status, response, reason, now, error);
}

gboolean
triage_store_mark_delivered (TriageStore *self,
                             const char  *id,
                             gint64       now)
{
  if (!triage_store_batch_change (self, TRUE, NULL))
    return FALSE;
  return CLASS (self)->mark_delivered (self, id, now);
}

GStrv
triage_store_mark_delivered_all (TriageStore        *self,
                                 const char * const *ids,
                                 gint64              now)
{
  if (ids == NULL || ids[0] == NULL || !triage_store_batch_change (self, TRUE, NULL))
    return g_new0 (char *, 1);
  return CLASS (self)->mark_delivered_all (self, ids, now);
}

/* The earliest deadline of a pending notification (unix µs), 0 = none; 0
 * with @error set when the database did not answer. */
gint64
triage_store_next_deadline (TriageStore *self,
                            GError     **error)
{
  g_return_val_if_fail (error == NULL || *error == NULL, 0);

  return CLASS (self)->next_deadline (self, error);
}

/* Moves every pending notification whose deadline is at or before @now to
 * expired, and returns the ids it moved: each expiry is made by exactly one
 * server (rows another server is changing right now are left to it). */
GStrv
triage_store_expire_overdue (TriageStore *self,
                             gint64       now,
                             const char  *reason)
{
  if (!triage_store_batch_change (self, FALSE, NULL))
    return g_new0 (char *, 1);
  return CLASS (self)->expire_overdue (self, now, reason);
}

/* ---- the webhook queue ---- */

gboolean
triage_store_add_webhook (TriageStore *self,
                          const char  *request_id,
                          const char  *service_id,
                          const char  *notification_id,
                          const char  *event,
                          const char  *body,
                          gint64       now)
{
  return WRITE (self)->add_webhook (self, request_id, service_id, notification_id, event, body, now);
}

GPtrArray *
triage_store_claim_webhooks (TriageStore        *self,
                             gint64              now,
                             gint64              lease_until,
                             const char * const *skip_services,
                             guint               per_service,
                             guint               limit)
{
  static const char * const none[] = { NULL };

  return WRITE (self)->claim_webhooks (self, now, lease_until, skip_services ? skip_services : none,
                                       per_service, limit);
}

gint64
triage_store_next_webhook (TriageStore *self)
{
  return CLASS (self)->next_webhook (self);
}

void
triage_store_schedule_webhook (TriageStore *self,
                               gint64       id,
                               int          attempts,
                               gint64       next_attempt,
                               const char  *last_error)
{
  WRITE (self)->schedule_webhook (self, id, attempts, next_attempt, last_error);
}

void
triage_store_remove_webhook (TriageStore *self,
                             gint64       id)
{
  WRITE (self)->remove_webhook (self, id);
}
