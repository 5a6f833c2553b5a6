/* test-aitp-view-drafts.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The AITP view's drafts in a real SQLite file (suite 'ui'), as the ATP
 * decision view keeps its own: what is chosen is written a moment after the
 * person stops, not at each change; at once when another request opens or
 * the view goes; read back into a new view on a new store (a restart), only
 * into options still as they opened; none once the request is answered.
 */

#define G_LOG_DOMAIN "test-aitp-view-drafts"

#include "app-test-common.h"
#include "store-test-util.h"
#include "triage-aitp-product-card.h"
#include "triage-aitp-view-private.h"
#include "ui-test-util.h"
#include "widgets-test-util.h"

#define DRAFT_ID "3d1c7a52-5b0e-4a53-8d7e-2f0c9a1b6e41"
#define OTHER_ID "9a0e2b44-61f3-4c8e-a7d2-5e3b1f0c8d27"

typedef struct
{
  TriageAitpView  *view;
  GtkWidget       *window;
  AtpNotification *notification;
  SubmitRecord     record;
  char            *dir;
  char            *path;
  TriageStore     *store;
} Fixture;

/* A view in a window of its own, keeping drafts in the store at f->path. */
static void
new_view (Fixture *f)
{
  f->view = TRIAGE_AITP_VIEW (triage_aitp_view_new ());
  triage_aitp_view_set_confirm_grace_period (f->view, 0);
  g_signal_connect (f->view, "submit", G_CALLBACK (widgets_test_on_view_submit_record), &f->record);
  f->window = widgets_test_window (GTK_WIDGET (f->view), 600, 900);
  g_object_set (f->view, "store", f->store, NULL);
}

static void
close_view (Fixture *f)
{
  widgets_test_view_teardown (f->window, &f->view, &f->notification, &f->record);
}

/* Quit and start again: the view goes, the store is closed and opened anew. */
static void
restart (Fixture *f)
{
  close_view (f);
  store_test_close (&f->store);
  f->store = store_test_open (f->path);
  new_view (f);
}

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  f->dir = g_dir_make_tmp ("test-aitp-drafts-XXXXXX", NULL);
  g_assert_nonnull (f->dir);
  f->path = g_build_filename (f->dir, "triage.db", NULL);
  f->store = store_test_open (f->path);
  new_view (f);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  close_view (f);
  store_test_close (&f->store);
  ui_test_remove_tree (f->dir);
  g_free (f->path);
  g_free (f->dir);
}

/* Opens request @id, the AITP message @seed, without waiting for its stored draft. */
static void
open_request (Fixture    *f,
              const char *id,
              const char *seed)
{
  g_autofree char *message = app_test_aitp_message (seed);

  g_clear_pointer (&f->notification, atp_notification_unref);
  f->notification = app_test_aitp_notification_new (id, "A decision", message);
  triage_request_view_set_request (TRIAGE_REQUEST_VIEW (f->view), f->notification);
}

static void
show (Fixture    *f,
      const char *id,
      const char *seed)
{
  open_request (f, id, seed);
  triage_store_wait_all ();
  widgets_test_pump ();
}

static GtkCheckButton *
check (Fixture    *f,
       const char *id)
{
  GtkWidget *widget = triage_aitp_view_get_option_widget (f->view, id);

  g_assert_true (GTK_IS_CHECK_BUTTON (widget));
  return GTK_CHECK_BUTTON (widget);
}

static gboolean
checked (Fixture    *f,
         const char *id)
{
  return gtk_check_button_get_active (check (f, id));
}

static gboolean
stored_is (Fixture    *f,
           const char *id,
           const char *want)
{
  return store_test_draft_is (f->path, id, want);
}

/* Options ticked one after the other are one write, once the person stops;
 * unticked again, the draft goes. */
static void
test_debounced (Fixture       *f,
                gconstpointer  data)
{
  show (f, DRAFT_ID, "seed-003-checkbox-request.json");
  gtk_check_button_set_active (check (f, "red"), TRUE);
  gtk_check_button_set_active (check (f, "blue"), TRUE);
  /* Not at each change: nothing yet. */
  triage_store_wait_all ();
  g_assert_true (stored_is (f, DRAFT_ID, NULL));
  g_assert_true (triage_draft_keeper_get_pending (f->view->drafts));

  WAIT_UNTIL (stored_is (f, DRAFT_ID, "{\"blue\":true,\"red\":true}"));

  gtk_check_button_set_active (check (f, "red"), FALSE);
  gtk_check_button_set_active (check (f, "blue"), FALSE);
  WAIT_UNTIL (stored_is (f, DRAFT_ID, NULL));
}

/* Another request opened, or the app quit: written at once, no wait. A new
 * view on a new store shows it again. */
static void
test_written_at_once (Fixture       *f,
                      gconstpointer  data)
{
  show (f, DRAFT_ID, "seed-003-checkbox-request.json");
  gtk_check_button_set_active (check (f, "blue"), TRUE);
  show (f, OTHER_ID, "seed-003-radio-request.json");
  g_assert_true (stored_is (f, DRAFT_ID, "{\"blue\":true}"));
  g_assert_false (triage_draft_keeper_get_pending (f->view->drafts));

  gtk_check_button_set_active (check (f, "7"), TRUE);
  restart (f);
  g_assert_true (stored_is (f, OTHER_ID, "{\"7\":true}"));

  show (f, DRAFT_ID, "seed-003-checkbox-request.json");
  g_assert_true (checked (f, "blue"));
  g_assert_false (checked (f, "red"));
  show (f, OTHER_ID, "seed-003-radio-request.json");
  g_assert_true (checked (f, "7"));
  g_assert_false (checked (f, "0"));
}

