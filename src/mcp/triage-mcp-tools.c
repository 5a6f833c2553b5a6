/* triage-mcp-tools.c — the tools' definitions and the ATP request each call becomes
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-mcp"

#include "triage-mcp-tools.h"

#include <string.h>

#include "triage-service.h"

/*
 * Every call becomes an ordinary ATP request with one or two actions; the
 * schemas below are both what tools/list publishes and what a call is
 * checked against (triage-mcp-schema.c). After that, libatp validates the
 * request exactly as the server will, and its messages are translated back
 * to the argument names the model used.
 */

#define COMMON_INPUT \
  "\"description\": {\"type\": \"string\", \"maxLength\": 8000," \
  "  \"description\": \"What the person needs to know to decide (shown under the title)\"}," \
  "\"details\": {\"type\": \"string\"," \
  "  \"description\": \"Longer material to inspect (a diff, a command, a plan, a log), shown as " \
  "an attachment; the whole request may have about 1 MiB\"}," \
  "\"details_type\": {\"type\": \"string\", \"minLength\": 3," \
  "  \"description\": \"The MIME type of details, a text type (default text/plain), e.g. " \
  "text/x-diff, application/json, text/markdown\"}," \
  "\"deadline\": {\"type\": \"string\", \"minLength\": 1," \
  "  \"description\": \"When the request expires unanswered: a duration from now (90s, 15m, " \
  "2h, 1d, 1h30m) or an RFC 3339 time. Without one, the call waits until the person answers\"}," \
  "\"project\": {\"type\": \"string\", \"minLength\": 1, \"maxLength\": 200," \
  "  \"description\": \"The project or repository this is about\"}"

#define FLAGS_INPUT(what) \
  "\"flags\": {\"type\": \"array\", \"description\": \"What " what " would do, shown as badges; " \
  "destructive, irreversible and requires_confirmation make the person confirm\", " \
  "\"items\": {\"type\": \"string\", \"enum\": [\"destructive\", \"irreversible\", " \
  "\"time_sensitive\", \"affects_others\", \"costly\", \"experimental\", " \
  "\"requires_confirmation\"]}}"

#define COMMON_OUTPUT \
  "\"outcome\": {\"type\": \"string\", \"enum\": [\"answered\", \"expired\", \"withdrawn\"]," \
  "  \"description\": \"answered: the person answered; expired: the deadline passed unanswered; " \
  "withdrawn: the request was taken back before anyone answered\"}," \
  "\"responder\": {\"type\": [\"object\", \"null\"], \"description\": \"Who answered\"," \
  "  \"properties\": {\"id\": {\"type\": \"string\"}, \"type\": {\"type\": \"string\"}}}," \
  "\"responded_at\": {\"type\": [\"string\", \"null\"], \"description\": \"When (RFC 3339)\"}," \
  "\"notification_id\": {\"type\": \"string\", \"description\": \"The Triage request's id\"}"

static const char approval_definition[] =
  "{\"name\": \"request_approval\","
  " \"title\": \"Ask the person for approval\","
  " \"description\": \"Ask the person at this computer to approve or deny an action before you "
  "take it, and wait for the decision. They see it in Triage (a desktop notification and "
  "an inbox) and may answer later; the call returns when they do, or when the deadline "
  "passes. Proceed only when approved is true.\","
  " \"inputSchema\": {\"type\": \"object\", \"additionalProperties\": false,"
  "  \"required\": [\"title\"], \"properties\": {"
  "   \"title\": {\"type\": \"string\", \"minLength\": 1, \"maxLength\": 200,"
  "     \"description\": \"What to approve, short, e.g. \\\"Deploy 2.1 to production?\\\"\"},"
  COMMON_INPUT ", " FLAGS_INPUT ("the action") "}},"
  " \"outputSchema\": {\"type\": \"object\","
  "  \"required\": [\"outcome\", \"approved\", \"notification_id\"], \"properties\": {"
  "   \"approved\": {\"type\": \"boolean\", \"description\": \"true only when the person "
  "approved\"}, " COMMON_OUTPUT "}},"
  " \"annotations\": {\"readOnlyHint\": true, \"openWorldHint\": true}}";

