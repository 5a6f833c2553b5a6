/* triage-ask-hook-waiting.c — the hooks waiting for the person, so a later event can release them
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-ask"

#include "triage-ask-hook-waiting.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>

/*
 * Claude Code shows its own permission dialog while a PermissionRequest hook
 * runs, takes whichever answers first, and leaves the hook running when the
 * person answered in the terminal. The Triage request would then wait for its
 * deadline, and a Deny given there later would change nothing. So each waiting
 * hook leaves an entry in $XDG_RUNTIME_DIR/triage/hooks/ (its pid as the name;
 * the session and the call's digest inside), and the hook run for PostToolUse
 * or PostToolUseFailure (the call went ahead), Stop or SessionEnd (the turn is
 * over) or UserPromptSubmit (the person is at the prompt again: a Deny in the
 * dialog interrupts the turn, and no Stop follows) signals the waiting hooks it
 * concerns, which withdraw their requests.
 */

static char *
waiting_dir (void)
{
  return g_build_filename (g_get_user_runtime_dir (), "triage", "hooks", NULL);
}

char *
triage_ask_hook_call_digest (const char *tool_name,
                             JsonNode   *tool_input)
{
  g_autoptr(GChecksum) checksum = g_checksum_new (G_CHECKSUM_SHA256);
  g_autofree char *text = json_to_string (tool_input, FALSE);

  g_checksum_update (checksum, (const guchar *) tool_name, -1);
  g_checksum_update (checksum, (const guchar *) "\n", 1);
  g_checksum_update (checksum, (const guchar *) text, -1);
  return g_strdup (g_checksum_get_string (checksum));
}

char *
triage_ask_hook_waiting_add (const char  *session_id,
                             const char  *digest,
                             GError     **error)
{
  g_autofree char *dir = waiting_dir ();
  g_autofree char *name = g_strdup_printf ("%d", (int) getpid ());
  g_autofree char *entry = g_build_filename (dir, name, NULL);
  g_autofree char *text = g_strdup_printf ("%s\n%s\n", session_id, digest);

  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int saved = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), "cannot create %s: %s",
                   dir, g_strerror (saved));
      return NULL;
    }
  if (!g_file_set_contents_full (entry, text, -1, G_FILE_SET_CONTENTS_CONSISTENT, 0600, error))
    return NULL;
  return g_steal_pointer (&entry);
}

void
triage_ask_hook_waiting_remove (const char *entry)
{
  if (entry != NULL)
    g_unlink (entry);
}

/* Whether @pid is a triage-ask hook still (not a process that took its pid). */
static gboolean
is_waiting_hook (pid_t pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/cmdline", (int) pid);
  g_autofree char *cmdline = NULL;
  gsize length = 0;
  g_autofree char *program = NULL;
  gboolean hook = FALSE;

  if (!g_file_get_contents (path, &cmdline, &length, NULL) || length == 0)
    return FALSE;
  program = g_path_get_basename (cmdline);
  if (!g_str_equal (program, "triage-ask"))
    return FALSE;
  for (gsize i = 0; i < length; i += strlen (cmdline + i) + 1)
    hook |= g_str_has_prefix (cmdline + i, "--hook");
  return hook;
}

guint
triage_ask_hook_waiting_release (const char *session_id,
                                 const char *digest)
{
  g_autofree char *dir = waiting_dir ();
  g_autoptr(GDir) listing = g_dir_open (dir, 0, NULL);
  const char *name;
  guint released = 0;

  while (listing != NULL && (name = g_dir_read_name (listing)) != NULL)
    {
      g_autofree char *entry = g_build_filename (dir, name, NULL);
      g_autofree char *text = NULL;
      g_auto(GStrv) lines = NULL;
      char *end = NULL;
      gint64 pid = g_ascii_strtoll (name, &end, 10);

      if (end == NULL || *end != '\0' || pid <= 1 || pid == getpid () ||
          !g_file_get_contents (entry, &text, NULL, NULL))
        continue;
      if (!is_waiting_hook ((pid_t) pid))
        {
          g_unlink (entry);     /* left by a hook that was killed, of any session */
          continue;
        }
      lines = g_strsplit (text, "\n", 3);
      if (g_strv_length (lines) < 2 || !g_str_equal (lines[0], session_id) ||
          (digest != NULL && !g_str_equal (lines[1], digest)))
        continue;
      if (kill ((pid_t) pid, TRIAGE_ASK_HOOK_RELEASE_SIGNAL) == 0)
        released++;
    }
  return released;
}
