/* triage-ask-hook-request.c — what the person sees of a coding agent's tool call
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-ask"

#include "triage-ask-hook-request.h"

#include <string.h>
#include <glib/gstdio.h>

#include "atp.h"
#include "triage-ask.h"
#include "triage-ask-hook-edit.h"
#include "triage-ask-hook-flags.h"
#include "triage-ask-hook-path.h"
#include "triage-service.h"

#define member_string triage_service_string_member
#define visible_text  triage_ask_visible_text
#define shown_path    triage_ask_hook_shown_path
#define count_lines   triage_ask_hook_count_lines

/*
 * The request names what the tool acts on so that the person can decide from
 * it: the whole command, the file's whole path (relative to the project only
 * when it is inside it), the new content or the edit as a diff. The agent's
 * input is not trusted to be tame: a file named by an edit is read only when it
 * is a regular file of sensible size, so a FIFO or a device cannot hang or
 * swell the hook (triage-ask-hook-edit.c).
 */

#define HOOK_MAX_ATTACHMENT   (512 * 1024)
#define HOOK_MAX_TITLE        120
#define HOOK_MAX_REASON       1000
#define HOOK_MAX_NOTE         2000

/* At most @max characters of @text's first line that is not blank, each run of
 * spaces (tabs, U+00A0, …) shown as one, with "…" when cut or when more lines
 * follow (and *@cut TRUE then): a command that starts with empty lines still
 * shows what it runs, and padding cannot push its end out of the title. */
static char *
first_line (const char *text,
            glong       max,
            gboolean   *cut)
{
  g_autofree char *valid = g_utf8_make_valid (text, -1);
  const char *start = valid + strspn (valid, " \t\r\n\v\f");
  const char *end = strchr (start, '\n');
  gboolean more = end != NULL && end[strspn (end, " \t\r\n\v\f")] != '\0';
  g_autoptr(GString) line = g_string_new (NULL);
  glong length;

  for (const char *p = start; *p != '\0' && p != end; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (c == '\t' || g_unichar_type (c) == G_UNICODE_SPACE_SEPARATOR)
        {
          if (line->len == 0 || line->str[line->len - 1] != ' ')
            g_string_append_c (line, ' ');
        }
      else
        g_string_append_unichar (line, c);
    }
  while (line->len > 0 && line->str[line->len - 1] == ' ')
    g_string_truncate (line, line->len - 1);

  length = g_utf8_strlen (line->str, -1);
  if (cut != NULL)
    *cut = length > max || more;
  if (length > max || more)
    {
      g_autofree char *head = g_utf8_substring (line->str, 0, MIN (length, max));

      return g_strconcat (head, "…", NULL);
    }
  return g_string_free (g_steal_pointer (&line), FALSE);
}

/* Adds @text as an attachment: FALSE when it had to be cut. */
static gboolean
add_attachment (JsonObject *context,
                const char *type,
                const char *description,
                const char *text)
{
  JsonArray *attachments;
  JsonObject *attachment = json_object_new ();
  gsize length = strlen (text);
  g_autofree char *base64 = NULL;

  /* A request must fit ATP's size; the description says that it was cut. */
  if (length > HOOK_MAX_ATTACHMENT)
    {
      length = HOOK_MAX_ATTACHMENT;
      while (length > 0 && (text[length] & 0xc0) == 0x80)
        length--;
    }
  base64 = g_base64_encode ((const guchar *) text, length);

  if (!json_object_has_member (context, "attachments"))
    json_object_set_array_member (context, "attachments", json_array_new ());
  attachments = json_object_get_array_member (context, "attachments");
  json_object_set_string_member (attachment, "type", type);
  json_object_set_string_member (attachment, "description", description);
  json_object_set_string_member (attachment, "data", base64);
  json_array_add_object_element (attachments, attachment);
  return length == strlen (text);
}

/* The file a tool acts on, as the agent named it. */
static const char *
path_of (JsonObject *tool_input)
{
  static const char * const fields[] = { "file_path", "notebook_path", "path", NULL };

  for (guint i = 0; fields[i] != NULL; i++)
    {
      const char *value = member_string (tool_input, fields[i]);

      if (value != NULL && *value != '\0')
        return value;
    }
  return NULL;
}

