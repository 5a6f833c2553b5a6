/* triage-afp-editor.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-afp-editor"

#include <glib/gi18n.h>

#include "atp-json.h"
#include "triage-afp-editor-private.h"
#include "triage-afp-protocol.h"

/*
 * The person's feedback on an artifact, as AFP 1.2 shapes it: a confidence
 * (high, medium, low) with its justification, positive points (aspect,
 * justification), areas for improvement (aspect, description,
 * recommendation, and an id), and a general summary.
 *
 * Items are added, edited, moved and removed with buttons (every one
 * reachable with Tab, each named for a screen reader by its place: "Area 2
 * recommendation"). A new area's id is made from its aspect
 * (atp_afp_id_generate(): "scope-definition-01"), never one the session
 * issued or another item holds, and follows the aspect as it is edited; an
 * area carried over from the previous iteration keeps its id.
 *
 * Validation is live: after every change the first problem is known
 * (triage_afp_editor_get_problem(): a blank required field in words (one
 * of invisible characters alone is blank: atp_str_is_blank()), then
 * libatp's rules and the session's exactly as the server checks them) and
 * ::changed is emitted; a blank field the person has touched is marked
 * invalid (a red frame and the accessible invalid state).
 */

G_DEFINE_FINAL_TYPE (TriageAfpEditor, triage_afp_editor, GTK_TYPE_BOX)

enum {
  CHANGED,
  N_SIGNALS
};

static guint signals [N_SIGNALS];


static void
item_free (Item *item)
{
  g_free (item->id);
  g_free (item);
}

char *
_triage_afp_editor_entry_text (GtkEntry *entry)
{
  return g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (entry))));
}

/* Shows nothing: empty, or spaces, zero-width and other invisible characters
 * alone (libatp's rule for a required text, which the server applies too). */
static gboolean
entry_blank (GtkEntry *entry)
{
  return atp_str_is_blank (gtk_editable_get_text (GTK_EDITABLE (entry)));
}

/* The ids an area may not take: the session's, and the other areas'. */
static GHashTable *
dup_taken (TriageAfpEditor *self,
           Item            *except)
{
  GHashTable *taken = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  if (self->review != NULL)
    for (guint i = 0; i < self->review->issued_ids->len; i++)
      g_hash_table_add (taken, g_strdup (self->review->issued_ids->pdata[i]));
  for (guint i = 0; i < self->areas->len; i++)
    {
      Item *item = self->areas->pdata[i];

      if (item != except && item->id != NULL)
        g_hash_table_add (taken, g_strdup (item->id));
    }

  return taken;
}

void
_triage_afp_editor_update_id (Item *item)
{
  g_autoptr(GHashTable) taken = NULL;
  g_autofree char *aspect = NULL;
  g_autofree char *text = NULL;

  if (!item->area)
    return;

  if (!item->carried)
    {
      taken = dup_taken (item->editor, item);
      aspect = _triage_afp_editor_entry_text (item->aspect);
      g_free (item->id);
      item->id = atp_afp_id_generate (aspect, taken);
    }

  /* Translators: a feedback item's id, as the agent will get it */
  text = item->carried ? g_strdup_printf (_("Id %s, carried over"), item->id)
                       : g_strdup_printf (_("Id %s"), item->id);
  gtk_label_set_label (item->id_label, text);
}

