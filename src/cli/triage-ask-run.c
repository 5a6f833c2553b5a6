/* triage-ask-run.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-ask"

#include "triage-ask-private.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <glib-unix.h>

#include "atp.h"
#include "atp-client.h"
#include "triage-service-request.h"

/*
 * Send, then wait (TriageServiceRequest: the same id and body on every try,
 * transient failures retried for up to --retry-for), and withdraw the request
 * when interrupted: an ATP notification, or a request of another protocol's
 * endpoint (TriageAskOptions.collection) whose settled view holds the answer
 * to print.
 */

typedef enum
{
  PHASE_POST,
  PHASE_WAIT,
  PHASE_WITHDRAW,
  PHASE_READ_ANSWER,  /* the withdrawal of a run that gave up found it answered */
  PHASE_DONE,
} Phase;

typedef struct
{
  TriageAskOptions     *options;
  TriageServiceRequest *request;
  GMainLoop            *loop;
  GCancellable         *cancellable;
  Phase                 phase;
  int                   status;
  int                   signal_exit;
  const char           *why;          /* what stopped it: "interrupted", … */
  gboolean              gave_up;      /* on the server, not on a signal */
  guint                 stdout_watch;
} Ask;

static void
finish (Ask *ask,
        int  status)
{
  ask->phase = PHASE_DONE;
  ask->status = status;
  g_main_loop_quit (ask->loop);
}

/* Withdrawing, reading the answer its withdrawal found, or done: a signal then ends it. */
static gboolean
leaving (Ask *ask)
{
  return ask->phase == PHASE_WITHDRAW || ask->phase == PHASE_READ_ANSWER ||
         ask->phase == PHASE_DONE;
}

static int
exit_status_for (const GError *error)
{
  if (error->domain != ATP_ERROR)
    return TRIAGE_ASK_EXIT_SERVER;

  switch (error->code)
    {
    case ATP_ERROR_CONNECTION_FAILED:
    case ATP_ERROR_CONNECTION_LOST:
      return TRIAGE_ASK_EXIT_UNREACHABLE;
    case ATP_ERROR_INVALID_JSON:
    case ATP_ERROR_INVALID_REQUEST:
    case ATP_ERROR_MISSING_REQUIRED_FIELD:
    case ATP_ERROR_INVALID_FIELD_VALUE:
    case ATP_ERROR_INVALID_PARAMETER:
    case ATP_ERROR_MALFORMED_ACTION:
    case ATP_ERROR_INVALID_RESPONSE_TYPE:
    case ATP_ERROR_PAYLOAD_TOO_LARGE:
    case ATP_ERROR_CONSTRAINT_VIOLATION:
      return TRIAGE_ASK_EXIT_USAGE;
    default:
      return TRIAGE_ASK_EXIT_SERVER;
    }
}

/*
 * The server checks a deadline against its own clock when the request has no
 * timestamp of its own: --aitp's x-triage.deadline (AITP has none), and an
 * ATP notification resent with --id with an RFC 3339 deadline (a timestamp
 * would make every run another body). Refused because it passed while the
 * server was away (it was ahead when triage-ask started), nobody could
 * answer in time: an expiry, not a fault of the request.
 */
static gboolean
refused_as_passed (Ask          *ask,
                   const GError *error)
{
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GDateTime) deadline = NULL;
  g_autoptr(GDateTime) now = NULL;
  JsonObject *holder = NULL;
  g_autofree char *lower = NULL;
  const char *text = NULL;

  if (!g_error_matches (error, ATP_ERROR, ATP_ERROR_INVALID_FIELD_VALUE))
    return FALSE;
  /* "x-triage.deadline: …"; for ATP "The deadline must be after the
   * notification's timestamp" (details.field, which we do not keep, says
   * deadline). */
  lower = g_ascii_strdown (error->message, -1);
  if (ask->options->collection != NULL ? !g_str_has_prefix (error->message, "x-triage.deadline: ")
                                       : strstr (lower, "deadline") == NULL)
    return FALSE;
  root = atp_json_parse (ask->options->body, -1, 0, NULL);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    return FALSE;
  holder = json_node_get_object (root);
  if (ask->options->collection != NULL)
    {
      JsonNode *extension = json_object_get_member (holder, "x-triage");

      holder = extension != NULL && JSON_NODE_HOLDS_OBJECT (extension)
               ? json_node_get_object (extension) : NULL;
    }
  if (holder != NULL)
    text = json_object_get_string_member_with_default (holder, "deadline", NULL);
  if (text == NULL || (deadline = atp_parse_timestamp (text)) == NULL)
    return FALSE;
  now = g_date_time_new_now_utc ();
  return g_date_time_compare (deadline, now) <= 0;
}

