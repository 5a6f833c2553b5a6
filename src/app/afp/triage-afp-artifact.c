/* triage-afp-artifact.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-afp-artifact"

#include <glib/gi18n.h>
#include <gtksourceview/gtksource.h>

#include "triage-afp-artifact.h"
#include "triage-afp-diff.h"
#include "triage-decision-format.h"
#include "triage-attachment-text.h"
#include "triage-text-preview.h"
#include "triage-scroll-chain.h"

/*
 * The artifact a review is about, read-only, in a GtkSourceView: source and
 * structured types highlighted (the language from the media type), Markdown
 * as text with its structure highlighted (GtkSourceView's markdown), JSON
 * formatted (a JSON string reformatted when it parses; content that is not
 * a string is JSON anyway). From iteration 2 on, the changes since the
 * previous iteration come first: a line diff (triage-afp-diff.c) where every
 * line starts with its sign, "+ " added, "- " removed, "  " unchanged, so a
 * change is told without colour (GtkSourceView's diff language colours it
 * too), and a line above says how many lines changed.
 */

struct _TriageAfpArtifact
{
  GtkBox             parent_instance;

  const char        *language_id;   /* interned by GtkSourceLanguage */
  char              *pending_text;  /* the whole artifact, until its page is shown */
  GtkSourceLanguage *pending_language;

  GtkLabel          *info;
  GtkStackSwitcher  *switcher;
  GtkStack          *stack;
  GtkStackPage      *changes_page;
  GtkLabel          *changes_label;
  GtkSourceView     *changes_view;
  GtkSourceView     *artifact_view;
};

G_DEFINE_FINAL_TYPE (TriageAfpArtifact, triage_afp_artifact, GTK_TYPE_BOX)

static gboolean
essence_is (const char *essence,
            const char *type,
            const char *suffix)
{
  return g_strcmp0 (essence, type) == 0 || (suffix != NULL && essence != NULL && g_str_has_suffix (essence, suffix));
}

/* The GtkSourceView language of an artifact, or NULL for plain text. */
static GtkSourceLanguage *
language_for (const AtpAfpArtifact *artifact)
{
  GtkSourceLanguageManager *manager = gtk_source_language_manager_get_default ();
  g_autofree char *essence = atp_afp_media_type_essence (artifact->media_type);
  const char *id = NULL;

  if (!JSON_NODE_HOLDS_VALUE (artifact->content) ||
      json_node_get_value_type (artifact->content) != G_TYPE_STRING ||
      essence_is (essence, "application/json", "+json"))
    id = "json";
  else if (essence_is (essence, "text/markdown", NULL) || essence_is (essence, "text/x-markdown", NULL))
    id = "markdown";
  else if (essence_is (essence, "application/xml", "+xml") || essence_is (essence, "text/xml", NULL))
    id = "xml";
  else if (essence_is (essence, "application/yaml", "+yaml") || essence_is (essence, "application/x-yaml", NULL) ||
           essence_is (essence, "text/yaml", NULL))
    id = "yaml";
  else if (essence_is (essence, "text/plain", NULL) || essence == NULL)
    return NULL;

  if (id != NULL)
    return gtk_source_language_manager_get_language (manager, id);

  return gtk_source_language_manager_guess_language (manager, NULL, essence);
}

/**
 * triage_afp_artifact_dup_text:
 * @artifact: an artifact
 *
 * Returns: (transfer full): the artifact as it is shown: its text, JSON
 *   formatted (content that is not a string, and a JSON media type's string
 *   when it parses)
 */
char *
triage_afp_artifact_dup_text (const AtpAfpArtifact *artifact)
{
  g_autofree char *essence = NULL;
  const char *text;

  g_return_val_if_fail (artifact != NULL && artifact->content != NULL, NULL);

  if (!JSON_NODE_HOLDS_VALUE (artifact->content) ||
      json_node_get_value_type (artifact->content) != G_TYPE_STRING)
    return json_to_string (artifact->content, TRUE);

  text = json_node_get_string (artifact->content);
  essence = atp_afp_media_type_essence (artifact->media_type);
  if (essence_is (essence, "application/json", "+json"))
    {
      g_autoptr(JsonNode) parsed = json_from_string (text, NULL);

      if (parsed != NULL)
        return json_to_string (parsed, TRUE);
    }

  return g_strdup (text);
}

