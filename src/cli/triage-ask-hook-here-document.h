/* triage-ask-hook-here-document.h — the shell's here-documents: their words, bodies and ends
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Where each line of a text last starts, to know at once that a here-document's end
 * never comes: below the top, 10,000 lines of "x <<A" in a body were each read to the
 * end (0.37 s). Built when first asked. */
typedef struct
{
  const char *text;
  GHashTable *last;            /* a line → 1 + where it last starts */
  GHashTable *last_untabbed;   /* the same with its leading tabs dropped, for <<- */
} TriageAskHookHereDocumentEnds;

void triage_ask_hook_here_document_ends_clear (TriageAskHookHereDocumentEnds *self);

/* Where @p's line ends: its line break, or the end of the text. */
const char *triage_ask_hook_end_of_line (const char *p);

const char *triage_ask_hook_read_here_document_word (const char *p,
                                                     GPtrArray  *delimiters);

const char *triage_ask_hook_take_here_documents (const char                    *p,
                                                 GPtrArray                     *delimiters,
                                                 GPtrArray                     *bodies,
                                                 gboolean                       top,
                                                 gboolean                       in_substitution,
                                                 TriageAskHookHereDocumentEnds *ends);

G_END_DECLS
