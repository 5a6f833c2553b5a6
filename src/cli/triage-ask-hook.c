/* triage-ask-hook.c — triage-ask --hook claude-code: a coding agent's permission prompt in Triage
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-ask"

#include "triage-ask.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <glib-unix.h>

#include "atp.h"
#include "triage-ask-hook-request.h"
#include "triage-ask-hook-waiting.h"
#include "triage-ask-private.h"
#include "triage-service-request.h"

#define member_string triage_service_string_member

/*
 * Claude Code runs this as a command hook for PreToolUse or PermissionRequest
 * (its hooks reference as followed is named in docs/protocol.md): the event
 * arrives as JSON on standard input, the decision leaves as JSON on standard
 * output. The person gets an ordinary Triage request — Allow, or Deny with a
 * reason they may type — and anything short of an answer (expiry, no server,
 * a bad input, an interruption) hands the decision back to Claude Code's own
 * prompt. Never to allow.
 */

#define HOOK_MAX_INPUT        (8 * 1024 * 1024)
#define HOOK_DEFAULT_DEADLINE "9m"      /* under Claude Code's 600 s command hook timeout */
#define HOOK_EXIT_ERROR       1         /* to Claude Code: a hook error, shown, not blocking */

/*
 * The agent waits while the hook does, so a server that takes the connection
 * and says nothing (hung) is given HOOK_SERVER_TIMEOUT_S to answer, past a
 * long-poll's own wait: with the 30 s of the other programs, and the 5 s of
 * the withdrawal that follows (the POST went out whole: the server may have
 * stored it), Claude Code waited 35 s for its own prompt. A server that is
 * alive answers at once, or after the 5 s it waits for its database (503).
 * The person's time is the long-polls', up to the deadline, not bounded by it.
 * A long-poll of HOOK_WAIT_SECONDS keeps a hang during one to 30 + 10 + 5 s,
 * and a hook with the default deadline done by 585 s, under Claude Code's
 * 600 s: a hook it times out lets the call go on to its permission rules,
 * which may allow it, where the hook's fallback asks.
 */
#define HOOK_SERVER_TIMEOUT_S 10
#define HOOK_WAIT_SECONDS     30

typedef enum
{
  EVENT_UNKNOWN,
  EVENT_PRE_TOOL_USE,
  EVENT_PERMISSION_REQUEST,
} HookEvent;

typedef struct
{
  TriageAskOptions     *options;
  HookEvent             event;
  TriageServiceRequest *request;
  GMainLoop            *loop;
  GCancellable         *cancellable;
  AtpNotification      *settled;
  char                 *problem;       /* why there is no answer */
  gboolean              withdrawing;
  gboolean              gave_up;       /* on the server, not on a signal or a release */
  gboolean              released;      /* answered in Claude Code's own prompt first */
  guint                 stdout_watch;
  char                 *waiting;       /* its entry among the waiting hooks */
  gboolean              done;          /* the wait is over, whatever comes now */
} Hook;

static HookEvent
event_from_name (const char *name)
{
  if (g_strcmp0 (name, "PreToolUse") == 0)
    return EVENT_PRE_TOOL_USE;
  if (g_strcmp0 (name, "PermissionRequest") == 0)
    return EVENT_PERMISSION_REQUEST;
  return EVENT_UNKNOWN;
}

static const char *
event_name (HookEvent event)
{
  return event == EVENT_PRE_TOOL_USE ? "PreToolUse" : "PermissionRequest";
}

/* The hook's input: at most HOOK_MAX_INPUT bytes. Beyond that, @error is set
 * and the first bytes are returned all the same, for event_in_text (). */
static char *
read_input (gsize   *length,
            GError **error)
{
  return triage_ask_read_stdin (HOOK_MAX_INPUT, TRUE, length, error);
}

/* The event name of an input that cannot be parsed, as far as its text says:
 * so a PreToolUse hook still answers "ask" to a call too large or broken to
 * read. */
static char *
event_in_text (const char *text)
{
  g_autoptr(GMatchInfo) match = NULL;
  g_autoptr(GRegex) regex = g_regex_new ("\"hook_event_name\"\\s*:\\s*\"(\\w+)\"",
                                         G_REGEX_RAW, 0, NULL);

  if (!g_regex_match_full (regex, text, -1, 0, 0, &match, NULL))
    return NULL;
  return g_match_info_fetch (match, 1);
}

