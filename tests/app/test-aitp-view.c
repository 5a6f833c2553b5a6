/* test-aitp-view.c — AITP-02 decisions in their view: every seed 003 example
 * with the right widgets, answers of each type, confirmation, expired quotes,
 * read-only states, pictures only when asked, 360 pixels
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "test-aitp-view"

#include <gdk-pixbuf/gdk-pixbuf.h>
#include <libsoup/soup.h>

#include "app-test-common.h"
#include "triage-aitp-product-card.h"
#include "triage-aitp-view-private.h"
#include "triage-request-stack.h"
#include "ui-test-util.h"
#include "widgets-test-util.h"

#define GRACE 200

typedef struct
{
  TriageAitpView  *view;
  GtkWidget       *window;
  AtpNotification *notification;
  SubmitRecord     record;
} Fixture;

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  fixture->view = TRIAGE_AITP_VIEW (triage_aitp_view_new ());
  triage_aitp_view_set_confirm_grace_period (fixture->view, GRACE);
  g_signal_connect (fixture->view, "submit", G_CALLBACK (widgets_test_on_view_submit_record),
                    &fixture->record);
  fixture->window = widgets_test_window (GTK_WIDGET (fixture->view), 600, 900);
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  widgets_test_view_teardown (fixture->window, &fixture->view, &fixture->notification,
                              &fixture->record);
}

static void
show_message (Fixture    *fixture,
              const char *message)
{
  g_autofree char *id = atp_new_uuid ();

  g_clear_pointer (&fixture->notification, atp_notification_unref);
  fixture->notification = app_test_aitp_notification_new (id, "A decision", message);
  triage_request_view_set_request (TRIAGE_REQUEST_VIEW (fixture->view), fixture->notification);
  widgets_test_pump ();
}

static void
show (Fixture    *fixture,
      const char *seed)
{
  g_autofree char *message = app_test_aitp_message (seed);

  show_message (fixture, message);
}

static GtkWidget *
option (Fixture    *fixture,
        const char *id)
{
  GtkWidget *widget = triage_aitp_view_get_option_widget (fixture->view, id);

  g_assert_nonnull (widget);
  return widget;
}

static void
send (Fixture *fixture)
{
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->view), "aitp.send", NULL));
  widgets_test_pump ();
}

static gboolean
can_send (Fixture *fixture)
{
  return gtk_widget_get_sensitive (GTK_WIDGET (fixture->view->send_button));
}

/* Radio: radio buttons, nothing chosen for the person; one choice, Send. */
static void
test_radio (Fixture       *fixture,
            gconstpointer  data)
{
  GtkCheckButton *seven;

  show (fixture, "seed-003-radio-request.json");
  g_assert_cmpuint (widgets_test_count_descendants (GTK_WIDGET (fixture->view->options_box),
                                                    GTK_TYPE_CHECK_BUTTON), ==, 3);
  seven = GTK_CHECK_BUTTON (option (fixture, "7"));
  /* In a list row, which chooses it when activated, as a click on it does. */
  g_assert_nonnull (gtk_widget_get_ancestor (GTK_WIDGET (seven), GTK_TYPE_LIST_BOX_ROW));
  g_assert_false (can_send (fixture));
  gtk_widget_activate (gtk_widget_get_ancestor (GTK_WIDGET (option (fixture, "0")), GTK_TYPE_LIST_BOX_ROW));
  g_assert_true (gtk_check_button_get_active (GTK_CHECK_BUTTON (option (fixture, "0"))));
  gtk_check_button_set_active (GTK_CHECK_BUTTON (option (fixture, "0")), FALSE);
  g_assert_false (can_send (fixture));
  g_assert_false (gtk_widget_get_visible (fixture->view->whole_text_button));
  gtk_test_accessible_assert_property (GTK_ACCESSIBLE (seven), GTK_ACCESSIBLE_PROPERTY_LABEL, "7");

  gtk_check_button_set_active (GTK_CHECK_BUTTON (option (fixture, "0")), TRUE);
  gtk_check_button_set_active (seven, TRUE);
  g_assert_false (gtk_check_button_get_active (GTK_CHECK_BUTTON (option (fixture, "0"))));
  g_assert_true (can_send (fixture));

  send (fixture);
  g_assert_cmpuint (fixture->record.count, ==, 1);
  g_assert_cmpstr (fixture->record.action_id, ==, "decision");
  g_assert_cmpstr (fixture->record.json, ==, "{\"options\":[{\"id\":\"7\",\"name\":\"7\"}]}");

  /* On its way: read-only, the choice in sight, the banner says it. */
  g_assert_true (triage_aitp_view_get_read_only (fixture->view));
  g_assert_false (gtk_widget_get_sensitive (GTK_WIDGET (seven)));
  g_assert_true (gtk_check_button_get_active (seven));
  g_assert_cmpstr (triage_request_banner_get_title (fixture->view->banner), ==, "Sending your answer…");
  g_assert_cmpstr (triage_request_banner_get_detail (fixture->view->banner), ==, "You answered 7");
  send (fixture);
  g_assert_cmpuint (fixture->record.count, ==, 1);
}

