/* triage-application.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-application"

#include <glib/gi18n.h>
#include <string.h>

#include "triage-application.h"
#include "triage-autostart.h"
#include "triage-bubble-throttle.h"
#include "triage-connection.h"
#include "triage-decision-outcome.h"
#include "triage-lookups.h"
#include "triage-dnd.h"
#include "triage-preferences-window.h"
#include "triage-protocol.h"
#include "triage-tray.h"
#include "triage-urgency.h"

/*
 * The application: one instance per session (D-Bus activatable), alive in
 * the background while it has a connection to keep (g_application_hold),
 * owner of everything that outlives a window: the settings, the store and
 * its outbox, the inbox model, the notifier, the tray and the connection.
 * It wires parts that each do one job:
 *
 * - TriageConnection: finds or starts the local server, or takes a remote
 *   server's token from the keyring; retries; its stream's events and state;
 * - TriageLookups: what became of requests settled while the app was away,
 *   and the answers they got elsewhere;
 * - TriageUrgency: deadlines coming within five minutes;
 * - TriageBubbleThrottle: a flood of requests is a few bubbles and a summary;
 * - TriageAutostart: the autostart entry, as the setting says.
 *
 * Start-up: open the store, show the inbox it remembers, load the outbox,
 * then connect. The connection's events become inbox changes, bubbles and
 * stored history; its state becomes the window's connection bar.
 *
 * Every answer, from the window or from a bubble, goes through the outbox:
 * validated, stored, then sent.
 */

struct _TriageApplication
{
  AdwApplication         parent_instance;

  GSettings             *settings;
  TriageStore           *store;
  TriageOutbox          *outbox;
  TriageInboxModel      *inbox;
  TriageNotifier        *notifier;
  TriageCredentials     *credentials;
  TriageConnection      *connection;
  TriageLookups         *lookups;
  TriageUrgency         *urgency;
  TriageBubbleThrottle  *throttle;
  TriageAutostart       *autostart;
  TriageTray            *tray;
  TriageWindow          *window;
  TriageHistoryDb       *history_db;          /* open once the store is */
  TriageReadState       *read_state;
  GCancellable          *cancellable;         /* the whole app's work */

  gboolean               ready;               /* store opened, inbox and outbox loaded */
  gboolean               held;
  gboolean               resynced;            /* the inbox has been compared with the server once */
  gboolean               store_failure_told;  /* a write failed and the person was told; cleared
                                               * by the next write that succeeds */
  char                  *loaded_server;       /* whose requests and answers are loaded */
  char                  *pending_open;        /* a request asked for before it arrived */
  guint                  pending_open_id;
  guint                  tray_update_id;
  guint                  inbox_release_id;    /* the inbox held for a resync, released then */
  guint                  background_check_id; /* saying once that it runs in the background */
  guint                  prune_id;            /* forgetting old history, daily */
};

/* How long a tray has, after start-up or the window closing, to show the
 * icon before the app says it runs in the background. */
#define BACKGROUND_NOTICE_DELAY_SECONDS 3

G_DEFINE_FINAL_TYPE (TriageApplication, triage_application, ADW_TYPE_APPLICATION)

enum {
  PROP_0,
  PROP_CONNECTION,
  PROP_READY,
  N_PROPS
};

static GParamSpec *properties [N_PROPS];

static TriageRequest *find_request (TriageApplication *self,
                                    const char        *notification_id);

/* Holding: alive in the background while there is a connection to keep */

static void
update_hold (TriageApplication *self)
{
  TriageConnectionState state = triage_connection_get_state (self->connection);
  gboolean want;

  /* Kept while there is a connection to keep or a retry on its way (an
   * offline network included: the stream comes back by itself); let go when
   * only the person can help (refused token, nothing scheduled), so closing
   * the window then quits. */
  want = g_settings_get_boolean (self->settings, "run-in-background") &&
         state != TRIAGE_CONNECTION_AUTH_FAILED &&
         !(state == TRIAGE_CONNECTION_OFFLINE &&
           triage_connection_get_retry_at (self->connection) == 0);

  if (want && !self->held)
    g_application_hold (G_APPLICATION (self));
  else if (!want && self->held)
    g_application_release (G_APPLICATION (self));

  self->held = want;
}

/* A resync's requests are told to the window's list as one change. */
static gboolean
release_inbox_cb (gpointer data)
{
  TriageApplication *self = data;

  self->inbox_release_id = 0;
  triage_inbox_model_release (self->inbox);
  return G_SOURCE_REMOVE;
}

static void
release_inbox (TriageApplication *self)
{
  if (self->inbox_release_id == 0)
    return;
  g_clear_handle_id (&self->inbox_release_id, g_source_remove);
  triage_inbox_model_release (self->inbox);
}

static void
on_connection_changed (TriageApplication *self)
{
  TriageConnectionState state = triage_connection_get_state (self->connection);

  release_inbox (self);

  if (self->window != NULL)
    triage_window_set_connection (self->window, state,
                                  triage_connection_get_message (self->connection),
                                  triage_connection_get_retry_at (self->connection));

  triage_outbox_set_online (self->outbox, state == TRIAGE_CONNECTION_CONNECTED);
  update_hold (self);
}

static void
on_connection_state (TriageApplication *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_CONNECTION]);
}

/* Answers and lookups go through the client of the current connection. */
static void
on_connection_client (TriageApplication *self)
{
  AtpClient *client = triage_connection_get_client (self->connection);

  triage_outbox_set_client (self->outbox, client);
  triage_lookups_set_client (self->lookups, client);
}

/* Tray and urgency */

static gboolean
tray_update_cb (gpointer data)
{
  TriageApplication *self = data;
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func ((GDestroyNotify) triage_tray_item_free);
  GListModel *model = G_LIST_MODEL (self->inbox);
  guint n = g_list_model_get_n_items (model);

  self->tray_update_id = 0;
  if (self->tray == NULL)
    return G_SOURCE_REMOVE;

  for (guint i = 0; i < n && i < TRIAGE_TRAY_MAX_MENU_REQUESTS; i++)
    {
      g_autoptr(TriageRequest) request = g_list_model_get_item (model, i);
      g_autofree char *title = triage_protocol_dup_marked (triage_request_get_notification (request)->protocol,
                                                           triage_request_get_title (request));

      g_ptr_array_add (items, triage_tray_item_new (triage_request_get_id (request), title,
                                                    triage_request_get_deadline (request)));
    }

  triage_tray_set_pending (self->tray, n, triage_inbox_model_count_urgent (self->inbox, NULL) > 0,
                           items);

  return G_SOURCE_REMOVE;
}

