/* triage-notifier-shown.c — the bubbles up, as the main thread knows them
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-notifier"

#include "triage-notifier-private.h"
#include "triage-wall-timeout.h"

/*
 * The notifier's record of the bubbles it raised and has not seen go: a
 * table of request id (or "notice:" and a key) -> Shown, with the request's
 * deadline and a timer for it, main thread only. The deadline is the wall
 * clock's, so whether it has passed is asked of the wall clock too; the
 * timer (on the wall clock, so it counts a sleep) only says when to ask.
 */

typedef struct
{
  char                     *id;             /* the entry's key */
  gint64                    deadline;       /* Unix microseconds; 0: none */
  guint                     deadline_id;
  TriageNotifierDeadlineFunc func;
  gpointer                  owner;
} Shown;

static void
shown_free (Shown *shown)
{
  g_clear_handle_id (&shown->deadline_id, g_source_remove);
  g_free (shown->id);
  g_free (shown);
}

static void schedule_deadline (Shown *shown);

static gboolean
deadline_cb (gpointer data)
{
  Shown *shown = data;
  g_autofree char *id = NULL;

  shown->deadline_id = 0;
  /* The wall clock was set (a time sync may set it back): not yet, wait
   * again. */
  if (g_get_real_time () < shown->deadline)
    {
      schedule_deadline (shown);
      return G_SOURCE_REMOVE;
    }

  /* The owner may withdraw the bubble, and free @shown. */
  id = g_strdup (shown->id);
  shown->func (shown->owner, id);

  return G_SOURCE_REMOVE;
}

static void
schedule_deadline (Shown *shown)
{
  shown->deadline_id = triage_wall_timeout_add (shown->deadline, deadline_cb, shown);
}

/* Returns: (transfer full): an empty record, for triage_notifier_shown_add() */
GHashTable *
triage_notifier_shown_new (void)
{
  return g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) shown_free);
}

/* Records a bubble raised for @id (again: the deadline is the new one's);
 * once @deadline has passed, @func is called with @owner and @id, unless
 * the bubble is gone or its deadline forgotten by then. */
void
triage_notifier_shown_add (GHashTable                *shown_table,
                           const char                *id,
                           GDateTime                 *deadline,
                           TriageNotifierDeadlineFunc func,
                           gpointer                   owner)
{
  Shown *shown = g_new0 (Shown, 1);

  shown->id = g_strdup (id);
  shown->func = func;
  shown->owner = owner;
  if (deadline != NULL && func != NULL)
    {
      shown->deadline = g_date_time_to_unix (deadline) * G_USEC_PER_SEC +
                        g_date_time_get_microsecond (deadline);
      schedule_deadline (shown);
    }
  /* Replaced, key and all: the key is the entry's own. */
  g_hash_table_replace (shown_table, shown->id, shown);
}

/* Whether @id's bubble is up and past its request's deadline: its answers
 * no longer apply, whether or not it says so yet. */
gboolean
triage_notifier_shown_past_deadline (GHashTable *shown_table,
                                     const char *id)
{
  Shown *shown = g_hash_table_lookup (shown_table, id);

  return shown != NULL && shown->deadline != 0 && g_get_real_time () >= shown->deadline;
}

/* No call for @id's deadline (its bubble settled): FALSE if it has no
 * bubble up. Whether it is past its deadline is still known. */
gboolean
triage_notifier_shown_forget_deadline (GHashTable *shown_table,
                                       const char *id)
{
  Shown *shown = g_hash_table_lookup (shown_table, id);

  if (shown == NULL)
    return FALSE;

  g_clear_handle_id (&shown->deadline_id, g_source_remove);
  return TRUE;
}