/* Write's content is text whatever the file's name says: the type its name
 * gives when the app shows that type as text (atp_attachment_type_is_text ():
 * Markdown, a shell script), else text/plain, so a "curl … | sh" written to
 * new.png or key.pem is shown, not hidden behind "Triage does not preview
 * this kind of file". */
static char *
write_type (const char *path,
            const char *content)
{
  g_autofree char *content_type = g_content_type_guess (path, (const guchar *) content,
                                                        strlen (content), NULL);
  char *mime = content_type != NULL ? g_content_type_get_mime_type (content_type) : NULL;

  if (mime == NULL || strchr (mime, '/') == NULL || !atp_attachment_type_is_text (mime))
    {
      g_free (mime);
      mime = g_strdup ("text/plain");
    }
  return mime;
}

static gboolean
member_true (JsonObject *object,
             const char *name)
{
  JsonNode *node = json_object_get_member (object, name);

  return node != NULL && JSON_NODE_HOLDS_VALUE (node) &&
         json_node_get_value_type (node) == G_TYPE_BOOLEAN && json_node_get_boolean (node);
}

/* Whether @tool is an MCP server's (mcp__SERVER__TOOL). Claude Code's own tools
 * that take a "description" (Bash, PowerShell, Task) ask the agent for a few
 * words on the call there; an MCP tool's "description" is what the tool is given
 * and acts on (the body of an issue it opens), the person's to read as such. */
static gboolean
is_mcp_tool (const char *tool)
{
  return g_str_has_prefix (tool, "mcp__");
}

/* @tool_input as compact JSON without the agent's "description" (an MCP tool's
 * is its input: kept): an unknown tool's input as the title shows it, or NULL
 * when nothing else is there. */
static char *
input_without_description (const char *tool,
                           JsonObject *tool_input)
{
  g_autoptr(JsonObject) rest = json_object_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(GList) names = json_object_get_members (tool_input);

  for (GList *l = names; l != NULL; l = l->next)
    if (is_mcp_tool (tool) || !g_str_equal (l->data, "description"))
      json_object_set_member (rest, l->data,
                              json_node_copy (json_object_get_member (tool_input, l->data)));
  if (json_object_get_size (rest) == 0)
    return NULL;
  root = json_node_init_object (json_node_alloc (), rest);
  json_generator_set_root (generator, root);
  return json_generator_to_data (generator, NULL);
}

/*
 * What the tool acts on, for the title: the command, the file, the address;
 * for a tool that names none of them, its input. Never the agent's own
 * "description" of the call to a tool of Claude Code's: that is its claim about
 * what the tool does, not what the tool is given (a Bash "Read README.md" over a
 * "curl … | sh"). *@whole_elsewhere: the summary is the command or the input,
 * which the description does not repeat; *@cut: it did not fit.
 */
static char *
summary_of (const char *tool,
            JsonObject *tool_input,
            const char *cwd,
            const char *reached,
            gboolean   *whole_elsewhere,
            gboolean   *cut)
{
  static const char * const fields[] = { "command", "url", "query", "pattern", "plan", NULL };
  const char *path = path_of (tool_input);
  g_autofree char *input = NULL;

  *cut = FALSE;
  *whole_elsewhere = FALSE;
  /* Grep and Glob name a pattern and the folder it runs in: the pattern says more. */
  if (path != NULL && member_string (tool_input, "pattern") == NULL)
    {
      g_autofree char *shown = reached != NULL ? g_strdup (reached) : shown_path (path, cwd);
      glong length = g_utf8_strlen (shown, -1);
      g_autofree char *head = NULL;

      /* A long path loses its middle, not its end: the file's name matters most. */
      if (length <= 80)
        return g_steal_pointer (&shown);
      head = g_utf8_substring (shown, 0, 20);
      return g_strconcat (head, "…", g_utf8_offset_to_pointer (shown, length - 59), NULL);
    }
  for (guint i = 0; fields[i] != NULL; i++)
    {
      const char *value = member_string (tool_input, fields[i]);

      if (value != NULL && *value != '\0')
        {
          *whole_elsewhere = g_str_equal (fields[i], "command");
          return first_line (value, 80, *whole_elsewhere ? cut : NULL);
        }
    }
  input = input_without_description (tool, tool_input);
  *whole_elsewhere = input != NULL;
  return input != NULL ? first_line (input, 80, cut) : NULL;
}