static void
queue_tray_update (TriageApplication *self)
{
  if (self->tray_update_id == 0)
    self->tray_update_id = g_idle_add (tray_update_cb, self);
}

/* A request opened (from a bubble, D-Bus activation) before the app had
 * loaded it is shown once it arrives; after the first resync, one that still
 * is not there is no longer waiting. */
static void
open_pending_request (TriageApplication *self,
                      gboolean           give_up)
{
  if (self->pending_open == NULL)
    return;

  if (self->window == NULL)
    g_clear_pointer (&self->pending_open, g_free);   /* closed meanwhile: nobody looks */
  else if (triage_window_show_request (self->window, self->pending_open))
    g_clear_pointer (&self->pending_open, g_free);
  else if (give_up)
    {
      g_clear_pointer (&self->pending_open, g_free);
      triage_window_add_toast (self->window, _("This request is no longer waiting for an answer"));
    }
}

static gboolean
open_pending_cb (gpointer data)
{
  TriageApplication *self = data;

  self->pending_open_id = 0;
  open_pending_request (self, FALSE);

  return G_SOURCE_REMOVE;
}

static void
on_inbox_items_changed (TriageApplication *self)
{
  queue_tray_update (self);

  /* Not from inside the model's signal: the window's list follows it too. */
  if (self->pending_open != NULL && self->pending_open_id == 0)
    self->pending_open_id = g_idle_add (open_pending_cb, self);
}

/* Requests coming and going */

/* A write to the local database failed (a full disk, an I/O error): the
 * request is still shown and can be answered, and the server keeps it
 * pending, so the next start has it again; but the person must know that
 * the history is not being kept. Told once until a write succeeds again. */
static void
store_write_done (TriageApplication *self,
                  const char        *what,
                  const GError      *error)
{
  if (error == NULL)
    {
      self->store_failure_told = FALSE;
      return;
    }
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  g_message ("Could not record %s: %s", what, error->message);
  if (self->store_failure_told || self->notifier == NULL)
    return;
  self->store_failure_told = TRUE;
  {
    g_autofree char *text = g_strdup_printf (_("Requests are still shown, but not kept "
                                               "until it can write again (is the disk "
                                               "full?): %s"), error->message);

    triage_notifier_show_notice (self->notifier, "store-write",
                                 _("Triage cannot write its database"), text);
  }
}

static void
save_done_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(TriageApplication) self = user_data;
  g_autoptr(GError) error = NULL;

  triage_store_save_notification_finish (TRIAGE_STORE (object), result, &error);
  store_write_done (self, "a request", error);
}

static void
outcome_done_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(TriageApplication) self = user_data;
  g_autoptr(GError) error = NULL;

  triage_store_set_outcome_finish (TRIAGE_STORE (object), result, &error);
  store_write_done (self, "what became of a request", error);
}

static void
response_done_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(TriageApplication) self = user_data;
  g_autoptr(GError) error = NULL;

  triage_store_set_response_finish (TRIAGE_STORE (object), result, &error);
  store_write_done (self, "the answer given elsewhere", error);
}

static TriageAnswerState
answer_state_from_outbox (TriageApplication *self,
                          const char        *notification_id)
{
  if (triage_outbox_answer_failed (self->outbox, notification_id))
    return TRIAGE_ANSWER_FAILED;
  if (triage_outbox_has_answer (self->outbox, notification_id))
    return TRIAGE_ANSWER_QUEUED;
  return TRIAGE_ANSWER_NONE;
}

static void
on_flood_ended (TriageApplication *self,
                guint              held_back)
{
  g_autofree char *summary = NULL;

  /* Translators: a bubble for requests that came too many at once for one each */
  summary = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u more request is waiting",
                                          "%u more requests are waiting", held_back),
                             held_back);
  triage_notifier_show_notice (self->notifier, "more", summary,
                               _("They came too many at once for a notification each."));
}

static void
maybe_notify (TriageApplication *self,
              TriageRequest     *request)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  AtpNotification *notification = triage_request_get_notification (request);
  gboolean urgent = triage_request_is_urgent (request, now);

  if (self->notifier == NULL ||
      !g_settings_get_boolean (self->settings, "notifications-enabled") ||
      !triage_should_show_bubble (notification,
                                  g_settings_get_boolean (self->settings, "do-not-disturb"), now))
    return;

  /* A flood is a few bubbles and one that sums up the rest; urgent ones
   * always get their own. */
  if (!urgent && !triage_bubble_throttle_admit (self->throttle))
    return;

  if (urgent)
    triage_urgency_mark_told (self->urgency, notification->id);
  triage_notifier_show (self->notifier, notification, urgent);
}

static void
on_urgency_due (TriageApplication *self,
                TriageRequest     *request)
{
  maybe_notify (self, request);
}

static void
on_stream_notification (TriageApplication *self,
                        AtpNotification   *notification)
{
  TriageRequest *request;
  gboolean is_new = FALSE;

  triage_store_save_notification_async (self->store, notification, NULL, save_done_cb,
                                        g_object_ref (self));

  if (!atp_status_is_pending (notification->status))
    return;

  /* Before the connection is up, a request comes from a resync, which
   * brings the whole pending set in one go: the inbox is held until
   * ::resynced (or, should the resync stop halfway, until the main loop
   * is back). */
  if (self->inbox_release_id == 0 &&
      triage_connection_get_state (self->connection) != TRIAGE_CONNECTION_CONNECTED)
    {
      triage_inbox_model_hold (self->inbox);
      self->inbox_release_id = g_idle_add_full (G_PRIORITY_HIGH, release_inbox_cb, self, NULL);
    }

  request = triage_inbox_model_add (self->inbox, notification, &is_new);
  if (is_new)
    triage_request_set_answer_state (request, answer_state_from_outbox (self, notification->id));
  if (triage_request_get_answer_state (request) != TRIAGE_ANSWER_NONE)
    return;

  /* Known from an earlier run or connection too: an acknowledgement lost
   * on the way (the app stopped, the link dropped) is given again. */
  if (notification->status != ATP_STATUS_ACKNOWLEDGED)
    triage_connection_acknowledge (self->connection, notification->id);

  if (is_new)
    maybe_notify (self, request);
}

