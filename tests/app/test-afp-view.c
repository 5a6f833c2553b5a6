/* test-afp-view.c — AFP 1.2 reviews in their view: the artifact highlighted
 * and, in iteration 2, its diff and the agent's decisions on the person's
 * earlier items; the editor (ids, carry over, reorder, remove, live
 * validation, invisible characters alone as blank); Send and Decline;
 * read-only states; 360 pixels
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "test-afp-view"

#include <string.h>

#include "afp-view-test-common.h"
#include "app-test-common.h"
#include "triage-afp-applied-card.h"
#include "triage-afp-artifact.h"
#include "triage-afp-protocol.h"
#include "triage-request-stack.h"
#include "ui-test-util.h"

/* Presses Send (as Ctrl+Return does): whether an answer left. */
static gboolean
can_send (Fixture *fixture)
{
  guint before = fixture->record.count;

  gtk_widget_activate_action (GTK_WIDGET (fixture->view), "afp.send", NULL);
  widgets_test_pump ();
  return fixture->record.count > before;
}

/* The confidence is one of three: each level is a radio button to a screen
 * reader, as it looks (GTK 4.8 would say "check box"). */
static void
test_levels_are_radio (Fixture       *fixture,
                       gconstpointer  data)
{
  GtkWidget *editor;
  guint levels = 0;

  afp_view_test_show_seed (fixture, 1);
  editor = GTK_WIDGET (triage_afp_view_get_editor (fixture->view));
  for (GtkWidget *button = widgets_test_find_descendant (editor, GTK_TYPE_CHECK_BUTTON);
       button != NULL; button = gtk_widget_get_next_sibling (button), levels++)
    gtk_test_accessible_assert_role (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_ROLE_RADIO);
  g_assert_cmpuint (levels, ==, 3);
}

/* The first text view under @widget that shows some text. */
static GtkTextView *
shown_text_view (GtkWidget *widget)
{
  if (GTK_IS_TEXT_VIEW (widget) &&
      gtk_text_buffer_get_char_count (gtk_text_view_get_buffer (GTK_TEXT_VIEW (widget))) > 0)
    return GTK_TEXT_VIEW (widget);

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkTextView *found = shown_text_view (child);

      if (found != NULL)
        return found;
    }

  return NULL;
}

/* Iteration 1: the artifact as text; an empty editor cannot be sent; a
 * complete one sends the feedback with an id made from the aspect. */
static void
test_first_iteration (Fixture       *fixture,
                      gconstpointer  data)
{
  TriageAfpEditor *editor = triage_afp_view_get_editor (fixture->view);
  TriageAfpArtifact *artifact = TRIAGE_AFP_ARTIFACT (triage_afp_view_get_artifact (fixture->view));
  g_autofree char *shown = NULL;
  g_autoptr(JsonNode) sent = NULL;
  JsonObject *area;

  afp_view_test_show_seed (fixture, 1);
  shown = triage_afp_artifact_dup_shown_text (artifact);
  g_assert_cmpstr (shown, ==, "Add a 'dark mode' to the user interface.");
  /* Wrapped inside a word, the artifact shows no hyphen that is not in it. */
  ui_test_assert_unhyphenated (shown_text_view (GTK_WIDGET (artifact)));
  g_assert_false (gtk_widget_get_visible (triage_afp_view_get_applied (fixture->view)));
  g_assert_nonnull (triage_afp_editor_get_problem (editor));
  g_assert_false (can_send (fixture));

  /* justification, summary: entries 0 and 1 before any item */
  afp_view_test_choose_level (fixture, "_Medium");
  afp_view_test_type (afp_view_test_nth_entry (fixture, 0), "High-level idea");
  triage_afp_editor_add_positive (editor);
  triage_afp_editor_add_area (editor);
  widgets_test_pump ();
  /* 0 justification, 1-2 point, 3-5 area, 6 summary */
  afp_view_test_type (afp_view_test_nth_entry (fixture, 1), "User Experience");
  g_assert_nonnull (triage_afp_editor_get_problem (editor));
  afp_view_test_type (afp_view_test_nth_entry (fixture, 2), "Often asked for");
  afp_view_test_type (afp_view_test_nth_entry (fixture, 3), "Scope Definition");
  afp_view_test_type (afp_view_test_nth_entry (fixture, 4), "Which parts of the UI?");
  afp_view_test_type (afp_view_test_nth_entry (fixture, 5), "List the components");
  g_assert_cmpstr (triage_afp_editor_get_problem (editor), ==, "Write a general summary.");
  afp_view_test_type (afp_view_test_nth_entry (fixture, 6), "Valuable, needs planning");
  g_assert_null (triage_afp_editor_get_problem (editor));

  g_assert_true (can_send (fixture));
  g_assert_cmpuint (fixture->record.count, ==, 1);
  g_assert_cmpstr (fixture->record.action_id, ==, TRIAGE_AFP_ACTION_FEEDBACK);
  sent = json_from_string (fixture->record.json, NULL);
  area = json_array_get_object_element (json_object_get_array_member (json_node_get_object (sent),
                                                                      "areas_for_improvement"), 0);
  g_assert_cmpstr (json_object_get_string_member (area, "id"), ==, "scope-definition-01");
  g_assert_cmpint (triage_request_view_get_delivery_state (TRIAGE_REQUEST_VIEW (fixture->view)), ==,
                   TRIAGE_DELIVERY_SENDING);
  /* Read-only once on its way. */
  g_assert_false (gtk_widget_get_sensitive (GTK_WIDGET (editor)));
}