/* Titles and accessible names follow the items' places. */
static void
renumber (GPtrArray *items)
{
  for (guint i = 0; i < items->len; i++)
    {
      Item *item = items->pdata[i];
      g_autofree char *title = NULL;
      g_autofree char *aspect = NULL;
      g_autofree char *text = NULL;
      g_autofree char *recommendation = NULL;
      g_autofree char *up = NULL;
      g_autofree char *down = NULL;
      g_autofree char *remove = NULL;

      if (item->area)
        {
          /* Translators: the title of an area for improvement in the editor, numbered */
          title = g_strdup_printf (_("Area for improvement %u"), i + 1);
          /* Translators: screen-reader names of an area's fields, numbered */
          aspect = g_strdup_printf (_("Area %u aspect"), i + 1);
          text = g_strdup_printf (_("Area %u description"), i + 1);
          recommendation = g_strdup_printf (_("Area %u recommendation"), i + 1);
          up = g_strdup_printf (_("Move area %u up"), i + 1);
          down = g_strdup_printf (_("Move area %u down"), i + 1);
          remove = g_strdup_printf (_("Remove area %u"), i + 1);
        }
      else
        {
          /* Translators: the title of a positive point in the editor, numbered */
          title = g_strdup_printf (_("Positive point %u"), i + 1);
          /* Translators: screen-reader names of a positive point's fields, numbered */
          aspect = g_strdup_printf (_("Point %u aspect"), i + 1);
          text = g_strdup_printf (_("Point %u justification"), i + 1);
          up = g_strdup_printf (_("Move point %u up"), i + 1);
          down = g_strdup_printf (_("Move point %u down"), i + 1);
          remove = g_strdup_printf (_("Remove point %u"), i + 1);
        }

      gtk_label_set_label (item->title, title);
      gtk_accessible_update_property (GTK_ACCESSIBLE (item->aspect), GTK_ACCESSIBLE_PROPERTY_LABEL, aspect, -1);
      gtk_accessible_update_property (GTK_ACCESSIBLE (item->text), GTK_ACCESSIBLE_PROPERTY_LABEL, text, -1);
      if (item->recommendation != NULL)
        gtk_accessible_update_property (GTK_ACCESSIBLE (item->recommendation),
                                        GTK_ACCESSIBLE_PROPERTY_LABEL, recommendation, -1);
      gtk_accessible_update_property (GTK_ACCESSIBLE (item->up), GTK_ACCESSIBLE_PROPERTY_LABEL, up, -1);
      gtk_accessible_update_property (GTK_ACCESSIBLE (item->down), GTK_ACCESSIBLE_PROPERTY_LABEL, down, -1);
      gtk_accessible_update_property (GTK_ACCESSIBLE (item->remove), GTK_ACCESSIBLE_PROPERTY_LABEL, remove, -1);
      gtk_widget_set_tooltip_text (item->up, up);
      gtk_widget_set_tooltip_text (item->down, down);
      gtk_widget_set_tooltip_text (item->remove, remove);
      gtk_widget_set_sensitive (item->up, i > 0);
      gtk_widget_set_sensitive (item->down, i + 1 < items->len);
    }
}

void
_triage_afp_editor_changed (TriageAfpEditor *self)
{
  _triage_afp_editor_validate (self);
  if (!self->loading)
    g_signal_emit (self, signals[CHANGED], 0);
}

static void
on_entry_changed (GtkEditable *editable,
                  gpointer     user_data)
{
  Item *item = user_data;

  g_object_set_data (G_OBJECT (editable), "triage-touched", GINT_TO_POINTER (TRUE));
  if (item != NULL && GTK_ENTRY (editable) == item->aspect)
    _triage_afp_editor_update_id (item);
  _triage_afp_editor_changed (item != NULL ? item->editor : TRIAGE_AFP_EDITOR (g_object_get_data (G_OBJECT (editable),
                                                                              "triage-editor")));
}

static GtkEntry *
add_field (TriageAfpEditor *self,
           GtkBox          *box,
           const char      *text,
           Item            *item)
{
  GtkWidget *label;
  GtkWidget *entry = gtk_entry_new ();

  /* A field of its own has a mnemonic, which also names it for a screen
   * reader. An item's fields repeat in every item (no mnemonic could tell
   * them apart): renumber() names them by their place ("Area 2 aspect"). */
  if (item == NULL)
    {
      label = gtk_label_new_with_mnemonic (text);
      gtk_label_set_mnemonic_widget (GTK_LABEL (label), entry);
    }
  else
    label = gtk_label_new (text);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_widget_add_css_class (label, "caption-heading");
  gtk_widget_set_hexpand (entry, TRUE);
  g_object_set_data (G_OBJECT (entry), "triage-editor", self);
  g_signal_connect (entry, "changed", G_CALLBACK (on_entry_changed), item);
  gtk_box_append (box, label);
  gtk_box_append (box, entry);

  return GTK_ENTRY (entry);
}

static GPtrArray *
items_of (TriageAfpEditor *self,
          Item            *item)
{
  return item->area ? self->areas : self->positives;
}

static void
move_item (Item *item,
           int   delta)
{
  TriageAfpEditor *self = item->editor;
  GPtrArray *items = items_of (self, item);
  GtkBox *box = item->area ? self->areas_box : self->positives_box;
  guint index;
  guint target;
  GtkWidget *focus = item->remove;

  if (!g_ptr_array_find (items, item, &index))
    return;
  if ((delta < 0 && index == 0) || (delta > 0 && index + 1 >= items->len))
    return;

  target = index + delta;
  items->pdata[index] = items->pdata[target];
  items->pdata[target] = item;
  gtk_box_reorder_child_after (box, item->box,
                               target > 0 ? ((Item *) items->pdata[target - 1])->box : NULL);
  renumber (items);

  /* The keyboard stays on the item moved, on the button pressed where it can. */
  focus = delta < 0 ? (gtk_widget_get_sensitive (item->up) ? item->up : item->down)
                    : (gtk_widget_get_sensitive (item->down) ? item->down : item->up);
  gtk_widget_grab_focus (focus);
  _triage_afp_editor_changed (self);
}

