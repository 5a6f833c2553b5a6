/* triage-tray-menu.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-tray"

#include <glib/gi18n.h>

#include "triage-decision-format.h"
#include "triage-request.h"
#include "triage-tray-private.h"

/*
 * The tray's menu: built from the pending requests and the actions, served
 * over com.canonical.dbusmenu at TRIAGE_TRAY_MENU_PATH, and announced with
 * LayoutUpdated on every change. A click activates the item's action through
 * the tray, once the reply is on the wire.
 */

#define MAX_TITLE_CHARS   60

static const char menu_xml[] =
  "<node>"
  "  <interface name='com.canonical.dbusmenu'>"
  "    <property name='Version' type='u' access='read'/>"
  "    <property name='TextDirection' type='s' access='read'/>"
  "    <property name='Status' type='s' access='read'/>"
  "    <property name='IconThemePath' type='as' access='read'/>"
  "    <method name='GetLayout'>"
  "      <arg name='parentId' type='i' direction='in'/>"
  "      <arg name='recursionDepth' type='i' direction='in'/>"
  "      <arg name='propertyNames' type='as' direction='in'/>"
  "      <arg name='revision' type='u' direction='out'/>"
  "      <arg name='layout' type='(ia{sv}av)' direction='out'/>"
  "    </method>"
  "    <method name='GetGroupProperties'>"
  "      <arg name='ids' type='ai' direction='in'/>"
  "      <arg name='propertyNames' type='as' direction='in'/>"
  "      <arg name='properties' type='a(ia{sv})' direction='out'/>"
  "    </method>"
  "    <method name='GetProperty'>"
  "      <arg name='id' type='i' direction='in'/>"
  "      <arg name='name' type='s' direction='in'/>"
  "      <arg name='value' type='v' direction='out'/>"
  "    </method>"
  "    <method name='Event'>"
  "      <arg name='id' type='i' direction='in'/>"
  "      <arg name='eventId' type='s' direction='in'/>"
  "      <arg name='data' type='v' direction='in'/>"
  "      <arg name='timestamp' type='u' direction='in'/>"
  "    </method>"
  "    <method name='EventGroup'>"
  "      <arg name='events' type='a(isvu)' direction='in'/>"
  "      <arg name='idErrors' type='ai' direction='out'/>"
  "    </method>"
  "    <method name='AboutToShow'>"
  "      <arg name='id' type='i' direction='in'/>"
  "      <arg name='needUpdate' type='b' direction='out'/>"
  "    </method>"
  "    <method name='AboutToShowGroup'>"
  "      <arg name='ids' type='ai' direction='in'/>"
  "      <arg name='updatesNeeded' type='ai' direction='out'/>"
  "      <arg name='idErrors' type='ai' direction='out'/>"
  "    </method>"
  "    <signal name='ItemsPropertiesUpdated'>"
  "      <arg name='updatedProps' type='a(ia{sv})'/>"
  "      <arg name='removedProps' type='a(ias)'/>"
  "    </signal>"
  "    <signal name='LayoutUpdated'>"
  "      <arg name='revision' type='u'/>"
  "      <arg name='parent' type='i'/>"
  "    </signal>"
  "    <signal name='ItemActivationRequested'>"
  "      <arg name='id' type='i'/>"
  "      <arg name='timestamp' type='u'/>"
  "    </signal>"
  "  </interface>"
  "</node>";

/* Menu item ids that never change; requests get fresh ids from FIRST_REQUEST_ID up. */
enum {
  ID_ROOT = 0,
  ID_EMPTY,
  ID_MORE,
  ID_SEPARATOR_1,
  ID_OPEN,
  ID_DO_NOT_DISTURB,
  ID_PREFERENCES,
  ID_SEPARATOR_2,
  ID_QUIT,
  FIRST_REQUEST_ID = 100,
};

typedef struct
{
  int       id;
  char     *label;
  gboolean  separator;
  gboolean  enabled;
  gboolean  toggle;        /* a checkmark item */
  gboolean  toggled;
  char     *action;        /* nullable */
  char     *request_id;    /* for open-request */
} MenuItem;