static TriageOutcome
outcome_for_status (AtpStatus status)
{
  switch (status)
    {
    case ATP_STATUS_RESPONDED:
      return TRIAGE_OUTCOME_ANSWERED_ELSEWHERE;
    case ATP_STATUS_EXPIRED:
      return TRIAGE_OUTCOME_EXPIRED;
    case ATP_STATUS_INVALIDATED:
      return TRIAGE_OUTCOME_INVALIDATED;
    case ATP_STATUS_CREATED:
    case ATP_STATUS_DELIVERED:
    case ATP_STATUS_ACKNOWLEDGED:
    default:
      return TRIAGE_OUTCOME_NONE;
    }
}

/* What became of a request settled elsewhere (answered on another device,
 * expired, withdrawn), told where the person may be looking: the request
 * shown (its view names the outcome) and its bubble if still on screen, which
 * then says what the view's banner says instead of offering answers that no
 * longer apply. It is told again once the answer given elsewhere is known. */
static void
tell_outcome (TriageApplication *self,
              const char        *notification_id,
              AtpNotification   *notification,
              AtpStatus          status,
              const char        *reason,
              GDateTime         *when,
              AtpResponse       *response)
{
  TriageRequest *request = find_request (self, notification_id);
  g_autofree char *outcome = NULL;
  g_autofree char *body = NULL;

  if (request != NULL && triage_request_get_answer_state (request) == TRIAGE_ANSWER_NONE)
    {
      if (response != NULL)
        triage_request_set_response (request, response);
      if (notification == NULL)
        notification = triage_request_get_notification (request);
      if (reason == NULL)
        reason = triage_request_get_status_reason (request);
      if (when == NULL)
        when = triage_request_get_status_time (request);
    }

  if (self->notifier == NULL)
    return;
  if (notification == NULL)
    {
      triage_notifier_withdraw (self->notifier, notification_id);
      return;
    }

  outcome = triage_describe_settled (notification, status, when, response);
  if (reason != NULL)
    {
      /* Translators: %s is the reason the server gave for a status change */
      g_autofree char *why = g_strdup_printf (_("Reason: %s"), reason);

      body = g_strconcat (outcome, "\n", why, NULL);
    }
  triage_notifier_settle (self->notifier, notification_id, body ? body : outcome);
}

/* A request left the pending state on the server. */
static void
settle_request (TriageApplication *self,
                const char        *notification_id,
                AtpStatus          status,
                const char        *reason,
                GDateTime         *when,
                AtpResponse       *response)
{
  g_autoptr(TriageRequest) request = NULL;
  gboolean ours;

  if (!atp_status_is_terminal (status))
    {
      TriageRequest *pending = triage_inbox_model_lookup (self->inbox, notification_id);

      if (pending != NULL)
        triage_request_set_status (pending, status);
      return;
    }

  /* With our own answer on its way, "responded" is most likely ours: the
   * outbox's result decides what is recorded and said, and takes the request
   * out of the inbox then (a 409 names it by its title: it must still be
   * there when the outbox's answer comes after this update). */
  ours = status == ATP_STATUS_RESPONDED && triage_outbox_has_answer (self->outbox, notification_id);
  if (ours)
    {
      if (self->notifier != NULL)
        triage_notifier_withdraw (self->notifier, notification_id);
      return;
    }

  request = triage_inbox_model_remove (self->inbox, notification_id);
  if (request != NULL)
    triage_request_settle (request, status, reason, when);
  else if (self->window != NULL)
    {
      /* Already out of the inbox but still open in the window. */
      TriageRequest *shown = triage_window_get_current_request (self->window);

      if (shown != NULL && g_str_equal (triage_request_get_id (shown), notification_id) &&
          triage_request_get_answer_state (shown) == TRIAGE_ANSWER_NONE)
        triage_request_settle (shown, status, reason, when);
    }

  tell_outcome (self, notification_id, request ? triage_request_get_notification (request) : NULL,
                status, reason, when, response);

  triage_store_set_outcome_async (self->store, notification_id, status,
                                  outcome_for_status (status), reason,
                                  NULL, outcome_done_cb, g_object_ref (self));

  /* Answered on another device or by another person: the history keeps
   * what was answered, by whom and when, which the status does not say. */
  if (status == ATP_STATUS_RESPONDED)
    {
      if (response != NULL)
        triage_store_set_response_async (self->store, response, NULL, response_done_cb,
                                         g_object_ref (self));
      else
        triage_lookups_fetch_response (self->lookups, notification_id);
    }
}

static void
on_stream_status_update (TriageApplication *self,
                         AtpStatusUpdate   *update)
{
  settle_request (self, update->notification_id, update->status, update->reason,
                  update->timestamp, NULL);
}

static void
on_lookup_settled (TriageApplication *self,
                   const char        *notification_id,
                   int                status,
                   GDateTime         *when,
                   AtpResponse       *response)
{
  settle_request (self, notification_id, status, NULL, when, response);
}

static void
on_lookup_response (TriageApplication *self,
                    const char        *notification_id,
                    AtpResponse       *response,
                    AtpNotification   *notification)
{
  triage_store_set_response_async (self->store, response, NULL, response_done_cb,
                                   g_object_ref (self));
  /* What was answered, and by whom: the view and the bubble say it now. */
  tell_outcome (self, notification_id, notification, ATP_STATUS_RESPONDED, NULL, NULL, response);
}

static void
on_stream_resynced (TriageApplication *self,
                    GPtrArray         *pending)
{
  release_inbox (self);

  /* Settled while we were away: what became of each is asked, so the view
   * and the history say what happened. */
  triage_lookups_resynced (self->lookups, pending);

  /* For bench/app: when the inbox holds what the server has pending. */
  if (!self->resynced && g_getenv ("TRIAGE_BENCH_FIRST_FRAME") != NULL)
    g_printerr ("triage: resynced %u pending at %" G_GINT64_FORMAT "\n",
                g_list_model_get_n_items (G_LIST_MODEL (self->inbox)), g_get_real_time ());

  self->resynced = TRUE;
  open_pending_request (self, TRUE);
}

static void load_server (TriageApplication *self);