static const char ask_human_definition[] =
  "{\"name\": \"ask_human\","
  " \"title\": \"Ask the person a question\","
  " \"description\": \"Ask the person at this computer one question and wait for the typed "
  "answer. response_type says what they enter: simple (they acknowledge; answer null), "
  "binary (yes/no with true_label and false_label; answer true or false), choice (one of "
  "options; answer its value), multi_choice (some of options, constraints min_selections and "
  "max_selections; answer an array of values), text (constraints min_length, max_length, "
  "placeholder; answer a string), number (constraints min, max, step, unit, placeholder; "
  "answer a number), scale (a whole number, constraints min and max required, step, "
  "min_label, max_label). The call returns when they answer, or when the deadline passes.\","
  " \"inputSchema\": {\"type\": \"object\", \"additionalProperties\": false,"
  "  \"required\": [\"question\", \"response_type\"], \"properties\": {"
  "   \"question\": {\"type\": \"string\", \"minLength\": 1, \"maxLength\": 200,"
  "     \"description\": \"The question, short\"},"
  "   \"response_type\": {\"type\": \"string\", \"enum\": [\"simple\", \"binary\", \"choice\", "
  "\"multi_choice\", \"text\", \"number\", \"scale\"]},"
  "   \"label\": {\"type\": \"string\", \"minLength\": 1, \"maxLength\": 100,"
  "     \"description\": \"The label of the answer's button (default: Answer)\"},"
  "   \"options\": {\"type\": \"array\", \"minItems\": 1, \"description\": \"choice and "
  "multi_choice: what the person picks from\", \"items\": {\"type\": \"object\", "
  "\"additionalProperties\": false, \"required\": [\"value\", \"label\"], \"properties\": {"
  "\"value\": {\"type\": \"string\", \"minLength\": 1}, \"label\": {\"type\": \"string\", "
  "\"minLength\": 1}}}},"
  "   \"true_label\": {\"type\": \"string\", \"minLength\": 1, \"description\": \"binary: the "
  "label of true (default Yes)\"},"
  "   \"false_label\": {\"type\": \"string\", \"minLength\": 1, \"description\": \"binary: the "
  "label of false (default No)\"},"
  "   \"constraints\": {\"type\": \"object\", \"additionalProperties\": false, \"properties\": {"
  "\"min_selections\": {\"type\": \"integer\", \"minimum\": 0},"
  "\"max_selections\": {\"type\": \"integer\", \"minimum\": 0},"
  "\"min_length\": {\"type\": \"integer\", \"minimum\": 0},"
  "\"max_length\": {\"type\": \"integer\", \"minimum\": 0},"
  "\"min\": {\"type\": \"number\"}, \"max\": {\"type\": \"number\"},"
  "\"step\": {\"type\": \"number\"},"
  "\"unit\": {\"type\": \"string\"}, \"placeholder\": {\"type\": \"string\"},"
  "\"min_label\": {\"type\": \"string\"}, \"max_label\": {\"type\": \"string\"}}},"
  COMMON_INPUT ", " FLAGS_INPUT ("answering") "}},"
  " \"outputSchema\": {\"type\": \"object\","
  "  \"required\": [\"outcome\", \"response_type\", \"answer\", \"notification_id\"], "
  "  \"properties\": {"
  "   \"response_type\": {\"type\": \"string\"},"
  "   \"answer\": {\"type\": [\"null\", \"boolean\", \"string\", \"number\", \"array\"], "
  "\"items\": {\"type\": \"string\"}, \"description\": \"The typed answer (null when not "
  "answered, and for simple)\"}, " COMMON_OUTPUT "}},"
  " \"annotations\": {\"readOnlyHint\": true, \"openWorldHint\": true}}";

