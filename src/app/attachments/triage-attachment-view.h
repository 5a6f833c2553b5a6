/* triage-attachment-view.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>
#include <libsoup/soup.h>

#include "atp-notification.h"
#include "triage-attachment-text.h"
#include "triage-text-preview.h"

G_BEGIN_DECLS

/* Decoded images are scaled so the longer side is at most this. */
#define TRIAGE_ATTACHMENT_IMAGE_MAX_DISPLAY_SIZE 2048

/**
 * TriageAttachmentKind:
 * @TRIAGE_ATTACHMENT_KIND_NONE: nothing set
 * @TRIAGE_ATTACHMENT_KIND_TEXT: plain text
 * @TRIAGE_ATTACHMENT_KIND_JSON: JSON, pretty-printed and highlighted
 * @TRIAGE_ATTACHMENT_KIND_CODE: source code (also HTML, XML, SVG), highlighted, never rendered
 * @TRIAGE_ATTACHMENT_KIND_IMAGE: a decoded image
 * @TRIAGE_ATTACHMENT_KIND_FILE: any other content, described by type and size
 * @TRIAGE_ATTACHMENT_KIND_REMOTE: an address the user may choose to load
 * @TRIAGE_ATTACHMENT_KIND_LOADING: downloading or decoding
 * @TRIAGE_ATTACHMENT_KIND_ERROR: the attachment cannot be shown; see
 *   triage_attachment_view_get_error_message()
 */
typedef enum
{
  TRIAGE_ATTACHMENT_KIND_NONE,
  TRIAGE_ATTACHMENT_KIND_TEXT,
  TRIAGE_ATTACHMENT_KIND_JSON,
  TRIAGE_ATTACHMENT_KIND_CODE,
  TRIAGE_ATTACHMENT_KIND_IMAGE,
  TRIAGE_ATTACHMENT_KIND_FILE,
  TRIAGE_ATTACHMENT_KIND_REMOTE,
  TRIAGE_ATTACHMENT_KIND_LOADING,
  TRIAGE_ATTACHMENT_KIND_ERROR,
} TriageAttachmentKind;

#define TRIAGE_TYPE_ATTACHMENT_KIND (triage_attachment_kind_get_type ())
GType triage_attachment_kind_get_type (void) G_GNUC_CONST;

#define TRIAGE_TYPE_ATTACHMENT_VIEW (triage_attachment_view_get_type ())

G_DECLARE_FINAL_TYPE (TriageAttachmentView, triage_attachment_view, TRIAGE, ATTACHMENT_VIEW, AdwBin)

GtkWidget            *triage_attachment_view_new                 (void);
void                  triage_attachment_view_set_attachment      (TriageAttachmentView *self,
                                                                  const AtpAttachment  *attachment,
                                                                  const char           *service_name);
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
