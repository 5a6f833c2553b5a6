/* triage-notifier.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-notifier"

#include <glib/gi18n.h>
#include <libnotify/notify.h>
#include <string.h>

#include "triage-decision-format.h"
#include "triage-notifier-private.h"
#include "triage-protocol.h"

/*
 * Desktop notifications (libnotify): one bubble per new request.
 *
 * libnotify talks to the notification server with synchronous D-Bus calls,
 * so all of it runs on a thread of its own with its own main context: the
 * app's main loop never waits for a notification server, and a missing or
 * hung one costs nothing but bubbles. Signals from the server (a button
 * pressed, a bubble closed) arrive on that thread and are passed to the main
 * thread, where the notifier emits ::activated and ::respond.
 *
 * A request's bubble offers its answers until its deadline by the local
 * clock, not until the server says it expired, which an app offline never
 * hears: at the deadline ::expired asks for the bubble to say so (and lose
 * its buttons), and a button pressed after it opens the request instead of
 * answering.
 *
 * Everything a bubble shows is untrusted: the body is escaped for a server
 * with body-markup (it would interpret <b> and links) and sent as it is to
 * one without (it shows "&amp;" as typed), the icon is used only when it
 * is an inline data: URI, decoded here with size limits; a URL is never
 * fetched for a bubble.
 */

typedef struct
{
  gatomicrefcount  ref_count;
  GMainContext    *context;        /* the notifier thread's */
  GMainContext    *main_context;   /* where signals are emitted */
  GMainLoop       *loop;
  GThread         *thread;
  GWeakRef         notifier;
  char            *app_name;
  char            *desktop_entry;
  gint             quitting;       /* atomic: shows still queued are dropped */

  /* notifier thread only */
  gboolean         initialized;
  gboolean         unavailable_logged;
  GHashTable      *bubbles;        /* request id -> NotifyNotification */
} Shared;

struct _TriageNotifier
{
  GObject     parent_instance;

  Shared     *shared;
  GHashTable *shown;               /* request id -> Shown (main thread's view) */
};

G_DEFINE_FINAL_TYPE (TriageNotifier, triage_notifier, G_TYPE_OBJECT)

enum {
  ACTIVATED,
  RESPOND,
  FAILED,
  EXPIRED,
  N_SIGNALS
};

static guint signals [N_SIGNALS];

/* Main thread: ::expired for a bubble whose request's deadline passed. */
static void
on_deadline (gpointer    owner,
             const char *id)
{
  g_signal_emit (owner, signals [EXPIRED], 0, id);
}

static Shared *
shared_ref (Shared *shared)
{
  g_atomic_ref_count_inc (&shared->ref_count);
  return shared;
}

static void
shared_unref (Shared *shared)
{
  if (!g_atomic_ref_count_dec (&shared->ref_count))
    return;

  g_weak_ref_clear (&shared->notifier);
  g_clear_pointer (&shared->loop, g_main_loop_unref);
  g_clear_pointer (&shared->context, g_main_context_unref);
  g_clear_pointer (&shared->main_context, g_main_context_unref);
  g_free (shared->app_name);
  g_free (shared->desktop_entry);
  g_free (shared);
}

/* Notifier thread */

typedef struct
{
  char *key;
  char *label;
} Button;

typedef struct
{
  Shared    *shared;
  char      *id;
  char      *summary;
  char      *body;           /* plain text */
  const char *category;      /* static */
  gboolean   urgent;
  GArray    *buttons;        /* Button */
  GBytes    *icon;           /* nullable, encoded */
  char      *icon_type;
} ShowJob;

static void
button_clear (Button *button)
{
  g_free (button->key);
  g_free (button->label);
}

static void
show_job_free (ShowJob *job)
{
  shared_unref (job->shared);
  g_free (job->id);
  g_free (job->summary);
  g_free (job->body);
  g_clear_pointer (&job->buttons, g_array_unref);
  g_clear_pointer (&job->icon, g_bytes_unref);
  g_free (job->icon_type);
  g_free (job);
}

typedef struct
{
  Shared *shared;
  char   *id;
  char   *action;           /* NULL: closed */
  gboolean failed;          /* never shown: no notification server */
} ActionEvent;