static const char ask_choice_definition[] =
  "{\"name\": \"ask_choice\","
  " \"title\": \"Ask the person to choose\","
  " \"description\": \"Ask the person at this computer to choose one option (or several, with "
  "multiple) and wait for the choice; returns the chosen ids, or outcome expired when the "
  "deadline passes first.\","
  " \"inputSchema\": {\"type\": \"object\", \"additionalProperties\": false,"
  "  \"required\": [\"question\", \"options\"], \"properties\": {"
  "   \"question\": {\"type\": \"string\", \"minLength\": 1, \"maxLength\": 200},"
  "   \"options\": {\"type\": \"array\", \"minItems\": 1, \"items\": {\"type\": \"object\", "
  "\"additionalProperties\": false, \"required\": [\"id\", \"label\"], \"properties\": {"
  "\"id\": {\"type\": \"string\", \"minLength\": 1, \"description\": \"Returned when chosen; "
  "unique\"}, \"label\": {\"type\": \"string\", \"minLength\": 1}, "
  "\"description\": {\"type\": \"string\", \"description\": \"Shown with the option\"}}}},"
  "   \"multiple\": {\"type\": \"boolean\", \"description\": \"Let the person choose several "
  "(default false: exactly one)\"},"
  "   \"min_selections\": {\"type\": \"integer\", \"minimum\": 0, \"description\": \"With "
  "multiple: the fewest to choose (default 0)\"},"
  "   \"max_selections\": {\"type\": \"integer\", \"minimum\": 1, \"description\": \"With "
  "multiple: the most to choose\"},"
  COMMON_INPUT ", " FLAGS_INPUT ("the choice") "}},"
  " \"outputSchema\": {\"type\": \"object\","
  "  \"required\": [\"outcome\", \"chosen\", \"notification_id\"], \"properties\": {"
  "   \"chosen\": {\"type\": \"array\", \"items\": {\"type\": \"string\"}, \"description\": "
  "\"The ids chosen (empty when not answered)\"}, " COMMON_OUTPUT "}},"
  " \"annotations\": {\"readOnlyHint\": true, \"openWorldHint\": true}}";

static const char * const definitions[] = {
  [TRIAGE_MCP_TOOL_REQUEST_APPROVAL] = approval_definition,
  [TRIAGE_MCP_TOOL_ASK_HUMAN] = ask_human_definition,
  [TRIAGE_MCP_TOOL_ASK_CHOICE] = ask_choice_definition,
};

static const char * const names[] = {
  [TRIAGE_MCP_TOOL_REQUEST_APPROVAL] = "request_approval",
  [TRIAGE_MCP_TOOL_ASK_HUMAN] = "ask_human",
  [TRIAGE_MCP_TOOL_ASK_CHOICE] = "ask_choice",
};

/* Parsed once; the definitions are constants, so a parse failure is a bug. */
static JsonObject *
definition (TriageMcpTool tool)
{
  static JsonObject *parsed[G_N_ELEMENTS (definitions)];

  if (g_once_init_enter (&parsed[tool]))
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(JsonNode) node = json_from_string (definitions[tool], &error);

      if (node == NULL)
        g_error ("the definition of %s is not JSON: %s", names[tool], error->message);
      g_once_init_leave (&parsed[tool], json_object_ref (json_node_get_object (node)));
    }

  return parsed[tool];
}

JsonArray *
triage_mcp_tools_list (void)
{
  JsonArray *tools = json_array_new ();

  for (guint i = 0; i < G_N_ELEMENTS (definitions); i++)
    json_array_add_object_element (tools, json_object_ref (definition (i)));

  return tools;
}

JsonArray *
triage_mcp_tools_list_first (void)
{
  static const char * const members[] = { "name", "description", "inputSchema" };
  JsonArray *tools = json_array_new ();

  for (guint i = 0; i < G_N_ELEMENTS (definitions); i++)
    {
      JsonObject *tool = json_object_new ();

      for (guint m = 0; m < G_N_ELEMENTS (members); m++)
        json_object_set_member (tool, members[m],
                                json_node_copy (json_object_get_member (definition (i),
                                                                        members[m])));
      json_array_add_object_element (tools, tool);
    }

  return tools;
}

gboolean
triage_mcp_tool_from_name (const char    *name,
                           TriageMcpTool *tool)
{
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (g_strcmp0 (name, names[i]) == 0)
      {
        *tool = i;
        return TRUE;
      }

  return FALSE;
}

const char *
triage_mcp_tool_get_name (TriageMcpTool tool)
{
  g_return_val_if_fail (tool < G_N_ELEMENTS (names), NULL);

  return names[tool];
}

static const char *
string_argument (JsonObject *arguments,
                 const char *name)
{
  return json_object_has_member (arguments, name)
           ? json_object_get_string_member (arguments, name) : NULL;
}

