/* triage-server-private.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <libsoup/soup.h>

#include "atp.h"
#include "triage-store.h"

G_BEGIN_DECLS

#define TRIAGE_DEFAULT_USER "default"

/* The configurable limits of profile §4, by their --limit NAME. 0 = no limit. */
typedef enum
{
  TRIAGE_LIMIT_REGISTRATIONS,   /* "registrations": service registrations per hour per IP */
  TRIAGE_LIMIT_SENDS,           /* "sends": notifications posted per minute per service */
  TRIAGE_LIMIT_STATUS_UPDATES,  /* "status-updates": invalidations per minute per service */
  TRIAGE_LIMIT_POLLING,         /* "polling": client reads per minute per user */
  TRIAGE_LIMIT_RESPONSES,       /* "responses": responses per minute per user */
  TRIAGE_LIMIT_WEBSOCKETS,      /* "websockets": open WebSocket streams per user */
  TRIAGE_LIMIT_SSE,             /* "sse": open SSE streams per user */
  TRIAGE_LIMIT_CONNECTIONS,     /* "connections": open connections per client address */
  TRIAGE_N_LIMITS
} TriageLimit;

extern const char * const triage_limit_names[TRIAGE_N_LIMITS];
extern const guint triage_limit_defaults[TRIAGE_N_LIMITS];

gboolean triage_limits_parse (guint               limits[TRIAGE_N_LIMITS],
                              const char * const *specs,
                              gboolean            no_limits,
                              GError            **error);

typedef struct _TriageWebhooks TriageWebhooks;

/* What /readyz says (src/server/ops/triage-server-health.c). */
typedef enum
{
  TRIAGE_SERVER_STARTING,
  TRIAGE_SERVER_READY,
  TRIAGE_SERVER_DRAINING,
} TriageServerState;

#define TRIAGE_HEALTHZ_PATH "/healthz"
#define TRIAGE_READYZ_PATH  "/readyz"
#define TRIAGE_METRICS_PATH "/metrics"
#define TRIAGE_N_ROUTES     18    /* src/server/ops/triage-server-routes.c */

typedef struct
{
  SoupServer  *soup;
  TriageStore *store;
  char        *admin_hash;      /* SHA-256 hex of the admin token, NULL = no admin token */
  guint        deadline_source;
  GHashTable  *waiters;         /* notification id → GList of waiters */
  int          heartbeat;
  int          idle;
  guint        limits[TRIAGE_N_LIMITS];
  GHashTable  *streams;         /* user → GPtrArray of open streams (triage-server-stream.c) */
  guint        stream_tick;     /* heartbeats, pings, idle checks */
  guint        prune_source;    /* forgets old events */
  int          retain_days;     /* --retain: settled requests kept this long, 0 = for ever */
  guint        forget_source;   /* the next turn of forgetting them */
  guint64      forgotten;       /* by the turns so far of this round */
  gboolean     forget_round;    /* a whole turn went: more may follow */
  GPtrArray   *pushed;          /* ids just pushed to a stream, marked delivered together (shared store) */
  guint        pushed_source;
  GArray      *fresh;           /* FreshRequest: made in the open batch (one server's store) */
  GHashTable  *fresh_moved;     /* ids of those moved on in the open batch (answered, …) */
  GHashTable  *fresh_read;      /* ids a recipient read delivered (REST) in the open batch */
  char        *inserted_delivered; /* the request just inserted delivered, till its publish */
  GHashTable  *premarked;       /* ids its commit marked delivered, till their push */
  TriageWebhooks *webhooks;     /* the delivery queue's runner (triage-server-webhook.c) */
  GMainLoop   *loop;
  guint        reschedule_source; /* a deadline from another server to look at (shared store) */
  TriageServerState state;
  gboolean     stopping;        /* the drain's delay is over: new requests are refused */
  int          drain_delay;     /* --drain-delay: seconds of serving after SIGTERM */
  int          request_timeout; /* --request-timeout: seconds to send a whole request */
  guint        drain_source;
  gint64       drain_deadline;  /* monotonic µs: open requests are given up on */
  gint64       streams_closed_at; /* monotonic µs: the drain closed the streams */
  guint        inflight;        /* requests read and not yet answered (ops/triage-server-requests.c) */
  GQueue       reading;         /* connections waited for (a request being read, an idle one), oldest first */
  GQueue       heading;         /* requests whose headers are awaited (shorter deadline), oldest first */
  guint        reading_sweep;   /* the once-a-second deadline check while any is waited for */
  GHashTable  *connections;     /* client address → GPtrArray of its open connections (limits.c) */
} TriageServer;

