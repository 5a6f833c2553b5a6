/* triage-browse-style.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-browse"

#include <glib/gi18n.h>
#include <gtk/gtk.h>

#include "triage-browse-style.h"
#include "triage-decision-format.h"

/**
 * triage_browse_style_init:
 *
 * Adds the inbox and history style sheet to the default display, once. The
 * app's own style.css is loaded by AdwApplication; this one lives under
 * browse/ and is loaded by the widgets that need it, so tests and other
 * hosts get it too.
 */
void
triage_browse_style_init (void)
{
  static gsize loaded = 0;

  if (g_once_init_enter (&loaded))
    {
      GdkDisplay *display = gdk_display_get_default ();

      if (display != NULL)
        {
          g_autoptr(GtkCssProvider) provider = gtk_css_provider_new ();

          gtk_css_provider_load_from_resource (provider, RESOURCE_BASE "/browse/style.css");
          gtk_style_context_add_provider_for_display (display, GTK_STYLE_PROVIDER (provider),
                                                      GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
        }
      g_once_init_leave (&loaded, 1);
    }
}

static void
setup_label (GtkSignalListItemFactory *factory,
                    GtkListItem              *item)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_label_set_single_line_mode (GTK_LABEL (label), TRUE);
  gtk_list_item_set_child (item, label);
}

static void
bind_label (GtkSignalListItemFactory *factory,
            GtkListItem              *item)
{
  GtkStringObject *string = gtk_list_item_get_item (item);
  GtkWidget *label = gtk_list_item_get_child (item);
  GtkWidget *row = gtk_widget_get_parent (label);
  g_autofree char *shown = NULL;

  /* A service's or project's name is an agent's: shown as every name is. */
  if (string != NULL)
    shown = triage_format_cut_text (gtk_string_object_get_string (string), TRIAGE_SHOWN_NAME_CHARS);
  gtk_label_set_label (GTK_LABEL (label), shown ? shown : "");

  /* In the popup, the row around the label takes the keyboard, and GTK 4.8
   * leaves it nameless (gtk_list_item_set_accessible_label () is 4.12's):
   * named by the label, it says the choice shown. Its parent is there by
   * the time of "bind", not of "setup". */
  if (row != NULL)
    gtk_accessible_update_relation (GTK_ACCESSIBLE (row),
                                    GTK_ACCESSIBLE_RELATION_LABELLED_BY, label, NULL,
                                    -1);
}

/* Escape in the popup's search field: clears what was typed, and closes the
 * popup once there is nothing to clear, the keyboard back on the drop-down's
 * button. GTK 4.8's own handler (run first) only resets the filter, and did
 * so also when nothing was typed: reopened, the popup kept the first Escape
 * (its search is "" then, not none), which left the keyboard in it. */
static void
on_popup_search_stop (GtkSearchEntry *entry,
                      gpointer        user_data)
{
  GtkWidget *popup = gtk_widget_get_ancestor (GTK_WIDGET (entry), GTK_TYPE_POPOVER);

  if (gtk_editable_get_text (GTK_EDITABLE (entry))[0] != '\0')
    gtk_editable_set_text (GTK_EDITABLE (entry), "");
  else if (popup != NULL)
    gtk_popover_popdown (GTK_POPOVER (popup));
}

/* The list of choices in the popup, which GTK 4.8 names by its class
 * ("GtkListView"): named by the drop-down ("Service"), as its button. So is
 * the search field above it, where there is one, which GTK 4.8 also names
 * by its class ("GtkSearchEntry"), described by what it does (and
 * Escape in it clears or closes, on_popup_search_stop ()). With the
 * search field, the list is one stop of Tab, as the window's lists: GTK
 * 4.8 took Tab from row to row, and a person went through every service
 * to come back to the search field. */
static void
label_popup_list (GtkWidget   *widget,
                  GtkDropDown *dropdown)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if (GTK_IS_LIST_VIEW (child))
        {
          gtk_accessible_update_relation (GTK_ACCESSIBLE (child),
                                          GTK_ACCESSIBLE_RELATION_LABELLED_BY, dropdown, NULL,
                                          -1);
          if (gtk_drop_down_get_enable_search (dropdown))
            triage_browse_tab_past_list (child);
        }
      else if (GTK_IS_SEARCH_ENTRY (child))
        {
          gtk_accessible_update_relation (GTK_ACCESSIBLE (child),
                                          GTK_ACCESSIBLE_RELATION_LABELLED_BY, dropdown, NULL,
                                          -1);
          gtk_accessible_update_property (GTK_ACCESSIBLE (child),
                                          GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                          /* Translators: the search field in the popup of a
                                           * filter (Service, Project), for a screen reader */
                                          _("Type to show only the choices that start with it"),
                                          -1);
          g_signal_connect (child, "stop-search", G_CALLBACK (on_popup_search_stop), NULL);
        }
      else
        label_popup_list (child, dropdown);
    }
}