/* A failure of the current phase (after the request's own retries). */
static void
failed (Ask          *ask,
        const GError *error)
{
  triage_ask_say ("%s", error->message);
  finish (ask, exit_status_for (error));
}

/* Prints @node; FALSE (said, and the run finished with status 4) when it
 * could not be written: a script reading the answer must not take exit 0
 * for one it never got (a full disk, a closed standard output). */
static gboolean
print_json (Ask      *ask,
            JsonNode *node)
{
  g_autofree char *text = NULL;
  g_autofree char *line = NULL;

  if (ask->options->quiet)
    return TRUE;

  text = atp_json_to_string (node, NULL);
  line = g_strconcat (text, "\n", NULL);
  if (!triage_ask_write_json_text (line, strlen (line)))
    {
      triage_ask_say ("cannot write the answer on standard output: %s", g_strerror (errno));
      finish (ask, TRIAGE_ASK_EXIT_SERVER);
      return FALSE;
    }
  return TRUE;
}

/* Why, when the service said: a script withdrawn by another of its own (a
 * newer run, a cleanup) tells whoever reads its standard error. */
static void
say_withdrawn (const char *reason)
{
  if (reason != NULL && *reason != '\0')
    triage_ask_say ("the request was withdrawn before anyone answered it: “%s”", reason);
  else
    triage_ask_say ("the request was withdrawn before anyone answered it");
}

static void
settled (Ask             *ask,
         AtpNotification *notification)
{
  switch (notification->status)
    {
    case ATP_STATUS_RESPONDED:
      {
        g_autoptr(JsonNode) json = atp_response_to_json (notification->response);

        if (!print_json (ask, json))
          return;
      }
      if (ask->options->confirm && !g_str_equal (notification->response->action_id, "approve"))
        finish (ask, TRIAGE_ASK_EXIT_DENIED);
      else
        finish (ask, TRIAGE_ASK_EXIT_ANSWERED);
      return;

    case ATP_STATUS_EXPIRED:
      triage_ask_say ("the request expired before anyone answered it");
      finish (ask, TRIAGE_ASK_EXIT_EXPIRED);
      return;

    case ATP_STATUS_INVALIDATED:
    case ATP_STATUS_CREATED:
    case ATP_STATUS_DELIVERED:
    case ATP_STATUS_ACKNOWLEDGED:
    default:
      say_withdrawn (notification->reason);
      finish (ask, TRIAGE_ASK_EXIT_INVALIDATED);
      return;
    }
}

/* The settled view of another protocol's request: `status` answered,
 * expired or invalidated, the answer under options->answer_member. */
static void
settled_view (Ask      *ask,
              JsonNode *view)
{
  JsonObject *object = json_node_get_object (view);
  const char *status = json_object_get_string_member_with_default (object, "status", "");
  JsonNode *answer = json_object_get_member (object, ask->options->answer_member);

  if (g_str_equal (status, "answered") && answer != NULL && JSON_NODE_HOLDS_OBJECT (answer))
    {
      if (print_json (ask, answer))
        finish (ask, TRIAGE_ASK_EXIT_ANSWERED);
    }
  else if (g_str_equal (status, "expired"))
    {
      triage_ask_say ("the request expired before anyone answered it");
      finish (ask, TRIAGE_ASK_EXIT_EXPIRED);
    }
  else if (g_str_equal (status, "invalidated"))
    {
      /* AITP-02's GET carries no reason (docs/protocol.md): its webhook does. */
      say_withdrawn (NULL);
      finish (ask, TRIAGE_ASK_EXIT_INVALIDATED);
    }
  else
    {
      triage_ask_say ("the server's answer makes no sense: status “%s”%s", status,
                      answer == NULL ? " without the answer" : "");
      finish (ask, TRIAGE_ASK_EXIT_SERVER);
    }
}

static void withdraw_cb (GObject      *object,
                         GAsyncResult *result,
                         gpointer      user_data);

/*
 * The server went away (or failed) for longer than --retry-for after it took
 * the request (or may have: a POST whose answer was lost): said, and the request withdrawn before the exit, as on a
 * signal. Nobody waits for its answer any more, and with an id of our own no
 * later run comes back for it (a request sent with --id, or with the JSON's
 * own id, is kept for the run that resends it).
 */
