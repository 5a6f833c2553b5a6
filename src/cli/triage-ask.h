/* triage-ask.h — the triage-ask command line: options, request, run
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>
#include <glib-unix.h>

#include "triage-service.h"
#include "triage-service-request.h"

G_BEGIN_DECLS

/* Exit statuses (docs/protocol.md, "Command line"). */
typedef enum
{
  TRIAGE_ASK_EXIT_ANSWERED    = 0,   /* answered; with --confirm: approved */
  TRIAGE_ASK_EXIT_DENIED      = 1,   /* --confirm only: denied */
  TRIAGE_ASK_EXIT_USAGE       = 2,   /* bad option or invalid request (ours or the server's 400/413/422) */
  TRIAGE_ASK_EXIT_UNREACHABLE = 3,   /* no server answered within --retry-for */
  TRIAGE_ASK_EXIT_SERVER      = 4,   /* any other server error (401, 403, 404, 409, 5xx, protocol) */
  TRIAGE_ASK_EXIT_EXPIRED     = 5,   /* the deadline passed unanswered */
  TRIAGE_ASK_EXIT_INVALIDATED = 6,   /* the request was withdrawn */
  TRIAGE_ASK_EXIT_INTERRUPTED = 130, /* SIGINT/SIGTERM: the request was withdrawn first */
} TriageAskExit;

#define TRIAGE_ASK_DEFAULT_SERVICE_ID   "triage-ask"
#define TRIAGE_ASK_DEFAULT_RETRY_FOR_S  300
/* The largest file --attach takes (raw; base64 makes it a third larger). */
#define TRIAGE_ASK_MAX_ATTACHMENT_SIZE  (700 * 1024)
#define TRIAGE_ASK_KEY_SCHEMA           TRIAGE_SERVICE_KEY_SCHEMA

typedef struct
{
  /* Where and as whom */
  char     *server_url;       /* NULL: the local server */
  char     *socket_path;      /* local server socket; NULL: the contract path */
  char     *service_id;       /* X-Triage-Service over the local socket */
  char     *service_name;
  gint64    retry_for_us;     /* how long to keep retrying an unreachable server */
  guint     wait_seconds;     /* long-poll length, ≤ 60 */

  /* What */
  gboolean  read_stdin;       /* the request comes as JSON on standard input */
  gboolean  confirm;          /* approve/deny: exit 0 or 1 */
  gboolean  quiet;            /* nothing on standard output */
  gboolean  no_wait;          /* print the post result and exit */
  char     *notification_id;  /* chosen before the first try, kept across retries */
  gboolean  id_ours;          /* random: not --id's nor the JSON's own, so no later run
                               * comes back for the request */
  char     *title;
  char     *body;             /* the notification as sent */

  /* --hook AGENT: answer a coding agent's permission hook (triage-ask-hook.c) */
  char     *hook;
  char     *hook_deadline;

  /* A request of another protocol's endpoint (--aitp): where it is posted, and
   * the member of its settled view that is the answer printed. */
  char       *collection;
  const char *answer_member;
} TriageAskOptions;

TriageAskOptions *triage_ask_options_new        (void);
void              triage_ask_options_free       (TriageAskOptions  *self);

/**
 * triage_ask_options_parse:
 * @argv: (inout): the arguments (GOptionContext strv form, argv[0] included)
 * @now: the time durations count from
 * @error: a %G_OPTION_ERROR for a bad option, or an %ATP_ERROR from
 *   validation that names the option or field at fault
 *
 * Parses the command line and, unless the request comes on standard input,
 * builds and validates the request (triage_ask_options_set_json() then
 * takes the JSON). Refuses secrets on the command line (--api-key, --token).
 */
TriageAskOptions *triage_ask_options_parse      (GStrv             *argv,
                                                 GDateTime         *now,
                                                 GError           **error);

/* The request from JSON text (a notification without service and status). */
gboolean          triage_ask_options_set_json   (TriageAskOptions  *self,
                                                 const char        *data,
                                                 gsize              length,
                                                 GError           **error);

/* Where to ask and as whom, from the connection options (any may be NULL), as
 * given on the command line: made UTF-8 here, as every mode needs. */
gboolean          triage_ask_options_set_connection (TriageAskOptions *self,
                                                     const char       *server,
                                                     const char       *socket_path,
                                                     const char       *service,
                                                     const char       *service_name,
                                                     const char       *retry_for,
                                                     GError          **error);