/* A text of invisible characters alone (zero-width, bidirectional marks,
 * U+3000) reads as empty: the same problem, the field marked invalid, Send
 * disabled; the server would refuse it too (libatp's rule). */
static void
test_invisible_is_blank (Fixture       *fixture,
                         gconstpointer  data)
{
  TriageAfpEditor *editor = triage_afp_view_get_editor (fixture->view);
  static const char * const invisible[] = { "\u200b", "\u200e\u200f", "\u3000\u2060", "\u00ad\u3000" };
  GtkWidget *send = GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (fixture->view),
                                                               TRIAGE_TYPE_AFP_VIEW, "send_button"));

  afp_view_test_show_seed (fixture, 1);
  afp_view_test_choose_level (fixture, "Lo_w");
  triage_afp_editor_add_positive (editor);
  triage_afp_editor_add_area (editor);
  widgets_test_pump ();
  /* 0 justification, 1-2 point, 3-5 area, 6 summary */
  for (guint i = 0; i < 7; i++)
    afp_view_test_type (afp_view_test_nth_entry (fixture, i), "Said");
  g_assert_null (triage_afp_editor_get_problem (editor));

  for (guint i = 0; i < 7; i++)
    {
      GtkEditable *entry = afp_view_test_nth_entry (fixture, i);
      g_autofree char *empty_problem = NULL;

      afp_view_test_type (entry, "");
      empty_problem = g_strdup (triage_afp_editor_get_problem (editor));
      g_assert_nonnull (empty_problem);
      afp_view_test_type (entry, invisible[i % G_N_ELEMENTS (invisible)]);
      g_test_message ("entry %u: %s", i, empty_problem);
      g_assert_cmpstr (triage_afp_editor_get_problem (editor), ==, empty_problem);
      g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (entry), "error"));
      gtk_test_accessible_assert_state (GTK_ACCESSIBLE (entry), GTK_ACCESSIBLE_STATE_INVALID,
                                        GTK_ACCESSIBLE_INVALID_TRUE);
      g_assert_false (gtk_widget_is_sensitive (send));
      g_assert_false (can_send (fixture));

      /* Beside a visible word they are the person's to write. */
      afp_view_test_type (entry, "\u200fSaid\u3000");
      g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (entry), "error"));
      g_assert_null (triage_afp_editor_get_problem (editor));
      g_assert_true (gtk_widget_is_sensitive (send));
    }

  g_assert_true (can_send (fixture));
}

/* Iteration 2: the diff and the agent's decisions; carry over keeps the id;
 * a second new area gets an id of its own; reorder and remove. */
static void
test_second_iteration (Fixture       *fixture,
                       gconstpointer  data)
{
  TriageAfpEditor *editor = triage_afp_view_get_editor (fixture->view);
  TriageAfpArtifact *artifact = TRIAGE_AFP_ARTIFACT (triage_afp_view_get_artifact (fixture->view));
  g_autoptr(AtpAfpReview) review = app_test_afp_seed_review (2);
  g_autofree char *changes = NULL;
  g_autoptr(JsonNode) feedback = NULL;
  JsonArray *areas;

  afp_view_test_show_review (fixture, review);
  changes = triage_afp_artifact_dup_changes_text (artifact);
  g_assert_cmpstr (changes, ==, "- Add a 'dark mode' to the user interface.\n"
                                "+ ## Dark Mode Spec\n"
                                "+ - The main toolbar will be updated...\n");
  g_assert_cmpstr (triage_afp_artifact_get_language_id (artifact), ==, "markdown");
  g_assert_true (gtk_widget_get_visible (triage_afp_view_get_applied (fixture->view)));

  g_assert_true (triage_afp_editor_carry_over (editor, review->latest_feedback->areas_for_improvement->pdata[0]));
  g_assert_false (triage_afp_editor_carry_over (editor, review->latest_feedback->areas_for_improvement->pdata[0]));
  g_assert_true (triage_afp_editor_has_item (editor, "scope-definition-lacks-detail-01"));
  triage_afp_editor_add_area (editor);
  widgets_test_pump ();
  /* 0 justification, 1-3 carried area, 4-6 new area, 7 summary */
  afp_view_test_type (afp_view_test_nth_entry (fixture, 4), "Scope Definition");
  feedback = triage_afp_editor_dup_feedback (editor);
  areas = json_object_get_array_member (json_node_get_object (feedback), "areas_for_improvement");
  g_assert_cmpuint (json_array_get_length (areas), ==, 2);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (areas, 0), "id"), ==,
                   "scope-definition-lacks-detail-01");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (areas, 1), "id"), ==,
                   "scope-definition-01");
  g_assert_cmpuint (triage_afp_editor_get_n_areas (editor), ==, 2);
}

