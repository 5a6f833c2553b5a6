/* triage-ask-options.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-ask"

#include "triage-ask-private.h"

#include <math.h>
#include <string.h>

#include <glib/gstdio.h>

#include "atp.h"
#include "atp-client.h"

/*
 * The command line becomes a notification in JSON, which libatp then
 * validates exactly as the server will: every mistake is caught before
 * anything is sent, with the option or field named.
 */


TriageAskOptions *
triage_ask_options_new (void)
{
  TriageAskOptions *self = g_new0 (TriageAskOptions, 1);

  self->retry_for_us = (gint64) TRIAGE_ASK_DEFAULT_RETRY_FOR_S * G_USEC_PER_SEC;
  self->wait_seconds = 60;
  self->service_id = g_strdup (TRIAGE_ASK_DEFAULT_SERVICE_ID);

  return self;
}

void
triage_ask_options_free (TriageAskOptions *self)
{
  if (self == NULL)
    return;

  g_free (self->server_url);
  g_free (self->socket_path);
  g_free (self->service_id);
  g_free (self->service_name);
  g_free (self->notification_id);
  g_free (self->title);
  g_free (self->body);
  g_free (self->hook);
  g_free (self->hook_deadline);
  g_free (self->collection);
  g_free (self);
}

static gboolean
has_control_character (const char *text)
{
  for (const guchar *p = (const guchar *) text; *p != '\0'; p++)
    if (*p < 0x20 || *p == 0x7f)
      return TRUE;

  return FALSE;
}

gboolean
triage_ask_options_set_connection (TriageAskOptions  *self,
                                   const char        *server_arg,
                                   const char        *socket_path,
                                   const char        *service_arg,
                                   const char        *service_name_arg,
                                   const char        *retry_for_arg,
                                   GError           **error)
{
  g_autofree char *server = g_strdup (server_arg);
  g_autofree char *service = g_strdup (service_arg);
  g_autofree char *service_name = g_strdup (service_name_arg);
  g_autofree char *retry_for = g_strdup (retry_for_arg);
  /* UTF-8 whatever the locale, here for every mode (ATP, --hook, --aitp, --afp).
   * The socket is a file name: bytes, kept as they are. */
  const struct { const char *option; char **value; } texts[] = {
    { "--server", &server }, { "--service", &service }, { "--service-name", &service_name },
    { "--retry-for", &retry_for },
  };

  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    if (!triage_ask_value_to_utf8 (texts[i].option, texts[i].value, error))
      return FALSE;

  if (server != NULL)
    {
      if (!atp_client_check_url (server, error))
        {
          g_prefix_error (error, "--server: ");
          return FALSE;
        }
      g_free (self->server_url);
      self->server_url = g_strdup (server);
    }
  /* An empty path names no socket: refused, not taken for the default. */
  if (socket_path != NULL && *socket_path == '\0')
    {
      g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                           "--socket: must not be empty");
      return FALSE;
    }
  g_free (self->socket_path);
  self->socket_path = g_strdup (socket_path);
  /* A blank service id or name is no name: said here, not left to the server. */
  if (service != NULL && atp_str_is_blank (service))
    return triage_ask_usage_error (error, "--service: the id is empty");
  if (service_name != NULL && atp_str_is_blank (service_name))
    return triage_ask_usage_error (error, "--service-name: the name is empty");
  /* They travel in HTTP headers to the local server: libsoup dropped one with
   * a line break (with a critical warning), and the request was filed under
   * the server's default service. */
  if (service != NULL && has_control_character (service))
    return triage_ask_usage_error (error, "--service: a control character (a line break, a tab) "
                                   "cannot be in it");
  if (service_name != NULL && has_control_character (service_name))
    return triage_ask_usage_error (error, "--service-name: a control character (a line break, a "
                                   "tab) cannot be in it");
  /* A huge one made the local server close the connection at the headers, which read
   * as "Cannot reach the local server … is it running?" after minutes of retries. */
  if (service != NULL && g_utf8_strlen (service, -1) > TRIAGE_SERVICE_ID_MAX)
    return triage_ask_usage_error (error, "--service: the id has %ld characters, more than "
                                   "the %d an id may have (a longer name for people goes in "
                                   "--service-name)", g_utf8_strlen (service, -1),
                                   TRIAGE_SERVICE_ID_MAX);
  if (service_name != NULL && g_utf8_strlen (service_name, -1) > TRIAGE_SERVICE_NAME_MAX)
    return triage_ask_usage_error (error, "--service-name: the name has %ld characters, more "
                                   "than the %d a name may have", g_utf8_strlen (service_name, -1),
                                   TRIAGE_SERVICE_NAME_MAX);
  if (service != NULL)
    {
      g_free (self->service_id);
      self->service_id = g_strdup (service);
    }
  g_free (self->service_name);
  self->service_name = g_strdup (service_name);

  if (retry_for != NULL && !triage_service_parse_duration (retry_for, &self->retry_for_us))
    return triage_ask_usage_error (error, "--retry-for “%s”: %s", retry_for,
                                   triage_service_duration_problem (retry_for));

  return TRUE;
}