static void
on_server_settings_changed (TriageApplication *self)
{
  g_autofree char *server = NULL;
  g_autoptr(GPtrArray) ids = NULL;

  if (!self->ready)
    return;   /* loading: it looks at the settings again when done */

  server = triage_connection_dup_server_key (self->connection);
  if (g_strcmp0 (server, self->loaded_server) == 0)
    {
      triage_connection_start (self->connection);
      return;
    }

  /* Another server: its own requests and answers, none of the last one's
   * (those wait in the store for a switch back). */
  triage_connection_stop (self->connection);
  self->ready = FALSE;
  self->resynced = FALSE;
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_READY]);
  ids = triage_inbox_model_dup_ids (self->inbox);
  for (guint i = ids->len; i > 0; i--)
    {
      g_object_unref (triage_inbox_model_remove (self->inbox, ids->pdata[i - 1]));
      triage_notifier_withdraw (self->notifier, ids->pdata[i - 1]);
    }
  triage_connection_disconnect (self->connection, TRIAGE_CONNECTION_CONNECTING, NULL);
  load_server (self);
}

/* Answers */

static void
on_outbox_queued (TriageApplication *self,
                  const char        *notification_id)
{
  TriageRequest *request = triage_inbox_model_lookup (self->inbox, notification_id);

  if (request == NULL && self->window != NULL)
    request = triage_window_get_current_request (self->window);
  if (request != NULL && g_str_equal (triage_request_get_id (request), notification_id))
    triage_request_set_answer_state (request, TRIAGE_ANSWER_QUEUED);

  if (self->notifier != NULL)
    triage_notifier_withdraw (self->notifier, notification_id);
}

/* The request the event is about: in the inbox, or the one still open in the window. */
static TriageRequest *
find_request (TriageApplication *self,
              const char        *notification_id)
{
  TriageRequest *request = triage_inbox_model_lookup (self->inbox, notification_id);

  if (request == NULL && self->window != NULL)
    {
      request = triage_window_get_current_request (self->window);
      if (request != NULL && !g_str_equal (triage_request_get_id (request), notification_id))
        request = NULL;
    }

  return request;
}

static void
on_outbox_delivered (TriageApplication *self,
                     const char        *notification_id)
{
  TriageRequest *request = find_request (self, notification_id);
  g_autoptr(TriageRequest) removed = NULL;

  if (request != NULL)
    {
      triage_request_set_answer_state (request, TRIAGE_ANSWER_DELIVERED);
      triage_request_set_status (request, ATP_STATUS_RESPONDED);
    }

  removed = triage_inbox_model_remove (self->inbox, notification_id);
}

/* What became of an answer, said where the person is: in the window when it
 * is shown, else in a bubble of its own (an answer given from a bubble has
 * no window to be told in). Returns whether the window is there to say it. */
static gboolean
window_can_tell (TriageApplication *self,
                 const char        *notification_id,
                 const char        *text)
{
  g_autofree char *key = NULL;

  if (self->window != NULL && gtk_widget_get_visible (GTK_WIDGET (self->window)))
    return TRUE;

  key = g_strconcat ("answer:", notification_id, NULL);
  if (self->notifier != NULL)
    triage_notifier_show_notice (self->notifier, key, _("An answer was not recorded"), text);

  return FALSE;
}

static void
on_outbox_conflict (TriageApplication *self,
                    const char        *notification_id,
                    TriageOutcome      outcome,
                    const char        *message)
{
  TriageRequest *request = find_request (self, notification_id);
  g_autoptr(TriageRequest) removed = NULL;
  g_autofree char *text = NULL;
  const char *title = request ? triage_request_get_title (request) : NULL;
  AtpStatus status;

  switch (outcome)
    {
    case TRIAGE_OUTCOME_EXPIRED:
      status = ATP_STATUS_EXPIRED;
      /* Translators: %s is the title of a request */
      text = g_strdup_printf (_("Your answer to “%s” was not recorded: the request had expired"),
                              title ? title : notification_id);
      break;

    case TRIAGE_OUTCOME_INVALIDATED:
      status = ATP_STATUS_INVALIDATED;
      text = g_strdup_printf (_("Your answer to “%s” was not recorded: the service had withdrawn it"),
                              title ? title : notification_id);
      break;

    case TRIAGE_OUTCOME_ANSWERED_ELSEWHERE:
    default:
      status = ATP_STATUS_RESPONDED;
      text = g_strdup_printf (_("Your answer to “%s” was not recorded: it was already answered "
                                "on another device"),
                              title ? title : notification_id);
      break;
    }

  if (request != NULL)
    {
      triage_request_set_answer_state (request, TRIAGE_ANSWER_NONE);
      triage_request_set_status (request, status);
    }
  removed = triage_inbox_model_remove (self->inbox, notification_id);

  /* Ours lost: the history shows the answer that won. */
  if (outcome == TRIAGE_OUTCOME_ANSWERED_ELSEWHERE)
    triage_lookups_fetch_response (self->lookups, notification_id);

  g_message ("%s (%s)", text, message);
  if (window_can_tell (self, notification_id, text))
    triage_window_add_toast (self->window, text);
}

static void
on_outbox_rejected (TriageApplication *self,
                    const char        *notification_id,
                    const char        *message)
{
  TriageRequest *request = find_request (self, notification_id);
  g_autoptr(TriageRequest) removed = NULL;
  g_autofree char *text = NULL;

  if (request != NULL)
    triage_request_set_answer_state (request, TRIAGE_ANSWER_FAILED);
  removed = triage_inbox_model_remove (self->inbox, notification_id);

  /* Translators: %s is the server's explanation */
  text = g_strdup_printf (_("The server refused the answer: %s"), message);
  if (window_can_tell (self, notification_id, text))
    triage_window_show_delivery_error (self->window, notification_id, text);
}

/* What an answer being stored needs back: the app and the request's id. */
typedef struct
{
  TriageApplication *self;
  char              *notification_id;
} SubmitCall;

static void
submit_call_free (SubmitCall *call)
{
  g_object_unref (call->self);
  g_free (call->notification_id);
  g_free (call);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SubmitCall, submit_call_free)

static void
submit_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(SubmitCall) data = user_data;
  g_autoptr(GError) error = NULL;

  if (!triage_outbox_submit_finish (TRIAGE_OUTBOX (object), result, &error))
    {
      g_autofree char *text = g_strdup_printf (_("The answer could not be saved: %s"), error->message);

      g_message ("%s", text);
      if (window_can_tell (data->self, data->notification_id, text))
        triage_window_show_error (data->self->window, data->notification_id, text);
    }
}

/* The request an answer is for, if it still waits for one; else the person
 * is told it no longer does. */
