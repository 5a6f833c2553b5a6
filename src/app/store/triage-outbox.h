/* triage-outbox.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "atp-client.h"
#include "triage-store.h"

G_BEGIN_DECLS

#define TRIAGE_TYPE_OUTBOX (triage_outbox_get_type ())

G_DECLARE_FINAL_TYPE (TriageOutbox, triage_outbox, TRIAGE, OUTBOX, GObject)

TriageOutbox *triage_outbox_new            (TriageStore          *store);
void          triage_outbox_set_client     (TriageOutbox         *self,
                                            AtpClient            *client);
void          triage_outbox_set_online     (TriageOutbox         *self,
                                            gboolean              online);
guint         triage_outbox_get_n_pending  (TriageOutbox         *self);
gboolean      triage_outbox_has_answer     (TriageOutbox         *self,
                                            const char           *notification_id);
gboolean      triage_outbox_answer_failed  (TriageOutbox         *self,
                                            const char           *notification_id);
gboolean      triage_outbox_answer_queued  (TriageOutbox         *self,
                                            const char           *notification_id);

void          triage_outbox_load_async     (TriageOutbox         *self,
                                            GCancellable         *cancellable,
                                            GAsyncReadyCallback   callback,
                                            gpointer              user_data);
gboolean      triage_outbox_load_finish    (TriageOutbox         *self,
                                            GAsyncResult         *result,
                                            GError              **error);

void          triage_outbox_submit_async   (TriageOutbox         *self,
                                            const char           *notification_id,
                                            const char           *action_id,
                                            JsonNode             *response_data,
                                            GCancellable         *cancellable,
                                            GAsyncReadyCallback   callback,
                                            gpointer              user_data);
gboolean      triage_outbox_submit_finish  (TriageOutbox         *self,
                                            GAsyncResult         *result,
                                            GError              **error);

void          triage_outbox_flush          (TriageOutbox         *self);

G_END_DECLS