/* The button a screen reader meets is named by the filter ("Service"): its
 * description says what it is set to ("All Services"), as its label shows. */
static void
describe_drop_down_button (GtkDropDown *dropdown,
                           GParamSpec  *pspec,
                           GtkWidget   *button)
{
  GtkStringObject *item = gtk_drop_down_get_selected_item (dropdown);

  if (item != NULL && GTK_IS_STRING_OBJECT (item))
    gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                    gtk_string_object_get_string (item), -1);
  else
    gtk_accessible_reset_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION);
}

/**
 * triage_browse_prepare_drop_down:
 * @dropdown: a #GtkDropDown over a #GtkStringList, with an accessible label
 *
 * Shows the choice in the button ellipsized, so a long service or project
 * name (chosen by an agent) never makes the filters, and with them the
 * window, wider than a phone-sized 360 pixels. An ellipsizing label still
 * asks for its whole text as natural width, so the popup shows names whole,
 * up to TRIAGE_SHOWN_NAME_CHARS, their hidden characters made visible
 * (triage_format_cut_text ()).
 *
 * Also names the button inside after the drop-down: screen readers meet
 * that button, which GTK 4.8 leaves nameless ("GtkToggleButton"), and
 * describes it by the choice made; and names the popup's list after the
 * drop-down, each of its rows after the choice it shows.
 */
void
triage_browse_prepare_drop_down (GtkDropDown *dropdown)
{
  g_autoptr(GtkListItemFactory) factory = gtk_signal_list_item_factory_new ();
  GtkWidget *button;

  g_return_if_fail (GTK_IS_DROP_DOWN (dropdown));

  g_signal_connect (factory, "setup", G_CALLBACK (setup_label), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_label), NULL);
  gtk_drop_down_set_factory (dropdown, factory);

  /* The popup's search matches the choices' strings: GTK 4.8 filters
   * nothing without an expression, and the inbox's searched in vain. */
  if (gtk_drop_down_get_enable_search (dropdown) && gtk_drop_down_get_expression (dropdown) == NULL)
    {
      g_autoptr(GtkExpression) expression = gtk_property_expression_new (GTK_TYPE_STRING_OBJECT, NULL,
                                                                         "string");

      gtk_drop_down_set_expression (dropdown, expression);
    }

  button = gtk_widget_get_first_child (GTK_WIDGET (dropdown));
  if (GTK_IS_TOGGLE_BUTTON (button))
    {
      gtk_accessible_update_relation (GTK_ACCESSIBLE (button),
                                      GTK_ACCESSIBLE_RELATION_LABELLED_BY, dropdown, NULL,
                                      -1);
      g_signal_connect (dropdown, "notify::selected-item",
                        G_CALLBACK (describe_drop_down_button), button);
      describe_drop_down_button (dropdown, NULL, button);
    }
  label_popup_list (GTK_WIDGET (dropdown), dropdown);
}

static gboolean
on_list_key_pressed (GtkEventControllerKey *controller,
                     guint                  keyval,
                     guint                  keycode,
                     GdkModifierType        state,
                     gpointer               user_data)
{
  GtkWidget *list = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (controller));
  GtkDirectionType direction;

  if ((state & (GDK_CONTROL_MASK | GDK_ALT_MASK)) != 0)
    return FALSE;
  if (keyval == GDK_KEY_ISO_Left_Tab ||
      ((keyval == GDK_KEY_Tab || keyval == GDK_KEY_KP_Tab) && (state & GDK_SHIFT_MASK) != 0))
    direction = GTK_DIR_TAB_BACKWARD;
  else if (keyval == GDK_KEY_Tab || keyval == GDK_KEY_KP_Tab)
    direction = GTK_DIR_TAB_FORWARD;
  else
    return FALSE;

  /* Past the list as if it could not take the keyboard, from where it is in it. */
  gtk_widget_set_can_focus (list, FALSE);
  g_signal_emit_by_name (list, "move-focus", direction);
  gtk_widget_set_can_focus (list, TRUE);

  return TRUE;
}

