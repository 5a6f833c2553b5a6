/* triage-server-wait.c — long-polls: a service's GET ?wait=N held until its
 * request ends, its time is up or the server drains
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-server-notify"

#include "triage-server-protocol.h"

#define MAX_WAIT_SECONDS 60

typedef struct
{
  TriageServer      *server;
  SoupServerMessage *msg;
  char              *id;
  guint              timeout;
  gulong             finished;
} Waiter;

static void
waiter_free (Waiter *waiter)
{
  if (waiter->timeout != 0)
    g_source_remove (waiter->timeout);
  if (waiter->finished != 0)
    g_signal_handler_disconnect (waiter->msg, waiter->finished);
  g_free (waiter->id);
  g_free (waiter);
}

static void
waiter_detach (Waiter *waiter)
{
  GList *list = g_hash_table_lookup (waiter->server->waiters, waiter->id);

  list = g_list_remove (list, waiter);
  if (list == NULL)
    g_hash_table_remove (waiter->server->waiters, waiter->id);
  else
    g_hash_table_insert (waiter->server->waiters, g_strdup (waiter->id), list);
}

static void
waiter_answer (Waiter *waiter)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TriageNotificationRow) row = triage_store_get_notification (waiter->server->store,
                                                                        waiter->id, &error);
  g_autoptr(JsonNode) node = NULL;

  if (error != NULL)
    reply_unread (waiter->msg, error);
  else if (row == NULL)
    reply_error (waiter->msg, ATP_ERROR_NOTIFICATION_NOT_FOUND, "No such notification");
  else if ((node = triage_server_protocol (row->protocol)->agent_view (row)) == NULL)
    reply_unreadable (waiter->msg, row->id);
  else
    reply_text (waiter->msg, 200, atp_json_to_string (node, NULL));
  triage_server_send_when_durable (waiter->server, waiter->msg, TRUE);
}

static gboolean
waiter_timeout (gpointer data)
{
  Waiter *waiter = data;

  waiter->timeout = 0;
  waiter_detach (waiter);
  waiter_answer (waiter);
  waiter_free (waiter);
  return G_SOURCE_REMOVE;
}

static void
waiter_finished (SoupServerMessage *msg,
                 gpointer           data)
{
  Waiter *waiter = data;

  waiter_detach (waiter);
  waiter_free (waiter);
}

/* Answers the long-polls of @id once it has ended. */
void
triage_server_wake_waiters (TriageServer *self,
                            const char   *id)
{
  g_autoptr(TriageNotificationRow) row = NULL;
  g_autoptr(GError) error = NULL;
  GList *list = NULL;
  char *key = NULL;

  if (!g_hash_table_contains (self->waiters, id))
    return;
  row = triage_store_get_notification (self->store, id, &error);
  /* Unread: they wait on (until their time is up, or the next change). */
  if (error != NULL || (row != NULL && !atp_status_is_terminal (row->status)))
    return;
  g_hash_table_steal_extended (self->waiters, id, (gpointer *) &key, (gpointer *) &list);
  g_free (key);
  for (GList *l = list; l != NULL; l = l->next)
    {
      Waiter *waiter = l->data;

      waiter_answer (waiter);
      waiter_free (waiter);
    }
  g_list_free (list);
}

/* The drain: every long-poll gets what it would get at its timeout, now. */
void
triage_server_answer_waiters (TriageServer *self)
{
  g_autoptr(GHashTable) waiters = g_steal_pointer (&self->waiters);
  GHashTableIter iter;
  GList *list;

  self->waiters = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_hash_table_iter_init (&iter, waiters);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &list))
    {
      for (GList *l = list; l != NULL; l = l->next)
        {
          Waiter *waiter = l->data;

          waiter_answer (waiter);
          waiter_free (waiter);
        }
      g_list_free (list);
    }
}

gboolean
triage_server_parse_wait (SoupServerMessage *msg,
                          GHashTable        *query,
                          guint             *wait)
{
  const char *text = query ? g_hash_table_lookup (query, "wait") : NULL;
  guint64 value = 0;

  if (text != NULL && !g_ascii_string_to_unsigned (text, 10, 0, MAX_WAIT_SECONDS, &value, NULL))
    {
      reply_error_field (msg, ATP_ERROR_INVALID_PARAMETER,
                         "wait must be a number of seconds from 0 to 60", "wait");
      return FALSE;
    }
  *wait = (guint) value;
  return TRUE;
}

void
triage_server_wait (TriageServer      *self,
                    SoupServerMessage *msg,
                    const char        *id,
                    guint              wait)
{
  Waiter *waiter = g_new0 (Waiter, 1);
  GList *list;

  waiter->server = self;
  waiter->msg = msg;
  waiter->id = g_strdup (id);
  waiter->timeout = g_timeout_add_seconds (wait, waiter_timeout, waiter);
  waiter->finished = g_signal_connect (msg, "finished", G_CALLBACK (waiter_finished), waiter);
  list = g_hash_table_lookup (self->waiters, id);
  g_hash_table_insert (self->waiters, g_strdup (id), g_list_prepend (list, waiter));
  soup_server_message_pause (msg);
}

static void
free_waiter_list (gpointer data)
{
  g_list_free_full (data, (GDestroyNotify) waiter_free);
}

/* At shutdown: the long-polls left are dropped with their messages. */
void
triage_server_free_waiters (TriageServer *self)
{
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, self->waiters);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      free_waiter_list (value);
      g_hash_table_iter_remove (&iter);
    }
  g_clear_pointer (&self->waiters, g_hash_table_unref);
}
