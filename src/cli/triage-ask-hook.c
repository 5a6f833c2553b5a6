/* triage-ask-hook.c — triage-ask --hook claude-code: a coding agent's permission prompt in Triage
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-ask"

#include "triage-ask.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <glib-unix.h>

#include "atp.h"
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
#define HOOK_MAX_ATTACHMENT   (512 * 1024)
#define HOOK_MAX_TITLE        120
#define HOOK_MAX_REASON       1000

typedef enum
{
  EVENT_UNKNOWN,
  EVENT_PRE_TOOL_USE,
  EVENT_PERMISSION_REQUEST,
} HookEvent;

/* Commands that destroy or cannot be undone: the flags the person is shown,
 * and that make the app ask for a confirmation before Allow is sent. */
static const struct
{
  const char *pattern;
  gboolean    irreversible;
} dangerous_commands[] = {
  { "\\brm\\s+(-\\S+\\s+)*-[a-zA-Z]*[rR]", TRUE },                  /* rm -rf, rm -r */
  { "\\bgit\\s+push\\b.*(\\s--force(-with-lease)?\\b|\\s-[a-zA-Z]*f\\b|\\s\\+\\S)", TRUE },
  { "\\bgit\\s+reset\\s+(\\S+\\s+)*--hard\\b", TRUE },
  { "\\bgit\\s+clean\\s+(\\S+\\s+)*-[a-zA-Z]*f", TRUE },
  { "\\bgit\\s+branch\\s+(\\S+\\s+)*-D\\b", FALSE },
  { "(?i)\\bdrop\\s+(table|database|schema|index|view)\\b", TRUE },
  { "(?i)\\btruncate\\s+(table\\s+)?\\w", TRUE },
  { "(?i)\\bdelete\\s+from\\b", TRUE },
  { "\\bmkfs(\\.\\w+)?\\b|\\bwipefs\\b|\\bshred\\b|\\bdd\\s+(\\S+\\s+)*of=", TRUE },
  { ">\\s*/dev/(sd|nvme|hd|vd)", TRUE },
  { "\\b(chmod|chown)\\s+(\\S+\\s+)*-[a-zA-Z]*R", FALSE },
  { "\\bkubectl\\s+delete\\b|\\bterraform\\s+destroy\\b|\\bhelm\\s+uninstall\\b", TRUE },
  { "\\bdocker\\s+(system\\s+prune|volume\\s+(rm|prune)|rm|rmi)\\b", FALSE },
  { "(?i)\\bRemove-Item\\b.*-Recurse", TRUE },
};

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

