/* triage-ask-hook-request.h — the Triage request for a coding agent's tool call
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* The ATP request that asks the person about @input's tool call (Claude Code's
 * PreToolUse or PermissionRequest event), expiring at @deadline (a duration or
 * an RFC 3339 time, from @now): its new id and its text. */
gboolean  triage_ask_hook_build_request (JsonObject  *input,
                                         const char  *deadline,
                                         GDateTime   *now,
                                         char       **notification_id,
                                         char       **body,
                                         GError     **error);

G_END_DECLS