void     triage_server_setup_rest     (TriageServer *self);
void     triage_server_setup_health   (TriageServer *self);
void     triage_server_setup_requests (TriageServer *self);
/* --request-timeout from now, one queue for every connection waited for
 * (ops/triage-server-requests.c). */
typedef struct _TriageServerDeadline TriageServerDeadline;
typedef void (*TriageDeadlineFunc) (GObject *owner);
TriageServerDeadline *triage_server_deadline_new  (TriageServer       *self,
                                                   GObject            *owner,
                                                   TriageDeadlineFunc  expire);
void                  triage_server_deadline_free (gpointer            entry);
void     triage_server_setup_keepalive (void);
void     triage_server_keepalive_watch (TriageServer      *self,
                                        SoupServerMessage *msg);
void     triage_server_keepalive_unwatch (SoupServerMessage *msg);
/* Writes that go out together (triage-server-cork.c). */
void     triage_server_cork_turn      (GSocket           *socket);
void     triage_server_cork_answer    (SoupServerMessage *msg);
void     triage_server_uncork_answer  (SoupServerMessage *msg);
void     triage_server_request_done   (TriageServer      *self,
                                       SoupServerMessage *msg);
const char *triage_server_request_id  (SoupServerMessage *msg);
void     triage_server_note_caller    (SoupServerMessage *msg,
                                       const char        *kind,
                                       const char        *id);
guint    triage_server_route          (const char        *path);
const char *triage_server_route_name  (guint              route);
gboolean triage_server_setup_log      (const char   *format,
                                       GError      **error);
/* Writes the request lines held for the end of the main loop's turn. */
void     triage_server_log_flush      (void);
void     triage_server_log_request    (const char *request_id,
                                       const char *method,
                                       const char *route,
                                       guint       status,
                                       gint64      duration_us,
                                       const char *who);
void     triage_server_drain          (TriageServer *self);
int      triage_server_backup         (int    argc,
                                       char **argv);
int      triage_server_claim_database (const char  *database,
                                       const char  *socket_path,
                                       GError     **error);
void     triage_server_say_unexpected (const char  *argument);
char    *triage_server_database_holder (const char *database);
void     triage_server_setup_metrics  (TriageServer *self,
                                       SoupServer   *metrics_soup);
void     triage_server_count_streams  (TriageServer *self,
                                       guint        *websockets,
                                       guint        *sse);
/* Long-polls (triage-server-wait.c). */
void     triage_server_answer_waiters (TriageServer *self);
void     triage_server_wake_waiters   (TriageServer *self,
                                       const char   *id);
void     triage_server_free_waiters   (TriageServer *self);
void     triage_server_shutdown_rest  (TriageServer *self);
void     triage_server_reschedule     (TriageServer *self);
/* ops/triage-server-retention.c */
void     triage_server_forget_settled (TriageServer *self);
void     triage_server_setup_streams  (TriageServer *self);
void     triage_server_close_streams  (TriageServer *self);
void     triage_server_shutdown_streams (TriageServer *self);
void     triage_server_publish        (TriageServer *self,
                                       const char   *id,
                                       int           protocol,
                                       int           status,
                                       const char   *reason,
                                       const char   *notification_json);
/* A recipient read request @id as delivered (triage-server-stream-deliver.c). */
void     triage_stream_fresh_read     (TriageServer *self,
                                       const char   *id);
gboolean triage_server_rate_check     (TriageServer      *self,
                                       SoupServerMessage *msg,
                                       TriageLimit        limit,
                                       const char        *key);
gboolean triage_server_rate_check_as  (TriageServer      *self,
                                       SoupServerMessage *msg,
                                       TriageLimit        limit,
                                       const char        *key,
                                       const char        *what);
