/* triage-attachment-window.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "triage-attachment-view.h"

G_BEGIN_DECLS

#define TRIAGE_TYPE_ATTACHMENT_WINDOW (triage_attachment_window_get_type ())

G_DECLARE_FINAL_TYPE (TriageAttachmentWindow, triage_attachment_window, TRIAGE, ATTACHMENT_WINDOW, AdwWindow)

GtkWidget            *triage_attachment_window_new      (GtkWindow               *parent,
                                                         const AtpAttachment     *attachment,
                                                         const char              *service_name);
GtkWidget            *triage_attachment_window_show     (GtkWindow               *parent,
                                                         const AtpAttachment     *attachment,
                                                         const char              *service_name);
TriageAttachmentView *triage_attachment_window_get_view (TriageAttachmentWindow  *self);

G_END_DECLS
