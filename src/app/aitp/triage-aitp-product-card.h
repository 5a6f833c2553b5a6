/* triage-aitp-product-card.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "triage-aitp-picture.h"
#include "triage-aitp-protocol.h"

G_BEGIN_DECLS

#define TRIAGE_TYPE_AITP_PRODUCT_CARD (triage_aitp_product_card_get_type ())

G_DECLARE_FINAL_TYPE (TriageAitpProductCard, triage_aitp_product_card, TRIAGE, AITP_PRODUCT_CARD, GtkWidget)

GtkWidget           *triage_aitp_product_card_new            (AtpAitpOption         *product,
                                                              GDateTime             *now);
const AtpAitpOption *triage_aitp_product_card_get_product    (TriageAitpProductCard *self);
const AtpAitpOption *triage_aitp_product_card_get_option     (TriageAitpProductCard *self);
gboolean             triage_aitp_product_card_get_available  (TriageAitpProductCard *self);
gboolean             triage_aitp_product_card_get_chosen     (TriageAitpProductCard *self);
void                 triage_aitp_product_card_set_chosen     (TriageAitpProductCard *self,
                                                              gboolean               chosen);
gboolean             triage_aitp_product_card_get_choice     (TriageAitpProductCard *self,
                                                              TriageAitpChoice      *choice);
void                 triage_aitp_product_card_select_variant (TriageAitpProductCard *self,
                                                              const char            *variant_id);
void                 triage_aitp_product_card_set_quantity   (TriageAitpProductCard *self,
                                                              guint                  quantity);
void                 triage_aitp_product_card_set_editable   (TriageAitpProductCard *self,
                                                              gboolean               editable);
TriageAitpPicture   *triage_aitp_product_card_get_picture    (TriageAitpProductCard *self);

G_END_DECLS
