#!/usr/bin/python3
# selftest-sni-item.py — checks tests/fake-sni-watcher.py with a minimal
# StatusNotifierItem that has a dbusmenu: the item registers with the watcher and
# exits 0 once the watcher has called Activate and clicked the menu item
# "Open Triage"; then the watcher's log must show the registration, the
# properties, the menu, and both presses.
#
# Copyright 2026 The Triage authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
#   selftest-sni-item.py FAKE_SNI_WATCHER      the test
#   selftest-sni-item.py --item                the item (run by the fake)

import json
import os
import subprocess
import sys
import tempfile


def drive(fake):
    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, "sni.log")
        argv = [sys.executable, fake, "--private-bus", "--log", log, "--activate",
                "--menu-click", "Open Triage", "--action-delay", "50", "--exec",
                sys.executable, os.path.abspath(__file__), "--item"]
        rc = subprocess.run(argv, timeout=60).returncode
        if rc != 0:
            sys.exit(f"{' '.join(argv)} exited with {rc}")
        with open(log) as f:
            events = [json.loads(line) for line in f]
    kinds = [e["event"] for e in events]
    props = next((e for e in events if e["event"] == "Properties"), {}).get("properties", {})
    menu = next((e for e in events if e["event"] == "Menu"), {}).get("items", [])
    clicked = [e for e in events if e["event"] == "MenuClicked"]
    if kinds[0] != "Registered" or props.get("Id") != "io.github.atptriage.Triage" \
            or props.get("ToolTip") != ["", [], "Triage", "2 pending"] \
            or [i["label"] for i in menu] != ["_Open Triage", "Quit"] \
            or "Activated" not in kinds or len(clicked) != 1 or "error" in clicked[0] \
            or any("error" in e for e in events):
        sys.exit(f"unexpected watcher log: {events}")
    print("ok")
    sys.exit(0)


if len(sys.argv) != 2:
    sys.exit("usage: selftest-sni-item.py FAKE_SNI_WATCHER")
if sys.argv[1] != "--item":
    drive(sys.argv[1])

import gi  # noqa: E402

gi.require_version("Gio", "2.0")
from gi.repository import Gio, GLib  # noqa: E402

XML = """
<node>
  <interface name="org.kde.StatusNotifierItem">
    <property name="Category" type="s" access="read"/>
    <property name="Id" type="s" access="read"/>
    <property name="Title" type="s" access="read"/>
    <property name="Status" type="s" access="read"/>
    <property name="IconName" type="s" access="read"/>
    <property name="ToolTip" type="(sa(iiay)ss)" access="read"/>
    <property name="ItemIsMenu" type="b" access="read"/>
    <property name="Menu" type="o" access="read"/>
    <method name="Activate"><arg type="i" direction="in"/><arg type="i" direction="in"/></method>
    <method name="SecondaryActivate"><arg type="i" direction="in"/><arg type="i" direction="in"/></method>
    <signal name="NewStatus"><arg type="s"/></signal>
  </interface>
  <interface name="com.canonical.dbusmenu">
    <method name="GetLayout">
      <arg type="i" direction="in"/><arg type="i" direction="in"/><arg type="as" direction="in"/>
      <arg type="u" direction="out"/><arg type="(ia{sv}av)" direction="out"/>
    </method>
    <method name="Event">
      <arg type="i" direction="in"/><arg type="s" direction="in"/>
      <arg type="v" direction="in"/><arg type="u" direction="in"/>
    </method>
    <signal name="LayoutUpdated"><arg type="u"/><arg type="i"/></signal>
  </interface>
</node>
"""
PROPS = {
    "Category": GLib.Variant("s", "Communications"),
    "Id": GLib.Variant("s", "io.github.atptriage.Triage"),
    "Title": GLib.Variant("s", "Triage"),
    "Status": GLib.Variant("s", "Active"),
    "IconName": GLib.Variant("s", "io.github.atptriage.Triage-symbolic"),
    "ToolTip": GLib.Variant("(sa(iiay)ss)", ("", [], "Triage", "2 pending")),
    "ItemIsMenu": GLib.Variant("b", False),
    "Menu": GLib.Variant("o", "/MenuBar"),
}
done = set()
loop = GLib.MainLoop()


def item(ident, label, children=()):
    return GLib.Variant("(ia{sv}av)", (ident, {"label": GLib.Variant("s", label)},
                                       list(children)))


def on_call(conn, sender, path, iface, method, params, inv):
    if method in ("Activate", "SecondaryActivate"):
        done.add(method)
        inv.return_value(None)
    elif method == "GetLayout":
        root = (0, {"children-display": GLib.Variant("s", "submenu")},
                [item(1, "_Open Triage"), item(2, "Quit")])
        inv.return_value(GLib.Variant("(u(ia{sv}av))", (1, root)))
    elif method == "Event":
        ident, event, _data, _ts = params.unpack()
        if ident == 1 and event == "clicked":
            done.add("menu")
        inv.return_value(None)
    else:
        inv.return_dbus_error("org.freedesktop.DBus.Error.UnknownMethod", method)
    if done >= {"Activate", "menu"}:
        conn.flush_sync(None)
        GLib.idle_add(loop.quit)


def get_property(conn, sender, path, iface, prop):
    return PROPS.get(prop)


bus = Gio.bus_get_sync(Gio.BusType.SESSION)
node = Gio.DBusNodeInfo.new_for_xml(XML)
bus.register_object("/StatusNotifierItem", node.interfaces[0], on_call, get_property, None)
bus.register_object("/MenuBar", node.interfaces[1], on_call, None, None)
name = "org.kde.StatusNotifierItem-%d-1" % os.getpid()
Gio.bus_own_name_on_connection(bus, name, Gio.BusNameOwnerFlags.NONE, None, None)
bus.call_sync("org.kde.StatusNotifierWatcher", "/StatusNotifierWatcher",
              "org.kde.StatusNotifierWatcher", "RegisterStatusNotifierItem",
              GLib.Variant("(s)", (name,)), None, Gio.DBusCallFlags.NONE, 5000, None)
GLib.timeout_add_seconds(10, lambda: (done.add("timeout"), loop.quit()))
loop.run()
sys.exit(0 if "timeout" not in done else f"watcher did not press everything: {done}")