static JsonArray *
ensure_array (JsonObject *object,
              const char *name)
{
  if (!json_object_has_member (object, name))
    json_object_set_array_member (object, name, json_array_new ());
  return json_object_get_array_member (object, name);
}

/* The context and deadline every tool shares. */
static gboolean
build_common (JsonObject  *request,
              JsonObject  *arguments,
              const char  *title_argument,
              GDateTime   *now,
              GError     **error)
{
  g_autoptr(JsonObject) context = json_object_new ();
  const char *title = string_argument (arguments, title_argument);
  const char *description = string_argument (arguments, "description");
  const char *details = string_argument (arguments, "details");
  const char *deadline = string_argument (arguments, "deadline");
  const char *project = string_argument (arguments, "project");

  if (deadline != NULL)
    {
      const char *problem = NULL;

      if (!triage_service_set_deadline (request, deadline, now, &problem))
        {
          g_set_error (error, TRIAGE_MCP_ERROR, TRIAGE_MCP_ERROR_INVALID_ARGUMENT,
                       "deadline: %s, not “%s”", problem, deadline);
          return FALSE;
        }
    }

  json_object_set_string_member (context, "title", title);
  json_object_set_string_member (context, "description",
                                 description != NULL && *description != '\0' ? description : title);
  if (project != NULL)
    json_object_set_string_member (context, "project", project);

  if (details != NULL)
    {
      JsonObject *attachment = json_object_new ();
      const char *type = string_argument (arguments, "details_type");
      g_autofree char *base64 = g_base64_encode ((const guchar *) details, strlen (details));

      json_object_set_string_member (attachment, "type", type != NULL ? type : "text/plain");
      json_object_set_string_member (attachment, "description", "Details");
      json_object_set_string_member (attachment, "data", base64);
      json_array_add_object_element (ensure_array (context, "attachments"), attachment);
    }

  json_object_set_object_member (request, "context", g_steal_pointer (&context));
  return TRUE;
}

static JsonObject *
new_action (const char *id,
            const char *label,
            const char *response_type)
{
  JsonObject *action = json_object_new ();

  json_object_set_string_member (action, "id", id);
  json_object_set_string_member (action, "label", label);
  json_object_set_string_member (action, "response_type", response_type);
  return action;
}

static void
copy_member (JsonObject *to,
             JsonObject *from,
             const char *name,
             const char *as)
{
  if (json_object_has_member (from, name))
    json_object_set_member (to, as != NULL ? as : name,
                            json_node_copy (json_object_get_member (from, name)));
}