/* Sent from the keyboard (or a click, which focuses the button too): Send
 * turns insensitive and GTK drops the focus; the banner, which says the
 * answer is on its way, takes it, so a screen reader is somewhere. */
static void
test_focus_kept (Fixture       *fixture,
                 gconstpointer  data)
{
  GtkWidget *focus;

  show (fixture, "seed-003-radio-request.json");
  gtk_check_button_set_active (GTK_CHECK_BUTTON (option (fixture, "7")), TRUE);
  g_assert_true (can_send (fixture));
  g_assert_true (gtk_widget_grab_focus (GTK_WIDGET (fixture->view->send_button)));

  send (fixture);
  g_assert_true (triage_aitp_view_get_read_only (fixture->view));
  focus = gtk_root_get_focus (GTK_ROOT (fixture->window));
  g_assert_nonnull (focus);
  g_assert_true (gtk_widget_is_ancestor (focus, GTK_WIDGET (fixture->view->banner)));
  gtk_test_accessible_assert_role (GTK_ACCESSIBLE (focus), GTK_ACCESSIBLE_ROLE_STATUS);
}

/* Past seven options a radio decision is a drop-down list. */
static void
test_radio_list (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autoptr(GString) message = g_string_new ("{\"$schema\": \"https://aitp.dev/v1/decisions/schema.json\","
                                             " \"request_decision\": {\"id\": \"many\", \"title\": \"Pick a day\","
                                             " \"options\": [");
  AdwComboRow *combo;

  for (guint i = 0; i < 9; i++)
    g_string_append_printf (message, "%s{\"id\": \"d%u\", \"name\": \"Day %u\"}", i ? ", " : "", i, i);
  g_string_append (message, "]}}");
  show_message (fixture, message->str);

  combo = triage_aitp_view_get_combo (fixture->view);
  g_assert_nonnull (combo);
  g_assert_cmpuint (widgets_test_count_descendants (GTK_WIDGET (fixture->view->options_box),
                                                    GTK_TYPE_CHECK_BUTTON), ==, 0);
  g_assert_cmpuint (adw_combo_row_get_selected (combo), ==, GTK_INVALID_LIST_POSITION);
  g_assert_false (can_send (fixture));

  adw_combo_row_set_selected (combo, 4);
  g_assert_true (can_send (fixture));
  send (fixture);
  g_assert_cmpstr (fixture->record.json, ==, "{\"options\":[{\"id\":\"d4\",\"name\":\"Day 4\"}]}");
}

/* Checkbox: check buttons, one or more; pictures wait until asked for. */
static void
test_checkbox (Fixture       *fixture,
               gconstpointer  data)
{
  show (fixture, "seed-003-checkbox-request.json");
  g_assert_cmpuint (widgets_test_count_descendants (GTK_WIDGET (fixture->view->options_box),
                                                    GTK_TYPE_CHECK_BUTTON), ==, 3);

  /* example.com's pictures: offered, not fetched. */
  g_assert_cmpuint (fixture->view->pictures->len, ==, 3);
  g_assert_cmpuint (triage_aitp_images_get_n_loading (triage_aitp_view_get_images (fixture->view)), ==, 0);
  g_assert_false (triage_aitp_images_get_shown (triage_aitp_view_get_images (fixture->view), "example.com"));
  g_assert_nonnull (widgets_test_find_descendant (GTK_WIDGET (fixture->view->images_box), GTK_TYPE_BUTTON));

  /* Nothing ticked: the line beside Send says why it cannot be sent, and
   * Send is the ATP editors' button (no pill), as they say it. */
  g_assert_false (can_send (fixture));
  g_assert_cmpstr (gtk_label_get_label (fixture->view->summary_label), ==,
                   "0 selected, at least 1 required.");
  g_assert_cmpstr (gtk_widget_get_tooltip_text (GTK_WIDGET (fixture->view->send_button)), ==,
                   "0 selected, at least 1 required.");
  gtk_test_accessible_assert_property (GTK_ACCESSIBLE (fixture->view->send_button), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                       "0 selected, at least 1 required.");
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (fixture->view->send_button), "pill"));
  gtk_check_button_set_active (GTK_CHECK_BUTTON (option (fixture, "red")), TRUE);
  gtk_check_button_set_active (GTK_CHECK_BUTTON (option (fixture, "blue")), TRUE);
  g_assert_cmpstr (gtk_label_get_label (fixture->view->summary_label), ==, "2 selected");
  gtk_test_accessible_assert_property (GTK_ACCESSIBLE (fixture->view->send_button),
                                       GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, "");
  send (fixture);
  g_assert_cmpstr (fixture->record.json, ==,
                   "{\"options\":[{\"id\":\"blue\",\"name\":\"Blue\"},{\"id\":\"red\",\"name\":\"Red\"}]}");
}