/* Past this many lines a text keeps the view's fixed height: asking a
 * GtkTextView for its natural height lays out every line (100 ms and more
 * for 10,000), which the first frame of a long artifact cannot wait for. */
#define MAX_NATURAL_LINES 200

/* The note set_text() leaves on a view whose lines it shortened (or NULL). */
#define CUT_NOTICE_KEY "triage-afp-cut-notice"

/* Sets @text in @view as the attachment preview shows a text: lines too long
 * for Pango cut for display with "…" (one line of 600,000 characters took
 * GTK minutes to lay out), highlighting off beyond a size. */
static void
set_text (GtkSourceView     *view,
          const char        *text,
          GtkSourceLanguage *language)
{
  GtkSourceBuffer *buffer = GTK_SOURCE_BUFFER (gtk_text_view_get_buffer (GTK_TEXT_VIEW (view)));
  GtkWidget *scroller = gtk_widget_get_ancestor (GTK_WIDGET (view), GTK_TYPE_SCROLLED_WINDOW);
  g_autoptr(GBytes) bytes = g_bytes_new_static (text, strlen (text));
  g_autoptr(TriageAttachmentText) shown = triage_attachment_text_prepare (bytes, NULL, FALSE);
  char *notice = NULL;
  GtkTextIter start;

  if (shown->cuts->len > 0)
    {
      const TriageAttachmentTextCut *longest = &g_array_index (shown->cuts, TriageAttachmentTextCut, 0);
      g_autofree char *chars = NULL;

      for (guint i = 1; i < shown->cuts->len; i++)
        if (g_array_index (shown->cuts, TriageAttachmentTextCut, i).chars > longest->chars)
          longest = &g_array_index (shown->cuts, TriageAttachmentTextCut, i);
      chars = triage_attachment_text_format_count (longest->chars);
      notice = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                             /* Translators: %u is a number of lines, the
                                              * second a line number, %s a number of characters */
                                             "%u line shortened for display (line %u: %s characters)",
                                             "%u lines shortened for display (the longest, line %u: "
                                             "%s characters)", shown->cuts->len),
                                shown->cuts->len, longest->line + 1, chars);
    }
  g_object_set_data_full (G_OBJECT (view), CUT_NOTICE_KEY, notice, g_free);
  if (shown->display_length > TRIAGE_ATTACHMENT_TEXT_HIGHLIGHT_MAX_SIZE)
    language = NULL;

  gtk_source_buffer_set_language (buffer, language);
  gtk_source_buffer_set_highlight_syntax (buffer, language != NULL);
  gtk_text_buffer_set_text (GTK_TEXT_BUFFER (buffer), "", 0);
  gtk_text_buffer_get_start_iter (GTK_TEXT_BUFFER (buffer), &start);
  triage_text_preview_insert (GTK_TEXT_BUFFER (buffer), &start, shown->display, shown->display_length);
  gtk_text_buffer_get_start_iter (GTK_TEXT_BUFFER (buffer), &start);
  gtk_text_buffer_place_cursor (GTK_TEXT_BUFFER (buffer), &start);
  if (scroller != NULL)
    gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scroller),
                                                      gtk_text_buffer_get_line_count (GTK_TEXT_BUFFER (buffer))
                                                      <= MAX_NATURAL_LINES);
}

/* The artifact's version, and what was shortened for display. */
static void
update_info (TriageAfpArtifact *self)
{
  const char *info = g_object_get_data (G_OBJECT (self->info), "triage-afp-info");
  const char *cut = g_object_get_data (G_OBJECT (self->artifact_view), CUT_NOTICE_KEY);
  const char *changes_cut = g_object_get_data (G_OBJECT (self->changes_view), CUT_NOTICE_KEY);
  const char *note = cut != NULL ? cut : changes_cut;
  g_autoptr(GString) text = g_string_new (info);

  if (note != NULL && text->len > 0)
    /* Translators: a separator before a note on the artifact, e.g. "Version 3 · 1 line shortened…" */
    g_string_append_printf (text, _(" · %s"), note);
  else if (note != NULL)
    g_string_append (text, note);
  gtk_label_set_label (self->info, text->str);
  gtk_widget_set_visible (GTK_WIDGET (self->info), text->len > 0);
}

