/* triage-bubble-throttle.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-bubble-throttle"

#include "triage-bubble-throttle.h"

/*
 * Bubble flood control. A flood (a reconnect after a day away, a runaway
 * agent) is not thousands of bubbles: a few
 * (%TRIAGE_BUBBLE_BURST_SIZE in %TRIAGE_BUBBLE_BURST_SECONDS), then, once the
 * flood has stopped for %TRIAGE_BUBBLE_QUIET_SECONDS, ::flood-ended with how
 * many more wait without a bubble of their own, for one bubble that says so.
 * The count goes on across floods until the person has looked
 * (triage_bubble_throttle_forget_held_back()). Urgent requests do not ask:
 * they always get their own bubble.
 */

struct _TriageBubbleThrottle
{
  GObject  parent_instance;

  gint64   times[TRIAGE_BUBBLE_BURST_SIZE];   /* the last bubbles admitted, monotonic usec */
  guint    held_back;                         /* requests without a bubble of their own */
  guint    quiet_id;
};

G_DEFINE_FINAL_TYPE (TriageBubbleThrottle, triage_bubble_throttle, G_TYPE_OBJECT)

enum {
  FLOOD_ENDED,
  N_SIGNALS
};

static guint signals [N_SIGNALS];

static gboolean
quiet_cb (gpointer data)
{
  TriageBubbleThrottle *self = data;

  self->quiet_id = 0;
  g_signal_emit (self, signals [FLOOD_ENDED], 0, self->held_back);

  return G_SOURCE_REMOVE;
}

static void
triage_bubble_throttle_dispose (GObject *object)
{
  TriageBubbleThrottle *self = (TriageBubbleThrottle *)object;

  g_clear_handle_id (&self->quiet_id, g_source_remove);

  G_OBJECT_CLASS (triage_bubble_throttle_parent_class)->dispose (object);
}

static void
triage_bubble_throttle_class_init (TriageBubbleThrottleClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = triage_bubble_throttle_dispose;

  /**
   * TriageBubbleThrottle::flood-ended:
   * @self: the throttle
   * @held_back: how many requests have had no bubble of their own since the
   *   person last looked
   */
  signals [FLOOD_ENDED] =
    g_signal_new ("flood-ended", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
}

static void
triage_bubble_throttle_init (TriageBubbleThrottle *self)
{
}

TriageBubbleThrottle *
triage_bubble_throttle_new (void)
{
  return g_object_new (TRIAGE_TYPE_BUBBLE_THROTTLE, NULL);
}

/**
 * triage_bubble_throttle_admit:
 * @self: a #TriageBubbleThrottle
 *
 * Asks for one more bubble: admitted (and counted) while the burst
 * allowance lasts; else counted as held back, and ::flood-ended follows
 * once no bubble has been asked for a while.
 *
 * Returns: whether the bubble may be raised
 */
gboolean
triage_bubble_throttle_admit (TriageBubbleThrottle *self)
{
  gint64 now = g_get_monotonic_time ();
  guint oldest = 0;

  g_return_val_if_fail (TRIAGE_IS_BUBBLE_THROTTLE (self), FALSE);

  for (guint i = 1; i < G_N_ELEMENTS (self->times); i++)
    if (self->times[i] < self->times[oldest])
      oldest = i;

  if (self->times[oldest] == 0 ||
      now - self->times[oldest] >= TRIAGE_BUBBLE_BURST_SECONDS * G_USEC_PER_SEC)
    {
      self->times[oldest] = now;
      return TRUE;
    }

  self->held_back++;
  g_clear_handle_id (&self->quiet_id, g_source_remove);
  self->quiet_id = g_timeout_add_seconds (TRIAGE_BUBBLE_QUIET_SECONDS, quiet_cb, self);

  return FALSE;
}

guint
triage_bubble_throttle_get_held_back (TriageBubbleThrottle *self)
{
  g_return_val_if_fail (TRIAGE_IS_BUBBLE_THROTTLE (self), 0);

  return self->held_back;
}

/**
 * triage_bubble_throttle_forget_held_back:
 * @self: a #TriageBubbleThrottle
 *
 * The person looked at the window: what the summary counted is seen.
 */
void
triage_bubble_throttle_forget_held_back (TriageBubbleThrottle *self)
{
  g_return_if_fail (TRIAGE_IS_BUBBLE_THROTTLE (self));

  self->held_back = 0;
}
