/* triage-ask-hook-edit.c — a coding agent's edit of a file, as a unified diff
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-ask"
#define _GNU_SOURCE   /* memmem () */

#include "triage-ask-hook-edit.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "triage-service.h"

#define member_string triage_service_string_member

/*
 * An edit is shown where it lands: each hunk at the line where the file, as the
 * edits before it left it, holds its old_string. The agent's input is not
 * trusted to be tame: the file is read only when it is a regular file of
 * sensible size, and placing the edits stops once HOOK_MAX_EDIT_WORK bytes were
 * gone through or written, so no edit of a large file holds the hook past
 * Claude Code's 600 s hook timeout.
 */

#define HOOK_MAX_READ         (16 * 1024 * 1024)
#define HOOK_MAX_EDIT_WORK    (256 * 1024 * 1024)

guint
triage_ask_hook_count_lines (const char *text)
{
  guint lines = 0;

  for (const char *p = text; *p != '\0'; p++)
    if (*p == '\n')
      lines++;
  return lines + (*text != '\0' && text[strlen (text) - 1] != '\n' ? 1 : 0);
}

char *
triage_ask_hook_read_file (const char *path)
{
  g_autofree char *contents = NULL;
  struct stat st;
  gsize done = 0;
  int fd = open (path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);

  if (fd < 0)
    return NULL;
  if (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode) || st.st_size > HOOK_MAX_READ)
    {
      close (fd);
      return NULL;
    }
  contents = g_malloc (st.st_size + 1);
  while (done < (gsize) st.st_size)
    {
      gssize n = read (fd, contents + done, st.st_size - done);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        break;
      done += n;
    }
  close (fd);
  contents[done] = '\0';
  return g_steal_pointer (&contents);
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

/* The first place of @needle (@length bytes) in [@from, @end), or NULL. Looked
 * for in windows that double from @from, so that finding a place costs what
 * lies before it, never the whole rest of the text: memmem () and strstr ()
 * go through all of it at each call under AddressSanitizer (the checks of
 * their arguments), which made replacing a word at every line of a few MiB
 * take hours there. */
static const char *
find_next (const char *from,
           const char *end,
           const char *needle,
           gsize       length)
{
  gsize window = MAX (2 * length, 256);

  for (;;)
    {
      gsize size = MIN (window, (gsize) (end - from));
      const char *at = memmem (from, size, needle, length);

      if (at != NULL || size == (gsize) (end - from))
        return at;
      window *= 2;
    }
}

/* @contents with @old_text at @at made @new_text, and with @replace_all every
 * later one too, in one pass over the text before the edit as Claude Code
 * makes it: what @new_text brings is not replaced again (a → "a\nX" once a
 * place, not again in the X's line). g_string_replace () over the result moved
 * the rest of the text at each place (an Edit of "id" through 8 MiB of "id = x"
 * lines held the hook 5 minutes) and replaced the new text again. NULL when the
 * result would pass @budget bytes. */
static char *
edit_done (const char *contents,
           const char *at,
           const char *old_text,
           const char *new_text,
           gboolean    replace_all,
           gsize       budget)
{
  gsize old_length = strlen (old_text);
  gsize new_length = strlen (new_text);
  gsize length = strlen (contents);
  const char *end = contents + length;
  guint64 places = 1;
  guint64 size;
  const char *rest = contents;
  char *done;
  char *out;

  if (replace_all)
    for (const char *p = find_next (at + old_length, end, old_text, old_length); p != NULL;
         p = find_next (p + old_length, end, old_text, old_length))
      places++;
  size = length - places * old_length + places * new_length;
  if (size > budget)
    return NULL;

  out = done = g_malloc (size + 1);
  for (const char *p = at; p != NULL;
       p = replace_all ? find_next (rest, end, old_text, old_length) : NULL)
    {
      memcpy (out, rest, p - rest);
      out += p - rest;
      memcpy (out, new_text, new_length);
      out += new_length;
      rest = p + old_length;
    }
  memcpy (out, rest, end - rest + 1);
  return done;
}

