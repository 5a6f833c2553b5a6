/* triage-server-address.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

char *triage_server_address_dup_problem (const char *url);

G_END_DECLS
