/* triage-ask-afp.c — triage-ask --afp: a review in the Agent Feedback Protocol 1.2
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-ask"

#include "triage-ask-private.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <glib-unix.h>

#include "atp.h"
#include "atp-afp.h"
#include "triage-service-request.h"

/*
 * The Requester writes one Request Object on standard input; we are the tool
 * layer and (through the person) the Provider. Standard output gets exactly
 * the three wrapper lines, all at once and only once the Response Object is
 * known, so nothing half-written ever reaches it: exit 0 whenever they were
 * written (an error response too), 3 when no server could be reached
 * (nothing written), 2 for a bad command line, 130/143/129/141 when interrupted or
 * the terminal closes or the Requester stops reading (the review is withdrawn
 * first). docs/protocol.md has the details.
 */

#define REVIEWS  "/api/v1/afp/reviews"
#define SESSIONS "/api/v1/afp/sessions"

typedef enum
{
  PHASE_POST,
  PHASE_WAIT,
  PHASE_SESSION,
  PHASE_WITHDRAW,
  PHASE_DONE,
} Phase;

typedef struct
{
  TriageAskOptions     *options;
  char                 *session_id;   /* --session, then the server's */
  char                 *deadline;     /* RFC 3339 */
  char                 *title;
  char                 *project;
  JsonNode             *root;         /* the Request Object as read */
  AtpAfpRequest        *request;      /* when valid */
  gint64                started_ms;   /* when we began: step_start of a refusal */

  AtpClient            *client;
  TriageServiceRequest *review;
  GMainLoop            *loop;
  GCancellable         *cancellable;
  Phase                 phase;
  int                   status;
  int                   signal_exit;
  const char           *why;          /* what stopped it: "interrupted", … */
  guint                 stdout_watch;
  GError               *refusal;      /* while the session's ids are looked up for its ack */
} Review;

static gboolean connect_client (Review *self);

static gint64
now_ms (void)
{
  return g_get_real_time () / 1000;
}

static void
finish (Review *self,
        int     status)
{
  self->phase = PHASE_DONE;
  self->status = status;
  if (self->loop != NULL)
    g_main_loop_quit (self->loop);
}

/* The three lines, in one write; the exit status that follows. */
static int
write_stream (Review         *self,
              AtpAfpResponse *response,
              const char     *message_id,
              gint64          started_ms,
              gint64          answered_ms)
{
  g_autofree char *session = NULL;
  g_autofree char *text = NULL;
  g_autoptr(JsonObject) extensions = json_object_new ();
  AtpAfpStreamInfo info = { 0 };
  gsize length;

  /* A refused first request opened no session: its id is one nobody stored. */
  if (self->session_id == NULL)
    session = atp_afp_random_id ("ses_", 24);

  info.session_id = self->session_id != NULL ? self->session_id : session;
  info.message_id = message_id;
  info.started_ms = started_ms;
  info.answered_ms = MAX (answered_ms, started_ms);
  info.finished_ms = MAX (now_ms (), info.answered_ms);
  json_object_set_int_member (extensions, "x-triage-review-ms", info.answered_ms - started_ms);
  info.finish_extensions = extensions;

  text = atp_afp_wrapper_write_stream (&info, response, &length);
  if (!triage_ask_write_json_text (text, length))
    {
      triage_ask_say ("cannot write the answer on standard output: %s", g_strerror (errno));
      return TRIAGE_ASK_EXIT_SERVER;
    }

  return TRIAGE_ASK_EXIT_ANSWERED;
}

/* An error Response Object for a request that never became a review; ends the run. */
static void
write_error (Review     *self,
             const char *code,
             const char *message,
             GPtrArray  *ack)
{
  g_autoptr(AtpAfpResponse) response = NULL;

  response = atp_afp_response_new_error (atp_afp_request_peek_iteration (self->root), code,
                                         message, ack);
  finish (self, write_stream (self, response, NULL, self->started_ms, now_ms ()));
}

