/* widgets-demo.c — the decision view with a realistic request, for a look and a screenshot
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   widgets-demo [--screenshot FILE.png] [--width N] [--height N] [--dark] [--filled] [--confirm]
 *
 * --filled answers a few actions half-way, as a person would, so the live
 * counters and reasons show. --confirm presses "Deploy to Production", so the
 * confirmation dialog is on screen (look at it with `import -window root`).
 * With --screenshot the window is rendered to FILE.png once it has been drawn
 * (gdk_texture_save_to_png of a snapshot of the window), then the program exits.
 */

#define G_LOG_DOMAIN "widgets-demo"

#include <adwaita.h>

#include "triage-decision-view.h"
#include "triage-response-editor-private.h"

static const char deploy_request[] =
  "{"
  "\"id\": \"7c9e6679-7425-40de-944b-e07fc1f90ae7\","
  "\"version\": \"1.0\","
  "\"timestamp\": \"@TIMESTAMP@\","
  "\"deadline\": \"@DEADLINE@\","
  "\"service\": {\"id\": \"deploy-bot\", \"name\": \"Deploy Bot\"},"
  "\"context\": {"
  "  \"title\": \"Deploy backend-api 2.1.0 to production?\","
  "  \"description\": \"Version 2.1.0 passed staging: 47 changes, all checks green. The rollout drains one region at a time; the payment service sees about 30 s of reduced capacity per region.\","
  "  \"project\": \"backend-api\","
  "  \"metadata\": {"
  "    \"version\": \"2.1.0\","
  "    \"commit\": \"9f3c2a1\","
  "    \"changes\": 47,"
  "    \"test_coverage\": \"98.3%\","
  "    \"regions\": [\"eu-west-1\", \"us-east-1\"]"
  "  },"
  "  \"attachments\": ["
  "    {\"type\": \"text/plain\", \"description\": \"Release notes\","
  "     \"data\": \"VmVyc2lvbiAyLjEuMCBpbmNsdWRlczoKLSBQZXJmb3JtYW5jZSBpbXByb3ZlbWVudHMKLSBCdWcgZml4ZXMKLSBOZXcgQVBJIGVuZHBvaW50cw==\"},"
  "    {\"type\": \"text/html\", \"description\": \"Staging dashboard\","
  "     \"uri\": \"https://grafana.example.com/d/staging\"}"
  "  ]"
  "},"
  "\"actions\": ["
  "  {\"id\": \"approve\", \"label\": \"Deploy to Production\", \"response_type\": \"simple\","
  "   \"flags\": [\"irreversible\", \"affects_others\"]},"
  "  {\"id\": \"strategy\", \"label\": \"Deploy with a strategy\", \"response_type\": \"choice\","
  "   \"options\": [{\"value\": \"canary\", \"label\": \"Canary, 5 % of traffic first\"},"
  "                 {\"value\": \"blue_green\", \"label\": \"Blue-green switch\"},"
  "                 {\"value\": \"all\", \"label\": \"All regions at once\"}],"
  "   \"flags\": [\"time_sensitive\"]},"
  "  {\"id\": \"canary\", \"label\": \"Canary traffic share\", \"response_type\": \"scale\","
  "   \"constraints\": {\"min\": 0, \"max\": 50, \"step\": 5, \"min_label\": \"No canary\", \"max_label\": \"Half the traffic\"}},"
  "  {\"id\": \"budget\", \"label\": \"Roll back above this error rate\", \"response_type\": \"number\","
  "   \"constraints\": {\"min\": 0.1, \"max\": 5, \"step\": 0.1, \"unit\": \"% of requests\"}},"
  "  {\"id\": \"notify\", \"label\": \"Announce in\", \"response_type\": \"multi_choice\","
  "   \"options\": [{\"value\": \"eng\", \"label\": \"#engineering\"},"
  "                 {\"value\": \"ops\", \"label\": \"#ops-oncall\"},"
  "                 {\"value\": \"status\", \"label\": \"Public status page\"}],"
  "   \"constraints\": {\"min_selections\": 1, \"max_selections\": 2}, \"flags\": [\"costly\"]},"
  "  {\"id\": \"reject\", \"label\": \"Reject\", \"response_type\": \"text\","
  "   \"constraints\": {\"min_length\": 10, \"max_length\": 500, \"placeholder\": \"Why should this release wait?\"}}"
  "]"
  "}";

static char *screenshot_path;
static int width = 720;
static int height = 1600;
static gboolean dark;
static gboolean filled;
static gboolean confirm;

static GOptionEntry entries[] = {
  { "screenshot", 0, 0, G_OPTION_ARG_FILENAME, &screenshot_path, "Save a PNG of the window and quit", "FILE" },
  { "width", 0, 0, G_OPTION_ARG_INT, &width, "Window width", "N" },
  { "height", 0, 0, G_OPTION_ARG_INT, &height, "Window height", "N" },
  { "dark", 0, 0, G_OPTION_ARG_NONE, &dark, "Dark style", NULL },
  { "filled", 0, 0, G_OPTION_ARG_NONE, &filled, "Answer some actions half-way", NULL },
  { "confirm", 0, 0, G_OPTION_ARG_NONE, &confirm, "Show the confirmation of the first action", NULL },
  { NULL }
};

static gboolean done;
static int exit_status;