static TriageRequest *
find_pending_request (TriageApplication *self,
                      const char        *notification_id)
{
  TriageRequest *request = find_request (self, notification_id);
  const char *text = _("This request is no longer waiting for an answer");

  if (request != NULL && atp_status_is_pending (triage_request_get_status (request)))
    return request;

  if (window_can_tell (self, notification_id, text))
    triage_window_show_error (self->window, notification_id, text);
  return NULL;
}

static void
submit_answer (TriageApplication *self,
               const char        *notification_id,
               const char        *action_id,
               JsonNode          *response_data)
{
  g_autoptr(GError) error = NULL;
  TriageRequest *request = find_pending_request (self, notification_id);
  TriageProtocol *protocol;
  SubmitCall *call;

  if (request == NULL)
    return;

  /* Checked exactly as the server would: an invalid answer never leaves. */
  protocol = triage_request_get_protocol (request);
  if (protocol == NULL)
    g_set_error (&error, ATP_ERROR, ATP_ERROR_INVALID_REQUEST,
                 _("This version of Triage cannot answer requests of this kind"));
  else
    triage_protocol_validate_answer (protocol, triage_request_get_notification (request),
                                     action_id, response_data, &error);
  if (error != NULL)
    {
      if (self->window != NULL)
        triage_window_show_error (self->window, notification_id, error->message);
      return;
    }

  call = g_new0 (SubmitCall, 1);
  call->self = g_object_ref (self);
  call->notification_id = g_strdup (notification_id);
  triage_outbox_submit_async (self->outbox, notification_id, action_id, response_data,
                              NULL, submit_cb, call);
}

static void
on_window_submit (TriageApplication *self,
                  const char        *notification_id,
                  const char        *action_id,
                  JsonNode          *response_data)
{
  submit_answer (self, notification_id, action_id, response_data);
}

static void
on_notifier_activated (TriageApplication *self,
                       const char        *notification_id)
{
  if (g_str_has_prefix (notification_id, TRIAGE_NOTIFIER_NOTICE_PREFIX))
    g_action_group_activate_action (G_ACTION_GROUP (self), "show", NULL);
  else
    g_action_group_activate_action (G_ACTION_GROUP (self), "open-request",
                                    g_variant_new_string (notification_id));
}

/* A bubble's answer button: the answer it stands for, unless it needs a
 * confirmation (then the request opens, where it is asked). */
static void
on_notifier_respond (TriageApplication *self,
                     const char        *notification_id,
                     const char        *answer_key)
{
  TriageRequest *request = find_pending_request (self, notification_id);
  TriageProtocol *protocol = request ? triage_request_get_protocol (request) : NULL;
  AtpNotification *notification = request ? triage_request_get_notification (request) : NULL;
  g_autofree char *action_id = NULL;
  g_autoptr(JsonNode) response_data = NULL;
  g_autoptr(GError) error = NULL;

  if (request == NULL)
    return;

  if (protocol == NULL ||
      !triage_protocol_get_bubble_answer (protocol, notification, answer_key, &action_id,
                                          &response_data, &error) ||
      triage_protocol_needs_confirmation (protocol, notification, action_id, response_data))
    {
      if (error != NULL)
        g_warning ("A bubble's answer was not sent: %s", error->message);
      g_action_group_activate_action (G_ACTION_GROUP (self), "open-request",
                                      g_variant_new_string (notification_id));
      return;
    }

  submit_answer (self, notification_id, action_id, response_data);
}

/* History retention */

static void
prune_done_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GError) error = NULL;
  gssize removed = triage_store_prune_finish (TRIAGE_STORE (object), result, &error);

  if (removed < 0 && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_warning ("Could not forget the old history: %s", error->message);
  else if (removed > 0)
    g_debug ("Forgot %" G_GSSIZE_FORMAT " requests past the history's retention", removed);
}

static gboolean
prune_history_cb (gpointer data)
{
  TriageApplication *self = data;
  guint days = g_settings_get_uint (self->settings, "history-retention-days");
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autoptr(GDateTime) before = NULL;

  if (days == 0 || !self->ready)
    return G_SOURCE_CONTINUE;

  before = g_date_time_add_days (now, -(int) days);
  triage_store_prune_async (self->store, before, self->cancellable, prune_done_cb, NULL);

  return G_SOURCE_CONTINUE;
}

/* Start-up: store, inbox, outbox, then the connection */

static void
outbox_loaded_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(TriageApplication) self = user_data;
  g_autoptr(GError) error = NULL;
  GListModel *model = G_LIST_MODEL (self->inbox);

  if (!triage_outbox_load_finish (TRIAGE_OUTBOX (object), result, &error))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;   /* quitting */
      g_warning ("Could not load the outbox: %s", error->message);
    }

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(TriageRequest) request = g_list_model_get_item (model, i);

      triage_request_set_answer_state (request,
                                       answer_state_from_outbox (self, triage_request_get_id (request)));
    }

  /* The server was changed again while its requests were loading. */
  {
    g_autofree char *server = triage_connection_dup_server_key (self->connection);

    if (g_strcmp0 (server, self->loaded_server) != 0)
      {
        load_server (self);
        return;
      }
  }

  self->ready = TRUE;
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_READY]);
  triage_connection_start (self->connection);

  /* The history keeps what the person asked for (history-retention-days). */
  if (self->prune_id == 0)
    {
      prune_history_cb (self);
      self->prune_id = g_timeout_add_seconds (24 * 60 * 60, prune_history_cb, self);
    }
}

static void
pending_loaded_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(TriageApplication) self = user_data;
  g_autoptr(GPtrArray) records = NULL;
  g_autoptr(GError) error = NULL;

  records = triage_store_load_pending_finish (TRIAGE_STORE (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;   /* quitting */
  if (records == NULL)
    g_warning ("Could not load the saved requests: %s", error->message);

  triage_inbox_model_hold (self->inbox);
  for (guint i = 0; records != NULL && i < records->len; i++)
    {
      TriageStoreRecord *record = g_ptr_array_index (records, i);

      triage_inbox_model_add (self->inbox, record->notification, NULL);
    }
  triage_inbox_model_release (self->inbox);

  triage_outbox_load_async (self->outbox, self->cancellable, outbox_loaded_cb, g_object_ref (self));
}

/* The inbox and outbox of the server in the settings, from the store */
static void
load_server (TriageApplication *self)
{
  g_free (self->loaded_server);
  self->loaded_server = triage_connection_dup_server_key (self->connection);
  triage_store_set_server (self->store, self->loaded_server);
  triage_store_load_pending_async (self->store, self->cancellable, pending_loaded_cb,
                                   g_object_ref (self));
}

static void
history_opened_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(TriageApplication) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!triage_history_db_open_finish (TRIAGE_HISTORY_DB (object), result, &error))
    {
      /* The inbox works without it: no history view, read marks in memory. */
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_warning ("Could not open the decision history: %s", error->message);
      g_clear_object (&self->history_db);
      return;
    }

  self->read_state = triage_read_state_new (self->history_db);
  if (self->window != NULL)
    {
      triage_window_set_read_state (self->window, self->read_state);
      triage_window_set_history_db (self->window, self->history_db);
    }
}