/* Decline: `{}` or the message. */
static void
test_decline (Fixture       *fixture,
              gconstpointer  data)
{
  afp_view_test_show_seed (fixture, 1);
  triage_afp_view_decline (fixture->view, "Not my field");
  g_assert_cmpuint (fixture->record.count, ==, 1);
  g_assert_cmpstr (fixture->record.action_id, ==, TRIAGE_AFP_ACTION_DECLINE);
  g_assert_cmpstr (fixture->record.json, ==, "{\"message\":\"Not my field\"}");
}

static gboolean
count_decline_activation (GSignalInvocationHint *hint,
                          guint                  n_params,
                          const GValue          *params,
                          gpointer               data)
{
  GtkButton *button = g_value_get_object (&params[0]);

  if (g_strcmp0 (gtk_button_get_label (button), "_Decline") == 0)
    (*(guint *) data)++;
  return TRUE;
}

/* Decline… asks first, with a reason to type. Enter there, the key that ends
 * the typing, does not decline: the destructive answer is never the dialog's
 * default (as GNOME's dialogs keep it). The reason typed stays; Escape
 * cancels; Decline itself sends the reason. */
static void
test_decline_dialog_keys (Fixture       *fixture,
                          gconstpointer  data)
{
  AdwMessageDialog *dialog;
  GtkWidget *entry, *focus;
  guint activate_signal, declines = 0;
  gulong hook;

  afp_view_test_show_seed (fixture, 1);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->view), "afp.decline", NULL));
  dialog = fixture->view->decline_dialog;
  g_assert_nonnull (dialog);
  g_assert_cmpstr (adw_message_dialog_get_default_response (dialog), !=, "decline");
  entry = adw_message_dialog_get_extra_child (dialog);
  focus = gtk_root_get_focus (GTK_ROOT (dialog));
  g_assert_true (GTK_IS_TEXT (focus) && gtk_widget_is_ancestor (focus, entry));
  gtk_editable_set_text (GTK_EDITABLE (entry), "Not my field");

  /* Enter in the reason, as GtkText takes it. (A button the keyboard
   * activates is clicked a moment later: its activation is what counts.) */
  activate_signal = g_signal_lookup ("activate", GTK_TYPE_BUTTON);
  hook = g_signal_add_emission_hook (activate_signal, 0, count_decline_activation, &declines, NULL);
  g_signal_emit_by_name (focus, "activate");
  widgets_test_pump ();
  g_signal_remove_emission_hook (activate_signal, hook);
  g_assert_cmpuint (declines, ==, 0);
  g_assert_cmpuint (fixture->record.count, ==, 0);
  g_assert_true (fixture->view->decline_dialog == dialog);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (entry)), ==, "Not my field");

  /* Escape: closed, nothing sent. */
  g_assert_cmpstr (adw_message_dialog_get_close_response (dialog), ==, "cancel");
  g_assert_true (ui_test_press_key (GTK_WIDGET (dialog), "Escape"));
  widgets_test_pump ();
  g_assert_null (fixture->view->decline_dialog);
  g_assert_cmpuint (fixture->record.count, ==, 0);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->view), "afp.decline", NULL));
  dialog = fixture->view->decline_dialog;
  g_assert_nonnull (dialog);
  gtk_editable_set_text (GTK_EDITABLE (adw_message_dialog_get_extra_child (dialog)), "Not my field");
  adw_message_dialog_response (dialog, "decline");
  widgets_test_pump ();
  g_assert_cmpuint (fixture->record.count, ==, 1);
  g_assert_cmpstr (fixture->record.action_id, ==, TRIAGE_AFP_ACTION_DECLINE);
  g_assert_cmpstr (fixture->record.json, ==, "{\"message\":\"Not my field\"}");
}