static void
save_screenshot (GtkWidget *window)
{
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (window);
  g_autoptr(GtkSnapshot) snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  int w = gtk_widget_get_width (window);
  int h = gtk_widget_get_height (window);

  gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot), w, h);
  node = gtk_snapshot_to_node (snapshot);
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (GTK_NATIVE (window)), node,
                                         &GRAPHENE_RECT_INIT (0, 0, w, h));
  if (!gdk_texture_save_to_png (texture, screenshot_path))
    {
      g_printerr ("widgets-demo: could not write %s\n", screenshot_path);
      exit_status = 1;
    }
  else
    g_print ("widgets-demo: wrote %s (%d×%d)\n", screenshot_path, w, h);
}

static gboolean
screenshot_cb (gpointer data)
{
  save_screenshot (GTK_WIDGET (data));
  done = TRUE;
  return G_SOURCE_REMOVE;
}

static TriageResponseEditor *
editor (GtkWidget  *view,
        const char *action_id)
{
  return TRIAGE_RESPONSE_EDITOR (triage_decision_view_get_editor (TRIAGE_DECISION_VIEW (view), action_id));
}

static gboolean
focus_first_answer_cb (gpointer data)
{
  GObject *description = gtk_widget_get_template_child (GTK_WIDGET (data), TRIAGE_TYPE_DECISION_VIEW,
                                                        "description_label");

  gtk_widget_child_focus (triage_decision_view_get_editor (TRIAGE_DECISION_VIEW (data), "approve"),
                          GTK_DIR_TAB_FORWARD);
  gtk_label_select_region (GTK_LABEL (description), 0, 0);
  if (confirm)
    g_signal_emit_by_name (triage_response_editor_get_submit_button (editor (GTK_WIDGET (data), "approve")),
                           "clicked");
  return G_SOURCE_REMOVE;
}

/* Half-way through answering, as a person would leave it. */
static void
fill_in (GtkWidget *view)
{
  GPtrArray *strategies = triage_response_editor_get_option_buttons (editor (view, "strategy"));
  GPtrArray *channels = triage_response_editor_get_option_buttons (editor (view, "notify"));
  GtkWidget *canary = triage_response_editor_get_input (editor (view, "canary"));
  GtkWidget *budget = triage_response_editor_get_input (editor (view, "budget"));
  GtkWidget *reason = triage_response_editor_get_input (editor (view, "reject"));
  gboolean handled;

  gtk_check_button_set_active (g_ptr_array_index (strategies, 0), TRUE);
  g_signal_emit_by_name (canary, "change-value", GTK_SCROLL_JUMP, 10.0, &handled);
  gtk_editable_set_text (GTK_EDITABLE (budget), "0.75");
  gtk_check_button_set_active (g_ptr_array_index (channels, 0), TRUE);
  gtk_check_button_set_active (g_ptr_array_index (channels, 1), TRUE);
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (GTK_TEXT_VIEW (reason)), "Wait for", -1);
}

static char *
notification_text (void)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autoptr(GDateTime) sent = g_date_time_add_seconds (now, -95);
  g_autoptr(GDateTime) deadline = g_date_time_add_seconds (now, 4 * 60 + 12.5);
  g_autofree char *sent_text = atp_format_timestamp (sent);
  g_autofree char *deadline_text = atp_format_timestamp (deadline);
  GString *text = g_string_new (deploy_request);

  g_string_replace (text, "@TIMESTAMP@", sent_text, 1);
  g_string_replace (text, "@DEADLINE@", deadline_text, 1);
  return g_string_free (text, FALSE);
}

static void
on_submit (TriageDecisionView *view,
           const char         *action_id,
           JsonNode           *response_data)
{
  g_autofree char *json = atp_json_to_string (response_data, NULL);

  g_print ("submit %s %s\n", action_id, json);
  triage_decision_view_set_delivery_state (view, TRIAGE_DELIVERY_SENT);
}

static void
on_close (void)
{
  done = TRUE;
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GOptionContext) context = g_option_context_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpNotification) notification = NULL;
  g_autofree char *text = NULL;
  GtkWidget *window, *box, *header, *title, *view;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("widgets-demo: %s\n", error->message);
      return 2;
    }

  gtk_init ();
  adw_init ();
  if (dark)
    adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_FORCE_DARK);

  text = notification_text ();
  notification = atp_notification_new_from_data (text, -1, ATP_PARSE_DEFAULT, &error);
  if (notification == NULL)
    {
      g_printerr ("widgets-demo: %s\n", error->message);
      return 1;
    }

  window = adw_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  gtk_window_set_title (GTK_WINDOW (window), "Triage");
  g_signal_connect (window, "close-request", G_CALLBACK (on_close), NULL);

  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  header = adw_header_bar_new ();
  title = adw_window_title_new (notification->context.title, notification->service.name);
  adw_header_bar_set_title_widget (ADW_HEADER_BAR (header), title);
  gtk_box_append (GTK_BOX (box), header);

  view = triage_decision_view_new ();
  gtk_widget_set_vexpand (view, TRUE);
  triage_decision_view_set_notification (TRIAGE_DECISION_VIEW (view), notification);
  g_signal_connect (view, "submit", G_CALLBACK (on_submit), NULL);
  if (filled)
    fill_in (view);
  gtk_box_append (GTK_BOX (box), view);

  adw_window_set_content (ADW_WINDOW (window), box);
  gtk_window_present (GTK_WINDOW (window));
  /* As in the app: focus on the answers, not on a selectable text. */
  g_timeout_add (300, focus_first_answer_cb, view);

  if (screenshot_path != NULL)
    g_timeout_add (1500, screenshot_cb, window);

  while (!done)
    g_main_context_iteration (NULL, TRUE);

  if (screenshot_path != NULL)
    gtk_window_destroy (GTK_WINDOW (window));

  return exit_status;
}
