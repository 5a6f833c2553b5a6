/* triage-server-protocol.c — the protocols the server serves, and ATP's part
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-server-protocol"

#include "triage-server-protocol.h"

#include <string.h>

#include "triage-server-afp.h"
#include "triage-server-aitp.h"

static const TriageServerProtocol * const protocols[ATP_N_PROTOCOLS] = {
  [ATP_PROTOCOL_ATP] = &triage_server_protocol_atp,
  [ATP_PROTOCOL_AITP] = &triage_server_protocol_aitp,
  [ATP_PROTOCOL_AFP] = &triage_server_protocol_afp,
};

const TriageServerProtocol *
triage_server_protocol (int protocol)
{
  if (protocol < 0 || protocol >= ATP_N_PROTOCOLS)
    return NULL;
  return protocols[protocol];
}

/* ---- ATP ---- */

static gboolean
atp_check_answer (AtpNotification *request,
                  const char      *action_id,
                  JsonNode        *response_data,
                  GDateTime       *now,
                  JsonNode       **stored,
                  GError         **error)
{
  const AtpAction *action = atp_notification_find_action (request, action_id);

  if (action == NULL)
    {
      g_set_error_literal (error, ATP_ERROR, ATP_ERROR_INVALID_ACTION_ID,
                           "The notification has no such action");
      return FALSE;
    }
  if (!atp_action_validate_response (action, response_data, error))
    return FALSE;
  *stored = response_data != NULL ? json_node_ref (response_data) : NULL;
  return TRUE;
}

static JsonNode *
atp_agent_view (TriageNotificationRow *row)
{
  return notification_node (row, TRUE);
}

/* The response exactly as stored, or {"event": "status_update", …fields}. */
static char *
atp_webhook_body (TriageNotificationRow *row,
                  int                    status,
                  const char            *reason,
                  const char           **event)
{
  g_autoptr(JsonNode) update = NULL;
  g_autoptr(GList) names = NULL;
  g_autoptr(JsonObject) body = NULL;
  JsonObject *fields;

  if (status == ATP_STATUS_RESPONDED)
    {
      *event = "atp.response";
      return g_strdup (row->response);
    }

  update = status_update_node (row->id, status, reason);
  fields = json_node_get_object (update);
  names = json_object_get_members (fields);
  body = json_object_new ();
  json_object_set_string_member (body, "event", "status_update");
  for (GList *l = names; l != NULL; l = l->next)
    json_object_set_member (body, l->data, json_node_copy (json_object_get_member (fields, l->data)));
  *event = "atp.status_update";
  return object_to_string (body);
}

const TriageServerProtocol triage_server_protocol_atp = {
  .protocol = ATP_PROTOCOL_ATP,
  .default_action_id = NULL,
  .check_answer = atp_check_answer,
  .agent_view = atp_agent_view,
  .webhook_body = atp_webhook_body,
};

/* ---- what the agent endpoints of every protocol but ATP share ---- */

const char *
triage_server_status_word (int status)
{
  switch (status)
    {
    case ATP_STATUS_RESPONDED:
      return "answered";
    case ATP_STATUS_EXPIRED:
      return "expired";
    case ATP_STATUS_INVALIDATED:
      return "invalidated";
    case ATP_STATUS_CREATED:
    case ATP_STATUS_DELIVERED:
    case ATP_STATUS_ACKNOWLEDGED:
    default:
      return "pending";
    }
}

