/* atp.h — libatp, the Agent Triage Protocol core (no GTK)
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "atp-error.h"
#include "atp-types.h"
#include "atp-json.h"
#include "atp-notification.h"
#include "atp-action.h"
#include "atp-response.h"
#include "atp-message.h"