static void
action_event_free (ActionEvent *event)
{
  shared_unref (event->shared);
  g_free (event->id);
  g_free (event->action);
  g_free (event);
}

/* Main thread: a button was pressed or a bubble closed. */
static gboolean
dispatch_action_cb (gpointer data)
{
  ActionEvent *event = data;
  g_autoptr(TriageNotifier) self = g_weak_ref_get (&event->shared->notifier);
  gboolean stale;

  if (self == NULL)
    return G_SOURCE_REMOVE;

  if (event->action == NULL)
    {
      g_hash_table_remove (self->shown, event->id);
      if (event->failed)
        g_signal_emit (self, signals [FAILED], 0, event->id);
      return G_SOURCE_REMOVE;
    }

  /* A bubble whose button was pressed is gone. */
  stale = triage_notifier_shown_past_deadline (self->shown, event->id);
  g_hash_table_remove (self->shown, event->id);

  /* An answer pressed after the deadline (the bubble not yet told, or the
   * press on its way) is not sent: the request opens instead. */
  if (g_str_has_prefix (event->action, TRIAGE_NOTIFIER_ACTION_RESPOND) && !stale)
    g_signal_emit (self, signals [RESPOND], 0, event->id,
                   event->action + strlen (TRIAGE_NOTIFIER_ACTION_RESPOND));
  else
    {
      if (stale)
        g_debug ("An answer from the bubble of %s, past its deadline, not sent", event->id);
      g_signal_emit (self, signals [ACTIVATED], 0, event->id);
    }

  return G_SOURCE_REMOVE;
}

static void
post_event_full (Shared     *shared,
                 const char *id,
                 const char *action,
                 gboolean    failed)
{
  ActionEvent *event = g_new0 (ActionEvent, 1);

  event->shared = shared_ref (shared);
  event->id = g_strdup (id);
  event->action = g_strdup (action);
  event->failed = failed;
  g_main_context_invoke_full (shared->main_context, G_PRIORITY_DEFAULT,
                              dispatch_action_cb, event, (GDestroyNotify) action_event_free);
}

static void
post_event (Shared     *shared,
            const char *id,
            const char *action)
{
  post_event_full (shared, id, action, FALSE);
}

static void
on_bubble_action (NotifyNotification *bubble,
                  char               *action,
                  gpointer            user_data)
{
  Shared *shared = user_data;
  const char *id = g_object_get_data (G_OBJECT (bubble), "triage-request-id");

  post_event (shared, id, action);
}

static void
on_bubble_closed (NotifyNotification *bubble,
                  Shared             *shared)
{
  const char *id = g_object_get_data (G_OBJECT (bubble), "triage-request-id");

  /* Only if it is still the bubble of record (not one replaced meanwhile). */
  if (g_hash_table_lookup (shared->bubbles, id) == bubble)
    {
      post_event (shared, id, NULL);
      g_hash_table_remove (shared->bubbles, id);
    }
}

static gboolean
thread_ensure_init (Shared *shared)
{
  if (!shared->initialized)
    shared->initialized = notify_init (shared->app_name);

  return shared->initialized;
}

static void
log_unavailable_once (Shared     *shared,
                      const char *message)
{
  if (shared->unavailable_logged)
    return;

  shared->unavailable_logged = TRUE;
  g_message ("Desktop notifications are unavailable (%s); requests still appear in the window",
             message);
}

