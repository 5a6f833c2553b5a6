/* triage-attachment-view.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>
#include <libsoup/soup.h>

#include "atp-notification.h"
#include "triage-attachment-kind.h"
#include "triage-attachment-text.h"
#include "triage-text-preview.h"

G_BEGIN_DECLS

/* Decoded images are scaled so the longer side is at most this. */
#define TRIAGE_ATTACHMENT_IMAGE_MAX_DISPLAY_SIZE 2048

#define TRIAGE_TYPE_ATTACHMENT_VIEW (triage_attachment_view_get_type ())

G_DECLARE_FINAL_TYPE (TriageAttachmentView, triage_attachment_view, TRIAGE, ATTACHMENT_VIEW, AdwBin)

GtkWidget            *triage_attachment_view_new                 (void);
void                  triage_attachment_view_set_attachment      (TriageAttachmentView *self,
                                                                  const AtpAttachment  *attachment,
                                                                  const char           *service_name);
void                  triage_attachment_view_set_whole_lines     (TriageAttachmentView *self,
                                                                  gboolean              whole_lines);
void                  triage_attachment_view_set_session         (TriageAttachmentView *self,
                                                                  SoupSession          *session);
void                  triage_attachment_view_set_download_limits (TriageAttachmentView *self,
                                                                  gsize                 max_size,
                                                                  guint                 timeout_seconds);

/* What "Save As…" and "Open With…" do once the user has chosen a file or to open. */
void                  triage_attachment_view_save_async          (TriageAttachmentView *self,
                                                                  GFile                *file,
                                                                  GCancellable         *cancellable,
                                                                  GAsyncReadyCallback   callback,
                                                                  gpointer              user_data);
gboolean              triage_attachment_view_save_finish         (TriageAttachmentView  *self,
                                                                  GAsyncResult          *result,
                                                                  GError               **error);
void                  triage_attachment_view_write_copy_async    (TriageAttachmentView *self,
                                                                  GCancellable         *cancellable,
                                                                  GAsyncReadyCallback   callback,
                                                                  gpointer              user_data);
GFile                *triage_attachment_view_write_copy_finish   (TriageAttachmentView  *self,
                                                                  GAsyncResult          *result,
                                                                  char                 **content_type,
                                                                  GError               **error);

/* What is shown, for the app (e.g. a window title) and for tests. */
TriageAttachmentKind  triage_attachment_view_get_kind            (TriageAttachmentView *self);
GBytes               *triage_attachment_view_get_bytes           (TriageAttachmentView *self);
char                 *triage_attachment_view_get_text            (TriageAttachmentView *self);
TriageTextPreview    *triage_attachment_view_get_text_preview    (TriageAttachmentView *self);
const char           *triage_attachment_view_get_language_id     (TriageAttachmentView *self);
GdkPaintable         *triage_attachment_view_get_paintable       (TriageAttachmentView *self);
const char           *triage_attachment_view_get_notice          (TriageAttachmentView *self);
const char           *triage_attachment_view_get_error_message   (TriageAttachmentView *self);
const GError         *triage_attachment_view_get_error           (TriageAttachmentView *self);

G_END_DECLS
