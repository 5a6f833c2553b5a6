/* attachment-view-page.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The attachment page (what the main window shows over a request to
 * preview an attachment): its title, back button and view, a narrow window
 * with large text in the dark style, and its keys in the shortcuts window.
 */

#define G_LOG_DOMAIN "test-attachment-view"

#include "attachment-view-common.h"

/* A window of @attachment's page, as the main window's is sized at least. */
static GtkWidget *
page_window_new (const AtpAttachment   *attachment,
                 const char            *service_name,
                 TriageAttachmentPage **page)
{
  GtkWidget *window = adw_window_new ();

  *page = TRIAGE_ATTACHMENT_PAGE (triage_attachment_page_new ());
  triage_attachment_page_set_attachment (*page, attachment, service_name);
  adw_window_set_content (ADW_WINDOW (window), GTK_WIDGET (*page));
  gtk_window_set_default_size (GTK_WINDOW (window), 720, 560);

  return window;
}

static void
on_back (TriageAttachmentPage *page,
         guint                *count)
{
  (*count)++;
}

static gboolean
is_back_button (GtkWidget     *widget,
                gconstpointer  data)
{
  return GTK_IS_BUTTON (widget) &&
         g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (widget)), "page.back") == 0;
}

void
attachment_view_test_page (void)
{
  static const char text[] = "hello";
  g_autoptr(AtpAttachment) attachment = attachment_view_test_inline ("text/plain", "greeting <b>",
                                                                     text, 5);
  TriageAttachmentPage *page;
  GtkWidget *window = page_window_new (attachment, "Bot", &page);
  TriageAttachmentView *view = triage_attachment_page_get_view (page);
  GtkWidget *back;
  g_autofree char *shown = NULL;
  guint backs = 0;

  g_signal_connect (page, "back", G_CALLBACK (on_back), &backs);
  gtk_window_present (GTK_WINDOW (window));
  /* The name as plain text, not markup. */
  g_assert_cmpstr (triage_attachment_page_get_title (page), ==, "greeting <b>");
  g_assert_cmpint (triage_attachment_view_get_kind (view), ==, TRIAGE_ATTACHMENT_KIND_TEXT);
  shown = triage_attachment_view_get_text (view);
  g_assert_cmpstr (shown, ==, "hello");

  /* Back: a button with a name to read out, and Escape. */
  back = attachment_view_test_find_widget (window, is_back_button, NULL);
  g_assert_nonnull (back);
  g_assert_cmpstr (gtk_widget_get_tooltip_text (back), ==, "Back to the Request");
  g_signal_emit_by_name (back, "clicked");
  g_assert_cmpuint (backs, ==, 1);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "page.back", NULL));
  g_assert_cmpuint (backs, ==, 2);

  /* Emptied: nothing left of the attachment. */
  triage_attachment_page_set_attachment (page, NULL, NULL);
  g_assert_cmpstr (triage_attachment_page_get_title (page), ==, "");
  g_assert_cmpint (triage_attachment_view_get_kind (view), ==, TRIAGE_ATTACHMENT_KIND_NONE);

  g_object_add_weak_pointer (G_OBJECT (window), (gpointer *) &window);
  gtk_window_destroy (GTK_WINDOW (window));
  WAIT_UNTIL (window == NULL);
}

/* ------------------------------------------------------------------ a narrow window */

static int
window_width (GtkWidget *window)
{
  return ui_test_window_width (window);
}

static int
minimum_width (GtkWidget *window)
{
  return ui_test_minimum_width (window, adw_window_get_content (ADW_WINDOW (window)));
}

static gboolean
is_save_button (GtkWidget     *widget,
                gconstpointer  data)
{
  return GTK_IS_BUTTON (widget) && gtk_widget_get_mapped (widget) &&
         g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (widget)), data) == 0;
}

