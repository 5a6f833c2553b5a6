/* attachment-view-common.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The fixture, helpers and tests of test-attachment-view, one executable
 * built from several files.
 */

#pragma once

#include <glib/gstdio.h>
#include <gtksourceview/gtksource.h>
#include <unistd.h>

#include "attachment-test-server.h"
#include "ui-test-util.h"
#include "triage-attachment-fetch.h"
#include "triage-attachment-file.h"
#include "triage-attachment-view.h"
#include "triage-attachment-page.h"
#include "triage-attachment-error.h"
#include "triage-image-decoder.h"
#include "triage-text-preview.h"

G_BEGIN_DECLS

typedef struct
{
  GtkWidget            *window;
  TriageAttachmentView *view;
  AttachmentTestServer       *server;
} Fixture;

/* Polls @condition, waking up at least every 10 ms, for at most 15 s. */
#define WAIT_UNTIL(condition) \
  G_STMT_START { \
    guint _watchdog = g_timeout_add_seconds (15, attachment_view_test_watchdog_cb, \
                                             (gpointer) #condition); \
    guint _tick = g_timeout_add (10, attachment_view_test_tick_cb, NULL); \
    while (!(condition)) \
      g_main_context_iteration (NULL, TRUE); \
    g_source_remove (_tick); \
    g_source_remove (_watchdog); \
  } G_STMT_END

gboolean attachment_view_test_watchdog_cb (gpointer user_data);
gboolean attachment_view_test_tick_cb (gpointer user_data);

void attachment_view_test_setup (Fixture       *fixture,
                                 gconstpointer  data);

void attachment_view_test_teardown (Fixture       *fixture,
                                    gconstpointer  data);

void attachment_view_test_attachment_free (AtpAttachment *attachment);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (AtpAttachment, attachment_view_test_attachment_free)

AtpAttachment *attachment_view_test_inline (const char *type,
                                            const char *description,
                                            const void *data,
                                            gsize       size);

AtpAttachment *attachment_view_test_uri (const char *type,
                                         const char *description,
                                         const char *uri);

AttachmentTestServer *attachment_view_test_get_server (Fixture *fixture);

char *attachment_view_test_server_uri (Fixture    *fixture,
                                       const char *path);

guint attachment_view_test_requests (Fixture *fixture);

void attachment_view_test_show (Fixture             *fixture,
                                const AtpAttachment *attachment);

void attachment_view_test_wait_for_kind (Fixture              *fixture,
                                         TriageAttachmentKind  kind);

GtkWidget *attachment_view_test_find_widget (GtkWidget  *root,
                                             gboolean  (*match) (GtkWidget *, gconstpointer),
                                             gconstpointer data);

gboolean attachment_view_test_label_contains (GtkWidget     *widget,
                                              gconstpointer  text);

gboolean attachment_view_test_label_is (GtkWidget     *widget,
                                        gconstpointer  text);

gboolean attachment_view_test_button_labelled (GtkWidget     *widget,
                                               gconstpointer  label);

GtkLabel *attachment_view_test_find_label (Fixture    *fixture,
                                           const char *text);

gboolean attachment_view_test_button_usable (Fixture    *fixture,
                                             const char *label);

void attachment_view_test_assert_text (Fixture    *fixture,
                                       const char *expected);

void attachment_view_test_assert_unhyphenated (Fixture *fixture);

GBytes *attachment_view_test_make_image (int         width,
                                         int         height,
                                         const char *format);

/* attachment-view-inline.c */
void attachment_view_test_text (Fixture       *fixture,
                                gconstpointer  data);
void attachment_view_test_json (Fixture       *fixture,
                                gconstpointer  data);
void attachment_view_test_code (Fixture       *fixture,
                                gconstpointer  data);
void attachment_view_test_code_view_settings (Fixture       *fixture,
                                              gconstpointer  data);
void attachment_view_test_html_is_source (Fixture       *fixture,
                                          gconstpointer  data);
void attachment_view_test_image (Fixture       *fixture,
                                 gconstpointer  data);
void attachment_view_test_file (Fixture       *fixture,
                                gconstpointer  data);
void attachment_view_test_bad_base64 (Fixture       *fixture,
                                      gconstpointer  data);
void attachment_view_test_huge_image_header (Fixture       *fixture,
                                             gconstpointer  data);
void attachment_view_test_invalid_utf8 (Fixture       *fixture,
                                        gconstpointer  data);
void attachment_view_test_huge_text_truncated (Fixture       *fixture,
                                               gconstpointer  data);
void attachment_view_test_type_mismatch (Fixture       *fixture,
                                         gconstpointer  data);
void attachment_view_test_whole_lines_copy (Fixture       *fixture,
                                            gconstpointer  data);
void attachment_view_test_find_named (Fixture       *fixture,
                                      gconstpointer  data);

/* attachment-view-uri.c */
void attachment_view_test_uri_refused (Fixture       *fixture,
                                       gconstpointer  data);
void attachment_view_test_uri_host_emphasised (Fixture       *fixture,
                                               gconstpointer  data);
void attachment_view_test_uri_load (Fixture       *fixture,
                                    gconstpointer  data);
void attachment_view_test_uri_redirect_elsewhere (Fixture       *fixture,
                                                  gconstpointer  data);
void attachment_view_test_uri_size_limit (Fixture       *fixture,
                                          gconstpointer  data);
void attachment_view_test_uri_type_mismatch (Fixture       *fixture,
                                             gconstpointer  data);
void attachment_view_test_uri_cancel (Fixture       *fixture,
                                      gconstpointer  data);

/* attachment-view-save.c */
void attachment_view_test_save (Fixture       *fixture,
                                gconstpointer  data);
void attachment_view_test_save_loaded_uri (Fixture       *fixture,
                                           gconstpointer  data);
void attachment_view_test_save_unwritable (Fixture       *fixture,
                                           gconstpointer  data);
void attachment_view_test_open_with_copy_name (Fixture       *fixture,
                                               gconstpointer  data);
void attachment_view_test_open_with_content_type (Fixture       *fixture,
                                                  gconstpointer  data);

/* attachment-view-page.c */
void attachment_view_test_page (void);
void attachment_view_test_page_narrow (void);
void attachment_view_test_shortcuts_listed (void);

G_END_DECLS
