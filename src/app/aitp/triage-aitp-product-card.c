/* triage-aitp-product-card.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-aitp"

#include <glib/gi18n.h>

#include "triage-aitp-format.h"
#include "triage-decision-format.h"
#include "triage-aitp-picture.h"
#include "triage-aitp-product-card.h"
#include "triage-wrap-box.h"

/*
 * One product of an AITP `products` decision: its picture (a placeholder
 * until the person asks to see pictures from its host), its name, a variant
 * picker when it has variants, its description, its rating as five stars
 * with the number and the count of reviews (one sentence for a screen
 * reader), its price from the quote in its currency, until when the quote
 * holds, a Choose check, a quantity and a link to the product, opened in the
 * browser only when clicked.
 *
 * A variant may have a quote, a picture and a name of its own; what the
 * card shows follows the variant picked. The card keeps which one: its
 * drop-down lists the picked variant alone until its popup first opens, as
 * GTK 4.8's popup makes a row for each item of its model, shown or not (a
 * request of 100 products of 100 variants made 10,000 rows and held the
 * main loop for seconds).
 *
 * A product whose quote has expired cannot be chosen: its Choose check
 * turns off and insensitive, and the card says why in words.
 */

#define PICTURE_SIZE 72
#define MAX_QUANTITY 999

struct _TriageAitpProductCard
{
  GtkWidget      parent_instance;

  AtpAitpOption *product;
  GDateTime     *now;
  gboolean       editable;
  gboolean       available;

  GtkWidget     *box;
  TriageAitpPicture *picture;
  GtkLabel      *name_label;
  GtkWidget     *rating_line;
  GtkWidget     *rating_box;
  GtkImage      *stars[5];
  GtkLabel      *rating_label;
  GtkLabel      *reviews_label;
  GtkLabel      *description_label;
  GtkWidget     *variant_row;
  GtkDropDown   *variant_dropdown;
  guint          variant;
  gboolean       variants_listed;
  GtkLabel      *price_label;
  GtkWidget     *expiry_box;
  GtkImage      *expiry_icon;
  GtkLabel      *expiry_label;
  GtkCheckButton *choose_check;
  GtkSpinButton *quantity_spin;
  GtkWidget     *link_button;
};

G_DEFINE_FINAL_TYPE (TriageAitpProductCard, triage_aitp_product_card, GTK_TYPE_WIDGET)

enum {
  CHANGED,
  N_SIGNALS
};

static guint signals [N_SIGNALS];

static GtkLabel *
new_label (const char *style,
           gboolean    wrap)
{
  GtkLabel *label = GTK_LABEL (gtk_label_new (NULL));

  gtk_label_set_use_markup (label, FALSE);
  gtk_label_set_xalign (label, 0);
  if (wrap)
    {
      gtk_label_set_wrap (label, TRUE);
      gtk_label_set_wrap_mode (label, PANGO_WRAP_WORD_CHAR);
    }
  if (style != NULL)
    gtk_widget_add_css_class (GTK_WIDGET (label), style);

  return label;
}

static GtkImage *
new_icon (const char *icon_name)
{
  return g_object_new (GTK_TYPE_IMAGE,
                       "icon-name", icon_name,
                       "accessible-role", GTK_ACCESSIBLE_ROLE_PRESENTATION,
                       NULL);
}

/* The option the card stands for: the variant picked, or the product itself. */
const AtpAitpOption *
triage_aitp_product_card_get_option (TriageAitpProductCard *self)
{
  g_return_val_if_fail (TRIAGE_IS_AITP_PRODUCT_CARD (self), NULL);

  if (self->product->variants->len == 0)
    return self->product;

  return g_ptr_array_index (self->product->variants, self->variant);
}

static const AtpAitpOption *
variant_of (TriageAitpProductCard *self)
{
  return self->product->variants->len > 0 ? self->product : NULL;
}

static void
update_picture (TriageAitpProductCard *self)
{
  const AtpAitpOption *option = triage_aitp_product_card_get_option (self);
  g_autofree char *name = atp_aitp_option_dup_shown_name (option, variant_of (self));

  triage_aitp_picture_set_url (self->picture, option->image_url ? option->image_url : self->product->image_url,
                               name);
}

