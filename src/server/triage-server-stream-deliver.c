/* triage-server-stream-deliver.c — new requests delivered in the batch that makes them
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * On a store this server owns alone (SQLite), a new request that a stream
 * will be pushed once its batch is durable is written delivered from the
 * start, and the status update of that move logged after its creation. Marked
 * after the commit, on the push, its row was written twice: once created,
 * and again delivered in the next commit, with a statement of its own; then
 * in the batch, an UPDATE of the row just inserted (bench/server/bench-cpu.c).
 * The push finds it marked. The frames a stream gets are the same, in the
 * same order. A failed commit takes the mark back with the request.
 *
 * The insert is told a stream is open for one of its recipients; the batch's
 * turn to commit comes later (a group commit waits for more), and that
 * stream may have closed meanwhile. So the choice is checked again then: the
 * push follows the commit in the same turn of the main loop, where nothing
 * can close a stream. A request no stream takes any more goes back to
 * created (the rare case pays an update), unless a recipient's REST read
 * was answered it is delivered meanwhile; one no stream took at its insert
 * but one takes now is marked then; one that moved on in its batch
 * (answered, invalidated) keeps its new status and logs no delivery.
 */

#define G_LOG_DOMAIN "triage-server-stream"

#include "triage-server-stream-private.h"

typedef struct
{
  char     *id;
  int       protocol;
  gboolean  delivered;  /* written delivered by its insert */
} FreshRequest;

static void
fresh_request_clear (gpointer data)
{
  g_free (((FreshRequest *) data)->id);
}

/* Whether on_store_event () will push a new request @id of @protocol, which
 * goes to @users, to a stream, were its event handed on now. */
static gboolean
streams_take (TriageServer       *self,
              const char         *id,
              int                 protocol,
              const char * const *users)
{
  for (guint u = 0; users != NULL && users[u] != NULL; u++)
    {
      GPtrArray *streams = triage_stream_list (self, users[u]);

      for (guint i = 0; streams != NULL && i < streams->len; i++)
        {
          Stream *stream = streams->pdata[i];

          if (triage_stream_wants (stream, protocol) &&
              (stream->snapshot_ids == NULL || !g_hash_table_contains (stream->snapshot_ids, id)))
            return TRUE;
        }
    }
  return FALSE;
}

/* The status a new request's row is written with (TriageStoreInsertStatus). */
static int
insert_status (const char         *id,
               int                 protocol,
               const char * const *recipients,
               gpointer            data)
{
  TriageServer *self = data;

  g_clear_pointer (&self->inserted_delivered, g_free);
  if (self->streams == NULL || !streams_take (self, id, protocol, recipients))
    return ATP_STATUS_CREATED;
  /* Told to triage_stream_remember_fresh () by its publish, right after. */
  self->inserted_delivered = g_strdup (id);
  return ATP_STATUS_DELIVERED;
}

/* A batch's turn to commit. */
static void
deliver_in_batch (gpointer data)
{
  TriageServer *self = data;
  g_autoptr(GArray) fresh = g_steal_pointer (&self->fresh);
  g_autoptr(GHashTable) moved = g_steal_pointer (&self->fresh_moved);
  g_autoptr(GHashTable) read = g_steal_pointer (&self->fresh_read);
  gint64 now;

  g_clear_pointer (&self->inserted_delivered, g_free);
  /* Each pushed since, or its batch rolled back. */
  if (self->premarked != NULL)
    g_hash_table_remove_all (self->premarked);
  if (fresh == NULL || self->streams == NULL)
    return;
  now = g_get_real_time ();
  for (guint i = 0; i < fresh->len; i++)
    {
      FreshRequest *request = &g_array_index (fresh, FreshRequest, i);
      g_auto(GStrv) users = NULL;
      g_autoptr(GError) error = NULL;

      if (moved != NULL && g_hash_table_contains (moved, request->id))
        continue;
      users = triage_store_recipients (self->store, request->id, &error);
      if (users == NULL)
        {
          /* Not pushed: the batch that made it fails with it (the agent is
           * answered 503 and posts it again), never stored unpushed. */
          triage_server_fail_change (self, error, "request %s: its recipients cannot be read",
                                     request->id);
          continue;
        }
      if (!streams_take (self, request->id, request->protocol, (const char * const *) users))
        {
          /* A recipient's REST read since was answered delivered: it is. */
          if (request->delivered && (read == NULL || !g_hash_table_contains (read, request->id)) &&
              triage_store_transition (self->store, request->id, 1u << ATP_STATUS_DELIVERED,
                                       ATP_STATUS_CREATED, NULL, NULL, now, NULL))
            g_debug ("%s: no stream takes it any more: created again", request->id);
          continue;
        }
      if (!request->delivered && !triage_store_mark_delivered (self->store, request->id, now))
        continue;
      if (self->premarked == NULL)
        self->premarked = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      g_hash_table_add (self->premarked, g_strdup (request->id));
      triage_server_changed (self, request->id, ATP_STATUS_DELIVERED, NULL);
    }
}

/* Request @id of @protocol was made in the open batch. */
void
triage_stream_remember_fresh (TriageServer *self,
                              const char   *id,
                              int           protocol)
{
  FreshRequest request = { g_strdup (id), protocol, FALSE };

  request.delivered = g_strcmp0 (self->inserted_delivered, id) == 0;
  g_clear_pointer (&self->inserted_delivered, g_free);
  if (self->fresh == NULL)
    {
      self->fresh = g_array_new (FALSE, FALSE, sizeof (FreshRequest));
      g_array_set_clear_func (self->fresh, fresh_request_clear);
    }
  g_array_append_val (self->fresh, request);
}

/* Request @id moved on (answered, invalidated, …) in the open batch: if it
 * was made there too, its batch logs no delivery of it. */
void
triage_stream_fresh_moved (TriageServer *self,
                           const char   *id)
{
  if (self->fresh == NULL)
    return;
  if (self->fresh_moved == NULL)
    self->fresh_moved = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_hash_table_add (self->fresh_moved, g_strdup (id));
}

/* A recipient read request @id as delivered (REST): if it was made in the
 * open batch, it stays delivered even if no stream takes it. */
void
triage_stream_fresh_read (TriageServer *self,
                          const char   *id)
{
  if (self->fresh == NULL)
    return;
  if (self->fresh_read == NULL)
    self->fresh_read = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_hash_table_add (self->fresh_read, g_strdup (id));
}

void
triage_server_setup_deliver_in_batch (TriageServer *self)
{
  triage_store_set_before_commit (self->store, deliver_in_batch, self);
  triage_store_set_insert_status (self->store, insert_status, self);
}

void
triage_server_shutdown_deliver_in_batch (TriageServer *self)
{
  triage_store_set_before_commit (self->store, NULL, NULL);
  triage_store_set_insert_status (self->store, NULL, NULL);
  g_clear_pointer (&self->fresh, g_array_unref);
  g_clear_pointer (&self->fresh_moved, g_hash_table_unref);
  g_clear_pointer (&self->fresh_read, g_hash_table_unref);
  g_clear_pointer (&self->premarked, g_hash_table_unref);
  g_clear_pointer (&self->inserted_delivered, g_free);
}