/* Ctrl+Return sends from the options and beside Send, never from the
 * heading a request opens at: a key held or repeated for the request before
 * would send a choice made earlier, unseen. */
static void
test_send_key_from_answer (Fixture       *fixture,
                           gconstpointer  data)
{
  show (fixture, "seed-003-checkbox-request.json");
  gtk_check_button_set_active (GTK_CHECK_BUTTON (option (fixture, "red")), TRUE);
  g_assert_true (can_send (fixture));

  g_assert_true (triage_request_view_focus_heading (TRIAGE_REQUEST_VIEW (fixture->view)));
  g_assert_false (ui_test_press_key (fixture->window, "<Control>Return"));
  g_assert_false (ui_test_press_key (fixture->window, "<Control>KP_Enter"));
  widgets_test_pump ();
  g_assert_cmpuint (fixture->record.count, ==, 0);

  g_assert_true (gtk_widget_grab_focus (option (fixture, "blue")));
  g_assert_true (ui_test_press_key (fixture->window, "<Control>Return"));
  widgets_test_pump ();
  g_assert_cmpuint (fixture->record.count, ==, 1);
  g_assert_cmpstr (fixture->record.json, ==, "{\"options\":[{\"id\":\"red\",\"name\":\"Red\"}]}");
}

/* Confirmation: the question and a button per option, each an answer. */
static void
test_confirmation (Fixture       *fixture,
                   gconstpointer  data)
{
  GtkWidget *focus;

  show (fixture, "seed-003-confirmation-request.json");
  g_assert_true (GTK_IS_BUTTON (option (fixture, "1")));
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (option (fixture, "3"))), ==, "Something else");
  g_assert_false (gtk_widget_get_visible (fixture->view->send_row));

  /* Opened: the keyboard on the heading, not on an answer (Enter there,
   * the key that opened it or one held, answers nothing). */
  g_assert_true (triage_request_view_focus_heading (TRIAGE_REQUEST_VIEW (fixture->view)));
  focus = gtk_root_get_focus (GTK_ROOT (fixture->window));
  gtk_test_accessible_assert_role (GTK_ACCESSIBLE (focus), GTK_ACCESSIBLE_ROLE_HEADING);
  g_assert_false (gtk_widget_activate (focus));
  g_assert_cmpuint (fixture->record.count, ==, 0);

  g_signal_emit_by_name (option (fixture, "2"), "clicked");
  widgets_test_pump ();
  g_assert_cmpuint (fixture->record.count, ==, 1);
  g_assert_cmpstr (fixture->record.json, ==, "{\"options\":[{\"id\":\"2\",\"name\":\"No, that's not healthy\"}]}");
  g_assert_false (gtk_widget_get_sensitive (option (fixture, "1")));
}