/* Tab reaches a button for @action_name, which has a name to show and to read out. */
static void
assert_reachable (GtkWidget  *window,
                  const char *action_name)
{
  GtkWidget *button = attachment_view_test_find_widget (window, is_save_button, action_name);
  gboolean reached = FALSE;

  g_assert_nonnull (button);
  g_assert_true (gtk_widget_is_sensitive (button));
  /* Its text, or for an icon, a tooltip (also its accessible label, in the .ui). */
  g_assert_true (gtk_button_get_label (GTK_BUTTON (button)) != NULL ||
                 gtk_widget_get_tooltip_text (button) != NULL);
  for (int i = 0; i < 40 && !reached; i++)
    {
      gtk_widget_child_focus (window, GTK_DIR_TAB_FORWARD);
      reached = gtk_root_get_focus (GTK_ROOT (window)) == button;
    }
  g_assert_true (reached);
}

/* Each kind of attachment fits 360 pixels with large text (1.5 ×), in the dark style. */
void
attachment_view_test_page_narrow (void)
{
  static const char text[] = "Version 2.1.0 includes faster builds and a long line of text "
                             "that must wrap or scroll, never widen the window.\n";
  static const char json[] = "{\"a_rather_long_member_name_for_a_narrow_window\": [1, 2, 3]}";
  g_autoptr(GBytes) png = attachment_view_test_make_image (800, 600, "png");
  g_autofree char *pdf = g_malloc0 (1000);
  const char *long_name = "Quarterly revenue report of the payments and invoicing platform";
  AtpAttachment *attachments[5];
  static const TriageAttachmentKind kinds[] = {
    TRIAGE_ATTACHMENT_KIND_TEXT, TRIAGE_ATTACHMENT_KIND_JSON, TRIAGE_ATTACHMENT_KIND_IMAGE,
    TRIAGE_ATTACHMENT_KIND_FILE, TRIAGE_ATTACHMENT_KIND_REMOTE,
  };
  GtkSettings *settings = gtk_settings_get_default ();
  AdwStyleManager *style = adw_style_manager_get_default ();
  int dpi = 0;

  memcpy (pdf, "%PDF-1.4\n", 9);
  attachments[0] = attachment_view_test_inline ("text/plain", long_name, text, strlen (text));
  attachments[1] = attachment_view_test_inline ("application/json",
                                                "metadata-of-the-release-candidate.json",
                                                json, strlen (json));
  attachments[2] = attachment_view_test_inline ("image/png", "screenshot-of-the-checkout-page.png",
                                                g_bytes_get_data (png,
                                                                  NULL), g_bytes_get_size (png));
  attachments[3] = attachment_view_test_inline ("application/pdf", long_name, pdf, 1000);
  attachments[4] = attachment_view_test_uri ("application/pdf", long_name,
                                             "https://files.storage-of-the-payments-and-invoicing-platform"
                                             ".example.com/reports/2026/q1/revenue.pdf");

  g_object_get (settings, "gtk-xft-dpi", &dpi, NULL);
  g_object_set (settings, "gtk-xft-dpi", 96 * 1024 * 3 / 2, NULL);
  adw_style_manager_set_color_scheme (style, ADW_COLOR_SCHEME_FORCE_DARK);

  for (guint i = 0; i < G_N_ELEMENTS (attachments); i++)
    {
      TriageAttachmentPage *page;
      GtkWidget *window = page_window_new (attachments[i], "Build bot", &page);
      TriageAttachmentView *view = triage_attachment_page_get_view (page);
      GtkWidget *content = adw_window_get_content (ADW_WINDOW (window));
      GdkRGBA color;

      gtk_window_set_default_size (GTK_WINDOW (window), 360, 640);
      gtk_window_present (GTK_WINDOW (window));
      WAIT_UNTIL (triage_attachment_view_get_kind (view) == kinds[i] &&
                  gtk_widget_get_mapped (content) && gtk_widget_get_width (content) > 0);
      for (int j = 0; j < 10; j++)
        g_main_context_iteration (NULL, FALSE);

      if (minimum_width (window) > 360)
        g_error ("the attachment page (%s) needs %d pixels, more than 360",
                 g_enum_to_string (TRIAGE_TYPE_ATTACHMENT_KIND, kinds[i]), minimum_width (window));
      g_assert_cmpint (window_width (window), ==, 360);

      /* Dark for real: the text is light. */
      g_assert_true (adw_style_manager_get_dark (style));
      gtk_style_context_get_color (gtk_widget_get_style_context (content), &color);
      g_assert_cmpfloat (color.red + color.green + color.blue, >, 1.5);

      /* The actions are still there, and reached with the keyboard. */
      if (kinds[i] != TRIAGE_ATTACHMENT_KIND_REMOTE)
        {
          assert_reachable (window, "attachment.save");
          assert_reachable (window, "attachment.open-with");
        }
      else
        {
          assert_reachable (window, "attachment.load");
        }

      g_object_add_weak_pointer (G_OBJECT (window), (gpointer *) &window);
      gtk_window_destroy (GTK_WINDOW (window));
      WAIT_UNTIL (window == NULL);
      attachment_view_test_attachment_free (attachments[i]);
    }

  adw_style_manager_set_color_scheme (style, ADW_COLOR_SCHEME_DEFAULT);
  g_object_set (settings, "gtk-xft-dpi", dpi, NULL);
}

