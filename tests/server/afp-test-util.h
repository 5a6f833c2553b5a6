/* afp-test-util.h — what the AFP server tests share
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "atp-afp.h"

/* A Request Object near the 400 KiB cap, of @fill characters. */
static inline char *
afp_test_large_request (gint64 iteration,
                        char   fill)
{
  g_autofree char *content = g_strnfill (ATP_AFP_MAX_REQUEST_SIZE - 200, fill);

  return g_strdup_printf ("{\"iteration\":%" G_GINT64_FORMAT ",\"artifact\":{\"media_type\":"
                          "\"text/plain\",\"content\":\"%s\"}}", iteration, content);
}