/* ---- a refusal: its ack needs the ids the session issued ---- */

static GHashTable *
issued_ids_of (JsonNode *session)
{
  GHashTable *issued = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  JsonNode *ids = json_object_get_member (json_node_get_object (session), "issued_ids");

  if (ids != NULL && JSON_NODE_HOLDS_ARRAY (ids))
    {
      JsonArray *array = json_node_get_array (ids);

      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          JsonNode *id = json_array_get_element (array, i);

          if (JSON_NODE_HOLDS_VALUE (id) && json_node_get_value_type (id) == G_TYPE_STRING)
            g_hash_table_add (issued, g_strdup (json_node_get_string (id)));
        }
    }

  return issued;
}

/* The server refused the --deadline because it had passed: the server was
 * away until after it (the deadline was ahead when triage-ask started). Nobody
 * could review the artifact in time, which is an expiry, not a fault of the
 * Request Object. */
static gboolean
refused_as_passed (Review *self)
{
  g_autoptr(GDateTime) deadline = NULL;
  g_autoptr(GDateTime) now = NULL;

  if (self->deadline == NULL ||
      !g_error_matches (self->refusal, ATP_ERROR, ATP_ERROR_INVALID_FIELD_VALUE) ||
      !g_str_has_prefix (self->refusal->message, "deadline: "))
    return FALSE;
  deadline = atp_parse_timestamp (self->deadline);
  now = g_date_time_new_now_utc ();
  return deadline != NULL && g_date_time_compare (deadline, now) <= 0;
}

static void
write_refusal (Review     *self,
               GHashTable *issued)
{
  g_autoptr(GPtrArray) applied = atp_afp_request_peek_applied (self->root);
  g_autoptr(GPtrArray) ack = atp_afp_ack_items_for (applied, issued);
  const char *said = self->refusal->message;
  g_autofree char *named = NULL;

  /* Only a given --id can meet another review's (a made one is new): the
   * caller's mistake, not a failure of Triage. */
  if (g_error_matches (self->refusal, ATP_ERROR, ATP_ERROR_NOTIFICATION_ALREADY_EXISTS))
    {
      g_autofree char *message = g_strdup_printf ("--id %s: a review with this id was asked "
                                                  "already, with another request; each review "
                                                  "needs its own id (the same one only for a "
                                                  "retry of the same request)",
                                                  self->options->notification_id);

      write_error (self, ATP_AFP_CODE_INVALID_REQUEST, message, ack);
      return;
    }
  if (refused_as_passed (self))
    {
      g_autofree char *message = g_strdup_printf ("Nobody reviewed the artifact before the "
                                                  "deadline (%s): the server could not be "
                                                  "reached before it passed", self->deadline);

      write_error (self, ATP_AFP_CODE_REVIEW_EXPIRED, message, ack);
      return;
    }
  /* The server names the Request Object's fields under its own member
   * "request"; the Requester wrote them at the top of the object. Its
   * session_id is our --session (the Requester never wrote a session_id). */
  if (g_str_has_prefix (said, "request."))
    said += strlen ("request.");
  else if (g_str_has_prefix (said, "session_id: "))
    said = named = g_strconcat ("--session: ", said + strlen ("session_id: "), NULL);
  write_error (self, atp_afp_error_code_for (self->refusal), said, ack);
}

static void
session_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  Review *self = user_data;
  g_autoptr(JsonNode) session = NULL;
  g_autoptr(GHashTable) issued = NULL;
  g_autoptr(GError) error = NULL;

  session = atp_client_call_finish (ATP_CLIENT (object), result, &error);
  if (self->phase != PHASE_SESSION)
    return;

  if (session != NULL)
    issued = issued_ids_of (session);
  else if (g_error_matches (error, ATP_ERROR, ATP_ERROR_SESSION_NOT_FOUND))
    issued = NULL;   /* no session: nothing was issued in it */
  else if (triage_service_error_is_unreachable (error))
    {
      triage_ask_say ("%s", error->message);
      finish (self, TRIAGE_ASK_EXIT_UNREACHABLE);
      return;
    }
  else
    {
      write_error (self, ATP_AFP_CODE_INTERNAL_ERROR, error->message, NULL);
      return;
    }

  write_refusal (self, issued);
}