AtpNotification *
triage_server_new_envelope (AtpProtocol        protocol,
                            const char        *id,
                            GDateTime         *timestamp,
                            GDateTime         *deadline,
                            TriageServiceRow  *service,
                            const char        *title,
                            const char        *description,
                            const char        *project,
                            JsonNode          *payload,
                            GError           **error)
{
  g_autoptr(JsonObject) object = json_object_new ();
  g_autoptr(JsonNode) node = NULL;
  g_autofree char *stamp = atp_format_timestamp (timestamp);
  JsonObject *member;

  json_object_set_string_member (object, "id", id);
  json_object_set_string_member (object, "version", ATP_PROTOCOL_VERSION);
  json_object_set_string_member (object, "protocol", atp_protocol_to_string (protocol));
  json_object_set_string_member (object, "timestamp", stamp);
  if (deadline != NULL)
    {
      g_autofree char *due = atp_format_timestamp (deadline);

      json_object_set_string_member (object, "deadline", due);
    }
  member = json_object_new ();
  json_object_set_string_member (member, "id", service->id);
  json_object_set_string_member (member, "name", service->name);
  json_object_set_object_member (object, "service", member);
  member = json_object_new ();
  json_object_set_string_member (member, "title", title);
  if (description != NULL)
    json_object_set_string_member (member, "description", description);
  if (project != NULL)
    json_object_set_string_member (member, "project", project);
  json_object_set_object_member (object, "context", member);
  json_object_set_member (object, atp_protocol_to_string (protocol), json_node_ref (payload));
  json_object_set_string_member (object, "status", "created");

  /* Parsed like any envelope: what the server makes obeys the same rules. */
  node = json_node_init_object (json_node_alloc (), object);
  return atp_notification_new_from_json (node, ATP_PARSE_DEFAULT, error);
}

#define TITLE_MAX_CHARS 80

/* The run of @mark (at most three: "*", "**", "***") at the start of @text. */
static gsize
mark_run (const char *text,
          char        mark)
{
  gsize n = 0;

  while (text[n] == mark && n < 4)
    n++;
  return n <= 3 ? n : 0;
}

/* Drops emphasis that opens @line ("**Bold** start" → "Bold start"): a run
 * of * or _ before text, closed by the same run after text. A mark that
 * closes nothing ("*args", "_private") is text. */
static void
drop_leading_emphasis (char *line)
{
  char mark = line[0];
  gsize run = mark == '*' || mark == '_' ? mark_run (line, mark) : 0;

  if (run == 0 || line[run] == '\0' || g_ascii_isspace (line[run]))
    return;
  for (char *close = line + run + 1; *close != '\0'; close++)
    {
      gsize length = 0;

      while (close[length] == mark)
        length++;
      if (length == 0)
        continue;
      /* The same run, right after text and, for _, not inside a word. */
      if (length == run && !g_ascii_isspace (close[-1]) &&
          (mark == '*' || !g_ascii_isalnum (close[length])))
        {
          memmove (close, close + run, strlen (close + run) + 1);
          memmove (line, line + run, strlen (line + run) + 1);
          return;
        }
      close += length - 1;
    }
}

/* What a Markdown line says: without its heading ("## "), quote (">") and
 * list ("- ", "* ", "+ ") marks and opening emphasis; "" for a rule or a
 * heading's underline ("---", "==="). Marks not followed by a space are
 * text ("-1 is a number", "#hashtag"). */
static char *
markdown_line_text (char *line)
{
  gboolean marked = TRUE;

  while (marked)
    {
      gsize hashes = 0, skip = 0;

      while (line[hashes] == '#' && hashes < 7)
        hashes++;
      if (hashes >= 1 && hashes <= 6 && (line[hashes] == '\0' || g_ascii_isspace (line[hashes])))
        skip = hashes;
      else if (*line == '>' ||
               ((*line == '-' || *line == '*' || *line == '+') && g_ascii_isspace (line[1])))
        skip = 1;
      marked = skip > 0;
      line += skip;
      while (g_ascii_isspace (*line))
        line++;
    }
  if (line[strspn (line, "-*_= \t")] == '\0')
    return line + strlen (line);
  drop_leading_emphasis (line);
  return line;
}

/* The first line break in @text, NULL when none, its bytes in @length: LF, CR,
 * VT, FF, NEL (U+0085), LINE SEPARATOR (U+2028), PARAGRAPH SEPARATOR (U+2029):
 * every one Unicode ends a line with (a reader shows a second line after it). */
static const char *
find_line_break (const char *text,
                 gsize      *length)
{
  for (const guchar *p = (const guchar *) text; *p != '\0'; p++)
    {
      *length = 0;
      if (*p == '\n' || *p == '\r' || *p == '\v' || *p == '\f')
        *length = 1;
      else if (p[0] == 0xc2 && p[1] == 0x85)
        *length = 2;
      else if (p[0] == 0xe2 && p[1] == 0x80 && (p[2] == 0xa8 || p[2] == 0xa9))
        *length = 3;
      if (*length > 0)
        return (const char *) p;
    }
  return NULL;
}

