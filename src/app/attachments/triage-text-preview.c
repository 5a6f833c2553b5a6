/* triage-text-preview.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-text-preview"

#include <glib/gi18n.h>
#include <string.h>

#include "triage-text-preview.h"

/* Bytes put into the buffer at a time, and the time an idle may spend on
 * them before the rest waits for the next one. */
#define LOAD_CHUNK_SIZE (8 * 1024)
#define LOAD_BUDGET_US  (8 * 1000)
/* Searches longer than this are cut (a search is a scan of the whole text). */
#define MAX_QUERY_BYTES 256
/* Matches counted at most; beyond it the count says "more than". */
#define MAX_MATCHES 100000

/*
 * A read-only GtkSourceView over a prepared attachment text, and a search
 * in it. Nothing here lays out more than can be seen: the text comes
 * prepared (long lines cut, made off the main thread when large), the buffer
 * is filled a chunk at a time from an idle below the view's own layout work,
 * and the search runs over the whole text, not only what is shown: a match
 * in the hidden part of a shortened line brings that part of the line in.
 */
struct _TriageTextPreview
{
  AdwBin                parent_instance;

  /* template */
  GtkSearchBar         *search_bar;
  GtkSearchEntry       *search_entry;
  GtkLabel             *match_label;
  GtkSourceView        *source_view;

  TriageAttachmentText *text;
  gsize                 loaded;           /* bytes of text->display in the buffer */
  guint                 load_id;
  GHashTable           *windows;          /* line → first character shown, of cut lines moved */

  char                 *query;
  GArray               *matches;          /* gsize: byte offsets in text->text */
  guint                 current;          /* index in matches */
  gboolean              match_pending;    /* shown once its line is loaded */
};

enum {
  PROP_0,
  PROP_LOADING,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (TriageTextPreview, triage_text_preview, ADW_TYPE_BIN)

static GtkTextBuffer *
get_buffer (TriageTextPreview *self)
{
  return gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->source_view));
}

static void show_match (TriageTextPreview *self);

#define NO_HYPHENS_TAG "triage-no-hyphens"

/**
 * triage_text_preview_insert:
 * @buffer: the buffer of a view that shows an agent's text as it is
 * @iter: where to insert; moved to the end of the text inserted
 * @text: UTF-8 text
 * @length: its length in bytes, or -1
 *
 * Inserts @text so that a line wrapped inside a word shows no hyphen there:
 * Pango adds one by default, and in a token, a command or a URL it reads as
 * a character of the text that is not in it.
 */
void
triage_text_preview_insert (GtkTextBuffer *buffer,
                            GtkTextIter   *iter,
                            const char    *text,
                            int            length)
{
  GtkTextTagTable *table = gtk_text_buffer_get_tag_table (buffer);
  GtkTextTag *tag = gtk_text_tag_table_lookup (table, NO_HYPHENS_TAG);

  if (tag == NULL)
    tag = gtk_text_buffer_create_tag (buffer, NO_HYPHENS_TAG, "insert-hyphens", FALSE, NULL);

  gtk_text_buffer_insert_with_tags (buffer, iter, text, length, tag, NULL);
}

#define INSERTED_BREAK_TAG "triage-inserted-break"

/* Hides the line breaks the display put between the pieces of a long line
 * shown whole (lines @first to @end of the buffer start after them). Still
 * a line each, so Pango lays out and wraps each piece alone, but not part
 * of the text: what is copied (Ctrl+C, Copy, a drag) is the visible text
 * (GTK's text/plain of a buffer), as the agent sent it. */
static void
hide_inserted_breaks (TriageTextPreview *self,
                      guint              first,
                      guint              end)
{
  GtkTextBuffer *buffer = get_buffer (self);
  GtkTextTag *tag = NULL;

  for (guint line = MAX (first, 1); line < end; line++)
    {
      GtkTextIter line_start, line_break;

      if (!triage_attachment_text_line_continues (self->text, line))
        continue;
      if (tag == NULL)
        tag = gtk_text_tag_table_lookup (gtk_text_buffer_get_tag_table (buffer), INSERTED_BREAK_TAG);
      if (tag == NULL)
        tag = gtk_text_buffer_create_tag (buffer, INSERTED_BREAK_TAG, "invisible", TRUE, NULL);
      gtk_text_buffer_get_iter_at_line (buffer, &line_start, line);
      line_break = line_start;
      gtk_text_iter_backward_char (&line_break);
      gtk_text_buffer_apply_tag (buffer, tag, &line_break, &line_start);
    }
}