/* The request was refused (@error): answer with its code, and acknowledge its
 * applied_feedback against what the session issued. */
static void
refused (Review *self,
         GError *error)   /* takes */
{
  g_autoptr(GPtrArray) applied = atp_afp_request_peek_applied (self->root);
  g_autofree char *escaped = NULL;
  g_autofree char *path = NULL;

  g_clear_error (&self->refusal);
  self->refusal = error;

  if (applied == NULL || self->session_id == NULL)
    {
      write_refusal (self, NULL);
      return;
    }
  if (!connect_client (self))
    return;

  escaped = g_uri_escape_string (self->session_id, NULL, FALSE);
  path = g_strdup_printf (SESSIONS "/%s", escaped);
  self->phase = PHASE_SESSION;
  atp_client_call_async (self->client, "GET", path, NULL, TRUE, 0, self->cancellable,
                         session_cb, self);
}

/* ---- the review ---- */

static gint64
time_ms (JsonObject *object,
         const char *name,
         gint64      fallback)
{
  const char *text = json_object_get_string_member_with_default (object, name, NULL);
  g_autoptr(GDateTime) time = text != NULL ? atp_parse_timestamp (text) : NULL;

  if (time == NULL)
    return fallback;
  return g_date_time_to_unix (time) * 1000 + g_date_time_get_microsecond (time) / 1000;
}

static void
settled (Review   *self,
         JsonNode *answer)
{
  JsonObject *object = json_node_get_object (answer);
  g_autoptr(AtpAfpResponse) response = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) message_id = NULL;
  const char *id = triage_service_request_get_notification_id (self->review);
  JsonNode *member = json_object_get_member (object, "response");

  response = atp_afp_response_new_from_json (member, &error);
  if (response != NULL && !atp_afp_response_check_for_request (response, self->request, &error))
    g_clear_pointer (&response, atp_afp_response_unref);
  if (response == NULL)
    {
      g_autofree char *message = g_strdup_printf ("%s answered the review with a Response Object "
                                                  "that is not valid: %s",
                                                  atp_client_get_display_name (self->client),
                                                  error->message);

      write_error (self, ATP_AFP_CODE_INTERNAL_ERROR, message, NULL);
      return;
    }

  /* msg_ and the review's id without its dashes */
  message_id = g_string_new ("msg_");
  for (const char *p = id; *p != '\0'; p++)
    {
      if (*p != '-')
        g_string_append_c (message_id, *p);
    }

  finish (self, write_stream (self, response, message_id->str,
                              time_ms (object, "created_at", self->started_ms),
                              time_ms (object, "settled_at", now_ms ())));
}

static void
withdraw_after_failure_cb (GObject      *object,
                           GAsyncResult *result,
                           gpointer      user_data)
{
  Review *self = user_data;
  g_autoptr(GError) error = NULL;

  if (!triage_service_request_withdraw_finish (TRIAGE_SERVICE_REQUEST (object), result, &error))
    triage_ask_say ("could not withdraw the review: %s", error->message);
  finish (self, self->status);
}

/* A failure after the review was accepted: say so to the Requester and take
 * the review back, since nobody will wait for its answer. */
