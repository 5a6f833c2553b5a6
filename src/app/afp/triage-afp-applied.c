/* triage-afp-applied.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-afp-applied"

#include <glib/gi18n.h>

#include "triage-afp-applied.h"
#include "triage-decision-format.h"

/*
 * Iteration 2 and later: the person's earlier areas for improvement (their
 * latest feedback in the session), each beside what the agent says it did
 * with it (`applied_feedback`): accepted, partly applied or rejected, in a
 * word and an icon (never colour alone), its reason code and explanation;
 * or that the agent did not mention it. Decisions on ids the person never
 * gave are listed after (they are acknowledged as `unknown_id`). Each
 * earlier item offers "Carry Over" (::carry-over with the item's id): the
 * item joins this iteration's feedback with its id.
 */

struct _TriageAfpApplied
{
  GtkBox        parent_instance;

  GtkLabel     *intro;
  GtkBox       *items_box;
  GHashTable   *buttons;       /* id → GtkButton (owned by the rows) */
  gboolean      editable;
};

G_DEFINE_FINAL_TYPE (TriageAfpApplied, triage_afp_applied, GTK_TYPE_BOX)

enum {
  CARRY_OVER,
  N_SIGNALS
};

static guint signals [N_SIGNALS];

static const AtpAfpAppliedItem *
find_applied (AtpAfpReview *review,
              const char   *id)
{
  GPtrArray *items = review->request->applied_items;

  for (guint i = 0; items != NULL && i < items->len; i++)
    {
      const AtpAfpAppliedItem *item = items->pdata[i];

      if (g_strcmp0 (item->id, id) == 0)
        return item;
    }

  return NULL;
}

/* A wrapping label of @text, of which it shows @max_chars characters at most
 * (0: all, for the app's own words), with places to break: an agent's
 * explanation or id of 100,000 characters without a space would hold the
 * main loop for minutes (triage_format_shown_text ()). */
static GtkWidget *
label_new (const char *text,
           gsize       max_chars,
           const char *css_class)
{
  g_autofree char *shown = text != NULL ? triage_format_shown_text (text, max_chars) : NULL;
  GtkWidget *label = gtk_label_new (shown);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  if (css_class != NULL)
    gtk_widget_add_css_class (label, css_class);
  return label;
}

/* The agent's decision in words and an icon. */
static GtkWidget *
decision_box (const AtpAfpAppliedItem *applied)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 3);
  GtkWidget *status_row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  const char *icon = "dialog-question-symbolic";
  const char *word = _("The agent did not mention this item");
  const char *css = "dim-label";
  GtkWidget *image;

  if (applied != NULL)
    switch (applied->status)
      {
      case ATP_AFP_APPLIED_ACCEPTED:
        icon = "object-select-symbolic";
        /* Translators: what the agent did with the person's item */
        word = _("Accepted: applied as recommended");
        css = "success";
        break;
      case ATP_AFP_APPLIED_PARTIAL:
        icon = "view-more-horizontal-symbolic";
        /* Translators: what the agent did with the person's item */
        word = _("Partly applied");
        css = "warning";
        break;
      case ATP_AFP_APPLIED_REJECTED:
      default:
        icon = "action-unavailable-symbolic";
        /* Translators: what the agent did with the person's item */
        word = _("Rejected: not applied");
        css = "error";
        break;
      }

  image = gtk_image_new_from_icon_name (icon);
  gtk_accessible_update_property (GTK_ACCESSIBLE (image), GTK_ACCESSIBLE_PROPERTY_LABEL, word, -1);
  gtk_widget_add_css_class (image, css);
  gtk_box_append (GTK_BOX (status_row), image);
  gtk_box_append (GTK_BOX (status_row), label_new (word, 0, "heading"));
  gtk_box_append (GTK_BOX (box), status_row);

  if (applied != NULL && applied->reason_code != NULL)
    {
      /* Translators: the agent's machine-readable reason, e.g. "Reason: out_of_scope" */
      g_autofree char *reason = g_strdup_printf (_("Reason: %s"), applied->reason_code);

      gtk_box_append (GTK_BOX (box), label_new (reason, TRIAGE_SHOWN_VALUE_CHARS, NULL));
    }
  if (applied != NULL && applied->explanation != NULL)
    gtk_box_append (GTK_BOX (box), label_new (applied->explanation, TRIAGE_SHOWN_DESCRIPTION_CHARS, NULL));

  return box;
}

static void
on_carry_over_clicked (TriageAfpApplied *self,
                       GtkButton        *button)
{
  g_signal_emit (self, signals[CARRY_OVER], 0, g_object_get_data (G_OBJECT (button), "triage-id"));
}

