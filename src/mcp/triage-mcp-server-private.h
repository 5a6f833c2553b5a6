/* triage-mcp-server-private.h — TriageMcpServer as its session and its calls share it
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "triage-mcp-server.h"
#include "triage-mcp-tools.h"
#include "triage-service-request.h"

G_BEGIN_DECLS

/* JSON-RPC error codes */
#define TRIAGE_MCP_PARSE_ERROR      -32700
#define TRIAGE_MCP_INVALID_REQUEST  -32600
#define TRIAGE_MCP_METHOD_NOT_FOUND -32601
#define TRIAGE_MCP_INVALID_PARAMS   -32602
/* Before initialize (our choice: the spec names no code): Invalid Request, since MCP
 * gives -32002 to "Resource not found" (2025-06-18, 2025-11-25) and reserves it (2026-07-28). */
#define TRIAGE_MCP_NOT_INITIALIZED  TRIAGE_MCP_INVALID_REQUEST
#define TRIAGE_MCP_UNSUPPORTED_VERSION -32022 /* MCP 2026-07-28 */

/* What the model is told about the tools (initialize and server/discover). */
#define TRIAGE_MCP_INSTRUCTIONS \
  "These tools ask the person at this computer through Triage, their inbox for agents' " \
  "requests, and wait for the answer. Ask before anything they would want to decide " \
  "(deploying, deleting, spending, sending); give a deadline when the answer stops mattering " \
  "after a while; proceed only on approved: true."

/* A JSON-RPC batch of MCP 2025-03-26 (triage-mcp-batch.c), shared by its calls. */
typedef struct _TriageMcpBatch TriageMcpBatch;
/* The id of a line too long to keep, read as it passes (triage-mcp-id-scan.c). */
typedef struct _TriageMcpIdScan TriageMcpIdScan;
/* Standard output, queued and written when the client reads (triage-mcp-output.c). */
typedef struct _TriageMcpOutput TriageMcpOutput;
/* Withdrawals still owed, kept for the next run in a file per server (triage-mcp-owed.c). */
typedef struct _TriageMcpOwedFile TriageMcpOwedFile;

struct _TriageMcpServer
{
  GObject        parent_instance;

  AtpClient     *client;            /* as main () connected it */
  GHashTable    *service_clients;   /* service id → AtpClient, over the local socket */
  GQueue        *service_order;     /* its keys, the one used longest ago first */
  AtpClient     *session_client;    /* the initialize session's service (strong); NULL before */
  char          *service_id;
  char          *service_name;
  gint64         retry_for_us;
  guint          progress_interval_s;

  GInputStream  *input;
  TriageMcpOutput *output;          /* NULL once writing failed */
  gboolean       paused;            /* not reading: over TRIAGE_MCP_OUTPUT_HIGH waits to be written */
  guint          drain_id;          /* closing: the bound on writing what is left */
  GCancellable  *reading;
  GByteArray    *buffer;
  TriageMcpIdScan *discarding;      /* skipping the rest of an over-long line; NULL when not */

  char          *protocol_version;  /* NULL until initialize */
  TriageMcpBatch *batch;            /* the batch whose responses are collected now */
  GHashTable    *calls;             /* request id as JSON text → Call */
  guint          withdrawing;       /* withdrawals still under way */
  GCancellable  *withdrawals;       /* cancelled when the session's end may wait no more */
  const char    *withdrawals_cut;   /* why they were cancelled, said of each one left */
  TriageMcpOwedFile *owed_file;     /* where they are kept until the server takes them */
  guint          grace_id;          /* closing: the bound on waiting for the withdrawals */
  GPtrArray     *owed;              /* withdrawals the server could not take yet; NULL if none */
  guint          owed_id;           /* the next try of them */
  guint          owed_delay_s;
  gboolean       closing;
  gboolean       closed;
};


/* A tools/call waiting for its request. Shared between the table and each
 * asynchronous step (g_rc_box); `cancellable` tells a late callback to stop. */
typedef struct
{
  TriageMcpServer      *server;          /* strong */
  char                 *key;
  JsonNode             *id;
  TriageMcpTool         tool;
  JsonNode             *progress_token;  /* nullable */
  TriageServiceRequest *request;
  GCancellable         *cancellable;
  guint                 progress_id;
  guint                 progress_count;
  gint64                started;
  const char           *version;         /* interned: what its results and progress look like */
  TriageMcpBatch       *batch;           /* nullable: the batch it came in */
} Call;

