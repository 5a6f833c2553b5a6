/* test-decision-view-settled.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A settled request still shows what was asked and what was answered
 * (suite 'ui'). A request with all seven response types, half answered, is
 * settled in each of the five ways (withdrawn, answered elsewhere, answered
 * here and delivered, expired, refused for good): every action keeps its
 * label and its control, insensitive, with what was typed or chosen; the
 * banner names the outcome; the action chosen is marked, with a check and
 * a word. A request read back from the history shows the answer in its
 * control. What was typed and not entered stays as typed, the field
 * focused or its window left.
 */

#define G_LOG_DOMAIN "test-decision-view-settled"

#include "triage-decision-view-private.h"
#include "triage-response-editor-private.h"
#include "widgets-test-util.h"

static const char seven_types[] =
  "["
  "{\"id\": \"stop\", \"label\": \"Stop\", \"response_type\": \"simple\"},"
  "{\"id\": \"logs\", \"label\": \"Include logs?\", \"response_type\": \"binary\","
  " \"options\": {\"true_label\": \"Yes\", \"false_label\": \"No\"}},"
  "{\"id\": \"env\", \"label\": \"Environment\", \"response_type\": \"choice\","
  " \"options\": [{\"value\": \"prod\", \"label\": \"Production\"}, {\"value\": \"stage\", \"label\": \"Staging\"}]},"
  "{\"id\": \"teams\", \"label\": \"Teams\", \"response_type\": \"multi_choice\","
  " \"options\": [{\"value\": \"eng\", \"label\": \"Engineering\"}, {\"value\": \"sec\", \"label\": \"Security\"}]},"
  "{\"id\": \"why\", \"label\": \"Comment\", \"response_type\": \"text\"},"
  "{\"id\": \"share\", \"label\": \"Rollout\", \"response_type\": \"number\","
  " \"constraints\": {\"min\": 0, \"max\": 100, \"unit\": \"%\"}},"
  "{\"id\": \"sure\", \"label\": \"Confidence\", \"response_type\": \"scale\","
  " \"constraints\": {\"min\": 1, \"max\": 5}},"
  "{\"id\": \"region\", \"label\": \"Region\", \"response_type\": \"choice\", \"options\": ["
  " {\"value\": \"a\", \"label\": \"A\"}, {\"value\": \"b\", \"label\": \"B\"}, {\"value\": \"c\", \"label\": \"C\"},"
  " {\"value\": \"d\", \"label\": \"D\"}, {\"value\": \"e\", \"label\": \"E\"}, {\"value\": \"f\", \"label\": \"F\"}]}"
  "]";

typedef enum
{
  WITHDRAWN,
  ANSWERED_ELSEWHERE,
  DELIVERED,
  EXPIRED,
  REFUSED,
} Settle;

static const char * const settle_names[] = {
  "withdrawn", "answered-elsewhere", "delivered", "expired", "refused",
};

typedef struct
{
  AtpNotification    *notification;
  TriageDecisionView *view;
  GtkWidget          *window;
  SubmitRecord        record;
  GDateTime          *at;
} Fixture;

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  g_autoptr(GTimeZone) utc = g_time_zone_new_utc ();
  g_autoptr(GDateTime) now = g_date_time_new_now (utc);

  fixture->at = g_date_time_new (utc, g_date_time_get_year (now), g_date_time_get_month (now),
                                 g_date_time_get_day_of_month (now), 17, 12, 0);
  fixture->view = TRIAGE_DECISION_VIEW (triage_decision_view_new ());
  g_signal_connect (fixture->view, "submit", G_CALLBACK (widgets_test_on_view_submit_record),
                    &fixture->record);
  fixture->window = widgets_test_window (GTK_WIDGET (fixture->view), 600, 900);
  fixture->notification = widgets_test_notification (seven_types, NULL, 0);
  triage_decision_view_set_notification (fixture->view, fixture->notification);
  widgets_test_pump ();
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  widgets_test_view_teardown (fixture->window, &fixture->view, &fixture->notification,
                              &fixture->record);
  g_clear_pointer (&fixture->at, g_date_time_unref);
}

static TriageResponseEditor *
editor (Fixture    *fixture,
        const char *action_id)
{
  GtkWidget *widget = triage_decision_view_get_editor (fixture->view, action_id);

  g_assert_nonnull (widget);
  return TRIAGE_RESPONSE_EDITOR (widget);
}

/* What the banner says. */
static const char *
banner_title (Fixture *fixture)
{
  GObject *banner = gtk_widget_get_template_child (GTK_WIDGET (fixture->view), TRIAGE_TYPE_DECISION_VIEW,
                                                   "banner");

  return triage_request_banner_get_title (TRIAGE_REQUEST_BANNER (banner));
}