static gboolean
thread_show_cb (gpointer data)
{
  ShowJob *job = data;
  Shared *shared = job->shared;
  g_autoptr(GObject) bubble_ref = NULL;
  NotifyNotification *bubble;
  g_autofree char *body = NULL;
  g_autoptr(GError) error = NULL;
  TriageNotifierServerCaps caps;

  /* Each show is a call that waits on the notification server: a quitting
   * app does not make anyone wait for bubbles nobody will answer. */
  if (g_atomic_int_get (&shared->quitting))
    return G_SOURCE_REMOVE;

  if (!thread_ensure_init (shared))
    {
      log_unavailable_once (shared, "libnotify could not be initialised");
      post_event_full (shared, job->id, NULL, TRUE);
      return G_SOURCE_REMOVE;
    }

  caps = triage_notifier_get_server_caps ();
  body = triage_notifier_dup_server_body (&caps, job->body,
                                          g_str_equal (job->category, TRIAGE_NOTIFIER_CATEGORY));
  bubble = g_hash_table_lookup (shared->bubbles, job->id);
  if (bubble != NULL)
    {
      /* Same request again (a resync): refresh the bubble in place. */
      bubble_ref = g_object_ref (G_OBJECT (bubble));
      notify_notification_update (bubble, job->summary, body, NULL);
      notify_notification_clear_actions (bubble);
    }
  else
    {
      bubble = notify_notification_new (job->summary, body, NULL);
      bubble_ref = G_OBJECT (bubble);
      g_object_set_data_full (G_OBJECT (bubble), "triage-request-id", g_strdup (job->id), g_free);
      g_signal_connect (bubble, "closed", G_CALLBACK (on_bubble_closed), shared);
    }

  notify_notification_set_app_name (bubble, shared->app_name);
  notify_notification_set_category (bubble, job->category);
  notify_notification_set_urgency (bubble, job->urgent ? NOTIFY_URGENCY_CRITICAL
                                                       : NOTIFY_URGENCY_NORMAL);
  notify_notification_set_hint_string (bubble, "desktop-entry", shared->desktop_entry);

  if (job->icon != NULL)
    {
      g_autoptr(GError) icon_error = NULL;
      g_autoptr(GdkPixbuf) pixbuf = NULL;

      pixbuf = triage_notifier_load_icon (job->icon, job->icon_type, &icon_error);
      if (pixbuf != NULL)
        notify_notification_set_image_from_pixbuf (bubble, pixbuf);
      else
        g_debug ("Service icon not shown: %s", icon_error->message);
    }

  for (guint i = 0; i < job->buttons->len; i++)
    {
      Button *button = &g_array_index (job->buttons, Button, i);

      notify_notification_add_action (bubble, button->key, button->label,
                                      on_bubble_action, shared_ref (shared),
                                      (GFreeFunc) shared_unref);
    }

  if (!notify_notification_show (bubble, &error))
    {
      log_unavailable_once (shared, error->message);
      g_hash_table_remove (shared->bubbles, job->id);
      post_event_full (shared, job->id, NULL, TRUE);
      return G_SOURCE_REMOVE;
    }

  g_hash_table_replace (shared->bubbles, g_strdup (job->id), g_object_ref (bubble));

  return G_SOURCE_REMOVE;
}

typedef struct
{
  Shared *shared;
  char   *id;
} CloseJob;

static void
close_job_free (CloseJob *job)
{
  shared_unref (job->shared);
  g_free (job->id);
  g_free (job);
}

static gboolean
thread_close_cb (gpointer data)
{
  CloseJob *job = data;
  Shared *shared = job->shared;
  NotifyNotification *bubble = g_hash_table_lookup (shared->bubbles, job->id);
  g_autoptr(GError) error = NULL;

  if (bubble == NULL)
    return G_SOURCE_REMOVE;

  g_signal_handlers_disconnect_by_func (bubble, on_bubble_closed, shared);
  if (!notify_notification_close (bubble, &error))
    g_debug ("Could not withdraw a bubble: %s", error->message);
  g_hash_table_remove (shared->bubbles, job->id);

  return G_SOURCE_REMOVE;
}

typedef struct
{
  Shared *shared;
  char   *id;
  char   *body;     /* plain text */
} SettleJob;

static void
settle_job_free (SettleJob *job)
{
  shared_unref (job->shared);
  g_free (job->id);
  g_free (job->body);
  g_free (job);
}