static void
failed_while_waiting (Review       *self,
                      const GError *error)
{
  g_autoptr(AtpAfpResponse) response = NULL;

  if (triage_service_error_is_unreachable (error))
    {
      triage_ask_say ("%s", error->message);
      finish (self, TRIAGE_ASK_EXIT_UNREACHABLE);
      return;
    }

  response = atp_afp_response_new_error (self->request->iteration, ATP_AFP_CODE_INTERNAL_ERROR,
                                         error->message, NULL);
  self->status = write_stream (self, response, NULL, self->started_ms, now_ms ());
  self->phase = PHASE_WITHDRAW;
  triage_service_request_withdraw_async (self->review,
                                         "triage-ask --afp could not wait for the answer",
                                         NULL, withdraw_after_failure_cb, self);
}

static void
wait_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Review *self = user_data;
  g_autoptr(JsonNode) answer = NULL;
  g_autoptr(GError) error = NULL;

  answer = triage_service_request_wait_json_finish (TRIAGE_SERVICE_REQUEST (object), result, &error);
  if (self->phase != PHASE_WAIT)
    return;

  if (answer == NULL)
    failed_while_waiting (self, error);
  else
    settled (self, answer);
}

static void
post_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Review *self = user_data;
  g_autoptr(JsonNode) created = NULL;
  GError *error = NULL;
  const char *session;

  created = triage_service_request_send_json_finish (TRIAGE_SERVICE_REQUEST (object), result, &error);
  if (self->phase != PHASE_POST)
    {
      g_clear_error (&error);
      return;
    }

  if (created == NULL)
    {
      if (triage_service_error_is_unreachable (error))
        {
          triage_ask_say ("%s", error->message);
          g_error_free (error);
          finish (self, TRIAGE_ASK_EXIT_UNREACHABLE);
        }
      else
        refused (self, error);
      return;
    }

  session = json_object_get_string_member_with_default (json_node_get_object (created),
                                                        "session_id", NULL);
  if (session == NULL)
    {
      write_error (self, ATP_AFP_CODE_INTERNAL_ERROR, "The server accepted the review without "
                   "naming its session", NULL);
      return;
    }
  g_free (self->session_id);
  self->session_id = g_strdup (session);

  if (isatty (STDERR_FILENO))
    triage_ask_say ("waiting for the review of iteration %" G_GINT64_FORMAT " (session %s)",
                    self->request->iteration, self->session_id);

  self->phase = PHASE_WAIT;
  triage_service_request_wait_async (self->review, self->options->wait_seconds, self->cancellable,
                                     wait_cb, self);
}

/* ---- interruption ---- */

static void
withdraw_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  Review *self = user_data;
  g_autoptr(GError) error = NULL;

  if (triage_service_request_withdraw_finish (TRIAGE_SERVICE_REQUEST (object), result, &error))
    triage_ask_say ("%s: the review was withdrawn", self->why);
  else if (g_error_matches (error, ATP_ERROR, ATP_ERROR_NOTIFICATION_NOT_FOUND))
    triage_ask_say ("%s before the review reached the server", self->why);
  else
    triage_ask_say ("%s; could not withdraw the review: %s", self->why, error->message);

  finish (self, self->signal_exit);
}

static gboolean
on_signal (Review *self,
           int     exit_status)
{
  self->signal_exit = exit_status;
  if (self->phase == PHASE_WITHDRAW || self->phase == PHASE_DONE || self->review == NULL)
    {
      finish (self, exit_status);   /* a second signal, or nothing sent: leave now */
      return G_SOURCE_CONTINUE;
    }

  g_cancellable_cancel (self->cancellable);
  self->phase = PHASE_WITHDRAW;
  triage_service_request_withdraw_async (self->review,
                                         "triage-ask was interrupted; nobody waits for the review",
                                         NULL, withdraw_cb, self);
  return G_SOURCE_CONTINUE;
}

static gboolean
on_sigint (gpointer data)
{
  return on_signal (data, TRIAGE_ASK_EXIT_INTERRUPTED);
}

static gboolean
on_sigterm (gpointer data)
{
  return on_signal (data, 128 + SIGTERM);
}

