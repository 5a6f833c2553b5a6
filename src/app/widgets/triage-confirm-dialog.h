/* triage-confirm-dialog.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "atp.h"

G_BEGIN_DECLS

#define TRIAGE_CONFIRM_RESPONSE_CANCEL  "cancel"
#define TRIAGE_CONFIRM_RESPONSE_CONFIRM "confirm"

/* Milliseconds after the dialog appears during which it cannot be confirmed. */
#define TRIAGE_CONFIRM_DEFAULT_GRACE_PERIOD 800

#define TRIAGE_TYPE_CONFIRM_DIALOG (triage_confirm_dialog_get_type ())

G_DECLARE_FINAL_TYPE (TriageConfirmDialog, triage_confirm_dialog, TRIAGE, CONFIRM_DIALOG, AdwMessageDialog)

TriageConfirmDialog *triage_confirm_dialog_new_full         (GtkWindow           *parent,
                                                             const char          *heading,
                                                             const char          *body,
                                                             const char          *confirm_label);
TriageConfirmDialog *triage_confirm_dialog_new              (GtkWindow           *parent,
                                                             const char          *service_name,
                                                             const AtpAction     *action,
                                                             JsonNode            *response_data);
guint                triage_confirm_dialog_get_grace_period (TriageConfirmDialog *self);
void                 triage_confirm_dialog_set_grace_period (TriageConfirmDialog *self,
                                                             guint                msec);
gboolean             triage_confirm_dialog_get_armed        (TriageConfirmDialog *self);
void                 triage_confirm_dialog_run_async        (TriageConfirmDialog *self,
                                                             GCancellable        *cancellable,
                                                             GAsyncReadyCallback  callback,
                                                             gpointer             user_data);
gboolean             triage_confirm_dialog_run_finish       (TriageConfirmDialog *self,
                                                             GAsyncResult        *result,
                                                             GError             **error);

G_END_DECLS
