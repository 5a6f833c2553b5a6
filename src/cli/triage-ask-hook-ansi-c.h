/* triage-ask-hook-ansi-c.h — bash's $'…' read as the shell reads it
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Appends bash's $'…' whose text starts at @p to @out as the '…' that means the same
 * (its escapes read, a NUL ending it as in bash); returns where it ends, after its
 * quote. One that does not close is appended as it is, for the reader to refuse. */
const char *triage_ask_hook_append_ansi_c_quoted (GString    *out,
                                                  const char *p);

G_END_DECLS
