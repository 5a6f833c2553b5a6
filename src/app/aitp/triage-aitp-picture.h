/* triage-aitp-picture.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define TRIAGE_TYPE_AITP_PICTURE (triage_aitp_picture_get_type ())

G_DECLARE_FINAL_TYPE (TriageAitpPicture, triage_aitp_picture, TRIAGE, AITP_PICTURE, GtkWidget)

GtkWidget  *triage_aitp_picture_new       (const char        *url,
                                           const char        *description,
                                           int                size);
const char *triage_aitp_picture_get_url   (TriageAitpPicture *self);
void        triage_aitp_picture_set_url   (TriageAitpPicture *self,
                                           const char        *url,
                                           const char        *description);
void        triage_aitp_picture_take      (TriageAitpPicture *self,
                                           const char        *url,
                                           GdkPaintable      *image,
                                           const char        *error_message);
gboolean    triage_aitp_picture_get_shown (TriageAitpPicture *self);

G_END_DECLS
