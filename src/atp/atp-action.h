/* atp-action.h — one action's definition, on its own
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "atp-notification.h"

G_BEGIN_DECLS

AtpAction *atp_action_new_from_json (JsonNode   *node,
                                     GError    **error);
void       atp_action_free          (AtpAction  *action);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AtpAction, atp_action_free)

G_END_DECLS