static JsonArray *
build_actions (TriageMcpTool  tool,
               JsonObject    *arguments,
               JsonObject    *context)
{
  JsonArray *actions = json_array_new ();
  JsonObject *action;

  switch (tool)
    {
    case TRIAGE_MCP_TOOL_REQUEST_APPROVAL:
      action = new_action ("approve", "Approve", "simple");
      copy_member (action, arguments, "flags", NULL);
      json_array_add_object_element (actions, action);
      json_array_add_object_element (actions, new_action ("deny", "Deny", "simple"));
      break;

    case TRIAGE_MCP_TOOL_ASK_HUMAN:
      {
        const char *type = string_argument (arguments, "response_type");
        const char *label = string_argument (arguments, "label");

        action = new_action ("answer", label != NULL ? label : "Answer", type);
        copy_member (action, arguments, "flags", NULL);
        if (g_str_equal (type, "binary"))
          {
            JsonObject *options = json_object_new ();
            const char *yes = string_argument (arguments, "true_label");
            const char *no = string_argument (arguments, "false_label");

            json_object_set_string_member (options, "true_label", yes != NULL ? yes : "Yes");
            json_object_set_string_member (options, "false_label", no != NULL ? no : "No");
            json_object_set_object_member (action, "options", options);
          }
        else
          copy_member (action, arguments, "options", NULL);
        copy_member (action, arguments, "constraints", NULL);
        json_array_add_object_element (actions, action);
      }
      break;

    case TRIAGE_MCP_TOOL_ASK_CHOICE:
    default:
      {
        gboolean multiple = json_object_has_member (arguments, "multiple") &&
                            json_object_get_boolean_member (arguments, "multiple");
        JsonArray *given = json_object_get_array_member (arguments, "options");
        JsonArray *options = json_array_new ();
        g_autoptr(GString) described = g_string_new (json_object_get_string_member (context,
                                                                                   "description"));
        gboolean any_description = FALSE;

        action = new_action ("choose", "Choose", multiple ? "multi_choice" : "choice");
        copy_member (action, arguments, "flags", NULL);
        for (guint i = 0; i < json_array_get_length (given); i++)
          {
            JsonObject *in = json_array_get_object_element (given, i);
            JsonObject *option = json_object_new ();
            const char *about = string_argument (in, "description");

            json_object_set_string_member (option, "value",
                                           json_object_get_string_member (in, "id"));
            json_object_set_string_member (option, "label",
                                           json_object_get_string_member (in, "label"));
            if (about != NULL)
              {
                /* ATP options have no description: kept on the option, and listed for
                 * the person under the question. */
                json_object_set_string_member (option, "description", about);
                g_string_append_printf (described, "%s%s: %s", any_description ? "\n" : "\n\n",
                                        json_object_get_string_member (in, "label"), about);
                any_description = TRUE;
              }
            json_array_add_object_element (options, option);
          }
        json_object_set_array_member (action, "options", options);
        json_object_set_string_member (context, "description", described->str);

        if (json_object_has_member (arguments, "min_selections") ||
            json_object_has_member (arguments, "max_selections"))
          {
            JsonObject *constraints = json_object_new ();

            copy_member (constraints, arguments, "min_selections", NULL);
            copy_member (constraints, arguments, "max_selections", NULL);
            json_object_set_object_member (action, "constraints", constraints);
          }
        json_array_add_object_element (actions, action);
      }
      break;
    }

  return actions;
}

/* ask_human's constraints that apply to each response type (ATP keeps others as they
 * are, unused: a model that set one would believe it holds). */
static gboolean
check_constraints (const char  *type,
                   JsonObject  *arguments,
                   GError     **error)
{
  static const struct { const char *name; const char *types[3]; } applies[] = {
    { "min_selections", { "multi_choice" } },
    { "max_selections", { "multi_choice" } },
    { "min_length", { "text" } },
    { "max_length", { "text" } },
    { "placeholder", { "text", "number" } },
    { "min", { "number", "scale" } },
    { "max", { "number", "scale" } },
    { "step", { "number", "scale" } },
    { "unit", { "number" } },
    { "min_label", { "scale" } },
    { "max_label", { "scale" } },
  };
  JsonObject *constraints = json_object_has_member (arguments, "constraints")
                              ? json_object_get_object_member (arguments, "constraints") : NULL;
  g_autoptr(GList) given = constraints != NULL ? json_object_get_members (constraints) : NULL;

  for (GList *l = given; l != NULL; l = l->next)
    for (guint i = 0; i < G_N_ELEMENTS (applies); i++)
      if (g_str_equal (l->data, applies[i].name) &&
          !g_strv_contains ((const char * const *) applies[i].types, type))
        {
          g_set_error (error, TRIAGE_MCP_ERROR, TRIAGE_MCP_ERROR_INVALID_ARGUMENT,
                       "constraints.%s: only with response_type %s%s%s, not %s",
                       (const char *) l->data, applies[i].types[0],
                       applies[i].types[1] != NULL ? " or " : "",
                       applies[i].types[1] != NULL ? applies[i].types[1] : "", type);
          return FALSE;
        }

  return TRUE;
}

/* details is text (a JSON string, sent as it is): given a binary type, the person saw
 * text claiming to be an image or a PDF, which the app does not show, while the model
 * took it as shown. A base64 screenshot was encoded once more. */
