/* desk-test-server.h — tests/desk/attachment-server.py, run for a test
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef struct _DeskTestServer DeskTestServer;

DeskTestServer *desk_test_server_start          (void);
char           *desk_test_server_uri            (DeskTestServer *server,
                                                 const char     *path);
guint           desk_test_server_count_requests (DeskTestServer *server,
                                                 const char     *path);
void            desk_test_server_stop           (DeskTestServer *server);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DeskTestServer, desk_test_server_stop)

G_END_DECLS