/* A draft of another version's editor, or a sent answer read back: loaded as it was. */
static void
test_load (Fixture       *fixture,
           gconstpointer  data)
{
  TriageAfpEditor *editor = triage_afp_view_get_editor (fixture->view);
  g_autofree char *response = app_test_atp_data ("seed-004-response.json");
  g_autoptr(JsonNode) node = json_from_string (response, NULL);
  JsonNode *feedback = json_object_get_member (json_node_get_object (node), "feedback");
  g_autoptr(JsonNode) back = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;

  afp_view_test_show_seed (fixture, 1);
  triage_afp_editor_load (editor, feedback);
  g_assert_null (triage_afp_editor_get_problem (editor));
  back = triage_afp_editor_dup_feedback (editor);
  before = json_to_string (feedback, FALSE);
  after = json_to_string (back, FALSE);
  /* The id follows the aspect of a new item. */
  g_assert_nonnull (strstr (after, "\"id\":\"scope-definition-01\""));
  g_assert_nonnull (strstr (before, "scope-definition-lacks-detail-01"));
}

/* Settled: read-only. */
static void
test_read_only (Fixture       *fixture,
                gconstpointer  data)
{
  afp_view_test_show_seed (fixture, 1);
  triage_request_view_set_status (TRIAGE_REQUEST_VIEW (fixture->view), ATP_STATUS_EXPIRED, NULL, NULL, NULL);
  g_assert_false (gtk_widget_get_sensitive (GTK_WIDGET (triage_afp_view_get_editor (fixture->view))));
}

static void
print_wide (GtkWidget *widget,
            int        depth)
{
  int minimum;

  gtk_widget_measure (widget, GTK_ORIENTATION_HORIZONTAL, -1, &minimum, NULL, NULL, NULL);
  if (minimum > 300)
    g_printerr ("%*s%s %d\n", depth, "", G_OBJECT_TYPE_NAME (widget), minimum);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    print_wide (child, depth + 1);
}

/* Usable at 360 px with large text. */
static void
test_narrow (Fixture       *fixture,
             gconstpointer  data)
{
  GtkSettings *settings = gtk_settings_get_default ();
  int dpi = 0;
  int minimum;

  g_object_get (settings, "gtk-xft-dpi", &dpi, NULL);
  g_object_set (settings, "gtk-xft-dpi", (int) (dpi > 0 ? dpi * 1.5 : 96 * 1024 * 1.5), NULL);
  afp_view_test_show_seed (fixture, 2);
  triage_afp_editor_add_area (triage_afp_view_get_editor (fixture->view));
  triage_afp_editor_add_positive (triage_afp_view_get_editor (fixture->view));
  gtk_widget_measure (GTK_WIDGET (fixture->view), GTK_ORIENTATION_HORIZONTAL, -1, &minimum, NULL, NULL, NULL);
  if (minimum > 360)
    print_wide (GTK_WIDGET (fixture->view), 0);
  g_assert_cmpint (minimum, <=, 360);
  g_object_set (settings, "gtk-xft-dpi", dpi, NULL);
}

/* The window's stack shows reviews in this view. */
static void
test_stack (void)
{
  g_assert_true (triage_request_stack_view_type (ATP_PROTOCOL_AFP) == TRIAGE_TYPE_AFP_VIEW);
}

/* Withdrawn while the keyboard is on Decline: the button turns insensitive
 * and GTK drops the focus; the banner, which says it was withdrawn, takes it. */
static void
test_focus_kept (Fixture       *fixture,
                 gconstpointer  data)
{
  GtkWidget *decline = GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (fixture->view),
                                                                  TRIAGE_TYPE_AFP_VIEW,
                                                                  "decline_button"));
  GtkWidget *focus;

  afp_view_test_show_seed (fixture, 1);
  g_assert_true (gtk_widget_grab_focus (decline));
  triage_request_view_set_status (TRIAGE_REQUEST_VIEW (fixture->view), ATP_STATUS_INVALIDATED,
                                  "no longer needed", NULL, NULL);
  widgets_test_pump ();
  focus = gtk_root_get_focus (GTK_ROOT (fixture->window));
  g_assert_nonnull (focus);
  gtk_test_accessible_assert_role (GTK_ACCESSIBLE (focus), GTK_ACCESSIBLE_ROLE_STATUS);
}

/* A review opened: the keyboard on its heading, not on its first control
 * (a confidence level an Enter held from the last request would tick). */
static void
test_focus_heading (Fixture       *fixture,
                    gconstpointer  data)
{
  GtkWidget *focus;

  afp_view_test_show_seed (fixture, 1);
  g_assert_true (triage_request_view_focus_heading (TRIAGE_REQUEST_VIEW (fixture->view)));
  focus = gtk_root_get_focus (GTK_ROOT (fixture->window));
  gtk_test_accessible_assert_role (GTK_ACCESSIBLE (focus), GTK_ACCESSIBLE_ROLE_HEADING);
  g_assert_false (GTK_IS_CHECK_BUTTON (focus));
  g_assert_false (gtk_widget_activate (focus));
}

