/* triage-tray-sni.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-tray"

#include <glib/gi18n.h>

#include "triage-tray-private.h"

/*
 * The tray's org.kde.StatusNotifierItem at TRIAGE_TRAY_ITEM_PATH: its
 * properties (status, icon, tooltip, where the menu is) follow the tray's
 * state; its methods are the host's clicks on the icon. triage-tray.c
 * exports it and emits its New* signals when the state changes.
 */

static const char item_xml[] =
  "<node>"
  "  <interface name='org.kde.StatusNotifierItem'>"
  "    <property name='Category' type='s' access='read'/>"
  "    <property name='Id' type='s' access='read'/>"
  "    <property name='Title' type='s' access='read'/>"
  "    <property name='Status' type='s' access='read'/>"
  "    <property name='WindowId' type='i' access='read'/>"
  "    <property name='IconThemePath' type='s' access='read'/>"
  "    <property name='IconName' type='s' access='read'/>"
  "    <property name='IconPixmap' type='a(iiay)' access='read'/>"
  "    <property name='OverlayIconName' type='s' access='read'/>"
  "    <property name='OverlayIconPixmap' type='a(iiay)' access='read'/>"
  "    <property name='AttentionIconName' type='s' access='read'/>"
  "    <property name='AttentionIconPixmap' type='a(iiay)' access='read'/>"
  "    <property name='AttentionMovieName' type='s' access='read'/>"
  "    <property name='ToolTip' type='(sa(iiay)ss)' access='read'/>"
  "    <property name='ItemIsMenu' type='b' access='read'/>"
  "    <property name='Menu' type='o' access='read'/>"
  "    <method name='ContextMenu'><arg name='x' type='i' direction='in'/>"
  "      <arg name='y' type='i' direction='in'/></method>"
  "    <method name='Activate'><arg name='x' type='i' direction='in'/>"
  "      <arg name='y' type='i' direction='in'/></method>"
  "    <method name='SecondaryActivate'><arg name='x' type='i' direction='in'/>"
  "      <arg name='y' type='i' direction='in'/></method>"
  "    <method name='Scroll'><arg name='delta' type='i' direction='in'/>"
  "      <arg name='orientation' type='s' direction='in'/></method>"
  "    <signal name='NewTitle'/>"
  "    <signal name='NewIcon'/>"
  "    <signal name='NewAttentionIcon'/>"
  "    <signal name='NewOverlayIcon'/>"
  "    <signal name='NewToolTip'/>"
  "    <signal name='NewStatus'><arg name='status' type='s'/></signal>"
  "  </interface>"
  "</node>";

const char *
triage_tray_sni_get_status (TriageTray *self)
{
  if (self->problem != NULL)
    return "NeedsAttention";
  if (self->count == 0)
    return "Passive";

  return self->urgent ? "NeedsAttention" : "Active";
}

const char *
triage_tray_sni_get_icon_name (TriageTray *self)
{
  if (self->problem != NULL)
    return TRIAGE_TRAY_ICON_PROBLEM;
  if (self->count == 0)
    return TRIAGE_TRAY_ICON_IDLE;

  return self->urgent ? TRIAGE_TRAY_ICON_URGENT : TRIAGE_TRAY_ICON_PENDING;
}

/* The item's title, and its tooltip's: the app, or that requests cannot arrive. */
const char *
triage_tray_sni_get_title (TriageTray *self)
{
  return self->problem != NULL ? self->problem : _("Triage");
}

/* The tooltip's body: why requests cannot arrive, or how many wait (and
 * whether do-not-disturb is on): never "No requests waiting" when none can
 * arrive. */
char *
triage_tray_sni_get_tooltip (TriageTray *self)
{
  g_autofree char *count = NULL;
  g_autofree char *why = NULL;

  /* The connection's words may quote a server or an address: hosts may read
   * the body as markup. */
  if (self->problem != NULL)
    why = g_markup_escape_text (self->problem_detail != NULL ? self->problem_detail : "", -1);
  if (why != NULL && self->count == 0)
    return g_steal_pointer (&why);

  if (self->count == 0)
    count = g_strdup (_("No requests waiting"));
  else
    count = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u request waiting",
                                          "%u requests waiting", self->count),
                             self->count);

  if (why != NULL)
    return g_strconcat (why, "\n", count, NULL);

  if (self->do_not_disturb)
    /* Translators: tooltip of the tray icon, e.g. "3 requests waiting (do not disturb)" */
    return g_strdup_printf (_("%s (do not disturb)"), count);

  return g_steal_pointer (&count);
}