static gboolean
thread_settle_cb (gpointer data)
{
  SettleJob *job = data;
  Shared *shared = job->shared;
  NotifyNotification *bubble = g_hash_table_lookup (shared->bubbles, job->id);
  g_autofree char *summary = NULL;
  g_autofree char *body = NULL;
  g_autoptr(GError) error = NULL;
  TriageNotifierServerCaps caps;

  if (bubble == NULL)
    return G_SOURCE_REMOVE;

  /* Replaced in place: the same title, what became of it, no buttons (its
   * answers no longer apply), no longer urgent. */
  g_object_get (bubble, "summary", &summary, NULL);
  caps = triage_notifier_get_server_caps ();
  body = triage_notifier_dup_server_body (&caps, job->body, FALSE);
  notify_notification_update (bubble, summary, body, NULL);
  notify_notification_clear_actions (bubble);
  notify_notification_set_urgency (bubble, NOTIFY_URGENCY_NORMAL);
  if (!notify_notification_show (bubble, &error))
    g_debug ("Could not say what became of a request in its bubble: %s", error->message);

  return G_SOURCE_REMOVE;
}

static gboolean
thread_quit_cb (gpointer data)
{
  Shared *shared = data;

  g_main_loop_quit (shared->loop);

  return G_SOURCE_REMOVE;
}

static gpointer
notifier_thread (gpointer data)
{
  Shared *shared = data;

  g_main_context_push_thread_default (shared->context);

  shared->bubbles = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
  g_main_loop_run (shared->loop);

  /* Jobs queued before the quit still run (a withdraw must not be lost;
   * shows return at once) and release what they hold. */
  while (g_main_context_iteration (shared->context, FALSE))
    ;

  /* Bubbles of a quitting app stay up: the server keeps them; we only let go. */
  g_clear_pointer (&shared->bubbles, g_hash_table_unref);
  if (shared->initialized)
    notify_uninit ();

  g_main_context_pop_thread_default (shared->context);
  shared_unref (shared);

  return NULL;
}

/* Main thread API */

static void
triage_notifier_finalize (GObject *object)
{
  TriageNotifier *self = (TriageNotifier *)object;
  Shared *shared = self->shared;
  GThread *thread = shared->thread;

  g_atomic_int_set (&shared->quitting, TRUE);
  g_main_context_invoke (shared->context, thread_quit_cb, shared);
  g_thread_join (thread);
  shared_unref (shared);
  g_clear_pointer (&self->shown, g_hash_table_unref);

  G_OBJECT_CLASS (triage_notifier_parent_class)->finalize (object);
}