gboolean
triage_ask_usage_error (GError     **error,
                        const char  *format,
                        ...)
{
  va_list args;

  va_start (args, format);
  if (error != NULL)
    *error = g_error_new_valist (G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, format, args);
  va_end (args);

  return FALSE;
}

static gboolean
values_to_utf8 (const char  *option,
                GStrv        values,
                GError     **error)
{
  for (guint i = 0; values != NULL && values[i] != NULL; i++)
    if (!triage_ask_value_to_utf8 (option, &values[i], error))
      return FALSE;

  return TRUE;
}

/* An empty or blank text option: named, not left to the request's validation. */
static gboolean
check_not_blank (const char  *option,
                 const char  *value,
                 GError     **error)
{
  if (value != NULL && atp_str_is_blank (value))
    return triage_ask_usage_error (error, "%s: the text is empty", option);

  return TRUE;
}

/* "actions[1].options: …" → "actions[1] (“pick”).options: …" */
static GError *
explain_validation_error (const GError *error,
                          GPtrArray    *actions)
{
  const char *message = error->message;
  guint index;
  char *end = NULL;

  if (actions != NULL && g_str_has_prefix (message, "actions["))
    {
      index = (guint) g_ascii_strtoull (message + strlen ("actions["), &end, 10);
      if (end != NULL && *end == ']' && index < actions->len)
        {
          TriageAskAction *action = g_ptr_array_index (actions, index);

          return g_error_new (error->domain, error->code, "invalid request: %.*s (--action “%s”)%s",
                              (int) (end + 1 - message), message, action->id, end + 1);
        }
    }

  return g_error_new (error->domain, error->code, "invalid request: %s", message);
}

/* Validates @root, fixes the id, and keeps the text that every try sends. */
static gboolean
finish_request (TriageAskOptions  *self,
                JsonNode          *root,
                GPtrArray         *actions,
                GError           **error)
{
  g_autoptr(AtpNotification) notification = NULL;
  g_autoptr(GError) local_error = NULL;
  gsize length = 0;

  notification = atp_notification_new_from_json (root, ATP_PARSE_SUBMISSION, &local_error);
  if (notification == NULL)
    {
      *error = explain_validation_error (local_error, actions);
      return FALSE;
    }

  self->id_ours = notification->id == NULL && self->notification_id == NULL;
  if (notification->id == NULL || self->notification_id != NULL)
    {
      g_autofree char *id = self->notification_id ? g_strdup (self->notification_id)
                                                   : atp_new_uuid ();
      AtpNotification *with_id = atp_notification_copy_with (notification, id, NULL, NULL, NULL,
                                                             NULL, -1);

      atp_notification_unref (notification);
      notification = with_id;
    }

  g_free (self->notification_id);
  self->notification_id = g_strdup (notification->id);
  g_free (self->title);
  self->title = g_strdup (notification->context.title);
  g_free (self->body);
  self->body = atp_notification_to_string (notification, &length);

  if (length > ATP_MAX_NOTIFICATION_SIZE)
    {
      /* Attachments are blamed only when there are some: a huge --description
       * or --metadata was told that attachments take the most room. */
      g_set_error (error, ATP_ERROR, ATP_ERROR_PAYLOAD_TOO_LARGE,
                   "invalid request: it has %" G_GSIZE_FORMAT " KiB, more than the %d KiB a "
                   "request may have%s", (length + 1023) / 1024, ATP_MAX_NOTIFICATION_SIZE / 1024,
                   notification->context.attachments->len > 0
                   ? " (attachments take the most room)" : "");
      return FALSE;
    }

  return TRUE;
}