/* The terminal it runs in closed: nobody waits for the review there either. */
static gboolean
on_sighup (gpointer data)
{
  return on_signal (data, 128 + SIGHUP);
}

/* The Requester stopped reading (it quit, or crashed): no review can reach it. */
static void
stop_unless_leaving (gpointer    data,
                     const char *why,
                     int         status)
{
  Review *self = data;

  if (self->phase == PHASE_WITHDRAW || self->phase == PHASE_DONE)
    return;
  self->why = why;
  on_signal (self, status);
}

/* ---- the command line ---- */

static const char help_description[] =
  "Standard input: one Request Object of the Agent Feedback Protocol 1.2:\n"
  "  {\"protocol_version\": \"1.2\", \"iteration\": 1,\n"
  "   \"artifact\": {\"media_type\": \"text/markdown\", \"content\": \"# Plan ...\"}}\n"
  "A later iteration adds \"applied_feedback\" and continues the session with\n"
  "--session ID, the sessionID of the earlier answer.\n"
  "\n"
  "Standard output: three lines of JSON (step_start, text, step_finish), each with\n"
  "\"sessionID\"; the text line's part.text is the Response Object as a JSON string.\n"
  "Error codes besides the protocol's INVALID_REQUEST, UNSUPPORTED_MEDIA_TYPE and\n"
  "INTERNAL_ERROR: REVIEW_EXPIRED (the deadline passed), REVIEW_DECLINED (the person\n"
  "declined), REVIEW_WITHDRAWN (withdrawn, e.g. by a later iteration).\n"
  "\n"
  "Exit status: 0 the three lines were written (an error response too), 2 bad option,\n"
  "3 no server reachable within --retry-for (nothing written), 130/143 interrupted\n"
  "(SIGINT/SIGTERM), 129 when the terminal closes (SIGHUP), 141 when nobody reads standard\n"
  "output any more (the review is withdrawn first).";