static gboolean
check_details_type (JsonObject  *arguments,
                    GError     **error)
{
  static const char * const binary[] = { "image/", "audio/", "video/", "font/", "model/",
                                         "application/octet-stream", "application/pdf",
                                         "application/zip", "application/gzip" };
  const char *type = string_argument (arguments, "details_type");
  g_autofree char *base = NULL;

  if (type == NULL)
    return TRUE;
  base = g_ascii_strdown (type, strcspn (type, "; "));
  /* SVG and the like are text */
  if (g_str_has_suffix (base, "+xml") || g_str_has_suffix (base, "+json"))
    return TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (binary); i++)
    if (g_str_has_prefix (base, binary[i]))
      {
        g_set_error (error, TRIAGE_MCP_ERROR, TRIAGE_MCP_ERROR_INVALID_ARGUMENT,
                     "details_type: details is text, shown as text, so its type cannot be %s; "
                     "give a text type (text/plain, text/markdown, text/x-diff, "
                     "application/json, …)", type);
        return FALSE;
      }
  return TRUE;
}

/* Arguments that only make sense together with others. */
static gboolean
check_combinations (TriageMcpTool   tool,
                    JsonObject     *arguments,
                    GError        **error)
{
  const char *type = tool == TRIAGE_MCP_TOOL_ASK_HUMAN
                       ? string_argument (arguments, "response_type") : NULL;
  const char *wrong = NULL;
  const char *needs = NULL;

  if (json_object_has_member (arguments, "details_type") &&
      !json_object_has_member (arguments, "details"))
    {
      wrong = "details_type";
      needs = "details";
    }
  else if (tool == TRIAGE_MCP_TOOL_ASK_CHOICE &&
           !(json_object_has_member (arguments, "multiple") &&
             json_object_get_boolean_member (arguments, "multiple")))
    {
      wrong = json_object_has_member (arguments, "min_selections") ? "min_selections"
            : json_object_has_member (arguments, "max_selections") ? "max_selections" : NULL;
      needs = "multiple: true";
    }
  else if (type != NULL)
    {
      gboolean choice = g_str_equal (type, "choice") || g_str_equal (type, "multi_choice");

      if (choice && !json_object_has_member (arguments, "options"))
        {
          g_set_error (error, TRIAGE_MCP_ERROR, TRIAGE_MCP_ERROR_INVALID_ARGUMENT,
                       "options: required for response_type %s", type);
          return FALSE;
        }
      if (!choice && json_object_has_member (arguments, "options"))
        wrong = "options";
      else if (!g_str_equal (type, "binary"))
        wrong = json_object_has_member (arguments, "true_label") ? "true_label"
              : json_object_has_member (arguments, "false_label") ? "false_label" : NULL;
      needs = wrong != NULL && g_str_equal (wrong, "options")
                ? "response_type choice or multi_choice" : "response_type binary";
      if (wrong == NULL && !check_constraints (type, arguments, error))
        return FALSE;
    }

  if (wrong != NULL)
    {
      g_set_error (error, TRIAGE_MCP_ERROR, TRIAGE_MCP_ERROR_INVALID_ARGUMENT,
                   "%s: only with %s", wrong, needs);
      return FALSE;
    }

  return TRUE;
}

/* The argument that takes the most room in the request, and how much: details as
 * their base64 encoding, any other as its JSON text. */
static const char *
largest_argument (JsonObject *arguments,
                  gsize      *size)
{
  JsonObjectIter iter;
  const char *name;
  JsonNode *value;
  const char *largest = "arguments";

  *size = 0;
  json_object_iter_init (&iter, arguments);
  while (json_object_iter_next (&iter, &name, &value))
    {
      gsize length = 0;

      if (g_str_equal (name, "details") && JSON_NODE_HOLDS_VALUE (value))
        length = (strlen (json_node_get_string (value)) + 2) / 3 * 4;
      else
        g_free (atp_json_to_string (value, &length));
      if (length > *size)
        {
          largest = name;
          *size = length;
        }
    }
  return largest;
}