gboolean
triage_ask_options_set_json (TriageAskOptions  *self,
                             const char        *data,
                             gsize              length,
                             GError           **error)
{
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GError) local_error = NULL;

  root = atp_json_parse (data, length, ATP_MAX_NOTIFICATION_SIZE, &local_error);
  if (root == NULL)
    {
      g_set_error (error, local_error->domain, local_error->code,
                   "invalid request on standard input: %s", local_error->message);
      return FALSE;
    }

  return finish_request (self, root, NULL, error);
}

/* GOption */

typedef struct
{
  char     **question;
  gboolean   confirm;
} ParseState;

static gboolean
confirm_cb (const char  *option_name,
            const char  *value,
            gpointer     data,
            GError     **error)
{
  ParseState *state = data;

  state->confirm = TRUE;
  if (value != NULL)
    {
      g_free (*state->question);
      *state->question = g_strdup (value);
    }

  return TRUE;
}

static const char help_description[] =
  "Actions: --action ID:TYPE[:FLAG...] (repeatable, in order; TYPE defaults to simple):\n"
  "  simple        nothing to enter                 answer: null\n"
  "  binary        yes or no                        --option ID=true:LABEL --option ID=false:LABEL\n"
  "                                                 (labels default to Yes/No); answer: true/false\n"
  "  choice        one of the options               --option ID=VALUE[:LABEL] (one or more)\n"
  "  multi_choice  some of the options              --option ..., --constraint ID.min_selections=N,\n"
  "                                                 ID.max_selections=N; answer: [values]\n"
  "  text          free text                        --constraint ID.min_length=N, ID.max_length=N,\n"
  "                                                 ID.placeholder=TEXT\n"
  "  number        a number                         --constraint ID.min=X, ID.max=X, ID.step=X,\n"
  "                                                 ID.unit=TEXT, ID.placeholder=TEXT\n"
  "  scale         a whole number in a range        --constraint ID.min=N and ID.max=N (required),\n"
  "                                                 ID.step=N, ID.min_label=TEXT, ID.max_label=TEXT\n"
  "FLAGs (separated by : or ,): destructive, irreversible, time_sensitive, affects_others,\n"
  "costly, experimental, requires_confirmation; other names are passed on as they are.\n"
  "A label defaults to the id (deploy_now: \"Deploy now\"); set it with --label ID=TEXT.\n"
  "For ids or values with ':' or '=' give the whole request as JSON (--json).\n"
  "\n"
  "Standard input (--json or -): a notification as JSON without service and status, e.g.\n"
  "  {\"context\": {\"title\": \"Deploy?\", \"description\": \"CI is green\"},\n"
  "   \"actions\": [{\"id\": \"go\", \"label\": \"Deploy\", \"response_type\": \"simple\"}]}\n"
  "\n"
  "Server: without --server, the local server at $XDG_RUNTIME_DIR/triage/triage.sock, with no\n"
  "key, as the service named by --service (default triage-ask). With --server URL (https://, or\n"
  "http:// to this computer) the service API key comes from the environment variable\n"
  "TRIAGE_API_KEY or the keyring (schema " TRIAGE_ASK_KEY_SCHEMA ", attribute\n"
  "server=URL), never from the command line. Sending is retried with the same id while the\n"
  "server is unreachable, and waiting survives a server restart, for up to --retry-for.\n"
  "\n"
  "Output: the answer as one line of JSON on standard output:\n"
  "  {\"notification_id\": ..., \"action_id\": ..., \"response_data\": ..., \"responded_at\": ...,\n"
  "   \"responder\": {...}}\n"
  "\n"
  "Decisions (NEAR AI's AITP-02): triage-ask --aitp [--deadline WHEN] reads an AITP\n"
  "message holding request_decision on standard input and writes the decision message;\n"
  "see triage-ask --aitp --help.\n"
  "\n"
  "Reviews (Agent Feedback Protocol 1.2): triage-ask --afp [--session ID] [--deadline WHEN]\n"
  "reads a Request Object on standard input and writes three lines of JSON; see\n"
  "triage-ask --afp --help.\n"
  "\n"
  "Exit status: 0 answered (with --confirm: approved), 1 denied (--confirm), 2 bad option or\n"
  "invalid request (the message names the field), 3 server unreachable, 4 other server error,\n"
  "5 expired, 6 withdrawn by the service, 130/143 interrupted by SIGINT/SIGTERM, 129 when\n"
  "the terminal closes (SIGHUP), 141 when nobody reads standard output any more (the request\n"
  "is withdrawn first).";