static void
update_rating (TriageAitpProductCard *self,
               const AtpAitpOption   *option)
{
  g_autofree char *number = NULL;
  g_autofree char *reviews = NULL;
  g_autofree char *sentence = NULL;
  const AtpAitpOption *rated = option->has_rating ? option : self->product;
  gint64 count = option->reviews_count >= 0 ? option->reviews_count : self->product->reviews_count;

  gtk_widget_set_visible (self->rating_line, rated->has_rating);
  if (!rated->has_rating)
    return;

  for (guint i = 0; i < G_N_ELEMENTS (self->stars); i++)
    {
      static const char * const icons[] = {
        [TRIAGE_AITP_STAR_EMPTY] = "non-starred-symbolic",
        [TRIAGE_AITP_STAR_HALF] = "semi-starred-symbolic",
        [TRIAGE_AITP_STAR_FULL] = "starred-symbolic",
      };

      gtk_image_set_from_icon_name (self->stars[i], icons[triage_aitp_star (rated->five_star_rating, i)]);
    }

  number = triage_aitp_format_rating (rated->five_star_rating);
  reviews = triage_aitp_format_reviews (count);
  sentence = triage_aitp_describe_rating (rated->five_star_rating, count);
  gtk_label_set_label (self->rating_label, number);
  gtk_label_set_label (self->reviews_label, reviews ? reviews : "");
  gtk_widget_set_visible (GTK_WIDGET (self->reviews_label), reviews != NULL);
  gtk_widget_set_tooltip_text (self->rating_box, sentence);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->rating_box),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, sentence, -1);
}


/* Whether "View Product" opens @url: an https address with a host. */
static gboolean
link_is_opened (const char *url)
{
  g_autoptr(GUri) uri = url ? g_uri_parse (url, G_URI_FLAGS_NONE, NULL) : NULL;

  return uri != NULL && g_ascii_strcasecmp (g_uri_get_scheme (uri), "https") == 0 &&
         g_uri_get_host (uri) != NULL && *g_uri_get_host (uri) != '\0';
}

static void
update_option (TriageAitpProductCard *self)
{
  const AtpAitpOption *option = triage_aitp_product_card_get_option (self);
  const AtpAitpOption *product = variant_of (self);
  const AtpAitpQuote *quote = atp_aitp_option_quote (option, product);
  g_autofree char *price = triage_aitp_format_plan_price (quote);
  g_autofree char *expiry = triage_aitp_format_quote_expiry (quote, self->now);
  g_autofree char *name = atp_aitp_option_dup_shown_name (option, product);
  g_autofree char *choose = NULL;
  g_autofree char *quantity = NULL;
  const char *description = option->description ? option->description : self->product->description;
  const char *url = option->url ? option->url : self->product->url;
  g_autofree char *shown_name = triage_format_shown_text (name ? name : option->id,
                                                          TRIAGE_SHOWN_TITLE_CHARS);
  g_autofree char *shown_description = triage_format_shown_text (description ? description : "",
                                                                 TRIAGE_SHOWN_DESCRIPTION_CHARS);

  self->available = atp_aitp_option_is_available (option, product, self->now);

  gtk_label_set_label (self->name_label, shown_name);
  gtk_label_set_label (self->description_label, shown_description);
  gtk_widget_set_visible (GTK_WIDGET (self->description_label), description != NULL);
  update_rating (self, option);

  gtk_label_set_label (self->price_label, price ? price : "");
  gtk_widget_set_visible (GTK_WIDGET (self->price_label), price != NULL);
  gtk_label_set_label (self->expiry_label, expiry ? expiry : "");
  gtk_widget_set_visible (self->expiry_box, expiry != NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->expiry_icon), !self->available);
  if (self->available)
    gtk_widget_remove_css_class (self->expiry_box, "warning");
  else
    gtk_widget_add_css_class (self->expiry_box, "warning");

  /* Translators: the check that chooses a product; %s is its name */
  choose = g_strdup_printf (_("Choose %s"), name ? name : option->id);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->choose_check),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, choose, -1);
  /* Translators: the spin button of how many of a product; %s is its name */
  quantity = g_strdup_printf (_("Quantity of %s"), name ? name : option->id);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->quantity_spin),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, quantity, -1);

  /* An expired quote: it cannot be chosen, and is not. */
  if (!self->available)
    gtk_check_button_set_active (self->choose_check, FALSE);
  gtk_widget_set_sensitive (GTK_WIDGET (self->choose_check), self->editable && self->available);
  gtk_widget_set_sensitive (GTK_WIDGET (self->quantity_spin), self->editable && self->available);

  gtk_widget_set_visible (self->link_button, link_is_opened (url));
  if (link_is_opened (url))
    {
      g_autoptr(GUri) uri = g_uri_parse (url, G_URI_FLAGS_NONE, NULL);
      const char *host = uri ? g_uri_get_host (uri) : NULL;

      gtk_widget_set_tooltip_text (self->link_button, host ? host : url);
      gtk_accessible_update_property (GTK_ACCESSIBLE (self->link_button),
                                      GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, host ? host : url, -1);
    }

  update_picture (self);
}

