/* triage-attachment-kind.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

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

G_END_DECLS
