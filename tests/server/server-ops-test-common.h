/* server-ops-test-common.h — the fixture and probes test-server-ops's parts share
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "server-test-util.h"
#include "triage-test-postgres.h"

G_BEGIN_DECLS

typedef struct
{
  TriageTestServer *server;
  char             *alice;      /* a user token */
  char             *key;        /* a service for alice */
} ServerOpsFixture;

void     server_ops_test_fixture_setup    (ServerOpsFixture *fixture,
                                           gconstpointer     data);
void     server_ops_test_fixture_teardown (ServerOpsFixture *fixture,
                                           gconstpointer     data);
void     server_ops_test_assert_probe     (TriageTestServer *server,
                                           const char       *path,
                                           guint             status,
                                           const char       *state);
gboolean server_ops_test_readyz_says      (TriageTestServer *server,
                                           const char       *state);

/* test-server-ops-database.c: the database taken away, emptied, restored
 * under the server, and a role that only writes. */
void     server_ops_test_add_database     (void);

G_END_DECLS
