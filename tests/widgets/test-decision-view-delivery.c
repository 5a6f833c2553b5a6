/* test-decision-view-delivery.c — test-decision-view's read-only states and
 * delivery: what was typed kept when a request settles, an answer sending,
 * queued, sent or refused, an answer not stored, an invalid request
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <string.h>

#include "decision-view-test-common.h"

/* The banner's status box, which carries its style. */
static GtkWidget *
banner_box (Fixture *fixture)
{
  GtkWidget *revealer = adw_bin_get_child (ADW_BIN (decision_view_test_banner (fixture)));

  return gtk_revealer_get_child (GTK_REVEALER (revealer));
}

void
decision_view_test_read_only_keeps_text (Fixture       *fixture,
                                         gconstpointer  data)
{
  TriageRequestBanner *banner = decision_view_test_banner (fixture);
  g_autoptr(GTimeZone) utc = g_time_zone_new_utc ();
  g_autoptr(GDateTime) now = g_date_time_new_now (utc);
  g_autoptr(GDateTime) when = g_date_time_new (utc, g_date_time_get_year (now), g_date_time_get_month (now),
                                               g_date_time_get_day_of_month (now), 14, 5, 0);
  const struct { AtpStatus status; const char *title; } cases[] = {
    { ATP_STATUS_EXPIRED, "Expired at 14:05" },
    { ATP_STATUS_INVALIDATED, "Withdrawn by Deploy Bot at 14:05" },
    { ATP_STATUS_RESPONDED, "Answered on another device at 14:05" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *kept = NULL;
      TriageResponseEditor *why;
      TriageResponseEditor *approve;

      decision_view_test_show (fixture, decision_view_test_all_actions, NULL, 0);
      decision_view_test_type_text (fixture, "why", "half typed <b>answer</b>");
      why = decision_view_test_editor (fixture, "why");
      approve = decision_view_test_editor (fixture, "approve");
      g_assert_true (triage_response_editor_get_valid (why));

      triage_decision_view_set_status (fixture->view, cases[i].status, "Deployment <cancelled>",
                                       when, "Nothing was sent.");
      g_assert_true (triage_decision_view_get_read_only (fixture->view));
      g_assert_true (decision_view_test_banner_shown (fixture));
      g_assert_cmpstr (triage_request_banner_get_title (banner), ==, cases[i].title);
      g_assert_true (g_str_has_prefix (triage_request_banner_get_detail (banner),
                                       "Reason: Deployment <cancelled>\nNothing was sent."));

      /* Editors frozen, the send controls gone, the text kept; a simple
       * action's button is the answer itself, so it stays, insensitive. */
      for (guint j = 0; j < fixture->notification->actions->len; j++)
        {
          const AtpAction *action = g_ptr_array_index (fixture->notification->actions, j);
          TriageResponseEditor *editor = decision_view_test_editor (fixture, action->id);

          g_assert_false (triage_response_editor_get_editable (editor));
        }
      g_assert_false (gtk_widget_is_visible (triage_response_editor_get_submit_button (why)));
      g_assert_true (gtk_widget_is_visible (triage_response_editor_get_submit_button (approve)));
      g_assert_false (gtk_widget_is_sensitive (triage_response_editor_get_submit_button (approve)));
      kept = decision_view_test_typed_text (fixture, "why");
      g_assert_cmpstr (kept, ==, "half typed <b>answer</b>");
      g_assert_false (triage_response_editor_submit (why));
      g_assert_cmpuint (fixture->record.count, ==, 0);
    }

  /* Back to pending (a status update undone): editable again. */
  triage_decision_view_set_status (fixture->view, ATP_STATUS_ACKNOWLEDGED, NULL, NULL, NULL);
  g_assert_false (triage_decision_view_get_read_only (fixture->view));
  g_assert_false (decision_view_test_banner_shown (fixture));
  g_assert_true (triage_response_editor_get_editable (decision_view_test_editor (fixture, "why")));
}

void
decision_view_test_delivery (Fixture       *fixture,
                             gconstpointer  data)
{
  TriageRequestBanner *banner = decision_view_test_banner (fixture);

  decision_view_test_show (fixture, decision_view_test_all_actions, NULL, 0);
  decision_view_test_type_text (fixture, "why", "Not today");
  decision_view_test_press (fixture, "why");

  /* Sent: read-only at once, so nothing goes twice. */
  g_assert_cmpuint (fixture->record.count, ==, 1);
  g_assert_cmpstr (fixture->record.action_id, ==, "why");
  g_assert_cmpstr (fixture->record.json, ==, "\"Not today\"");
  g_assert_cmpint (triage_decision_view_get_delivery_state (fixture->view), ==, TRIAGE_DELIVERY_SENDING);
  g_assert_true (triage_decision_view_get_read_only (fixture->view));
  g_assert_cmpstr (triage_request_banner_get_title (banner), ==, "Sending your answer…");
  g_assert_cmpstr (triage_request_banner_get_detail (banner), ==, "You answered ‘Reject with a reason’: “Not today”");
  g_assert_false (triage_response_editor_submit (decision_view_test_editor (fixture, "why")));
  decision_view_test_press (fixture, "later");
  g_assert_cmpuint (fixture->record.count, ==, 1);

  /* The server asked to wait (a 429's Retry-After): it says until when,
   * on the clock of every time the app shows, and that the answer goes
   * by itself then; the wait over, it is sending again. */
  {
    g_autoptr(GDateTime) now = g_date_time_new_now_local ();
    g_autoptr(GDateTime) until = g_date_time_new_local (g_date_time_get_year (now),
                                                        g_date_time_get_month (now),
                                                        g_date_time_get_day_of_month (now), 14, 32, 40);

    triage_request_view_set_delivery_wait (TRIAGE_REQUEST_VIEW (fixture->view), until);
    g_assert_cmpstr (triage_request_banner_get_title (banner), ==,
                     "The server asked to wait — sending at 14:32");
    g_assert_cmpstr (triage_request_banner_get_detail (banner), ==,
                     "You answered ‘Reject with a reason’: “Not today”\n"
                     "It is saved and goes by itself then.");
    g_assert_true (triage_decision_view_get_read_only (fixture->view));
    triage_request_view_set_delivery_wait (TRIAGE_REQUEST_VIEW (fixture->view), NULL);
    g_assert_cmpstr (triage_request_banner_get_title (banner), ==, "Sending your answer…");
  }

  triage_decision_view_set_delivery_state (fixture->view, TRIAGE_DELIVERY_QUEUED);
  g_assert_cmpstr (triage_request_banner_get_title (banner), ==, "Queued, will send when online");

  triage_decision_view_set_delivery_state (fixture->view, TRIAGE_DELIVERY_SENT);
  g_assert_cmpstr (triage_request_banner_get_title (banner), ==, "You answered ‘Reject with a reason’: “Not today”");
  g_assert_cmpstr (triage_request_banner_get_detail (banner), ==, "Sent: the service has your answer.");
  g_assert_true (gtk_widget_has_css_class (banner_box (fixture), "banner-success"));

  triage_decision_view_show_delivery_error (fixture->view, "The server refused the answer: bad <data>");
  g_assert_cmpint (triage_decision_view_get_delivery_state (fixture->view), ==, TRIAGE_DELIVERY_FAILED);
  g_assert_cmpstr (triage_request_banner_get_title (banner), ==, "The answer was not accepted");
  g_assert_true (g_str_has_prefix (triage_request_banner_get_detail (banner),
                                   "The server refused the answer: bad <data>"));
  g_assert_true (triage_decision_view_get_read_only (fixture->view));

  /* The app may hand it back (e.g. it could not store the answer). */
  triage_decision_view_set_delivery_state (fixture->view, TRIAGE_DELIVERY_NONE);
  g_assert_false (triage_decision_view_get_read_only (fixture->view));
  g_assert_false (decision_view_test_banner_shown (fixture));
}

void
decision_view_test_answer_error (Fixture       *fixture,
                                 gconstpointer  data)
{
  TriageRequestBanner *banner = decision_view_test_banner (fixture);
  g_autofree char *kept = NULL;
  GtkStack *stack = GTK_STACK (decision_view_test_part (fixture, "stack"));

  decision_view_test_show (fixture, decision_view_test_all_actions, NULL, 0);
  decision_view_test_type_text (fixture, "why", "Not today");
  decision_view_test_press (fixture, "why");
  g_assert_true (triage_decision_view_get_read_only (fixture->view));

  /* It did not leave (not stored): editable again, the text and the reason shown. */
  triage_decision_view_show_answer_error (fixture->view, "The answer could not be saved: disk full");
  g_assert_false (triage_decision_view_get_read_only (fixture->view));
  g_assert_cmpint (triage_decision_view_get_delivery_state (fixture->view), ==, TRIAGE_DELIVERY_NONE);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (stack), ==, "decision");
  g_assert_cmpstr (triage_request_banner_get_title (banner), ==, "Your answer was not sent");
  g_assert_cmpstr (triage_request_banner_get_detail (banner), ==, "The answer could not be saved: disk full");
  kept = decision_view_test_typed_text (fixture, "why");
  g_assert_cmpstr (kept, ==, "Not today");

  /* Sending again clears it. */
  decision_view_test_press (fixture, "why");
  g_assert_cmpuint (fixture->record.count, ==, 2);
  g_assert_cmpstr (triage_request_banner_get_title (banner), ==, "Sending your answer…");
}

