/* triage-inbox-search.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "triage-request.h"

G_BEGIN_DECLS

gboolean     triage_inbox_search_is_word_char (gunichar         c);
gboolean     triage_inbox_search_is_unspaced (gunichar         c);
char        *triage_inbox_search_fold      (const char          *text);
GStrv        triage_inbox_search_parse     (const char          *text);
gboolean     triage_inbox_search_match     (const char          *haystack,
                                            const char * const  *words);
gboolean     triage_inbox_search_has_word  (const char          *text,
                                            const char          *word);
const char  *triage_inbox_search_haystack  (TriageRequest       *request);
gboolean     triage_inbox_search_words_narrow (const char * const *old_words,
                                               const char * const *new_words);

G_END_DECLS
