/* triage-attachment-text.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* Text beyond this many bytes is not shown (the whole content can still be saved). */
#define TRIAGE_ATTACHMENT_TEXT_MAX_SIZE (1024 * 1024)
/* Lines longer than this many characters are cut for display: Pango lays out a
 * line whole, and one of 600,000 characters takes it minutes. */
#define TRIAGE_ATTACHMENT_TEXT_MAX_LINE_CHARS 2000
/* Texts up to this size are prepared at once; larger ones in a thread. */
#define TRIAGE_ATTACHMENT_TEXT_SYNC_SIZE (64 * 1024)
/* Text shown beyond this size is not highlighted. */
#define TRIAGE_ATTACHMENT_TEXT_HIGHLIGHT_MAX_SIZE (256 * 1024)

/*
 * A text line shortened for display: its number and where it is in the whole
 * text. The display shows its first TRIAGE_ATTACHMENT_TEXT_MAX_LINE_CHARS
 * characters and "…".
 */
typedef struct
{
  guint line;    /* from 0 */
  gsize start;   /* byte offset in the whole text */
  gsize length;  /* bytes */
  gsize chars;   /* characters */
} TriageAttachmentTextCut;

/* An attachment's text, ready to show. Immutable once prepared. */
typedef struct
{
  char      *text;            /* the whole text previewed: valid UTF-8, JSON pretty-printed */
  gsize      length;
  char      *display;         /* the same with every long line cut, or split (a line
                               * of ->line_starts each piece) */
  gsize      display_length;
  GArray    *line_starts;     /* gsize: byte offset of each line of text */
  GArray    *cuts;            /* TriageAttachmentTextCut, by line */
  GPtrArray *notices;         /* what the person should know, in order */
  gboolean   json;            /* pretty-printed JSON */
} TriageAttachmentText;

TriageAttachmentText *triage_attachment_text_prepare        (GBytes                *bytes,
                                                             const char            *charset,
                                                             gboolean               json);
TriageAttachmentText *triage_attachment_text_prepare_full   (GBytes                *bytes,
                                                             const char            *charset,
                                                             gboolean               json,
                                                             gboolean               whole);
void                  triage_attachment_text_prepare_async  (GBytes                *bytes,
                                                             const char            *charset,
                                                             gboolean               json,
                                                             gboolean               whole,
                                                             GCancellable          *cancellable,
                                                             GAsyncReadyCallback    callback,
                                                             gpointer               user_data);
TriageAttachmentText *triage_attachment_text_prepare_finish (GAsyncResult          *result,
                                                             GError               **error);
void                  triage_attachment_text_free           (TriageAttachmentText  *text);

guint                 triage_attachment_text_line_at        (const TriageAttachmentText *text,
                                                             gsize                       offset);
gboolean              triage_attachment_text_line_continues (const TriageAttachmentText *text,
                                                             guint                       line);
const TriageAttachmentTextCut *
                      triage_attachment_text_find_cut       (const TriageAttachmentText *text,
                                                             guint                       line);
char                 *triage_attachment_text_format_count   (guint64                     count);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TriageAttachmentText, triage_attachment_text_free)

G_END_DECLS