static void
give_up (Ask          *ask,
         const GError *error)
{
  triage_ask_say ("%s", error->message);
  ask->phase = PHASE_WITHDRAW;
  ask->why = "gave up waiting";
  ask->gave_up = TRUE;
  ask->signal_exit = exit_status_for (error);
  triage_service_request_withdraw_async (ask->request,
                                         "triage-ask gave up waiting; nobody waits for the answer",
                                         NULL, withdraw_cb, ask);
}

static void
wait_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Ask *ask = user_data;
  TriageServiceRequest *request = TRIAGE_SERVICE_REQUEST (object);
  g_autoptr(AtpNotification) notification = NULL;
  g_autoptr(JsonNode) view = NULL;
  g_autoptr(GError) error = NULL;

  if (ask->options->collection != NULL)
    view = triage_service_request_wait_json_finish (request, result, &error);
  else
    notification = triage_service_request_wait_finish (request, result, &error);
  if (ask->phase != PHASE_WAIT && ask->phase != PHASE_READ_ANSWER)
    return;   /* interrupted meanwhile */

  if (error != NULL && ask->phase == PHASE_READ_ANSWER)
    {
      triage_ask_say ("%s; the person answered meanwhile, but the answer could not be read: %s",
                      ask->why, error->message);
      finish (ask, ask->signal_exit);
    }
  else if (error != NULL && ask->options->id_ours &&
           triage_service_request_left_pending (request, error))
    give_up (ask, error);
  else if (error != NULL)
    failed (ask, error);
  else if (view != NULL)
    settled_view (ask, view);
  else
    settled (ask, notification);
}

static void
on_request_retrying (TriageServiceRequest *request,
                     const GError         *error,
                     gint64                remaining_us,
                     gpointer              user_data)
{
  gint64 seconds = (remaining_us + G_USEC_PER_SEC - 1) / G_USEC_PER_SEC;

  if (seconds >= 120)
    triage_ask_say ("%s; trying again for up to %" G_GINT64_FORMAT " minutes (Ctrl+C to stop)",
                    error->message, (seconds + 59) / 60);
  else
    triage_ask_say ("%s; trying again for up to %" G_GINT64_FORMAT " s (Ctrl+C to stop)",
                    error->message, seconds);
}

void
triage_ask_say_retries (TriageServiceRequest *request)
{
  if (isatty (STDERR_FILENO))
    g_signal_connect (request, "retrying", G_CALLBACK (on_request_retrying), NULL);
}

static void
post_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Ask *ask = user_data;
  TriageServiceRequest *request = TRIAGE_SERVICE_REQUEST (object);
  g_autoptr(AtpPostResult) post = NULL;
  g_autoptr(JsonNode) created = NULL;
  g_autoptr(GError) error = NULL;

  if (ask->options->collection != NULL)
    created = triage_service_request_send_json_finish (request, result, &error);
  else
    post = triage_service_request_send_finish (request, result, &error);
  if (ask->phase != PHASE_POST)
    return;

  if (error != NULL && refused_as_passed (ask, error))
    {
      triage_ask_say ("nobody decided before the deadline: the server could not be reached "
                      "before it passed");
      finish (ask, TRIAGE_ASK_EXIT_EXPIRED);
      return;
    }
  /* The server may have stored it, and its answer was lost. */
  if (error != NULL && ask->options->id_ours &&
      triage_service_request_left_pending (request, error))
    {
      give_up (ask, error);
      return;
    }
  if (error != NULL)
    {
      failed (ask, error);
      return;
    }

  if (ask->options->no_wait)
    {
      g_autoptr(JsonObject) object_out = NULL;
      g_autoptr(JsonNode) node = NULL;

      /* What the server said: another protocol's 201 as it is. */
      if (created != NULL)
        node = json_node_ref (created);
      else
        {
          object_out = json_object_new ();
          json_object_set_string_member (object_out, "notification_id", post->notification_id);
          json_object_set_string_member (object_out, "status", atp_status_to_string (post->status));
          node = json_node_init_object (json_node_alloc (), object_out);
        }
      if (print_json (ask, node))
        finish (ask, TRIAGE_ASK_EXIT_ANSWERED);
      return;
    }

  if (isatty (STDERR_FILENO))
    triage_ask_say ("waiting for an answer to “%s” (%s)", ask->options->title,
                    triage_service_request_get_notification_id (request));

  ask->phase = PHASE_WAIT;
  triage_service_request_wait_async (ask->request, ask->options->wait_seconds, ask->cancellable,
                                     wait_cb, ask);
}