/* Ctrl+Return sends from the editor and from Send, never from the heading
 * a review opens at, nor from Decline… beside Send: a key held or repeated
 * for the request before would send a draft read back ready to go, unseen,
 * and one pressed on Decline… would send what the person meant to refuse. */
static void
test_send_key_from_editor (Fixture       *fixture,
                           gconstpointer  data)
{
  char *dir = NULL;
  TriageStore *store = afp_view_test_open_store (&dir);
  g_autoptr(AtpAfpReview) review = app_test_afp_seed_review (1);
  g_autofree char *response = app_test_atp_data ("seed-004-response.json");
  g_autoptr(JsonNode) node = json_from_string (response, NULL);
  g_autofree char *draft = json_to_string (json_object_get_member (json_node_get_object (node), "feedback"),
                                           FALSE);
  TriageAfpEditor *editor = triage_afp_view_get_editor (fixture->view);
  GtkWidget *decline = GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (fixture->view),
                                                                  TRIAGE_TYPE_AFP_VIEW,
                                                                  "decline_button"));
  GtkWidget *send = GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (fixture->view),
                                                               TRIAGE_TYPE_AFP_VIEW, "send_button"));

  g_object_set (fixture->view, "store", store, NULL);
  /* Twice: a review sent from its editor, then one sent from Send. */
  for (guint round = 0; round < 2; round++)
    {
      g_autoptr(GAsyncResult) saved = NULL;
      g_autoptr(GError) error = NULL;
      g_autofree char *id = atp_new_uuid ();

      /* A complete review, kept as a draft when the app last showed it. */
      triage_store_save_draft_async (store, id, draft, NULL, app_test_result_cb, &saved);
      app_test_wait_result (saved);
      g_assert_true (triage_store_save_draft_finish (store, saved, &error));

      g_clear_pointer (&fixture->notification, atp_notification_unref);
      fixture->notification = app_test_afp_notification_new (id, "Dark Mode Spec", review);
      triage_request_view_set_request (TRIAGE_REQUEST_VIEW (fixture->view), fixture->notification);
      g_assert_true (triage_request_view_focus_heading (TRIAGE_REQUEST_VIEW (fixture->view)));
      WAIT_UNTIL (!triage_afp_editor_is_empty (editor));
      g_assert_null (triage_afp_editor_get_problem (editor));

      /* On the heading, the review opened: nothing leaves. */
      g_assert_false (ui_test_press_key (fixture->window, "<Control>Return"));
      g_assert_false (ui_test_press_key (fixture->window, "<Control>KP_Enter"));
      /* Nor from the artifact, read before the review is written. */
      g_assert_true (gtk_widget_child_focus (triage_afp_view_get_artifact (fixture->view),
                                             GTK_DIR_TAB_FORWARD));
      g_assert_false (ui_test_press_key (fixture->window, "<Control>Return"));
      /* Nor from Decline…, beside Send. */
      g_assert_true (gtk_widget_grab_focus (decline));
      g_assert_false (ui_test_press_key (fixture->window, "<Control>Return"));
      g_assert_false (ui_test_press_key (fixture->window, "<Control>KP_Enter"));
      widgets_test_pump ();
      g_assert_cmpuint (fixture->record.count, ==, round);

      /* In the editor, or on Send, it sends. */
      if (round == 0)
        g_assert_true (gtk_widget_grab_focus (GTK_WIDGET (afp_view_test_nth_entry (fixture, 0))));
      else
        g_assert_true (gtk_widget_grab_focus (send));
      g_assert_true (ui_test_press_key (fixture->window, "<Control>Return"));
      widgets_test_pump ();
      g_assert_cmpuint (fixture->record.count, ==, round + 1);
      g_assert_cmpstr (fixture->record.action_id, ==, TRIAGE_AFP_ACTION_FEEDBACK);
    }

  afp_view_test_close_store (fixture, store, dir);
}

static void
count_labels_with (GtkWidget  *widget,
                   const char *text,
                   guint      *count)
{
  if (GTK_IS_LABEL (widget) && gtk_widget_get_visible (widget) &&
      strstr (gtk_label_get_label (GTK_LABEL (widget)), text) != NULL)
    (*count)++;
  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    count_labels_with (child, text, count);
}

/* The review says its artifact's media type once (the line under the
 * title, as the server words it; the artifact's own line named it again),
 * and is as wide as an ATP request. */