static void
print_object (JsonObject *object)
{
  g_autofree char *text = atp_json_object_to_string (object, NULL);

  fputs (text, stdout);
  fputc ('\n', stdout);
  fflush (stdout);
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

/* At most @max characters of @text's first line, with "…" when cut. */
static char *
first_line (const char *text,
            glong       max)
{
  const char *end = strchr (text, '\n');
  g_autofree char *line = end ? g_strndup (text, end - text) : g_strdup (text);

  if (g_utf8_strlen (line, -1) > max || end != NULL)
    {
      g_autofree char *cut = g_utf8_substring (line, 0, MIN (g_utf8_strlen (line, -1), max));

      return g_strconcat (cut, "…", NULL);
    }
  return g_steal_pointer (&line);
}

static void
flag_command (const char *command,
              JsonArray  *flags)
{
  gboolean destructive = FALSE;
  gboolean irreversible = FALSE;

  for (guint i = 0; i < G_N_ELEMENTS (dangerous_commands); i++)
    if (g_regex_match_simple (dangerous_commands[i].pattern, command, G_REGEX_MULTILINE, 0))
      {
        destructive = TRUE;
        irreversible |= dangerous_commands[i].irreversible;
      }

  if (destructive)
    json_array_add_string_element (flags, "destructive");
  if (irreversible)
    json_array_add_string_element (flags, "irreversible");
}

static void
add_attachment (JsonObject *context,
                const char *type,
                const char *description,
                const char *text)
{
  JsonArray *attachments;
  JsonObject *attachment = json_object_new ();
  gsize length = strlen (text);
  g_autofree char *base64 = NULL;

  /* A request must fit ATP's size; the person sees that it was cut. */
  if (length > HOOK_MAX_ATTACHMENT)
    {
      g_autofree char *said = NULL;

      length = HOOK_MAX_ATTACHMENT;
      while (length > 0 && (text[length] & 0xc0) == 0x80)
        length--;
      said = g_strdup_printf ("%s (the attachment is cut at %d KiB)",
                              json_object_get_string_member (context, "description"),
                              HOOK_MAX_ATTACHMENT / 1024);
      json_object_set_string_member (context, "description", said);
    }
  base64 = g_base64_encode ((const guchar *) text, length);

  if (!json_object_has_member (context, "attachments"))
    json_object_set_array_member (context, "attachments", json_array_new ());
  attachments = json_object_get_array_member (context, "attachments");
  json_object_set_string_member (attachment, "type", type);
  json_object_set_string_member (attachment, "description", description);
  json_object_set_string_member (attachment, "data", base64);
  json_array_add_object_element (attachments, attachment);
}

static guint
count_lines (const char *text)
{
  guint lines = 0;

  for (const char *p = text; *p != '\0'; p++)
    if (*p == '\n')
      lines++;
  return lines + (*text != '\0' && text[strlen (text) - 1] != '\n' ? 1 : 0);
}

static void
append_prefixed (GString    *diff,
                 char        prefix,
                 const char *text)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  guint n = g_strv_length (lines);

  if (n > 0 && *lines[n - 1] == '\0')
    n--;   /* the text ended with a newline */
  for (guint i = 0; i < n; i++)
    g_string_append_printf (diff, "%c%s\n", prefix, lines[i]);
}

/* Edit's old_string → new_string as a unified diff, at the line where the file
 * has old_string now (line 1 when the file cannot be read here). */
static char *
edit_diff (const char *path,
           const char *old_text,
           const char *new_text)
{
  g_autoptr(GString) diff = g_string_new (NULL);
  g_autofree char *contents = NULL;
  guint line = 1;

  if (g_file_get_contents (path, &contents, NULL, NULL) && *old_text != '\0')
    {
      const char *at = strstr (contents, old_text);

      for (const char *p = contents; at != NULL && p < at; p++)
        if (*p == '\n')
          line++;
    }

  g_string_append_printf (diff, "--- a%s\n+++ b%s\n@@ -%u,%u +%u,%u @@\n", path, path,
                          line, count_lines (old_text), line, count_lines (new_text));
  append_prefixed (diff, '-', old_text);
  append_prefixed (diff, '+', new_text);
  return g_string_free (g_steal_pointer (&diff), FALSE);
}

static char *
guess_type (const char *path,
            const char *content)
{
  g_autofree char *content_type = g_content_type_guess (path, (const guchar *) content,
                                                        strlen (content), NULL);
  char *mime = content_type != NULL ? g_content_type_get_mime_type (content_type) : NULL;

  if (mime == NULL || strchr (mime, '/') == NULL || g_str_equal (mime, "application/octet-stream"))
    {
      g_free (mime);
      mime = g_strdup ("text/plain");
    }
  return mime;
}

/* What the tool acts on, for the title: the command, the file, the address. */
static char *
summary_of (const char *tool,
            JsonObject *tool_input)
{
  static const char * const fields[] = {
    "command", "file_path", "url", "query", "pattern", "description", NULL
  };

  for (guint i = 0; fields[i] != NULL; i++)
    {
      const char *value = member_string (tool_input, fields[i]);

      if (value == NULL || *value == '\0')
        continue;
      if (g_str_equal (fields[i], "file_path"))
        return g_path_get_basename (value);
      return first_line (value, 80);
    }
  return NULL;
}