static void
on_up_clicked (GtkButton *button,
               Item      *item)
{
  move_item (item, -1);
}

static void
on_down_clicked (GtkButton *button,
                 Item      *item)
{
  move_item (item, +1);
}

static void
on_remove_clicked (GtkButton *button,
                   Item      *item)
{
  TriageAfpEditor *self = item->editor;
  GPtrArray *items = items_of (self, item);
  GtkBox *box = item->area ? self->areas_box : self->positives_box;
  guint index = 0;

  g_ptr_array_find (items, item, &index);
  gtk_box_remove (box, item->box);
  g_ptr_array_remove (items, item);   /* frees it */
  renumber (items);

  /* The keyboard goes to the next item, or the one before, or nowhere lost. */
  if (items->len > 0)
    gtk_widget_grab_focus (GTK_WIDGET (((Item *) items->pdata[MIN (index, items->len - 1)])->aspect));
  else
    gtk_widget_child_focus (GTK_WIDGET (self), GTK_DIR_TAB_FORWARD);
  _triage_afp_editor_changed (self);
}

static GtkWidget *
icon_button (const char *icon_name,
             GCallback   callback,
             Item       *item)
{
  GtkWidget *button = gtk_button_new_from_icon_name (icon_name);

  gtk_widget_add_css_class (button, "flat");
  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  g_signal_connect (button, "clicked", callback, item);
  return button;
}

Item *
_triage_afp_editor_add_item (TriageAfpEditor *self,
          gboolean         area,
          const char      *id,
          gboolean         carried)
{
  Item *item = g_new0 (Item, 1);
  GtkWidget *header, *fields;

  item->editor = self;
  item->area = area;
  item->carried = carried;
  item->id = g_strdup (id);

  item->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  gtk_widget_add_css_class (item->box, "card");
  gtk_widget_add_css_class (item->box, "afp-item");

  header = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  item->title = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (item->title, 0);
  gtk_label_set_wrap (item->title, TRUE);
  gtk_widget_set_hexpand (GTK_WIDGET (item->title), TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (item->title), "heading");
  item->up = icon_button ("go-up-symbolic", G_CALLBACK (on_up_clicked), item);
  item->down = icon_button ("go-down-symbolic", G_CALLBACK (on_down_clicked), item);
  item->remove = icon_button ("user-trash-symbolic", G_CALLBACK (on_remove_clicked), item);
  gtk_box_append (GTK_BOX (header), GTK_WIDGET (item->title));
  gtk_box_append (GTK_BOX (header), item->up);
  gtk_box_append (GTK_BOX (header), item->down);
  gtk_box_append (GTK_BOX (header), item->remove);
  gtk_box_append (GTK_BOX (item->box), header);

  fields = item->box;
  item->aspect = add_field (self, GTK_BOX (fields), _("Aspect"), item);
  if (area)
    {
      item->text = add_field (self, GTK_BOX (fields), _("Description: what could be better"), item);
      item->recommendation = add_field (self, GTK_BOX (fields), _("Recommendation: what to do"), item);
      item->id_label = GTK_LABEL (gtk_label_new (NULL));
      gtk_label_set_xalign (item->id_label, 0);
      gtk_label_set_wrap (item->id_label, TRUE);
      gtk_label_set_wrap_mode (item->id_label, PANGO_WRAP_WORD_CHAR);
      gtk_label_set_selectable (item->id_label, TRUE);
      gtk_widget_add_css_class (GTK_WIDGET (item->id_label), "caption");
      gtk_widget_add_css_class (GTK_WIDGET (item->id_label), "dim-label");
      gtk_box_append (GTK_BOX (fields), GTK_WIDGET (item->id_label));
    }
  else
    item->text = add_field (self, GTK_BOX (fields), _("Justification: why it is good"), item);

  g_ptr_array_add (items_of (self, item), item);
  gtk_box_append (area ? self->areas_box : self->positives_box, item->box);
  renumber (items_of (self, item));
  if (area)
    _triage_afp_editor_update_id (item);

  return item;
}