/**
 * triage_afp_artifact_set_review:
 * @self: a #TriageAfpArtifact
 * @review: (nullable): the review whose artifact is shown
 */
void
triage_afp_artifact_set_review (TriageAfpArtifact *self,
                                AtpAfpReview      *review)
{
  GtkSourceLanguageManager *manager = gtk_source_language_manager_get_default ();
  g_autofree char *text = NULL;
  g_autofree char *info = NULL;
  GtkSourceLanguage *language;
  const AtpAfpArtifact *artifact;
  gboolean has_previous;

  g_return_if_fail (TRIAGE_IS_AFP_ARTIFACT (self));

  if (review == NULL)
    {
      g_clear_pointer (&self->pending_text, g_free);
      set_text (self->artifact_view, "", NULL);
      set_text (self->changes_view, "", NULL);
      return;
    }

  artifact = &review->request->artifact;
  language = language_for (artifact);
  self->language_id = language ? gtk_source_language_get_id (language) : NULL;
  text = triage_afp_artifact_dup_text (artifact);
  g_free (self->pending_text);
  self->pending_text = NULL;
  /* Prose wraps; code keeps its lines (scrolled sideways). */
  gtk_text_view_set_wrap_mode (GTK_TEXT_VIEW (self->artifact_view),
                               self->language_id == NULL || g_str_equal (self->language_id, "markdown")
                               ? GTK_WRAP_WORD_CHAR : GTK_WRAP_NONE);

  /* The media type is not repeated: the line under the request's title says
   * it ("Iteration 1 · text/markdown"). */
  if (artifact->artifact_ref != NULL)
    {
      g_autofree char *ref = triage_format_shown_text (artifact->artifact_ref, TRIAGE_SHOWN_VALUE_CHARS);

      /* Translators: the agent's reference of the artifact's version */
      info = g_strdup_printf (_("Version %s"), ref);
    }
  g_object_set_data_full (G_OBJECT (self->info), "triage-afp-info", g_steal_pointer (&info), g_free);

  has_previous = review->previous_id != NULL && review->previous_artifact.content != NULL;
  gtk_stack_page_set_visible (self->changes_page, has_previous);
  gtk_widget_set_visible (GTK_WIDGET (self->switcher), has_previous);
  if (has_previous)
    {
      g_autofree char *old_text = triage_afp_artifact_dup_text (&review->previous_artifact);
      g_autoptr(TriageAfpDiff) diff = triage_afp_diff_new (old_text, text);
      g_autofree char *changes = triage_afp_diff_to_text (diff);
      g_autofree char *added = NULL;
      g_autofree char *removed = NULL;
      g_autofree char *summary = NULL;
      g_autofree char *title = NULL;
      g_autofree char *previous = g_strdup_printf ("%" G_GINT64_FORMAT, review->previous_iteration);
      guint n_added = triage_afp_diff_get_n_added (diff);
      guint n_removed = triage_afp_diff_get_n_removed (diff);

      set_text (self->changes_view, changes, gtk_source_language_manager_get_language (manager, "diff"));
      /* Translators: how many lines the agent added since the previous iteration */
      added = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u line added", "%u lines added", n_added), n_added);
      /* Translators: how many lines the agent removed since the previous iteration */
      removed = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u removed", "%u removed", n_removed), n_removed);
      /* Translators: %1$s is the previous iteration's number, %2$s and %3$s
       * how many lines were added and removed */
      summary = g_strdup_printf (_("Changes since iteration %1$s: %2$s, %3$s. "
                                   "Added lines start with +, removed lines with -."),
                                 previous, added, removed);
      gtk_label_set_label (self->changes_label, summary);
      /* Translators: the accessible name of the diff */
      title = g_strdup_printf (_("Changes since iteration %s"), previous);
      gtk_accessible_update_property (GTK_ACCESSIBLE (self->changes_view), GTK_ACCESSIBLE_PROPERTY_LABEL, title,
                                      GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, summary, -1);
      /* The whole text waits until its page is shown: a second long text
       * would double the time to the first frame. */
      self->pending_text = g_steal_pointer (&text);
      self->pending_language = language;
      set_text (self->artifact_view, "", NULL);
      gtk_stack_set_visible_child_name (self->stack, "changes");
    }
  else
    {
      set_text (self->artifact_view, text, language);
      set_text (self->changes_view, "", NULL);
      gtk_stack_set_visible_child_name (self->stack, "artifact");
    }
  update_info (self);
}