static gboolean
build_request (Hook        *hook,
               JsonObject  *input,
               GDateTime   *now,
               char       **notification_id,
               char       **body,
               GError     **error)
{
  const char *tool = member_string (input, "tool_name");
  JsonNode *tool_input_node = json_object_get_member (input, "tool_input");
  JsonObject *tool_input;
  const char *cwd = member_string (input, "cwd");
  g_autofree char *folder = cwd != NULL && *cwd != '\0' ? g_path_get_basename (cwd) : NULL;
  g_autofree char *summary = NULL;
  g_autofree char *title = NULL;
  g_autofree char *description = NULL;
  g_autofree char *id = atp_new_uuid ();
  g_autoptr(JsonObject) request = json_object_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(AtpNotification) notification = NULL;
  JsonObject *context;
  JsonObject *metadata;
  JsonArray *actions;
  JsonObject *allow;
  JsonObject *deny;
  JsonObject *constraints;
  JsonArray *flags;
  const char *command;
  const char *file_path;
  const char *problem = NULL;
  gsize length = 0;
  static const char * const kept[] = {
    "session_id", "hook_event_name", "tool_name", "tool_use_id", "cwd", "permission_mode", NULL
  };

  if (tool == NULL || *tool == '\0')
    {
      g_set_error_literal (error, ATP_ERROR, ATP_ERROR_MISSING_REQUIRED_FIELD,
                           "the hook input has no tool_name");
      return FALSE;
    }
  if (tool_input_node == NULL || !JSON_NODE_HOLDS_OBJECT (tool_input_node))
    {
      g_set_error_literal (error, ATP_ERROR, ATP_ERROR_MISSING_REQUIRED_FIELD,
                           "the hook input has no tool_input object");
      return FALSE;
    }
  tool_input = json_node_get_object (tool_input_node);
  command = member_string (tool_input, "command");
  file_path = member_string (tool_input, "file_path");

  context = json_object_new ();
  metadata = json_object_new ();
  actions = json_array_new ();
  flags = json_array_new ();
  json_object_set_object_member (request, "context", context);
  json_object_set_array_member (request, "actions", actions);
  json_object_set_object_member (context, "metadata", metadata);

  summary = summary_of (tool, tool_input);
  title = g_strdup_printf ("%s%s%s%s%s", tool, folder ? " in " : "", folder ? folder : "",
                           summary ? ": " : "", summary ? summary : "");
  if (g_utf8_strlen (title, -1) > HOOK_MAX_TITLE)
    {
      g_autofree char *cut = first_line (title, HOOK_MAX_TITLE);

      g_free (title);
      title = g_steal_pointer (&cut);
    }
  json_object_set_string_member (context, "title", title);

  if (command != NULL && (g_str_equal (tool, "Bash") || g_str_equal (tool, "PowerShell")))
    {
      const char *about = member_string (tool_input, "description");

      description = g_strdup_printf ("%s%sClaude Code wants to run this command in %s.",
                                     about ? about : "", about ? "\n\n" : "", cwd ? cwd : "?");
      flag_command (command, flags);
    }
  else if (file_path != NULL && g_str_equal (tool, "Write"))
    description = g_strdup_printf ("Claude Code wants to write %s (%u lines).", file_path,
                                   count_lines (member_string (tool_input, "content")
                                                  ? member_string (tool_input, "content") : ""));
  else if (file_path != NULL && g_str_equal (tool, "Edit"))
    description = g_strdup_printf ("Claude Code wants to change %s%s.", file_path,
                                   json_object_has_member (tool_input, "replace_all") &&
                                   json_object_get_boolean_member (tool_input, "replace_all")
                                     ? " (every occurrence)" : "");
  else
    description = g_strdup_printf ("Claude Code wants to use %s%s%s.", tool,
                                   cwd ? " in " : "", cwd ? cwd : "");
  json_object_set_string_member (context, "description", description);
  if (folder != NULL)
    json_object_set_string_member (context, "project", folder);

  json_object_set_string_member (metadata, "agent", "Claude Code");
  for (guint i = 0; kept[i] != NULL; i++)
    if (member_string (input, kept[i]) != NULL)
      json_object_set_string_member (metadata, kept[i], member_string (input, kept[i]));

  if (command != NULL && (g_str_equal (tool, "Bash") || g_str_equal (tool, "PowerShell")))
    add_attachment (context, g_str_equal (tool, "Bash") ? "text/x-shellscript" : "text/plain",
                    "Command", command);
  else if (file_path != NULL && g_str_equal (tool, "Write") &&
           member_string (tool_input, "content") != NULL)
    {
      const char *content = member_string (tool_input, "content");
      g_autofree char *type = guess_type (file_path, content);
      g_autofree char *name = g_path_get_basename (file_path);

      add_attachment (context, type, name, content);
    }
  else if (file_path != NULL && g_str_equal (tool, "Edit") &&
           member_string (tool_input, "old_string") != NULL &&
           member_string (tool_input, "new_string") != NULL)
    {
      g_autofree char *diff = edit_diff (file_path, member_string (tool_input, "old_string"),
                                         member_string (tool_input, "new_string"));
      g_autofree char *name = g_path_get_basename (file_path);
      g_autofree char *about = g_strdup_printf ("Change to %s", name);

      add_attachment (context, "text/x-diff", about, diff);
    }
  else
    {
      g_autoptr(JsonGenerator) generator = json_generator_new ();
      g_autofree char *pretty = NULL;

      json_generator_set_root (generator, tool_input_node);
      json_generator_set_pretty (generator, TRUE);
      pretty = json_generator_to_data (generator, NULL);
      add_attachment (context, "application/json", "Tool input", pretty);
    }

  allow = json_object_new ();
  json_object_set_string_member (allow, "id", "allow");
  json_object_set_string_member (allow, "label", "Allow");
  json_object_set_string_member (allow, "response_type", "simple");
  if (json_array_get_length (flags) > 0)
    json_object_set_array_member (allow, "flags", flags);
  else
    json_array_unref (flags);
  json_array_add_object_element (actions, allow);

  deny = json_object_new ();
  constraints = json_object_new ();
  json_object_set_string_member (deny, "id", "deny");
  json_object_set_string_member (deny, "label", "Deny");
  json_object_set_string_member (deny, "response_type", "text");
  json_object_set_int_member (constraints, "max_length", HOOK_MAX_REASON);
  json_object_set_string_member (constraints, "placeholder",
                                 "Why not, or what to do instead (Claude reads this)");
  json_object_set_object_member (deny, "constraints", constraints);
  json_array_add_object_element (actions, deny);

  json_object_set_string_member (request, "id", id);
  json_object_set_string_member (request, "version", ATP_PROTOCOL_VERSION);
  if (!triage_service_set_deadline (request, hook->options->hook_deadline != NULL
                                               ? hook->options->hook_deadline : HOOK_DEFAULT_DEADLINE,
                                    now, &problem))
    {
      g_set_error (error, ATP_ERROR, ATP_ERROR_INVALID_FIELD_VALUE, "--deadline: %s", problem);
      return FALSE;
    }

  root = json_node_init_object (json_node_alloc (), request);
  notification = atp_notification_new_from_json (root, ATP_PARSE_SUBMISSION, error);
  if (notification == NULL)
    return FALSE;
  *body = atp_notification_to_string (notification, &length);
  if (length > ATP_MAX_NOTIFICATION_SIZE)
    {
      g_set_error (error, ATP_ERROR, ATP_ERROR_PAYLOAD_TOO_LARGE,
                   "the request would have %" G_GSIZE_FORMAT " KiB, more than ATP allows",
                   (length + 1023) / 1024);
      g_clear_pointer (body, g_free);
      return FALSE;
    }
  *notification_id = g_steal_pointer (&id);
  return TRUE;
}