TriageAskOptions *
triage_ask_options_parse (GStrv      *argv,
                          GDateTime  *now,
                          GError    **error)
{
  g_autoptr(TriageAskOptions) self = triage_ask_options_new ();
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GPtrArray) actions = NULL;
  g_autoptr(GHashTable) by_id = NULL;
  g_autoptr(JsonObject) notification = NULL;
  g_autoptr(JsonObject) ctx = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *title = NULL;
  g_autofree char *description = NULL;
  g_autofree char *deadline = NULL;
  g_autofree char *project = NULL;
  g_autofree char *retry_for = NULL;
  g_autofree char *id = NULL;
  g_autofree char *server = NULL;
  g_autofree char *socket_path = NULL;
  g_autofree char *service = NULL;
  g_autofree char *service_name = NULL;
  g_autofree char *question = NULL;
  g_autofree char *hook = NULL;
  g_auto(GStrv) action_specs = NULL;
  g_auto(GStrv) label_specs = NULL;
  g_auto(GStrv) option_specs = NULL;
  g_auto(GStrv) constraint_specs_arg = NULL;
  g_auto(GStrv) metadata_specs = NULL;
  g_auto(GStrv) attach_paths = NULL;
  g_auto(GStrv) flag_names = NULL;
  gboolean json = FALSE;
  gboolean quiet = FALSE;
  gboolean no_wait = FALSE;
  gboolean title_is_question = FALSE;
  ParseState state = { 0 };
  guint positional;
  const GOptionEntry entries[] = {
    { "title", 't', 0, G_OPTION_ARG_FILENAME, &title,
      "The request's title (required unless --confirm QUESTION or --json)", "TEXT" },
    { "description", 'd', 0, G_OPTION_ARG_FILENAME, &description,
      "What the person needs to know (default: the title)", "TEXT" },
    { "action", 'a', 0, G_OPTION_ARG_FILENAME_ARRAY, &action_specs,
      "Add an action (see Actions below)", "ID:TYPE[:FLAG...]" },
    { "label", 'l', 0, G_OPTION_ARG_FILENAME_ARRAY, &label_specs,
      "The label of action ID", "ID=TEXT" },
    { "option", 'o', 0, G_OPTION_ARG_FILENAME_ARRAY, &option_specs,
      "An option of a choice/multi_choice action, or a binary action's true/false label",
      "ID=VALUE[:LABEL]" },
    { "constraint", 'c', 0, G_OPTION_ARG_FILENAME_ARRAY, &constraint_specs_arg,
      "A constraint of action ID (see Actions below)", "ID.NAME=VALUE" },
    { "confirm", 0, G_OPTION_FLAG_OPTIONAL_ARG | G_OPTION_FLAG_FILENAME,
      G_OPTION_ARG_CALLBACK, confirm_cb,
      "Ask a yes/no question (approve/deny); exit 0 if approved, 1 if denied", "QUESTION" },
    { "flag", 'f', 0, G_OPTION_ARG_FILENAME_ARRAY, &flag_names,
      "With --confirm: a flag of the approve action (e.g. irreversible)", "FLAG" },
    { "deadline", 0, 0, G_OPTION_ARG_FILENAME, &deadline,
      "When the request expires: a duration (90s, 15m, 2h, 1d, 1h30m) or an RFC 3339 time",
      "WHEN" },
    { "attach", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &attach_paths,
      "Attach a file (inline, at most 700 KiB; type guessed)", "FILE" },
    { "project", 'p', 0, G_OPTION_ARG_FILENAME, &project,
      "The project the request belongs to", "NAME" },
    { "metadata", 'm', 0, G_OPTION_ARG_FILENAME_ARRAY, &metadata_specs,
      "A metadata entry (a string, or JSON after :=)", "KEY=VALUE|KEY:=JSON" },
    { "id", 0, 0, G_OPTION_ARG_FILENAME, &id,
      "Use this notification id (a UUID v4) instead of a random one", "UUID" },
    { "json", 'j', 0, G_OPTION_ARG_NONE, &json,
      "Read the whole request as JSON from standard input (also: -)", NULL },
    { "server", 's', 0, G_OPTION_ARG_FILENAME, &server,
      "Use the ATP server at URL instead of the local one", "URL" },
    { "socket", 0, 0, G_OPTION_ARG_FILENAME, &socket_path,
      "The local server's socket (default $XDG_RUNTIME_DIR/triage/triage.sock)", "PATH" },
    { "service", 0, 0, G_OPTION_ARG_FILENAME, &service,
      "The service id on the local server (default " TRIAGE_ASK_DEFAULT_SERVICE_ID ")", "ID" },
    { "service-name", 0, 0, G_OPTION_ARG_FILENAME, &service_name,
      "The service's display name on the local server (default: the id)", "NAME" },
    { "retry-for", 0, 0, G_OPTION_ARG_FILENAME, &retry_for,
      "How long to keep retrying an unreachable server (default 5m)", "DURATION" },
    { "no-wait", 0, 0, G_OPTION_ARG_NONE, &no_wait,
      "Send the request, print {notification_id, status} and exit", NULL },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet,
      "Print nothing on standard output (--confirm is always quiet)", NULL },
    { "hook", 0, 0, G_OPTION_ARG_FILENAME, &hook,
      "Answer a coding agent's permission hook: its JSON on standard input, its decision on "
      "standard output (AGENT: claude-code)", "AGENT" },
    { NULL }
  };
  GOptionGroup *group;

  if (!triage_service_refuse_secrets (*argv, error))
    return NULL;

  state.question = &question;
  context = g_option_context_new ("[-] [QUESTION] — ask a person through Triage and wait for the answer");
  group = g_option_group_new ("triage-ask", "triage-ask", "triage-ask options", &state, NULL);
  g_option_group_add_entries (group, entries);
  g_option_context_set_main_group (context, group);
  g_option_context_set_description (context, help_description);
  g_option_context_set_strict_posix (context, FALSE);

  if (!g_option_context_parse_strv (context, argv, error))
    return NULL;

  /* Positional: "-" (JSON on stdin), or the question of --confirm. */
  positional = g_strv_length (*argv);
  for (guint i = 1; i < positional; i++)
    {
      const char *arg = (*argv)[i];

      if (g_str_equal (arg, "-"))
        json = TRUE;
      else if (state.confirm && question == NULL)
        question = g_strdup (arg);
      else
        {
          triage_ask_usage_error (error, "unexpected argument “%s” (options start with --; see "
                                  "--help)", arg);
          return NULL;
        }
    }

  {
    const struct { const char *option; char **value; } texts[] = {
      { "--title", &title }, { "--description", &description }, { "--deadline", &deadline },
      { "--project", &project }, { "--id", &id }, { "--confirm", &question },
      { "--hook", &hook },
    };
    const struct { const char *option; GStrv values; } lists[] = {
      { "--action", action_specs }, { "--label", label_specs }, { "--option", option_specs },
      { "--constraint", constraint_specs_arg }, { "--metadata", metadata_specs },
      { "--flag", flag_names },
    };

    for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
      if (!triage_ask_value_to_utf8 (texts[i].option, texts[i].value, error))
        return NULL;
    for (guint i = 0; i < G_N_ELEMENTS (lists); i++)
      if (!values_to_utf8 (lists[i].option, lists[i].values, error))
        return NULL;
  }

  self->quiet = quiet || state.confirm;
  self->no_wait = no_wait;
  self->confirm = state.confirm;
  self->read_stdin = json;

  if (!triage_ask_options_set_connection (self, server, socket_path, service, service_name,
                                          retry_for, error))
    return NULL;

  if (id != NULL)
    {
      if (!atp_is_uuid_v4 (id))
        {
          triage_ask_usage_error (error, "--id “%s”: not a UUID v4 (e.g. from uuidgen -r)", id);
          return NULL;
        }
      self->notification_id = g_ascii_strdown (id, -1);
    }

  if (hook != NULL)
    {
      if (!g_str_equal (hook, "claude-code"))
        {
          triage_ask_usage_error (error, "--hook “%s”: the agent hooks known are claude-code",
                                  hook);
          return NULL;
        }
      if (json || title || description || action_specs || label_specs || option_specs ||
          constraint_specs_arg || metadata_specs || attach_paths || flag_names || project ||
          state.confirm || no_wait || id != NULL || quiet)
        {
          /* --quiet too: the hook's output is its decision, which Claude Code must read. */
          triage_ask_usage_error (error, "--hook builds the request from the hook's input and "
                                  "prints the agent's decision; only --deadline and the "
                                  "connection options (--server, --socket, --service, "
                                  "--service-name, --retry-for) go with it");
          return NULL;
        }
      /* Checked here too, for the messages of a duration too long or a time
       * nearly RFC 3339 (the hook's own check knows only "expected …"). */
      if (deadline != NULL)
        {
          g_autofree char *checked = NULL;

          if (!triage_ask_parse_deadline (deadline, now, &checked, error))
            return NULL;
        }
      if (!triage_ask_options_set_hook (self, hook, deadline, now, retry_for != NULL, error))
        return NULL;
      return g_steal_pointer (&self);
    }

  if (json)
    {
      if (title || description || action_specs || label_specs || option_specs ||
          constraint_specs_arg || metadata_specs || attach_paths || flag_names || deadline ||
          project || state.confirm)
        {
          triage_ask_usage_error (error, "--json takes the whole request from standard input; do "
                                  "not combine it with options that build one (--title, --action, "
                                  "--confirm, …)");
          return NULL;
        }
      return g_steal_pointer (&self);
    }

  if (state.confirm)
    {
      /* Its exit status is the answer: with --no-wait it exited 0, "approved",
       * as soon as the request was sent, and `--confirm Q --no-wait && rm …`
       * ran without anyone approving. */
      if (no_wait)
        {
          triage_ask_usage_error (error, "--confirm waits for the answer (its exit status is "
                                  "the answer); it cannot go with --no-wait");
          return NULL;
        }
      if (action_specs || label_specs || option_specs || constraint_specs_arg)
        {
          triage_ask_usage_error (error, "--confirm builds its own approve and deny actions; do "
                                  "not combine it with --action, --label, --option or "
                                  "--constraint");
          return NULL;
        }
      if (question != NULL && title != NULL)
        {
          triage_ask_usage_error (error, "--confirm QUESTION and --title both give the title; use "
                                  "one");
          return NULL;
        }
      if (question != NULL)
        {
          title = g_steal_pointer (&question);
          title_is_question = TRUE;
        }
    }
  else if (flag_names != NULL)
    {
      triage_ask_usage_error (error, "--flag belongs to --confirm; with --action, flags follow the "
                              "type (--action ID:TYPE:FLAG)");
      return NULL;
    }

  if (title == NULL || (state.confirm && title_is_question && atp_str_is_blank (title)))
    {
      triage_ask_usage_error (error, state.confirm
                                     ? "--confirm needs a question: --confirm \"Deploy 2.1?\""
                                     : "--title is required (or --confirm QUESTION, or --json)");
      return NULL;
    }
  /* ATP refuses a blank title or description. It allows a blank project, but
   * one names no project (leaving --project out says none): refused, as --aitp
   * and --afp refuse it. */
  if (!check_not_blank ("--title", title, error) ||
      !check_not_blank ("--description", description, error))
    return NULL;
  if (project != NULL && atp_str_is_blank (project))
    {
      triage_ask_usage_error (error, "--project: the name is empty");
      return NULL;
    }
  /* The flags go into the approve action's spec, whose message would name an
   * --action nobody gave; "a,b" keeps working. */
  for (guint i = 0; flag_names != NULL && flag_names[i] != NULL; i++)
    {
      const char *flag = flag_names[i];
      gsize length = strlen (flag);

      if (length == 0 || strchr (":,", flag[0]) != NULL || strchr (":,", flag[length - 1]) != NULL ||
          strstr (flag, ",,") || strstr (flag, "::") || strstr (flag, ",:") || strstr (flag, ":,"))
        {
          triage_ask_usage_error (error, "--flag “%s”: empty flag name (one flag, such as "
                                  "irreversible)", flag);
          return NULL;
        }
    }

  actions = g_ptr_array_new_with_free_func ((GDestroyNotify) triage_ask_action_free);
  by_id = g_hash_table_new (g_str_hash, g_str_equal);

  if (state.confirm)
    {
      g_autoptr(GString) approve = g_string_new ("approve:simple");

      for (guint i = 0; flag_names != NULL && flag_names[i] != NULL; i++)
        g_string_append_printf (approve, ":%s", flag_names[i]);
      if (!triage_ask_action_add (actions, by_id, approve->str, error) ||
          !triage_ask_action_add (actions, by_id, "deny:simple", error))
        return NULL;
    }
  else if (action_specs == NULL)
    {
      triage_ask_usage_error (error, "at least one --action is needed (or --confirm)");
      return NULL;
    }

  for (guint i = 0; action_specs != NULL && action_specs[i] != NULL; i++)
    if (!triage_ask_action_add (actions, by_id, action_specs[i], error))
      return NULL;
  for (guint i = 0; label_specs != NULL && label_specs[i] != NULL; i++)
    if (!triage_ask_action_set_label (by_id, label_specs[i], error))
      return NULL;
  for (guint i = 0; option_specs != NULL && option_specs[i] != NULL; i++)
    if (!triage_ask_action_add_option (by_id, option_specs[i], error))
      return NULL;
  for (guint i = 0; constraint_specs_arg != NULL && constraint_specs_arg[i] != NULL; i++)
    if (!triage_ask_action_set_constraint (by_id, constraint_specs_arg[i], error))
      return NULL;

  notification = json_object_new ();
  if (self->notification_id != NULL)
    json_object_set_string_member (notification, "id", self->notification_id);
  json_object_set_string_member (notification, "version", ATP_PROTOCOL_VERSION);

  if (deadline != NULL)
    {
      g_autofree char *checked = NULL;
      g_autoptr(GDateTime) absolute = atp_parse_timestamp (deadline);
      const char *problem = NULL;

      if (!triage_ask_parse_deadline (deadline, now, &checked, error))
        return NULL;
      /* --id is for resending the same request safely: the same body. The
       * timestamp (now) made every run another one, refused as "a different
       * notification with this id". An RFC 3339 deadline goes alone (the
       * server checks it against its own clock); a duration is another
       * deadline on every run anyway (docs/protocol.md). */
      if (self->notification_id != NULL && absolute != NULL)
        json_object_set_string_member (notification, "deadline", checked);
      else if (!triage_service_set_deadline (notification, deadline, now, &problem))
        {
          triage_ask_usage_error (error, "--deadline “%s”: %s", deadline, problem);
          return NULL;
        }
    }

  ctx = json_object_new ();
  json_object_set_string_member (ctx, "title", title);
  json_object_set_string_member (ctx, "description", description != NULL ? description : title);
  if (project != NULL)
    json_object_set_string_member (ctx, "project", project);

  for (guint i = 0; metadata_specs != NULL && metadata_specs[i] != NULL; i++)
    if (!triage_ask_add_metadata (ctx, metadata_specs[i], error))
      return NULL;
  for (guint i = 0; attach_paths != NULL && attach_paths[i] != NULL; i++)
    if (!triage_ask_add_attachment (ctx, attach_paths[i], error))
      return NULL;

  json_object_set_object_member (notification, "context", json_object_ref (ctx));

  {
    JsonArray *list = json_array_new ();

    for (guint i = 0; i < actions->len; i++)
      {
        TriageAskAction *action = g_ptr_array_index (actions, i);

        json_array_add_object_element (list, json_object_ref (action->object));
      }
    json_object_set_array_member (notification, "actions", list);
  }

  root = json_node_init_object (json_node_alloc (), notification);
  if (!finish_request (self, root, actions, error))
    return NULL;

  return g_steal_pointer (&self);
}
