/* triage-tray-dbus.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-tray"

#include "triage-tray-private.h"

/*
 * What the StatusNotifierItem (triage-tray-sni.c) and its menu
 * (triage-tray-menu.c) share to be served over GDBus: one vtable that hands
 * each method to its entry in the interface's table and asks the interface
 * for its properties, and the signal they emit on the tray's connection.
 */

static void
on_method_call (GDBusConnection       *connection,
                const char            *sender,
                const char            *object_path,
                const char            *interface_name,
                const char            *method_name,
                GVariant              *parameters,
                GDBusMethodInvocation *invocation,
                gpointer               user_data)
{
  TriageTrayExport *export = user_data;

  for (const TriageTrayMethodEntry *method = export->iface->methods; method->name != NULL; method++)
    {
      if (g_str_equal (method->name, method_name))
        {
          method->call (export->tray, parameters, invocation);
          return;
        }
    }

  g_dbus_method_invocation_return_error (invocation, G_DBUS_ERROR, G_DBUS_ERROR_UNKNOWN_METHOD,
                                         "No method %s", method_name);
}

static GVariant *
on_get_property (GDBusConnection  *connection,
                 const char       *sender,
                 const char       *object_path,
                 const char       *interface_name,
                 const char       *property_name,
                 GError          **error,
                 gpointer          user_data)
{
  TriageTrayExport *export = user_data;
  GVariant *value = export->iface->get_property (export->tray, property_name);

  if (value == NULL)
    g_set_error (error, G_DBUS_ERROR, G_DBUS_ERROR_UNKNOWN_PROPERTY,
                 "No property %s", property_name);

  return value;
}

static const GDBusInterfaceVTable vtable = {
  .method_call = on_method_call,
  .get_property = on_get_property,
};

/**
 * triage_tray_dbus_export:
 * @self: a #TriageTray
 * @export: where the tray keeps the export, until triage_tray_dbus_unexport()
 * @iface: the interface to serve
 * @error: where to put an error
 *
 * Exports @iface at its path on the tray's connection.
 *
 * Returns: whether it is exported
 */
gboolean
triage_tray_dbus_export (TriageTray                 *self,
                         TriageTrayExport           *export,
                         const TriageTrayInterface  *iface,
                         GError                    **error)
{
  export->tray = self;
  export->iface = iface;
  export->info = g_dbus_node_info_new_for_xml (iface->xml, NULL);
  g_assert (export->info != NULL);

  /* No free function: GLib before 2.80 does not call it when the
   * registration fails. The export lives in the tray. */
  export->registration_id =
    g_dbus_connection_register_object (self->connection, iface->path,
                                       export->info->interfaces[0], &vtable,
                                       export, NULL, error);

  return export->registration_id != 0;
}

/**
 * triage_tray_dbus_unexport:
 * @self: a #TriageTray
 * @export: what triage_tray_dbus_export() filled in, or zeroes
 *
 * Takes the export off the bus, if it is on it.
 */
void
triage_tray_dbus_unexport (TriageTray       *self,
                           TriageTrayExport *export)
{
  if (export->registration_id != 0)
    g_dbus_connection_unregister_object (self->connection, export->registration_id);
  export->registration_id = 0;
  g_clear_pointer (&export->info, g_dbus_node_info_unref);
}

/**
 * triage_tray_dbus_emit:
 * @self: a #TriageTray
 * @iface: the interface the signal belongs to
 * @signal: the signal's name
 * @parameters: (transfer floating) (nullable): its parameters
 *
 * Emits @signal of @iface, unless the connection is closed.
 */
void
triage_tray_dbus_emit (TriageTray                *self,
                       const TriageTrayInterface *iface,
                       const char                *signal,
                       GVariant                  *parameters)
{
  g_autoptr(GError) error = NULL;

  if (g_dbus_connection_is_closed (self->connection))
    {
      if (parameters != NULL)
        g_variant_unref (g_variant_ref_sink (parameters));
      return;
    }

  if (!g_dbus_connection_emit_signal (self->connection, NULL, iface->path, iface->name,
                                      signal, parameters, &error))
    g_debug ("Could not emit %s: %s", signal, error->message);
}