static void
hook_stop (Hook       *hook,
           const char *problem)
{
  if (problem != NULL && hook->problem == NULL)
    hook->problem = g_strdup (problem);
  g_main_loop_quit (hook->loop);
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
  if (hook->withdrawing)
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
  if (hook->withdrawing)
    return;
  if (post == NULL)
    {
      hook_stop (hook, error->message);
      return;
    }
  triage_service_request_wait_async (hook->request, hook->options->wait_seconds,
                                     hook->cancellable, waited_cb, hook);
}

static void
withdrawn_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  Hook *hook = user_data;

  triage_service_request_withdraw_finish (TRIAGE_SERVICE_REQUEST (object), result, NULL);
  hook_stop (hook, NULL);
}

/* Claude Code gave up on the hook (its timeout) or the person pressed Ctrl+C. */
static gboolean
on_signal (gpointer data)
{
  Hook *hook = data;

  if (hook->withdrawing || hook->request == NULL)
    {
      hook_stop (hook, "interrupted");
      return G_SOURCE_CONTINUE;
    }
  hook->withdrawing = TRUE;
  hook->problem = g_strdup ("interrupted before anyone answered");
  g_cancellable_cancel (hook->cancellable);
  triage_service_request_withdraw_async (hook->request,
                                         "the agent stopped waiting; it asks in its own prompt",
                                         NULL, withdrawn_cb, hook);
  return G_SOURCE_CONTINUE;
}