static void
on_visible_child_changed (TriageAfpArtifact *self)
{
  g_autofree char *text = NULL;

  if (self->pending_text == NULL || g_strcmp0 (gtk_stack_get_visible_child_name (self->stack), "artifact") != 0)
    return;

  text = g_steal_pointer (&self->pending_text);
  set_text (self->artifact_view, text, self->pending_language);
  update_info (self);
}

const char *
triage_afp_artifact_get_language_id (TriageAfpArtifact *self)
{
  return self->language_id;
}

static char *
dup_buffer_text (GtkSourceView *view)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (view));
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

char *
triage_afp_artifact_dup_shown_text (TriageAfpArtifact *self)
{
  if (self->pending_text != NULL)
    return g_strdup (self->pending_text);
  return dup_buffer_text (self->artifact_view);
}

char *
triage_afp_artifact_dup_changes_text (TriageAfpArtifact *self)
{
  return dup_buffer_text (self->changes_view);
}

/* Building */

static void
update_style_scheme (TriageAfpArtifact *self)
{
  GtkSourceStyleSchemeManager *manager = gtk_source_style_scheme_manager_get_default ();
  gboolean dark = adw_style_manager_get_dark (adw_style_manager_get_default ());
  GtkSourceStyleScheme *scheme = gtk_source_style_scheme_manager_get_scheme (manager,
                                                                             dark ? "Adwaita-dark" : "Adwaita");
  GtkSourceView *views[] = { self->artifact_view, self->changes_view };

  for (guint i = 0; i < G_N_ELEMENTS (views); i++)
    gtk_source_buffer_set_style_scheme (GTK_SOURCE_BUFFER (gtk_text_view_get_buffer (GTK_TEXT_VIEW (views[i]))),
                                        scheme);
}

static GtkSourceView *
new_source_view (const char *accessible_name,
                 gboolean    line_numbers)
{
  GtkSourceView *view = GTK_SOURCE_VIEW (gtk_source_view_new ());

  gtk_text_view_set_editable (GTK_TEXT_VIEW (view), FALSE);
  gtk_text_view_set_cursor_visible (GTK_TEXT_VIEW (view), TRUE);
  gtk_text_view_set_monospace (GTK_TEXT_VIEW (view), TRUE);
  gtk_text_view_set_top_margin (GTK_TEXT_VIEW (view), 6);
  gtk_text_view_set_bottom_margin (GTK_TEXT_VIEW (view), 6);
  gtk_text_view_set_left_margin (GTK_TEXT_VIEW (view), 6);
  gtk_text_view_set_right_margin (GTK_TEXT_VIEW (view), 6);
  gtk_source_view_set_show_line_numbers (view, line_numbers);
  gtk_accessible_update_property (GTK_ACCESSIBLE (view), GTK_ACCESSIBLE_PROPERTY_LABEL, accessible_name, -1);
  return view;
}

static GtkWidget *
scrolled (GtkSourceView *view)
{
  GtkWidget *scroller = gtk_scrolled_window_new ();

  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), GTK_WIDGET (view));
  gtk_scrolled_window_set_min_content_height (GTK_SCROLLED_WINDOW (scroller), 240);
  gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (scroller), 420);
  gtk_widget_add_css_class (scroller, "card");
  gtk_widget_set_overflow (scroller, GTK_OVERFLOW_HIDDEN);
  triage_scroll_chain_attach (GTK_SCROLLED_WINDOW (scroller));
  return scroller;
}

