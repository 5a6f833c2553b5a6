/* fuzz-common.c — what every libFuzzer target of libatp shares
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "fuzz-common.h"

/* A warning or critical from GLib or libatp is a finding too: abort, so that
 * libFuzzer keeps the input (fatal-warnings would raise SIGTRAP instead). */
static GLogWriterOutput
abort_on_warning (GLogLevelFlags   level,
                  const GLogField *fields,
                  gsize            n_fields,
                  gpointer         user_data)
{
  if (level & (G_LOG_LEVEL_ERROR | G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING))
    {
      g_log_writer_standard_streams (level, fields, n_fields, user_data);
      abort ();
    }
  return G_LOG_WRITER_HANDLED;
}

int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  g_log_set_writer_func (abort_on_warning, NULL, NULL);
  return 0;
}
