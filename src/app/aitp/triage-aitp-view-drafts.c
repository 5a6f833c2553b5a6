/* triage-aitp-view-drafts.c — what the person chose and did not send
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-aitp"

#include "triage-aitp-product-card.h"
#include "triage-aitp-view-private.h"

/*
 * Drafts: what the options hold and was not sent, kept by a
 * TriageDraftKeeper (triage-draft-keeper.c: when it is written, read back
 * and dropped) in memory and, with the view's "store", on disk, as ATP's
 * decision view keeps what its cards hold. A draft is an object keyed by
 * option id (a product's own id for a product card):
 *
 *   "<option id>": true                   checked, picked in the list or the drop-down
 *   "<product id>": { "id": "<variant or product id>", "quantity": 2, "chosen": true }
 *                                         a product card changed from how it opened
 *
 * A confirmation's buttons answer at once: nothing to keep. Read back, an
 * entry goes only into a control still as it opened: never over what the
 * person did meanwhile.
 */

#define DRAFT_CHOSEN "chosen"
#define DRAFT_QUANTITY "quantity"
#define DRAFT_VARIANT "id"

static const char *
option_id_at (TriageAitpView *self,
              guint           index)
{
  return ((const AtpAitpOption *) g_ptr_array_index (self->request->options, index))->id;
}

/* A card as it opened: not chosen, one of it, its first variant. */
static gboolean
card_untouched (TriageAitpProductCard *card)
{
  const AtpAitpOption *product = triage_aitp_product_card_get_product (card);
  TriageAitpChoice choice;
  gboolean chosen = triage_aitp_product_card_get_choice (card, &choice);
  const char *first = product->variants->len > 0
                      ? ((const AtpAitpOption *) g_ptr_array_index (product->variants, 0))->id
                      : product->id;

  return !chosen && choice.quantity <= 1 && g_strcmp0 (choice.id, first) == 0;
}

static JsonObject *
dup_card (TriageAitpProductCard *card)
{
  JsonObject *entered = json_object_new ();
  TriageAitpChoice choice;
  gboolean chosen = triage_aitp_product_card_get_choice (card, &choice);

  json_object_set_string_member (entered, DRAFT_VARIANT, choice.id);
  json_object_set_int_member (entered, DRAFT_QUANTITY, (gint64) choice.quantity);
  json_object_set_boolean_member (entered, DRAFT_CHOSEN, chosen);
  return entered;
}

/* What the options hold, or %NULL when they are as they opened. */
static JsonObject *
dup_entered (gpointer owner)
{
  TriageAitpView *self = owner;
  g_autoptr(JsonObject) draft = json_object_new ();

  if (self->request == NULL)
    return NULL;

  if (self->combo != NULL)
    {
      guint selected = adw_combo_row_get_selected (self->combo);

      if (selected < self->request->options->len)
        json_object_set_boolean_member (draft, option_id_at (self, selected), TRUE);
    }

  for (guint i = 0; i < self->option_widgets->len; i++)
    {
      GtkWidget *widget = g_ptr_array_index (self->option_widgets, i);
      const char *id = g_object_get_data (G_OBJECT (widget), TRIAGE_AITP_VIEW_OPTION_ID_KEY);

      if (TRIAGE_IS_AITP_PRODUCT_CARD (widget))
        {
          if (!card_untouched (TRIAGE_AITP_PRODUCT_CARD (widget)))
            json_object_set_object_member (draft, id, dup_card (TRIAGE_AITP_PRODUCT_CARD (widget)));
        }
      else if (GTK_IS_CHECK_BUTTON (widget) && gtk_check_button_get_active (GTK_CHECK_BUTTON (widget)))
        json_object_set_boolean_member (draft, id, TRUE);
    }

  return json_object_get_size (draft) > 0 ? g_steal_pointer (&draft) : NULL;
}

static void
put_back_card (TriageAitpProductCard *card,
               JsonObject            *entered)
{
  const char *variant = json_object_get_string_member_with_default (entered, DRAFT_VARIANT, NULL);
  gint64 quantity = json_object_get_int_member_with_default (entered, DRAFT_QUANTITY, 1);

  if (!card_untouched (card))
    return;

  if (variant != NULL)
    triage_aitp_product_card_select_variant (card, variant);
  triage_aitp_product_card_set_quantity (card, (guint) CLAMP (quantity, 1, G_MAXUINT));
  triage_aitp_product_card_set_chosen (card, json_object_get_boolean_member_with_default (entered, DRAFT_CHOSEN,
                                                                                         FALSE));
}

/* Whether one of the radio buttons is on: the person picked one already. */
static gboolean
radio_picked (TriageAitpView *self)
{
  for (guint i = 0; i < self->option_widgets->len; i++)
    {
      GtkWidget *widget = g_ptr_array_index (self->option_widgets, i);

      if (GTK_IS_CHECK_BUTTON (widget) && gtk_check_button_get_active (GTK_CHECK_BUTTON (widget)))
        return TRUE;
    }
  return FALSE;
}

static void
put_back (gpointer    owner,
          JsonObject *draft)
{
  TriageAitpView *self = owner;
  gboolean radio;

  if (self->request == NULL)
    return;

  if (self->combo != NULL)
    {
      if (adw_combo_row_get_selected (self->combo) < self->request->options->len)
        return;
      for (guint i = 0; i < self->request->options->len; i++)
        if (json_object_get_boolean_member_with_default (draft, option_id_at (self, i), FALSE))
          {
            adw_combo_row_set_selected (self->combo, i);
            break;
          }
      return;
    }

  /* One radio button on turns the others off: none is put back over a pick. */
  radio = self->request->type == ATP_AITP_DECISION_RADIO;
  if (radio && radio_picked (self))
    return;

  for (guint i = 0; i < self->option_widgets->len; i++)
    {
      GtkWidget *widget = g_ptr_array_index (self->option_widgets, i);
      const char *id = g_object_get_data (G_OBJECT (widget), TRIAGE_AITP_VIEW_OPTION_ID_KEY);
      JsonNode *entered = id != NULL ? json_object_get_member (draft, id) : NULL;

      if (entered == NULL)
        continue;

      if (TRIAGE_IS_AITP_PRODUCT_CARD (widget) && JSON_NODE_HOLDS_OBJECT (entered))
        put_back_card (TRIAGE_AITP_PRODUCT_CARD (widget), json_node_get_object (entered));
      else if (GTK_IS_CHECK_BUTTON (widget) && JSON_NODE_HOLDS_VALUE (entered) &&
               json_node_get_boolean (entered))
        gtk_check_button_set_active (GTK_CHECK_BUTTON (widget), TRUE);
    }
}

/**
 * _triage_aitp_view_new_drafts:
 *
 * Returns: (transfer full): the keeper of what the view's options hold
 */
TriageDraftKeeper *
_triage_aitp_view_new_drafts (TriageAitpView *self)
{
  return triage_draft_keeper_new (self, dup_entered, put_back);
}

/* TriageRequestView.get_drafts */
TriageDraftKeeper *
_triage_aitp_view_get_drafts (TriageRequestView *view)
{
  return TRIAGE_AITP_VIEW (view)->drafts;
}