static GtkWidget *
editor_part (TriageResponseEditor *e,
             const char           *name)
{
  return GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (e), TRIAGE_TYPE_RESPONSE_EDITOR, name));
}

static GtkWidget *
option (TriageResponseEditor *e,
        guint                 index)
{
  return g_ptr_array_index (triage_response_editor_get_option_buttons (e), index);
}

static char *
text_of (TriageResponseEditor *e)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (triage_response_editor_get_input (e)));
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

/* Half answered, as a person leaves it when the request is settled. */
static void
fill_drafts (Fixture *fixture)
{
  GtkWidget *spin = triage_response_editor_get_input (editor (fixture, "share"));

  gtk_check_button_set_active (GTK_CHECK_BUTTON (option (editor (fixture, "env"), 1)), TRUE);
  gtk_check_button_set_active (GTK_CHECK_BUTTON (option (editor (fixture, "teams"), 1)), TRUE);
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (GTK_TEXT_VIEW (
    triage_response_editor_get_input (editor (fixture, "why")))), "half typed", -1);
  gtk_editable_set_text (GTK_EDITABLE (spin), "40");
  g_signal_emit_by_name (gtk_editable_get_delegate (GTK_EDITABLE (spin)), "activate");
  widgets_test_pump ();
}

static void
settle (Fixture *fixture,
        Settle   how)
{
  switch (how)
    {
    case WITHDRAWN:
      triage_decision_view_set_status (fixture->view, ATP_STATUS_INVALIDATED, "no longer needed",
                                       fixture->at, NULL);
      break;

    case ANSWERED_ELSEWHERE:
      {
        g_autoptr(JsonNode) share = atp_json_parse ("25", -1, 0, NULL);
        g_autoptr(AtpResponse) response = atp_response_new (fixture->notification->id, "share", share,
                                                            fixture->at, "alex", ATP_RESPONDER_HUMAN);

        /* The status first, the answer once the app has fetched it. */
        triage_decision_view_set_status (fixture->view, ATP_STATUS_RESPONDED, NULL, fixture->at, NULL);
        g_assert_cmpstr (banner_title (fixture), ==, "Answered on another device at 17:12");
        triage_decision_view_set_response (fixture->view, response);
      }
      break;

    case DELIVERED:
    case REFUSED:
      g_assert_true (triage_response_editor_submit (editor (fixture, "share")));
      widgets_test_pump ();
      g_assert_cmpuint (fixture->record.count, ==, 1);
      g_assert_cmpstr (fixture->record.json, ==, "40");
      if (how == DELIVERED)
        triage_decision_view_set_delivery_state (fixture->view, TRIAGE_DELIVERY_SENT);
      else
        triage_decision_view_show_delivery_error (fixture->view, "The server refused the answer: gone");
      break;

    case EXPIRED:
    default:
      triage_decision_view_set_status (fixture->view, ATP_STATUS_EXPIRED, NULL, fixture->at, NULL);
      break;
    }
  widgets_test_pump ();
}

/* The action's label is still there, and its control, insensitive. */
static void
assert_card_kept (TriageResponseEditor *e)
{
  const AtpAction *action = triage_response_editor_get_action (e);
  GtkWidget *title = editor_part (e, "title_label");
  GtkWidget *control;
  int minimum = 0;

  g_assert_false (triage_response_editor_get_editable (e));

  switch (action->response_type)
    {
    case ATP_RESPONSE_TYPE_SIMPLE:
      /* The button says the label. */
      control = triage_response_editor_get_submit_button (e);
      g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (gtk_button_get_child (GTK_BUTTON (control)))),
                       ==, action->label);
      break;

    case ATP_RESPONSE_TYPE_BINARY:
      g_assert_true (gtk_widget_is_visible (title));
      g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (title)), ==, action->label);
      g_assert_true (gtk_widget_is_visible (triage_response_editor_get_false_button (e)));
      control = triage_response_editor_get_true_button (e);
      break;

    default:
      g_assert_true (gtk_widget_is_visible (title));
      g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (title)), ==, action->label);
      control = triage_response_editor_get_input (e);
      /* The Send button goes: it is not the answer. */
      g_assert_false (gtk_widget_is_visible (triage_response_editor_get_submit_button (e)));
      break;
    }

  g_assert_true (gtk_widget_is_visible (control));
  g_assert_false (gtk_widget_is_sensitive (control));
  /* Something to see, not an empty box. */
  gtk_widget_measure (control, GTK_ORIENTATION_VERTICAL, -1, &minimum, NULL, NULL, NULL);
  g_assert_cmpint (minimum, >, 0);
}

