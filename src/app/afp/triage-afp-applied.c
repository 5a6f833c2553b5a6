/* triage-afp-applied.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-afp-applied"

#include <glib/gi18n.h>

#include "triage-afp-applied.h"
#include "triage-afp-applied-card.h"
#include "triage-afp-applied-item.h"
#include "triage-list-item-a11y.h"
#include "triage-scroll-chain.h"

/*
 * Iteration 2 and later: the person's earlier areas for improvement (their
 * latest feedback in the session), each beside what the agent says it did
 * with it (`applied_feedback`): accepted, partly applied or rejected, in a
 * word and an icon (never colour alone), its reason code and explanation;
 * or that the agent did not mention it. Decisions on ids the person never
 * gave are listed after (they are acknowledged as `unknown_id`). Each
 * earlier item offers "Carry Over" (::carry-over with the item's id): the
 * item joins this iteration's feedback with its id.
 *
 * An agent may report on as many items as a session issues ids
 * (ATP_AFP_MAX_APPLIED_ITEMS, 1,000): a card of wrapping labels each, all at
 * once, held the main loop for 13 s. The items are a list model
 * (TriageAfpAppliedItem) shown in recycled cards (TriageAfpAppliedCard) of
 * a one-column GtkGridView, which makes cards for what is on screen and a
 * few more (about 35; GTK 4.8's GtkListView keeps 200, which cost 450-520
 * ms of the main thread here, as the history found, triage-history-view.c),
 * in a scrolled window of a bounded height: a few items show whole, a long
 * list scrolls inside and does not make the review endless (the wheel goes
 * on to the page at its ends, triage-scroll-chain.c). The list is one stop
 * of Tab, its cards gone through with the arrows (Home and End to its
 * ends): a card's Carry Over takes the keyboard when it can, else its row,
 * named after the card for a screen reader.
 */

struct _TriageAfpApplied
{
  GtkBox        parent_instance;

  GtkWidget    *heading;
  GtkLabel     *intro;
  GtkWidget    *scroller;
  GtkWidget    *list;          /* a one-column GtkGridView of the cards */
  GListStore   *items;         /* TriageAfpAppliedItem */
  GHashTable   *earlier;       /* id → TriageAfpAppliedItem of the person's items (in items) */
  gboolean      editable;
};

G_DEFINE_FINAL_TYPE (TriageAfpApplied, triage_afp_applied, GTK_TYPE_BOX)

enum {
  CARRY_OVER,
  N_SIGNALS
};

static guint signals [N_SIGNALS];

static void
on_card_carry_over (TriageAfpApplied *self,
                    const char       *id)
{
  g_signal_emit (self, signals[CARRY_OVER], 0, id);
}

static void
on_card_setup (GtkSignalListItemFactory *factory,
               GtkListItem              *list_item,
               TriageAfpApplied         *self)
{
  GtkWidget *card = triage_afp_applied_card_new ();

  /* Nothing to activate: a card is read, and its Carry Over pressed. */
  gtk_list_item_set_activatable (list_item, FALSE);
  g_signal_connect_object (card, "carry-over", G_CALLBACK (on_card_carry_over), self, G_CONNECT_SWAPPED);
  triage_list_item_a11y_read_as_list_item (card);
  gtk_list_item_set_child (list_item, card);
}

static void
on_card_bind (GtkSignalListItemFactory *factory,
              GtkListItem              *list_item,
              TriageAfpApplied         *self)
{
  TriageAfpAppliedCard *card = TRIAGE_AFP_APPLIED_CARD (gtk_list_item_get_child (list_item));
  GtkWidget *row = gtk_widget_get_parent (GTK_WIDGET (card));
  g_autofree char *summary = NULL;

  triage_afp_applied_card_set_item (card, gtk_list_item_get_item (list_item));

  /* The row takes the keyboard when its card has no Carry Over to take it:
   * a screen reader says the row, which GTK 4.8 leaves nameless. */
  if (row == NULL)
    return;
  summary = triage_afp_applied_card_dup_summary (card);
  gtk_accessible_update_property (GTK_ACCESSIBLE (row),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, triage_afp_applied_card_get_title (card),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, summary,
                                  -1);
}

