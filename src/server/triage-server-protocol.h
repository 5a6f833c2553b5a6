/* triage-server-protocol.h — what differs between the protocols a request can come in
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "triage-server-private.h"

G_BEGIN_DECLS

/*
 * Every request, whatever its protocol, is one row of the store and travels
 * one path (docs/architecture.md): the same lifecycle, recipients, deadline
 * timer, streams, client list and respond endpoint. What a protocol owns is
 * here, one entry per protocol, each in its own folder (ATP's in
 * triage-server-protocol.c, AITP's in aitp/): how an answer is checked and
 * completed, what its agent reads back, and what its webhooks carry.
 */
typedef struct
{
  AtpProtocol  protocol;

  /* The action_id an answer through /api/v1/client/respond may leave out
   * (NULL: required). */
  const char  *default_action_id;

  /* Checks @response_data (nullable), a person's answer with @action_id,
   * against @request (the envelope) at @now. Sets @stored to the
   * response_data to store (the answer as the protocol completes it; NULL
   * for none), or fails with an ATP_ERROR whose message starts with the
   * field it names: INVALID_ACTION_ID, INVALID_RESPONSE_DATA (400) or
   * CONSTRAINT_VIOLATION (422). Pure: the same answer at the same @now gives
   * the same result (a retry is compared with what was stored). */
  gboolean    (*check_answer) (AtpNotification *request,
                               const char      *action_id,
                               JsonNode        *response_data,
                               GDateTime       *now,
                               JsonNode       **stored,
                               GError         **error);

  /* What the agent's GET (and a long-poll when it ends) answers. */
  JsonNode   *(*agent_view)   (TriageNotificationRow *row);

  /* The webhook for @status (responded, expired or invalidated): returns its
   * body and sets @event (the X-Triage-Event header), or NULL for none. */
  char       *(*webhook_body) (TriageNotificationRow *row,
                               int                    status,
                               const char            *reason,
                               const char           **event);
} TriageServerProtocol;

/* NULL for a protocol this server does not serve. */
const TriageServerProtocol *triage_server_protocol (int protocol);

extern const TriageServerProtocol triage_server_protocol_atp;

/* ---- what the agent endpoints of every protocol but ATP share ---- */

/* "pending", "answered", "expired" or "invalidated": an AtpStatus as the
 * agent of a protocol other than ATP reads it. */
const char       *triage_server_status_word     (int                status);

/* The envelope of a new request of @protocol (status created, stamped
 * @timestamp, from @service), its payload @payload (the protocol's message
 * as posted). @description and @project may be NULL. */
AtpNotification  *triage_server_new_envelope    (AtpProtocol        protocol,
                                                 const char        *id,
                                                 GDateTime         *timestamp,
                                                 GDateTime         *deadline,
                                                 TriageServiceRow  *service,
                                                 const char        *title,
                                                 const char        *description,
                                                 const char        *project,
                                                 JsonNode          *payload,
                                                 GError           **error);

/* The first line of @text holding more than whitespace, cut to 80
 * characters ("…" added); NULL when there is none. */
char             *triage_server_title_from_text (const char        *text);
/* The same, with Markdown's heading, quote and list marks and opening
 * emphasis dropped. */
char             *triage_server_title_from_markdown (const char    *text);

/* How deep a request's envelope may nest (arrays and objects): a client
 * reads it inside a list page ({"notifications": [envelope]}), two levels
 * deeper, and every JSON reader of Triage stops at ATP_MAX_JSON_DEPTH. What
 * an agent or a person sends is held to what is left where it is carried:
 * a payload one level down (envelope.aitp), an answer two
 * (envelope.response.response_data). */
#define TRIAGE_MAX_ENVELOPE_DEPTH (ATP_MAX_JSON_DEPTH - 2)

/* FALSE with @error (@code) naming the path of the first array or object
 * of @node nested more than @max levels deep (@node itself the first
 * level; @path its own name, NULL for a body's top). */
gboolean          triage_server_check_nesting   (JsonNode          *node,
                                                 const char        *path,
                                                 guint              max,
                                                 AtpErrorCode       code,
                                                 GError           **error);

/* FALSE with @error (@code, "@field: must show something …") when @text
 * shows nothing: only spaces, zero-width, bidirectional or other invisible
 * characters (atp_str_is_blank ()). The rule of an ATP context.title, for
 * every text a person or an agent must give that someone reads. */
