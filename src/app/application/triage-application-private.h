/* triage-application-private.h — the application's parts, shared by its files
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "triage-application.h"
#include "triage-autostart.h"
#include "triage-bubble-throttle.h"
#include "triage-connection.h"
#include "triage-lookups.h"
#include "triage-tray.h"
#include "triage-urgency.h"

G_BEGIN_DECLS

/* The key of the bubble that sums up a flood's requests held back. */
#define TRIAGE_APPLICATION_MORE_NOTICE "more"

/*
 * TriageApplication spans six files:
 *
 *   triage-application.c           the object: start-up, the connection's state,
 *                                  the tray, switching servers, the history's
 *                                  retention and its API
 *   triage-application-history.c   the history's database opened, and again after a
 *                                  failure; the read marks, the app's for its life
 *   triage-application-hold.c      holding: alive in the background, and a problem
 *                                  only the person can fix told in a bubble
 *   triage-application-requests.c  requests coming and going (stream, lookups,
 *                                  bubbles, urgency, the resync hold, the database's
 *                                  write failures)
 *   triage-application-answers.c   answers, from the window or a bubble, and what
 *                                  became of them
 *   triage-application-window.c    the window, the background notice, the actions
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
  GSignalGroup          *client_signals;      /* the connection's client: the server's wait */
  TriageUrgency         *urgency;
  TriageBubbleThrottle  *throttle;
  TriageAutostart       *autostart;
  TriageTray            *tray;
  TriageWindow          *window;
  TriageHistoryDb       *history_db;          /* opened once the store is; retried */
  TriageReadState       *read_state;          /* from startup, stored once the history opens */
  char                  *history_problem;     /* why the history could not be opened */
  guint                  history_retry_id;
  guint                  history_retry_s;     /* the last wait before a retry */
  gboolean               history_opening;
  GCancellable          *cancellable;         /* the whole app's work */

  gboolean               ready;               /* store opened, inbox and outbox loaded */
  gboolean               held;
  gboolean               awaiting_person;     /* told (in a bubble) of a problem only they can
                                               * fix, which no window has shown yet */
  gboolean               resynced;            /* the inbox has been compared with the server once */
  gboolean               bubbles_enabled;     /* the settings' notifications-enabled and */
  gboolean               do_not_disturb;      /* do-not-disturb, followed: read for each of a
                                               * resync's 10,000 requests, they were 40 % of
                                               * the time each took on the main loop */
  gboolean               store_failure_told;  /* a write failed and the person was told; cleared
                                               * by the next write that succeeds */
  char                  *loaded_server;       /* whose requests and answers are loaded */
  char                  *pending_open;        /* a request asked for before it arrived */
  guint                  pending_open_id;
  guint                  tray_update_id;
  guint                  inbox_release_id;    /* the inbox held for a resync, released then */
  GPtrArray             *resync_saves;        /* AtpNotification: a resync's, recorded after it */
  guint                  background_check_id; /* saying once that it runs in the background */
  guint                  prune_id;            /* forgetting old history, daily */
  gboolean               first_prune_waiting; /* prune_id is the first, waiting for the inbox */
};

/* triage-application.c */
void              _triage_application_open_pending_request        (TriageApplication *self,
                                                                   gboolean           give_up);

/* triage-application-requests.c */
void              _triage_application_release_inbox               (TriageApplication *self);
void              _triage_application_save_resync_requests        (TriageApplication *self);
TriageAnswerState _triage_application_answer_state_from_outbox    (TriageApplication *self,
                                                                   const char        *notification_id);
void              _triage_application_on_flood_ended              (TriageApplication *self,
                                                                   guint              held_back);
void              _triage_application_on_urgency_due              (TriageApplication *self,
                                                                   TriageRequest     *request);
void              _triage_application_on_stream_notification      (TriageApplication *self,
                                                                   AtpNotification   *notification);
void              _triage_application_on_stream_status_update     (TriageApplication *self,
                                                                   AtpStatusUpdate   *update);
void              _triage_application_on_lookup_settled           (TriageApplication *self,
                                                                   const char        *notification_id,
                                                                   int                status,
                                                                   GDateTime         *when,
                                                                   AtpResponse       *response,
                                                                   const char        *reason);
void              _triage_application_on_lookup_gone              (TriageApplication *self,
                                                                   const char        *notification_id);
void              _triage_application_on_lookup_response          (TriageApplication *self,
                                                                   const char        *notification_id,
                                                                   AtpResponse       *response,
                                                                   AtpNotification   *notification);
void              _triage_application_prune_after_resync          (TriageApplication *self);
void              _triage_application_on_notifier_expired         (TriageApplication *self,
                                                                   const char        *notification_id);
void              _triage_application_on_stream_resynced          (TriageApplication *self,
                                                                   GPtrArray         *pending);

/* triage-application-answers.c */
TriageRequest    *_triage_application_find_request                (TriageApplication *self,
                                                                   const char        *notification_id);
void              _triage_application_on_outbox_queued            (TriageApplication *self,
                                                                   const char        *notification_id);
void              _triage_application_on_outbox_delivered         (TriageApplication *self,
                                                                   const char        *notification_id);
void              _triage_application_on_outbox_conflict          (TriageApplication *self,
                                                                   const char        *notification_id,
                                                                   TriageOutcome      outcome,
                                                                   const char        *message);
void              _triage_application_on_outbox_gone              (TriageApplication *self,
                                                                   const char        *notification_id,
                                                                   const char        *message);
void              _triage_application_on_outbox_rejected          (TriageApplication *self,
                                                                   const char        *notification_id,
                                                                   const char        *message);
void              _triage_application_on_window_submit            (TriageApplication *self,
                                                                   const char        *notification_id,
                                                                   const char        *action_id,
                                                                   JsonNode          *response_data);
void              _triage_application_on_notifier_activated       (TriageApplication *self,
                                                                   const char        *notification_id);
void              _triage_application_on_notifier_respond         (TriageApplication *self,
                                                                   const char        *notification_id,
                                                                   const char        *answer_key);

/* triage-application-history.c */
void              _triage_application_open_history                (TriageApplication *self);
void              _triage_application_retry_history               (TriageApplication *self);
void              _triage_application_show_history                (TriageApplication *self,
                                                                   TriageWindow      *window);

/* triage-application-hold.c */
void              _triage_application_update_hold                 (TriageApplication *self);
void              _triage_application_tell_person                 (TriageApplication *self);
void              _triage_application_on_bubble_failed            (TriageApplication *self,
                                                                   const char        *notification_id);

/* triage-application-window.c */
TriageWindow     *_triage_application_ensure_window               (TriageApplication *self);
void              _triage_application_update_server_wait          (TriageApplication *self);
void              _triage_application_schedule_background_check   (TriageApplication *self);
void              _triage_application_install_actions             (TriageApplication *self);

G_END_DECLS