static void
store_opened_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(TriageApplication) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!triage_store_open_finish (TRIAGE_STORE (object), result, &error))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;   /* quitting */
      /* Without the store no answer could be kept safe: say so and stay offline. */
      g_warning ("Could not open the local database: %s", error->message);
      triage_connection_disconnect (self->connection, TRIAGE_CONNECTION_OFFLINE, error->message);
      return;
    }

  load_server (self);

  /* The history reads the same file on connections of its own. */
  self->history_db = triage_history_db_new (triage_store_get_path (self->store));
  triage_history_db_open_async (self->history_db, self->cancellable, history_opened_cb,
                                g_object_ref (self));
}

/* Window */

static gboolean
on_window_close_request (TriageApplication *self,
                         GtkWindow         *window)
{
  int width;
  int height;

  gtk_window_get_default_size (window, &width, &height);
  g_settings_set_int (self->settings, "window-width", MAX (width, 360));
  g_settings_set_int (self->settings, "window-height", MAX (height, 294));
  g_settings_set_boolean (self->settings, "window-maximized", gtk_window_is_maximized (window));

  return FALSE;
}

/* Running without a window where no tray shows the icon (stock GNOME has
 * no StatusNotifierWatcher): said once, in a bubble, so the person knows
 * why requests still arrive and how to reach the app. */
static gboolean
background_check_cb (gpointer data)
{
  TriageApplication *self = data;

  self->background_check_id = 0;

  if (self->window != NULL || !self->held || self->notifier == NULL ||
      (self->tray != NULL && triage_tray_get_registered (self->tray)) ||
      g_settings_get_boolean (self->settings, "background-notice-shown"))
    return G_SOURCE_REMOVE;

  g_settings_set_boolean (self->settings, "background-notice-shown", TRUE);
  triage_notifier_show_notice (self->notifier, "background",
                               _("Triage is running in the background"),
                               _("New requests still show as notifications. Open Triage again "
                                 "to see them all; quit it from its menu."));

  return G_SOURCE_REMOVE;
}

static void
schedule_background_check (TriageApplication *self)
{
  if (self->background_check_id == 0 &&
      !g_settings_get_boolean (self->settings, "background-notice-shown"))
    self->background_check_id = g_timeout_add_seconds (BACKGROUND_NOTICE_DELAY_SECONDS,
                                                       background_check_cb, self);
}

/* Once the person looks at the window, what the summary counted is seen. */
static void
on_window_active (TriageApplication *self,
                  GParamSpec        *pspec,
                  GtkWindow         *window)
{
  if (gtk_window_is_active (window))
    triage_bubble_throttle_forget_held_back (self->throttle);
}

static void
on_window_destroyed (TriageApplication *self)
{
  self->window = NULL;
  schedule_background_check (self);
}