JsonObject *triage_mcp_message_new          (void);
/* A message to the client; a response goes into self->batch while there is one. */
void        triage_mcp_server_send          (TriageMcpServer *self,
                                             JsonObject      *message);
/* Writes @node as one line, whatever batch is being read. */
void        triage_mcp_server_write         (TriageMcpServer *self,
                                             JsonNode        *node);
/* One JSON-RPC message, alone on its line or an element of a batch. */
void        triage_mcp_server_handle_message (TriageMcpServer *self,
                                              JsonNode        *root);
/* Takes @result. */
void        triage_mcp_server_send_result   (TriageMcpServer *self,
                                             JsonNode        *id,
                                             JsonObject      *result);
/* Takes @data; @id NULL sends "id": null. */
void        triage_mcp_server_send_error    (TriageMcpServer *self,
                                             JsonNode        *id,
                                             int              code,
                                             JsonObject      *data,
                                             const char      *format,
                                             ...) G_GNUC_PRINTF (5, 6);
/* Emits ::closed once closing and nothing is left to withdraw. */
void        triage_mcp_server_maybe_closed  (TriageMcpServer *self);
/* {name, title, version} of this server. */
JsonObject *triage_mcp_server_info          (void);
/* The connection that asks as the service named after the MCP client @client_info
 * (NULL: a client that gave none, "triage-mcp"), unless --service named one;
 * owned by @self, and kept only for the last few services used: take a reference
 * to keep it past the next call. A remote server knows the service from its key:
 * one connection. */
AtpClient  *triage_mcp_server_client_for    (TriageMcpServer *self,
                                             JsonObject      *client_info);
/* The same for a service named by its id (NULL: the unnamed one); the name is
 * only sent when the connection is new. */
AtpClient  *triage_mcp_server_client_for_service (TriageMcpServer *self,
                                                  const char      *service_id,
                                                  const char      *service_name);
/* TRUE when tools/list's params hold no cursor (none was issued); else answers -32602. */
gboolean    triage_mcp_server_check_cursor  (TriageMcpServer *self,
                                             JsonNode        *id,
                                             JsonObject      *params);
/* A tools/call's params checked; then triage_mcp_call_start (), asking through @client. */
void        triage_mcp_server_handle_call   (TriageMcpServer *self,
                                             AtpClient       *client,
                                             JsonNode        *id,
                                             const char      *key,
                                             JsonObject      *params,
                                             const char      *version);

/* triage-mcp-modern.c */
/* The version a request names in params._meta (MCP 2026-07-28 and later; "" when it
 * is not a string), or NULL for a request of the initialize era. */
const char *triage_mcp_modern_version       (JsonObject      *params);
/* Serves a request that names its version in _meta. */
void        triage_mcp_modern_handle_request (TriageMcpServer *self,
                                              JsonNode        *id,
                                              const char      *key,
                                              const char      *method,
                                              JsonObject      *params);
/* Adds resultType and the server's _meta to a result of such a request. */
void        triage_mcp_modern_complete      (JsonObject      *result);

/* triage-mcp-batch.c */
TriageMcpBatch *triage_mcp_batch_ref        (TriageMcpBatch  *batch);
void        triage_mcp_batch_unref          (TriageMcpBatch  *batch);
/* Handles each message of @messages; their responses go out as one array. */
void        triage_mcp_batch_handle         (TriageMcpServer *self,
                                             JsonArray       *messages);
void        triage_mcp_batch_add_response   (TriageMcpBatch  *batch,
                                             JsonObject      *response);
/* A call of the batch waits for the person; it ends answered or cancelled. */
void        triage_mcp_batch_call_started   (TriageMcpBatch  *batch);
void        triage_mcp_batch_call_ended     (TriageMcpServer *self,
                                             TriageMcpBatch  *batch);
/* Sends the responses once nothing of the batch is left to answer. */
void        triage_mcp_batch_maybe_send     (TriageMcpServer *self,
                                             TriageMcpBatch  *batch);

/* triage-mcp-id-scan.c */
TriageMcpIdScan *triage_mcp_id_scan_new     (void);
void        triage_mcp_id_scan_free         (TriageMcpIdScan *scan);
void        triage_mcp_id_scan_feed         (TriageMcpIdScan *scan,
                                             const guint8    *data,
                                             gsize            length);
/* The line's id, once it has passed (a string or a number), or NULL; owned by @scan. */
JsonNode   *triage_mcp_id_scan_get_id       (TriageMcpIdScan *scan);
gboolean    triage_mcp_id_is_valid          (JsonNode        *id);