void
_triage_afp_editor_set_entry (GtkEntry   *entry,
           const char *text)
{
  gtk_editable_set_text (GTK_EDITABLE (entry), text != NULL ? text : "");
  /* Filled in, not typed: a blank one is not shown as wrong yet. */
  g_object_set_data (G_OBJECT (entry), "triage-touched", NULL);
}

/* Validation */

static void
mark (GtkEntry *entry,
      gboolean  invalid)
{
  invalid = invalid && g_object_get_data (G_OBJECT (entry), "triage-touched") != NULL;

  if (invalid)
    gtk_widget_add_css_class (GTK_WIDGET (entry), "error");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (entry), "error");
  gtk_accessible_update_state (GTK_ACCESSIBLE (entry), GTK_ACCESSIBLE_STATE_INVALID,
                               invalid ? GTK_ACCESSIBLE_INVALID_TRUE : GTK_ACCESSIBLE_INVALID_FALSE, -1);
}

/* Marks @entry, and makes @message (taken) the first problem found if it is blank. */
static void
check_entry (char     **problem,
             GtkEntry  *entry,
             char      *message)
{
  gboolean blank = entry_blank (entry);

  mark (entry, blank);
  if (blank && *problem == NULL)
    *problem = message;
  else
    g_free (message);
}

int
_triage_afp_editor_chosen_level (TriageAfpEditor *self)
{
  for (guint i = 0; i < G_N_ELEMENTS (self->levels); i++)
    if (gtk_check_button_get_active (self->levels[i]))
      return (int) i;

  return -1;
}

void
_triage_afp_editor_validate (TriageAfpEditor *self)
{
  char *problem = NULL;

  if (_triage_afp_editor_chosen_level (self) < 0)
    problem = g_strdup (_("Choose how confident you are."));
  check_entry (&problem, self->justification, g_strdup (_("Say why you are this confident.")));

  for (guint i = 0; i < self->positives->len; i++)
    {
      Item *item = self->positives->pdata[i];

      /* Translators: %u numbers the positive point */
      check_entry (&problem, item->aspect, g_strdup_printf (_("Positive point %u needs an aspect."), i + 1));
      check_entry (&problem, item->text, g_strdup_printf (_("Positive point %u needs a justification."), i + 1));
    }
  for (guint i = 0; i < self->areas->len; i++)
    {
      Item *item = self->areas->pdata[i];

      /* Translators: %u numbers the area for improvement */
      check_entry (&problem, item->aspect,
                   g_strdup_printf (_("Area for improvement %u needs an aspect."), i + 1));
      check_entry (&problem, item->text,
                   g_strdup_printf (_("Area for improvement %u needs a description."), i + 1));
      check_entry (&problem, item->recommendation,
                   g_strdup_printf (_("Area for improvement %u needs a recommendation."), i + 1));
    }
  check_entry (&problem, self->summary, g_strdup (_("Write a general summary.")));

  /* The rest as the server will judge it, in libatp's words. */
  if (problem == NULL && self->review != NULL)
    {
      g_autoptr(JsonNode) feedback = triage_afp_editor_dup_feedback (self);
      g_autoptr(GError) error = NULL;

      if (!triage_afp_check_feedback (self->review, feedback, &error))
        problem = g_strdup (error->message);
    }

  g_free (self->problem);
  self->problem = problem;
}

/* Public */

GtkWidget *
triage_afp_editor_new (void)
{
  return g_object_new (TRIAGE_TYPE_AFP_EDITOR, NULL);
}

void
_triage_afp_editor_clear (TriageAfpEditor *self)
{
  GtkWidget *child;

  g_ptr_array_set_size (self->positives, 0);
  g_ptr_array_set_size (self->areas, 0);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->positives_box))) != NULL)
    gtk_box_remove (self->positives_box, child);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->areas_box))) != NULL)
    gtk_box_remove (self->areas_box, child);
  for (guint i = 0; i < G_N_ELEMENTS (self->levels); i++)
    gtk_check_button_set_active (self->levels[i], FALSE);
  _triage_afp_editor_set_entry (self->justification, NULL);
  _triage_afp_editor_set_entry (self->summary, NULL);
}

/**
 * triage_afp_editor_set_review:
 * @self: a #TriageAfpEditor
 * @review: (nullable): the review the feedback is for
 *
 * Empties the editor for @review (its session's ids are taken).
 */
