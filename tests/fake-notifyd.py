#!/usr/bin/python3
# fake-notifyd.py — a fake org.freedesktop.Notifications server for headless tests.
#
# Copyright 2026 The Triage authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Fake org.freedesktop.Notifications server for headless tests (GDBus via python3-gi).

Records every Notify() and CloseNotification() call as one JSON line (to --log FILE,
else stderr) and "clicks" an action of each notification that has actions: after
--click-delay ms it emits ActivationToken(id, token), ActionInvoked(id, key), then
NotificationClosed(id, 2). Which action:
  (default)          the first action of the notification
  --click KEY        the action with that key, e.g. --click deny (not clicked if the
                     notification has no such action; the log says so)
  --no-click         none; the test presses buttons itself through the control
                     interface below

  fake-notifyd.py [--log FILE] [--no-click | --click KEY] [--click-delay MS]
                  [--replace] [--private-bus] [--tmpdir] [--name-timeout S]
                  [--capabilities CAP,...] [--exec CMD ARG...]

--capabilities names what GetCapabilities answers (default
actions,body,body-markup,persistence): a server without body-markup, or
without actions, as some are.

With --exec, CMD is started once the name is owned and the server exits with CMD's
exit status (a meson test wrapper). Without --exec it serves until SIGTERM/SIGINT.
CMD finds the log's path in FAKE_NOTIFYD_LOG.

--tmpdir makes a folder for this run alone, FAKE_TMPDIR in CMD's environment: a
relative --log is written there, as is fake-sni-watcher.py's under CMD, and with
--private-bus the bus also starts the programs whose D-Bus service files a test
puts in FAKE_TMPDIR/dbus-1/services. It is removed when CMD succeeds, and kept
(its path said on standard error) when CMD fails. Two runs of one test at once
(a test run again beside the suite) then never write each other's logs.

Several tests under one bus: the name is queued for, so tests that run in parallel
take turns (each CMD starts only once its server owns the name); after
--name-timeout seconds (default 60) without the name it gives up with status 3.
--private-bus instead starts a bus of its own (dbus-daemon --session) for this
server and CMD: full isolation, but nothing else from the outer session (no
unlocked keyring) is there.

Control interface, at /org/freedesktop/Notifications, for tests that press
buttons themselves:
  io.github.atptriage.Triage.FakeNotifyd.InvokeAction(u id, s key)
  io.github.atptriage.Triage.FakeNotifyd.Close(u id, u reason)
  io.github.atptriage.Triage.FakeNotifyd.GetNotifications() -> s   (JSON list of the
                                                                  open notifications)
Log lines: {"event": "Notify", "id", "app_name", "replaces_id", "summary", "body",
"icon", "actions": [[key, label]...], "hints": {name: value}, "timeout", "sender",
"at": when it came, in seconds since the epoch},
{"event": "CloseNotification", "id"}, {"event": "ActionInvoked", "id", "action"},
{"event": "NotificationClosed", "id", "reason"}, {"event": "NoSuchAction", "id",
"action"}.
"""
import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import gi

gi.require_version("Gio", "2.0")
gi.require_version("GLib", "2.0")
from gi.repository import Gio, GLib  # noqa: E402

XML = """
<node>
  <interface name="org.freedesktop.Notifications">
    <method name="GetCapabilities"><arg type="as" direction="out"/></method>
    <method name="Notify">
      <arg type="s" name="app_name" direction="in"/>
      <arg type="u" name="replaces_id" direction="in"/>
      <arg type="s" name="app_icon" direction="in"/>
      <arg type="s" name="summary" direction="in"/>
      <arg type="s" name="body" direction="in"/>
      <arg type="as" name="actions" direction="in"/>
      <arg type="a{sv}" name="hints" direction="in"/>
      <arg type="i" name="expire_timeout" direction="in"/>
      <arg type="u" name="id" direction="out"/>
    </method>
    <method name="CloseNotification"><arg type="u" name="id" direction="in"/></method>
    <method name="GetServerInformation">
      <arg type="s" name="name" direction="out"/>
      <arg type="s" name="vendor" direction="out"/>
      <arg type="s" name="version" direction="out"/>
      <arg type="s" name="spec_version" direction="out"/>
    </method>
    <signal name="NotificationClosed"><arg type="u"/><arg type="u"/></signal>
    <signal name="ActionInvoked"><arg type="u"/><arg type="s"/></signal>
    <signal name="ActivationToken"><arg type="u"/><arg type="s"/></signal>
  </interface>
  <interface name="io.github.atptriage.Triage.FakeNotifyd">
    <method name="InvokeAction">
      <arg type="u" name="id" direction="in"/>
      <arg type="s" name="key" direction="in"/>
    </method>
    <method name="Close">
      <arg type="u" name="id" direction="in"/>
      <arg type="u" name="reason" direction="in"/>
    </method>
    <method name="GetNotifications"><arg type="s" direction="out"/></method>
  </interface>