static void
triage_notifier_class_init (TriageNotifierClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = triage_notifier_finalize;

  /**
   * TriageNotifier::activated:
   * @self: the notifier
   * @notification_id: the request whose bubble was clicked
   *
   * The bubble, or its Open button, was clicked: show the request.
   */
  signals [ACTIVATED] =
    g_signal_new ("activated",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_STRING);

  /**
   * TriageNotifier::respond:
   * @self: the notifier
   * @notification_id: the request
   * @answer_key: the key of the #TriageBubbleAnswer whose button was pressed
   *
   * Answer the request as that button says (its protocol's
   * triage_protocol_get_bubble_answer(), through the outbox).
   */
  signals [RESPOND] =
    g_signal_new ("respond",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, G_TYPE_STRING, G_TYPE_STRING);

  /**
   * TriageNotifier::failed:
   * @self: the notifier
   * @notification_id: the request (or "notice:" and a key) whose bubble
   *   could not be shown
   *
   * No bubble showed (no notification server answers): what it had to say
   * must be said elsewhere if it matters.
   */
  signals [FAILED] =
    g_signal_new ("failed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_STRING);

  /**
   * TriageNotifier::expired:
   * @self: the notifier
   * @notification_id: a request whose bubble is up
   *
   * The request's deadline has passed by the local clock, and its bubble
   * still offers answers: triage_notifier_settle() it (or withdraw it).
   * Buttons pressed from now on open the request (::activated).
   */
  signals [EXPIRED] =
    g_signal_new ("expired",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_STRING);
}

static void
triage_notifier_init (TriageNotifier *self)
{
  self->shown = triage_notifier_shown_new ();
}

/**
 * triage_notifier_new:
 * @app_name: the name shown with bubbles
 * @desktop_entry: the desktop file id, without .desktop
 *
 * Returns: (transfer full): a notifier with its own thread
 */
TriageNotifier *
triage_notifier_new (const char *app_name,
                     const char *desktop_entry)
{
  TriageNotifier *self = g_object_new (TRIAGE_TYPE_NOTIFIER, NULL);
  Shared *shared = g_new0 (Shared, 1);

  g_atomic_ref_count_init (&shared->ref_count);
  shared->context = g_main_context_new ();
  shared->main_context = g_main_context_ref_thread_default ();
  shared->loop = g_main_loop_new (shared->context, FALSE);
  shared->app_name = g_strdup (app_name);
  shared->desktop_entry = g_strdup (desktop_entry);
  g_weak_ref_init (&shared->notifier, self);

  self->shared = shared;
  shared->thread = g_thread_new ("triage-notifier", notifier_thread, shared_ref (shared));

  return self;
}

/**
 * triage_notifier_show:
 * @self: a #TriageNotifier
 * @notification: a new request
 * @urgent: whether it is urgent (time-sensitive, or due within five minutes)
 *
 * Raises a bubble for @notification (or refreshes the one it has), best
 * effort: without a notification server nothing happens but one log line.
 */
void
triage_notifier_show (TriageNotifier  *self,
                      AtpNotification *notification,
                      gboolean         urgent)
{
  g_autoptr(GPtrArray) answers = NULL;
  TriageProtocol *protocol;
  ShowJob *job;
  Button button;

  g_return_if_fail (TRIAGE_IS_NOTIFIER (self));
  g_return_if_fail (notification != NULL);

  job = g_new0 (ShowJob, 1);
  job->shared = shared_ref (self->shared);
  job->id = g_strdup (notification->id);
  job->summary = triage_notifier_dup_summary (notification);
  job->body = triage_notifier_dup_plain_body (notification);
  job->category = TRIAGE_NOTIFIER_CATEGORY;
  job->urgent = urgent;
  job->buttons = g_array_new (FALSE, TRUE, sizeof (Button));
  g_array_set_clear_func (job->buttons, (GDestroyNotify) button_clear);

  /* The default action (clicking the bubble) opens the request. */
  button.key = g_strdup (TRIAGE_NOTIFIER_ACTION_DEFAULT);
  button.label = g_strdup (_("Open"));
  g_array_append_val (job->buttons, button);

  /* The answers the request's protocol lets a bubble give (none: Open only;
   * none either when the bubble does not show the request whole). */
  protocol = triage_protocol_for_request (notification);
  if (protocol != NULL)
    answers = triage_protocol_dup_bubble_answers (protocol, notification);
  for (guint i = 0; answers != NULL && i < answers->len; i++)
    {
      TriageBubbleAnswer *answer = g_ptr_array_index (answers, i);

      button.key = g_strconcat (TRIAGE_NOTIFIER_ACTION_RESPOND, answer->key, NULL);
      button.label = g_strdup (answer->label);
      g_array_append_val (job->buttons, button);
    }

  button.key = g_strdup (TRIAGE_NOTIFIER_ACTION_OPEN);
  button.label = g_strdup (_("Open"));
  g_array_append_val (job->buttons, button);

  if (notification->service.icon != NULL)
    {
      g_autoptr(GError) error = NULL;

      job->icon = triage_notifier_decode_icon (notification->service.icon, &job->icon_type, &error);
      if (job->icon == NULL)
        g_debug ("Service icon of %s not shown: %s", notification->id, error->message);
    }

  triage_notifier_shown_add (self->shown, notification->id, notification->deadline,
                             on_deadline, self);
  g_main_context_invoke_full (self->shared->context, G_PRIORITY_DEFAULT,
                              thread_show_cb, job, (GDestroyNotify) show_job_free);
}

/**
 * triage_notifier_show_notice:
 * @self: a #TriageNotifier
 * @key: names the notice; showing one with the same key again replaces it
 * @summary: its title, plain text
 * @body: its text, plain text
 *
 * Raises a bubble about the app itself (not a request), category
 * %TRIAGE_NOTIFIER_NOTICE_CATEGORY, best effort like the others. Clicking
 * it emits ::activated with "notice:" and @key; triage_notifier_withdraw()
 * with "notice:" and @key closes it.
 */
void
triage_notifier_show_notice (TriageNotifier *self,
                             const char     *key,
                             const char     *summary,
                             const char     *body)
{
  ShowJob *job;
  Button button;

  g_return_if_fail (TRIAGE_IS_NOTIFIER (self));
  g_return_if_fail (key != NULL && summary != NULL && body != NULL);

  job = g_new0 (ShowJob, 1);
  job->shared = shared_ref (self->shared);
  job->id = g_strconcat (TRIAGE_NOTIFIER_NOTICE_PREFIX, key, NULL);
  job->summary = triage_format_shown_text (summary, 0);
  job->body = triage_notifier_dup_bubble_text (body);
  job->category = TRIAGE_NOTIFIER_NOTICE_CATEGORY;
  job->buttons = g_array_new (FALSE, TRUE, sizeof (Button));
  g_array_set_clear_func (job->buttons, (GDestroyNotify) button_clear);

  /* Clicking it emits ::activated with "notice:KEY". */
  button.key = g_strdup (TRIAGE_NOTIFIER_ACTION_DEFAULT);
  button.label = g_strdup (_("Open Triage"));
  g_array_append_val (job->buttons, button);

  /* Recorded like a request's, so it can be withdrawn once it no longer holds. */
  triage_notifier_shown_add (self->shown, job->id, NULL, NULL, NULL);
  g_main_context_invoke_full (self->shared->context, G_PRIORITY_DEFAULT,
                              thread_show_cb, job, (GDestroyNotify) show_job_free);
}

/**
 * triage_notifier_withdraw:
 * @self: a #TriageNotifier
 * @notification_id: a request answered here, or one nothing more is known of
 *
 * Closes its bubble, if it has one.
 */
void
triage_notifier_withdraw (TriageNotifier *self,
                          const char     *notification_id)
{
  CloseJob *job;

  g_return_if_fail (TRIAGE_IS_NOTIFIER (self));
  g_return_if_fail (notification_id != NULL);

  if (!g_hash_table_remove (self->shown, notification_id))
    return;

  job = g_new0 (CloseJob, 1);
  job->shared = shared_ref (self->shared);
  job->id = g_strdup (notification_id);
  g_main_context_invoke_full (self->shared->context, G_PRIORITY_DEFAULT,
                              thread_close_cb, job, (GDestroyNotify) close_job_free);
}

/**
 * triage_notifier_settle:
 * @self: a #TriageNotifier
 * @notification_id: a request answered elsewhere, withdrawn or expired
 * @outcome: what became of it, plain text ("Answered ‘Stop’ by alex on
 *   another device at 17:12")
 *
 * A bubble still on screen says @outcome (cut to
 * %TRIAGE_NOTIFIER_MAX_SETTLED_BODY characters) instead of the request's
 * description, with no buttons left to answer; it can be said again as more
 * is learnt (who answered, and what). A bubble the person closed stays
 * closed; none is raised.
 */
void
triage_notifier_settle (TriageNotifier *self,
                        const char     *notification_id,
                        const char     *outcome)
{
  g_autofree char *cut = NULL;
  SettleJob *job;

  g_return_if_fail (TRIAGE_IS_NOTIFIER (self));
  g_return_if_fail (notification_id != NULL);
  g_return_if_fail (outcome != NULL);

  /* Settled: its deadline no longer has anything to change in it. */
  if (!triage_notifier_shown_forget_deadline (self->shown, notification_id))
    return;

  job = g_new0 (SettleJob, 1);
  job->shared = shared_ref (self->shared);
  job->id = g_strdup (notification_id);
  /* A reason is the service's or the server's words, of any length: a
   * bubble says a few lines (the window says it all). */
  cut = triage_format_cut_text (outcome, TRIAGE_NOTIFIER_MAX_SETTLED_BODY - 1);
  job->body = triage_notifier_dup_bubble_text (cut);
  g_main_context_invoke_full (self->shared->context, G_PRIORITY_DEFAULT,
                              thread_settle_cb, job, (GDestroyNotify) settle_job_free);
}

guint
triage_notifier_get_n_shown (TriageNotifier *self)
{
  g_return_val_if_fail (TRIAGE_IS_NOTIFIER (self), 0);

  return g_hash_table_size (self->shown);
}

