/* triage-attachment-kind.c — what an attachment view shows, as a GType for its "kind" property
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "triage-attachment-kind.h"

G_DEFINE_ENUM_TYPE (TriageAttachmentKind, triage_attachment_kind,
                    G_DEFINE_ENUM_VALUE (TRIAGE_ATTACHMENT_KIND_NONE, "none"),
                    G_DEFINE_ENUM_VALUE (TRIAGE_ATTACHMENT_KIND_TEXT, "text"),
                    G_DEFINE_ENUM_VALUE (TRIAGE_ATTACHMENT_KIND_JSON, "json"),
                    G_DEFINE_ENUM_VALUE (TRIAGE_ATTACHMENT_KIND_CODE, "code"),
                    G_DEFINE_ENUM_VALUE (TRIAGE_ATTACHMENT_KIND_IMAGE, "image"),
                    G_DEFINE_ENUM_VALUE (TRIAGE_ATTACHMENT_KIND_FILE, "file"),
                    G_DEFINE_ENUM_VALUE (TRIAGE_ATTACHMENT_KIND_REMOTE, "remote"),
                    G_DEFINE_ENUM_VALUE (TRIAGE_ATTACHMENT_KIND_LOADING, "loading"),
                    G_DEFINE_ENUM_VALUE (TRIAGE_ATTACHMENT_KIND_ERROR, "error"))
