/* triage-attachment-view-private.h — the view's parts, shared by its files
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>
#include <libsoup/soup.h>

#include "triage-attachment-view.h"
#include "triage-text-preview.h"

G_BEGIN_DECLS

/* Bytes looked at to sniff a content type. */
#define SNIFF_SIZE 4096

/*
 * Shows one attachment of a request (triage-attachment-view.c); its bytes
 * shown as what they are (text, JSON, code, image, file) in
 * triage-attachment-view-content.c; an address shown and loaded on request
 * in triage-attachment-view-address.c; saving it and opening a copy with
 * another application in triage-attachment-view-files.c.
 */
struct _TriageAttachmentView
{
  AdwBin                parent_instance;

  /* template */
  AdwToastOverlay      *toast_overlay;
  GtkImage             *type_icon;
  GtkLabel             *title_label;
  GtkLabel             *subtitle_label;
  GtkWidget            *actions_squeezer;
  GtkWidget            *uri_box;
  GtkLabel             *uri_intro_label;
  GtkLabel             *uri_label;
  GtkLabel             *notice_label;
  GtkStack             *stack;
  TriageTextPreview    *text_preview;
  GtkPicture           *picture;
  GtkImage             *file_icon;
  GtkLabel             *file_label;
  GtkLabel             *file_reason_label;
  GtkButton            *load_button;
  GtkLabel             *load_hint_label;
  GtkSpinner           *spinner;
  GtkLabel             *loading_label;
  GtkLabel             *error_label;
  GtkWidget            *retry_button;

  /* state of the attachment shown */
  GCancellable         *cancellable;        /* everything for the current attachment */
  GCancellable         *fetch_cancellable;  /* the download, which the user may cancel */
  TriageAttachmentKind  kind;
  char                 *mime_type;          /* declared, lower case, no parameters */
  char                 *charset;            /* declared charset parameter, nullable */
  char                 *description;
  char                 *service_name;
  GUri                 *uri;                /* an address that may be loaded; NULL if refused */
  GBytes               *bytes;              /* decoded or downloaded content */
  GError               *error;
  char                 *notice;
  const char           *language_id;        /* interned by GtkSourceLanguage */
  gboolean              whole_lines;        /* long lines split, not cut */

  /* settings */
  SoupSession          *session;
  gsize                 max_download_size;
  guint                 download_timeout;
  GtkFileChooserNative *save_dialog;
};

/* triage-attachment-view.c */
void _triage_attachment_view_set_kind   (TriageAttachmentView *self,
                                         TriageAttachmentKind  kind);
void _triage_attachment_view_show_error (TriageAttachmentView *self,
                                         GError               *error);
void _triage_attachment_view_add_notice (TriageAttachmentView *self,
                                         const char           *notice);

/* triage-attachment-view-content.c */
void _triage_attachment_view_show_bytes (TriageAttachmentView *self,
                                         GBytes               *bytes);

/* triage-attachment-view-address.c */
void _triage_attachment_view_show_uri       (TriageAttachmentView *self,
                                             const char           *uri);
void _triage_attachment_view_load_action    (GtkWidget            *widget,
                                             const char           *action_name,
                                             GVariant             *parameter);
void _triage_attachment_view_cancel_action  (GtkWidget            *widget,
                                             const char           *action_name,
                                             GVariant             *parameter);

/* triage-attachment-view-files.c */
void _triage_attachment_view_save_action      (GtkWidget  *widget,
                                               const char *action_name,
                                               GVariant   *parameter);
void _triage_attachment_view_open_with_action (GtkWidget  *widget,
                                               const char *action_name,
                                               GVariant   *parameter);

G_END_DECLS