/* The agent's own "description" of a call to a tool of Claude Code's, as the
 * person reads it: marked as its words (they may not match what the tool does),
 * every line made visible, blank lines that follow each other shown as one;
 * NULL when it says nothing, or for an MCP tool, whose "description" is its input. */
static char *
agent_note (const char *tool,
            JsonObject *tool_input)
{
  const char *about = is_mcp_tool (tool) ? NULL : member_string (tool_input, "description");
  g_auto(GStrv) lines = NULL;
  g_autoptr(GString) note = g_string_new (NULL);
  gboolean blank = FALSE;

  if (about == NULL)
    return NULL;
  lines = g_strsplit (about, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autofree char *shown = NULL;
      gboolean empty = TRUE;

      if (g_str_has_suffix (lines[i], "\r"))
        lines[i][strlen (lines[i]) - 1] = '\0';
      shown = visible_text (lines[i]);
      for (const char *p = shown; *p != '\0' && empty; p = g_utf8_next_char (p))
        empty = g_unichar_isspace (g_utf8_get_char (p));
      if (empty)
        {
          blank = note->len > 0;
          continue;
        }
      g_string_append (note, note->len == 0 ? "" : blank ? "\n\n" : "\n");
      g_string_append (note, shown);
      blank = FALSE;
    }
  if (note->len == 0)
    return NULL;
  /* Its words must not crowd out Triage's, nor make the request too large to ask. */
  if (g_utf8_strlen (note->str, -1) > HOOK_MAX_NOTE)
    {
      g_string_truncate (note, g_utf8_offset_to_pointer (note->str, HOOK_MAX_NOTE) - note->str);
      g_string_append (note, "…");
    }
  return g_strconcat ("The agent's note on it (its own words): ", note->str, NULL);
}

/* Triage's own sentence: what the tool will do, with whole paths. */
static char *
what_it_does (const char *tool,
              JsonObject *tool_input,
              const char *cwd,
              const char *real,
              JsonArray  *edits)
{
  const char *command = member_string (tool_input, "command");
  g_autofree char *named = real != NULL
    ? g_strdup_printf ("%s (where %s leads through a symbolic link)", real,
                       path_of (tool_input))
    : g_strdup (path_of (tool_input));
  g_autofree char *path = named != NULL ? visible_text (named) : NULL;
  g_autofree char *shown_cwd = cwd != NULL ? visible_text (cwd) : NULL;
  g_autofree char *url = member_string (tool_input, "url") != NULL
                           ? visible_text (member_string (tool_input, "url")) : NULL;

  cwd = shown_cwd;
  if (command != NULL && (g_str_equal (tool, "Bash") || g_str_equal (tool, "PowerShell")))
    {
      guint lines = count_lines (command);
      g_autofree char *counted = lines > 1 ? g_strdup_printf (" (%u lines)", lines) : NULL;

      return g_strdup_printf ("Claude Code wants to run this command%s in %s%s.",
                              counted ? counted : "", cwd ? cwd : "?",
                              member_true (tool_input, "dangerouslyDisableSandbox")
                                ? ", outside its sandbox" : "");
    }
  if (path != NULL && g_str_equal (tool, "Write"))
    {
      const char *content = member_string (tool_input, "content");
      guint lines = count_lines (content != NULL ? content : "");
      g_autofree char *now = NULL;
      g_autofree char *replacing = NULL;
      GStatBuf st;

      /* Writing over a file destroys what it holds: say so. */
      if (g_stat (path_of (tool_input), &st) == 0)
        {
          now = triage_ask_hook_read_file (path_of (tool_input));
          replacing = now != NULL
            ? g_strdup_printf (", replacing the file there now (%u %s)", count_lines (now),
                               count_lines (now) == 1 ? "line" : "lines")
            : g_strdup (", replacing what is there now");
        }
      return g_strdup_printf ("Claude Code wants to write %s (%u %s)%s.", path, lines,
                              lines == 1 ? "line" : "lines", replacing != NULL ? replacing : "");
    }
  if (path != NULL && edits != NULL && g_str_equal (tool, "Edit"))
    return g_strdup_printf ("Claude Code wants to change %s%s.", path,
                            member_true (tool_input, "replace_all") ? " (every occurrence)" : "");
  if (path != NULL && edits != NULL)
    return g_strdup_printf ("Claude Code wants to change %s (%u %s).", path,
                            json_array_get_length (edits),
                            json_array_get_length (edits) == 1 ? "edit" : "edits");
  if (path != NULL)
    return g_strdup_printf ("Claude Code wants to use %s on %s%s%s.", tool, path,
                            cwd ? ", working in " : "", cwd ? cwd : "");
  if (url != NULL)
    return g_strdup_printf ("Claude Code wants to use %s on %s.", tool, url);
  if (g_str_equal (tool, "ExitPlanMode") && member_string (tool_input, "plan") != NULL)
    return g_strdup_printf ("Claude Code wants to leave plan mode and carry out this plan%s%s.",
                            cwd ? " in " : "", cwd ? cwd : "");
  return g_strdup_printf ("Claude Code wants to use %s%s%s.", tool, cwd ? " in " : "",
                          cwd ? cwd : "");
}