/* x-triage.confirm asks for a confirmation, as requires_confirmation does. */
static void
test_confirmation_asked (Fixture       *fixture,
                         gconstpointer  data)
{
  g_autofree char *seed = app_test_aitp_message ("seed-003-confirmation-request.json");
  g_autoptr(GString) message = g_string_new (seed);
  TriageConfirmDialog *dialog;

  g_string_replace (message, "\"$schema\"", "\"x-triage\": {\"confirm\": true}, \"$schema\"", 1);
  show_message (fixture, message->str);

  g_signal_emit_by_name (option (fixture, "1"), "clicked");
  widgets_test_pump ();
  dialog = triage_aitp_view_get_confirm_dialog (fixture->view);
  g_assert_nonnull (dialog);
  g_assert_cmpuint (fixture->record.count, ==, 0);
  g_assert_cmpstr (adw_message_dialog_get_body (ADW_MESSAGE_DIALOG (dialog)), ==,
                   "Your answer will be sent to Shop Bot: Yes, eat the cookies");

  /* Cancelled: nothing sent, still editable. */
  adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), TRIAGE_CONFIRM_RESPONSE_CANCEL);
  WAIT_UNTIL (triage_aitp_view_get_confirm_dialog (fixture->view) == NULL);
  g_assert_cmpuint (fixture->record.count, ==, 0);
  g_assert_false (triage_aitp_view_get_read_only (fixture->view));

  g_signal_emit_by_name (option (fixture, "1"), "clicked");
  widgets_test_pump ();
  dialog = triage_aitp_view_get_confirm_dialog (fixture->view);
  WAIT_UNTIL (triage_confirm_dialog_get_armed (dialog));
  adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), TRIAGE_CONFIRM_RESPONSE_CONFIRM);
  widgets_test_pump ();
  g_assert_cmpuint (fixture->record.count, ==, 1);
  g_assert_cmpstr (fixture->record.json, ==, "{\"options\":[{\"id\":\"1\",\"name\":\"Yes, eat the cookies\"}]}");
}

/* Products: a card per product with its facts, a variant picker, a
 * quantity; the seed's example and one with variants. */
static void
test_products (Fixture       *fixture,
               gconstpointer  data)
{
  TriageAitpProductCard *jbl;
  TriageConfirmDialog *dialog;
  GtkWidget *rating;

  show (fixture, "seed-003-products-request.json");
  jbl = TRIAGE_AITP_PRODUCT_CARD (option (fixture, "product_1"));
  g_assert_true (triage_aitp_product_card_get_available (jbl));
  g_assert_nonnull (widgets_test_find_descendant (GTK_WIDGET (jbl), GTK_TYPE_SPIN_BUTTON));

  show (fixture, "products-variants.json");
  jbl = TRIAGE_AITP_PRODUCT_CARD (option (fixture, "jbl"));
  g_assert_true (TRIAGE_IS_AITP_PRODUCT_CARD (option (fixture, "sony")));
  g_assert_nonnull (widgets_test_find_descendant (GTK_WIDGET (jbl), GTK_TYPE_DROP_DOWN));

  /* The rating reads as one sentence: stars are shapes, the number beside them. */
  rating = widgets_test_find_descendant (GTK_WIDGET (jbl), GTK_TYPE_BOX);
  g_assert_nonnull (rating);
  g_assert_cmpstr (triage_aitp_product_card_get_option (jbl)->id, ==, "jbl-black");

  /* The sand variant has its own price. */
  triage_aitp_product_card_select_variant (jbl, "jbl-sand");
  g_assert_cmpstr (triage_aitp_product_card_get_option (jbl)->id, ==, "jbl-sand");
  triage_aitp_product_card_set_quantity (jbl, 2);
  g_assert_false (can_send (fixture));
  triage_aitp_product_card_set_chosen (jbl, TRUE);
  g_assert_true (can_send (fixture));
  g_assert_cmpstr (gtk_label_get_label (fixture->view->summary_label), ==, "1 product chosen");

  /* This agent asked for a confirmation. */
  send (fixture);
  dialog = triage_aitp_view_get_confirm_dialog (fixture->view);
  g_assert_nonnull (dialog);
  g_assert_cmpstr (adw_message_dialog_get_body (ADW_MESSAGE_DIALOG (dialog)), ==,
                   "Your answer will be sent to Shop Bot: JBL Tour One M2 (Sand) × 2");
  WAIT_UNTIL (triage_confirm_dialog_get_armed (dialog));
  adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), TRIAGE_CONFIRM_RESPONSE_CONFIRM);
  widgets_test_pump ();
  g_assert_cmpuint (fixture->record.count, ==, 1);
  g_assert_cmpstr (fixture->record.json, ==,
                   "{\"options\":[{\"id\":\"jbl-sand\",\"name\":\"JBL Tour One M2 (Sand)\",\"quantity\":2}]}");
}

/* Whether a label under @widget, or @widget, reads @text. */
static gboolean
shows_label (GtkWidget  *widget,
             const char *text)
{
  if (GTK_IS_LABEL (widget) && g_str_equal (gtk_label_get_label (GTK_LABEL (widget)), text))
    return TRUE;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (shows_label (child, text))
      return TRUE;

  return FALSE;
}

static const char *
shown_variant (GtkDropDown *picker)
{
  return gtk_string_object_get_string (gtk_drop_down_get_selected_item (picker));
}