static void
on_card_unbind (GtkSignalListItemFactory *factory,
                GtkListItem              *list_item,
                TriageAfpApplied         *self)
{
  triage_afp_applied_card_set_item (TRIAGE_AFP_APPLIED_CARD (gtk_list_item_get_child (list_item)), NULL);
}

/* Tab and Shift+Tab leave the list from wherever the keyboard is in it:
 * GTK 4.8 takes Tab from row to row, a thousand presses past a thousand
 * items (4.12's GtkListView:tab-behavior can stop that; the history does
 * the same, triage_browse_tab_past_list ()). */
static gboolean
tab_past_list (GtkWidget *list,
               GVariant  *args,
               gpointer   user_data)
{
  /* On past the list as if it could not take the keyboard. */
  gtk_widget_set_can_focus (list, FALSE);
  g_signal_emit_by_name (list, "move-focus", (GtkDirectionType) g_variant_get_int32 (args));
  gtk_widget_set_can_focus (list, TRUE);

  return TRUE;
}

/**
 * triage_afp_applied_set_review:
 * @self: a #TriageAfpApplied
 * @review: (nullable): the review shown
 *
 * Lists the person's earlier items with the agent's decisions; hides
 * itself when there are none (a session's first review).
 */
void
triage_afp_applied_set_review (TriageAfpApplied *self,
                               AtpAfpReview     *review)
{
  GPtrArray *earlier;
  GPtrArray *applied;
  g_autofree char *intro = NULL;
  g_autofree char *iteration = NULL;
  g_autoptr(GHashTable) decisions = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);
  gboolean any_unknown = FALSE;

  g_return_if_fail (TRIAGE_IS_AFP_APPLIED (self));

  g_hash_table_remove_all (self->earlier);
  g_list_store_remove_all (self->items);
  earlier = review && review->latest_feedback ? review->latest_feedback->areas_for_improvement : NULL;
  applied = review ? review->request->applied_items : NULL;
  gtk_widget_set_visible (GTK_WIDGET (self), (earlier != NULL && earlier->len > 0) ||
                                             (applied != NULL && applied->len > 0));
  if (review == NULL)
    return;

  iteration = g_strdup_printf ("%" G_GINT64_FORMAT, review->latest_feedback_iteration);
  /* Translators: %s is the number of the iteration the person reviewed last */
  intro = review->latest_feedback != NULL
          ? g_strdup_printf (_("What the agent did with the areas for improvement you gave in iteration %s."), iteration)
          : g_strdup (_("The agent reports on feedback items you never gave."));
  gtk_label_set_label (self->intro, intro);

  /* The agent's first decision on each id. */
  for (guint i = applied != NULL ? applied->len : 0; i > 0; i--)
    {
      const AtpAfpAppliedItem *decision = applied->pdata[i - 1];

      g_hash_table_insert (decisions, decision->id, (gpointer) decision);
    }

  for (guint i = 0; earlier != NULL && i < earlier->len; i++)
    {
      const AtpAfpImprovement *area = earlier->pdata[i];
      const AtpAfpAppliedItem *decision = g_hash_table_lookup (decisions, area->id);
      TriageAfpAppliedItem *item = triage_afp_applied_item_new_earlier (review, area, decision);

      triage_afp_applied_item_set_editable (item, self->editable);
      g_hash_table_insert (self->earlier, area->id, item);
      g_ptr_array_add (items, item);
    }

  for (guint i = 0; applied != NULL && i < applied->len; i++)
    {
      const AtpAfpAppliedItem *decision = applied->pdata[i];

      if (g_hash_table_contains (self->earlier, decision->id))
        continue;

      g_ptr_array_add (items, triage_afp_applied_item_new_unknown (review, decision, !any_unknown));
      any_unknown = TRUE;
    }

  /* One change for the list, which then makes the cards it shows. */
  g_list_store_splice (self->items, 0, 0, items->pdata, items->len);
  gtk_adjustment_set_value (gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (self->scroller)), 0);
}

