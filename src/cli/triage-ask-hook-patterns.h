/* triage-ask-hook-patterns.h — the commands that destroy or cannot be undone, as patterns
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* What a command earned: the flags the person is shown, and @unchecked for one that
 * could not be checked (or may run what cannot be seen): a confirmation all the same. */
typedef struct
{
  gboolean destructive;
  gboolean irreversible;
  gboolean unchecked;
} TriageAskHookVerdict;

typedef struct _TriageAskHookPatterns TriageAskHookPatterns;

TriageAskHookPatterns *triage_ask_hook_patterns_new   (void);
void                   triage_ask_hook_patterns_free  (TriageAskHookPatterns *self);

/* Matches the patterns against @command, one command as the shell splits them, into
 * @verdict. One that PCRE2 gives up on (its limits) makes it @unchecked. */
void                   triage_ask_hook_patterns_match (TriageAskHookPatterns *self,
                                                       const char            *command,
                                                       TriageAskHookVerdict  *verdict);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TriageAskHookPatterns, triage_ask_hook_patterns_free)

G_END_DECLS