void
triage_afp_editor_set_review (TriageAfpEditor *self,
                              AtpAfpReview    *review)
{
  g_return_if_fail (TRIAGE_IS_AFP_EDITOR (self));

  self->loading = TRUE;
  g_clear_pointer (&self->review, atp_afp_review_unref);
  self->review = review ? atp_afp_review_ref (review) : NULL;
  _triage_afp_editor_clear (self);
  self->loading = FALSE;
  _triage_afp_editor_validate (self);
}

gboolean
triage_afp_editor_has_item (TriageAfpEditor *self,
                            const char      *id)
{
  for (guint i = 0; i < self->areas->len; i++)
    if (g_strcmp0 (((Item *) self->areas->pdata[i])->id, id) == 0)
      return TRUE;

  return FALSE;
}

void
triage_afp_editor_set_editable (TriageAfpEditor *self,
                                gboolean         editable)
{
  g_return_if_fail (TRIAGE_IS_AFP_EDITOR (self));

  gtk_widget_set_sensitive (GTK_WIDGET (self), editable);
}

/**
 * triage_afp_editor_get_problem:
 *
 * Returns: (nullable): the first thing that keeps the feedback from being
 *   sent, in words; %NULL when it can be sent
 */
const char *
triage_afp_editor_get_problem (TriageAfpEditor *self)
{
  g_return_val_if_fail (TRIAGE_IS_AFP_EDITOR (self), NULL);

  return self->problem;
}

/**
 * triage_afp_editor_is_empty:
 *
 * Returns: whether nothing was entered (no draft to keep)
 */
gboolean
triage_afp_editor_is_empty (TriageAfpEditor *self)
{
  return _triage_afp_editor_chosen_level (self) < 0 && entry_blank (self->justification) && entry_blank (self->summary) &&
         self->positives->len == 0 && self->areas->len == 0;
}

void
triage_afp_editor_add_positive (TriageAfpEditor *self)
{
  Item *item = _triage_afp_editor_add_item (self, FALSE, NULL, FALSE);

  gtk_widget_grab_focus (GTK_WIDGET (item->aspect));
  _triage_afp_editor_changed (self);
}

void
triage_afp_editor_add_area (TriageAfpEditor *self)
{
  Item *item = _triage_afp_editor_add_item (self, TRUE, NULL, FALSE);

  gtk_widget_grab_focus (GTK_WIDGET (item->aspect));
  _triage_afp_editor_changed (self);
}

guint
triage_afp_editor_get_n_areas (TriageAfpEditor *self)
{
  return self->areas->len;
}

guint
triage_afp_editor_get_n_positive (TriageAfpEditor *self)
{
  return self->positives->len;
}

/* Building */

static void
on_level_toggled (TriageAfpEditor *self,
                  GtkCheckButton  *button)
{
  if (gtk_check_button_get_active (button))
    _triage_afp_editor_changed (self);
}

/* "_Medium" → "Medium" ("__" stays one underscore). */
static char *
strip_mnemonic (const char *text)
{
  GString *out = g_string_new (NULL);

  for (const char *p = text; *p != '\0'; p++)
    {
      if (*p == '_' && p[1] != '\0')
        p++;
      g_string_append_c (out, *p);
    }

  return g_string_free (out, FALSE);
}

static GtkWidget *
heading (const char *text)
{
  GtkWidget *label = g_object_new (GTK_TYPE_LABEL,
                                   "label", text,
                                   "xalign", 0.0f,
                                   "wrap", TRUE,
                                   "accessible-role", GTK_ACCESSIBLE_ROLE_HEADING,
                                   NULL);

  gtk_widget_add_css_class (label, "heading");
  return label;
}

static GtkWidget *
add_button (TriageAfpEditor *self,
            const char      *label,
            GCallback        callback)
{
  /* No mnemonic: every item has an "_Aspect" of its own; Tab reaches it. */
  GtkWidget *button = gtk_button_new_with_label (label);

  /* Long labels wrap rather than widen the view past 360 px. */
  gtk_label_set_wrap (GTK_LABEL (gtk_button_get_child (GTK_BUTTON (button))), TRUE);
  gtk_widget_set_halign (button, GTK_ALIGN_START);
  g_signal_connect_swapped (button, "clicked", callback, self);
  return button;
}