</node>
"""
PATH = "/org/freedesktop/Notifications"
IFACE = "org.freedesktop.Notifications"
CONTROL = "io.github.atptriage.Triage.FakeNotifyd"


def plain(value):
    """A hint value as JSON: simple types as they are, image data summarised."""
    if isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (list, tuple)):
        if len(value) == 7 and isinstance(value[6], (bytes, bytearray, list)):
            return "<image-data %dx%d>" % (value[0], value[1])
        return [plain(v) for v in value]
    if isinstance(value, (bytes, bytearray)):
        return "<%d bytes>" % len(value)
    return str(value)


class Server:
    def __init__(self, args, loop):
        self.args, self.loop = args, loop
        self.next_id = 1
        self.conn = None
        self.open = {}   # id -> the Notify record
        self.exit_status = 0
        self.child = None
        self.child_env = None
        self.log = open(args.log, "w", buffering=1) if args.log else sys.stderr

    def emit(self, name, sig, value):
        self.conn.emit_signal(None, PATH, IFACE, name, GLib.Variant(sig, value))

    def record(self, event):
        self.log.write(json.dumps(event) + "\n")
        self.log.flush()

    def close(self, nid, reason):
        if self.open.pop(nid, None) is not None:
            self.record({"event": "NotificationClosed", "id": nid, "reason": reason})
            self.emit("NotificationClosed", "(uu)", (nid, reason))

    def click(self, nid, key):
        if nid not in self.open:
            return GLib.SOURCE_REMOVE   # closed or replaced meanwhile
        self.record({"event": "ActionInvoked", "id": nid, "action": key})
        self.emit("ActivationToken", "(us)", (nid, "fake-token"))
        self.emit("ActionInvoked", "(us)", (nid, key))
        self.close(nid, 2)  # 2 = dismissed by the user
        return GLib.SOURCE_REMOVE

    def on_call(self, conn, sender, path, iface, method, params, inv):
        if iface == CONTROL:
            return self.on_control(method, params, inv)
        if method == "GetCapabilities":
            inv.return_value(GLib.Variant("(as)", (self.args.capabilities,)))
        elif method == "GetServerInformation":
            inv.return_value(GLib.Variant("(ssss)", ("fake-notifyd", "tests", "1.0", "1.2")))
        elif method == "CloseNotification":
            (nid,) = params.unpack()
            self.record({"event": "CloseNotification", "id": nid})
            inv.return_value(None)
            self.close(nid, 3)  # 3 = closed by a call to CloseNotification
        elif method == "Notify":
            app, replaces, icon, summary, body, actions, hints, timeout = params.unpack()
            if replaces and replaces in self.open:
                nid = replaces
            else:
                nid = self.next_id
                self.next_id += 1
            pairs = [[actions[i], actions[i + 1]] for i in range(0, len(actions) - 1, 2)]
            event = {"event": "Notify", "id": nid, "app_name": app, "replaces_id": replaces,
                     "summary": summary, "body": body, "icon": icon, "actions": pairs,
                     "hints": {k: plain(v) for k, v in sorted(hints.items())},
                     "timeout": timeout, "sender": sender, "at": time.time()}
            self.open[nid] = event
            self.record(event)
            inv.return_value(GLib.Variant("(u)", (nid,)))
            self.schedule_click(nid, pairs)
        else:
            inv.return_dbus_error("org.freedesktop.DBus.Error.UnknownMethod", method)

    def schedule_click(self, nid, pairs):
        if not pairs or self.args.no_click:
            return
        keys = [p[0] for p in pairs]
        key = self.args.click if self.args.click is not None else keys[0]
        if key not in keys:
            self.record({"event": "NoSuchAction", "id": nid, "action": key})
            return
        GLib.timeout_add(self.args.click_delay, self.click, nid, key)

    def on_control(self, method, params, inv):
        if method == "InvokeAction":
            nid, key = params.unpack()
            if nid not in self.open:
                return inv.return_dbus_error(CONTROL + ".NoSuchNotification", str(nid))
            self.click(nid, key)
            inv.return_value(None)
        elif method == "Close":
            nid, reason = params.unpack()
            self.close(nid, reason)
            inv.return_value(None)
        elif method == "GetNotifications":
            inv.return_value(GLib.Variant("(s)", (json.dumps(list(self.open.values())),)))
        else:
            inv.return_dbus_error("org.freedesktop.DBus.Error.UnknownMethod", method)

    def register(self, conn):
        self.conn = conn
        node = Gio.DBusNodeInfo.new_for_xml(XML)
        for info in node.interfaces:
            conn.register_object(PATH, info, self.on_call, None, None)

    def on_bus(self, conn, name):
        self.register(conn)

    def on_name(self, conn, name):
        print(f"fake-notifyd: owns {name}", file=sys.stderr, flush=True)
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
                print(f"fake-notifyd: cannot run {self.args.exec[0]}: {e.message}",
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
        if self.child is not None or conn is None:
            print(f"fake-notifyd: lost {name}", file=sys.stderr, flush=True)
            self.exit_status = self.exit_status or 3
        elif not self.args.replace and self.args.name_timeout > 0 and not self.queued:
            # Queued behind another test's server: NameAcquired comes later.
            self.queued = True
            print(f"fake-notifyd: waiting for {name}", file=sys.stderr, flush=True)
            return
        else:
            print(f"fake-notifyd: could not own {name} (another server running?)",
                  file=sys.stderr, flush=True)
            self.exit_status = 3
        self.loop.quit()

    def on_name_timeout(self):
        print(f"fake-notifyd: did not get {IFACE} within {self.args.name_timeout} s",
              file=sys.stderr, flush=True)
        self.name_timeout_id = 0
        self.exit_status = 3
        self.loop.quit()
        return GLib.SOURCE_REMOVE


def start_private_bus(data_dir=None):
    """Start a dbus-daemon of our own, which also looks for service files in
    @data_dir/dbus-1/services; returns (process, address)."""
    env = dict(os.environ)
    if data_dir is not None:
        os.makedirs(os.path.join(data_dir, "dbus-1", "services"))
        env["XDG_DATA_DIRS"] = ":".join(
            [data_dir, os.environ.get("XDG_DATA_DIRS") or "/usr/local/share:/usr/share"])
    proc = subprocess.Popen(["dbus-daemon", "--session", "--nofork", "--nopidfile",
                             "--print-address=1"],
                            stdout=subprocess.PIPE, stdin=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, text=True, env=env)
    address = proc.stdout.readline().strip()
    if not address:
        proc.kill()
        sys.exit("fake-notifyd: dbus-daemon did not start")
    return proc, address


def main():
    ap = argparse.ArgumentParser(description="Fake notification server for tests.")
    ap.add_argument("--log", help="write one JSON line per event to this file (truncated first)")
    clicks = ap.add_mutually_exclusive_group()
    clicks.add_argument("--no-click", action="store_true", help="never press an action")
    clicks.add_argument("--click", metavar="KEY", help="press the action with this key")
    ap.add_argument("--click-delay", type=int, default=300, metavar="MS")
    ap.add_argument("--replace", action="store_true",
                    help="take the name from a server that allows replacement")
    ap.add_argument("--private-bus", action="store_true",
                    help="run on a new private session bus shared only with --exec CMD")
    ap.add_argument("--tmpdir", action="store_true",
                    help="a folder of this run's own for relative logs (FAKE_TMPDIR)")
    ap.add_argument("--name-timeout", type=float, default=60, metavar="S",
                    help="give up if the name is not ours after S seconds (0: do not queue)")
    ap.add_argument("--capabilities", metavar="CAP,...",
                    type=lambda text: [c for c in text.split(",") if c],
                    default=["actions", "body", "body-markup", "persistence"],
                    help="what GetCapabilities answers, comma-separated")
    ap.add_argument("--exec", nargs=argparse.REMAINDER, metavar="CMD")
    args = ap.parse_args()
    if args.exec is not None and not args.exec:
        ap.error("--exec needs a command")

    tmpdir = tempfile.mkdtemp(prefix="fake-notifyd-") if args.tmpdir else None
    if args.log:
        args.log = os.path.join(tmpdir or os.environ.get("FAKE_TMPDIR") or ".", args.log)
        args.log = os.path.abspath(args.log)

    loop = GLib.MainLoop()
    srv = Server(args, loop)
    srv.queued = False
    srv.name_timeout_id = 0
    srv.child_env = {}
    if args.log:
        srv.child_env["FAKE_NOTIFYD_LOG"] = args.log
    if tmpdir is not None:
        srv.child_env["FAKE_TMPDIR"] = tmpdir

    bus_proc = None
    flags = Gio.BusNameOwnerFlags.NONE
    if args.replace:
        flags |= Gio.BusNameOwnerFlags.REPLACE | Gio.BusNameOwnerFlags.ALLOW_REPLACEMENT
    if args.name_timeout <= 0 and not args.replace:
        flags |= Gio.BusNameOwnerFlags.DO_NOT_QUEUE
    if args.private_bus:
        bus_proc, address = start_private_bus(tmpdir)
        srv.child_env["DBUS_SESSION_BUS_ADDRESS"] = address
        conn = Gio.DBusConnection.new_for_address_sync(
            address, Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT
            | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION, None, None)
        srv.register(conn)
        Gio.bus_own_name_on_connection(conn, IFACE, flags, srv.on_name, srv.on_lost)
    else:
        Gio.bus_own_name(Gio.BusType.SESSION, IFACE, flags, srv.on_bus, srv.on_name,
                         srv.on_lost)
    if args.name_timeout > 0:
        srv.name_timeout_id = GLib.timeout_add(int(args.name_timeout * 1000),
                                               srv.on_name_timeout)

    def on_signal(signum):
        if srv.child is not None:
            srv.child.send_signal(signum)   # the child's exit ends the loop
        else:
            srv.exit_status = 128 + signum
            loop.quit()
        return GLib.SOURCE_CONTINUE

    for s in (signal.SIGINT, signal.SIGTERM):
        GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, s, on_signal, s)
    loop.run()
    if srv.child is not None and srv.child.get_identifier() is not None:
        srv.child.force_exit()
    if bus_proc is not None:
        bus_proc.terminate()
        bus_proc.wait(timeout=10)
    if tmpdir is not None and srv.exit_status == 0:
        shutil.rmtree(tmpdir, ignore_errors=True)
    elif tmpdir is not None:
        print(f"fake-notifyd: this run's logs are kept in {tmpdir}", file=sys.stderr, flush=True)
    sys.exit(srv.exit_status)


if __name__ == "__main__":
    main()