/* The events after which a waiting hook may be released (release_waiting ()). */
static gboolean
is_release_event (const char *event)
{
  return g_strcmp0 (event, "PostToolUse") == 0 || g_strcmp0 (event, "PostToolUseFailure") == 0 ||
         g_strcmp0 (event, "Stop") == 0 || g_strcmp0 (event, "SessionEnd") == 0 ||
         g_strcmp0 (event, "UserPromptSubmit") == 0;
}

int
triage_ask_hook_usage_status (void)
{
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *text = NULL;
  g_autofree char *event = NULL;
  gsize length = 0;

  /* A person trying the command line by hand gets the usage status at once. */
  if (isatty (STDIN_FILENO))
    return TRIAGE_ASK_EXIT_USAGE;

  /* Exit 2 is a blocking error to Claude Code: for PreToolUse and PermissionRequest
   * a denial of the call (loud, never an allow); for Stop it keeps Claude from
   * stopping (fed the message, it goes on, and stops into it again), for
   * UserPromptSubmit it erases the prompt, for PostToolUse it hands the message to
   * Claude. Those get 1, a hook error shown to the person. */
  text = read_input (&length, NULL);
  root = atp_json_parse (text, length, HOOK_MAX_INPUT, NULL);
  if (root != NULL && JSON_NODE_HOLDS_OBJECT (root))
    event = g_strdup (member_string (json_node_get_object (root), "hook_event_name"));
  else
    event = event_in_text (text);
  if (event == NULL || event_from_name (event) != EVENT_UNKNOWN)
    return TRIAGE_ASK_EXIT_USAGE;
  return HOOK_EXIT_ERROR;
}

/* One line of JSON, escaped as all of triage-ask's output is (U+2028 in a typed
 * reason would end a line for a reader splitting on every line break). */
static void
print_object (JsonObject *object)
{
  g_autofree char *text = atp_json_object_to_string (object, NULL);
  g_autofree char *line = g_strconcat (text, "\n", NULL);

  triage_ask_write_json_text (line, strlen (line));
}

/* The documented decision: allow, or deny with @reason (shown to Claude). */
static void
print_decision (HookEvent   event,
                gboolean    allow,
                const char *reason)
{
  g_autoptr(JsonObject) output = json_object_new ();
  JsonObject *specific = json_object_new ();

  json_object_set_string_member (specific, "hookEventName", event_name (event));
  if (event == EVENT_PRE_TOOL_USE)
    {
      json_object_set_string_member (specific, "permissionDecision", allow ? "allow" : "deny");
      json_object_set_string_member (specific, "permissionDecisionReason", reason);
    }
  else
    {
      JsonObject *decision = json_object_new ();

      json_object_set_string_member (decision, "behavior", allow ? "allow" : "deny");
      if (!allow)
        json_object_set_string_member (decision, "message", reason);
      json_object_set_object_member (specific, "decision", decision);
    }
  json_object_set_object_member (output, "hookSpecificOutput", specific);
  print_object (output);
}

/* No answer: Claude Code's own prompt decides. PreToolUse says "ask"; a
 * PermissionRequest hook that makes no decision leaves its dialog to the person. */
static void
print_fallback (HookEvent   event,
                const char *problem)
{
  g_autoptr(JsonObject) output = json_object_new ();
  g_autofree char *message = g_strdup_printf ("Triage: %s; asking here instead", problem);

  g_printerr ("triage-ask: %s\n", problem);
  if (event == EVENT_PRE_TOOL_USE)
    {
      JsonObject *specific = json_object_new ();

      json_object_set_string_member (specific, "hookEventName", "PreToolUse");
      json_object_set_string_member (specific, "permissionDecision", "ask");
      json_object_set_string_member (specific, "permissionDecisionReason", message);
      json_object_set_object_member (output, "hookSpecificOutput", specific);
    }
  else
    json_object_set_string_member (output, "systemMessage", message);
  print_object (output);
}

/* The server went away while the person had not answered; Claude Code's own
 * prompt asks now. */
#define GAVE_UP_REASON "Triage could not be reached while it waited; the agent asks in its own prompt"

static void give_up (Hook       *hook,
                     const char *problem,
                     const char *reason);

