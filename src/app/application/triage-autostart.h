/* triage-autostart.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define TRIAGE_TYPE_AUTOSTART (triage_autostart_get_type ())

G_DECLARE_FINAL_TYPE (TriageAutostart, triage_autostart, TRIAGE, AUTOSTART, GObject)

TriageAutostart *triage_autostart_new            (GSettings       *settings);
char            *triage_autostart_dup_path       (void);
gboolean         triage_autostart_get_effective  (GSettings       *settings);

G_END_DECLS
