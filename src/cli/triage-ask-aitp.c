/* triage-ask-aitp.c — triage-ask --aitp: a decision in NEAR AI's AITP-02
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-ask"

#include "triage-ask-private.h"

#include "atp.h"
#include "atp-aitp.h"

/*
 * The agent writes one AITP message holding request_decision on standard
 * input; the decision message comes out on standard output as one line of
 * JSON once a person has decided. The message is checked here with the
 * server's own rules (libatp) before anything is sent, so a mistake is named
 * even when no server runs. docs/protocol.md has the details.
 */

#define DECISIONS "/api/v1/aitp/decisions"

static const char help_description[] =
  "Standard input: one AITP-02 message holding request_decision, e.g.\n"
  "  {\"$schema\": \"https://aitp.dev/v1/decisions/schema.json\",\n"
  "   \"request_decision\": {\"id\": \"pick-1\", \"description\": \"Favorite number?\",\n"
  "     \"options\": [{\"id\": \"0\", \"name\": \"0\"}, {\"id\": \"7\", \"name\": \"7\"}]}}\n"
  "Its type is radio (the default), checkbox, confirmation or products. Triage's own\n"
  "member \"x-triage\": {\"deadline\": RFC 3339, \"project\": NAME, \"confirm\": true} carries\n"
  "what AITP has no field for; --deadline and --project set it too.\n"
  "\n"
  "Standard output: the decision message, one line of JSON:\n"
  "  {\"$schema\": \"https://aitp.dev/v1/decisions/schema.json\",\n"
  "   \"decision\": {\"request_decision_id\": \"pick-1\", \"options\": [{\"id\": \"7\", \"name\": \"7\"}]}}\n"
  "A products decision gives every option its \"quantity\". Sending again with the same\n"
  "request_decision.id and message (a retry) waits for the same decision; a --deadline\n"
  "duration is another message on every run, so give a retried one as an RFC 3339 time.\n"
  "\n"
  "Exit status: 0 decided, 2 bad option or invalid message (the message names the field),\n"
  "3 server unreachable, 4 other server error, 5 expired, 6 withdrawn by the service,\n"
  "130/143 interrupted by SIGINT/SIGTERM, 129 when the terminal closes (SIGHUP), 141 when\n"
  "nobody reads standard output any more (the request is withdrawn first).";

typedef struct
{
  char *deadline;
  char *project;
} Extension;

static gboolean
parse_options (TriageAskOptions  *options,
               Extension         *extension,
               int                argc,
               char             **argv,
               GError           **error)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_auto(GStrv) args = g_new0 (char *, argc + 1);
  g_autofree char *deadline = NULL;
  g_autofree char *server = NULL;
  g_autofree char *socket_path = NULL;
  g_autofree char *service = NULL;
  g_autofree char *service_name = NULL;
  g_autofree char *retry_for = NULL;
  gboolean aitp = FALSE;
  const GOptionEntry entries[] = {
    { "aitp", 0, 0, G_OPTION_ARG_NONE, &aitp,
      "Ask for a decision in NEAR AI's AITP-02 (this mode)", NULL },
    { "deadline", 0, 0, G_OPTION_ARG_FILENAME, &deadline,
      "When the request expires: a duration (90s, 15m, 2h, 1d, 1h30m) or an RFC 3339 time",
      "WHEN" },
    { "project", 'p', 0, G_OPTION_ARG_FILENAME, &extension->project,
      "The project the decision belongs to", "NAME" },
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
    { "no-wait", 0, 0, G_OPTION_ARG_NONE, &options->no_wait,
      "Send the request, print the server's {id, request_decision_id, status} and exit", NULL },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &options->quiet,
      "Print nothing on standard output", NULL },
    { NULL }
  };

  for (int i = 0; i < argc; i++)
    args[i] = g_strdup (argv[i]);
  if (!triage_service_refuse_secrets (args, error))
    return FALSE;

  context = g_option_context_new ("--aitp — ask a person for a decision (NEAR AI's AITP-02)");
  g_option_context_add_main_entries (context, entries, NULL);
  g_option_context_set_description (context, help_description);
  if (!g_option_context_parse_strv (context, &args, error))
    return FALSE;
  for (guint i = 1; args[i] != NULL; i++)
    if (!g_str_equal (args[i], "-"))
      return triage_ask_usage_error (error, "unexpected argument “%s”: with --aitp the request "
                                     "comes on standard input", args[i]);

  {
    /* As for triage-ask's own options: UTF-8 whatever the locale (the
     * connection options are made so by triage_ask_options_set_connection ()). */
    const struct { const char *option; char **value; } texts[] = {
      { "--deadline", &deadline },
      { "--project", &extension->project },
    };

    for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
      if (!triage_ask_value_to_utf8 (texts[i].option, texts[i].value, error))
        return FALSE;
  }

  if (!triage_ask_options_set_connection (options, server, socket_path, service, service_name,
                                          retry_for, error))
    return FALSE;
  if (deadline != NULL && !triage_ask_parse_deadline (deadline, now, &extension->deadline, error))
    return FALSE;
  if (extension->project != NULL && *g_strstrip (extension->project) == '\0')
    return triage_ask_usage_error (error, "--project: the name is empty");
  return TRUE;
}