/* The variant picker lists the picked variant alone until its popup opens
 * (GTK 4.8's popup makes a row for each item); then every one, the picked
 * one selected. Picked before and after, from the keyboard too, the card
 * and the answer follow. */
static void
test_product_variants (Fixture       *fixture,
                       gconstpointer  data)
{
  TriageAitpProductCard *jbl;
  GtkDropDown *picker;
  GtkWidget *popover;
  TriageConfirmDialog *dialog;

  show (fixture, "products-variants.json");
  jbl = TRIAGE_AITP_PRODUCT_CARD (option (fixture, "jbl"));
  picker = GTK_DROP_DOWN (widgets_test_find_descendant (GTK_WIDGET (jbl), GTK_TYPE_DROP_DOWN));
  popover = widgets_test_find_descendant (GTK_WIDGET (picker), GTK_TYPE_POPOVER);
  g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (picker)), ==, 1);
  g_assert_cmpstr (shown_variant (picker), ==, "Black");
  g_assert_true (shows_label (GTK_WIDGET (jbl), "JBL Tour One M2, black (Black)"));

  /* Picked before the popup opened, as a draft puts it back. */
  triage_aitp_product_card_select_variant (jbl, "jbl-sand");
  g_assert_cmpstr (triage_aitp_product_card_get_option (jbl)->id, ==, "jbl-sand");
  g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (picker)), ==, 1);
  g_assert_cmpstr (shown_variant (picker), ==, "Sand");
  g_assert_true (shows_label (GTK_WIDGET (jbl), "JBL Tour One M2 (Sand)"));

  /* Opened from the keyboard: every variant, the sand one still picked. */
  g_assert_true (gtk_widget_grab_focus (GTK_WIDGET (picker)));
  g_assert_true (ui_test_press_key (fixture->window, "space"));
  WAIT_UNTIL (gtk_widget_get_visible (popover));
  g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (picker)), ==, 2);
  g_assert_cmpuint (gtk_drop_down_get_selected (picker), ==, 1);
  g_assert_cmpstr (triage_aitp_product_card_get_option (jbl)->id, ==, "jbl-sand");

  /* The first variant from the list's keys: the card follows. */
  WAIT_UNTIL (gtk_widget_is_ancestor (gtk_root_get_focus (GTK_ROOT (fixture->window)), popover));
  g_assert_true (ui_test_press_key (fixture->window, "Home"));
  g_assert_true (ui_test_press_key (fixture->window, "Return"));
  WAIT_UNTIL (!gtk_widget_get_visible (popover));
  g_assert_cmpstr (triage_aitp_product_card_get_option (jbl)->id, ==, "jbl-black");
  g_assert_cmpstr (shown_variant (picker), ==, "Black");
  g_assert_true (shows_label (GTK_WIDGET (jbl), "JBL Tour One M2, black (Black)"));

  /* Picked again after: the list keeps every variant. */
  triage_aitp_product_card_select_variant (jbl, "jbl-sand");
  g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (picker)), ==, 2);
  g_assert_cmpuint (gtk_drop_down_get_selected (picker), ==, 1);
  triage_aitp_product_card_select_variant (jbl, "jbl-black");
  g_assert_cmpuint (gtk_drop_down_get_selected (picker), ==, 0);

  triage_aitp_product_card_set_chosen (jbl, TRUE);
  send (fixture);
  dialog = triage_aitp_view_get_confirm_dialog (fixture->view);
  WAIT_UNTIL (triage_confirm_dialog_get_armed (dialog));
  adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), TRIAGE_CONFIRM_RESPONSE_CONFIRM);
  widgets_test_pump ();
  g_assert_cmpstr (fixture->record.json, ==,
                   "{\"options\":[{\"id\":\"jbl-black\",\"name\":\"JBL Tour One M2, black (Black)\",\"quantity\":1}]}");
  /* Answered: the picker is read-only too. */
  g_assert_false (gtk_widget_get_sensitive (GTK_WIDGET (picker)));
}

/* The card's "View Product" button (the one with its style class), or NULL. */
static GtkWidget *
find_link_button (GtkWidget *widget)
{
  if (gtk_widget_has_css_class (widget, "aitp-product-link"))
    return widget;

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_link_button (child);

      if (found != NULL)
        return found;
    }

  return NULL;
}

/* "View Product" opens https only, as the pictures are fetched: a product
 * whose link is http, or any other scheme, gets no such button. */