static void
triage_afp_editor_dispose (GObject *object)
{
  TriageAfpEditor *self = TRIAGE_AFP_EDITOR (object);
  GtkWidget *child;

  if (self->positives != NULL)
    g_ptr_array_set_size (self->positives, 0);
  if (self->areas != NULL)
    g_ptr_array_set_size (self->areas, 0);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_box_remove (GTK_BOX (self), child);

  G_OBJECT_CLASS (triage_afp_editor_parent_class)->dispose (object);
}

static void
triage_afp_editor_finalize (GObject *object)
{
  TriageAfpEditor *self = TRIAGE_AFP_EDITOR (object);

  g_clear_pointer (&self->review, atp_afp_review_unref);
  g_clear_pointer (&self->positives, g_ptr_array_unref);
  g_clear_pointer (&self->areas, g_ptr_array_unref);
  g_free (self->problem);

  G_OBJECT_CLASS (triage_afp_editor_parent_class)->finalize (object);
}

static void
triage_afp_editor_class_init (TriageAfpEditorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = triage_afp_editor_dispose;
  object_class->finalize = triage_afp_editor_finalize;

  /**
   * TriageAfpEditor::changed:
   *
   * The person changed the feedback; triage_afp_editor_get_problem() is
   * up to date.
   */
  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                   0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
triage_afp_editor_init (TriageAfpEditor *self)
{
  /* Mnemonics clear of the window's (Alt+I Inbox, Alt+H History). */
  static const char *levels[] = { N_("Hi_gh"), N_("_Medium"), N_("Lo_w") };
  GtkWidget *row, *section;

  self->positives = g_ptr_array_new_with_free_func ((GDestroyNotify) item_free);
  self->areas = g_ptr_array_new_with_free_func ((GDestroyNotify) item_free);

  gtk_orientable_set_orientation (GTK_ORIENTABLE (self), GTK_ORIENTATION_VERTICAL);
  gtk_box_set_spacing (GTK_BOX (self), 18);

  /* Confidence */
  section = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  gtk_box_append (GTK_BOX (section), heading (_("Confidence")));
  row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  gtk_accessible_update_property (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Confidence"), -1);
  for (guint i = 0; i < G_N_ELEMENTS (levels); i++)
    {
      g_autofree char *name = NULL;

      /* One of three: a radio button to a screen reader too (GTK 4.8 keeps a
       * grouped check button a "check box"). */
      self->levels[i] = g_object_new (GTK_TYPE_CHECK_BUTTON,
                                      "label", _(levels[i]),
                                      "use-underline", TRUE,
                                      "accessible-role", GTK_ACCESSIBLE_ROLE_RADIO,
                                      NULL);
      /* Named without the mnemonic's underscore (GTK 4.8 keeps it). */
      name = strip_mnemonic (_(levels[i]));
      gtk_accessible_update_property (GTK_ACCESSIBLE (self->levels[i]), GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
      if (i > 0)
        gtk_check_button_set_group (self->levels[i], self->levels[0]);
      g_signal_connect_swapped (self->levels[i], "toggled", G_CALLBACK (on_level_toggled), self);
      gtk_box_append (GTK_BOX (row), GTK_WIDGET (self->levels[i]));
    }
  gtk_box_append (GTK_BOX (section), row);
  self->justification = add_field (self, GTK_BOX (section), _("Wh_y this confidence"), NULL);
  gtk_box_append (GTK_BOX (self), section);

  /* Positive points */
  section = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  gtk_box_append (GTK_BOX (section), heading (_("Positive Points")));
  self->positives_box = GTK_BOX (gtk_box_new (GTK_ORIENTATION_VERTICAL, 12));
  gtk_box_append (GTK_BOX (section), GTK_WIDGET (self->positives_box));
  gtk_box_append (GTK_BOX (section), add_button (self, _("Add Positive Point"),
                                                 G_CALLBACK (triage_afp_editor_add_positive)));
  gtk_box_append (GTK_BOX (self), section);

  /* Areas for improvement */
  section = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  gtk_box_append (GTK_BOX (section), heading (_("Areas for Improvement")));
  self->areas_box = GTK_BOX (gtk_box_new (GTK_ORIENTATION_VERTICAL, 12));
  gtk_box_append (GTK_BOX (section), GTK_WIDGET (self->areas_box));
  gtk_box_append (GTK_BOX (section), add_button (self, _("Add Area for Improvement"),
                                                 G_CALLBACK (triage_afp_editor_add_area)));
  gtk_box_append (GTK_BOX (self), section);

  /* Summary */
  section = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  self->summary = add_field (self, GTK_BOX (section), _("General s_ummary"), NULL);
  gtk_box_append (GTK_BOX (self), section);
}