static void
test_media_type_once (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autoptr(AtpAfpReview) review = app_test_afp_seed_review (2);
  GtkWidget *clamp;
  guint count = 0;

  afp_view_test_show_review (fixture, review);
  count_labels_with (GTK_WIDGET (fixture->view), "text/markdown", &count);
  g_assert_cmpuint (count, ==, 0);   /* the test's request has no server-made description */

  /* The review's clamp: the one in its scrolled window. */
  clamp = gtk_scrolled_window_get_child (GTK_SCROLLED_WINDOW (fixture->view->scroller));
  if (GTK_IS_VIEWPORT (clamp))
    clamp = gtk_viewport_get_child (GTK_VIEWPORT (clamp));
  g_assert_true (ADW_IS_CLAMP (clamp));
  g_assert_cmpint (adw_clamp_get_maximum_size (ADW_CLAMP (clamp)), ==, 720);
  g_assert_cmpint (adw_clamp_get_tightening_threshold (ADW_CLAMP (clamp)), ==, 560);
}

/* An agent's strings of 5,000 characters without a space, in every place of
 * a review that is a label: the artifact's version, the session's id, and
 * the agent's reason code, explanation and an id the person never gave. A
 * label lays such a line out in a time that grows with its square (20,000
 * characters of artifact_ref held the app for 36 s): each is shown cut. */
static void
test_long_unbroken_strings (Fixture       *fixture,
                            gconstpointer  data)
{
  g_autofree char *first_data = app_test_atp_data ("seed-004-first-request.json");
  g_autofree char *second_data = app_test_atp_data ("seed-004-follow-up-request.json");
  g_autofree char *response = app_test_atp_data ("seed-004-response.json");
  g_autofree char *run = g_strnfill (5000, 'r');
  g_autofree char *session = g_strconcat ("ses_", run, NULL);
  g_autoptr(JsonNode) second = json_from_string (second_data, NULL);
  g_autoptr(JsonNode) feedback_node = json_from_string (response, NULL);
  g_autoptr(AtpAfpRequest) first = atp_afp_request_new_from_data (first_data, -1, NULL);
  g_autoptr(AtpAfpRequest) request = NULL;
  g_autoptr(AtpAfpFeedback) feedback = NULL;
  g_autoptr(AtpAfpReview) review = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *root = json_node_get_object (second);
  JsonArray *items = json_object_get_array_member (json_object_get_object_member (root, "applied_feedback"),
                                                   "items");
  JsonObject *unknown = json_object_new ();

  json_object_set_string_member (json_object_get_object_member (root, "artifact"), "artifact_ref", run);
  json_object_set_string_member (json_array_get_object_element (items, 2), "reason_code", run);
  json_object_set_string_member (json_array_get_object_element (items, 2), "explanation", run);
  json_object_set_string_member (unknown, "id", run);
  json_object_set_string_member (unknown, "status", "rejected");
  json_array_add_object_element (items, unknown);
  request = atp_afp_request_new_from_json (second, &error);
  g_assert_no_error (error);
  feedback = atp_afp_feedback_new_from_json (json_object_get_member (json_node_get_object (feedback_node),
                                                                     "feedback"), NULL);
  review = atp_afp_review_new (session, request);
  atp_afp_review_set_previous (review, "5b1c3a7e-0000-4000-8000-0000000af001", 1, &first->artifact);
  atp_afp_review_set_latest_feedback (review, "5b1c3a7e-0000-4000-8000-0000000af001", 1, feedback);

  afp_view_test_show_review (fixture, review);
  g_assert_cmpint (widgets_test_longest_label (GTK_WIDGET (fixture->view)), <, 1000);
}

/* The label under @root that says @text, shown (mapped), or NULL. */
static GtkWidget *
shown_label (GtkWidget  *root,
             const char *text)
{
  if (GTK_IS_LABEL (root) && gtk_widget_get_mapped (root) &&
      g_strcmp0 (gtk_label_get_label (GTK_LABEL (root)), text) == 0)
    return root;

  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = shown_label (child, text);

      if (found != NULL)
        return found;
    }

  return NULL;
}

/* Whether all of @widget is inside @area, as drawn. */
static gboolean
drawn_within (GtkWidget *widget,
              GtkWidget *area)
{
  graphene_rect_t bounds;

  return gtk_widget_compute_bounds (widget, area, &bounds) &&
         bounds.origin.y >= 0 && bounds.size.height > 0 &&
         bounds.origin.y + bounds.size.height <= gtk_widget_get_height (area);
}

/* The scrolled window the earlier items scroll in, once it has its size. */
static GtkWidget *
applied_scroller (Fixture *fixture)
{
  GtkWidget *scroller = widgets_test_find_descendant (triage_afp_view_get_applied (fixture->view),
                                                      GTK_TYPE_SCROLLED_WINDOW);

  g_assert_nonnull (scroller);
  WAIT_UNTIL (gtk_widget_get_height (scroller) > 0 &&
              gtk_widget_get_first_child (widgets_test_find_descendant (scroller, GTK_TYPE_GRID_VIEW)) != NULL);
  widgets_test_pump ();
  return scroller;
}