static void
withdraw_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  Ask *ask = user_data;
  g_autoptr(GError) error = NULL;

  if (ask->phase != PHASE_WITHDRAW)
    return;   /* a second signal finished it meanwhile */

  if (triage_service_request_withdraw_finish (TRIAGE_SERVICE_REQUEST (object), result, &error))
    triage_ask_say ("%s: the request was withdrawn", ask->why);
  /* The person answered as it gave up (through another server of a cluster, or while
   * this one was away): the answer is not lost, it is the run's. */
  else if (ask->gave_up &&
           g_error_matches (error, ATP_ERROR, ATP_ERROR_NOTIFICATION_ALREADY_RESPONDED))
    {
      triage_ask_say ("%s, but the person had answered meanwhile", ask->why);
      ask->phase = PHASE_READ_ANSWER;
      triage_service_request_wait_async (ask->request, ask->options->wait_seconds,
                                         ask->cancellable, wait_cb, ask);
      return;
    }
  else if (g_error_matches (error, ATP_ERROR, ATP_ERROR_NOTIFICATION_NOT_FOUND))
    triage_ask_say ("%s before the request reached the server", ask->why);
  /* Left for the person to see: named, so that whoever reads this can find it. */
  else
    triage_ask_say ("%s; could not withdraw request %s, which waits in the person's inbox "
                    "until answered or expired: %s", ask->why,
                    triage_service_request_get_notification_id (ask->request), error->message);

  finish (ask, ask->signal_exit);
}

static gboolean
on_signal (gpointer data)
{
  Ask *ask = data;

  if (leaving (ask))
    {
      finish (ask, ask->signal_exit);   /* a second signal: leave now */
      return G_SOURCE_CONTINUE;
    }

  g_cancellable_cancel (ask->cancellable);
  ask->phase = PHASE_WITHDRAW;

  /* Nobody is waiting for the answer any more: take the request back. */
  triage_service_request_withdraw_async (ask->request,
                                         "triage-ask was interrupted; nobody waits for the answer",
                                         NULL, withdraw_cb, ask);
  return G_SOURCE_CONTINUE;
}

static gboolean
on_sigint (gpointer data)
{
  ((Ask *) data)->signal_exit = TRIAGE_ASK_EXIT_INTERRUPTED;
  return on_signal (data);
}

static gboolean
on_sigterm (gpointer data)
{
  ((Ask *) data)->signal_exit = 128 + SIGTERM;
  return on_signal (data);
}

/* The terminal it runs in closed: nobody waits for the answer there either. */
static gboolean
on_sighup (gpointer data)
{
  ((Ask *) data)->signal_exit = 128 + SIGHUP;
  return on_signal (data);
}

/* Nobody reads the answer any more: it kept waiting, and the person's answer
 * went nowhere (the write then killed it with SIGPIPE). Withdrawn as on a
 * signal; the exit status is SIGPIPE's. */
static void
stop_unless_leaving (gpointer    data,
                     const char *why,
                     int         status)
{
  Ask *ask = data;

  if (leaving (ask))
    return;
  ask->why = why;
  ask->signal_exit = status;
  on_signal (ask);
}

/* The modes that take the whole command line, each named by its option. */
static const struct
{
  const char *option;
  int       (*main) (int    argc,
                     char **argv);
} modes[] = {
  { "--afp", triage_ask_afp_main },
  { "--aitp", triage_ask_aitp_main },
};

/* The mode the command line asks for (-1: none, ATP's own options), or
 * FALSE when it names two. */
static gboolean
find_mode (int      argc,
           char   **argv,
           int     *mode,
           GError **error)
{
  *mode = -1;
  for (int i = 1; i < argc && !g_str_equal (argv[i], "--"); i++)
    for (guint m = 0; m < G_N_ELEMENTS (modes); m++)
      {
        if (!g_str_equal (argv[i], modes[m].option) || *mode == (int) m)
          continue;
        if (*mode >= 0)
          return triage_ask_usage_error (error, "%s and %s are two ways to ask; use one",
                                         modes[*mode].option, modes[m].option);
        *mode = (int) m;
      }
  return TRUE;
}