static const char *
chosen_text (TriageResponseEditor *e)
{
  if (!triage_response_editor_get_chosen (e))
    {
      g_assert_false (gtk_widget_get_visible (editor_part (e, "chosen_marker")));
      return NULL;
    }

  g_assert_true (gtk_widget_is_visible (editor_part (e, "chosen_marker")));
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (e), "chosen"));
  return gtk_label_get_text (GTK_LABEL (editor_part (e, "chosen_label")));
}

static void
test_every_state (Fixture       *fixture,
                  gconstpointer  data)
{
  Settle how = GPOINTER_TO_INT (data);
  const char *expected_title[] = {
    [WITHDRAWN] = "Withdrawn by Deploy Bot at 17:12",
    [ANSWERED_ELSEWHERE] = "Answered ‘Rollout’: 25 % by alex on another device at 17:12",
    [DELIVERED] = "You answered ‘Rollout’: 40 %",
    [EXPIRED] = "Expired at 17:12",
    [REFUSED] = "The answer was not accepted",
  };
  g_autofree char *kept = NULL;

  fill_drafts (fixture);
  settle (fixture, how);

  g_assert_true (triage_decision_view_get_read_only (fixture->view));
  g_assert_cmpstr (banner_title (fixture), ==, expected_title[how]);

  /* Nothing turned into an empty card. */
  for (guint i = 0; i < fixture->notification->actions->len; i++)
    {
      const AtpAction *action = g_ptr_array_index (fixture->notification->actions, i);

      assert_card_kept (editor (fixture, action->id));
    }

  /* What was typed or chosen is still there. */
  g_assert_true (gtk_check_button_get_active (GTK_CHECK_BUTTON (option (editor (fixture, "env"), 1))));
  g_assert_false (gtk_check_button_get_active (GTK_CHECK_BUTTON (option (editor (fixture, "env"), 0))));
  g_assert_true (gtk_check_button_get_active (GTK_CHECK_BUTTON (option (editor (fixture, "teams"), 1))));
  kept = text_of (editor (fixture, "why"));
  g_assert_cmpstr (kept, ==, "half typed");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (triage_response_editor_get_input (editor (fixture, "share")))),
                   ==, "40");

  /* The action chosen, and only it, is marked. */
  for (guint i = 0; i < fixture->notification->actions->len; i++)
    {
      const AtpAction *action = g_ptr_array_index (fixture->notification->actions, i);
      const char *mark = chosen_text (editor (fixture, action->id));

      if (!g_str_equal (action->id, "share"))
        g_assert_null (mark);
      else if (how == ANSWERED_ELSEWHERE)
        /* The draft (40) stays, so the mark names the answer given (25). */
        g_assert_cmpstr (mark, ==, "Chosen: 25 %");
      else if (how == DELIVERED || how == REFUSED)
        g_assert_cmpstr (mark, ==, "Chosen");
      else
        g_assert_null (mark);
    }
}