gboolean triage_server_trusts  (SoupServerMessage *msg);
/* The most characters of a text the stores index (a service's name, an
 * AITP request's id, a local service's id): 4 bytes each at most, such a
 * key with the others of its index stays well within the third of a page
 * PostgreSQL's B-tree takes (2704 bytes); SQLite takes any. */
#define TRIAGE_MAX_KEY_CHARS 256
/* Answers 400 a request whose path or query is not UTF-8 text, or whose
 * local service's headers are too long (triage-server-request-text.c). */
gboolean triage_server_check_request_text (SoupServerMessage *msg,
                                           const char        *path,
                                           GHashTable        *query);
/* The key of the limits of an address (an IPv6 one by its /64), and of
 * @msg's client ("local" over the Unix socket). */
char    *triage_server_address_key      (GInetAddress      *address);
char    *triage_server_peer_key         (SoupServerMessage *msg);
/* Counts a new connection against the "connections" cap of its address. */
gboolean triage_server_connection_admit (TriageServer      *self,
                                         SoupServerMessage *msg);
void     triage_server_connection_headers_read (SoupServerMessage *msg);
gboolean triage_server_parse_protocols (SoupServerMessage *msg,
                                        GHashTable        *query,
                                        guint             *mask);
void     triage_server_event_seen     (TriageServer         *self,
                                       const TriageEventRow *event);
/* The change being made cannot be completed (@error, the reason; the rest,
 * printf-style, names the change and what is missing): its batch is
 * failed, so nothing of it is stored and its callers are told, and the
 * store says so in one line that names the change and the requests the
 * batch failed. A change is always made in a batch: the store refuses it
 * when the database would not open one. */
#define triage_server_fail_change(server, error, ...) \
  G_STMT_START { \
    g_autofree char *change_ = g_strdup_printf (__VA_ARGS__); \
    g_autoptr(GError) failed_ = g_error_new ((error)->domain, (error)->code, \
                                             "%s: not stored (%s)", change_, (error)->message); \
    triage_store_fail_batch ((server)->store, failed_); \
  } G_STMT_END

void     triage_server_changed        (TriageServer *self,
                                       const char   *id,
                                       int           status,
                                       const char   *reason);
/* Counts a creation or an end in the metrics once its batch committed
 * (triage-server-transitions.c). */
void     triage_server_count_when_stored (TriageServer *self,
                                          int           protocol,
                                          int           status,
                                          gint64        created_at,
                                          gint64        now);
void     triage_server_setup_webhooks (TriageServer *self);
void     triage_server_shutdown_webhooks (TriageServer *self);
void     triage_server_webhook_changed (TriageServer          *self,
                                        TriageNotificationRow *row,
                                        int                    status,
                                        const char            *reason);
void     triage_server_send_when_durable (TriageServer      *self,
                                          SoupServerMessage *msg,
                                          gboolean           paused);
/* A service's callback_url (triage-server-callback.c). */
GUri    *triage_server_parse_callback_url (const char  *url,
                                           GError     **error);
gboolean triage_server_is_loopback_host   (const char  *host);
char    *triage_random_token          (const char   *prefix);
char    *triage_hash_token            (const char   *token);

#define TRIAGE_PENDING_MASK ((1u << ATP_STATUS_CREATED) | (1u << ATP_STATUS_DELIVERED) | \
                             (1u << ATP_STATUS_ACKNOWLEDGED))
/* An expiry's reason: in its status update, its webhook and every read of it. */
#define TRIAGE_SERVER_EXPIRY_REASON "deadline passed"

void              reply_text           (SoupServerMessage *msg,
                                        guint              status,
                                        char              *body);
void              reply_error_full     (SoupServerMessage *msg,
                                        guint              status,
                                        const char        *code,
                                        const char        *message,
                                        const char        *field);
void              reply_method_not_allowed (SoupServerMessage *msg,
                                            const char        *allow);
void              reply_error          (SoupServerMessage *msg,
                                        AtpErrorCode       code,
                                        const char        *message);
void              reply_error_field    (SoupServerMessage *msg,
                                        AtpErrorCode       code,
                                        const char        *message,
                                        const char        *field);