static void
hook_stop (Hook       *hook,
           const char *problem)
{
  if (problem != NULL && hook->problem == NULL)
    hook->problem = g_strdup (problem);
  g_main_loop_quit (hook->loop);
}

/* The server took the request (or may have) and then failed past the retries:
 * said, and the request withdrawn. FALSE when @error (may be NULL) is not that. */
static gboolean
gave_up_on_server (Hook         *hook,
                   const GError *error)
{
  if (!triage_service_request_left_pending (hook->request, error))
    return FALSE;
  triage_ask_say ("%s; withdrawing request %s, for up to 5 s", error->message,
                  triage_service_request_get_notification_id (hook->request));
  hook->gave_up = TRUE;
  give_up (hook, error->message, GAVE_UP_REASON);
  return TRUE;
}

static void
waited_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  Hook *hook = user_data;
  g_autoptr(GError) error = NULL;

  hook->settled = triage_service_request_wait_finish (TRIAGE_SERVICE_REQUEST (object), result,
                                                      &error);
  if (hook->withdrawing || gave_up_on_server (hook, error))
    return;
  hook_stop (hook, hook->settled == NULL ? error->message : NULL);
}

static void
sent_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Hook *hook = user_data;
  g_autoptr(AtpPostResult) post = NULL;
  g_autoptr(GError) error = NULL;

  post = triage_service_request_send_finish (TRIAGE_SERVICE_REQUEST (object), result, &error);
  /* A POST whose answer was lost: the server may have stored it. */
  if (hook->withdrawing || gave_up_on_server (hook, error))
    return;
  if (post == NULL)
    {
      hook_stop (hook, error->message);
      return;
    }
  triage_service_request_wait_async (hook->request, HOOK_WAIT_SECONDS, hook->cancellable,
                                     waited_cb, hook);
}

/* The answer a withdrawal found given (answered_meanwhile_cb ()), read. */
static void
answer_read_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  Hook *hook = user_data;
  g_autoptr(GError) error = NULL;

  g_clear_pointer (&hook->settled, atp_notification_unref);
  hook->settled = triage_service_request_wait_finish (TRIAGE_SERVICE_REQUEST (object), result,
                                                      &error);
  if (hook->settled == NULL)
    triage_ask_say ("the person answered meanwhile, but the answer could not be read: %s",
                    error->message);
  hook_stop (hook, NULL);
}

static void
withdrawn_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  Hook *hook = user_data;
  g_autoptr(GError) error = NULL;

  /* The person answered as the hook gave up on the server (through another server of
   * a cluster, or as this one went away): the answer is the call's, not lost. */
  if (!triage_service_request_withdraw_finish (TRIAGE_SERVICE_REQUEST (object), result, &error) &&
      hook->gave_up && g_error_matches (error, ATP_ERROR, ATP_ERROR_NOTIFICATION_ALREADY_RESPONDED))
    {
      triage_ask_say ("the person had answered meanwhile; reading the answer");
      triage_service_request_wait_async (hook->request, HOOK_WAIT_SECONDS, NULL, answer_read_cb,
                                         hook);
      return;
    }
  /* Left for the person to see: named, so that whoever reads Claude Code's log can
   * find it; it was once left so without a word. */
  if (error != NULL && !atp_error_is_not_found (error) &&
      !g_error_matches (error, ATP_ERROR, ATP_ERROR_NOTIFICATION_ALREADY_RESPONDED))
    triage_ask_say ("could not withdraw request %s, which waits in the person's inbox until "
                    "answered or expired: %s",
                    triage_service_request_get_notification_id (hook->request), error->message);
  hook_stop (hook, NULL);
}

/* Nobody waits for the answer any more: withdraw the request, then stop. Once
 * withdrawing (at most 5 s), nothing cuts it short: Claude Code quitting sends
 * several at once (SIGINT or SIGHUP to its process group, SIGTERM, its end of our
 * standard output closed), and the second used to end the hook before the first
 * one's withdrawal reached the server. */
static void
give_up (Hook       *hook,
         const char *problem,
         const char *reason)
{
  if (hook->withdrawing)
    return;
  if (hook->request == NULL)
    {
      hook_stop (hook, problem);
      return;
    }
  hook->withdrawing = TRUE;
  g_free (hook->problem);
  hook->problem = g_strdup (problem);
  g_cancellable_cancel (hook->cancellable);
  triage_service_request_withdraw_async (hook->request, reason, NULL, withdrawn_cb, hook);
}