static void
menu_item_clear (gpointer data)
{
  MenuItem *item = data;

  g_clear_pointer (&item->label, g_free);
  g_clear_pointer (&item->action, g_free);
  g_clear_pointer (&item->request_id, g_free);
}

/* A request title as a menu label: one line, bounded, underscores not taken as mnemonics. */
static char *
menu_label_for_title (const char *title)
{
  GString *label = g_string_new (NULL);
  g_autofree char *valid = g_utf8_make_valid (title, -1);
  guint chars = 0;

  for (const char *p = valid; *p; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (chars == MAX_TITLE_CHARS)
        {
          g_string_append (label, "…");
          break;
        }

      if (c == '_')
        g_string_append (label, "__");
      else if (g_unichar_iscntrl (c) || g_unichar_isspace (c))
        g_string_append_c (label, ' ');
      else if (triage_format_is_hidden_char (c))
        continue;  /* bidi overrides, which would reorder the menu's text */
      else
        g_string_append_unichar (label, c);
      chars++;
    }

  return g_string_free (label, FALSE);
}

static void
menu_append (TriageTray *self,
             int         id,
             const char *label,
             const char *action,
             const char *request_id)
{
  MenuItem item = { 0 };

  item.id = id;
  item.label = g_strdup (label);
  item.separator = label == NULL;
  item.action = g_strdup (action);
  item.request_id = g_strdup (request_id);
  item.enabled = action != NULL && triage_tray_action_available (self, action);
  g_array_append_val (self->menu, item);
}

/* A request keeps its menu item id while it is listed, so a host's click always finds it. */
static int
menu_id_for_request (TriageTray *self,
                     GHashTable *kept,
                     const char *request_id)
{
  gpointer id;

  if (!g_hash_table_lookup_extended (self->request_menu_ids, request_id, NULL, &id))
    id = GINT_TO_POINTER (self->next_request_id++);

  g_hash_table_insert (kept, g_strdup (request_id), id);

  return GPOINTER_TO_INT (id);
}

/**
 * triage_tray_menu_rebuild:
 * @self: a #TriageTray
 *
 * Builds the menu again from the pending requests and the actions.
 */
void
triage_tray_menu_rebuild (TriageTray *self)
{
  guint shown = MIN (self->items->len, TRIAGE_TRAY_MAX_MENU_REQUESTS);
  g_autoptr(GHashTable) kept = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  g_array_set_size (self->menu, 0);

  for (guint i = 0; i < shown; i++)
    {
      TriageTrayItem *request = g_ptr_array_index (self->items, i);
      g_autofree char *title = menu_label_for_title (request->title);
      g_autofree char *label = NULL;

      if (request->deadline != NULL)
        {
          g_autofree char *due = triage_format_deadline (request->deadline, NULL);

          /* Translators: a request in the tray menu: its title, then when it is due */
          label = g_strdup_printf (_("%s — %s"), title, due);
        }
      else
        label = g_steal_pointer (&title);

      menu_append (self, menu_id_for_request (self, kept, request->id), label,
                   "open-request", request->id);
    }

  g_clear_pointer (&self->request_menu_ids, g_hash_table_unref);
  self->request_menu_ids = g_steal_pointer (&kept);

  if (shown == 0)
    menu_append (self, ID_EMPTY, _("No requests waiting"), NULL, NULL);
  else if (self->count > shown)
    {
      g_autofree char *more = NULL;
      guint rest = self->count - shown;

      more = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u more request…",
                                           "%u more requests…", rest), rest);
      menu_append (self, ID_MORE, more, "show", NULL);
    }

  menu_append (self, ID_SEPARATOR_1, NULL, NULL, NULL);
  menu_append (self, ID_OPEN, _("_Open Triage"), "show", NULL);
  menu_append (self, ID_DO_NOT_DISTURB, _("_Do Not Disturb"), "do-not-disturb", NULL);
  g_array_index (self->menu, MenuItem, self->menu->len - 1).toggle = TRUE;
  g_array_index (self->menu, MenuItem, self->menu->len - 1).toggled = self->do_not_disturb;
  menu_append (self, ID_PREFERENCES, _("_Preferences"), "preferences", NULL);
  menu_append (self, ID_SEPARATOR_2, NULL, NULL, NULL);
  menu_append (self, ID_QUIT, _("_Quit"), "quit", NULL);
}