static void
collect_own_keys (GtkWidget *widget,
                  GPtrArray *keys)
{
  g_autoptr(GPtrArray) shortcuts = ui_test_list_shortcuts (widget);

  for (guint i = 0; i < shortcuts->len; i++)
    {
      UiTestShortcut *shortcut = g_ptr_array_index (shortcuts, i);

      /* The page's and the view's own keys, not GTK's (F10, the inspector). */
      if (strstr (shortcut->action, "attachment.") != NULL || strstr (shortcut->action, "page.back") != NULL)
        g_ptr_array_add (keys, g_strdup (shortcut->trigger));
    }
}

/* Every key of the attachment page is in the app's shortcuts window. */
void
attachment_view_test_shortcuts_listed (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "src", "app", "gtk",
                                                 "help-overlay.ui", NULL);
  g_autoptr(GtkBuilder) builder = gtk_builder_new_from_file (path);
  g_autoptr(GPtrArray) keys = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) listed = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(AtpAttachment) attachment = attachment_view_test_inline ("text/plain", "notes", "hi",
                                                                     2);
  TriageAttachmentPage *page;
  GtkWidget *window = page_window_new (attachment, NULL, &page);
  GSList *objects = gtk_builder_get_objects (builder);

  for (GSList *l = objects; l != NULL; l = l->next)
    if (GTK_IS_SHORTCUTS_SHORTCUT (l->data))
      {
        g_autofree char *accelerator = NULL;
        g_auto(GStrv) accels = NULL;

        g_object_get (l->data, "accelerator", &accelerator, NULL);
        accels = g_strsplit (accelerator ? accelerator : "", " ", -1);
        for (guint i = 0; accels[i] != NULL; i++)
          if (accels[i][0] != '\0')
            g_ptr_array_add (listed, g_strdup (accels[i]));
      }
  g_slist_free (objects);

  collect_own_keys (GTK_WIDGET (page), keys);
  collect_own_keys (GTK_WIDGET (triage_attachment_page_get_view (page)), keys);
  g_assert_cmpuint (keys->len, >=, 4);   /* Escape, Ctrl+S, Ctrl+O, Ctrl+F */
  for (guint i = 0; i < keys->len; i++)
    if (!g_ptr_array_find_with_equal_func (listed, keys->pdata[i], g_str_equal, NULL))
      g_error ("the attachment page's %s is not in the shortcuts window",
               (char *) keys->pdata[i]);

  gtk_window_destroy (GTK_WINDOW (window));
}