static gboolean
line_loaded (TriageTextPreview *self,
             guint              line)
{
  return self->load_id == 0 || (guint) gtk_text_buffer_get_line_count (get_buffer (self)) > line + 1;
}

/* Puts the next chunk of the text into the buffer. Returns whether more is to come. */
static gboolean
load_chunk (TriageTextPreview *self)
{
  GtkTextBuffer *buffer = get_buffer (self);
  const char *start = self->text->display + self->loaded;
  gsize remaining = self->text->display_length - self->loaded;
  gsize length = MIN (remaining, LOAD_CHUNK_SIZE);
  GtkTextIter end;
  guint first_line;

  /* Whole lines at a time where one ends soon enough (a line is never longer
   * than a few kB once prepared), else at the start of a character. */
  if (length < remaining)
    {
      const char *newline = memchr (start + length, '\n', MIN (remaining - length, 16 * 1024));

      if (newline != NULL)
        length = newline + 1 - start;
      else
        length = g_utf8_find_prev_char (start, start + length) - start;
    }

  gtk_text_buffer_get_end_iter (buffer, &end);
  first_line = gtk_text_buffer_get_line_count (buffer);
  triage_text_preview_insert (buffer, &end, start, length);
  hide_inserted_breaks (self, first_line, gtk_text_buffer_get_line_count (buffer));
  self->loaded += length;

  return self->loaded < self->text->display_length;
}

static gboolean
load_chunk_cb (gpointer user_data)
{
  TriageTextPreview *self = user_data;
  gint64 deadline = g_get_monotonic_time () + LOAD_BUDGET_US;
  gboolean more;

  /* As many chunks as fit the budget: each idle costs a frame of the window. */
  do
    more = load_chunk (self);
  while (more && g_get_monotonic_time () < deadline);

  if (!more)
    {
      self->load_id = 0;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADING]);
    }

  if (self->match_pending)
    show_match (self);

  return more ? G_SOURCE_CONTINUE : G_SOURCE_REMOVE;
}

static void
clear_search (TriageTextPreview *self)
{
  g_array_set_size (self->matches, 0);
  self->current = 0;
  self->match_pending = FALSE;
  gtk_label_set_text (self->match_label, "");
}

/**
 * triage_text_preview_clear:
 * @self: a #TriageTextPreview
 *
 * Empties the preview.
 */
void
triage_text_preview_clear (TriageTextPreview *self)
{
  gboolean was_loading;
  GtkTextIter start;

  g_return_if_fail (TRIAGE_IS_TEXT_PREVIEW (self));

  was_loading = self->load_id != 0;
  g_clear_handle_id (&self->load_id, g_source_remove);
  g_clear_pointer (&self->text, triage_attachment_text_free);
  g_hash_table_remove_all (self->windows);
  self->loaded = 0;
  clear_search (self);

  gtk_text_buffer_set_text (get_buffer (self), "", 0);
  gtk_text_buffer_get_start_iter (get_buffer (self), &start);
  gtk_text_buffer_place_cursor (get_buffer (self), &start);

  if (was_loading)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADING]);
}

/**
 * triage_text_preview_set_text:
 * @self: a #TriageTextPreview
 * @text: (transfer full): the prepared text
 * @language: (nullable): the language to highlight it as
 * @wrap: wrap lines (prose), rather than numbering them (code)
 *
 * Shows @text. What fits one chunk is in the buffer on return; the rest
 * follows from an idle, while #TriageTextPreview:loading is %TRUE.
 */