/**
 * triage_tray_menu_changed:
 * @self: a #TriageTray
 *
 * Rebuilds the menu and tells the host its layout changed.
 */
void
triage_tray_menu_changed (TriageTray *self)
{
  triage_tray_menu_rebuild (self);
  self->revision++;

  triage_tray_dbus_emit (self, &triage_tray_menu_interface, "LayoutUpdated",
                         g_variant_new ("(ui)", self->revision, ID_ROOT));
}

static const MenuItem *
find_menu_item (TriageTray *self,
                int         id)
{
  static const MenuItem root = { .id = ID_ROOT };

  if (id == ID_ROOT)
    return &root;

  for (guint i = 0; i < self->menu->len; i++)
    {
      const MenuItem *item = &g_array_index (self->menu, MenuItem, i);

      if (item->id == id)
        return item;
    }

  return NULL;
}

static gboolean
wanted (const char * const *names,
        const char         *name)
{
  return names == NULL || names[0] == NULL || g_strv_contains (names, name);
}

static GVariant *
menu_item_properties (const MenuItem     *item,
                      const char * const *names)
{
  GVariantBuilder builder;

  g_variant_builder_init (&builder, G_VARIANT_TYPE ("a{sv}"));

  if (item->id == ID_ROOT)
    {
      if (wanted (names, "children-display"))
        g_variant_builder_add (&builder, "{sv}", "children-display",
                               g_variant_new_string ("submenu"));
      return g_variant_builder_end (&builder);
    }

  if (item->separator)
    {
      if (wanted (names, "type"))
        g_variant_builder_add (&builder, "{sv}", "type", g_variant_new_string ("separator"));
      return g_variant_builder_end (&builder);
    }

  if (wanted (names, "label"))
    g_variant_builder_add (&builder, "{sv}", "label", g_variant_new_string (item->label));
  if (wanted (names, "enabled"))
    g_variant_builder_add (&builder, "{sv}", "enabled", g_variant_new_boolean (item->enabled));
  if (wanted (names, "visible"))
    g_variant_builder_add (&builder, "{sv}", "visible", g_variant_new_boolean (TRUE));
  if (item->toggle && wanted (names, "toggle-type"))
    g_variant_builder_add (&builder, "{sv}", "toggle-type", g_variant_new_string ("checkmark"));
  if (item->toggle && wanted (names, "toggle-state"))
    g_variant_builder_add (&builder, "{sv}", "toggle-state",
                           g_variant_new_int32 (item->toggled ? 1 : 0));

  return g_variant_builder_end (&builder);
}

static GVariant *
menu_layout (TriageTray         *self,
             const MenuItem     *item,
             int                 depth,
             const char * const *names)
{
  GVariantBuilder children;

  g_variant_builder_init (&children, G_VARIANT_TYPE ("av"));

  /* Only the root has children; depth 0 asks for the node alone. */
  if (item->id == ID_ROOT && depth != 0)
    {
      for (guint i = 0; i < self->menu->len; i++)
        {
          const MenuItem *child = &g_array_index (self->menu, MenuItem, i);

          g_variant_builder_add (&children, "v", menu_layout (self, child, depth - 1, names));
        }
    }

  return g_variant_new ("(i@a{sv}av)", item->id, menu_item_properties (item, names), &children);
}

static gboolean
menu_event (TriageTray *self,
            int         id,
            const char *event)
{
  const MenuItem *item = find_menu_item (self, id);

  if (item == NULL)
    return FALSE;

  if (g_str_equal (event, "clicked") && item->action != NULL && item->enabled)
    triage_tray_activate_after_reply (self, item->action,
                                      item->request_id
                                        ? g_variant_new_string (item->request_id) : NULL);

  return TRUE;
}