static gboolean
parse_options (Review     *self,
               int         argc,
               char      **argv,
               GError    **error)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_auto(GStrv) args = g_new0 (char *, argc + 1);
  g_autofree char *deadline = NULL;
  g_autofree char *id = NULL;
  g_autofree char *server = NULL;
  g_autofree char *socket_path = NULL;
  g_autofree char *service = NULL;
  g_autofree char *service_name = NULL;
  g_autofree char *retry_for = NULL;
  gboolean afp = FALSE;
  const GOptionEntry entries[] = {
    { "afp", 0, 0, G_OPTION_ARG_NONE, &afp,
      "Ask for a review in the Agent Feedback Protocol 1.2 (this mode)", NULL },
    { "session", 0, 0, G_OPTION_ARG_FILENAME, &self->session_id,
      "Continue the review session ID (the sessionID of an earlier answer)", "ID" },
    { "deadline", 0, 0, G_OPTION_ARG_FILENAME, &deadline,
      "When the review request expires: a duration (90s, 15m, 2h, 1d, 1h30m) or an RFC 3339 time",
      "WHEN" },
    { "title", 't', 0, G_OPTION_ARG_FILENAME, &self->title,
      "What the person sees in the inbox (default: from the artifact)", "TEXT" },
    { "project", 'p', 0, G_OPTION_ARG_FILENAME, &self->project,
      "The project the review belongs to", "NAME" },
    { "id", 0, 0, G_OPTION_ARG_FILENAME, &id,
      "Use this review id (a UUID v4) instead of a random one", "UUID" },
    { "server", 's', 0, G_OPTION_ARG_FILENAME, &server,
      "Use the Triage server at URL instead of the local one", "URL" },
    { "socket", 0, 0, G_OPTION_ARG_FILENAME, &socket_path,
      "The local server's socket (default $XDG_RUNTIME_DIR/triage/triage.sock)", "PATH" },
    { "service", 0, 0, G_OPTION_ARG_FILENAME, &service,
      "The service id on the local server (default " TRIAGE_ASK_DEFAULT_SERVICE_ID ")", "ID" },
    { "service-name", 0, 0, G_OPTION_ARG_FILENAME, &service_name,
      "The service's display name on the local server (default: the id)", "NAME" },
    { "retry-for", 0, 0, G_OPTION_ARG_FILENAME, &retry_for,
      "How long to keep retrying an unreachable server (default 5m)", "DURATION" },
    { NULL }
  };

  for (int i = 0; i < argc; i++)
    args[i] = g_strdup (argv[i]);
  if (!triage_service_refuse_secrets (args, error))
    return FALSE;

  context = g_option_context_new ("--afp — ask a person to review an artifact (Agent Feedback "
                                  "Protocol 1.2)");
  g_option_context_add_main_entries (context, entries, NULL);
  g_option_context_set_description (context, help_description);
  if (!g_option_context_parse_strv (context, &args, error))
    return FALSE;
  if (g_strv_length (args) > 1)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   "unexpected argument “%s”: with --afp the request comes on standard input, "
                   "and only the options of triage-ask --afp --help apply", args[1]);
      return FALSE;
    }

  {
    /* As for triage-ask's own options: UTF-8 whatever the locale (the
     * connection options are made so by triage_ask_options_set_connection ()). */
    const struct { const char *option; char **value; } texts[] = {
      { "--session", &self->session_id },
      { "--deadline", &deadline },
      { "--title", &self->title },
      { "--project", &self->project },
      { "--id", &id },
    };

    for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
      if (!triage_ask_value_to_utf8 (texts[i].option, texts[i].value, error))
        return FALSE;
  }

  if (!triage_ask_options_set_connection (self->options, server, socket_path, service,
                                          service_name, retry_for, error))
    return FALSE;

  if (deadline != NULL && !triage_ask_parse_deadline (deadline, now, &self->deadline, error))
    return FALSE;

  if (id != NULL && !atp_is_uuid_v4 (id))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   "--id “%s”: not a UUID v4 (e.g. from uuidgen -r)", id);
      return FALSE;
    }
  self->options->notification_id = id != NULL ? g_ascii_strdown (id, -1) : atp_new_uuid ();

  /* A script's empty variable (its first run wrote nothing): it started a new
   * session, silently, so the person saw iteration N without its history. */
  if (self->session_id != NULL && atp_str_is_blank (self->session_id))
    return triage_ask_usage_error (error, "--session: the id is empty (leave the option out to "
                                   "start a session)");

  /* The caller's mistakes, not the Request Object's: refused here, as the
   * server would refuse them as members the Requester never wrote. */
  if (self->title != NULL && atp_str_is_blank (self->title))
    {
      g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                           "--title: the text is empty");
      return FALSE;
    }
  if (self->project != NULL && atp_str_is_blank (self->project))
    {
      g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                           "--project: the name is empty");
      return FALSE;
    }

  return TRUE;
}

/* What is POSTed: the Request Object as read, and what the tool adds. */
static char *
review_body (Review *self)
{
  g_autoptr(JsonObject) body = json_object_new ();
  g_autoptr(JsonNode) node = NULL;

  json_object_set_string_member (body, "id", self->options->notification_id);
  json_object_set_member (body, "request", json_node_ref (self->root));
  if (self->session_id != NULL)
    json_object_set_string_member (body, "session_id", self->session_id);
  if (self->deadline != NULL)
    json_object_set_string_member (body, "deadline", self->deadline);
  if (self->title != NULL)
    json_object_set_string_member (body, "title", self->title);
  if (self->project != NULL)
    json_object_set_string_member (body, "project", self->project);

  node = json_node_init_object (json_node_alloc (), body);
  return atp_json_to_string (node, NULL);
}

