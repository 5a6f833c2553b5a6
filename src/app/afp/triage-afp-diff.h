/* triage-afp-diff.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  TRIAGE_AFP_DIFF_SAME,
  TRIAGE_AFP_DIFF_REMOVED,
  TRIAGE_AFP_DIFF_ADDED,
} TriageAfpDiffKind;

/**
 * TriageAfpDiffLine:
 * @kind: whether the line is in both texts, only the old or only the new one
 * @line: its text, without the line break (points into the diff's copy)
 * @old_number: its number in the old text, from 1 (0 for an added line)
 * @new_number: its number in the new text, from 1 (0 for a removed line)
 */
typedef struct
{
  TriageAfpDiffKind  kind;
  const char        *line;
  guint              old_number;
  guint              new_number;
} TriageAfpDiffLine;

typedef struct _TriageAfpDiff TriageAfpDiff;

/* Past this many changed lines the middle is shown as removed, then added. */
#define TRIAGE_AFP_DIFF_MAX_EDITS 2000

TriageAfpDiff           *triage_afp_diff_new          (const char    *old_text,
                                                       const char    *new_text);
void                     triage_afp_diff_free         (TriageAfpDiff *self);
guint                    triage_afp_diff_get_n_lines  (TriageAfpDiff *self);
const TriageAfpDiffLine *triage_afp_diff_get_line     (TriageAfpDiff *self,
                                                       guint          index);
guint                    triage_afp_diff_get_n_added  (TriageAfpDiff *self);
guint                    triage_afp_diff_get_n_removed (TriageAfpDiff *self);
char                    *triage_afp_diff_to_text      (TriageAfpDiff *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TriageAfpDiff, triage_afp_diff_free)

G_END_DECLS