/* While more than this waits to be written, the client is not reading: input is not
 * read and progress is not sent (triage-mcp-server.c). */
#define TRIAGE_MCP_OUTPUT_HIGH (1024 * 1024)
/* TRUE while the client leaves more than TRIAGE_MCP_OUTPUT_HIGH unread. */
gboolean    triage_mcp_server_output_backed_up (TriageMcpServer *self);

/* triage-mcp-input.c */
/* Handles the whole lines read, unless the client leaves too much unread. */
void        triage_mcp_input_take_lines     (TriageMcpServer *self);
/* Reads the next chunk of standard input. */
void        triage_mcp_input_read_next      (TriageMcpServer *self);

/* triage-mcp-output.c */
/* Called from the main loop once the queue is empty again, or writing failed. */
typedef void (*TriageMcpOutputFunc)         (gpointer         data);
TriageMcpOutput *triage_mcp_output_new      (GOutputStream   *stream,
                                             TriageMcpOutputFunc func,
                                             gpointer         data);
void        triage_mcp_output_free          (TriageMcpOutput *self);
/* Queues @bytes after what waits, and writes what the stream takes now. */
void        triage_mcp_output_push          (TriageMcpOutput *self,
                                             GBytes          *bytes);
gsize       triage_mcp_output_get_queued    (TriageMcpOutput *self);
/* Set once a write failed; nothing is queued or written after it. */
const GError *triage_mcp_output_get_error   (TriageMcpOutput *self);

/* triage-mcp-owed.c */
typedef struct
{
  char *id;        /* the request's */
  char *service;   /* the service that posted it, over the local socket; else NULL */
  char *reason;    /* nullable */
} TriageMcpOwedEntry;

void        triage_mcp_owed_entry_free      (TriageMcpOwedEntry *entry);
/* The file of the server @client talks to ($XDG_STATE_HOME/triage/mcp-owed-HASH.json). */
TriageMcpOwedFile *triage_mcp_owed_file_new (AtpClient         *client);
void        triage_mcp_owed_file_free       (TriageMcpOwedFile *self);
const char *triage_mcp_owed_file_get_path   (TriageMcpOwedFile *self);
/* (element-type TriageMcpOwedEntry): what the file holds; a damaged file is said once and
 * set aside, keeping what of it reads. */
GPtrArray  *triage_mcp_owed_file_load       (TriageMcpOwedFile *self);
/* Kept until removed (written shortly after, with other changes). */
void        triage_mcp_owed_file_add        (TriageMcpOwedFile *self,
                                             const char        *id,
                                             const char        *service,
                                             const char        *reason);
void        triage_mcp_owed_file_remove     (TriageMcpOwedFile *self,
                                             const char        *id);
/* Writes the changes not written yet, now. */
void        triage_mcp_owed_file_flush      (TriageMcpOwedFile *self);

/* triage-mcp-calls.c */
void        triage_mcp_call_unref           (Call            *call);
/* A tools/call of a known tool, its params and arguments as received; answers
 * invalid arguments at once, else sends the request and answers when it settles. */
void        triage_mcp_call_start           (TriageMcpServer *self,
                                             AtpClient       *client,
                                             JsonNode        *id,
                                             const char      *key,
                                             TriageMcpTool    tool,
                                             JsonObject      *params,
                                             JsonObject      *arguments,
                                             const char      *version);
/* Stops the call @key (no answer is sent) and withdraws its request. */
void        triage_mcp_call_withdraw        (TriageMcpServer *self,
                                             const char      *key,
                                             const char      *reason);

/* triage-mcp-withdrawals.c */
/* Withdraws @request in the background, tried again while the session lasts when the
 * server cannot take it, and kept in the owed file until it does. */
void        triage_mcp_withdraw_request     (TriageMcpServer      *self,
                                             TriageServiceRequest *request,
                                             const char           *reason);
/* The session starts: what the owed file holds (an earlier run's) is withdrawn. */
void        triage_mcp_withdrawals_start    (TriageMcpServer *self);
/* The session ends: what is owed is tried once more, now, and the end waits for the
 * withdrawals under way for a few seconds at most. */
void        triage_mcp_withdrawals_close    (TriageMcpServer *self);
/* The end may wait no more (@why, a static string, says why to the person reading standard
 * error): the withdrawals under way stop (the owed file keeps them). */
void        triage_mcp_withdrawals_stop     (TriageMcpServer *self,
                                             const char      *why);

G_END_DECLS