/* A variant by its short name, else its name, else its id. */
static const char *
variant_text (const AtpAitpOption *variant)
{
  return variant->short_variant_name ? variant->short_variant_name
       : variant->name ? variant->name : variant->id;
}

static void
on_variant_selected (TriageAitpProductCard *self)
{
  guint selected = gtk_drop_down_get_selected (self->variant_dropdown);

  /* Until the popup opens, the drop-down's one item is self->variant. */
  if (!self->variants_listed || selected >= self->product->variants->len || selected == self->variant)
    return;

  self->variant = selected;
  update_option (self);
  g_signal_emit (self, signals [CHANGED], 0);
}

/* The drop-down's items: every variant once its popup has opened, else the
 * picked one alone; the picked one selected. */
static void
update_variant_model (TriageAitpProductCard *self)
{
  g_autoptr(GtkStringList) variants = gtk_string_list_new (NULL);

  if (self->variants_listed)
    for (guint i = 0; i < self->product->variants->len; i++)
      gtk_string_list_append (variants, variant_text (g_ptr_array_index (self->product->variants, i)));
  else
    gtk_string_list_append (variants, variant_text (triage_aitp_product_card_get_option (self)));

  g_signal_handlers_block_by_func (self->variant_dropdown, on_variant_selected, self);
  gtk_drop_down_set_model (self->variant_dropdown, G_LIST_MODEL (variants));
  gtk_drop_down_set_selected (self->variant_dropdown, self->variants_listed ? self->variant : 0);
  g_signal_handlers_unblock_by_func (self->variant_dropdown, on_variant_selected, self);
}

/* The popup opened (a click, or Space, Enter or AT-SPI's action on its
 * button): from now on it lists every variant. GTK's own handler has just
 * shown it; it lays out and draws at the next frame, with all of them. */
static void
on_variant_button_toggled (TriageAitpProductCard *self,
                           GtkToggleButton       *button)
{
  if (self->variants_listed || !gtk_toggle_button_get_active (button))
    return;

  self->variants_listed = TRUE;
  update_variant_model (self);
}

static void
on_choice_changed (TriageAitpProductCard *self)
{
  g_signal_emit (self, signals [CHANGED], 0);
}

/* The product page, in the browser, only when the person clicks: https
 * only, as the pictures are fetched (libatp lets any absolute address
 * through; an http page could be anyone's on the way). The button is not
 * shown for another link. */
static void
on_link_clicked (TriageAitpProductCard *self)
{
  const AtpAitpOption *option = triage_aitp_product_card_get_option (self);
  const char *url = option->url ? option->url : self->product->url;
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));

  if (!link_is_opened (url))
    {
      /* The address is the agent's: not logged as sent. */
      g_message ("A product link that is not an https address was not opened");
      return;
    }

  gtk_show_uri (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL, url, GDK_CURRENT_TIME);
}