void
triage_afp_applied_sync_carried (TriageAfpApplied *self,
                                 GHashTable       *carried)
{
  GHashTableIter iter;
  gpointer id, item;

  g_return_if_fail (TRIAGE_IS_AFP_APPLIED (self));

  g_hash_table_iter_init (&iter, self->earlier);
  while (g_hash_table_iter_next (&iter, &id, &item))
    triage_afp_applied_item_set_carried (item, carried != NULL && g_hash_table_contains (carried, id));
}

void
triage_afp_applied_set_editable (TriageAfpApplied *self,
                                 gboolean          editable)
{
  GHashTableIter iter;
  gpointer item;

  g_return_if_fail (TRIAGE_IS_AFP_APPLIED (self));

  self->editable = editable;
  g_hash_table_iter_init (&iter, self->earlier);
  while (g_hash_table_iter_next (&iter, NULL, &item))
    triage_afp_applied_item_set_editable (item, editable);
}

static void
triage_afp_applied_dispose (GObject *object)
{
  TriageAfpApplied *self = TRIAGE_AFP_APPLIED (object);
  GtkWidget *child;

  if (self->earlier != NULL)
    g_hash_table_remove_all (self->earlier);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_box_remove (GTK_BOX (self), child);
  g_clear_object (&self->items);

  G_OBJECT_CLASS (triage_afp_applied_parent_class)->dispose (object);
}

static void
triage_afp_applied_finalize (GObject *object)
{
  TriageAfpApplied *self = TRIAGE_AFP_APPLIED (object);

  g_clear_pointer (&self->earlier, g_hash_table_unref);

  G_OBJECT_CLASS (triage_afp_applied_parent_class)->finalize (object);
}

static void
triage_afp_applied_class_init (TriageAfpAppliedClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = triage_afp_applied_dispose;
  object_class->finalize = triage_afp_applied_finalize;

  /**
   * TriageAfpApplied::carry-over:
   * @id: the earlier item's id
   *
   * The person keeps an earlier item for this iteration.
   */
  signals[CARRY_OVER] = g_signal_new ("carry-over", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                      0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
}

static GtkWidget *
list_new (TriageAfpApplied *self)
{
  g_autoptr(GtkListItemFactory) factory = gtk_signal_list_item_factory_new ();
  g_autoptr(GtkSelectionModel) model = GTK_SELECTION_MODEL (gtk_no_selection_new (g_object_ref (G_LIST_MODEL (self->items))));
  GtkEventController *keys = gtk_shortcut_controller_new ();
  static const struct { const char *trigger; GtkDirectionType direction; } tabs[] = {
    { "Tab|KP_Tab", GTK_DIR_TAB_FORWARD },
    { "<Shift>Tab|<Shift>KP_Tab", GTK_DIR_TAB_BACKWARD },
  };
  GtkWidget *view;

  g_signal_connect_object (factory, "setup", G_CALLBACK (on_card_setup), self, 0);
  g_signal_connect_object (factory, "bind", G_CALLBACK (on_card_bind), self, 0);
  g_signal_connect_object (factory, "unbind", G_CALLBACK (on_card_unbind), self, 0);

  /* A list of cards to a screen reader, as it looks, not GTK 4.8's grid
   * ("table, row 1 column 1"): its items are list items by
   * triage_list_item_a11y_read_as_list_item () in on_card_setup (). */
  view = g_object_new (GTK_TYPE_GRID_VIEW,
                       "accessible-role", GTK_ACCESSIBLE_ROLE_LIST,
                       "model", model,
                       "factory", factory,
                       "max-columns", 1,
                       NULL);
  gtk_widget_add_css_class (view, "afp-applied-list");
  gtk_accessible_update_relation (GTK_ACCESSIBLE (view),
                                  GTK_ACCESSIBLE_RELATION_LABELLED_BY, self->heading, NULL,
                                  -1);

  /* Before the rows and their buttons see the key, as the window's Tab would. */
  gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
  for (guint i = 0; i < G_N_ELEMENTS (tabs); i++)
    {
      GtkShortcut *shortcut = gtk_shortcut_new (gtk_shortcut_trigger_parse_string (tabs[i].trigger),
                                                gtk_callback_action_new (tab_past_list, NULL, NULL));

      gtk_shortcut_set_arguments (shortcut, g_variant_new_int32 (tabs[i].direction));
      gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (keys), shortcut);
    }
  gtk_widget_add_controller (view, keys);

  return view;
}