static GVariant *
menu_get_property (TriageTray *self,
                   const char *property_name)
{
  if (g_str_equal (property_name, "Version"))
    return g_variant_new_uint32 (3);
  if (g_str_equal (property_name, "TextDirection"))
    return g_variant_new_string ("ltr");
  if (g_str_equal (property_name, "Status"))
    return g_variant_new_string ("normal");
  if (g_str_equal (property_name, "IconThemePath"))
    return g_variant_new_strv (NULL, 0);

  return NULL;
}

/* The menu item @id, or NULL once @invocation got the error. */
static const MenuItem *
lookup_menu_item (TriageTray            *self,
                  int                    id,
                  GDBusMethodInvocation *invocation)
{
  const MenuItem *item = find_menu_item (self, id);

  if (item == NULL)
    g_dbus_method_invocation_return_error (invocation, G_DBUS_ERROR, G_DBUS_ERROR_INVALID_ARGS,
                                           "Unknown menu item %d", id);

  return item;
}

static void
menu_get_layout (TriageTray            *self,
                 GVariant              *parameters,
                 GDBusMethodInvocation *invocation)
{
  g_autofree const char **names = NULL;
  const MenuItem *item;
  int parent;
  int depth;

  g_variant_get (parameters, "(ii^a&s)", &parent, &depth, &names);
  item = lookup_menu_item (self, parent, invocation);
  if (item == NULL)
    return;

  g_dbus_method_invocation_return_value (invocation,
                                         g_variant_new ("(u@(ia{sv}av))", self->revision,
                                                        menu_layout (self, item, depth, names)));
}

static void
menu_get_group_properties (TriageTray            *self,
                           GVariant              *parameters,
                           GDBusMethodInvocation *invocation)
{
  g_autoptr(GVariantIter) ids = NULL;
  g_autofree const char **names = NULL;
  GVariantBuilder builder;
  int id;

  g_variant_get (parameters, "(ai^a&s)", &ids, &names);
  g_variant_builder_init (&builder, G_VARIANT_TYPE ("a(ia{sv})"));

  /* An empty list asks for every item. */
  if (g_variant_iter_n_children (ids) == 0)
    {
      for (guint i = 0; i < self->menu->len; i++)
        {
          const MenuItem *item = &g_array_index (self->menu, MenuItem, i);

          g_variant_builder_add (&builder, "(i@a{sv})", item->id,
                                 menu_item_properties (item, names));
        }
    }

  while (g_variant_iter_next (ids, "i", &id))
    {
      const MenuItem *item = find_menu_item (self, id);

      if (item != NULL)
        g_variant_builder_add (&builder, "(i@a{sv})", id, menu_item_properties (item, names));
    }

  g_dbus_method_invocation_return_value (invocation, g_variant_new ("(a(ia{sv}))", &builder));
}

static void
menu_get_item_property (TriageTray            *self,
                        GVariant              *parameters,
                        GDBusMethodInvocation *invocation)
{
  g_autoptr(GVariant) props = NULL;
  g_autoptr(GVariant) value = NULL;
  const MenuItem *item;
  const char *name;
  int id;

  g_variant_get (parameters, "(i&s)", &id, &name);
  item = find_menu_item (self, id);
  if (item != NULL)
    {
      const char *one[] = { name, NULL };

      props = g_variant_ref_sink (menu_item_properties (item, one));
      value = g_variant_lookup_value (props, name, NULL);
    }

  if (value == NULL)
    {
      g_dbus_method_invocation_return_error (invocation, G_DBUS_ERROR,
                                             G_DBUS_ERROR_INVALID_ARGS,
                                             "Menu item %d has no property %s", id, name);
      return;
    }

  g_dbus_method_invocation_return_value (invocation, g_variant_new ("(v)", value));
}

static void
menu_event_method (TriageTray            *self,
                   GVariant              *parameters,
                   GDBusMethodInvocation *invocation)
{
  const char *event;
  int id;

  g_variant_get (parameters, "(i&svu)", &id, &event, NULL, NULL);
  if (lookup_menu_item (self, id, invocation) == NULL)
    return;

  g_dbus_method_invocation_return_value (invocation, NULL);
  menu_event (self, id, event);
}

