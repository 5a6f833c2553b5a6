/* triage-ask-hook-flags.h — the flags a coding agent's command earns: destructive, irreversible
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* Adds to @flags "destructive" and "irreversible" as @command (a shell command,
 * any tool's) deserves, and "requires_confirmation" when it is too long to be
 * checked whole: so the app asks for a confirmation before Allow. */
void triage_ask_hook_flag_command (const char *command,
                                   JsonArray  *flags);

G_END_DECLS
