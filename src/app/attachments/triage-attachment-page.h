/* triage-attachment-page.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "triage-attachment-view.h"

G_BEGIN_DECLS

#define TRIAGE_TYPE_ATTACHMENT_PAGE (triage_attachment_page_get_type ())

G_DECLARE_FINAL_TYPE (TriageAttachmentPage, triage_attachment_page, TRIAGE, ATTACHMENT_PAGE, AdwBin)

GtkWidget            *triage_attachment_page_new            (void);
void                  triage_attachment_page_set_attachment (TriageAttachmentPage *self,
                                                             const AtpAttachment  *attachment,
                                                             const char           *service_name);
const char           *triage_attachment_page_get_title      (TriageAttachmentPage *self);
TriageAttachmentView *triage_attachment_page_get_view       (TriageAttachmentPage *self);

G_END_DECLS