/* --deadline and --project into the message's x-triage, which must not set them already. */
static gboolean
extend (JsonObject       *message,
        const Extension  *extension,
        GError          **error)
{
  const char *members[] = { "deadline", "project" };
  const char *values[] = { extension->deadline, extension->project };
  JsonObject *triage = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (members); i++)
    {
      if (values[i] == NULL)
        continue;
      if (triage == NULL)
        {
          JsonNode *member = json_object_get_member (message, "x-triage");

          /* null is no x-triage (the server reads it so): the option's
           * deadline was dropped into it unseen, and the request never
           * expired. Another type is the message's mistake, which its
           * validation names. */
          if (member != NULL && !JSON_NODE_HOLDS_NULL (member) && !JSON_NODE_HOLDS_OBJECT (member))
            return TRUE;
          if (member == NULL || JSON_NODE_HOLDS_NULL (member))
            json_object_set_object_member (message, "x-triage", json_object_new ());
          triage = json_object_get_object_member (message, "x-triage");
        }
      if (json_object_has_member (triage, members[i]))
        return triage_ask_usage_error (error, "--%s: the message's x-triage.%s sets it already; "
                                       "give one", members[i], members[i]);
      json_object_set_string_member (triage, members[i], values[i]);
    }
  return TRUE;
}

/* The message from standard input, checked (and extended) as the server will. */
static gboolean
read_request (TriageAskOptions  *options,
              const Extension   *extension,
              GError           **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(AtpAitpRequest) request = NULL;
  g_autofree char *text = NULL;
  gsize length = 0;

  text = triage_ask_read_stdin (ATP_MAX_NOTIFICATION_SIZE, FALSE, &length, &local_error);
  if (text != NULL && length == 0)
    g_set_error_literal (&local_error, ATP_ERROR, ATP_ERROR_INVALID_JSON, "it is empty");
  if (local_error == NULL)
    root = atp_json_parse (text, length, ATP_MAX_NOTIFICATION_SIZE, &local_error);
  if (root != NULL && JSON_NODE_HOLDS_OBJECT (root) &&
      !extend (json_node_get_object (root), extension, error))
    return FALSE;
  if (root != NULL)
    request = atp_aitp_request_new_submission (root, &local_error);
  if (request == NULL)
    {
      g_set_error (error, local_error->domain, local_error->code,
                   "invalid decision request on standard input: %s", local_error->message);
      return FALSE;
    }

  options->body = atp_json_to_string (root, NULL);
  options->title = g_strdup (request->title != NULL ? request->title
                             : request->description != NULL ? request->description : request->id);
  options->collection = g_strdup (DECISIONS);
  options->answer_member = "decision";
  return TRUE;
}

int
triage_ask_aitp_main (int    argc,
                      char **argv)
{
  g_autoptr(TriageAskOptions) options = triage_ask_options_new ();
  g_autoptr(GError) error = NULL;
  Extension extension = { NULL, NULL };
  int status;

  if (!parse_options (options, &extension, argc, argv, &error) ||
      !read_request (options, &extension, &error))
    {
      triage_ask_say ("%s", error->message);
      status = TRIAGE_ASK_EXIT_USAGE;
    }
  else
    status = triage_ask_run (options);

  g_free (extension.deadline);
  g_free (extension.project);
  return status;
}
