#!/usr/bin/python3
# fake-sni-watcher.py — a fake StatusNotifierWatcher (tray) for headless tests.
#
# Copyright 2026 The Triage authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Fake org.kde.StatusNotifierWatcher for headless tests (GDBus via python3-gi).

Owns org.kde.StatusNotifierWatcher and serves /StatusNotifierWatcher. When an item
calls RegisterStatusNotifierItem, the watcher records it, reads all its
org.kde.StatusNotifierItem properties (GetAll) and, if asked, its menu
(com.canonical.dbusmenu GetLayout), presses Activate or a menu item, and keeps
following the item: every New* signal re-reads the properties, every
LayoutUpdated the menu, and the item leaving the bus is recorded.

  fake-sni-watcher.py [--log FILE] [--menu] [--activate] [--secondary-activate]
                      [--menu-click LABEL] [--action-delay MS] [--no-host]
                      [--private-bus] [--name-timeout S] [--exec CMD ARG...]

  --menu               read the item's menu after its properties (and on LayoutUpdated)
  --activate           call Activate(0, 0) on the item once its properties were read
  --secondary-activate call SecondaryActivate(0, 0) likewise
  --menu-click LABEL   send a "clicked" event to the menu item labelled LABEL
                       (mnemonic underscores ignored); implies --menu
  --action-delay MS    wait before pressing anything (default 200)
  --no-host            report IsStatusNotifierHostRegistered = false (no tray shown)

With --exec, CMD starts once the name is owned and the watcher exits with CMD's exit
status; it finds the log's path in FAKE_SNI_WATCHER_LOG. A relative --log is taken
in FAKE_TMPDIR, the folder of this run (fake-notifyd.py --tmpdir), when there is one.
Tests under one bus take turns for the name (see fake-notifyd.py); --private-bus
runs a bus of its own shared only with CMD.

Log lines (JSON, to --log FILE, else stderr):
  {"event": "Registered", "service", "bus_name", "path", "sender"}
  {"event": "Properties", "bus_name", "path", "properties": {name: value}}
  {"event": "Menu", "bus_name", "menu_path", "revision", "items": [{"id", "label",
     "type", "enabled", "visible", "toggle-type", "toggle-state", "children": [...]}]}
  {"event": "Signal", "bus_name", "name", "args"}
  {"event": "Activated" | "SecondaryActivated", "bus_name"}  ("error" on failure)
  {"event": "MenuClicked", "bus_name", "id", "label"}         ("error" on failure)
  {"event": "Unregistered", "bus_name"}
  {"event": "HostRegistered", "service"}
"""
import argparse
import json
import os
import signal
import subprocess
import sys
import time

import gi

gi.require_version("Gio", "2.0")
gi.require_version("GLib", "2.0")
from gi.repository import Gio, GLib  # noqa: E402

NAME = "org.kde.StatusNotifierWatcher"
PATH = "/StatusNotifierWatcher"
XML = """
<node>
  <interface name="org.kde.StatusNotifierWatcher">
    <method name="RegisterStatusNotifierItem">
      <arg type="s" name="service" direction="in"/>
    </method>
    <method name="RegisterStatusNotifierHost">
      <arg type="s" name="service" direction="in"/>
    </method>
    <property name="RegisteredStatusNotifierItems" type="as" access="read"/>
    <property name="IsStatusNotifierHostRegistered" type="b" access="read"/>
    <property name="ProtocolVersion" type="i" access="read"/>
    <signal name="StatusNotifierItemRegistered"><arg type="s"/></signal>
    <signal name="StatusNotifierItemUnregistered"><arg type="s"/></signal>
    <signal name="StatusNotifierHostRegistered"/>
    <signal name="StatusNotifierHostUnregistered"/>
  </interface>
