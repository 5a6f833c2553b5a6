/* triage-inbox-model.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "triage-request.h"

G_BEGIN_DECLS

#define TRIAGE_TYPE_INBOX_MODEL (triage_inbox_model_get_type ())

G_DECLARE_FINAL_TYPE (TriageInboxModel, triage_inbox_model, TRIAGE, INBOX_MODEL, GObject)

TriageInboxModel *triage_inbox_model_new         (void);
TriageRequest    *triage_inbox_model_add         (TriageInboxModel *self,
                                                  AtpNotification  *notification,
                                                  gboolean         *is_new);
TriageRequest    *triage_inbox_model_lookup      (TriageInboxModel *self,
                                                  const char       *notification_id);
TriageRequest    *triage_inbox_model_remove      (TriageInboxModel *self,
                                                  const char       *notification_id);
gboolean          triage_inbox_model_find        (TriageInboxModel *self,
                                                  const char       *notification_id,
                                                  guint            *position);
guint             triage_inbox_model_get_n_waiting (TriageInboxModel *self);
guint             triage_inbox_model_count_urgent (TriageInboxModel *self,
                                                   GDateTime        *now);
GPtrArray        *triage_inbox_model_dup_ids     (TriageInboxModel *self);
void              triage_inbox_model_hold        (TriageInboxModel *self);
void              triage_inbox_model_release     (TriageInboxModel *self);
gboolean          triage_inbox_model_is_held     (TriageInboxModel *self);

G_END_DECLS