static void
build (TriageAitpProductCard *self)
{
  GtkWidget *top, *titles, *bottom, *quantity_box, *quantity_label, *variant_label, *rating_line;

  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 8);
  gtk_widget_add_css_class (self->box, "card");
  gtk_widget_add_css_class (self->box, "aitp-product");
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));

  top = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  gtk_box_append (GTK_BOX (self->box), top);

  self->picture = TRIAGE_AITP_PICTURE (triage_aitp_picture_new (NULL, NULL, PICTURE_SIZE));
  gtk_box_append (GTK_BOX (top), GTK_WIDGET (self->picture));

  titles = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  gtk_widget_set_hexpand (titles, TRUE);
  gtk_box_append (GTK_BOX (top), titles);
  self->name_label = new_label ("heading", TRUE);
  gtk_box_append (GTK_BOX (titles), GTK_WIDGET (self->name_label));

  /* The stars are shapes (full, half, empty), the number beside them; a
   * screen reader reads the whole as one sentence (the box's label), and
   * the count of reviews goes below them at 360 px. */
  rating_line = triage_wrap_box_new ();
  self->rating_box = g_object_new (GTK_TYPE_BOX, "spacing", 2,
                                   "accessible-role", GTK_ACCESSIBLE_ROLE_IMG, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (self->stars); i++)
    {
      self->stars[i] = new_icon ("non-starred-symbolic");
      gtk_widget_add_css_class (GTK_WIDGET (self->stars[i]), "aitp-star");
      gtk_box_append (GTK_BOX (self->rating_box), GTK_WIDGET (self->stars[i]));
    }
  self->rating_label = new_label ("numeric", FALSE);
  gtk_widget_set_margin_start (GTK_WIDGET (self->rating_label), 4);
  gtk_box_append (GTK_BOX (self->rating_box), GTK_WIDGET (self->rating_label));
  self->reviews_label = g_object_new (GTK_TYPE_LABEL,
                                      "accessible-role", GTK_ACCESSIBLE_ROLE_PRESENTATION,
                                      "xalign", 0.0f,
                                      "css-classes", (const char *[]) { "dim-label", NULL },
                                      NULL);
  triage_wrap_box_append (TRIAGE_WRAP_BOX (rating_line), self->rating_box);
  triage_wrap_box_append (TRIAGE_WRAP_BOX (rating_line), GTK_WIDGET (self->reviews_label));
  gtk_box_append (GTK_BOX (titles), rating_line);
  self->rating_line = rating_line;

  self->price_label = new_label ("title-4", TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->price_label), "numeric");
  gtk_box_append (GTK_BOX (titles), GTK_WIDGET (self->price_label));

  self->description_label = new_label (NULL, TRUE);
  gtk_box_append (GTK_BOX (self->box), GTK_WIDGET (self->description_label));

  self->variant_row = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  variant_label = GTK_WIDGET (new_label (NULL, FALSE));
  gtk_label_set_label (GTK_LABEL (variant_label), _("Variant"));
  self->variant_dropdown = GTK_DROP_DOWN (gtk_drop_down_new (NULL, NULL));
  gtk_widget_set_hexpand (GTK_WIDGET (self->variant_dropdown), TRUE);
  gtk_accessible_update_relation (GTK_ACCESSIBLE (self->variant_dropdown),
                                  GTK_ACCESSIBLE_RELATION_LABELLED_BY, variant_label, NULL, -1);
  /* What a screen reader operates is the drop-down's own button, which GTK
   * 4.8 names by its class ("GtkToggleButton"): it is the variant picker too. */
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->variant_dropdown));
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_TOGGLE_BUTTON (child))
      {
        gtk_accessible_update_relation (GTK_ACCESSIBLE (child),
                                        GTK_ACCESSIBLE_RELATION_LABELLED_BY, variant_label, NULL, -1);
        g_signal_connect_object (child, "toggled", G_CALLBACK (on_variant_button_toggled), self,
                                 G_CONNECT_SWAPPED);
      }
  gtk_box_append (GTK_BOX (self->variant_row), variant_label);
  gtk_box_append (GTK_BOX (self->variant_row), GTK_WIDGET (self->variant_dropdown));
  if (self->product->variants->len > 0)
    update_variant_model (self);
  gtk_widget_set_visible (self->variant_row, self->product->variants->len > 0);
  gtk_box_append (GTK_BOX (self->box), self->variant_row);

  self->expiry_box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  self->expiry_icon = new_icon ("dialog-warning-symbolic");
  self->expiry_label = new_label ("caption", TRUE);
  gtk_box_append (GTK_BOX (self->expiry_box), GTK_WIDGET (self->expiry_icon));
  gtk_box_append (GTK_BOX (self->expiry_box), GTK_WIDGET (self->expiry_label));
  gtk_box_append (GTK_BOX (self->box), self->expiry_box);

  /* Choose, and how many: side by side where they fit, one above the other at 360 px. */
  bottom = triage_wrap_box_new ();
  gtk_box_append (GTK_BOX (self->box), bottom);
  self->choose_check = GTK_CHECK_BUTTON (gtk_check_button_new_with_mnemonic (_("_Choose")));
  triage_wrap_box_append (TRIAGE_WRAP_BOX (bottom), GTK_WIDGET (self->choose_check));

  quantity_box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  quantity_label = GTK_WIDGET (new_label ("dim-label", FALSE));
  gtk_label_set_label (GTK_LABEL (quantity_label), _("Quantity"));
  self->quantity_spin = GTK_SPIN_BUTTON (gtk_spin_button_new_with_range (1, MAX_QUANTITY, 1));
  gtk_spin_button_set_numeric (self->quantity_spin, TRUE);
  gtk_box_append (GTK_BOX (quantity_box), quantity_label);
  gtk_box_append (GTK_BOX (quantity_box), GTK_WIDGET (self->quantity_spin));
  triage_wrap_box_append (TRIAGE_WRAP_BOX (bottom), quantity_box);

  self->link_button = gtk_button_new ();
  gtk_button_set_child (GTK_BUTTON (self->link_button),
                        g_object_new (ADW_TYPE_BUTTON_CONTENT,
                                      "icon-name", "web-browser-symbolic",
                                      "label", _("View _Product"),
                                      "use-underline", TRUE,
                                      NULL));
  gtk_widget_set_halign (self->link_button, GTK_ALIGN_START);
  gtk_widget_add_css_class (self->link_button, "flat");
  gtk_widget_add_css_class (self->link_button, "aitp-product-link");
  gtk_box_append (GTK_BOX (self->box), self->link_button);

  g_signal_connect_object (self->variant_dropdown, "notify::selected",
                           G_CALLBACK (on_variant_selected), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->choose_check, "notify::active",
                           G_CALLBACK (on_choice_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->quantity_spin, "value-changed",
                           G_CALLBACK (on_choice_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->link_button, "clicked",
                           G_CALLBACK (on_link_clicked), self, G_CONNECT_SWAPPED);
}

/* GObject */

static void
triage_aitp_product_card_dispose (GObject *object)
{
  TriageAitpProductCard *self = (TriageAitpProductCard *)object;

  g_clear_pointer (&self->box, gtk_widget_unparent);

  G_OBJECT_CLASS (triage_aitp_product_card_parent_class)->dispose (object);
}

static void
triage_aitp_product_card_finalize (GObject *object)
{
  TriageAitpProductCard *self = (TriageAitpProductCard *)object;

  g_clear_pointer (&self->now, g_date_time_unref);

  G_OBJECT_CLASS (triage_aitp_product_card_parent_class)->finalize (object);
}

static void
triage_aitp_product_card_class_init (TriageAitpProductCardClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = triage_aitp_product_card_dispose;
  object_class->finalize = triage_aitp_product_card_finalize;

  /**
   * TriageAitpProductCard::changed:
   *
   * The product was chosen or let go, or its variant or quantity changed.
   */
  signals [CHANGED] =
    g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "aitpproductcard");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
triage_aitp_product_card_init (TriageAitpProductCard *self)
{
  self->editable = TRUE;
}

/**
 * triage_aitp_product_card_new:
 * @product: an option of a products decision (held by its request)
 * @now: the time the quotes are judged at
 *
 * Returns: (transfer floating): a card for @product, not chosen, quantity 1
 */
GtkWidget *
triage_aitp_product_card_new (AtpAitpOption *product,
                              GDateTime     *now)
{
  TriageAitpProductCard *self;
  g_autofree char *name = NULL;

  g_return_val_if_fail (product != NULL, NULL);
  g_return_val_if_fail (now != NULL, NULL);

  self = g_object_new (TRIAGE_TYPE_AITP_PRODUCT_CARD, NULL);
  self->product = product;
  self->now = g_date_time_ref (now);
  build (self);
  update_option (self);

  name = atp_aitp_option_dup_shown_name (product, NULL);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  name ? name : product->id, -1);

  return GTK_WIDGET (self);
}