/* The first line of @text holding text (after @markdown's marks), cut. */
static char *
title_from_lines (const char *text,
                  gboolean    markdown)
{
  const char *start, *end;
  gsize length = 0;

  if (text == NULL)
    return NULL;
  for (start = text; ; start = end + length)
    {
      g_autofree char *copy = NULL;
      g_autofree char *cut = NULL;
      char *line;

      /* Every line (ended by any line break, CR LF too): a text may open
       * with any number of blank ones. */
      end = find_line_break (start, &length);
      copy = end != NULL ? g_strndup (start, end - start) : g_strdup (start);
      line = g_strstrip (copy);
      if (markdown)
        line = markdown_line_text (line);
      if (atp_str_is_blank (line))
        {
          if (end == NULL)
            return NULL;
          continue;
        }
      if (g_utf8_strlen (line, -1) <= TITLE_MAX_CHARS)
        return g_strdup (line);
      cut = g_utf8_substring (line, 0, TITLE_MAX_CHARS - 1);
      return g_strconcat (g_strchomp (cut), "…", NULL);
    }
}

char *
triage_server_title_from_text (const char *text)
{
  return title_from_lines (text, FALSE);
}

char *
triage_server_title_from_markdown (const char *text)
{
  return title_from_lines (text, TRUE);
}

const char *
triage_server_path_segment (const char *path,
                            const char *prefix)
{
  const char *rest;

  if (!g_str_has_prefix (path, prefix))
    return NULL;
  rest = path + strlen (prefix);
  return *rest != '\0' && strchr (rest, '/') == NULL ? rest : NULL;
}

/* Whether no array or object of @node (at @level) is deeper than @max; when
 * one is, @path gets its path below @node (".a[2].b"), made as the walk
 * returns (nothing is allocated on the way down). */
static gboolean
nesting_within (JsonNode *node,
                guint     level,
                guint     max,
                GString  *path)
{
  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObjectIter iter;
      const char *name;
      JsonNode *member;

      if (level > max)
        return FALSE;
      json_object_iter_init_ordered (&iter, json_node_get_object (node));
      while (json_object_iter_next_ordered (&iter, &name, &member))
        if (!nesting_within (member, level + 1, max, path))
          {
            g_string_prepend (path, name);
            g_string_prepend_c (path, '.');
            return FALSE;
          }
    }
  else if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);
      guint length = json_array_get_length (array);

      if (level > max)
        return FALSE;
      for (guint i = 0; i < length; i++)
        if (!nesting_within (json_array_get_element (array, i), level + 1, max, path))
          {
            g_autofree char *index = g_strdup_printf ("[%u]", i);

            g_string_prepend (path, index);
            return FALSE;
          }
    }
  return TRUE;
}

gboolean
triage_server_check_nesting (JsonNode      *node,
                             const char    *path,
                             guint          max,
                             AtpErrorCode   code,
                             GError       **error)
{
  g_autoptr(GString) below = g_string_new (NULL);
  const char *at;

  if (nesting_within (node, 1, max, below))
    return TRUE;
  if (path != NULL)
    g_string_prepend (below, path);
  at = below->str[0] == '.' ? below->str + 1 : below->str;
  g_set_error (error, ATP_ERROR, code,
               "%s: nested more than %u levels deep (arrays and objects); Triage carries it "
               "inside JSON of its own, which is read at most %d levels deep",
               *at != '\0' ? at : "(the body)", max, ATP_MAX_JSON_DEPTH);
  return FALSE;
}

gboolean
triage_server_check_shown (const char    *text,
                           const char    *field,
                           AtpErrorCode   code,
                           GError       **error)
{
  if (!atp_str_is_blank (text))
    return TRUE;
  g_set_error (error, ATP_ERROR, code, "%s: must show something (not only spaces, zero-width or "
               "other invisible characters)", field);
  return FALSE;
}

