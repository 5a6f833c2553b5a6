/* stream-test-common.h — what the parts of test-stream share: the fixture and its helpers
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "net-test-common.h"

/* What the owner of a stream sees */

typedef struct
{
  NetFixture  net;
  AtpStream  *stream;
  GHashTable *received;      /* id → number of notification-received */
  GPtrArray  *order;         /* ids in the order received */
  GPtrArray  *updates;       /* AtpStatusUpdate* */
  GPtrArray  *pending;       /* ids of the last resynced set */
  guint       resyncs;
  guint       connecting;    /* times the state became CONNECTING */
  guint       connected;     /* times it became CONNECTED */
} StreamFixture;

AtpStream       *stream_test_new_stream       (StreamFixture *fixture,
                                               AtpClient     *client,
                                               gboolean       watch_system);
void             stream_test_on_state_changed (AtpStream     *stream,
                                               GParamSpec    *pspec,
                                               StreamFixture *fixture);
void             stream_test_setup            (StreamFixture *fixture,
                                               gconstpointer  data);
void             stream_test_teardown         (StreamFixture *fixture,
                                               gconstpointer  data);
guint            stream_test_received_count   (StreamFixture *fixture,
                                               const char    *id);
gboolean         stream_test_pending_has      (StreamFixture *fixture,
                                               const char    *id);
AtpStatusUpdate *stream_test_update_for       (StreamFixture *fixture,
                                               const char    *id,
                                               AtpStatus      status);

#define stream_test_wait_state(fixture, wanted) \
  net_test_wait_until (atp_stream_get_state ((fixture)->stream) == (wanted), "state " #wanted)

#define STREAM_TEST_ADD(path, args, func) \
  g_test_add (path, StreamFixture, args, stream_test_setup, func, stream_test_teardown)

/* Each part of test-stream adds its tests; main() calls them in this order,
 * so the test paths and their order stay as they were in one file. */
void         stream_test_add_limits   (void);
void         stream_test_add_wake     (void);
void         stream_test_add_network  (void);

/* Before any test: the test host trusted and resolved. */
void         stream_test_use_test_host (void);
