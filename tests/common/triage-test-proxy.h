/* triage-test-proxy.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* tests/chaos/partition-proxy.py in a process of its own: a TCP proxy on
 * 127.0.0.1 that breaks the network on command (stall, heal, reset, …: the
 * script's header lists them). It dies with the test. */
typedef struct _TriageTestProxy TriageTestProxy;

/* The proxy to @upstream: a port on 127.0.0.1, or the path of a Unix socket. */
TriageTestProxy *triage_test_proxy_new      (const char      *upstream);
/* "http://127.0.0.1:PORT" */
const char      *triage_test_proxy_get_url  (TriageTestProxy *self);
guint            triage_test_proxy_get_port (TriageTestProxy *self);
/* Sends @command and waits until the proxy has done it ("ok COMMAND"). */
void             triage_test_proxy_command  (TriageTestProxy *self,
                                             const char      *command);
/* Ends the proxy (its standard input closed) and waits for it. */
void             triage_test_proxy_free     (TriageTestProxy *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TriageTestProxy, triage_test_proxy_free)

G_END_DECLS