/* A product card's variant, quantity and choice survive a restart. */
static void
test_products (Fixture       *f,
               gconstpointer  data)
{
  TriageAitpProductCard *jbl;
  TriageConfirmDialog *dialog;
  GtkDropDown *picker;
  GtkWidget *popover;

  show (f, DRAFT_ID, "products-variants.json");
  jbl = TRIAGE_AITP_PRODUCT_CARD (triage_aitp_view_get_option_widget (f->view, "jbl"));
  triage_aitp_product_card_select_variant (jbl, "jbl-sand");
  triage_aitp_product_card_set_quantity (jbl, 3);
  triage_aitp_product_card_set_chosen (jbl, TRUE);
  WAIT_UNTIL (stored_is (f, DRAFT_ID, "{\"jbl\":{\"id\":\"jbl-sand\",\"quantity\":3,\"chosen\":true}}"));

  restart (f);
  show (f, DRAFT_ID, "products-variants.json");
  jbl = TRIAGE_AITP_PRODUCT_CARD (triage_aitp_view_get_option_widget (f->view, "jbl"));
  g_assert_cmpstr (triage_aitp_product_card_get_option (jbl)->id, ==, "jbl-sand");
  g_assert_true (triage_aitp_product_card_get_chosen (jbl));
  /* The picker shows it, alone until its popup opens; then among the others. */
  picker = GTK_DROP_DOWN (widgets_test_find_descendant (GTK_WIDGET (jbl), GTK_TYPE_DROP_DOWN));
  popover = widgets_test_find_descendant (GTK_WIDGET (picker), GTK_TYPE_POPOVER);
  g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (picker)), ==, 1);
  g_assert_cmpstr (gtk_string_object_get_string (gtk_drop_down_get_selected_item (picker)), ==, "Sand");
  g_assert_true (gtk_widget_grab_focus (GTK_WIDGET (picker)));
  g_assert_true (ui_test_press_key (f->window, "space"));
  WAIT_UNTIL (gtk_widget_get_visible (popover));
  g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (picker)), ==, 2);
  g_assert_cmpstr (gtk_string_object_get_string (gtk_drop_down_get_selected_item (picker)), ==, "Sand");
  gtk_popover_popdown (GTK_POPOVER (popover));
  g_assert_cmpstr (triage_aitp_product_card_get_option (jbl)->id, ==, "jbl-sand");
  g_assert_true (gtk_widget_is_sensitive (GTK_WIDGET (f->view->send_button)));
  /* This agent asks for a confirmation. */
  gtk_widget_activate_action (GTK_WIDGET (f->view), "aitp.send", NULL);
  dialog = triage_aitp_view_get_confirm_dialog (f->view);
  g_assert_nonnull (dialog);
  WAIT_UNTIL (triage_confirm_dialog_get_armed (dialog));
  adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), TRIAGE_CONFIRM_RESPONSE_CONFIRM);
  widgets_test_pump ();
  g_assert_cmpstr (f->record.json, ==,
                   "{\"options\":[{\"id\":\"jbl-sand\",\"name\":\"JBL Tour One M2 (Sand)\",\"quantity\":3}]}");
}

/* What the person picked before the stored draft was read back is kept. */
static void
test_untouched_only (Fixture       *f,
                     gconstpointer  data)
{
  triage_store_save_draft_async (f->store, DRAFT_ID, "{\"0\":true}", NULL, NULL, NULL);
  triage_store_save_draft_async (f->store, OTHER_ID, "{\"red\":true,\"blue\":true}", NULL, NULL, NULL);
  triage_store_wait_all ();

  open_request (f, DRAFT_ID, "seed-003-radio-request.json");
  gtk_check_button_set_active (check (f, "7"), TRUE);
  triage_store_wait_all ();
  widgets_test_pump ();
  g_assert_true (checked (f, "7"));
  g_assert_false (checked (f, "0"));

  open_request (f, OTHER_ID, "seed-003-checkbox-request.json");
  gtk_check_button_set_active (check (f, "green"), TRUE);
  triage_store_wait_all ();
  widgets_test_pump ();
  /* A tick is per option: those the person left alone come back. */
  g_assert_true (checked (f, "green"));
  g_assert_true (checked (f, "red"));
  g_assert_true (checked (f, "blue"));
}

/* Answered here: nothing is kept in memory, nothing written after. */
static void
test_answered (Fixture       *f,
               gconstpointer  data)
{
  show (f, DRAFT_ID, "seed-003-radio-request.json");
  gtk_check_button_set_active (check (f, "7"), TRUE);
  gtk_widget_activate_action (GTK_WIDGET (f->view), "aitp.send", NULL);
  widgets_test_pump ();
  g_assert_cmpuint (f->record.count, ==, 1);
  g_assert_true (triage_aitp_view_get_read_only (f->view));
  g_assert_false (triage_draft_keeper_get_pending (f->view->drafts));

  show (f, OTHER_ID, "seed-003-checkbox-request.json");
  g_assert_null (triage_draft_keeper_lookup (f->view->drafts, DRAFT_ID));
  g_assert_true (stored_is (f, DRAFT_ID, NULL));
}

int
main (int   argc,
      char *argv[])
{
  widgets_test_init (&argc, &argv);

#define DRAFTS_TEST_ADD(path, func) \
  g_test_add ("/aitp-view/drafts/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)

  DRAFTS_TEST_ADD ("debounced", test_debounced);
  DRAFTS_TEST_ADD ("written-at-once", test_written_at_once);
  DRAFTS_TEST_ADD ("products", test_products);
  DRAFTS_TEST_ADD ("untouched-only", test_untouched_only);
  DRAFTS_TEST_ADD ("answered", test_answered);

  return g_test_run ();
}