static void
test_product_link (Fixture       *fixture,
                   gconstpointer  data)
{
  const char *links[] = { "https://example.com/jbl", "http://example.com/jbl",
                          "file:///etc/passwd", "javascript:alert(1)" };

  for (guint i = 0; i < G_N_ELEMENTS (links); i++)
    {
      g_autofree char *seed = app_test_aitp_message ("products-variants.json");
      g_autoptr(GString) message = g_string_new (seed);
      g_autofree char *url = g_strdup_printf ("\"url\": \"%s\"", links[i]);
      TriageAitpProductCard *jbl;
      GtkWidget *link;

      g_string_replace (message, "\"url\": \"https://example.com/jbl\"", url, 0);
      show_message (fixture, message->str);
      jbl = TRIAGE_AITP_PRODUCT_CARD (option (fixture, "jbl"));
      link = find_link_button (GTK_WIDGET (jbl));
      g_assert_nonnull (link);
      g_assert_cmpint (gtk_widget_get_visible (link), ==, i == 0);
    }
}

/* A product whose quote has expired cannot be chosen, and says why. */
static void
test_expired_quote (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autofree char *seed = app_test_aitp_message ("seed-003-products-request.json");
  g_autoptr(GString) message = g_string_new (seed);
  TriageAitpProductCard *card;
  GtkWidget *check;

  g_string_replace (message, "2050-01-01T00:00:00Z", "2021-01-01T00:00:00Z", 1);
  show_message (fixture, message->str);
  card = TRIAGE_AITP_PRODUCT_CARD (option (fixture, "product_1"));
  check = widgets_test_find_descendant (GTK_WIDGET (card), GTK_TYPE_CHECK_BUTTON);

  g_assert_false (triage_aitp_product_card_get_available (card));
  g_assert_false (gtk_widget_get_sensitive (check));
  triage_aitp_product_card_set_chosen (card, TRUE);
  g_assert_false (triage_aitp_product_card_get_chosen (card));
  g_assert_false (can_send (fixture));
}

/* Settled while open, or shown from the history: read-only, the answer in sight. */
static void
test_read_only (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(JsonNode) answer = json_from_string ("{\"options\": [{\"id\": \"green\", \"name\": \"Green\"}]}", NULL);
  g_autoptr(GDateTime) when = g_date_time_new_now_utc ();
  g_autoptr(AtpResponse) response = NULL;

  show (fixture, "seed-003-checkbox-request.json");
  triage_request_view_set_status (TRIAGE_REQUEST_VIEW (fixture->view), ATP_STATUS_INVALIDATED,
                                  "no longer needed", NULL, NULL);
  g_assert_true (triage_aitp_view_get_read_only (fixture->view));
  g_assert_false (gtk_widget_get_sensitive (option (fixture, "red")));
  g_assert_cmpstr (triage_request_banner_get_title (fixture->view->banner), ==, "Withdrawn by Shop Bot");

  /* Answered elsewhere: what and by whom. */
  show (fixture, "seed-003-checkbox-request.json");
  response = atp_response_new (fixture->notification->id, "decision", answer, when, "alex",
                               ATP_RESPONDER_HUMAN);
  triage_request_view_set_status (TRIAGE_REQUEST_VIEW (fixture->view), ATP_STATUS_RESPONDED, NULL,
                                  NULL, NULL);
  triage_request_view_set_response (TRIAGE_REQUEST_VIEW (fixture->view), response);
  g_assert_true (g_str_has_prefix (triage_request_banner_get_title (fixture->view->banner),
                                   "Answered Green by alex on another device"));
  g_assert_true (gtk_check_button_get_active (GTK_CHECK_BUTTON (option (fixture, "green"))));

  /* From the history: the answer given here, delivered. */
  show (fixture, "seed-003-checkbox-request.json");
  triage_request_view_set_sent_answer (TRIAGE_REQUEST_VIEW (fixture->view), "decision", answer);
  triage_request_view_set_delivery_state (TRIAGE_REQUEST_VIEW (fixture->view), TRIAGE_DELIVERY_SENT);
  g_assert_cmpstr (triage_request_banner_get_title (fixture->view->banner), ==, "You answered Green");
  g_assert_true (gtk_check_button_get_active (GTK_CHECK_BUTTON (option (fixture, "green"))));
  g_assert_false (gtk_widget_get_sensitive (option (fixture, "green")));

  /* An answer that could not leave: editable again, the reason said. */
  show (fixture, "seed-003-radio-request.json");
  triage_request_view_show_answer_error (TRIAGE_REQUEST_VIEW (fixture->view), "disk full");
  g_assert_false (triage_aitp_view_get_read_only (fixture->view));
  g_assert_cmpstr (triage_request_banner_get_detail (fixture->view->banner), ==, "disk full");
}