/* A few of the agent's decisions: every card whole at its natural height,
 * nothing scrolls inside; each says what it said before (the person's
 * aspect, recommendation and id, the decision in words and an icon named
 * alike, the reason and explanation; the ids the person never gave under
 * the line that says what they are); Carry Over puts the item in the editor
 * and then says it is there. */
static void
test_applied_few (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autoptr(AtpAfpReview) review = app_test_afp_applied_review (3);
  TriageAfpEditor *editor = triage_afp_view_get_editor (fixture->view);
  GtkAdjustment *adjustment;
  GtkWidget *scroller, *carry, *image;
  g_autofree char *description = g_strdup_printf ("Accepted: applied as recommended\n"
                                                  APP_TEST_AFP_APPLIED_EXPLANATION_FORMAT, 0);
  const char *texts[] = {
    "Scope Definition",
    "Create a more detailed specification or plan that lists the components to be updated.",
    "Id scope-definition-lacks-detail-01",
    "Accepted: applied as recommended",
    "The agent also reports on items that were not in your latest feedback:",
    "Id applied-item-0001",
    "Partly applied",
    "Reason: partly_in_scope",
    "Id applied-item-0002",
    "Rejected: not applied",
    "Reason: out_of_scope",
    "Carry Over “Scope Definition”",
  };

  afp_view_test_show_review (fixture, review);
  g_assert_true (gtk_widget_get_visible (triage_afp_view_get_applied (fixture->view)));
  scroller = applied_scroller (fixture);
  adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller));
  g_assert_cmpfloat (gtk_adjustment_get_upper (adjustment), <=, gtk_adjustment_get_page_size (adjustment));

  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    {
      GtkWidget *label = shown_label (scroller, texts[i]);

      g_test_message ("%s", texts[i]);
      g_assert_nonnull (label);
      g_assert_true (drawn_within (label, scroller));
    }
  for (guint i = 0; i < 3; i++)
    {
      g_autofree char *explanation = g_strdup_printf (APP_TEST_AFP_APPLIED_EXPLANATION_FORMAT, i);
      GtkWidget *label = shown_label (scroller, explanation);

      g_assert_nonnull (label);
      g_assert_true (drawn_within (label, scroller));
    }
  image = widgets_test_find_descendant (scroller, GTK_TYPE_IMAGE);
  gtk_test_accessible_assert_property (GTK_ACCESSIBLE (image), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                       "Accepted: applied as recommended");

  carry = gtk_widget_get_ancestor (shown_label (scroller, "Carry Over “Scope Definition”"), GTK_TYPE_BUTTON);
  g_assert_nonnull (carry);
  g_assert_true (gtk_widget_is_sensitive (carry));
  /* The arrows bring the keyboard to it: it says the decision too. */
  gtk_test_accessible_assert_property (GTK_ACCESSIBLE (carry), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description);
  g_signal_emit_by_name (carry, "clicked");
  widgets_test_pump ();
  g_assert_true (triage_afp_editor_has_item (editor, "scope-definition-lacks-detail-01"));
  g_assert_nonnull (shown_label (scroller, "Carried Over “Scope Definition”"));
  g_assert_false (gtk_widget_is_sensitive (carry));
}

/* Whether the keyboard is in @widget. */
static gboolean
focus_in (Fixture   *fixture,
          GtkWidget *widget)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (fixture->window));

  return focus != NULL && (focus == widget || gtk_widget_is_ancestor (focus, widget));
}

/* Presses @trigger where the keyboard is, as ui_test_press_key () does, in
 * the window made active first: Tab follows the window's chain of focus,
 * which GTK clears while another window (another test's, on the same
 * display) has the display's focus. */
static gboolean
press_key (Fixture    *fixture,
           const char *trigger)
{
  do
    widgets_test_window_activate (fixture->window);
  while (!gtk_window_is_active (GTK_WINDOW (fixture->window)));

  return ui_test_press_key (fixture->window, trigger);
}

/* As many decisions as libatp takes: cards for what is on screen and
 * around it, not one an item; the list scrolls within a bounded height. The
 * keyboard goes into the list with Tab and out of it with one more press,
 * either way; in it, End goes to the last item, which comes into view and is
 * said by its row. */