void
triage_text_preview_set_text (TriageTextPreview    *self,
                              TriageAttachmentText *text,
                              GtkSourceLanguage    *language,
                              gboolean              wrap)
{
  GtkSourceBuffer *buffer;

  g_return_if_fail (TRIAGE_IS_TEXT_PREVIEW (self));
  g_return_if_fail (text != NULL);

  triage_text_preview_clear (self);
  self->text = text;

  buffer = GTK_SOURCE_BUFFER (get_buffer (self));
  gtk_source_buffer_set_language (buffer, language);
  gtk_source_buffer_set_highlight_syntax (buffer, language != NULL);
  gtk_source_view_set_show_line_numbers (self->source_view, !wrap);
  gtk_text_view_set_wrap_mode (GTK_TEXT_VIEW (self->source_view),
                               wrap ? GTK_WRAP_WORD_CHAR : GTK_WRAP_NONE);

  /* The first chunk now, so something shows with the page; the rest from an
   * idle below GtkTextView's layout (and so below drawing). */
  if (load_chunk (self))
    {
      self->load_id = g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, load_chunk_cb, self, NULL);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADING]);
    }

  if (gtk_search_bar_get_search_mode (self->search_bar))
    triage_text_preview_find (self, gtk_editable_get_text (GTK_EDITABLE (self->search_entry)));
}

/* The first character of the line shown for cut line @cut, and where the shown
 * part ends (characters of the line). */
static gsize
window_start (TriageTextPreview             *self,
              const TriageAttachmentTextCut *cut)
{
  return GPOINTER_TO_SIZE (g_hash_table_lookup (self->windows, GUINT_TO_POINTER (cut->line)));
}

/* Shows characters [@first, @first + limit) of cut line @cut, with "…" where it
 * goes on. */
static void
move_window (TriageTextPreview             *self,
             const TriageAttachmentTextCut *cut,
             gsize                          first)
{
  GtkTextBuffer *buffer = get_buffer (self);
  const char *line = self->text->text + cut->start;
  const char *from = g_utf8_offset_to_pointer (line, first);
  const char *to = from;
  GString *shown = g_string_new (first > 0 ? "…" : "");
  GtkTextIter start, end;
  gsize n = 0;

  while (to < line + cut->length && n < TRIAGE_ATTACHMENT_TEXT_MAX_LINE_CHARS)
    {
      to = g_utf8_next_char (to);
      n++;
    }
  g_string_append_len (shown, from, to - from);
  if (to < line + cut->length)
    g_string_append (shown, "…");

  gtk_text_buffer_get_iter_at_line (buffer, &start, cut->line);
  end = start;
  if (!gtk_text_iter_ends_line (&end))
    gtk_text_iter_forward_to_line_end (&end);
  gtk_text_buffer_delete (buffer, &start, &end);
  triage_text_preview_insert (buffer, &start, shown->str, shown->len);
  g_string_free (shown, TRUE);

  g_hash_table_insert (self->windows, GUINT_TO_POINTER (cut->line), GSIZE_TO_POINTER (first));
}