TriageNotificationRow *
triage_server_owned_request (TriageServer      *self,
                             SoupServerMessage *msg,
                             TriageServiceRow  *service,
                             const char        *id,
                             int                protocol,
                             const char        *noun)
{
  g_autoptr(GError) error = NULL;
  TriageNotificationRow *row = triage_store_get_notification (self->store, id, &error);

  if (error != NULL)
    {
      reply_unread (msg, error);
      return NULL;
    }
  /* A request of another protocol is read at that protocol's endpoint. */
  if (row == NULL || row->protocol != protocol)
    {
      g_autofree char *message = g_strdup_printf ("No such %s", noun);

      reply_error (msg, ATP_ERROR_NOTIFICATION_NOT_FOUND, message);
      triage_notification_row_free (row);
      return NULL;
    }
  if (g_strcmp0 (row->service_id, service->id) != 0)
    {
      g_autofree char *message = g_strdup_printf ("The %s belongs to another service", noun);

      reply_error (msg, ATP_ERROR_SERVICE_NOT_OWNER, message);
      triage_notification_row_free (row);
      return NULL;
    }
  return row;
}

/* @row as its service sees it (@view: the protocol's agent view of it, NULL
 * when its stored JSON does not read, notification_node ()). */
static void
reply_agent_view (SoupServerMessage     *msg,
                  TriageNotificationRow *row,
                  JsonNode              *view)
{
  if (view == NULL)
    reply_unreadable (msg, row->id);
  else
    reply_text (msg, 200, atp_json_to_string (view, NULL));
}

void
triage_server_agent_get (TriageServer      *self,
                         SoupServerMessage *msg,
                         const char        *id,
                         GHashTable        *query,
                         int                protocol,
                         const char        *noun)
{
  g_autoptr(TriageServiceRow) service = authenticate_service (self, msg);
  g_autoptr(TriageNotificationRow) row = NULL;
  g_autoptr(JsonNode) view = NULL;
  guint wait = 0;

  if (service == NULL || !triage_server_parse_wait (msg, query, &wait) ||
      (row = triage_server_owned_request (self, msg, service, id, protocol, noun)) == NULL)
    return;
  view = triage_server_protocol (row->protocol)->agent_view (row);
  /* A damaged row is said at once: a long-poll of it would wait its whole
   * time for the same answer. */
  if (view != NULL && wait > 0 && atp_status_is_pending (row->status))
    triage_server_wait (self, msg, id, wait);
  else
    reply_agent_view (msg, row, view);
}

void
triage_server_agent_withdraw (TriageServer      *self,
                              SoupServerMessage *msg,
                              const char        *id,
                              int                protocol,
                              const char        *noun)
{
  g_autoptr(TriageServiceRow) service = authenticate_service (self, msg);
  g_autoptr(TriageNotificationRow) row = NULL;
  g_autoptr(TriageNotificationRow) after = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(JsonNode) view = NULL;
  TriageNotificationRow *shown;
  JsonObject *object;
  g_autofree char *reason = NULL;
  const char *status;
  gboolean failed = FALSE;

  if (service == NULL ||
      !triage_server_rate_check (self, msg, TRIAGE_LIMIT_STATUS_UPDATES, service->id) ||
      (root = parse_body (msg)) == NULL)
    return;
  object = json_node_get_object (root);
  status = get_string_or (msg, object, "status", TRUE, ATP_ERROR_INVALID_STATUS, &failed);
  if (failed)
    return;
  /* As ATP's PATCH: a reason that says nothing is none. */
  if (!get_reason (msg, object, &reason))
    return;
  if (g_strcmp0 (status, "invalidated") != 0)
    {
      g_autofree char *message = g_strdup_printf ("status: a %s can only be withdrawn "
                                                  "(\"invalidated\")", noun);

      reply_error_field (msg, ATP_ERROR_INVALID_STATUS, message, "status");
      return;
    }
  if ((row = triage_server_owned_request (self, msg, service, id, protocol, noun)) == NULL ||
      !triage_server_invalidate (self, msg, row, reason, g_get_real_time (), noun))
    return;

  after = triage_store_get_notification (self->store, id, NULL);
  shown = after != NULL ? after : row;
  view = triage_server_protocol (shown->protocol)->agent_view (shown);
  reply_agent_view (msg, shown, view);
}