/* Claude Code gave up on the hook (its timeout), the person pressed Ctrl+C, or the
 * terminal they ran Claude Code in closed (SIGHUP). */
static gboolean
on_signal (gpointer data)
{
  give_up (data, "interrupted before anyone answered",
           "the agent stopped waiting; it asks in its own prompt");
  return G_SOURCE_CONTINUE;
}

/* A later event of the session (the call went ahead, or the turn is over)
 * says that Claude Code's own prompt was answered first. */
static gboolean
on_release (gpointer data)
{
  Hook *hook = data;

  if (hook->done || hook->withdrawing)
    return G_SOURCE_CONTINUE;
  hook->released = TRUE;
  give_up (hook, "answered in Claude Code's own prompt first",
           "answered in Claude Code's own prompt");
  return G_SOURCE_CONTINUE;
}

/* Claude Code went away without a signal (it quit, or crashed): the read end
 * of our standard output is closed, so no answer could reach it. */
static void
stop_unread (gpointer    data,
             const char *why,
             int         status)
{
  give_up (data, "Claude Code stopped reading the answer",
           "the agent stopped waiting; it asks in its own prompt");
}

/* PostToolUse, PostToolUseFailure: the call went ahead, so a hook still asking
 * about it was beaten by Claude Code's own prompt; Stop, SessionEnd: the turn
 * is over, nothing of it is still asked; UserPromptSubmit: the person is at
 * Claude Code's prompt again, so every dialog of the session was answered — a
 * Deny there ends the turn as an interrupt, after which neither PostToolUse nor
 * Stop runs, and the next prompt is the first event that does. Those hooks
 * withdraw their requests. No decision: {}. */
static gboolean
release_waiting (JsonObject *input,
                 const char *event)
{
  const char *session = member_string (input, "session_id");
  const char *tool = member_string (input, "tool_name");
  JsonNode *tool_input = json_object_get_member (input, "tool_input");
  g_autoptr(JsonObject) no_decision = json_object_new ();
  g_autofree char *digest = NULL;

  if (!is_release_event (event))
    return FALSE;
  if (g_strcmp0 (event, "PostToolUse") == 0 || g_strcmp0 (event, "PostToolUseFailure") == 0)
    {
      if (session != NULL && tool != NULL && tool_input != NULL)
        {
          digest = triage_ask_hook_call_digest (tool, tool_input);
          triage_ask_hook_waiting_release (session, digest);
        }
    }
  else if (session != NULL)
    triage_ask_hook_waiting_release (session, NULL);

  print_object (no_decision);
  return TRUE;
}

/* "user “alice”", or "the person" when the server named nobody. Never the bare id:
 * the local server's person is "default", and "Denied in Triage by default" reads
 * to Claude as a rule that denied the call, not a person who did. */
static char *
responder_name (AtpResponse *response)
{
  if (response->responder_id == NULL || *response->responder_id == '\0')
    return g_strdup ("the person");
  return g_strdup_printf ("user “%s”", response->responder_id);
}

static void
decide (Hook *hook)
{
  AtpNotification *settled = hook->settled;

  /* Claude Code's own dialog was answered: nothing is asked any more, here or
   * there, and "asking here instead" would tell the person otherwise. */
  if (hook->released && (settled == NULL || settled->status != ATP_STATUS_RESPONDED))
    {
      g_autoptr(JsonObject) no_decision = json_object_new ();

      g_printerr ("triage-ask: %s\n", hook->problem);
      print_object (no_decision);
      return;
    }
  if (settled == NULL || settled->status != ATP_STATUS_RESPONDED)
    {
      print_fallback (hook->event, hook->problem != NULL ? hook->problem
                                   : settled != NULL && settled->status == ATP_STATUS_EXPIRED
                                     ? "nobody answered before the deadline"
                                     : "the request was withdrawn before anyone answered");
      return;
    }

  if (g_str_equal (settled->response->action_id, "allow"))
    {
      g_autofree char *who = responder_name (settled->response);
      g_autofree char *reason = g_strdup_printf ("Allowed in Triage by %s", who);

      print_decision (hook->event, TRUE, reason);
    }
  else
    {
      JsonNode *data = settled->response->response_data;
      const char *typed = JSON_NODE_HOLDS_VALUE (data) &&
                          json_node_get_value_type (data) == G_TYPE_STRING
                            ? json_node_get_string (data) : NULL;
      g_autofree char *trimmed = g_strstrip (g_strdup (typed != NULL ? typed : ""));
      g_autofree char *who = responder_name (settled->response);
      g_autofree char *reason = NULL;

      /* Who answered, always: a typed reason alone reads to Claude as a rule's. */
      if (*trimmed != '\0')
        reason = g_strdup_printf ("Denied in Triage by %s: %s", who, typed);
      else
        reason = g_strdup_printf ("Denied in Triage by %s", who);
      print_decision (hook->event, FALSE, reason);
    }
}