const AtpAitpOption *
triage_aitp_product_card_get_product (TriageAitpProductCard *self)
{
  g_return_val_if_fail (TRIAGE_IS_AITP_PRODUCT_CARD (self), NULL);

  return self->product;
}

/**
 * triage_aitp_product_card_get_available:
 *
 * Returns: whether the product (the variant picked) can still be chosen
 */
gboolean
triage_aitp_product_card_get_available (TriageAitpProductCard *self)
{
  g_return_val_if_fail (TRIAGE_IS_AITP_PRODUCT_CARD (self), FALSE);

  return self->available;
}

gboolean
triage_aitp_product_card_get_chosen (TriageAitpProductCard *self)
{
  g_return_val_if_fail (TRIAGE_IS_AITP_PRODUCT_CARD (self), FALSE);

  return gtk_check_button_get_active (self->choose_check);
}

void
triage_aitp_product_card_set_chosen (TriageAitpProductCard *self,
                                     gboolean               chosen)
{
  g_return_if_fail (TRIAGE_IS_AITP_PRODUCT_CARD (self));

  gtk_check_button_set_active (self->choose_check, chosen && self->available);
}

/**
 * triage_aitp_product_card_get_choice:
 * @self: a #TriageAitpProductCard
 * @choice: (out caller-allocates): the variant's id (or the product's) and the
 *   quantity; the id belongs to the request
 *
 * Returns: whether the product is chosen
 */