/* Selects the current match, once its line is in the buffer. */
static void
show_match (TriageTextPreview *self)
{
  GtkTextBuffer *buffer = get_buffer (self);
  gsize offset = g_array_index (self->matches, gsize, self->current);
  guint line = triage_attachment_text_line_at (self->text, offset);
  gsize line_start = g_array_index (self->text->line_starts, gsize, line);
  const TriageAttachmentTextCut *cut = triage_attachment_text_find_cut (self->text, line);
  gsize first = g_utf8_strlen (self->text->text + line_start, offset - line_start);
  gsize length = g_utf8_strlen (self->text->text + offset, strlen (self->query));
  GtkTextIter start, end;
  g_autofree char *count = NULL;

  self->match_pending = !line_loaded (self, line);
  if (self->match_pending)
    return;

  if (cut != NULL)
    {
      gsize shown = window_start (self, cut);

      if (first < shown || first + length > shown + TRIAGE_ATTACHMENT_TEXT_MAX_LINE_CHARS)
        {
          shown = first > TRIAGE_ATTACHMENT_TEXT_MAX_LINE_CHARS / 2
                    ? first - TRIAGE_ATTACHMENT_TEXT_MAX_LINE_CHARS / 2 : 0;
          move_window (self, cut, shown);
        }
      /* "…" stands before a window that does not start the line. */
      first = first - shown + (shown > 0 ? 1 : 0);
    }

  gtk_text_buffer_get_iter_at_line_offset (buffer, &start, line, first);
  end = start;
  if (cut == NULL && line + 1 < self->text->line_starts->len &&
      offset + strlen (self->query) > g_array_index (self->text->line_starts, gsize, line + 1))
    {
      /* Across the pieces of a long line shown whole: the display has a
       * line break there that the text has not. */
      gsize end_offset = offset + strlen (self->query);
      guint end_line = triage_attachment_text_line_at (self->text, end_offset - 1);
      gsize end_start = g_array_index (self->text->line_starts, gsize, end_line);

      self->match_pending = !line_loaded (self, end_line);
      if (self->match_pending)
        return;
      gtk_text_buffer_get_iter_at_line_offset (buffer, &end, end_line,
                                               g_utf8_strlen (self->text->text + end_start,
                                                              end_offset - end_start));
    }
  else
    gtk_text_iter_forward_chars (&end, length);
  gtk_text_buffer_select_range (buffer, &start, &end);
  gtk_text_view_scroll_to_mark (GTK_TEXT_VIEW (self->source_view),
                                gtk_text_buffer_get_insert (buffer), 0.1, FALSE, 0, 0);
}

static void
update_match_label (TriageTextPreview *self)
{
  g_autofree char *text = NULL;

  if (self->query == NULL || *self->query == '\0')
    text = g_strdup ("");
  else if (self->matches->len == 0)
    text = g_strdup (_("No matches"));
  else if (self->matches->len >= MAX_MATCHES)
    /* Translators: the match shown, of more than a number of them */
    text = g_strdup_printf (_("%u of more than %u"), self->current + 1, self->matches->len);
  else
    /* Translators: the match shown, of how many, e.g. "3 of 12" */
    text = g_strdup_printf (_("%u of %u"), self->current + 1, self->matches->len);

  gtk_label_set_text (self->match_label, text);
  /* Also the entry's description, set (not the label's, by a relation) so
   * that each new count is told over AT-SPI while the keyboard is in the
   * entry: GTK 4.8 tells a screen reader of a change only of the widget's
   * own properties, and of no widget without the keyboard. */
  if (*text != '\0')
    gtk_accessible_update_property (GTK_ACCESSIBLE (self->search_entry),
                                    GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text, -1);
  else
    gtk_accessible_reset_property (GTK_ACCESSIBLE (self->search_entry),
                                   GTK_ACCESSIBLE_PROPERTY_DESCRIPTION);
}

/* ASCII letters match either case; any other character only itself. */
static gboolean
matches_at (const char *p,
            const char *query,
            gsize       length)
{
  for (gsize i = 0; i < length; i++)
    if (g_ascii_tolower (p[i]) != g_ascii_tolower (query[i]))
      return FALSE;

  return TRUE;
}

/**
 * triage_text_preview_find:
 * @self: a #TriageTextPreview
 * @query: what to look for (ASCII letters in either case)
 *
 * Looks for @query in the whole text, shortened lines included, and selects
 * the first match, bringing it into view.
 *
 * Returns: the number of matches (at most 100,000)
 */
guint
triage_text_preview_find (TriageTextPreview *self,
                          const char        *query)
{
  gsize length;

  g_return_val_if_fail (TRIAGE_IS_TEXT_PREVIEW (self), 0);
  g_return_val_if_fail (query != NULL, 0);

  clear_search (self);
  g_free (self->query);
  length = strlen (query);
  if (length > MAX_QUERY_BYTES)
    length = g_utf8_find_prev_char (query, query + MAX_QUERY_BYTES + 1) - query;
  self->query = g_strndup (query, length);

  if (length > 0 && self->text != NULL)
    {
      const char *end = self->text->text + self->text->length;

      for (const char *p = self->text->text;
           p + length <= end && self->matches->len < MAX_MATCHES;
           p++)
        {
          if (matches_at (p, self->query, length))
            {
              gsize offset = p - self->text->text;

              g_array_append_val (self->matches, offset);
              p += length - 1;
            }
        }
    }

  if (self->matches->len > 0)
    show_match (self);
  update_match_label (self);

  return self->matches->len;
}