static void
triage_afp_artifact_dispose (GObject *object)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (object))) != NULL)
    gtk_box_remove (GTK_BOX (object), child);

  G_OBJECT_CLASS (triage_afp_artifact_parent_class)->dispose (object);
}

static void
triage_afp_artifact_finalize (GObject *object)
{
  TriageAfpArtifact *self = TRIAGE_AFP_ARTIFACT (object);

  g_free (self->pending_text);

  G_OBJECT_CLASS (triage_afp_artifact_parent_class)->finalize (object);
}

static void
triage_afp_artifact_class_init (TriageAfpArtifactClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = triage_afp_artifact_dispose;
  object_class->finalize = triage_afp_artifact_finalize;

  gtk_source_init ();
}

static void
triage_afp_artifact_init (TriageAfpArtifact *self)
{
  GtkWidget *heading, *changes_box;

  gtk_orientable_set_orientation (GTK_ORIENTABLE (self), GTK_ORIENTATION_VERTICAL);
  gtk_box_set_spacing (GTK_BOX (self), 6);

  heading = g_object_new (GTK_TYPE_LABEL, "label", _("Artifact"), "xalign", 0.0f,
                          "accessible-role", GTK_ACCESSIBLE_ROLE_HEADING, NULL);
  gtk_widget_add_css_class (heading, "heading");
  gtk_box_append (GTK_BOX (self), heading);

  self->info = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->info, 0);
  gtk_label_set_wrap (self->info, TRUE);
  gtk_label_set_wrap_mode (self->info, PANGO_WRAP_WORD_CHAR);
  gtk_label_set_selectable (self->info, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->info), "dim-label");
  gtk_box_append (GTK_BOX (self), GTK_WIDGET (self->info));

  self->stack = GTK_STACK (gtk_stack_new ());
  /* Only the page shown is measured (a long text's size is costly). */
  gtk_stack_set_hhomogeneous (self->stack, FALSE);
  gtk_stack_set_vhomogeneous (self->stack, FALSE);
  self->switcher = GTK_STACK_SWITCHER (gtk_stack_switcher_new ());
  gtk_stack_switcher_set_stack (self->switcher, self->stack);
  gtk_widget_set_halign (GTK_WIDGET (self->switcher), GTK_ALIGN_START);
  /* Said as its tabs are (GTK 4.8 would say "GtkStackSwitcher"). */
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->switcher),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Artifact"), -1);
  gtk_box_append (GTK_BOX (self), GTK_WIDGET (self->switcher));
  gtk_box_append (GTK_BOX (self), GTK_WIDGET (self->stack));

  changes_box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  self->changes_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->changes_label, 0);
  gtk_label_set_wrap (self->changes_label, TRUE);
  gtk_box_append (GTK_BOX (changes_box), GTK_WIDGET (self->changes_label));
  self->changes_view = new_source_view (_("Changes"), FALSE);
  gtk_box_append (GTK_BOX (changes_box), scrolled (self->changes_view));
  self->changes_page = gtk_stack_add_titled (self->stack, changes_box, "changes", _("Changes"));
  self->artifact_view = new_source_view (_("Artifact"), TRUE);
  gtk_stack_add_titled (self->stack, scrolled (self->artifact_view), "artifact", _("Full Text"));

  g_signal_connect_object (self->stack, "notify::visible-child", G_CALLBACK (on_visible_child_changed), self,
                           G_CONNECT_SWAPPED);
  update_style_scheme (self);
  g_signal_connect_object (adw_style_manager_get_default (), "notify::dark",
                           G_CALLBACK (update_style_scheme), self, G_CONNECT_SWAPPED);
}

GtkWidget *
triage_afp_artifact_new (void)
{
  return g_object_new (TRIAGE_TYPE_AFP_ARTIFACT, NULL);
}
