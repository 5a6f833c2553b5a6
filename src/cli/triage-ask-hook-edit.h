/* triage-ask-hook-edit.h — a coding agent's edit of a file, as a unified diff
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* How many lines @text has (a last line without its newline counts). */
guint      triage_ask_hook_count_lines (const char *text);

/* @path's text if it is a regular file of at most 16 MiB, else NULL. Opened
 * without blocking, so a FIFO named by the agent cannot hang the hook. */
char      *triage_ask_hook_read_file   (const char *path);

/* Whether @tool_input is one edit (Edit) or a list of them (MultiEdit), each
 * with its old_string and new_string: the edits, else NULL. */
JsonArray *triage_ask_hook_edits       (const char *tool,
                                        JsonObject *tool_input);

/* @edits (from triage_ask_hook_edits ()) as a unified diff of @path, a hunk an
 * edit, each at the line where the file as the edits before it left it holds
 * its old_string, else at line 1. */
char      *triage_ask_hook_edit_diff   (const char *path,
                                        JsonArray  *edits);

G_END_DECLS