/**
 * triage_browse_tab_past_list:
 * @list: a #GtkListView or #GtkGridView
 *
 * Makes @list one stop of Tab and Shift+Tab, its rows gone through with the
 * arrows: GTK 4.8 takes Tab from row to row (4.12's #GtkListView:tab-behavior
 * can stop that), so that what follows a history of a thousand entries was
 * reached with a thousand presses, every row read out on the way.
 */
void
triage_browse_tab_past_list (GtkWidget *list)
{
  GtkEventController *controller;

  g_return_if_fail (GTK_IS_LIST_VIEW (list) || GTK_IS_GRID_VIEW (list));

  controller = gtk_event_controller_key_new ();
  gtk_event_controller_set_propagation_phase (controller, GTK_PHASE_CAPTURE);
  g_signal_connect (controller, "key-pressed", G_CALLBACK (on_list_key_pressed), NULL);
  gtk_widget_add_controller (list, controller);
}

/**
 * triage_browse_dup_drop_down_strings:
 * @dropdown: a #GtkDropDown whose model is a #GtkStringList
 *
 * Returns: (transfer full): the strings @dropdown offers, in order
 */
GStrv
triage_browse_dup_drop_down_strings (GtkDropDown *dropdown)
{
  GListModel *model = gtk_drop_down_get_model (dropdown);
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  guint n = model ? g_list_model_get_n_items (model) : 0;

  for (guint i = 0; i < n; i++)
    g_strv_builder_add (builder, gtk_string_list_get_string (GTK_STRING_LIST (model), i));

  return g_strv_builder_end (builder);
}

/**
 * triage_browse_select_drop_down_key:
 * @dropdown: a #GtkDropDown
 * @keys: (element-type utf8) (nullable): the key of each item @dropdown offers
 * @key: (nullable): the key to select
 *
 * Returns: %TRUE if @key is offered (and now selected)
 */
gboolean
triage_browse_select_drop_down_key (GtkDropDown *dropdown,
                                    GPtrArray   *keys,
                                    const char  *key)
{
  for (guint i = 0; keys != NULL && i < keys->len; i++)
    if (g_strcmp0 (g_ptr_array_index (keys, i), key) == 0)
      {
        gtk_drop_down_set_selected (dropdown, i);
        return TRUE;
      }

  return FALSE;
}

/**
 * triage_browse_name_list_item:
 * @row: the row a list or grid view's item shows (its child)
 * @label: (nullable): what the row says first, its title
 * @description: (nullable): the rest
 *
 * Names the item around @row after the row. The item is what takes the
 * focus, so it is what a screen reader says, and GTK 4.8 leaves it nameless
 * in a list view ("") and named by its class in a grid view
 * ("GtkListItemWidget"); gtk_list_item_set_accessible_label () is 4.12's.
 * Nothing happens while @row has no parent: call it again once it has.
 */
void
triage_browse_name_list_item (GtkWidget  *row,
                              const char *label,
                              const char *description)
{
  GtkWidget *item;

  g_return_if_fail (GTK_IS_WIDGET (row));

  item = gtk_widget_get_parent (row);
  if (item == NULL)
    return;

  gtk_accessible_update_property (GTK_ACCESSIBLE (item),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, label ? label : "",
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description ? description : "",
                                  -1);
}

/* Whether @text's first letter is of a script written right to left (its
 * first strong character, as Pango sees a paragraph's direction, for the
 * letters that decide it). */
static gboolean
reads_right_to_left (const char *text)
{
  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (triage_format_is_rtl_letter (c) || c == 0x200F)   /* RIGHT-TO-LEFT MARK */
        return TRUE;
      if (g_unichar_isalpha (c) || c == 0x200E)
        return FALSE;
    }

  return FALSE;
}

/**
 * triage_browse_dup_in_direction_of:
 * @text: (nullable): a row's second line
 * @leading: (nullable): the row's first line, its title
 *
 * A row's lines read in one direction: the title's. Pango sets each line's
 * direction from its first strong character, so under an Arabic or Hebrew
 * title a details line that begins with a date and a service's Latin name
 * ran left to right, aligned left, while the title was aligned right.
 *
 * Returns: (transfer full) (nullable): @text, after a RIGHT-TO-LEFT MARK
 *   when @leading reads right to left and @text would not
 */
char *
triage_browse_dup_in_direction_of (const char *text,
                                   const char *leading)
{
  if (text == NULL || *text == '\0' || leading == NULL)
    return g_strdup (text);

  if (reads_right_to_left (leading) && !reads_right_to_left (text))
    return g_strconcat ("\u200F", text, NULL);

  return g_strdup (text);
}