void              reply_error_details  (SoupServerMessage *msg,
                                        AtpErrorCode       code,
                                        const char        *message,
                                        JsonObject        *details);
void              reply_gerror         (SoupServerMessage *msg,
                                        const GError      *error);
void              reply_gerror_field   (SoupServerMessage *msg,
                                        const GError      *error);
char             *object_to_string     (JsonObject        *object);
JsonNode         *parse_body           (SoupServerMessage *msg);
const char       *get_string           (SoupServerMessage *msg,
                                        JsonObject        *object,
                                        const char        *name,
                                        gboolean           required,
                                        gboolean          *failed);
const char       *get_string_or        (SoupServerMessage *msg,
                                        JsonObject        *object,
                                        const char        *name,
                                        gboolean           required,
                                        AtpErrorCode       invalid,
                                        gboolean          *failed);
gboolean          get_text             (SoupServerMessage *msg,
                                        JsonObject        *object,
                                        const char        *name,
                                        char             **value);
gboolean          get_reason           (SoupServerMessage *msg,
                                        JsonObject        *object,
                                        char             **value);
gboolean          check_admin          (TriageServer      *self,
                                        SoupServerMessage *msg);
gboolean          check_schema         (TriageServer      *self,
                                        SoupServerMessage *msg);
char             *authenticate_user    (TriageServer      *self,
                                        SoupServerMessage *msg,
                                        const char        *query_token);
TriageServiceRow *authenticate_service (TriageServer      *self,
                                        SoupServerMessage *msg);
/* The admin endpoints (triage-server-admin.c). */
void              handle_create_service (TriageServer      *self,
                                         SoupServerMessage *msg);
void              handle_create_user   (TriageServer      *self,
                                        SoupServerMessage *msg);
char             *format_us            (gint64             us);
/* A list's pages (triage-server-cursor.c). A cursor of @version ("v2"),
 * @position (where the next page starts after) and @total (the list's count
 * as of its first page; -1 in a decoded cursor that carries none). */
char             *triage_server_cursor_encode   (const char        *version,
                                                 gint64             position,
                                                 gint64             total);
gboolean          triage_server_cursor_decode   (const char        *cursor,
                                                 char             **version,
                                                 gint64            *position,
                                                 gint64            *total);
/* The `limit` query parameter, 1–@max (@fallback when absent); FALSE after
 * answering 400 INVALID_PARAMETER naming it. */
gboolean          triage_server_parse_limit     (SoupServerMessage *msg,
                                                 GHashTable        *query,
                                                 guint              fallback,
                                                 guint              max,
                                                 guint             *limit);
/* ATP's {next_cursor, has_more, total_count}; @next NULL on the last page. */
JsonObject       *triage_server_pagination_new  (const char        *next,
                                                 gboolean           has_more,
                                                 gint64             total);
/* X-Triage-Next-Cursor: @next, the next page's cursor. */
void              triage_server_set_next_cursor (SoupServerMessage *msg,
                                                 const char        *next);
JsonNode         *status_update_node   (const char        *id,
                                        int                status,
                                        const char        *reason);
void              triage_server_set_status (JsonObject                  *object,
                                            const TriageNotificationRow *row);
/* NULL when the row's stored JSON does not read (said once per id) */
JsonNode         *notification_node    (TriageNotificationRow *row,
                                        gboolean           with_response);
void              triage_server_log_unreadable (const char *id);
void              reply_unreadable     (SoupServerMessage *msg,
                                        const char        *id);
void              reply_unread         (SoupServerMessage *msg,
                                        const GError      *error);
void              reply_unanswered     (SoupServerMessage *msg,
                                        const char        *what,
                                        const char        *message,
                                        const GError      *error);
void              reply_terminal_conflict (SoupServerMessage *msg,
                                           const char        *id,
                                           int                status,
                                           gint64             deadline,
                                           const char        *noun);
void              handle_post_notification  (TriageServer      *self,
                                             SoupServerMessage *msg);
void              handle_patch_notification (TriageServer      *self,
                                             SoupServerMessage *msg,
                                             const char        *id);
void              handle_get_notification   (TriageServer      *self,
                                             SoupServerMessage *msg,
                                             const char        *id,
                                             GHashTable        *query);

G_END_DECLS