void
decision_view_test_same_request_keeps_input (Fixture       *fixture,
                                             gconstpointer  data)
{
  g_autoptr(AtpNotification) again = NULL;
  g_autoptr(AtpNotification) other = NULL;
  g_autofree char *kept = NULL;
  g_autofree char *fresh = NULL;

  fixture->notification = widgets_test_notification (decision_view_test_all_actions, NULL, 0);
  triage_decision_view_set_notification (fixture->view, fixture->notification);
  decision_view_test_type_text (fixture, "why", "keep me");

  /* The same request again (a resync): what was typed stays. */
  again = widgets_test_notification (decision_view_test_all_actions, NULL, 0);
  triage_decision_view_set_notification (fixture->view, again);
  kept = decision_view_test_typed_text (fixture, "why");
  g_assert_cmpstr (kept, ==, "keep me");

  /* And it can still be sent: the editors were made for the request as
   * first received, the view now holds the copy read again. */
  decision_view_test_press (fixture, "why");
  g_assert_cmpuint (fixture->record.count, ==, 1);
  g_assert_cmpstr (fixture->record.action_id, ==, "why");
  g_assert_cmpstr (fixture->record.json, ==, "\"keep me\"");

  /* Another request: a fresh form. */
  other = widgets_test_notification_with_id ("6fa459ea-ee8a-4ca4-894e-db77e160355e",
                                             decision_view_test_all_actions, NULL, 0);
  triage_decision_view_set_notification (fixture->view, other);
  fresh = decision_view_test_typed_text (fixture, "why");
  g_assert_cmpstr (fresh, ==, "");
}