static void
decide (Hook *hook)
{
  AtpNotification *settled = hook->settled;

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
      g_autofree char *reason = g_strdup_printf ("Allowed in Triage by %s",
                                                 settled->response->responder_id != NULL &&
                                                 *settled->response->responder_id != '\0'
                                                   ? settled->response->responder_id
                                                   : "the person");

      print_decision (hook->event, TRUE, reason);
    }
  else
    {
      JsonNode *data = settled->response->response_data;
      const char *typed = JSON_NODE_HOLDS_VALUE (data) &&
                          json_node_get_value_type (data) == G_TYPE_STRING
                            ? json_node_get_string (data) : NULL;
      g_autofree char *trimmed = g_strstrip (g_strdup (typed != NULL ? typed : ""));
      g_autofree char *reason = NULL;

      if (*trimmed != '\0')
        reason = g_strdup (typed);
      else
        reason = g_strdup_printf ("Denied in Triage by %s",
                                  settled->response->responder_id != NULL &&
                                  *settled->response->responder_id != '\0'
                                    ? settled->response->responder_id : "the person");
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
  gsize length = 0;
  guint sigint_id;
  guint sigterm_id;

  /* Standard output carries the decision and nothing else: GLib would print
   * debug and info lines there when G_MESSAGES_DEBUG is set. */
  g_log_writer_default_set_use_stderr (TRUE);

  text = triage_ask_read_stdin (HOOK_MAX_INPUT, &length, &error);
  if (text != NULL)
    input = atp_json_parse (text, length, HOOK_MAX_INPUT, &error);
  if (input != NULL && !JSON_NODE_HOLDS_OBJECT (input))
    g_set_error_literal (&error, ATP_ERROR, ATP_ERROR_INVALID_REQUEST,
                         "the hook input is not a JSON object");
  if (error != NULL)
    {
      g_autofree char *problem = g_strdup_printf ("cannot read the hook input: %s",
                                                  error->message);

      print_fallback (EVENT_UNKNOWN, problem);
      return TRIAGE_ASK_EXIT_ANSWERED;
    }

  event = member_string (json_node_get_object (input), "hook_event_name");
  hook.event = event_from_name (event);
  if (hook.event == EVENT_UNKNOWN)
    {
      g_autofree char *problem = event == NULL
        ? g_strdup ("the hook input has no hook_event_name")
        : g_strdup_printf ("hook event “%s” is not one triage-ask answers "
                           "(PreToolUse, PermissionRequest)", event);

      print_fallback (EVENT_UNKNOWN, problem);
      return TRIAGE_ASK_EXIT_ANSWERED;
    }

  if (!build_request (&hook, json_node_get_object (input), now, &notification_id, &body, &error) ||
      (client = triage_service_connect (options->server_url, options->socket_path,
                                        options->service_id, options->service_name,
                                        &error)) == NULL)
    {
      print_fallback (hook.event, error->message);
      return TRIAGE_ASK_EXIT_ANSWERED;
    }

  hook.request = triage_service_request_new (client, notification_id, body, options->retry_for_us);
  hook.loop = g_main_loop_new (NULL, FALSE);
  hook.cancellable = g_cancellable_new ();
  sigint_id = g_unix_signal_add (SIGINT, on_signal, &hook);
  sigterm_id = g_unix_signal_add (SIGTERM, on_signal, &hook);

  triage_service_request_send_async (hook.request, hook.cancellable, sent_cb, &hook);
  g_main_loop_run (hook.loop);
  decide (&hook);

  g_source_remove (sigint_id);
  g_source_remove (sigterm_id);
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