/* libatp's field paths → the arguments they came from. */
static GError *
explain_validation_error (TriageMcpTool  tool,
                          const GError  *error)
{
  const char *title = tool == TRIAGE_MCP_TOOL_REQUEST_APPROVAL ? "title" : "question";
  const struct { const char *prefix; const char *argument; } paths[] = {
    { "context.attachments[0].type", "details_type" },
    { "context.attachments[0]", "details" },
    { "context.title", title },
    { "context.description", "description" },
    { "context.project", "project" },
    { "actions[0].options.true_label", "true_label" },
    { "actions[0].options.false_label", "false_label" },
    { "actions[0].options", "options" },
    { "actions[0].constraints.", tool == TRIAGE_MCP_TOOL_ASK_CHOICE ? "" : "constraints." },
    { "actions[0].constraints", "constraints" },
    { "actions[0].flags", "flags" },
    { "actions[0].label", "label" },
    { "actions[0].response_type", "response_type" },
    { "deadline", "deadline" },
  };
  const char *message = error->message;

  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    if (g_str_has_prefix (message, paths[i].prefix))
      {
        const char *rest = message + strlen (paths[i].prefix);

        /* ask_choice's options[N].value is the id the model gave */
        if (tool == TRIAGE_MCP_TOOL_ASK_CHOICE && g_str_equal (paths[i].argument, "options") &&
            g_str_has_prefix (rest, "[") && strstr (rest, "].value") != NULL)
          {
            const char *end = strstr (rest, "].value");

            return g_error_new (TRIAGE_MCP_ERROR, TRIAGE_MCP_ERROR_INVALID_ARGUMENT,
                                "options%.*s].id%s", (int) (end - rest), rest,
                                end + strlen ("].value"));
          }
        return g_error_new (TRIAGE_MCP_ERROR, TRIAGE_MCP_ERROR_INVALID_ARGUMENT, "%s%s",
                            paths[i].argument, rest);
      }

  return g_error_new (TRIAGE_MCP_ERROR, TRIAGE_MCP_ERROR_INVALID_ARGUMENT, "arguments: %s",
                      message);
}

char *
triage_mcp_tool_build_request (TriageMcpTool   tool,
                               JsonObject     *arguments,
                               GDateTime      *now,
                               char          **notification_id,
                               GError        **error)
{
  g_autoptr(JsonObject) empty = json_object_new ();
  g_autoptr(JsonObject) request = json_object_new ();
  g_autoptr(JsonNode) given = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(AtpNotification) notification = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *id = atp_new_uuid ();
  g_autofree char *body = NULL;
  JsonObject *input_schema;
  gsize length = 0;

  g_return_val_if_fail (tool < G_N_ELEMENTS (definitions), NULL);

  if (arguments == NULL)
    arguments = empty;

  input_schema = json_object_get_object_member (definition (tool), "inputSchema");
  given = json_node_init_object (json_node_alloc (), arguments);
  if (!triage_mcp_schema_check (input_schema, given, "", error) ||
      !check_combinations (tool, arguments, error) ||
      !check_details_type (arguments, error))
    return NULL;

  json_object_set_string_member (request, "id", id);
  json_object_set_string_member (request, "version", ATP_PROTOCOL_VERSION);
  if (!build_common (request, arguments,
                     tool == TRIAGE_MCP_TOOL_REQUEST_APPROVAL ? "title" : "question", now, error))
    return NULL;
  json_object_set_array_member (request, "actions",
                                build_actions (tool, arguments,
                                               json_object_get_object_member (request, "context")));

  root = json_node_init_object (json_node_alloc (), request);
  notification = atp_notification_new_from_json (root, ATP_PARSE_SUBMISSION, &local_error);
  if (notification == NULL)
    {
      *error = explain_validation_error (tool, local_error);
      return NULL;
    }

  body = atp_notification_to_string (notification, &length);
  if (length > ATP_MAX_NOTIFICATION_SIZE)
    {
      gsize largest_size = 0;
      const char *largest = largest_argument (arguments, &largest_size);

      /* Name what takes the room: a model shortens what is named, and would shorten
       * a few lines of details in vain when 60,000 options are the cause. */
      g_set_error (error, TRIAGE_MCP_ERROR, TRIAGE_MCP_ERROR_INVALID_ARGUMENT,
                   "%s: the request would have %" G_GSIZE_FORMAT " KiB, more than the %d KiB "
                   "a request may have; %s take%s %" G_GSIZE_FORMAT " KiB of it%s",
                   largest, (length + 1023) / 1024, ATP_MAX_NOTIFICATION_SIZE / 1024,
                   largest, g_str_has_suffix (largest, "s") ? "" : "s",
                   (largest_size + 1023) / 1024,
                   g_str_equal (largest, "details")
                     ? " (details take a third more room once encoded)" : "");
      return NULL;
    }

  *notification_id = g_steal_pointer (&id);
  return g_steal_pointer (&body);
}
