/* service-request-test-common.h — what the files of test-service-request share: a
 * real triage-server on a Unix socket, a person's and a service's libatp clients
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <signal.h>
#include <string.h>
#include <gio/gunixsocketaddress.h>

#include "atp.h"
#include "atp-stream.h"
#include "triage-service-request.h"
#include "triage-test-server.h"

/* ATP's own endpoints stand in for another protocol's: the JSON mode knows
 * only paths and the `status` member. */
#define SERVICE_REQUEST_COLLECTION "/api/v1/notifications"

typedef struct
{
  TriageTestServer *server;
  AtpClient        *person;
  AtpClient        *service;
} ServiceRequestFixture;

void  service_request_test_result_cb (GObject      *object,
                                     GAsyncResult *result,
                                     gpointer      user_data);
void  service_request_test_setup     (ServiceRequestFixture *fixture,
                                     gconstpointer          data);
void  service_request_test_teardown  (ServiceRequestFixture *fixture,
                                     gconstpointer          data);
char *service_request_test_new_body  (const char *id,
                                     const char *title);
/* test-service-request-withdraw.c: withdrawals. */
void  service_request_test_add_withdraw (void);
