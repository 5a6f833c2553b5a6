/* notifyd-test-log.h — bubbles as tests/fake-notifyd.py saw them
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * For tests run under tests/fake-notifyd.py (FAKE_NOTIFYD_LOG names its
 * log): its log read back, waits for what it logs, and its control
 * interface (a button pressed, a bubble closed as the person would).
 */

#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

JsonNode   *notifyd_read_log       (void);
JsonObject *notifyd_find_event     (JsonNode    *log,
                                    const char  *kind,
                                    const char  *summary_part,
                                    guint        id);
JsonObject *notifyd_wait_event     (const char  *kind,
                                    const char  *summary_part,
                                    guint        id,
                                    JsonNode   **log_out);
JsonObject *notifyd_wait_body      (guint        id,
                                    const char  *body,
                                    JsonNode   **log_out);
JsonObject *notifyd_wait_replaced  (guint        id,
                                    JsonNode   **log_out);
void        notifyd_press          (guint        id,
                                    const char  *key);
void        notifyd_close          (guint        id);
gboolean    notifyd_has_capability (const char  *capability);
gboolean    notifyd_skip_without   (void);
