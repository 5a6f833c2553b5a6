/* triage-afp-applied-card.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-afp-applied"

#include <glib/gi18n.h>

#include "triage-afp-applied-card.h"
#include "triage-decision-format.h"

/*
 * The card of one TriageAfpAppliedItem, a row of "Your Earlier Feedback":
 * the person's item (its aspect, recommendation and id) beside what the
 * agent did with it, in a word and an icon (never colour alone), its reason
 * code and explanation; or the agent's decision on an id the person never
 * gave, the first of those under a line that says what they are. An earlier
 * item offers "Carry Over" (::carry-over with its id) while the review may
 * be answered and the item is not in this iteration's feedback yet.
 *
 * The list recycles its cards: one shows an item after another, and follows
 * the one it shows. An agent's strings are shown cut, with places to break
 * (triage_format_shown_text ()): an explanation or id of 100,000 characters
 * without a space would hold the main loop for minutes.
 */

struct _TriageAfpAppliedCard
{
  GtkBox                parent_instance;

  TriageAfpAppliedItem *item;
  char                 *title;          /* what the heading says */
  char                 *aspect;         /* shown on Carry Over */

  /* template */
  GtkLabel             *note_label;
  GtkLabel             *heading_label;
  GtkLabel             *recommendation_label;
  GtkLabel             *id_label;
  GtkImage             *status_image;
  GtkLabel             *status_label;
  GtkLabel             *reason_label;
  GtkLabel             *explanation_label;
  GtkButton            *carry_button;
};

G_DEFINE_FINAL_TYPE (TriageAfpAppliedCard, triage_afp_applied_card, GTK_TYPE_BOX)

enum {
  CARRY_OVER,
  N_SIGNALS
};

static guint signals [N_SIGNALS];

static const char * const status_classes[] = { "success", "warning", "error", "dim-label" };

/* Shows @text in @label, at most @max_chars of it; hides @label without. */
static void
show_text (GtkLabel   *label,
           const char *text,
           gsize       max_chars)
{
  g_autofree char *shown = text != NULL ? triage_format_shown_text (text, max_chars) : NULL;

  gtk_label_set_label (label, shown != NULL ? shown : "");
  gtk_widget_set_visible (GTK_WIDGET (label), shown != NULL);
}

static void
sync_carry_button (TriageAfpAppliedCard *self)
{
  gboolean carried, editable;
  g_autofree char *label = NULL;

  if (self->item == NULL || triage_afp_applied_item_get_earlier (self->item) == NULL)
    return;

  carried = triage_afp_applied_item_get_carried (self->item);
  editable = triage_afp_applied_item_get_editable (self->item);
  /* Translators: the button that keeps an earlier item, with its aspect */
  label = carried ? g_strdup_printf (_("Carried Over “%s”"), self->aspect)
                  : g_strdup_printf (_("Carry Over “%s”"), self->aspect);
  gtk_button_set_label (self->carry_button, label);
  gtk_label_set_wrap (GTK_LABEL (gtk_button_get_child (self->carry_button)), TRUE);
  gtk_widget_set_sensitive (GTK_WIDGET (self->carry_button), editable && !carried);
}

static void
show_status (TriageAfpAppliedCard *self)
{
  const AtpAfpAppliedItem *applied = triage_afp_applied_item_get_applied (self->item);
  const char *icon_name, *css_class;
  const char *word = triage_afp_applied_item_get_status (self->item, &icon_name, &css_class);
  g_autofree char *reason = NULL;

  gtk_image_set_from_icon_name (self->status_image, icon_name);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->status_image),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, word, -1);
  for (guint i = 0; i < G_N_ELEMENTS (status_classes); i++)
    gtk_widget_remove_css_class (GTK_WIDGET (self->status_image), status_classes[i]);
  gtk_widget_add_css_class (GTK_WIDGET (self->status_image), css_class);
  gtk_label_set_label (self->status_label, word);

  if (applied != NULL && applied->reason_code != NULL)
    /* Translators: the agent's machine-readable reason, e.g. "Reason: out_of_scope" */
    reason = g_strdup_printf (_("Reason: %s"), applied->reason_code);
  show_text (self->reason_label, reason, TRIAGE_SHOWN_VALUE_CHARS);
  show_text (self->explanation_label, applied != NULL ? applied->explanation : NULL,
             TRIAGE_SHOWN_DESCRIPTION_CHARS);
}

