/* triage-server.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

int triage_server_run (int argc, char **argv);

G_END_DECLS
