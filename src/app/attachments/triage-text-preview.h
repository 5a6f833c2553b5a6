/* triage-text-preview.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>
#include <gtksourceview/gtksource.h>

#include "triage-attachment-text.h"

G_BEGIN_DECLS

#define TRIAGE_TYPE_TEXT_PREVIEW (triage_text_preview_get_type ())

G_DECLARE_FINAL_TYPE (TriageTextPreview, triage_text_preview, TRIAGE, TEXT_PREVIEW, AdwBin)

GtkWidget                  *triage_text_preview_new            (void);
void                        triage_text_preview_set_text       (TriageTextPreview    *self,
                                                                TriageAttachmentText *text,
                                                                GtkSourceLanguage    *language,
                                                                gboolean              wrap);
void                        triage_text_preview_clear          (TriageTextPreview    *self);
gboolean                    triage_text_preview_get_loading    (TriageTextPreview    *self);
const TriageAttachmentText *triage_text_preview_get_text       (TriageTextPreview    *self);
char                       *triage_text_preview_dup_shown_text (TriageTextPreview    *self);
GtkSourceView              *triage_text_preview_get_source_view (TriageTextPreview   *self);
void                        triage_text_preview_insert         (GtkTextBuffer        *buffer,
                                                                GtkTextIter          *iter,
                                                                const char           *text,
                                                                int                   length);

guint                       triage_text_preview_find           (TriageTextPreview    *self,
                                                                const char           *query);
gboolean                    triage_text_preview_find_next      (TriageTextPreview    *self,
                                                                gboolean              backwards);
char                       *triage_text_preview_dup_selection  (TriageTextPreview    *self);

G_END_DECLS