/* Usable at 360 px with large text: nothing asks for more width. */
static void
test_narrow (Fixture       *fixture,
             gconstpointer  data)
{
  GtkSettings *settings = gtk_settings_get_default ();
  int dpi = 0;
  int minimum;

  g_object_get (settings, "gtk-xft-dpi", &dpi, NULL);
  g_object_set (settings, "gtk-xft-dpi", (int) (dpi > 0 ? dpi * 1.5 : 96 * 1024 * 1.5), NULL);
  show (fixture, "products-variants.json");
  gtk_widget_measure (GTK_WIDGET (fixture->view), GTK_ORIENTATION_HORIZONTAL, -1, &minimum, NULL, NULL, NULL);
  g_assert_cmpint (minimum, <=, 360);
  show (fixture, "seed-003-confirmation-request.json");
  gtk_widget_measure (GTK_WIDGET (fixture->view), GTK_ORIENTATION_HORIZONTAL, -1, &minimum, NULL, NULL, NULL);
  g_assert_cmpint (minimum, <=, 360);
  g_object_set (settings, "gtk-xft-dpi", dpi, NULL);
}

/* Pictures: an https server of the test's own, trusted by the view's session. */

typedef struct
{
  guint requests;
} Pictures;

static void
picture_handler (SoupServer        *server,
                 SoupServerMessage *message,
                 const char        *path,
                 GHashTable        *query,
                 gpointer           user_data)
{
  Pictures *pictures = user_data;

  pictures->requests++;
  if (g_str_equal (path, "/blue.png"))
    {
      g_autoptr(GdkPixbuf) pixbuf = gdk_pixbuf_new (GDK_COLORSPACE_RGB, FALSE, 8, 4, 4);
      g_autofree char *png = NULL;
      gsize size = 0;

      gdk_pixbuf_fill (pixbuf, 0x3366ccff);
      g_assert_true (gdk_pixbuf_save_to_buffer (pixbuf, &png, &size, "png", NULL, NULL));
      soup_server_message_set_status (message, SOUP_STATUS_OK, NULL);
      soup_server_message_set_response (message, "image/png", SOUP_MEMORY_COPY, png, size);
    }
  else
    soup_server_message_set_status (message, SOUP_STATUS_NOT_FOUND, NULL);
}

static void
test_pictures (Fixture       *fixture,
               gconstpointer  data)
{
  g_autofree char *cert_path = g_test_build_filename (G_TEST_DIST, "server", "tls", "cert.pem", NULL);
  g_autofree char *key_path = g_test_build_filename (G_TEST_DIST, "server", "tls", "key.pem", NULL);
  g_autoptr(GTlsCertificate) certificate = NULL;
  g_autoptr(GTlsDatabase) trusted = NULL;
  g_autoptr(SoupServer) server = NULL;
  g_autoptr(SoupSession) session = NULL;
  g_autoptr(GError) error = NULL;
  g_autoslist(GUri) uris = NULL;
  g_autofree char *message = NULL;
  TriageAitpImages *images = triage_aitp_view_get_images (fixture->view);
  Pictures pictures = { 0 };
  GtkWidget *button;
  int port;

  certificate = g_tls_certificate_new_from_files (cert_path, key_path, &error);
  g_assert_no_error (error);
  trusted = g_tls_file_database_new (cert_path, &error);
  g_assert_no_error (error);
  server = soup_server_new ("tls-certificate", certificate, NULL);
  soup_server_add_handler (server, NULL, picture_handler, &pictures, NULL);
  g_assert_true (soup_server_listen_local (server, 0, SOUP_SERVER_LISTEN_IPV4_ONLY |
                                                     SOUP_SERVER_LISTEN_HTTPS, &error));
  g_assert_no_error (error);
  uris = soup_server_get_uris (server);
  port = g_uri_get_port (uris->data);

  session = soup_session_new ();
  soup_session_set_tls_database (session, trusted);
  triage_aitp_view_set_image_session (fixture->view, session);

  message = g_strdup_printf ("{\"$schema\": \"https://aitp.dev/v1/decisions/schema.json\","
                             " \"request_decision\": {\"id\": \"pics\", \"type\": \"checkbox\", \"options\": ["
                             " {\"id\": \"blue\", \"name\": \"Blue\", \"image_url\": \"https://127.0.0.1:%d/blue.png\"},"
                             " {\"id\": \"red\", \"name\": \"Red\", \"image_url\": \"https://127.0.0.1:%d/missing.png\"},"
                             " {\"id\": \"plain\", \"name\": \"Plain\", \"image_url\": \"http://127.0.0.1:%d/blue.png\"}]}}",
                             port, port, port);
  show_message (fixture, message);

  /* Not one request before the person asks; http is never offered. */
  widgets_test_wait_ms (200);
  g_assert_cmpuint (pictures.requests, ==, 0);
  g_assert_false (triage_aitp_picture_get_shown (g_ptr_array_index (fixture->view->pictures, 0)));

  button = widgets_test_find_descendant (GTK_WIDGET (fixture->view->images_box), GTK_TYPE_BUTTON);
  g_assert_nonnull (button);
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (button)), ==, "Show Images from 127.0.0.1");
  g_signal_emit_by_name (button, "clicked");
  WAIT_UNTIL (triage_aitp_images_get_n_loading (images) == 0);

  g_assert_cmpuint (pictures.requests, ==, 2);
  g_assert_true (triage_aitp_picture_get_shown (g_ptr_array_index (fixture->view->pictures, 0)));
  /* A picture that failed leaves its placeholder; one over http is never loaded. */
  g_assert_false (triage_aitp_picture_get_shown (g_ptr_array_index (fixture->view->pictures, 1)));
  g_assert_false (triage_aitp_picture_get_shown (g_ptr_array_index (fixture->view->pictures, 2)));
  g_assert_null (widgets_test_find_descendant (GTK_WIDGET (fixture->view->images_box), GTK_TYPE_BUTTON));
}

