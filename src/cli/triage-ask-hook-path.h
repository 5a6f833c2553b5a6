/* triage-ask-hook-path.h — the file a coding agent's tool call names, as the person sees it
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* @path as the title shows it: relative to @cwd when inside it (no ".."),
 * else whole, so a file outside the project never reads as one of its own. */
char *triage_ask_hook_shown_path (const char *path,
                                  const char *cwd);

/* Where @path really leads, when that is not where its name says: the whole
 * path with its symbolic links followed (@path's own, or its folder's when the
 * file is not there yet), and in *@shown that path as the title shows it
 * (relative to @cwd's real path when inside it). NULL when @path leads where
 * it says, or where it leads cannot be known. */
char *triage_ask_hook_real_path  (const char  *path,
                                  const char  *cwd,
                                  char       **shown);

G_END_DECLS