static void
clear (TriageAfpApplied *self)
{
  GtkWidget *child;

  g_hash_table_remove_all (self->buttons);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->items_box))) != NULL)
    gtk_box_remove (self->items_box, child);
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
  g_autoptr(GHashTable) known = g_hash_table_new (g_str_hash, g_str_equal);
  gboolean any_unknown = FALSE;

  g_return_if_fail (TRIAGE_IS_AFP_APPLIED (self));

  clear (self);
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

  for (guint i = 0; earlier != NULL && i < earlier->len; i++)
    {
      const AtpAfpImprovement *item = earlier->pdata[i];
      GtkWidget *card = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
      GtkWidget *button;
      g_autofree char *id = NULL;
      g_autofree char *name = NULL;
      g_autofree char *aspect = NULL;

      g_hash_table_add (known, item->id);
      gtk_widget_add_css_class (card, "card");
      gtk_widget_add_css_class (card, "afp-item");
      gtk_box_append (GTK_BOX (card), label_new (item->aspect, TRIAGE_SHOWN_TITLE_CHARS, "heading"));
      gtk_box_append (GTK_BOX (card), label_new (item->recommendation, TRIAGE_SHOWN_DESCRIPTION_CHARS, "dim-label"));
      /* Translators: a feedback item's id */
      id = g_strdup_printf (_("Id %s"), item->id);
      gtk_box_append (GTK_BOX (card), label_new (id, TRIAGE_SHOWN_VALUE_CHARS, "caption"));
      gtk_box_append (GTK_BOX (card), decision_box (find_applied (review, item->id)));

      /* Translators: the button that keeps an earlier item, with its aspect */
      aspect = triage_format_shown_text (item->aspect, TRIAGE_SHOWN_LABEL_CHARS);
      name = g_strdup_printf (_("Carry Over “%s”"), aspect);
      button = gtk_button_new_with_label (name);
      gtk_label_set_wrap (GTK_LABEL (gtk_button_get_child (GTK_BUTTON (button))), TRUE);
      g_object_set_data_full (G_OBJECT (button), "triage-aspect", g_strdup (item->aspect), g_free);
      gtk_widget_set_tooltip_text (button, _("Keep this item, with its id, in this iteration’s feedback"));
      gtk_widget_set_halign (button, GTK_ALIGN_START);
      g_object_set_data_full (G_OBJECT (button), "triage-id", g_strdup (item->id), g_free);
      g_signal_connect_object (button, "clicked", G_CALLBACK (on_carry_over_clicked), self, G_CONNECT_SWAPPED);
      g_hash_table_insert (self->buttons, g_strdup (item->id), button);
      gtk_box_append (GTK_BOX (card), button);

      gtk_box_append (self->items_box, card);
    }

  for (guint i = 0; applied != NULL && i < applied->len; i++)
    {
      const AtpAfpAppliedItem *item = applied->pdata[i];
      GtkWidget *card;
      g_autofree char *title = NULL;

      if (g_hash_table_contains (known, item->id))
        continue;

      if (!any_unknown)
        gtk_box_append (self->items_box,
                        label_new (_("The agent also reports on items that were not in your latest feedback:"),
                                   0, NULL));
      any_unknown = TRUE;

      card = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
      gtk_widget_add_css_class (card, "card");
      gtk_widget_add_css_class (card, "afp-item");
      /* Translators: an id the agent named that the person never gave */
      title = g_strdup_printf (_("Id %s"), item->id);
      gtk_box_append (GTK_BOX (card), label_new (title, TRIAGE_SHOWN_VALUE_CHARS, "heading"));
      gtk_box_append (GTK_BOX (card), decision_box (item));
      gtk_box_append (self->items_box, card);
    }
}

void
triage_afp_applied_sync_carried (TriageAfpApplied *self,
                                 GHashTable       *carried)
{
  GHashTableIter iter;
  gpointer id, button;

  g_return_if_fail (TRIAGE_IS_AFP_APPLIED (self));

  g_hash_table_iter_init (&iter, self->buttons);
  while (g_hash_table_iter_next (&iter, &id, &button))
    {
      gboolean in = carried != NULL && g_hash_table_contains (carried, id);

      const char *aspect = g_object_get_data (G_OBJECT (button), "triage-aspect");
      g_autofree char *label = in ? g_strdup_printf (_("Carried Over “%s”"), aspect)
                                  : g_strdup_printf (_("Carry Over “%s”"), aspect);

      gtk_widget_set_sensitive (button, self->editable && !in);
      gtk_button_set_label (button, label);
      gtk_label_set_wrap (GTK_LABEL (gtk_button_get_child (GTK_BUTTON (button))), TRUE);
    }
}

void
triage_afp_applied_set_editable (TriageAfpApplied *self,
                                 gboolean          editable)
{
  self->editable = editable;
}

static void
triage_afp_applied_dispose (GObject *object)
{
  TriageAfpApplied *self = TRIAGE_AFP_APPLIED (object);
  GtkWidget *child;

  if (self->buttons != NULL)
    g_hash_table_remove_all (self->buttons);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_box_remove (GTK_BOX (self), child);

  G_OBJECT_CLASS (triage_afp_applied_parent_class)->dispose (object);
}

static void
triage_afp_applied_finalize (GObject *object)
{
  TriageAfpApplied *self = TRIAGE_AFP_APPLIED (object);

  g_clear_pointer (&self->buttons, g_hash_table_unref);

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

static void
triage_afp_applied_init (TriageAfpApplied *self)
{
  GtkWidget *heading;

  self->buttons = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->editable = TRUE;

  gtk_orientable_set_orientation (GTK_ORIENTABLE (self), GTK_ORIENTATION_VERTICAL);
  gtk_box_set_spacing (GTK_BOX (self), 6);

  heading = g_object_new (GTK_TYPE_LABEL, "label", _("Your Earlier Feedback"), "xalign", 0.0f, "wrap", TRUE,
                          "accessible-role", GTK_ACCESSIBLE_ROLE_HEADING, NULL);
  gtk_widget_add_css_class (heading, "heading");
  gtk_box_append (GTK_BOX (self), heading);
  self->intro = GTK_LABEL (label_new (NULL, 0, NULL));
  gtk_box_append (GTK_BOX (self), GTK_WIDGET (self->intro));
  self->items_box = GTK_BOX (gtk_box_new (GTK_ORIENTATION_VERTICAL, 12));
  gtk_box_append (GTK_BOX (self), GTK_WIDGET (self->items_box));
}

GtkWidget *
triage_afp_applied_new (void)
{
  return g_object_new (TRIAGE_TYPE_AFP_APPLIED, NULL);
}