static void
show_item (TriageAfpAppliedCard *self)
{
  const AtpAfpImprovement *earlier = triage_afp_applied_item_get_earlier (self->item);
  /* Translators: a feedback item's id; or one the agent named that the person never gave */
  g_autofree char *id = g_strdup_printf (_("Id %s"), triage_afp_applied_item_get_id (self->item));

  gtk_widget_set_visible (GTK_WIDGET (self->note_label),
                          triage_afp_applied_item_get_first_unknown (self->item));
  if (earlier != NULL)
    {
      show_text (self->heading_label, earlier->aspect, TRIAGE_SHOWN_TITLE_CHARS);
      show_text (self->recommendation_label, earlier->recommendation, TRIAGE_SHOWN_DESCRIPTION_CHARS);
      show_text (self->id_label, id, TRIAGE_SHOWN_VALUE_CHARS);
      self->aspect = triage_format_shown_text (earlier->aspect, TRIAGE_SHOWN_LABEL_CHARS);
    }
  else
    {
      show_text (self->heading_label, id, TRIAGE_SHOWN_VALUE_CHARS);
      show_text (self->recommendation_label, NULL, 0);
      show_text (self->id_label, NULL, 0);
    }
  self->title = g_strdup (gtk_label_get_label (self->heading_label));
  show_status (self);
  gtk_widget_set_visible (GTK_WIDGET (self->carry_button), earlier != NULL);
  sync_carry_button (self);
  if (earlier != NULL)
    {
      /* The arrows bring the keyboard to Carry Over: it says the decision too. */
      g_autofree char *summary = triage_afp_applied_card_dup_summary (self);

      gtk_accessible_update_property (GTK_ACCESSIBLE (self->carry_button),
                                      GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, summary, -1);
    }
}

/**
 * triage_afp_applied_card_set_item:
 * @self: a #TriageAfpAppliedCard
 * @item: (nullable): the item to show, which the card then follows
 */