static TriageWindow *
ensure_window (TriageApplication *self)
{
  if (self->window != NULL)
    return self->window;

  self->window = triage_window_new (GTK_APPLICATION (self), self->inbox);
  gtk_window_set_default_size (GTK_WINDOW (self->window),
                               g_settings_get_int (self->settings, "window-width"),
                               g_settings_get_int (self->settings, "window-height"));
  if (g_settings_get_boolean (self->settings, "window-maximized"))
    gtk_window_maximize (GTK_WINDOW (self->window));

  g_signal_connect_object (self->window, "submit",
                           G_CALLBACK (on_window_submit), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->window, "close-request",
                           G_CALLBACK (on_window_close_request), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->window, "destroy",
                           G_CALLBACK (on_window_destroyed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->window, "notify::is-active",
                           G_CALLBACK (on_window_active), self, G_CONNECT_SWAPPED);
  triage_window_set_connection (self->window, triage_connection_get_state (self->connection),
                                triage_connection_get_message (self->connection),
                                triage_connection_get_retry_at (self->connection));
  if (self->read_state != NULL)
    {
      triage_window_set_read_state (self->window, self->read_state);
      triage_window_set_history_db (self->window, self->history_db);
    }

  return self->window;
}

/* Actions */

static void
show_action (GSimpleAction *action,
             GVariant      *parameter,
             gpointer       user_data)
{
  TriageApplication *self = user_data;

  gtk_window_present (GTK_WINDOW (ensure_window (self)));
}

static void
open_request_action (GSimpleAction *action,
                     GVariant      *parameter,
                     gpointer       user_data)
{
  TriageApplication *self = user_data;
  const char *id = g_variant_get_string (parameter, NULL);
  TriageWindow *window = ensure_window (self);

  g_clear_pointer (&self->pending_open, g_free);
  if (!triage_window_show_request (window, id))
    {
      /* Just started: it may not have arrived yet. */
      self->pending_open = g_strdup (id);
      open_pending_request (self, self->resynced);
    }
  gtk_window_present (GTK_WINDOW (window));
}

static void
retry_action (GSimpleAction *action,
              GVariant      *parameter,
              gpointer       user_data)
{
  TriageApplication *self = user_data;

  if (self->ready)
    triage_connection_retry_now (self->connection);
}

static void
reconnect_action (GSimpleAction *action,
                  GVariant      *parameter,
                  gpointer       user_data)
{
  TriageApplication *self = user_data;

  /* The same server with a new token (Preferences): start over. */
  if (self->ready)
    triage_connection_start (self->connection);
}

static void
preferences_action (GSimpleAction *action,
                    GVariant      *parameter,
                    gpointer       user_data)
{
  TriageApplication *self = user_data;
  TriagePreferencesWindow *preferences;

  preferences = triage_preferences_window_new (GTK_WINDOW (ensure_window (self)),
                                               self->settings, self->credentials);
  gtk_window_present (GTK_WINDOW (preferences));
}

static void
about_action (GSimpleAction *action,
              GVariant      *parameter,
              gpointer       user_data)
{
  TriageApplication *self = user_data;
  const char *developers[] = { "The Triage authors", NULL };

  adw_show_about_window (GTK_WINDOW (ensure_window (self)),
                         "application-name", "Triage",
                         "application-icon", APPLICATION_ID,
                         "developer-name", "The Triage authors",
                         "version", PACKAGE_VERSION,
                         "developers", developers,
                         "copyright", "© 2026 The Triage authors",
                         "license-type", GTK_LICENSE_GPL_3_0,
                         "comments", _("Answer the decisions your AI agents ask you to make"),
                         NULL);
}

static void
quit_action (GSimpleAction *action,
             GVariant      *parameter,
             gpointer       user_data)
{
  TriageApplication *self = user_data;

  if (self->window != NULL)
    gtk_window_destroy (GTK_WINDOW (self->window));
  g_application_quit (G_APPLICATION (self));
}

/* The window's keyboard triage (triage-window.c installs the actions);
 * listed in gtk/help-overlay.ui. */
static const struct
{
  const char *action;
  const char *accels[3];
} window_accels[] = {
  { "win.search", { "<Control>f", NULL } },
  { "win.open-request", { "<Alt>Right", NULL } },
  { "win.next-request", { "<Control>Page_Down", "<Alt>Down", NULL } },
  { "win.previous-request", { "<Control>Page_Up", "<Alt>Up", NULL } },
  { "win.back", { "<Alt>Left", NULL } },
  { "win.show-view::inbox", { "<Alt>1", NULL } },
  { "win.show-view::history", { "<Alt>2", "<Control>h", NULL } },
};

static const GActionEntry app_actions[] = {
  { "show", show_action },
  { "open-request", open_request_action, "s" },
  { "retry", retry_action },
  { "reconnect", reconnect_action },
  { "preferences", preferences_action },
  { "about", about_action },
  { "quit", quit_action },
};

/* GApplication */

/*
 * Without a GPU (no DRM render node) GL means Mesa's software rasterizer,
 * which maps LLVM into the process: some 50 MiB of a resident app that mostly
 * waits in the background, for drawing that GTK's cairo renderer does as fast
 * on the CPU. GDK 4.8 sets GL up when it opens the display, window or not, so
 * the choice is made before that. Anyone who chose a renderer keeps it.
 */
static void
prefer_cairo_without_gpu (void)
{
  g_autoptr(GDir) dri = NULL;
  const char *name;

  if (g_getenv ("GDK_DEBUG") != NULL || g_getenv ("GSK_RENDERER") != NULL)
    return;

  dri = g_dir_open ("/dev/dri", 0, NULL);
  while (dri != NULL && (name = g_dir_read_name (dri)) != NULL)
    if (g_str_has_prefix (name, "renderD"))
      return;

  g_setenv ("GDK_DEBUG", "gl-disable", FALSE);
  g_setenv ("GSK_RENDERER", "cairo", FALSE);   /* without trying GL first, and saying so */
}

static void
triage_application_startup (GApplication *app)
{
  TriageApplication *self = TRIAGE_APPLICATION (app);
  g_autoptr(GAction) dnd_action = NULL;
  g_autofree char *path = NULL;
  const char *database = g_getenv ("TRIAGE_APP_DATABASE");
  GDBusConnection *bus;

  prefer_cairo_without_gpu ();
  G_APPLICATION_CLASS (triage_application_parent_class)->startup (app);

  /* A selectable label selects all its text when it takes the focus, which is
   * what the description does when a request opens: one blue block over what
   * the person came to read. Text stays selectable by hand. */
  g_object_set (gtk_settings_get_default (), "gtk-label-select-on-focus", FALSE, NULL);

  self->settings = g_settings_new (TRIAGE_SETTINGS_SCHEMA);
  self->inbox = triage_inbox_model_new ();
  self->credentials = triage_credentials_new ();
  path = database && *database ? g_strdup (database) : triage_store_default_path ();
  self->store = triage_store_new (path);
  self->outbox = triage_outbox_new (self->store);
  self->notifier = triage_notifier_new ("Triage", APPLICATION_ID);
  self->connection = triage_connection_new (self->settings, self->credentials);
  self->lookups = triage_lookups_new (self->inbox, self->outbox);
  self->urgency = triage_urgency_new (self->inbox);
  self->throttle = triage_bubble_throttle_new ();
  self->autostart = triage_autostart_new (self->settings);

  g_action_map_add_action_entries (G_ACTION_MAP (self), app_actions, G_N_ELEMENTS (app_actions), self);
  dnd_action = g_settings_create_action (self->settings, "do-not-disturb");
  g_action_map_add_action (G_ACTION_MAP (self), dnd_action);

  gtk_application_set_accels_for_action (GTK_APPLICATION (self), "app.quit",
                                         (const char *[]) { "<Control>q", NULL });
  gtk_application_set_accels_for_action (GTK_APPLICATION (self), "app.preferences",
                                         (const char *[]) { "<Control>comma", NULL });
  gtk_application_set_accels_for_action (GTK_APPLICATION (self), "app.retry",
                                         (const char *[]) { "<Control>r", NULL });
  gtk_application_set_accels_for_action (GTK_APPLICATION (self), "window.close",
                                         (const char *[]) { "<Control>w", NULL });
  for (guint i = 0; i < G_N_ELEMENTS (window_accels); i++)
    gtk_application_set_accels_for_action (GTK_APPLICATION (self), window_accels[i].action,
                                           window_accels[i].accels);

  g_signal_connect_object (self->inbox, "items-changed",
                           G_CALLBACK (on_inbox_items_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->connection, "changed",
                           G_CALLBACK (on_connection_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->connection, "notify::state",
                           G_CALLBACK (on_connection_state), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->connection, "notify::client",
                           G_CALLBACK (on_connection_client), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->connection, "notification-received",
                           G_CALLBACK (on_stream_notification), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->connection, "status-changed",
                           G_CALLBACK (on_stream_status_update), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->connection, "resynced",
                           G_CALLBACK (on_stream_resynced), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->lookups, "settled",
                           G_CALLBACK (on_lookup_settled), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->lookups, "response-found",
                           G_CALLBACK (on_lookup_response), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->urgency, "due",
                           G_CALLBACK (on_urgency_due), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->urgency, "checked",
                           G_CALLBACK (queue_tray_update), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->throttle, "flood-ended",
                           G_CALLBACK (on_flood_ended), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->outbox, "queued",
                           G_CALLBACK (on_outbox_queued), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->outbox, "delivered",
                           G_CALLBACK (on_outbox_delivered), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->outbox, "conflict",
                           G_CALLBACK (on_outbox_conflict), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->outbox, "rejected",
                           G_CALLBACK (on_outbox_rejected), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->notifier, "activated",
                           G_CALLBACK (on_notifier_activated), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->notifier, "respond",
                           G_CALLBACK (on_notifier_respond), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->settings, "changed::server-mode",
                           G_CALLBACK (on_server_settings_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->settings, "changed::server-url",
                           G_CALLBACK (on_server_settings_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->settings, "changed::run-in-background",
                           G_CALLBACK (update_hold), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->settings, "changed::history-retention-days",
                           G_CALLBACK (prune_history_cb), self, G_CONNECT_SWAPPED);
  g_settings_set_string (self->settings, "last-seen-version", PACKAGE_VERSION);

  bus = g_application_get_dbus_connection (app);
  if (bus != NULL)
    {
      self->tray = triage_tray_new (bus, G_ACTION_GROUP (self));
      g_settings_bind (self->settings, "do-not-disturb", self->tray, "do-not-disturb",
                       G_SETTINGS_BIND_GET);
    }

  /* Alive while connecting, whether or not a window is ever shown. */
  update_hold (self);
  schedule_background_check (self);

  triage_store_open_async (self->store, self->cancellable, store_opened_cb, g_object_ref (self));
}

static void
triage_application_activate (GApplication *app)
{
  TriageApplication *self = TRIAGE_APPLICATION (app);

  gtk_window_present (GTK_WINDOW (ensure_window (self)));
}

static void
triage_application_shutdown (GApplication *app)
{
  TriageApplication *self = TRIAGE_APPLICATION (app);

  g_cancellable_cancel (self->cancellable);
  triage_connection_stop (self->connection);
  release_inbox (self);
  g_clear_handle_id (&self->tray_update_id, g_source_remove);
  g_clear_handle_id (&self->pending_open_id, g_source_remove);
  g_clear_handle_id (&self->background_check_id, g_source_remove);
  g_clear_handle_id (&self->prune_id, g_source_remove);
  g_clear_object (&self->urgency);
  g_clear_object (&self->throttle);
  g_clear_object (&self->autostart);
  g_clear_object (&self->tray);

  G_APPLICATION_CLASS (triage_application_parent_class)->shutdown (app);
}

static void
triage_application_finalize (GObject *object)
{
  TriageApplication *self = (TriageApplication *)object;

  g_clear_object (&self->notifier);
  g_clear_object (&self->lookups);
  g_clear_object (&self->connection);
  g_clear_object (&self->read_state);
  g_clear_object (&self->history_db);
  g_clear_object (&self->outbox);
  g_clear_object (&self->store);
  g_clear_object (&self->inbox);
  g_clear_object (&self->credentials);
  g_clear_pointer (&self->loaded_server, g_free);
  g_clear_object (&self->settings);
  g_clear_object (&self->cancellable);
  g_free (self->pending_open);

  G_OBJECT_CLASS (triage_application_parent_class)->finalize (object);
}

static void
triage_application_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  TriageApplication *self = TRIAGE_APPLICATION (object);

  switch (prop_id)
    {
    case PROP_CONNECTION:
      g_value_set_uint (value, triage_application_get_connection (self));
      break;

    case PROP_READY:
      g_value_set_boolean (value, self->ready);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
triage_application_class_init (TriageApplicationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  object_class->finalize = triage_application_finalize;
  object_class->get_property = triage_application_get_property;

  app_class->startup = triage_application_startup;
  app_class->activate = triage_application_activate;
  app_class->shutdown = triage_application_shutdown;

  properties [PROP_CONNECTION] =
    g_param_spec_uint ("connection", NULL, NULL,
                       TRIAGE_CONNECTION_CONNECTING, TRIAGE_CONNECTION_AUTH_FAILED,
                       TRIAGE_CONNECTION_CONNECTING,
                       (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties [PROP_READY] =
    g_param_spec_boolean ("ready", NULL, NULL, FALSE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
triage_application_init (TriageApplication *self)
{
  self->cancellable = g_cancellable_new ();
}

/**
 * triage_application_new:
 *
 * Returns: (transfer full): the application
 */
TriageApplication *
triage_application_new (void)
{
  return g_object_new (TRIAGE_TYPE_APPLICATION,
                       "application-id", APPLICATION_ID,
                       "flags", G_APPLICATION_DEFAULT_FLAGS,
                       "resource-base-path", RESOURCE_BASE,
                       NULL);
}

TriageInboxModel *
triage_application_get_inbox (TriageApplication *self)
{
  g_return_val_if_fail (TRIAGE_IS_APPLICATION (self), NULL);

  return self->inbox;
}

TriageOutbox *
triage_application_get_outbox (TriageApplication *self)
{
  g_return_val_if_fail (TRIAGE_IS_APPLICATION (self), NULL);

  return self->outbox;
}

TriageNotifier *
triage_application_get_notifier (TriageApplication *self)
{
  g_return_val_if_fail (TRIAGE_IS_APPLICATION (self), NULL);

  return self->notifier;
}

TriageCredentials *
triage_application_get_credentials (TriageApplication *self)
{
  g_return_val_if_fail (TRIAGE_IS_APPLICATION (self), NULL);

  return self->credentials;
}

/**
 * triage_application_get_window:
 *
 * Returns: (transfer none) (nullable): the main window, if one is open
 */
TriageWindow *
triage_application_get_window (TriageApplication *self)
{
  g_return_val_if_fail (TRIAGE_IS_APPLICATION (self), NULL);

  return self->window;
}

TriageConnectionState
triage_application_get_connection (TriageApplication *self)
{
  g_return_val_if_fail (TRIAGE_IS_APPLICATION (self), TRIAGE_CONNECTION_OFFLINE);

  /* Before start-up there is no connection yet: it is about to be made. */
  if (self->connection == NULL)
    return TRIAGE_CONNECTION_CONNECTING;

  return triage_connection_get_state (self->connection);
}

gboolean
triage_application_get_ready (TriageApplication *self)
{
  g_return_val_if_fail (TRIAGE_IS_APPLICATION (self), FALSE);

  return self->ready;
}