gboolean
triage_aitp_product_card_get_choice (TriageAitpProductCard *self,
                                     TriageAitpChoice      *choice)
{
  g_return_val_if_fail (TRIAGE_IS_AITP_PRODUCT_CARD (self), FALSE);
  g_return_val_if_fail (choice != NULL, FALSE);

  choice->id = triage_aitp_product_card_get_option (self)->id;
  choice->quantity = (guint64) gtk_spin_button_get_value_as_int (self->quantity_spin);

  return triage_aitp_product_card_get_chosen (self);
}

/**
 * triage_aitp_product_card_select_variant:
 * @self: a #TriageAitpProductCard
 * @variant_id: a variant of the product
 */
void
triage_aitp_product_card_select_variant (TriageAitpProductCard *self,
                                         const char            *variant_id)
{
  g_return_if_fail (TRIAGE_IS_AITP_PRODUCT_CARD (self));
  g_return_if_fail (variant_id != NULL);

  for (guint i = 0; i < self->product->variants->len; i++)
    {
      const AtpAitpOption *variant = g_ptr_array_index (self->product->variants, i);

      if (!g_str_equal (variant->id, variant_id) || i == self->variant)
        continue;

      /* Listed, the drop-down's selection is the variant: on_variant_selected() follows. */
      if (self->variants_listed)
        {
          gtk_drop_down_set_selected (self->variant_dropdown, i);
          return;
        }
      self->variant = i;
      update_variant_model (self);
      update_option (self);
      g_signal_emit (self, signals [CHANGED], 0);
      return;
    }
}

void
triage_aitp_product_card_set_quantity (TriageAitpProductCard *self,
                                       guint                  quantity)
{
  g_return_if_fail (TRIAGE_IS_AITP_PRODUCT_CARD (self));

  gtk_spin_button_set_value (self->quantity_spin, CLAMP (quantity, 1, MAX_QUANTITY));
}

/**
 * triage_aitp_product_card_set_editable:
 * @self: a #TriageAitpProductCard
 * @editable: %FALSE once the request is settled or answered: what was
 *   chosen stays in sight, insensitive
 */
void
triage_aitp_product_card_set_editable (TriageAitpProductCard *self,
                                       gboolean               editable)
{
  g_return_if_fail (TRIAGE_IS_AITP_PRODUCT_CARD (self));

  self->editable = !!editable;
  gtk_widget_set_sensitive (GTK_WIDGET (self->variant_dropdown), editable);
  gtk_widget_set_sensitive (GTK_WIDGET (self->choose_check), editable && self->available);
  gtk_widget_set_sensitive (GTK_WIDGET (self->quantity_spin), editable && self->available);
}

/**
 * triage_aitp_product_card_get_picture:
 *
 * Returns: (transfer none): the product's picture (the variant picked's)
 */
TriageAitpPicture *
triage_aitp_product_card_get_picture (TriageAitpProductCard *self)
{
  g_return_val_if_fail (TRIAGE_IS_AITP_PRODUCT_CARD (self), NULL);

  return self->picture;
}