/* What the person reads first: Triage's sentence, then whether the title cut
 * the command short and whether the attachment is cut, then the agent's note
 * (never before Triage's words, where it could pass for them or push them out
 * of sight, nor before Triage's remarks, which would then read as its). */
static char *
describe (const char *tool,
          JsonObject *tool_input,
          const char *cwd,
          const char *real,
          JsonArray  *edits,
          gboolean    cut,
          gboolean    whole_attached)
{
  g_autofree char *shown_tool = visible_text (tool);
  g_autofree char *sentence = what_it_does (shown_tool, tool_input, cwd, real, edits);
  g_autofree char *note = agent_note (tool, tool_input);
  g_autoptr(GString) text = g_string_new (sentence);
  const char *what = member_string (tool_input, "command") != NULL ? "the command"
                                                                    : "the tool's input";

  if (cut && whole_attached)
    g_string_append_printf (text, " The title shows only the start of %s; the attachment "
                            "holds all of it.", what);
  else if (cut)
    g_string_append_printf (text, " The title shows only the start of %s; the attachment "
                            "holds its first %d KiB.", what, HOOK_MAX_ATTACHMENT / 1024);
  else if (!whole_attached)
    g_string_append_printf (text, " (the attachment is cut at %d KiB)",
                            HOOK_MAX_ATTACHMENT / 1024);
  if (note != NULL)
    g_string_append_printf (text, "\n\n%s", note);
  return g_string_free (g_steal_pointer (&text), FALSE);
}