/**
 * triage_text_preview_find_next:
 * @self: a #TriageTextPreview
 * @backwards: go to the previous match instead
 *
 * Returns: whether there is a match to go to (it wraps around)
 */
gboolean
triage_text_preview_find_next (TriageTextPreview *self,
                               gboolean           backwards)
{
  g_return_val_if_fail (TRIAGE_IS_TEXT_PREVIEW (self), FALSE);

  if (self->matches->len == 0)
    return FALSE;

  if (backwards)
    self->current = (self->current + self->matches->len - 1) % self->matches->len;
  else
    self->current = (self->current + 1) % self->matches->len;

  show_match (self);
  update_match_label (self);

  return TRUE;
}

/**
 * triage_text_preview_dup_selection:
 * @self: a #TriageTextPreview
 *
 * Returns: (transfer full) (nullable): the text selected (a match), or %NULL
 */
char *
triage_text_preview_dup_selection (TriageTextPreview *self)
{
  GtkTextIter start, end;

  g_return_val_if_fail (TRIAGE_IS_TEXT_PREVIEW (self), NULL);

  if (!gtk_text_buffer_get_selection_bounds (get_buffer (self), &start, &end))
    return NULL;

  return gtk_text_iter_get_text (&start, &end);
}

static void
on_search_changed (TriageTextPreview *self)
{
  triage_text_preview_find (self, gtk_editable_get_text (GTK_EDITABLE (self->search_entry)));
}

static void
on_next_match (TriageTextPreview *self)
{
  triage_text_preview_find_next (self, FALSE);
}

static void
on_previous_match (TriageTextPreview *self)
{
  triage_text_preview_find_next (self, TRUE);
}

static void
on_stop_search (TriageTextPreview *self)
{
  gtk_search_bar_set_search_mode (self->search_bar, FALSE);
  gtk_widget_grab_focus (GTK_WIDGET (self->source_view));
}

static void
find_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  TriageTextPreview *self = TRIAGE_TEXT_PREVIEW (widget);

  gtk_search_bar_set_search_mode (self->search_bar, TRUE);
  gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
}

static void
find_next_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  triage_text_preview_find_next (TRIAGE_TEXT_PREVIEW (widget),
                                 g_str_equal (action_name, "text.find-previous"));
}

static void
update_style_scheme (TriageTextPreview *self)
{
  GtkSourceStyleSchemeManager *manager = gtk_source_style_scheme_manager_get_default ();
  GtkSourceStyleScheme *scheme;
  gboolean dark = adw_style_manager_get_dark (adw_style_manager_get_default ());

  scheme = gtk_source_style_scheme_manager_get_scheme (manager, dark ? "Adwaita-dark" : "Adwaita");
  gtk_source_buffer_set_style_scheme (GTK_SOURCE_BUFFER (get_buffer (self)), scheme);
}

static void
triage_text_preview_dispose (GObject *object)
{
  TriageTextPreview *self = TRIAGE_TEXT_PREVIEW (object);

  g_clear_handle_id (&self->load_id, g_source_remove);
  adw_bin_set_child (ADW_BIN (self), NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), TRIAGE_TYPE_TEXT_PREVIEW);

  G_OBJECT_CLASS (triage_text_preview_parent_class)->dispose (object);
}

static void
triage_text_preview_finalize (GObject *object)
{
  TriageTextPreview *self = TRIAGE_TEXT_PREVIEW (object);

  g_clear_pointer (&self->text, triage_attachment_text_free);
  g_clear_pointer (&self->windows, g_hash_table_unref);
  g_clear_pointer (&self->matches, g_array_unref);
  g_clear_pointer (&self->query, g_free);

  G_OBJECT_CLASS (triage_text_preview_parent_class)->finalize (object);
}

