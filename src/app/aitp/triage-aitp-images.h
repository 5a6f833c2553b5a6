/* triage-aitp-images.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gdk/gdk.h>
#include <libsoup/soup.h>

#include "atp-aitp.h"

G_BEGIN_DECLS

/* Limits for a product's picture. */
#define TRIAGE_AITP_IMAGE_MAX_SIZE     (5 * 1024 * 1024)
#define TRIAGE_AITP_IMAGE_TIMEOUT      20    /* seconds, the whole download */
#define TRIAGE_AITP_IMAGE_DISPLAY_SIZE 256   /* pixels, the longest side decoded */

#define TRIAGE_TYPE_AITP_IMAGES (triage_aitp_images_get_type ())

G_DECLARE_FINAL_TYPE (TriageAitpImages, triage_aitp_images, TRIAGE, AITP_IMAGES, GObject)

TriageAitpImages *triage_aitp_images_new          (void);
void              triage_aitp_images_set_request  (TriageAitpImages *self,
                                                   AtpAitpRequest   *request);
GStrv             triage_aitp_images_dup_hosts    (TriageAitpImages *self);
gboolean          triage_aitp_images_get_shown    (TriageAitpImages *self,
                                                   const char       *host);
void              triage_aitp_images_show         (TriageAitpImages *self,
                                                   const char       *host);
void              triage_aitp_images_set_session  (TriageAitpImages *self,
                                                   SoupSession      *session);
guint             triage_aitp_images_get_n_loading (TriageAitpImages *self);

G_END_DECLS