gboolean
triage_ask_hook_build_request (JsonObject  *input,
                               const char  *deadline,
                               GDateTime   *now,
                               char       **notification_id,
                               char       **body,
                               GError     **error)
{
  const char *tool = member_string (input, "tool_name");
  JsonNode *tool_input_node = json_object_get_member (input, "tool_input");
  JsonObject *tool_input;
  const char *cwd = member_string (input, "cwd");
  g_autofree char *folder = NULL;
  g_autofree char *shown_folder = NULL;
  g_autofree char *real = NULL;
  g_autofree char *reached = NULL;
  g_autofree char *summary = NULL;
  g_autofree char *named = NULL;
  g_autofree char *title = NULL;
  g_autofree char *description = NULL;
  g_autofree char *id = atp_new_uuid ();
  g_autoptr(JsonObject) request = json_object_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(AtpNotification) notification = NULL;
  g_autoptr(JsonArray) edits = NULL;
  JsonObject *context;
  JsonObject *metadata;
  JsonArray *actions;
  JsonObject *allow;
  JsonObject *deny;
  JsonObject *constraints;
  JsonArray *flags;
  const char *command;
  const char *path;
  const char *problem = NULL;
  gboolean whole_elsewhere = FALSE;
  gboolean whole_attached = TRUE;
  gboolean cut = FALSE;
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
  if (cwd != NULL && *cwd == '\0')
    cwd = NULL;
  folder = cwd != NULL ? g_path_get_basename (cwd) : NULL;
  tool_input = json_node_get_object (tool_input_node);
  command = member_string (tool_input, "command");
  path = path_of (tool_input);
  edits = path != NULL ? triage_ask_hook_edits (tool, tool_input) : NULL;

  context = json_object_new ();
  metadata = json_object_new ();
  actions = json_array_new ();
  flags = json_array_new ();
  json_object_set_object_member (request, "context", context);
  json_object_set_array_member (request, "actions", actions);
  json_object_set_object_member (context, "metadata", metadata);

  real = path != NULL ? triage_ask_hook_real_path (path, cwd, &reached) : NULL;
  summary = summary_of (tool, tool_input, cwd, reached, &whole_elsewhere, &cut);
  named = g_strdup_printf ("%s%s%s%s%s", tool, folder ? " in " : "", folder ? folder : "",
                           summary ? ": " : "", summary ? summary : "");
  title = visible_text (named);
  if (g_utf8_strlen (title, -1) > HOOK_MAX_TITLE)
    {
      g_autofree char *shorter = first_line (title, HOOK_MAX_TITLE, NULL);

      g_free (title);
      title = g_steal_pointer (&shorter);
      cut |= whole_elsewhere;
    }
  json_object_set_string_member (context, "title", title);

  shown_folder = folder != NULL ? visible_text (folder) : NULL;
  if (shown_folder != NULL)
    json_object_set_string_member (context, "project", shown_folder);

  json_object_set_string_member (metadata, "agent", "Claude Code");
  for (guint i = 0; kept[i] != NULL; i++)
    if (member_string (input, kept[i]) != NULL)
      json_object_set_string_member (metadata, kept[i], member_string (input, kept[i]));

  /* Any tool's command: an MCP server's shell tool runs it as Bash would. */
  if (command != NULL)
    triage_ask_hook_flag_command (command, flags);
  if (command != NULL && (g_str_equal (tool, "Bash") || g_str_equal (tool, "PowerShell")))
    {
      whole_attached = add_attachment (context, g_str_equal (tool, "Bash")
                                                  ? "text/x-shellscript" : "text/plain",
                                       "Command", command);
    }
  else if (path != NULL && g_str_equal (tool, "Write") &&
           member_string (tool_input, "content") != NULL)
    {
      const char *content = member_string (tool_input, "content");
      g_autofree char *type = write_type (path, content);
      g_autofree char *name = g_path_get_basename (path);

      whole_attached = add_attachment (context, type, name, content);
    }
  else if (g_str_equal (tool, "ExitPlanMode") && member_string (tool_input, "plan") != NULL)
    whole_attached = add_attachment (context, "text/markdown", "Plan",
                                     member_string (tool_input, "plan"));
  else if (edits != NULL)
    {
      g_autofree char *diff = triage_ask_hook_edit_diff (path, edits);
      g_autofree char *name = g_path_get_basename (path);
      g_autofree char *about = g_strdup_printf ("Change to %s", name);

      whole_attached = add_attachment (context, "text/x-diff", about, diff);
    }
  else
    {
      g_autoptr(JsonGenerator) generator = json_generator_new ();
      g_autofree char *pretty = NULL;

      json_generator_set_root (generator, tool_input_node);
      json_generator_set_pretty (generator, TRUE);
      pretty = json_generator_to_data (generator, NULL);
      whole_attached = add_attachment (context, "application/json", "Tool input", pretty);
    }

  description = describe (tool, tool_input, cwd, real, edits, cut, whole_attached);
  json_object_set_string_member (context, "description", description);

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
  if (!triage_service_set_deadline (request, deadline, now, &problem))
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