static void
menu_event_group (TriageTray            *self,
                  GVariant              *parameters,
                  GDBusMethodInvocation *invocation)
{
  g_autoptr(GVariantIter) events = NULL;
  GVariantBuilder errors;
  const char *event;
  int id;
  guint handled = 0;
  g_autoptr(GArray) pending = g_array_new (FALSE, FALSE, sizeof (int));
  g_autoptr(GPtrArray) pending_events = g_ptr_array_new_with_free_func (g_free);

  g_variant_get (parameters, "(a(isvu))", &events);
  g_variant_builder_init (&errors, G_VARIANT_TYPE ("ai"));

  while (g_variant_iter_next (events, "(i&svu)", &id, &event, NULL, NULL))
    {
      if (find_menu_item (self, id) == NULL)
        g_variant_builder_add (&errors, "i", id);
      else
        {
          g_array_append_val (pending, id);
          g_ptr_array_add (pending_events, g_strdup (event));
          handled++;
        }
    }

  /* Per the dbusmenu spec, an error only when no event could be handled. */
  if (handled == 0 && g_variant_iter_n_children (events) > 0)
    {
      g_variant_builder_clear (&errors);
      g_dbus_method_invocation_return_error (invocation, G_DBUS_ERROR,
                                             G_DBUS_ERROR_INVALID_ARGS,
                                             "None of the menu items exist");
      return;
    }

  g_dbus_method_invocation_return_value (invocation, g_variant_new ("(ai)", &errors));
  for (guint i = 0; i < pending->len; i++)
    menu_event (self, g_array_index (pending, int, i), g_ptr_array_index (pending_events, i));
}

static void
menu_about_to_show (TriageTray            *self,
                    GVariant              *parameters,
                    GDBusMethodInvocation *invocation)
{
  int id;

  g_variant_get (parameters, "(i)", &id);
  if (lookup_menu_item (self, id, invocation) == NULL)
    return;

  /* The layout is always current: it is rebuilt and announced on every change. */
  g_dbus_method_invocation_return_value (invocation, g_variant_new ("(b)", FALSE));
}

static void
menu_about_to_show_group (TriageTray            *self,
                          GVariant              *parameters,
                          GDBusMethodInvocation *invocation)
{
  g_autoptr(GVariantIter) ids = NULL;
  GVariantBuilder updates;
  GVariantBuilder errors;
  int id;

  g_variant_get (parameters, "(ai)", &ids);
  g_variant_builder_init (&updates, G_VARIANT_TYPE ("ai"));
  g_variant_builder_init (&errors, G_VARIANT_TYPE ("ai"));
  while (g_variant_iter_next (ids, "i", &id))
    {
      if (find_menu_item (self, id) == NULL)
        g_variant_builder_add (&errors, "i", id);
    }

  g_dbus_method_invocation_return_value (invocation,
                                         g_variant_new ("(aiai)", &updates, &errors));
}

static const TriageTrayMethodEntry menu_methods[] = {
  { "GetLayout", menu_get_layout },
  { "GetGroupProperties", menu_get_group_properties },
  { "GetProperty", menu_get_item_property },
  { "Event", menu_event_method },
  { "EventGroup", menu_event_group },
  { "AboutToShow", menu_about_to_show },
  { "AboutToShowGroup", menu_about_to_show_group },
  { NULL, NULL }
};

const TriageTrayInterface triage_tray_menu_interface = {
  .name = "com.canonical.dbusmenu",
  .path = TRIAGE_TRAY_MENU_PATH,
  .xml = menu_xml,
  .methods = menu_methods,
  .get_property = menu_get_property,
};

/**
 * triage_tray_menu_init:
 * @self: a #TriageTray
 *
 * Sets up the menu's state; it is built by triage_tray_menu_rebuild().
 */
void
triage_tray_menu_init (TriageTray *self)
{
  self->menu = g_array_new (FALSE, TRUE, sizeof (MenuItem));
  g_array_set_clear_func (self->menu, menu_item_clear);
  self->request_menu_ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->next_request_id = FIRST_REQUEST_ID;
}