/* --deadline: a duration from @now or an RFC 3339 time after it, as RFC 3339 in UTC. */
gboolean          triage_ask_parse_deadline     (const char        *text,
                                                 GDateTime         *now,
                                                 char             **rfc3339,
                                                 GError           **error);


/* --hook AGENT with --deadline WHEN (nullable): the service is the agent's unless
 * --service named one, and an unreachable server is not retried unless --retry-for
 * was given (the agent waits meanwhile). */
gboolean          triage_ask_options_set_hook   (TriageAskOptions  *self,
                                                 const char        *agent,
                                                 const char        *deadline,
                                                 GDateTime         *now,
                                                 gboolean           retry_for_given,
                                                 GError           **error);

/* --hook: reads the hook's input, asks, prints the agent's decision JSON; exits 0. */
int               triage_ask_hook_run           (TriageAskOptions  *options);

/* --hook with a mistake on its command line (said on standard error already): the
 * exit status for the event on standard input (2, a denial, for the permission
 * events; 1 for the others, where 2 would block Claude). */
int               triage_ask_hook_usage_status  (void);

/* @text with what could hide or rewrite part of it on a terminal made
 * visible: control characters (an escape sequence's ESC, a carriage return,
 * C1), invisible formatting (bidi overrides, zero-width characters) and the
 * line and paragraph separators U+2028/U+2029 (a line break in a label) become
 * U+FFFD, a tab a space; invalid UTF-8 too. */
char             *triage_ask_visible_text       (const char        *text);
/* "triage-ask: " and the message, made visible, on standard error. */
void              triage_ask_say                (const char        *format,
                                                 ...) G_GNUC_PRINTF (1, 2);

/* Connects to @request's TriageServiceRequest::retrying when standard error
 * is a terminal: a server that cannot be reached is then said at once, with
 * how long the retries may take, instead of minutes of silence. */
void              triage_ask_say_retries        (TriageServiceRequest *request);

/* Stops the run as a signal would, with @why and exit @status, unless it is leaving
 * already (withdrawing, done): then it is not a second signal, which leaves at once. */
typedef void (*TriageAskStopFunc) (gpointer    data,
                                   const char *why,
                                   int         status);

/* Calls @stop once, "nobody reads standard output any more" with SIGPIPE's status
 * (141), when the reader of standard output goes away (the agent that started us
 * quit, a pipeline's next command exited) while we wait: nobody can get the answer.
 * Only a pipe or socket is watched (a terminal's end is SIGHUP); SIGPIPE is ignored,
 * so a write that fails is said. @watch_id is the source's id, set to 0 when it has
 * fired (0 too when nothing is watched). */
void              triage_ask_watch_stdout       (guint             *watch_id,
                                                 TriageAskStopFunc  stop,
                                                 gpointer           data);

/* Past its bound, standard input is read on and dropped for at most this much. */
#define TRIAGE_ASK_INPUT_DRAIN_MAX (64 * 1024 * 1024)

/* All of standard input, NUL-terminated: %ATP_ERROR_PAYLOAD_TOO_LARGE past
 * @max_size bytes (the rest read and dropped, up to TRIAGE_ASK_INPUT_DRAIN_MAX),
 * a %G_IO_ERROR when it cannot be read. Then NULL, or with @keep_head what was
 * read within the bound all the same. */
char             *triage_ask_read_stdin         (gsize              max_size,
                                                 gboolean           keep_head,
                                                 gsize             *length,
                                                 GError           **error);

/*
 * The modes that take the whole command line when their option is on it
 * (triage_ask_main() picks one): --afp (triage-ask-afp.c), --aitp
 * (triage-ask-aitp.c). Each parses its own options and returns the exit status.
 */
int               triage_ask_afp_main           (int                argc,
                                                 char             **argv);
int               triage_ask_aitp_main          (int                argc,
                                                 char             **argv);

/* Sends @options' request, waits for its end, prints the answer (unless
 * quiet) and returns the exit status; withdraws the request when interrupted. */
int               triage_ask_run                (TriageAskOptions  *options);

/* The --help text's option summary is complete; this runs the whole program. */
int               triage_ask_main               (int                argc,
                                                 char             **argv);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TriageAskOptions, triage_ask_options_free)

G_END_DECLS
