#!/usr/bin/python3
# selftest-notify-client.py — checks tests/fake-notifyd.py the way the app uses it:
# a client sends a notification with two actions and expects the fake server to
# press the expected one, then to close the notification (reason 2), and the log to
# record the call. Runs the fake on a private bus: once pressing the first action
# (the default), once with --click deny. Then two runs at once with --tmpdir and
# the same relative --log: each client finds its own log in a folder of its own
# (FAKE_TMPDIR, with a folder for D-Bus service files), and only its own
# notification there; the folders are gone once the runs end.
#
# Copyright 2026 The Triage authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
#   selftest-notify-client.py FAKE_NOTIFYD            the test
#   selftest-notify-client.py --client KEY LOG        the client (run by the fake)
#   selftest-notify-client.py --tmpdir-client TITLE   the client of a --tmpdir run

import json
import os
import subprocess
import sys
import tempfile


def drive(fake):
    for click, expected in (([], "approve"), (["--click", "deny"], "deny")):
        with tempfile.TemporaryDirectory() as tmp:
            log = os.path.join(tmp, "notify.log")
            argv = [sys.executable, fake, "--private-bus", "--log", log, *click,
                    "--click-delay", "50", "--exec",
                    sys.executable, os.path.abspath(__file__), "--client", expected, log]
            rc = subprocess.run(argv, timeout=60).returncode
            if rc != 0:
                sys.exit(f"{' '.join(argv)} exited with {rc}")
    runs = [subprocess.Popen([sys.executable, fake, "--private-bus", "--tmpdir", "--no-click",
                              "--log", "notify.log", "--exec", sys.executable,
                              os.path.abspath(__file__), "--tmpdir-client", title],
                             stdout=subprocess.PIPE, text=True)
            for title in ("First run?", "Second run?")]
    folders = []
    for run in runs:
        out, _ = run.communicate(timeout=60)
        if run.returncode != 0:
            sys.exit(f"a --tmpdir run exited with {run.returncode}")
        folders.append(out.strip())
    if folders[0] == folders[1] or any(os.path.exists(f) for f in folders):
        sys.exit(f"--tmpdir runs' folders: {folders} (each its own, removed after)")
    print("ok")
    sys.exit(0)


def tmpdir_client(title):
    """Under fake-notifyd.py --tmpdir: its log in FAKE_TMPDIR, only this run's there."""
    tmpdir, log = os.environ["FAKE_TMPDIR"], os.environ["FAKE_NOTIFYD_LOG"]
    if log != os.path.join(tmpdir, "notify.log") or \
            not os.path.isdir(os.path.join(tmpdir, "dbus-1", "services")):
        sys.exit(f"FAKE_TMPDIR {tmpdir}, FAKE_NOTIFYD_LOG {log}")
    import gi
    gi.require_version("Gio", "2.0")
    from gi.repository import Gio, GLib
    bus = Gio.bus_get_sync(Gio.BusType.SESSION)
    bus.call_sync("org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                  "org.freedesktop.Notifications", "Notify",
                  GLib.Variant("(susssasa{sv}i)", ("selftest", 0, "", title, "", [], {}, -1)),
                  GLib.VariantType.new("(u)"), Gio.DBusCallFlags.NONE, 5000, None)
    with open(log) as f:
        summaries = [json.loads(line)["summary"] for line in f]
    if summaries != [title]:
        sys.exit(f"the log of the run of {title!r} holds {summaries}")
    print(tmpdir)
    sys.exit(0)


if len(sys.argv) == 2:
    drive(sys.argv[1])
if len(sys.argv) == 3 and sys.argv[1] == "--tmpdir-client":
    tmpdir_client(sys.argv[2])
if len(sys.argv) != 4 or sys.argv[1] != "--client":
    sys.exit("usage: selftest-notify-client.py FAKE_NOTIFYD")
del sys.argv[1]

import gi  # noqa: E402

gi.require_version("Gio", "2.0")
from gi.repository import Gio, GLib  # noqa: E402

expected, log = sys.argv[1], sys.argv[2]
bus = Gio.bus_get_sync(Gio.BusType.SESSION)
signals = []
loop = GLib.MainLoop()


def on_signal(conn, sender, path, iface, name, params):
    signals.append([name, list(params.unpack())])
    if name == "NotificationClosed":
        loop.quit()


bus.signal_subscribe("org.freedesktop.Notifications", "org.freedesktop.Notifications", None,
                     "/org/freedesktop/Notifications", None, Gio.DBusSignalFlags.NONE, on_signal)
reply = bus.call_sync(
    "org.freedesktop.Notifications", "/org/freedesktop/Notifications",
    "org.freedesktop.Notifications", "Notify",
    GLib.Variant("(susssasa{sv}i)", ("selftest", 0, "", "Deploy?", "to production",
                                     ["approve", "Approve", "deny", "Deny"],
                                     {"urgency": GLib.Variant("y", 2)}, -1)),
    GLib.VariantType.new("(u)"), Gio.DBusCallFlags.NONE, 5000, None)
(nid,) = reply.unpack()
GLib.timeout_add_seconds(10, lambda: (signals.append(["timeout"]), loop.quit()))
loop.run()

want = [["ActivationToken", [nid, "fake-token"]], ["ActionInvoked", [nid, expected]],
        ["NotificationClosed", [nid, 2]]]
if signals != want:
    sys.exit(f"signals {signals}, expected {want}")
with open(log) as f:
    events = [json.loads(line) for line in f]
notify = [e for e in events if e["event"] == "Notify"]
if len(notify) != 1 or notify[0]["summary"] != "Deploy?" or notify[0]["hints"] != {"urgency": 2} \
        or notify[0]["actions"] != [["approve", "Approve"], ["deny", "Deny"]]:
    sys.exit(f"log does not record the Notify call: {events}")