static void
triage_text_preview_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  TriageTextPreview *self = TRIAGE_TEXT_PREVIEW (object);

  switch (prop_id)
    {
    case PROP_LOADING:
      g_value_set_boolean (value, triage_text_preview_get_loading (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
triage_text_preview_class_init (TriageTextPreviewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = triage_text_preview_dispose;
  object_class->finalize = triage_text_preview_finalize;
  object_class->get_property = triage_text_preview_get_property;

  /**
   * TriageTextPreview:loading:
   *
   * Whether part of the text is still to go into the view.
   */
  properties[PROP_LOADING] =
    g_param_spec_boolean ("loading", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_source_init ();
  g_type_ensure (GTK_SOURCE_TYPE_VIEW);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               RESOURCE_BASE "/attachments/triage-text-preview.ui");
  gtk_widget_class_bind_template_child (widget_class, TriageTextPreview, search_bar);
  gtk_widget_class_bind_template_child (widget_class, TriageTextPreview, search_entry);
  gtk_widget_class_bind_template_child (widget_class, TriageTextPreview, match_label);
  gtk_widget_class_bind_template_child (widget_class, TriageTextPreview, source_view);
  gtk_widget_class_bind_template_callback (widget_class, on_search_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_next_match);
  gtk_widget_class_bind_template_callback (widget_class, on_previous_match);
  gtk_widget_class_bind_template_callback (widget_class, on_stop_search);

  gtk_widget_class_install_action (widget_class, "text.find", NULL, find_action);
  gtk_widget_class_install_action (widget_class, "text.find-next", NULL, find_next_action);
  gtk_widget_class_install_action (widget_class, "text.find-previous", NULL, find_next_action);

  /* Their keys are the attachment view's (Ctrl+F, Ctrl+G, Shift+Ctrl+G). */
}

static void
triage_text_preview_init (TriageTextPreview *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->windows = g_hash_table_new (NULL, NULL);
  self->matches = g_array_new (FALSE, FALSE, sizeof (gsize));

  gtk_search_bar_connect_entry (self->search_bar, GTK_EDITABLE (self->search_entry));
  g_signal_connect_object (adw_style_manager_get_default (), "notify::dark",
                           G_CALLBACK (update_style_scheme), self, G_CONNECT_SWAPPED);
  update_style_scheme (self);
}

/**
 * triage_text_preview_new:
 *
 * Returns: (transfer floating): a new, empty #TriageTextPreview
 */
GtkWidget *
triage_text_preview_new (void)
{
  return g_object_new (TRIAGE_TYPE_TEXT_PREVIEW, NULL);
}

gboolean
triage_text_preview_get_loading (TriageTextPreview *self)
{
  g_return_val_if_fail (TRIAGE_IS_TEXT_PREVIEW (self), FALSE);

  return self->load_id != 0;
}

/**
 * triage_text_preview_get_text:
 * @self: a #TriageTextPreview
 *
 * Returns: (transfer none) (nullable): the whole text previewed
 */
const TriageAttachmentText *
triage_text_preview_get_text (TriageTextPreview *self)
{
  g_return_val_if_fail (TRIAGE_IS_TEXT_PREVIEW (self), NULL);

  return self->text;
}

/**
 * triage_text_preview_dup_shown_text:
 * @self: a #TriageTextPreview
 *
 * Returns: (transfer full): what the view holds now (long lines cut)
 */
char *
triage_text_preview_dup_shown_text (TriageTextPreview *self)
{
  GtkTextIter start, end;

  g_return_val_if_fail (TRIAGE_IS_TEXT_PREVIEW (self), NULL);

  gtk_text_buffer_get_bounds (get_buffer (self), &start, &end);
  return gtk_text_buffer_get_text (get_buffer (self), &start, &end, TRUE);
}

/**
 * triage_text_preview_get_source_view:
 * @self: a #TriageTextPreview
 *
 * Returns: (transfer none): the view inside
 */
GtkSourceView *
triage_text_preview_get_source_view (TriageTextPreview *self)
{
  g_return_val_if_fail (TRIAGE_IS_TEXT_PREVIEW (self), NULL);

  return self->source_view;
}