gboolean          triage_server_check_shown     (const char        *text,
                                                 const char        *field,
                                                 AtpErrorCode       code,
                                                 GError           **error);

/* The id after @prefix when @path is @prefix and one more segment, else NULL. */
const char       *triage_server_path_segment    (const char        *path,
                                                 const char        *prefix);

/* The request @id of @protocol the service owns, or NULL after answering
 * 404 (none of that protocol; @noun names it: "No such review") or 403. */
TriageNotificationRow *triage_server_owned_request (TriageServer      *self,
                                                    SoupServerMessage *msg,
                                                    TriageServiceRow  *service,
                                                    const char        *id,
                                                    int                protocol,
                                                    const char        *noun);

/* GET …/{id}[?wait=N] of a protocol's agent: its agent view, once the
 * request ended or N seconds passed. */
void              triage_server_agent_get       (TriageServer      *self,
                                                 SoupServerMessage *msg,
                                                 const char        *id,
                                                 GHashTable        *query,
                                                 int                protocol,
                                                 const char        *noun);

/* PATCH …/{id} {"status": "invalidated", "reason"?}: the service withdraws
 * its request; answered with the agent view. */
void              triage_server_agent_withdraw  (TriageServer      *self,
                                                 SoupServerMessage *msg,
                                                 const char        *id,
                                                 int                protocol,
                                                 const char        *noun);

/* Stores a new request of any protocol (@envelope, filled in: id, timestamp,
 * service, status created) and tells the recipients' streams; @body is what
 * the agent posted, @answer the text of the 201 a retry gets again.
 * TRIAGE_STORE_INSERT_EXISTS: the same id (or the agent's same @protocol_id)
 * was inserted a moment ago by another server of the database. */
TriageStoreInsert triage_server_add_request (TriageServer    *self,
                                             AtpNotification *envelope,
                                             const char      *protocol_id,
                                             const char      *body,
                                             const char      *answer);
/* The same, with @json the text of @envelope already written (the one text
 * stored and sent to the streams). */
TriageStoreInsert triage_server_add_request_text (TriageServer    *self,
                                                  AtpNotification *envelope,
                                                  const char      *protocol_id,
                                                  const char      *body,
                                                  const char      *json,
                                                  const char      *answer);

/* Whether @existing, as stored, is @body (the agent's JSON) posted again by
 * @service: its service, and its body alike as JSON (atp_json_node_equal ()). */
gboolean  triage_server_is_same_post (TriageNotificationRow *existing,
                                      TriageServiceRow      *service,
                                      JsonNode              *body);

/* A submission refused by the rules of what is submitted, which may be newer
 * than the request stored under its @id (a title of invisible characters, an
 * AFP artifact typed as a media range): when @id is stored as this very request (@body,
 * the agent's JSON, equal to what it posted first, of @service and @protocol),
 * answers the 201 it got first and returns TRUE; else FALSE, nothing answered
 * (the refusal is the caller's to send). A retry after an upgrade, or a
 * withdrawal's post "to make sure it exists", is not refused. */
gboolean  triage_server_answer_stored_repeat (TriageServer      *self,
                                              SoupServerMessage *msg,
                                              TriageServiceRow  *service,
                                              int                protocol,
                                              const char        *id,
                                              JsonNode          *body);

/* The `wait` query parameter (0–60 seconds, 0 when absent); FALSE after
 * answering 400. */
gboolean  triage_server_parse_wait    (SoupServerMessage *msg,
                                       GHashTable        *query,
                                       guint             *wait);
/* Holds @msg until request @id ends or @wait seconds pass, then answers
 * the protocol's agent view. */
void      triage_server_wait          (TriageServer      *self,
                                       SoupServerMessage *msg,
                                       const char        *id,
                                       guint              wait);
/* A service withdraws its pending request @row (the service owns it):
 * TRUE once invalidated, FALSE after answering the 409 of an ended one,
 * which calls it @noun (the service's protocol's word: "notification",
 * "decision request", "review"). */
gboolean  triage_server_invalidate    (TriageServer          *self,
                                       SoupServerMessage     *msg,
                                       TriageNotificationRow *row,
                                       const char            *reason,
                                       gint64                 now,
                                       const char            *noun);

G_END_DECLS