gboolean
triage_ask_options_set_hook (TriageAskOptions  *self,
                             const char        *agent,
                             const char        *deadline,
                             GDateTime         *now,
                             gboolean           retry_for_given,
                             GError           **error)
{
  g_autofree char *when = NULL;
  const char *problem = NULL;

  if (deadline != NULL && !triage_service_parse_deadline (deadline, now, &when, &problem))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "--deadline “%s”: %s",
                   deadline, problem);
      return FALSE;
    }

  g_free (self->hook);
  self->hook = g_strdup (agent);
  g_free (self->hook_deadline);
  self->hook_deadline = g_strdup (deadline);
  if (g_str_equal (self->service_id, TRIAGE_ASK_DEFAULT_SERVICE_ID))
    {
      g_free (self->service_id);
      self->service_id = g_strdup ("claude-code");
      if (self->service_name == NULL)
        self->service_name = g_strdup ("Claude Code");
    }
  /* Someone waits at the agent: no server means its own prompt, at once. */
  if (!retry_for_given)
    self->retry_for_us = 0;

  return TRUE;
}

int
triage_ask_hook_run (TriageAskOptions *options)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) input = NULL;
  g_autoptr(AtpClient) client = NULL;
  g_autofree char *text = NULL;
  g_autofree char *notification_id = NULL;
  g_autofree char *body = NULL;
  Hook hook = { .options = options, .event = EVENT_UNKNOWN };
  const char *event;
  const char *tool;
  gsize length = 0;
  guint sigint_id;
  guint sigterm_id;
  guint sighup_id;

  /* With Claude Code gone, the decision's write fails instead of killing us. */
  signal (SIGPIPE, SIG_IGN);

  text = read_input (&length, &error);
  if (error == NULL)
    input = atp_json_parse (text, length, HOOK_MAX_INPUT, &error);
  if (input != NULL && !JSON_NODE_HOLDS_OBJECT (input))
    g_set_error_literal (&error, ATP_ERROR, ATP_ERROR_INVALID_REQUEST,
                         "the hook input is not a JSON object");
  if (error != NULL)
    {
      g_autofree char *problem = g_strdup_printf ("cannot read the hook input: %s",
                                                  error->message);
      g_autofree char *named = event_in_text (text);

      /* A tool's large output (PostToolUse) is no reason to alarm anyone:
       * the turn's Stop releases what this one could not. */
      if (is_release_event (named))
        {
          g_autoptr(JsonObject) no_decision = json_object_new ();

          g_printerr ("triage-ask: %s\n", problem);
          print_object (no_decision);
          return TRIAGE_ASK_EXIT_ANSWERED;
        }
      print_fallback (event_from_name (named), problem);
      return TRIAGE_ASK_EXIT_ANSWERED;
    }

  event = member_string (json_node_get_object (input), "hook_event_name");
  if (release_waiting (json_node_get_object (input), event))
    return TRIAGE_ASK_EXIT_ANSWERED;
  hook.event = event_from_name (event);
  if (hook.event == EVENT_UNKNOWN && event == NULL)
    {
      print_fallback (EVENT_UNKNOWN, "the hook input has no hook_event_name");
      return TRIAGE_ASK_EXIT_ANSWERED;
    }
  /* Set for an event that asks nothing (Notification, SessionStart, …): said, but
   * not "asking here instead", which Claude Code showed the person at each one. */
  if (hook.event == EVENT_UNKNOWN)
    {
      g_autoptr(JsonObject) notice = json_object_new ();
      g_autofree char *problem = g_strdup_printf ("hook event “%s” is not one triage-ask "
                                                  "answers (PreToolUse, PermissionRequest)",
                                                  event);
      g_autofree char *message = g_strdup_printf ("Triage: %s; set the hook for those events "
                                                  "only", problem);

      g_printerr ("triage-ask: %s\n", problem);
      json_object_set_string_member (notice, "systemMessage", message);
      print_object (notice);
      return TRIAGE_ASK_EXIT_ANSWERED;
    }

  /* Claude Code's question to the person is not a permission: its prompt is
   * the picker, and an Allow from here would skip it with no answers. */
  tool = member_string (json_node_get_object (input), "tool_name");
  if (g_strcmp0 (tool, "AskUserQuestion") == 0)
    {
      g_autoptr(JsonObject) no_decision = json_object_new ();

      g_printerr ("triage-ask: %s is answered in Claude Code's own prompt\n", tool);
      print_object (no_decision);
      return TRIAGE_ASK_EXIT_ANSWERED;
    }

  if (!triage_ask_hook_build_request (json_node_get_object (input),
                                      options->hook_deadline != NULL ? options->hook_deadline
                                                                     : HOOK_DEFAULT_DEADLINE,
                                      now, &notification_id, &body, &error) ||
      (client = triage_service_connect (options->server_url, options->socket_path,
                                        options->service_id, options->service_name,
                                        &error)) == NULL)
    {
      print_fallback (hook.event, error->message);
      return TRIAGE_ASK_EXIT_ANSWERED;
    }

  atp_client_set_timeout (client, HOOK_SERVER_TIMEOUT_S);
  hook.request = triage_service_request_new (client, notification_id, body, options->retry_for_us);
  hook.loop = g_main_loop_new (NULL, FALSE);
  hook.cancellable = g_cancellable_new ();
  sigint_id = g_unix_signal_add (SIGINT, on_signal, &hook);
  sigterm_id = g_unix_signal_add (SIGTERM, on_signal, &hook);
  sighup_id = triage_service_add_sighup (on_signal, &hook);   /* Claude Code's terminal closed */
  triage_ask_watch_stdout (&hook.stdout_watch, stop_unread, &hook);
  g_unix_signal_add (TRIAGE_ASK_HOOK_RELEASE_SIGNAL, on_release, &hook);
  /* Only a PermissionRequest hook can be beaten by Claude Code's own prompt, which
   * it shows meanwhile. Claude Code waits on a PreToolUse hook before any prompt,
   * so a later event with the same call is another call (the same command run
   * twice), never a reason to withdraw this one. */
  if (hook.event == EVENT_PERMISSION_REQUEST &&
      member_string (json_node_get_object (input), "session_id") != NULL)
    {
      g_autoptr(GError) problem = NULL;
      g_autofree char *digest =
        triage_ask_hook_call_digest (tool, json_object_get_member (json_node_get_object (input),
                                                                   "tool_input"));

      hook.waiting = triage_ask_hook_waiting_add (member_string (json_node_get_object (input),
                                                                 "session_id"),
                                                  digest, &problem);
      if (hook.waiting == NULL)
        g_printerr ("triage-ask: %s; an answer in Claude Code's own prompt will not withdraw "
                    "the request\n", problem->message);
    }

  triage_service_request_send_async (hook.request, hook.cancellable, sent_cb, &hook);
  g_main_loop_run (hook.loop);
  hook.done = TRUE;
  /* Released no more, but a release already on its way is still caught: the
   * source stays, since removing the last one puts SIGUSR1's default back,
   * which would kill the hook after its decision and Claude Code reads no
   * decision of a hook that did not exit 0. */
  triage_ask_hook_waiting_remove (hook.waiting);
  g_free (hook.waiting);
  decide (&hook);

  g_source_remove (sigint_id);
  g_source_remove (sigterm_id);
  g_clear_handle_id (&sighup_id, g_source_remove);
  g_clear_handle_id (&hook.stdout_watch, g_source_remove);
  g_cancellable_cancel (hook.cancellable);
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_main_loop_unref (hook.loop);
  g_clear_object (&hook.cancellable);
  g_clear_object (&hook.request);
  g_clear_pointer (&hook.settled, atp_notification_unref);
  g_free (hook.problem);

  return TRIAGE_ASK_EXIT_ANSWERED;
}