/* Read back from the history: fresh controls show the answer given. */
static void
test_answer_shown (Fixture       *fixture,
                   gconstpointer  data)
{
  struct { const char *action; const char *json; const char *mark; } cases[] = {
    { "stop", "null", "Chosen" },
    { "logs", "true", "Chosen: Yes" },
    { "env", "\"prod\"", "Chosen" },
    { "teams", "[\"eng\", \"sec\"]", "Chosen" },
    { "why", "\"From my phone\"", "Chosen" },
    { "share", "25", "Chosen" },
    { "sure", "4", "Chosen" },
    { "region", "\"e\"", "Chosen" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *id = atp_new_uuid ();
      g_autoptr(AtpNotification) fresh = widgets_test_notification_with_id (id, seven_types, NULL, 0);
      g_autoptr(JsonNode) json = atp_json_parse (cases[i].json, -1, 0, NULL);
      g_autoptr(AtpResponse) response = atp_response_new (fresh->id, cases[i].action, json, fixture->at,
                                                          "alex", ATP_RESPONDER_HUMAN);
      g_autoptr(JsonNode) shown = NULL;
      TriageResponseEditor *e;

      triage_decision_view_set_notification (fixture->view, fresh);
      triage_decision_view_set_status (fixture->view, ATP_STATUS_RESPONDED, NULL, fixture->at, NULL);
      triage_decision_view_set_response (fixture->view, response);
      widgets_test_pump ();

      e = editor (fixture, cases[i].action);
      g_assert_cmpstr (chosen_text (e), ==, cases[i].mark);
      assert_card_kept (e);
      shown = triage_response_editor_dup_response (e);
      if (!g_str_equal (cases[i].action, "logs"))
        {
          g_assert_nonnull (shown);
          g_assert_true (atp_json_node_equal (shown, json));
        }
    }
}

/* A number typed out of range (150, at most 100), not entered, the field
 * still focused, when the request is settled: the read-only field shows
 * what was typed. Neither the focus leaving it (which puts a spin button's
 * text in range) nor the answer given elsewhere (shown only in a field
 * left empty) turns it into a number the person did not type. */
static void
test_typed_number_kept (Fixture       *fixture,
                        gconstpointer  data)
{
  Settle how = GPOINTER_TO_INT (data);
  GtkWidget *spin = triage_response_editor_get_input (editor (fixture, "share"));
  GtkWidget *text = GTK_WIDGET (gtk_editable_get_delegate (GTK_EDITABLE (spin)));

  /* The field is the window's focus, the window active or not: another
   * test's window on the display may have taken the focus meanwhile, which
   * leaves the field as it is (window-left, below). */
  g_assert_true (gtk_widget_grab_focus (spin));
  g_assert_true (gtk_widget_is_focus (text));
  gtk_editable_set_text (GTK_EDITABLE (spin), "150");
  widgets_test_pump ();

  settle (fixture, how);
  g_assert_true (triage_decision_view_get_read_only (fixture->view));
  g_assert_false (gtk_widget_is_focus (text));
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (spin)), ==, "150");
  if (how == ANSWERED_ELSEWHERE)
    g_assert_cmpstr (chosen_text (editor (fixture, "share")), ==, "Chosen: 25 %");
}

/* A number typed out of range, not entered, the field focused, and the
 * person leaves the window for another one; the request is settled
 * elsewhere meanwhile. GTK reads a spin button's text when its window is
 * left as when the focus leaves it, but the person left the window, not
 * the field: back to it, they see what they typed, not the number put in
 * range, nor the one entered before (40, with data). */
static void
test_typed_number_kept_window_left (Fixture       *fixture,
                                    gconstpointer  data)
{
  gboolean entered_before = GPOINTER_TO_INT (data);
  TriageResponseEditor *share = editor (fixture, "share");
  GtkWidget *spin = triage_response_editor_get_input (share);
  GtkWidget *text = GTK_WIDGET (gtk_editable_get_delegate (GTK_EDITABLE (spin)));
  GtkWidget *other;

  if (entered_before)
    {
      gtk_editable_set_text (GTK_EDITABLE (spin), "40");
      g_signal_emit_by_name (text, "activate");
      g_assert_true (triage_response_editor_get_valid (share));
    }

  g_assert_true (gtk_widget_grab_focus (spin));
  widgets_test_window_activate (fixture->window);
  gtk_editable_set_text (GTK_EDITABLE (spin), "150");

  other = widgets_test_window_leave (fixture->window);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (spin)), ==, "150");
  g_assert_false (triage_response_editor_get_valid (share));
  g_assert_cmpfloat (gtk_spin_button_get_value (GTK_SPIN_BUTTON (spin)), ==, entered_before ? 40 : 0);

  settle (fixture, ANSWERED_ELSEWHERE);
  widgets_test_window_return (fixture->window, other);
  g_assert_true (triage_decision_view_get_read_only (fixture->view));
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (spin)), ==, "150");
  g_assert_cmpstr (chosen_text (share), ==, "Chosen: 25 %");
}

/* A long slider's exact value typed, not entered, and the window left: the
 * value typed stays, and the slider is not moved to it, which would choose
 * it. */
static void
test_typed_exact_value_kept_window_left (Fixture       *fixture,
                                         gconstpointer  data)
{
  g_autofree char *id = atp_new_uuid ();
  g_autoptr(AtpNotification) long_scale =
    widgets_test_notification_with_id (id, "[{\"id\": \"load\", \"label\": \"Load\", \"response_type\": \"scale\","
                                       " \"constraints\": {\"min\": 0, \"max\": 1000}}]", NULL, 0);
  TriageResponseEditor *load;
  GtkWidget *spin, *other;
  double middle;

  triage_decision_view_set_notification (fixture->view, long_scale);
  widgets_test_pump ();
  load = editor (fixture, "load");
  spin = load->scale_spin;
  g_assert_nonnull (spin);
  middle = gtk_spin_button_get_value (GTK_SPIN_BUTTON (spin));

  g_assert_true (gtk_widget_grab_focus (spin));
  widgets_test_window_activate (fixture->window);
  gtk_editable_set_text (GTK_EDITABLE (spin), "5000");

  other = widgets_test_window_leave (fixture->window);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (spin)), ==, "5000");
  g_assert_cmpfloat (gtk_spin_button_get_value (GTK_SPIN_BUTTON (spin)), ==, middle);
  g_assert_cmpstr (triage_response_editor_get_reason (load), ==, "Move the slider to choose a value");

  widgets_test_window_return (fixture->window, other);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (spin)), ==, "5000");
  g_assert_false (triage_response_editor_get_valid (load));
}

