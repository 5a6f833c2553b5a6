/* triage-afp-editor-private.h — the editor's parts, shared by its files
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "triage-afp-editor.h"

G_BEGIN_DECLS

/*
 * TriageAfpEditor spans two files:
 *
 *   triage-afp-editor.c       the object, its fields and items (add, move,
 *                             remove, ids), live validation
 *   triage-afp-editor-json.c  the feedback object out of it, a draft or an
 *                             answer into it, carrying an earlier item over
 */

typedef struct
{
  TriageAfpEditor *editor;
  gboolean         area;
  char            *id;             /* areas: the item's id */
  gboolean         carried;        /* an earlier item, its id kept */
  GtkWidget       *box;
  GtkLabel        *title;
  GtkLabel        *id_label;
  GtkEntry        *aspect;
  GtkEntry        *text;           /* justification, or description */
  GtkEntry        *recommendation; /* areas only */
  GtkWidget       *up;
  GtkWidget       *down;
  GtkWidget       *remove;
} Item;

struct _TriageAfpEditor
{
  GtkBox          parent_instance;

  AtpAfpReview   *review;
  GPtrArray      *positives;       /* Item* */
  GPtrArray      *areas;           /* Item* */
  char           *problem;
  gboolean        loading;         /* no ::changed while filling in */

  GtkCheckButton *levels[3];       /* high, medium, low */
  GtkEntry       *justification;
  GtkBox         *positives_box;
  GtkBox         *areas_box;
  GtkEntry       *summary;
};

char     *_triage_afp_editor_entry_text   (GtkEntry        *entry);
int       _triage_afp_editor_chosen_level (TriageAfpEditor *self);
void      _triage_afp_editor_clear        (TriageAfpEditor *self);
Item     *_triage_afp_editor_add_item     (TriageAfpEditor *self,
                                           gboolean         area,
                                           const char      *id,
                                           gboolean         carried);
void      _triage_afp_editor_set_entry    (GtkEntry        *entry,
                                           const char      *text);
void      _triage_afp_editor_update_id    (Item            *item);
void      _triage_afp_editor_validate     (TriageAfpEditor *self);
void      _triage_afp_editor_changed      (TriageAfpEditor *self);

G_END_DECLS
