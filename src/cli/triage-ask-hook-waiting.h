/* triage-ask-hook-waiting.h — the hooks waiting for the person, so a later event can release them
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* The signal a waiting hook gets when Claude Code's own prompt settled its tool call. */
#define TRIAGE_ASK_HOOK_RELEASE_SIGNAL SIGUSR1

/* What ties a permission prompt to the tool call that follows it. */
char     *triage_ask_hook_call_digest       (const char *tool_name,
                                             JsonNode   *tool_input);

/* This process waits for the person about @digest in @session_id; returns the
 * entry to pass to _remove () at the end, or NULL (and @error) when it cannot
 * be written (the hook then works as before, only without release). */
char     *triage_ask_hook_waiting_add       (const char  *session_id,
                                             const char  *digest,
                                             GError     **error);
void      triage_ask_hook_waiting_remove    (const char  *entry);

/* Signals the other hooks waiting in @session_id about @digest (about any call
 * when @digest is NULL); returns how many. */
guint     triage_ask_hook_waiting_release   (const char  *session_id,
                                             const char  *digest);

G_END_DECLS