/* Marked only while read-only; a response of a request no longer answered
 * (a status back to pending) marks nothing. */
static void
test_mark_follows_state (Fixture       *fixture,
                         gconstpointer  data)
{
  g_autoptr(JsonNode) json = atp_json_parse ("null", -1, 0, NULL);
  g_autoptr(AtpResponse) response = atp_response_new (fixture->notification->id, "stop", json,
                                                      fixture->at, "alex", ATP_RESPONDER_HUMAN);

  /* The answer known before the status: nothing said until it is settled. */
  triage_decision_view_set_response (fixture->view, response);
  g_assert_false (triage_decision_view_get_read_only (fixture->view));
  g_assert_false (triage_response_editor_get_chosen (editor (fixture, "stop")));

  triage_decision_view_set_status (fixture->view, ATP_STATUS_RESPONDED, NULL, fixture->at, NULL);
  g_assert_cmpstr (banner_title (fixture), ==, "Answered ‘Stop’ by alex on another device at 17:12");
  g_assert_cmpstr (chosen_text (editor (fixture, "stop")), ==, "Chosen");

  triage_decision_view_set_status (fixture->view, ATP_STATUS_ACKNOWLEDGED, NULL, NULL, NULL);
  g_assert_false (triage_response_editor_get_chosen (editor (fixture, "stop")));
  g_assert_true (gtk_widget_is_sensitive (triage_response_editor_get_submit_button (editor (fixture, "stop"))));

  /* Another request forgets it. */
  {
    g_autofree char *id = atp_new_uuid ();
    g_autoptr(AtpNotification) other = widgets_test_notification_with_id (id, seven_types, NULL, 0);

    triage_decision_view_set_notification (fixture->view, other);
    triage_decision_view_set_status (fixture->view, ATP_STATUS_RESPONDED, NULL, fixture->at, NULL);
    g_assert_null (triage_decision_view_get_response (fixture->view));
    g_assert_cmpstr (banner_title (fixture), ==, "Answered on another device at 17:12");
    g_assert_false (triage_response_editor_get_chosen (editor (fixture, "stop")));
  }
}

int
main (int   argc,
      char *argv[])
{
  g_setenv ("TZ", "UTC", TRUE);
  widgets_test_init (&argc, &argv);

  for (guint i = 0; i < G_N_ELEMENTS (settle_names); i++)
    {
      g_autofree char *path = g_strdup_printf ("/decision-view-settled/%s", settle_names[i]);

      g_test_add (path, Fixture, GINT_TO_POINTER (i), fixture_setup, test_every_state, fixture_teardown);
    }
  g_test_add ("/decision-view-settled/typed-number-kept/withdrawn", Fixture, GINT_TO_POINTER (WITHDRAWN),
              fixture_setup, test_typed_number_kept, fixture_teardown);
  g_test_add ("/decision-view-settled/typed-number-kept/answered-elsewhere", Fixture,
              GINT_TO_POINTER (ANSWERED_ELSEWHERE), fixture_setup, test_typed_number_kept, fixture_teardown);
  g_test_add ("/decision-view-settled/typed-number-kept/window-left", Fixture, GINT_TO_POINTER (FALSE),
              fixture_setup, test_typed_number_kept_window_left, fixture_teardown);
  g_test_add ("/decision-view-settled/typed-number-kept/window-left-over-entered", Fixture,
              GINT_TO_POINTER (TRUE), fixture_setup, test_typed_number_kept_window_left, fixture_teardown);
  g_test_add ("/decision-view-settled/typed-exact-value-kept/window-left", Fixture, NULL,
              fixture_setup, test_typed_exact_value_kept_window_left, fixture_teardown);
  g_test_add ("/decision-view-settled/answer-shown", Fixture, NULL,
              fixture_setup, test_answer_shown, fixture_teardown);
  g_test_add ("/decision-view-settled/mark-follows-state", Fixture, NULL,
              fixture_setup, test_mark_follows_state, fixture_teardown);

  return g_test_run ();
}