#define DRAFT_ID "0b6f1c1e-7a53-4a39-9d5b-3f4d2f8c1a10"
#define OTHER_ID "6fa459ea-ee8a-4ca4-894e-db77e160355e"

static GtkWidget *
draft_input (Fixture    *fixture,
             const char *action_id)
{
  return triage_response_editor_get_input (decision_view_test_editor (fixture, action_id));
}

static gboolean
draft_option_active (Fixture    *fixture,
                     const char *action_id,
                     guint       index)
{
  GPtrArray *buttons = triage_response_editor_get_option_buttons (decision_view_test_editor (fixture, action_id));

  return gtk_check_button_get_active (g_ptr_array_index (buttons, index));
}

/* Shows the request of @id as the list gives it: a copy of its own. */
static void
draft_show (Fixture    *fixture,
            const char *id)
{
  g_clear_pointer (&fixture->notification, atp_notification_unref);
  fixture->notification = widgets_test_notification_with_id (id, decision_view_test_draft_actions, NULL, 0);
  triage_decision_view_set_notification (fixture->view, fixture->notification);
  widgets_test_pump ();
}

void
decision_view_test_draft_kept (Fixture       *fixture,
                               gconstpointer  data)
{
  g_autofree char *kept = NULL;
  g_autofree char *fresh = NULL;
  g_autofree char *gone = NULL;

  draft_show (fixture, DRAFT_ID);
  decision_view_test_type_text (fixture, "why", "no");   /* too short yet: a draft all the same */
  gtk_editable_set_text (GTK_EDITABLE (draft_input (fixture, "n")), "7");
  gtk_check_button_set_active (g_ptr_array_index (triage_response_editor_get_option_buttons (
                                 decision_view_test_editor (fixture, "env")), 1), TRUE);
  gtk_check_button_set_active (g_ptr_array_index (triage_response_editor_get_option_buttons (
                                 decision_view_test_editor (fixture, "checks")), 0), TRUE);
  gtk_range_set_value (GTK_RANGE (draft_input (fixture, "risk")), 4);

  /* The person looks at another request: a fresh form there. */
  draft_show (fixture, OTHER_ID);
  fresh = decision_view_test_typed_text (fixture, "why");
  g_assert_cmpstr (fresh, ==, "");
  g_assert_false (draft_option_active (fixture, "env", 1));

  /* Back: everything entered is there again, and checked again. */
  draft_show (fixture, DRAFT_ID);
  kept = decision_view_test_typed_text (fixture, "why");
  g_assert_cmpstr (kept, ==, "no");
  g_assert_false (triage_response_editor_get_valid (decision_view_test_editor (fixture, "why")));
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (draft_input (fixture, "n"))), ==, "7");
  g_assert_true (triage_response_editor_get_valid (decision_view_test_editor (fixture, "n")));
  g_assert_false (draft_option_active (fixture, "env", 0));
  g_assert_true (draft_option_active (fixture, "env", 1));
  g_assert_true (draft_option_active (fixture, "checks", 0));
  g_assert_false (draft_option_active (fixture, "checks", 1));
  g_assert_true (triage_response_editor_get_valid (decision_view_test_editor (fixture, "risk")));
  g_assert_cmpfloat (gtk_range_get_value (GTK_RANGE (draft_input (fixture, "risk"))), ==, 4);

  /* An answer sent takes its request's draft with it. */
  decision_view_test_press (fixture, "n");
  g_assert_cmpuint (fixture->record.count, ==, 1);
  g_assert_cmpstr (fixture->record.json, ==, "7");
  draft_show (fixture, OTHER_ID);
  draft_show (fixture, DRAFT_ID);
  gone = decision_view_test_typed_text (fixture, "why");
  g_assert_cmpstr (gone, ==, "");
}

