/* triage-store-afp.c — the store's AFP review sessions: rows and dispatch
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-store"

#include "triage-store-afp.h"
#include "triage-store-private.h"

/* A write joins the open batch, opening one if needed. */
#define WRITE(self) (triage_store_batch (self), TRIAGE_STORE_GET_CLASS (self))
#define CLASS(self) TRIAGE_STORE_GET_CLASS (self)

void
triage_afp_session_row_free (TriageAfpSessionRow *row)
{
  if (row == NULL)
    return;
  g_free (row->id);
  g_free (row->service_id);
  g_free (row);
}

void
triage_afp_review_row_free (TriageAfpReviewRow *row)
{
  if (row == NULL)
    return;
  g_free (row->notification_id);
  g_free (row->response);
  g_free (row);
}

gboolean
triage_store_afp_add_session (TriageStore *self,
                              const char  *id,
                              const char  *service_id,
                              gint64       now)
{
  return WRITE (self)->afp_add_session (self, id, service_id, now);
}

TriageAfpSessionRow *
triage_store_afp_get_session (TriageStore *self,
                              const char  *id,
                              GError     **error)
{
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return CLASS (self)->afp_get_session (self, id, error);
}

gboolean
triage_store_afp_claim_iteration (TriageStore *self,
                                  const char  *session_id,
                                  gint64       iteration,
                                  GError     **error)
{
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return WRITE (self)->afp_claim_iteration (self, session_id, iteration, error);
}

void
triage_store_afp_release_iteration (TriageStore *self,
                                    const char  *session_id,
                                    gint64       iteration)
{
  WRITE (self)->afp_release_iteration (self, session_id, iteration);
}

gboolean
triage_store_afp_add_review (TriageStore *self,
                             const char  *notification_id,
                             const char  *session_id,
                             gint64       iteration)
{
  return WRITE (self)->afp_add_review (self, notification_id, session_id, iteration);
}

gboolean
triage_store_afp_last_review (TriageStore *self,
                              const char  *session_id,
                              char       **notification_id,
                              gint64      *iteration,
                              GError     **error)
{
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return CLASS (self)->afp_last_review (self, session_id, notification_id, iteration, error);
}

GPtrArray *
triage_store_afp_reviews (TriageStore *self,
                          const char  *session_id,
                          gint64       after,
                          guint        limit,
                          gint64      *total,
                          gboolean    *has_more,
                          GError     **error)
{
  GPtrArray *rows;

  g_return_val_if_fail (limit > 0 && limit < G_MAXUINT, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  /* One row past the page says whether more follow. */
  rows = CLASS (self)->afp_reviews (self, session_id, after, limit + 1, total, error);
  *has_more = rows != NULL && rows->len > limit;
  if (*has_more)
    g_ptr_array_set_size (rows, limit);
  return rows;
}
