/* attachment-test-server.h — tests/attachments/attachment-server.py, run for a test
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef struct _AttachmentTestServer AttachmentTestServer;

AttachmentTestServer *attachment_test_server_start          (void);
char                 *attachment_test_server_uri            (AttachmentTestServer *server,
                                                             const char           *path);
guint                 attachment_test_server_count_requests (AttachmentTestServer *server,
                                                             const char           *path);
void                  attachment_test_server_stop           (AttachmentTestServer *server);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AttachmentTestServer, attachment_test_server_stop)

G_END_DECLS
