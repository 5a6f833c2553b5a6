/* triage-draft-keeper.h — what a request view holds and was not sent, kept in memory and on disk
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "triage-store.h"

G_BEGIN_DECLS

/**
 * TriageDraftDupFunc:
 * @owner: the view
 *
 * Returns: (transfer full) (nullable): what the view's controls hold, or
 *   %NULL when they hold nothing
 */
typedef JsonObject *(*TriageDraftDupFunc) (gpointer owner);

/**
 * TriageDraftPutBackFunc:
 * @owner: the view
 * @draft: a draft @owner's #TriageDraftDupFunc gave for the request shown
 *
 * Puts @draft back, only into the controls that hold nothing yet.
 */
typedef void (*TriageDraftPutBackFunc) (gpointer    owner,
                                        JsonObject *draft);

#define TRIAGE_TYPE_DRAFT_KEEPER (triage_draft_keeper_get_type ())

G_DECLARE_FINAL_TYPE (TriageDraftKeeper, triage_draft_keeper, TRIAGE, DRAFT_KEEPER, GObject)

TriageDraftKeeper *triage_draft_keeper_new           (gpointer                owner,
                                                      TriageDraftDupFunc      dup_entered,
                                                      TriageDraftPutBackFunc  put_back);
TriageStore       *triage_draft_keeper_get_store     (TriageDraftKeeper      *self);
gboolean           triage_draft_keeper_set_store     (TriageDraftKeeper      *self,
                                                      TriageStore            *store);
void               triage_draft_keeper_leave         (TriageDraftKeeper      *self);
void               triage_draft_keeper_show          (TriageDraftKeeper      *self,
                                                      const char             *request_id);
void               triage_draft_keeper_changed       (TriageDraftKeeper      *self);
void               triage_draft_keeper_flush         (TriageDraftKeeper      *self);
void               triage_draft_keeper_set_read_only (TriageDraftKeeper      *self,
                                                      gboolean                read_only);
void               triage_draft_keeper_close         (TriageDraftKeeper      *self);

/* For the tests: the draft kept in memory for @request_id, and whether one waits to be written. */
JsonObject        *triage_draft_keeper_lookup        (TriageDraftKeeper      *self,
                                                      const char             *request_id);
gboolean           triage_draft_keeper_get_pending   (TriageDraftKeeper      *self);
gboolean           triage_draft_keeper_get_write_failed (TriageDraftKeeper   *self);

G_END_DECLS
