/* triage-lookups.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "atp-client.h"
#include "triage-inbox-model.h"
#include "triage-outbox.h"

G_BEGIN_DECLS

/* At most this many lookups at once (a server limits how fast one client may ask). */
#define TRIAGE_LOOKUPS_MAX_RUNNING 4
/* A lookup that failed for now (busy, limited, unreachable) is asked again after this. */
#define TRIAGE_LOOKUPS_RETRY_SECONDS 10

#define TRIAGE_TYPE_LOOKUPS (triage_lookups_get_type ())

G_DECLARE_FINAL_TYPE (TriageLookups, triage_lookups, TRIAGE, LOOKUPS, GObject)

TriageLookups *triage_lookups_new            (TriageInboxModel *inbox,
                                              TriageOutbox     *outbox);
void           triage_lookups_set_client     (TriageLookups    *self,
                                              AtpClient        *client);
void           triage_lookups_resynced       (TriageLookups    *self,
                                              GPtrArray        *pending);
void           triage_lookups_fetch_response (TriageLookups    *self,
                                              const char       *notification_id);
guint          triage_lookups_get_n_waiting  (TriageLookups    *self);

G_END_DECLS