void
triage_afp_applied_card_set_item (TriageAfpAppliedCard *self,
                                  TriageAfpAppliedItem *item)
{
  g_return_if_fail (TRIAGE_IS_AFP_APPLIED_CARD (self));
  g_return_if_fail (item == NULL || TRIAGE_IS_AFP_APPLIED_ITEM (item));

  if (self->item == item)
    return;

  if (self->item != NULL)
    g_signal_handlers_disconnect_by_func (self->item, sync_carry_button, self);
  g_set_object (&self->item, item);
  g_clear_pointer (&self->title, g_free);
  g_clear_pointer (&self->aspect, g_free);
  if (item == NULL)
    return;

  show_item (self);
  g_signal_connect_object (item, "notify::carried", G_CALLBACK (sync_carry_button), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (item, "notify::editable", G_CALLBACK (sync_carry_button), self,
                           G_CONNECT_SWAPPED);
}

/* Returns: (transfer none) (nullable): the item shown */
TriageAfpAppliedItem *
triage_afp_applied_card_get_item (TriageAfpAppliedCard *self)
{
  g_return_val_if_fail (TRIAGE_IS_AFP_APPLIED_CARD (self), NULL);

  return self->item;
}

/* Returns: (nullable): what the card's heading says: the aspect, or the id */
const char *
triage_afp_applied_card_get_title (TriageAfpAppliedCard *self)
{
  g_return_val_if_fail (TRIAGE_IS_AFP_APPLIED_CARD (self), NULL);

  return self->title;
}

/**
 * triage_afp_applied_card_dup_summary:
 * @self: a #TriageAfpAppliedCard
 *
 * Returns: (transfer full) (nullable): the agent's decision as the card
 *   says it, a line each (the word, the reason, the explanation)
 */
char *
triage_afp_applied_card_dup_summary (TriageAfpAppliedCard *self)
{
  GtkLabel *lines[] = { self->status_label, self->reason_label, self->explanation_label };
  g_autoptr(GString) summary = g_string_new (NULL);

  g_return_val_if_fail (TRIAGE_IS_AFP_APPLIED_CARD (self), NULL);

  if (self->item == NULL)
    return NULL;

  for (guint i = 0; i < G_N_ELEMENTS (lines); i++)
    if (gtk_widget_get_visible (GTK_WIDGET (lines[i])))
      g_string_append_printf (summary, "%s%s", summary->len > 0 ? "\n" : "",
                              gtk_label_get_label (lines[i]));

  return g_string_free (g_steal_pointer (&summary), FALSE);
}

static void
on_carry_button_clicked (TriageAfpAppliedCard *self)
{
  if (self->item != NULL)
    g_signal_emit (self, signals[CARRY_OVER], 0, triage_afp_applied_item_get_id (self->item));
}

/* The keyboard comes to the card (its row, an arrow key away): Carry Over
 * takes it when it can; else the row does. */
static gboolean
triage_afp_applied_card_grab_focus (GtkWidget *widget)
{
  TriageAfpAppliedCard *self = TRIAGE_AFP_APPLIED_CARD (widget);

  if (gtk_widget_get_visible (GTK_WIDGET (self->carry_button)) &&
      gtk_widget_is_sensitive (GTK_WIDGET (self->carry_button)))
    return gtk_widget_grab_focus (GTK_WIDGET (self->carry_button));

  return FALSE;
}

static void
triage_afp_applied_card_dispose (GObject *object)
{
  TriageAfpAppliedCard *self = TRIAGE_AFP_APPLIED_CARD (object);

  triage_afp_applied_card_set_item (self, NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), TRIAGE_TYPE_AFP_APPLIED_CARD);

  G_OBJECT_CLASS (triage_afp_applied_card_parent_class)->dispose (object);
}

static void
triage_afp_applied_card_class_init (TriageAfpAppliedCardClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = triage_afp_applied_card_dispose;
  widget_class->grab_focus = triage_afp_applied_card_grab_focus;

  /**
   * TriageAfpAppliedCard::carry-over:
   * @id: the earlier item's id
   *
   * The person keeps the card's earlier item for this iteration.
   */
  signals[CARRY_OVER] = g_signal_new ("carry-over", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                      0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               RESOURCE_BASE "/afp/triage-afp-applied-card.ui");
  gtk_widget_class_bind_template_child (widget_class, TriageAfpAppliedCard, note_label);
  gtk_widget_class_bind_template_child (widget_class, TriageAfpAppliedCard, heading_label);
  gtk_widget_class_bind_template_child (widget_class, TriageAfpAppliedCard, recommendation_label);
  gtk_widget_class_bind_template_child (widget_class, TriageAfpAppliedCard, id_label);
  gtk_widget_class_bind_template_child (widget_class, TriageAfpAppliedCard, status_image);
  gtk_widget_class_bind_template_child (widget_class, TriageAfpAppliedCard, status_label);
  gtk_widget_class_bind_template_child (widget_class, TriageAfpAppliedCard, reason_label);
  gtk_widget_class_bind_template_child (widget_class, TriageAfpAppliedCard, explanation_label);
  gtk_widget_class_bind_template_child (widget_class, TriageAfpAppliedCard, carry_button);
  gtk_widget_class_bind_template_callback (widget_class, on_carry_button_clicked);
}

static void
triage_afp_applied_card_init (TriageAfpAppliedCard *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
triage_afp_applied_card_new (void)
{
  return g_object_new (TRIAGE_TYPE_AFP_APPLIED_CARD, NULL);
}