/* One edit's hunk, at the line where @contents holds @old_text (line 1 when it
 * does not, or when @contents is NULL); @contents then holds the edit done, or
 * NULL when that would pass @budget bytes. */
static void
append_hunk (GString     *diff,
             char       **contents,
             const char  *old_text,
             const char  *new_text,
             gboolean     replace_all,
             gsize        budget)
{
  const char *at = *contents != NULL && *old_text != '\0' ? strstr (*contents, old_text) : NULL;
  guint line = 1;

  for (const char *p = *contents; at != NULL && p < at; p++)
    if (*p == '\n')
      line++;

  g_string_append_printf (diff, "@@ -%u,%u +%u,%u @@%s\n", line,
                          triage_ask_hook_count_lines (old_text), line,
                          triage_ask_hook_count_lines (new_text),
                          replace_all ? " (every occurrence)" : "");
  append_prefixed (diff, '-', old_text);
  append_prefixed (diff, '+', new_text);

  if (at != NULL)
    {
      char *done = edit_done (*contents, at, old_text, new_text, replace_all, budget);

      g_free (*contents);
      *contents = done;
    }
}

char *
triage_ask_hook_edit_diff (const char *path,
                           JsonArray  *edits)
{
  g_autoptr(GString) diff = g_string_new (NULL);
  g_autofree char *contents = triage_ask_hook_read_file (path);
  gsize work = 0;

  g_string_append_printf (diff, "--- a%s\n+++ b%s\n", path, path);
  for (guint i = 0; i < json_array_get_length (edits); i++)
    {
      JsonNode *node = json_array_get_element (edits, i);
      JsonObject *edit = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
      JsonNode *all = edit != NULL ? json_object_get_member (edit, "replace_all") : NULL;

      /* Placing an edit goes through the whole file, and doing it writes the file
       * anew: past HOOK_MAX_EDIT_WORK the rest are shown at line 1, so many edits
       * of a large file cannot hold the hook (20,000 of a 4 MiB file took 11 s,
       * more went past Claude Code's hook timeout), nor edits that make it grow
       * fill its memory. */
      if (contents != NULL && (work += strlen (contents)) > HOOK_MAX_EDIT_WORK)
        g_clear_pointer (&contents, g_free);
      append_hunk (diff, &contents,
                   member_string (edit, "old_string") ? member_string (edit, "old_string") : "",
                   member_string (edit, "new_string") ? member_string (edit, "new_string") : "",
                   all != NULL && JSON_NODE_HOLDS_VALUE (all) &&
                   json_node_get_value_type (all) == G_TYPE_BOOLEAN && json_node_get_boolean (all),
                   HOOK_MAX_EDIT_WORK - MIN (work, HOOK_MAX_EDIT_WORK));
    }
  return g_string_free (g_steal_pointer (&diff), FALSE);
}

JsonArray *
triage_ask_hook_edits (const char *tool,
                       JsonObject *tool_input)
{
  JsonNode *node = json_object_get_member (tool_input, "edits");
  JsonArray *edits;

  if (g_str_equal (tool, "Edit"))
    {
      if (member_string (tool_input, "old_string") == NULL ||
          member_string (tool_input, "new_string") == NULL)
        return NULL;
      edits = json_array_new ();
      json_array_add_object_element (edits, json_object_ref (tool_input));
      return edits;
    }
  if (!g_str_equal (tool, "MultiEdit") || node == NULL || !JSON_NODE_HOLDS_ARRAY (node) ||
      json_array_get_length (json_node_get_array (node)) == 0)
    return NULL;
  edits = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (edits); i++)
    {
      JsonNode *edit = json_array_get_element (edits, i);

      if (!JSON_NODE_HOLDS_OBJECT (edit) ||
          member_string (json_node_get_object (edit), "old_string") == NULL ||
          member_string (json_node_get_object (edit), "new_string") == NULL)
        return NULL;
    }
  return json_array_ref (edits);
}
