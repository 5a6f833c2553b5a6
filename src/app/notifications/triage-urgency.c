/* triage-urgency.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-urgency"

#include "triage-urgency.h"
#include "triage-wall-timeout.h"

/*
 * A deadline drawing near changes nothing in the inbox, so nothing would
 * say so: this object watches the clock for the inbox. When a pending
 * request's deadline comes within five minutes (triage_request_get_urgent_at())
 * and it has no answer of ours, ::due says so once (the app raises a
 * critical bubble; under do not disturb, its first), unless it already had
 * a bubble while urgent (triage_urgency_mark_told()). ::checked follows
 * every check, for whatever shows the number urgent (the tray).
 *
 * One timer, for the next deadline to come within five minutes, set again
 * whenever the inbox changes (on an idle, so a flood of arrivals costs one
 * pass over the inbox). It is on the wall clock (triage_wall_timeout_add()):
 * a laptop waking after a deadline came near says so on waking, not as
 * late as it slept. When the wall clock is set, it checks early and finds
 * what is due by then.
 */

struct _TriageUrgency
{
  GObject           parent_instance;

  TriageInboxModel *inbox;
  GHashTable       *told;            /* ids that had a bubble while urgent */
  gint64            checked;         /* Unix seconds: acted on up to here */
  gint64            next;            /* Unix seconds of the next check, 0: none */
  guint             timeout_id;
  guint             idle_id;
};

G_DEFINE_FINAL_TYPE (TriageUrgency, triage_urgency, G_TYPE_OBJECT)

enum {
  DUE,
  CHECKED,
  N_SIGNALS
};

static guint signals [N_SIGNALS];

static void schedule (TriageUrgency *self);

static gboolean
left_inbox (gpointer key,
            gpointer value,
            gpointer data)
{
  TriageUrgency *self = data;

  return triage_inbox_model_lookup (self->inbox, key) == NULL;
}

static gboolean
check_cb (gpointer data)
{
  TriageUrgency *self = data;
  GListModel *model = G_LIST_MODEL (self->inbox);
  gint64 now = g_get_real_time () / G_USEC_PER_SEC;
  g_autoptr(GPtrArray) due = g_ptr_array_new_with_free_func (g_object_unref);

  self->timeout_id = 0;
  g_hash_table_foreach_remove (self->told, left_inbox, self);
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(TriageRequest) request = g_list_model_get_item (model, i);
      gint64 at = triage_request_get_urgent_at (request);

      if (at > self->checked && at <= now &&
          triage_request_get_answer_state (request) == TRIAGE_ANSWER_NONE &&
          !g_hash_table_contains (self->told, triage_request_get_id (request)))
        g_ptr_array_add (due, g_steal_pointer (&request));
    }
  self->checked = now;

  /* Said after the pass: a handler may change the inbox. */
  for (guint i = 0; i < due->len; i++)
    g_signal_emit (self, signals [DUE], 0, g_ptr_array_index (due, i));
  g_signal_emit (self, signals [CHECKED], 0);
  schedule (self);

  return G_SOURCE_REMOVE;
}

static void
schedule (TriageUrgency *self)
{
  GListModel *model = G_LIST_MODEL (self->inbox);
  gint64 now = g_get_real_time () / G_USEC_PER_SEC;
  gint64 next = G_MAXINT64;

  if (self->checked == 0)
    self->checked = now;

  /* What came within five minutes since the last check counts too (due at
   * once): one whose second began before this pass (the main loop held, or
   * the inbox changed just before its timer) was never checked again. */
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(TriageRequest) request = g_list_model_get_item (model, i);
      gint64 at = triage_request_get_urgent_at (request);

      if (at > self->checked && at < next)
        next = at;
    }

  g_clear_handle_id (&self->timeout_id, g_source_remove);
  self->next = next != G_MAXINT64 ? next : 0;
  /* At the second it aims for, not before (a whole-second timer,
   * g_timeout_add_seconds (), fired up to a second early, and its check
   * then found nothing due yet: test-urgency failed a CI so). */
  if (self->next != 0)
    self->timeout_id = triage_wall_timeout_add (next * G_USEC_PER_SEC, check_cb, self);
}