static GVariant *
empty_pixmaps (void)
{
  return g_variant_new_array (G_VARIANT_TYPE ("(iiay)"), NULL, 0);
}

static GVariant *
item_get_property (TriageTray *self,
                   const char *property_name)
{
  if (g_str_equal (property_name, "Category"))
    return g_variant_new_string ("ApplicationStatus");
  if (g_str_equal (property_name, "Id"))
    return g_variant_new_string (APPLICATION_ID);
  if (g_str_equal (property_name, "Title"))
    return g_variant_new_string (triage_tray_sni_get_title (self));
  if (g_str_equal (property_name, "Status"))
    return g_variant_new_string (triage_tray_sni_get_status (self));
  if (g_str_equal (property_name, "WindowId"))
    return g_variant_new_int32 (0);
  if (g_str_equal (property_name, "IconThemePath"))
    return g_variant_new_string ("");
  if (g_str_equal (property_name, "IconName"))
    return g_variant_new_string (triage_tray_sni_get_icon_name (self));
  if (g_str_equal (property_name, "OverlayIconName"))
    return g_variant_new_string (self->do_not_disturb ? TRIAGE_TRAY_ICON_DND : "");
  if (g_str_equal (property_name, "AttentionIconName"))
    return g_variant_new_string (self->problem != NULL ? TRIAGE_TRAY_ICON_PROBLEM
                                                       : TRIAGE_TRAY_ICON_URGENT);
  if (g_str_equal (property_name, "AttentionMovieName"))
    return g_variant_new_string ("");
  if (g_str_equal (property_name, "IconPixmap") ||
      g_str_equal (property_name, "OverlayIconPixmap") ||
      g_str_equal (property_name, "AttentionIconPixmap"))
    return empty_pixmaps ();
  if (g_str_equal (property_name, "ToolTip"))
    {
      g_autofree char *body = triage_tray_sni_get_tooltip (self);

      /* The body is our own text only: hosts may read it as markup. */
      return g_variant_new ("(s@a(iiay)ss)", triage_tray_sni_get_icon_name (self),
                            empty_pixmaps (), triage_tray_sni_get_title (self), body);
    }
  if (g_str_equal (property_name, "ItemIsMenu"))
    return g_variant_new_boolean (FALSE);
  if (g_str_equal (property_name, "Menu"))
    return g_variant_new_object_path (TRIAGE_TRAY_MENU_PATH);

  return NULL;
}

/*
 * A left click (and ContextMenu, which hosts only send when they will not
 * show our menu themselves) brings up the window; a middle click opens the
 * first waiting request. Scrolling means nothing here.
 */
static void
item_show (TriageTray            *self,
           GVariant              *parameters,
           GDBusMethodInvocation *invocation)
{
  g_dbus_method_invocation_return_value (invocation, NULL);
  triage_tray_activate_after_reply (self, "show", NULL);
}

static void
item_open_first (TriageTray            *self,
                 GVariant              *parameters,
                 GDBusMethodInvocation *invocation)
{
  g_dbus_method_invocation_return_value (invocation, NULL);

  if (self->items->len > 0)
    {
      TriageTrayItem *first = g_ptr_array_index (self->items, 0);

      triage_tray_activate_after_reply (self, "open-request", g_variant_new_string (first->id));
    }
  else
    triage_tray_activate_after_reply (self, "show", NULL);
}

static void
item_scroll (TriageTray            *self,
             GVariant              *parameters,
             GDBusMethodInvocation *invocation)
{
  g_dbus_method_invocation_return_value (invocation, NULL);
}

static const TriageTrayMethodEntry item_methods[] = {
  { "Activate", item_show },
  { "ContextMenu", item_show },
  { "SecondaryActivate", item_open_first },
  { "Scroll", item_scroll },
  { NULL, NULL }
};

const TriageTrayInterface triage_tray_sni_interface = {
  .name = "org.kde.StatusNotifierItem",
  .path = TRIAGE_TRAY_ITEM_PATH,
  .xml = item_xml,
  .methods = item_methods,
  .get_property = item_get_property,
};