</node>
"""
ITEM_IFACE = "org.kde.StatusNotifierItem"
MENU_IFACE = "com.canonical.dbusmenu"
ITEM_SIGNALS = ("NewTitle", "NewIcon", "NewAttentionIcon", "NewOverlayIcon", "NewToolTip",
                "NewStatus", "NewMenu")


def plain(value):
    """A D-Bus value (unpacked) as JSON; icon pixmaps are summarised."""
    if isinstance(value, (bool, int, float, str)) or value is None:
        return value
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        # a(iiay) pixmaps: [(w, h, bytes)]
        if len(value) == 3 and isinstance(value[0], int) and isinstance(value[2], (bytes, list)) \
                and not isinstance(value[1], str):
            return "<pixmap %dx%d>" % (value[0], value[1])
        return [plain(v) for v in value]
    if isinstance(value, (bytes, bytearray)):
        return "<%d bytes>" % len(value)
    return str(value)


def menu_items(layout):
    """The (ia{sv}av) layout of dbusmenu as a list of dicts (children of the root)."""
    _id, _props, children = layout
    out = []
    for child in children:
        cid, props, grand = child
        props = {k: plain(v) for k, v in props.items()}
        out.append({
            "id": cid,
            "label": props.get("label", ""),
            "type": props.get("type", "standard"),
            "enabled": props.get("enabled", True),
            "visible": props.get("visible", True),
            "toggle-type": props.get("toggle-type", ""),
            "toggle-state": props.get("toggle-state", -1),
            "children": menu_items(child) if grand else [],
        })
    return out


def find_label(items, label):
    for item in items:
        if item["label"].replace("_", "") == label.replace("_", ""):
            return item
        found = find_label(item["children"], label)
        if found:
            return found
    return None


class Watcher:
    def __init__(self, args, loop):
        self.args, self.loop = args, loop
        self.conn = None
        self.items = {}   # bus name -> {"path", "service", "subs": [...], "menu_path"}
        self.hosts = []
        self.exit_status = 0
        self.child = None
        self.child_env = None
        self.queued = False
        self.name_timeout_id = 0
        self.log = open(args.log, "w", buffering=1) if args.log else sys.stderr

    def record(self, event):
        self.log.write(json.dumps(event) + "\n")
        self.log.flush()

    def emit(self, name, value=None):
        self.conn.emit_signal(None, PATH, NAME, name, value)

    # -------------------------------------------------------------- the watcher
    def on_call(self, conn, sender, path, iface, method, params, inv):
        if method == "RegisterStatusNotifierItem":
            (service,) = params.unpack()
            if service.startswith("/"):
                bus_name, item_path = sender, service
            else:
                bus_name, item_path = service, "/StatusNotifierItem"
            inv.return_value(None)
            self.add_item(service, bus_name, item_path, sender)
        elif method == "RegisterStatusNotifierHost":
            (service,) = params.unpack()
            self.hosts.append(service)
            self.record({"event": "HostRegistered", "service": service})
            inv.return_value(None)
            self.emit("StatusNotifierHostRegistered")
        else:
            inv.return_dbus_error("org.freedesktop.DBus.Error.UnknownMethod", method)

    def on_get_property(self, conn, sender, path, iface, prop):
        if prop == "RegisteredStatusNotifierItems":
            return GLib.Variant("as", [i["id"] for i in self.items.values()])
        if prop == "IsStatusNotifierHostRegistered":
            return GLib.Variant("b", not self.args.no_host)
        if prop == "ProtocolVersion":
            return GLib.Variant("i", 0)
        return None

    def add_item(self, service, bus_name, item_path, sender):
        if bus_name in self.items:
            self.drop_item(bus_name, emit=True)
        item_id = bus_name + item_path
        subs = [self.conn.signal_subscribe(bus_name, ITEM_IFACE, None, item_path, None,
                                           Gio.DBusSignalFlags.NONE, self.on_item_signal,
                                           bus_name)]
        watch = Gio.bus_watch_name_on_connection(self.conn, bus_name,
                                                 Gio.BusNameWatcherFlags.NONE, None,
                                                 self.on_item_vanished)
        self.items[bus_name] = {"id": item_id, "path": item_path, "service": service,
                                "subs": subs, "watch": watch, "menu_path": None,
                                "acted": False}
        self.record({"event": "Registered", "service": service, "bus_name": bus_name,
                     "path": item_path, "sender": sender})
        self.emit("StatusNotifierItemRegistered", GLib.Variant("(s)", (item_id,)))
        self.read_properties(bus_name)

    def drop_item(self, bus_name, emit):
        item = self.items.pop(bus_name, None)
        if item is None:
            return
        for sub in item["subs"]:
            self.conn.signal_unsubscribe(sub)
        Gio.bus_unwatch_name(item["watch"])
        self.record({"event": "Unregistered", "bus_name": bus_name})
        if emit:
            self.emit("StatusNotifierItemUnregistered", GLib.Variant("(s)", (item["id"],)))

    def on_item_vanished(self, conn, bus_name):
        if bus_name in self.items:
            self.drop_item(bus_name, emit=True)

    # ------------------------------------------------------------------ the item
    def call(self, bus_name, path, iface, method, params, reply_type, done):
        self.conn.call(bus_name, path, iface, method, params,
                       GLib.VariantType.new(reply_type) if reply_type else None,
                       Gio.DBusCallFlags.NONE, 5000, None, done)

    def read_properties(self, bus_name):
        item = self.items.get(bus_name)
        if item is None:
            return

        def done(conn, res):
            try:
                (props,) = conn.call_finish(res).unpack()
            except GLib.Error as e:
                self.record({"event": "Properties", "bus_name": bus_name,
                             "path": item["path"], "error": e.message})
                return
            props = {k: plain(v) for k, v in sorted(props.items())}
            self.record({"event": "Properties", "bus_name": bus_name, "path": item["path"],
                         "properties": props})
            menu = props.get("Menu")
            if isinstance(menu, str) and menu.startswith("/") and menu != "/":
                self.follow_menu(bus_name, menu)
            if not item["acted"]:
                item["acted"] = True
                GLib.timeout_add(self.args.action_delay, self.act, bus_name)

        self.call(bus_name, item["path"], "org.freedesktop.DBus.Properties", "GetAll",
                  GLib.Variant("(s)", (ITEM_IFACE,)), "(a{sv})", done)

    def on_item_signal(self, conn, sender, path, iface, name, params, bus_name):
        self.record({"event": "Signal", "bus_name": bus_name, "name": name,
                     "args": plain(params.unpack())})
        if name in ITEM_SIGNALS:
            self.read_properties(bus_name)

    def follow_menu(self, bus_name, menu_path):
        item = self.items.get(bus_name)
        if item is None or not (self.args.menu or self.args.menu_click):
            return
        if item["menu_path"] != menu_path:
            item["menu_path"] = menu_path
            item["subs"].append(self.conn.signal_subscribe(
                bus_name, MENU_IFACE, "LayoutUpdated", menu_path, None,
                Gio.DBusSignalFlags.NONE,
                lambda *a: self.read_menu(bus_name, None), None))
            self.read_menu(bus_name, None)

    def read_menu(self, bus_name, then):
        item = self.items.get(bus_name)
        if item is None or item["menu_path"] is None:
            if then:
                then(None)
            return

        def done(conn, res):
            try:
                revision, layout = conn.call_finish(res).unpack()
            except GLib.Error as e:
                self.record({"event": "Menu", "bus_name": bus_name,
                             "menu_path": item["menu_path"], "error": e.message})
                if then:
                    then(None)
                return
            items = menu_items(layout)
            self.record({"event": "Menu", "bus_name": bus_name, "menu_path": item["menu_path"],
                         "revision": revision, "items": items})
            if then:
                then(items)

        self.call(bus_name, item["menu_path"], MENU_IFACE, "GetLayout",
                  GLib.Variant("(iias)", (0, -1, [])), "(u(ia{sv}av))", done)

    def act(self, bus_name):
        item = self.items.get(bus_name)
        if item is None:
            return GLib.SOURCE_REMOVE

        def pressed(event):
            def done(conn, res):
                try:
                    conn.call_finish(res)
                    self.record({"event": event, "bus_name": bus_name})
                except GLib.Error as e:
                    self.record({"event": event, "bus_name": bus_name, "error": e.message})
            return done

        if self.args.activate:
            self.call(bus_name, item["path"], ITEM_IFACE, "Activate",
                      GLib.Variant("(ii)", (0, 0)), None, pressed("Activated"))
        if self.args.secondary_activate:
            self.call(bus_name, item["path"], ITEM_IFACE, "SecondaryActivate",
                      GLib.Variant("(ii)", (0, 0)), None, pressed("SecondaryActivated"))
        if self.args.menu_click:
            self.read_menu(bus_name, lambda items: self.click_menu(bus_name, items))
        return GLib.SOURCE_REMOVE

    def click_menu(self, bus_name, items):
        label = self.args.menu_click
        item = self.items.get(bus_name)
        target = find_label(items or [], label)
        if item is None or target is None:
            self.record({"event": "MenuClicked", "bus_name": bus_name, "label": label,
                         "error": "no menu item with this label"})
            return

        def done(conn, res):
            event = {"event": "MenuClicked", "bus_name": bus_name, "id": target["id"],
                     "label": target["label"]}
            try:
                conn.call_finish(res)
            except GLib.Error as e:
                event["error"] = e.message
            self.record(event)

        self.call(bus_name, item["menu_path"], MENU_IFACE, "Event",
                  GLib.Variant("(isvu)", (target["id"], "clicked", GLib.Variant("i", 0),
                                          int(time.time()) & 0xffffffff)), None, done)

    # ------------------------------------------------------------ name and child
    def register(self, conn):
        self.conn = conn
        node = Gio.DBusNodeInfo.new_for_xml(XML)
        conn.register_object(PATH, node.interfaces[0], self.on_call, self.on_get_property,
                             None)

    def on_bus(self, conn, name):
        self.register(conn)

    def on_name(self, conn, name):
        print(f"fake-sni-watcher: owns {name}", file=sys.stderr, flush=True)
        if self.name_timeout_id:
            GLib.source_remove(self.name_timeout_id)
            self.name_timeout_id = 0
        if self.args.exec and self.child is None:
            launcher = Gio.SubprocessLauncher.new(Gio.SubprocessFlags.NONE)
            for k, v in (self.child_env or {}).items():
                launcher.setenv(k, v, True)
            try:
                self.child = launcher.spawnv(self.args.exec)
            except GLib.Error as e:
                print(f"fake-sni-watcher: cannot run {self.args.exec[0]}: {e.message}",
                      file=sys.stderr, flush=True)
                self.exit_status = 127
                self.loop.quit()
                return
            self.child.wait_async(None, self.on_child_exit)

    def on_child_exit(self, proc, res):
        proc.wait_finish(res)
        if proc.get_if_exited():
            self.exit_status = proc.get_exit_status()
        else:
            self.exit_status = 128 + proc.get_term_sig()
        self.loop.quit()

    def on_lost(self, conn, name):
        if self.child is None and conn is not None and self.args.name_timeout > 0 \
                and not self.queued:
            self.queued = True
            print(f"fake-sni-watcher: waiting for {name}", file=sys.stderr, flush=True)
            return
        print(f"fake-sni-watcher: could not own or lost {name}", file=sys.stderr, flush=True)
        self.exit_status = self.exit_status or 3
        self.loop.quit()

    def on_name_timeout(self):
        print(f"fake-sni-watcher: did not get {NAME} within {self.args.name_timeout} s",
              file=sys.stderr, flush=True)
        self.name_timeout_id = 0
        self.exit_status = 3
        self.loop.quit()
        return GLib.SOURCE_REMOVE


def main():
    ap = argparse.ArgumentParser(description="Fake StatusNotifierWatcher for tests.")
    ap.add_argument("--log", help="write one JSON line per event to this file (truncated first)")
    ap.add_argument("--menu", action="store_true", help="read the item's menu")
    ap.add_argument("--activate", action="store_true", help="call Activate on the item")
    ap.add_argument("--secondary-activate", action="store_true",
                    help="call SecondaryActivate on the item")
    ap.add_argument("--menu-click", metavar="LABEL", help="click the menu item with this label")
    ap.add_argument("--action-delay", type=int, default=200, metavar="MS")
    ap.add_argument("--no-host", action="store_true",
                    help="report that no StatusNotifierHost is registered")
    ap.add_argument("--private-bus", action="store_true",
                    help="run on a new private session bus shared only with --exec CMD")
    ap.add_argument("--name-timeout", type=float, default=60, metavar="S",
                    help="give up if the name is not ours after S seconds (0: do not queue)")
    ap.add_argument("--exec", nargs=argparse.REMAINDER, metavar="CMD")
    args = ap.parse_args()
    if args.exec is not None and not args.exec:
        ap.error("--exec needs a command")
    if args.log:
        args.log = os.path.abspath(os.path.join(os.environ.get("FAKE_TMPDIR") or ".", args.log))

    loop = GLib.MainLoop()
    w = Watcher(args, loop)
    w.child_env = {"FAKE_SNI_WATCHER_LOG": args.log} if args.log else {}
    flags = Gio.BusNameOwnerFlags.NONE
    if args.name_timeout <= 0:
        flags |= Gio.BusNameOwnerFlags.DO_NOT_QUEUE
    bus_proc = None
    if args.private_bus:
        bus_proc = subprocess.Popen(["dbus-daemon", "--session", "--nofork", "--nopidfile",
                                     "--print-address=1"],
                                    stdout=subprocess.PIPE, stdin=subprocess.DEVNULL,
                                    stderr=subprocess.DEVNULL, text=True)
        address = bus_proc.stdout.readline().strip()
        if not address:
            bus_proc.kill()
            sys.exit("fake-sni-watcher: dbus-daemon did not start")
        w.child_env["DBUS_SESSION_BUS_ADDRESS"] = address
        conn = Gio.DBusConnection.new_for_address_sync(
            address, Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT
            | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION, None, None)
        w.register(conn)
        Gio.bus_own_name_on_connection(conn, NAME, flags, w.on_name, w.on_lost)
    else:
        Gio.bus_own_name(Gio.BusType.SESSION, NAME, flags, w.on_bus, w.on_name, w.on_lost)
    if args.name_timeout > 0:
        w.name_timeout_id = GLib.timeout_add(int(args.name_timeout * 1000), w.on_name_timeout)

    def on_signal(signum):
        if w.child is not None:
            w.child.send_signal(signum)
        else:
            w.exit_status = 128 + signum
            loop.quit()
        return GLib.SOURCE_CONTINUE

    for s in (signal.SIGINT, signal.SIGTERM):
        GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, s, on_signal, s)
    loop.run()
    if w.child is not None and w.child.get_identifier() is not None:
        w.child.force_exit()
    if bus_proc is not None:
        bus_proc.terminate()
        bus_proc.wait(timeout=10)
    sys.exit(w.exit_status)


if __name__ == "__main__":
    main()