static gboolean
schedule_cb (gpointer data)
{
  TriageUrgency *self = data;

  self->idle_id = 0;
  schedule (self);

  return G_SOURCE_REMOVE;
}

static void
on_inbox_items_changed (TriageUrgency *self)
{
  if (self->idle_id == 0)
    self->idle_id = g_idle_add (schedule_cb, self);
}

/* GObject */

static void
triage_urgency_dispose (GObject *object)
{
  TriageUrgency *self = (TriageUrgency *)object;

  g_clear_handle_id (&self->timeout_id, g_source_remove);
  g_clear_handle_id (&self->idle_id, g_source_remove);
  g_clear_object (&self->inbox);

  G_OBJECT_CLASS (triage_urgency_parent_class)->dispose (object);
}

static void
triage_urgency_finalize (GObject *object)
{
  TriageUrgency *self = (TriageUrgency *)object;

  g_clear_pointer (&self->told, g_hash_table_unref);

  G_OBJECT_CLASS (triage_urgency_parent_class)->finalize (object);
}

static void
triage_urgency_class_init (TriageUrgencyClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = triage_urgency_dispose;
  object_class->finalize = triage_urgency_finalize;

  /**
   * TriageUrgency::due:
   * @self: the urgency watch
   * @request: a pending request, unanswered here, whose deadline just came
   *   within five minutes and that had no bubble while urgent
   */
  signals [DUE] =
    g_signal_new ("due", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, TRIAGE_TYPE_REQUEST);

  /**
   * TriageUrgency::checked:
   * @self: the urgency watch
   *
   * A deadline came within five minutes: the number of urgent requests
   * changed though the inbox did not.
   */
  signals [CHECKED] =
    g_signal_new ("checked", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
triage_urgency_init (TriageUrgency *self)
{
  self->told = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
}

/**
 * triage_urgency_new:
 * @inbox: the pending requests to watch
 *
 * Returns: (transfer full): a watch over @inbox's deadlines
 */
TriageUrgency *
triage_urgency_new (TriageInboxModel *inbox)
{
  TriageUrgency *self;

  g_return_val_if_fail (TRIAGE_IS_INBOX_MODEL (inbox), NULL);

  self = g_object_new (TRIAGE_TYPE_URGENCY, NULL);
  self->inbox = g_object_ref (inbox);
  g_signal_connect_object (inbox, "items-changed",
                           G_CALLBACK (on_inbox_items_changed), self, G_CONNECT_SWAPPED);
  on_inbox_items_changed (self);

  return self;
}

/**
 * triage_urgency_mark_told:
 * @self: a #TriageUrgency
 * @notification_id: a request that just had a bubble while urgent
 *
 * ::due will not be emitted for it.
 */
void
triage_urgency_mark_told (TriageUrgency *self,
                          const char    *notification_id)
{
  g_return_if_fail (TRIAGE_IS_URGENCY (self));
  g_return_if_fail (notification_id != NULL);

  g_hash_table_add (self->told, g_strdup (notification_id));
}

gboolean
triage_urgency_was_told (TriageUrgency *self,
                         const char    *notification_id)
{
  g_return_val_if_fail (TRIAGE_IS_URGENCY (self), FALSE);
  g_return_val_if_fail (notification_id != NULL, FALSE);

  return g_hash_table_contains (self->told, notification_id);
}

/**
 * triage_urgency_get_next:
 *
 * Returns: the Unix time of the next check (the next deadline to come
 *   within five minutes), 0 when none is due
 */
gint64
triage_urgency_get_next (TriageUrgency *self)
{
  g_return_val_if_fail (TRIAGE_IS_URGENCY (self), 0);

  return self->next;
}