/* The client, made when the server is first needed; FALSE once an error response is written. */
static gboolean
connect_client (Review *self)
{
  g_autoptr(GError) error = NULL;

  if (self->client != NULL)
    return TRUE;

  self->client = triage_service_connect (self->options->server_url, self->options->socket_path,
                                         self->options->service_id, self->options->service_name,
                                         &error);
  if (self->client == NULL)
    {
      write_error (self, ATP_AFP_CODE_INTERNAL_ERROR, error->message, NULL);
      return FALSE;
    }

  return TRUE;
}

/* Reads and checks the Request Object, then sends it. */
static void
start (Review *self)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_autofree char *body = NULL;
  gsize length = 0;

  text = triage_ask_read_stdin (ATP_AFP_MAX_REQUEST_SIZE, FALSE, &length, &error);
  if (text == NULL)
    {
      g_autofree char *message = g_strdup_printf ("The Request Object on standard input: %s",
                                                  error->message);

      write_error (self, ATP_AFP_CODE_INVALID_REQUEST, message, NULL);
      return;
    }

  self->root = atp_json_parse (text, length, ATP_AFP_MAX_REQUEST_SIZE, &error);
  if (self->root == NULL)
    {
      write_error (self, ATP_AFP_CODE_INVALID_REQUEST, error->message, NULL);
      return;
    }

  /* The server's own rules: most mistakes need no server to be named. */
  self->request = atp_afp_request_new_submission (self->root, &error);
  if (self->request == NULL)
    {
      refused (self, g_steal_pointer (&error));
      return;
    }

  if (!connect_client (self))
    return;

  body = review_body (self);
  self->review = triage_service_request_new_at (self->client, REVIEWS,
                                                self->options->notification_id, body,
                                                self->options->retry_for_us);
  triage_ask_say_retries (self->review);
  self->phase = PHASE_POST;
  triage_service_request_send_async (self->review, self->cancellable, post_cb, self);
}

int
triage_ask_afp_main (int    argc,
                     char **argv)
{
  g_autoptr(GError) error = NULL;
  Review self = { 0 };
  guint sigint_id, sigterm_id, sighup_id;

  self.options = triage_ask_options_new ();
  self.started_ms = now_ms ();
  self.status = TRIAGE_ASK_EXIT_SERVER;
  self.signal_exit = TRIAGE_ASK_EXIT_INTERRUPTED;
  self.why = "interrupted";

  if (!parse_options (&self, argc, argv, &error))
    {
      triage_ask_say ("%s", error->message);
      self.status = TRIAGE_ASK_EXIT_USAGE;
    }
  else
    {
      self.loop = g_main_loop_new (NULL, FALSE);
      self.cancellable = g_cancellable_new ();
      sigint_id = g_unix_signal_add (SIGINT, on_sigint, &self);
      sigterm_id = g_unix_signal_add (SIGTERM, on_sigterm, &self);
      sighup_id = triage_service_add_sighup (on_sighup, &self);
      triage_ask_watch_stdout (&self.stdout_watch, stop_unless_leaving, &self);

      start (&self);
      if (self.phase != PHASE_DONE)
        g_main_loop_run (self.loop);

      g_source_remove (sigint_id);
      g_source_remove (sigterm_id);
      g_clear_handle_id (&sighup_id, g_source_remove);
      g_clear_handle_id (&self.stdout_watch, g_source_remove);
      g_cancellable_cancel (self.cancellable);

      /* Let cancelled calls finish so nothing is left for the leak checker. */
      while (g_main_context_iteration (NULL, FALSE))
        ;
    }

  g_clear_pointer (&self.loop, g_main_loop_unref);
  g_clear_object (&self.cancellable);
  g_clear_object (&self.review);
  g_clear_object (&self.client);
  g_clear_pointer (&self.root, json_node_unref);
  g_clear_pointer (&self.request, atp_afp_request_unref);
  g_clear_error (&self.refusal);
  g_free (self.session_id);
  g_free (self.deadline);
  g_free (self.title);
  g_free (self.project);
  triage_ask_options_free (self.options);
  return self.status;
}