static void
test_applied_many (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(AtpAfpReview) review = app_test_afp_applied_review (ATP_AFP_MAX_APPLIED_ITEMS);
  g_autofree char *last_id = g_strdup_printf ("Id " APP_TEST_AFP_APPLIED_ID_FORMAT, ATP_AFP_MAX_APPLIED_ITEMS - 1);
  g_autofree char *last_explanation = g_strdup_printf (APP_TEST_AFP_APPLIED_EXPLANATION_FORMAT,
                                                       ATP_AFP_MAX_APPLIED_ITEMS - 1);
  GtkWidget *artifact = triage_afp_view_get_artifact (fixture->view);
  GtkWidget *editor = GTK_WIDGET (triage_afp_view_get_editor (fixture->view));
  GtkWidget *scroller, *list, *focus;
  GtkAdjustment *adjustment;
  guint cards;

  afp_view_test_show_review (fixture, review);
  scroller = applied_scroller (fixture);
  list = widgets_test_find_descendant (scroller, GTK_TYPE_GRID_VIEW);
  cards = widgets_test_count_descendants (scroller, TRIAGE_TYPE_AFP_APPLIED_CARD);
  g_test_message ("%u cards for %u items", cards, ATP_AFP_MAX_APPLIED_ITEMS);
  g_assert_cmpuint (cards, <, 100);
  g_assert_cmpint (gtk_widget_get_height (scroller), ==, TRIAGE_AFP_APPLIED_MAX_HEIGHT);
  adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller));
  g_assert_cmpfloat (gtk_adjustment_get_upper (adjustment), >, 10 * gtk_adjustment_get_page_size (adjustment));
  g_assert_null (shown_label (scroller, last_explanation));

  /* From the artifact, Tab goes into the list: the first card's Carry Over. */
  g_assert_true (gtk_widget_child_focus (artifact, GTK_DIR_TAB_FORWARD));
  for (guint i = 0; i < 10 && focus_in (fixture, artifact); i++)
    g_assert_true (press_key (fixture, "Tab"));
  g_assert_true (focus_in (fixture, list));
  focus = gtk_root_get_focus (GTK_ROOT (fixture->window));
  g_assert_true (GTK_IS_BUTTON (focus));
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (focus)), ==, "Carry Over “Scope Definition”");

  /* End: the last item, scrolled to, its row said as it reads. */
  g_assert_true (press_key (fixture, "End"));
  WAIT_UNTIL (shown_label (scroller, last_explanation) != NULL &&
              drawn_within (shown_label (scroller, last_explanation), scroller));
  g_assert_nonnull (shown_label (scroller, last_id));
  focus = gtk_root_get_focus (GTK_ROOT (fixture->window));
  g_assert_true (focus_in (fixture, list));
  gtk_test_accessible_assert_property (GTK_ACCESSIBLE (focus), GTK_ACCESSIBLE_PROPERTY_LABEL, last_id);

  /* One Tab out, to the editor below; Shift+Tab back in, and out above. */
  g_assert_true (press_key (fixture, "Tab"));
  g_assert_true (focus_in (fixture, editor));
  g_assert_true (press_key (fixture, "<Shift>Tab"));
  g_assert_true (focus_in (fixture, list));
  g_assert_true (press_key (fixture, "<Shift>Tab"));
  g_assert_true (focus_in (fixture, artifact));
}

int
main (int   argc,
      char *argv[])
{
  widgets_test_init (&argc, &argv);

  AFP_VIEW_TEST_ADD ("first-iteration", test_first_iteration);
  AFP_VIEW_TEST_ADD ("second-iteration", test_second_iteration);
  AFP_VIEW_TEST_ADD ("invisible-is-blank", test_invisible_is_blank);
  AFP_VIEW_TEST_ADD ("decline", test_decline);
  AFP_VIEW_TEST_ADD ("decline-dialog-keys", test_decline_dialog_keys);
  AFP_VIEW_TEST_ADD ("load", test_load);
  AFP_VIEW_TEST_ADD ("read-only", test_read_only);
  AFP_VIEW_TEST_ADD ("narrow", test_narrow);
  AFP_VIEW_TEST_ADD ("levels-are-radio", test_levels_are_radio);
  AFP_VIEW_TEST_ADD ("focus-kept", test_focus_kept);
  AFP_VIEW_TEST_ADD ("focus-heading", test_focus_heading);
  AFP_VIEW_TEST_ADD ("send-key-from-editor", test_send_key_from_editor);
  AFP_VIEW_TEST_ADD ("media-type-once", test_media_type_once);
  AFP_VIEW_TEST_ADD ("long-unbroken-strings", test_long_unbroken_strings);
  AFP_VIEW_TEST_ADD ("applied-few", test_applied_few);
  AFP_VIEW_TEST_ADD ("applied-many", test_applied_many);
  g_test_add_func ("/afp-view/stack", test_stack);

  return g_test_run ();
}