static GtkSizeRequestMode
height_for_width (GtkWidget *widget)
{
  return GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH;
}

/*
 * The scrolled window's height: its cards' (at most
 * TRIAGE_AFP_APPLIED_MAX_HEIGHT), so that a few show whole. GTK 4.8's list
 * and grid views measure their rows as if they had no width to wrap in
 * (they ask for no height for a width), a line a label; and the page around
 * has its content at its minimum height (its viewport's
 * GTK_SCROLL_MINIMUM), which for a scrolled window is its scrollbar's. The
 * cards are measured here at the list's width, until they pass the bound.
 */
static void
measure_cards (GtkWidget      *widget,
               GtkOrientation  orientation,
               int             for_size,
               int            *minimum,
               int            *natural,
               int            *minimum_baseline,
               int            *natural_baseline)
{
  GtkWidget *scroller = gtk_widget_get_first_child (widget);
  GtkWidget *list = gtk_scrolled_window_get_child (GTK_SCROLLED_WINDOW (scroller));
  int height = 0;

  gtk_widget_measure (scroller, orientation, for_size, minimum, natural, minimum_baseline, natural_baseline);
  if (orientation != GTK_ORIENTATION_VERTICAL)
    return;

  for (GtkWidget *row = gtk_widget_get_first_child (list);
       row != NULL && height < TRIAGE_AFP_APPLIED_MAX_HEIGHT;
       row = gtk_widget_get_next_sibling (row))
    {
      int row_height;

      if (!gtk_widget_should_layout (row))
        continue;
      gtk_widget_measure (row, GTK_ORIENTATION_VERTICAL, for_size, NULL, &row_height, NULL, NULL);
      height += row_height;
    }

  *minimum = *natural = CLAMP (height, *minimum, TRIAGE_AFP_APPLIED_MAX_HEIGHT);
}

static void
allocate_child (GtkWidget *widget,
                int        width,
                int        height,
                int        baseline)
{
  gtk_widget_allocate (gtk_widget_get_first_child (widget), width, height, baseline, NULL);
}

static void
triage_afp_applied_init (TriageAfpApplied *self)
{
  GtkWidget *cards;

  self->items = g_list_store_new (TRIAGE_TYPE_AFP_APPLIED_ITEM);
  self->earlier = g_hash_table_new (g_str_hash, g_str_equal);
  self->editable = TRUE;

  gtk_orientable_set_orientation (GTK_ORIENTABLE (self), GTK_ORIENTATION_VERTICAL);
  gtk_box_set_spacing (GTK_BOX (self), 6);

  self->heading = g_object_new (GTK_TYPE_LABEL, "label", _("Your Earlier Feedback"), "xalign", 0.0f, "wrap", TRUE,
                                "accessible-role", GTK_ACCESSIBLE_ROLE_HEADING, NULL);
  gtk_widget_add_css_class (self->heading, "heading");
  gtk_box_append (GTK_BOX (self), self->heading);
  self->intro = GTK_LABEL (g_object_new (GTK_TYPE_LABEL, "xalign", 0.0f, "wrap", TRUE,
                                         "wrap-mode", PANGO_WRAP_WORD_CHAR, NULL));
  gtk_box_append (GTK_BOX (self), GTK_WIDGET (self->intro));

  self->list = list_new (self);
  self->scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (self->scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->scroller), self->list);
  triage_scroll_chain_attach (GTK_SCROLLED_WINDOW (self->scroller));
  cards = adw_bin_new ();
  gtk_widget_set_layout_manager (cards, gtk_custom_layout_new (height_for_width, measure_cards,
                                                               allocate_child));
  adw_bin_set_child (ADW_BIN (cards), self->scroller);
  gtk_box_append (GTK_BOX (self), cards);
}

GtkWidget *
triage_afp_applied_new (void)
{
  return g_object_new (TRIAGE_TYPE_AFP_APPLIED, NULL);
}
