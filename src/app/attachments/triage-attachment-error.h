/* triage-attachment-error.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define TRIAGE_ATTACHMENT_ERROR (triage_attachment_error_quark ())

/**
 * TriageAttachmentError:
 * @TRIAGE_ATTACHMENT_ERROR_INVALID_DATA: inline data that is not valid base64
 * @TRIAGE_ATTACHMENT_ERROR_TOO_LARGE: content over a size limit (encoded image, download)
 * @TRIAGE_ATTACHMENT_ERROR_IMAGE_TOO_LARGE: image dimensions over the limits, refused from its header
 * @TRIAGE_ATTACHMENT_ERROR_BAD_IMAGE: an image that cannot be decoded, or of a format not shown
 * @TRIAGE_ATTACHMENT_ERROR_INVALID_URI: an address that does not parse
 * @TRIAGE_ATTACHMENT_ERROR_URI_REFUSED: an address Triage never loads (scheme, plain http to
 *   another computer, credentials)
 * @TRIAGE_ATTACHMENT_ERROR_HTTP: the server answered with a non-2xx status
 * @TRIAGE_ATTACHMENT_ERROR_TIMED_OUT: the download took longer than allowed
 * @TRIAGE_ATTACHMENT_ERROR_TOO_MANY_REDIRECTS: more redirects than allowed
 * @TRIAGE_ATTACHMENT_ERROR_REDIRECTED: the server sent the download on to another host, which
 *   is not loaded unless the user chooses that address
 *
 * Failures of attachment previews and downloads. Every message names the
 * problem in words a person can act on.
 */
typedef enum
{
  TRIAGE_ATTACHMENT_ERROR_INVALID_DATA,
  TRIAGE_ATTACHMENT_ERROR_TOO_LARGE,
  TRIAGE_ATTACHMENT_ERROR_IMAGE_TOO_LARGE,
  TRIAGE_ATTACHMENT_ERROR_BAD_IMAGE,
  TRIAGE_ATTACHMENT_ERROR_INVALID_URI,
  TRIAGE_ATTACHMENT_ERROR_URI_REFUSED,
  TRIAGE_ATTACHMENT_ERROR_HTTP,
  TRIAGE_ATTACHMENT_ERROR_TIMED_OUT,
  TRIAGE_ATTACHMENT_ERROR_TOO_MANY_REDIRECTS,
  TRIAGE_ATTACHMENT_ERROR_REDIRECTED,
} TriageAttachmentError;

GQuark triage_attachment_error_quark (void);

G_END_DECLS