/* The banner says the service's and the server's words (an action's label,
 * a withdrawal's reason) as every label does: a bidirectional override is
 * shown, never obeyed, and a huge reason is cut. */
void
decision_view_test_banner_hostile_text (Fixture       *fixture,
                                        gconstpointer  data)
{
  TriageRequestBanner *banner = decision_view_test_banner (fixture);
  g_autofree char *long_reason = g_strnfill (100000, 'r');
  g_autofree char *reason = g_strconcat ("\u202e", long_reason, NULL);

  decision_view_test_show (fixture,
                           "[{\"id\": \"go\", \"label\": \"Go \u202etset\", \"response_type\": \"simple\"}]",
                           NULL, 0);
  decision_view_test_press (fixture, "go");
  g_assert_cmpuint (fixture->record.count, ==, 1);
  g_assert_cmpstr (triage_request_banner_get_detail (banner), ==, "You answered ‘Go \uFFFDtset’");

  decision_view_test_show (fixture, decision_view_test_all_actions, NULL, 0);
  triage_decision_view_set_status (fixture->view, ATP_STATUS_INVALIDATED, reason, NULL, NULL);
  g_assert_true (g_str_has_prefix (triage_request_banner_get_detail (banner), "Reason: \uFFFDrrr"));
  g_assert_cmpint (strlen (triage_request_banner_get_detail (banner)), <, 2000);
}

void
decision_view_test_show_error (Fixture       *fixture,
                               gconstpointer  data)
{
  AdwStatusPage *page = ADW_STATUS_PAGE (decision_view_test_part (fixture, "error_page"));
  GtkStack *stack = GTK_STACK (decision_view_test_part (fixture, "stack"));

  decision_view_test_show (fixture, decision_view_test_all_actions,
                           decision_view_test_deploy_context, 0);
  triage_decision_view_show_error (fixture->view, "actions[0].options: <b>required</b> & missing");

  /* Nothing half built: the request is gone, the error is shown as text. */
  g_assert_cmpstr (gtk_stack_get_visible_child_name (stack), ==, "error");
  g_assert_null (triage_decision_view_get_notification (fixture->view));
  g_assert_null (triage_decision_view_get_editor (fixture->view, "why"));
  g_assert_cmpstr (adw_status_page_get_description (page), ==,
                   "actions[0].options: &lt;b&gt;required&lt;/b&gt; &amp; missing");

  decision_view_test_show (fixture, decision_view_test_all_actions,
                           decision_view_test_deploy_context, 0);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (stack), ==, "decision");

  triage_decision_view_set_notification (fixture->view, NULL);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (stack), ==, "empty");
}