/* The window's stack picks the AITP view for an AITP request. */
/* A decision's id and a picture's host of 5,000 characters without a space:
 * shown cut, with places to break (a host of 10,000 held the app for 8 s). */
static void
test_long_unbroken_strings (Fixture       *fixture,
                            gconstpointer  data)
{
  g_autofree char *run = g_strnfill (5000, 'h');
  g_autofree char *message = g_strdup_printf ("{\"$schema\": \"https://aitp.dev/v1/decisions/schema.json\","
                                              " \"request_decision\": {\"id\": \"%s\", \"type\": \"checkbox\","
                                              " \"options\": [{\"id\": \"a\", \"name\": \"A\","
                                              " \"image_url\": \"https://%s.example/a.jpg\"}]}}",
                                              run, run);

  show_message (fixture, message);
  g_assert_cmpint (widgets_test_longest_label (GTK_WIDGET (fixture->view)), <, 1000);
}

static void
test_stack (void)
{
  GtkWidget *stack = triage_request_stack_new ();
  g_autofree char *message = app_test_aitp_message ("seed-003-radio-request.json");
  g_autoptr(AtpNotification) aitp = app_test_aitp_notification_new ("6b1c3a7e-0000-4000-8000-00000000a17b",
                                                                    "Pick", message);
  g_autoptr(AtpNotification) atp = app_test_notification ("7b1c3a7e-0000-4000-8000-00000000a17b", 0, 10, NULL);

  g_object_ref_sink (stack);
  triage_request_view_set_request (TRIAGE_REQUEST_VIEW (stack), aitp);
  g_assert_true (TRIAGE_IS_AITP_VIEW (triage_request_stack_get_view (TRIAGE_REQUEST_STACK (stack))));
  triage_request_view_set_request (TRIAGE_REQUEST_VIEW (stack), atp);
  g_assert_false (TRIAGE_IS_AITP_VIEW (triage_request_stack_get_view (TRIAGE_REQUEST_STACK (stack))));
  g_object_unref (stack);
}

int
main (int   argc,
      char *argv[])
{
  widgets_test_init (&argc, &argv);

#define ADD(name, func) \
  g_test_add ("/aitp-view/" name, Fixture, NULL, fixture_setup, func, fixture_teardown)

  ADD ("radio", test_radio);
  ADD ("radio-list", test_radio_list);
  ADD ("focus-kept", test_focus_kept);
  ADD ("checkbox", test_checkbox);
  ADD ("send-key-from-answer", test_send_key_from_answer);
  ADD ("confirmation", test_confirmation);
  ADD ("confirmation-asked", test_confirmation_asked);
  ADD ("products", test_products);
  ADD ("product-variants", test_product_variants);
  ADD ("product-link", test_product_link);
  ADD ("expired-quote", test_expired_quote);
  ADD ("read-only", test_read_only);
  ADD ("narrow", test_narrow);
  ADD ("pictures", test_pictures);
  ADD ("long-unbroken-strings", test_long_unbroken_strings);
  g_test_add_func ("/aitp-view/stack", test_stack);

  return g_test_run ();
}