int
triage_ask_run (TriageAskOptions *options)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpClient) client = NULL;
  Ask ask = { 0 };
  guint sigint_id;
  guint sigterm_id;
  guint sighup_id;

  client = triage_service_connect (options->server_url, options->socket_path,
                                   options->service_id, options->service_name, &error);
  if (client == NULL)
    {
      triage_ask_say ("%s", error->message);
      return TRIAGE_ASK_EXIT_USAGE;
    }

  ask.options = options;
  if (options->collection != NULL)
    ask.request = triage_service_request_new_at (client, options->collection,
                                                 options->notification_id, options->body,
                                                 options->retry_for_us);
  else
    ask.request = triage_service_request_new (client, options->notification_id, options->body,
                                              options->retry_for_us);
  triage_ask_say_retries (ask.request);
  ask.loop = g_main_loop_new (NULL, FALSE);
  ask.cancellable = g_cancellable_new ();
  ask.phase = PHASE_POST;
  ask.status = TRIAGE_ASK_EXIT_SERVER;
  ask.signal_exit = TRIAGE_ASK_EXIT_INTERRUPTED;
  ask.why = "interrupted";

  sigint_id = g_unix_signal_add (SIGINT, on_sigint, &ask);
  sigterm_id = g_unix_signal_add (SIGTERM, on_sigterm, &ask);
  sighup_id = triage_service_add_sighup (on_sighup, &ask);
  if (!options->quiet)
    triage_ask_watch_stdout (&ask.stdout_watch, stop_unless_leaving, &ask);

  triage_service_request_send_async (ask.request, ask.cancellable, post_cb, &ask);
  g_main_loop_run (ask.loop);

  g_source_remove (sigint_id);
  g_source_remove (sigterm_id);
  g_clear_handle_id (&sighup_id, g_source_remove);
  g_clear_handle_id (&ask.stdout_watch, g_source_remove);
  g_cancellable_cancel (ask.cancellable);

  /* Let cancelled calls finish so nothing is left for the leak checker. */
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_main_loop_unref (ask.loop);
  g_clear_object (&ask.cancellable);
  g_clear_object (&ask.request);

  return ask.status;
}

/* Whether the command line is a hook's (--hook AGENT or --hook=AGENT, whatever
 * else is wrong with it). */
static gboolean
is_hook (int    argc,
         char **argv)
{
  for (int i = 1; i < argc && !g_str_equal (argv[i], "--"); i++)
    if (g_str_equal (argv[i], "--hook") || g_str_has_prefix (argv[i], "--hook="))
      return TRUE;
  return FALSE;
}

int
triage_ask_main (int    argc,
                 char **argv)
{
  g_autoptr(TriageAskOptions) options = NULL;
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) args = NULL;
  int mode;

  /* Standard output is the answer (a hook's decision, AITP's or AFP's JSON) and
   * nothing else: GLib prints debug and info lines there when G_MESSAGES_DEBUG
   * is set (GIO's GSocketClient among them). */
  g_log_writer_default_set_use_stderr (TRUE);
  triage_service_hold_standard_fds ();

  if (!find_mode (argc, argv, &mode, &error))
    {
      triage_ask_say ("%s", error->message);
      return TRIAGE_ASK_EXIT_USAGE;
    }
  if (mode >= 0)
    return modes[mode].main (argc, argv);

  args = g_new0 (char *, argc + 1);
  for (int i = 0; i < argc; i++)
    args[i] = g_strdup (argv[i]);

  options = triage_ask_options_parse (&args, now, &error);
  if (options == NULL)
    {
      triage_ask_say ("%s", error->message);
      return is_hook (argc, argv) ? triage_ask_hook_usage_status () : TRIAGE_ASK_EXIT_USAGE;
    }

  if (options->hook != NULL)
    return triage_ask_hook_run (options);

  if (options->read_stdin)
    {
      gsize length = 0;
      g_autofree char *text = triage_ask_read_stdin (ATP_MAX_NOTIFICATION_SIZE, FALSE, &length, &error);

      if (text != NULL && length == 0)
        g_set_error_literal (&error, ATP_ERROR, ATP_ERROR_INVALID_JSON, "it is empty");
      if (error != NULL)
        {
          triage_ask_say ("invalid request on standard input: %s", error->message);
          return TRIAGE_ASK_EXIT_USAGE;
        }
      if (!triage_ask_options_set_json (options, text, length, &error))
        {
          triage_ask_say ("%s", error->message);
          return TRIAGE_ASK_EXIT_USAGE;
        }
    }

  return triage_ask_run (options);
}
