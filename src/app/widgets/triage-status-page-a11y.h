/* triage-status-page-a11y.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

void triage_status_page_name_scroller (AdwStatusPage *page);

G_END_DECLS
