#!/usr/bin/python3
# test-tray-scenarios.py — the real triage binary's status icon, under
# tests/fake-notifyd.py --private-bus --no-click (bubbles recorded) and
# tests/fake-sni-watcher.py on that bus (the StatusNotifierWatcher; this test
# plays the tray host that reads the item and clicks its menu):
#
#   - the item registers; Status, icon and tooltip follow the inbox (none,
#     pending, urgent); the menu lists the pending requests with their
#     deadlines, then Open Triage, Do Not Disturb, Preferences, Quit;
#   - a request's menu item opens it (the app marks it read);
#   - Do Not Disturb toggles the app's setting: ordinary requests then raise
#     no bubble, time-sensitive ones and deadlines under 5 minutes still do;
#   - with a tray there, the app does not say it runs in the background;
#   - Quit ends the app.
#
# Copyright 2026 The Triage authors
# SPDX-License-Identifier: GPL-3.0-or-later

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from apptest import (WAIT, App, Failure, Notifyd, Server, Tray, World,  # noqa: E402
                     read_marks, run, skip_without_display, wait_for)

skip_without_display()
notifyd = Notifyd()
tray = Tray(notifyd.bus)
APP_PATH = "/io/github/atptriage/Triage"
SIMPLE = [{"id": "ok", "label": "OK", "response_type": "simple"}]
URGENT = [{"id": "ok", "label": "OK", "response_type": "simple", "flags": ["time_sensitive"]}]
# A request due in five minutes and this many seconds turns urgent that much
# later (less the deadline's fraction of a second, which the post drops):
# long enough that a loaded machine has shown it as not urgent first. With
# 3 s the app could take longer than that to show it, and a test saw the
# urgent state, or its bubble, where the ordinary one was to be seen.
NEARS_IN_S = 10


class Scenario:
    """A server and the app in a world of their own; with hold_history, the
    app's history (where read marks are stored) waits to open until
    release_history () (hold-sql.c holds its connections' first statement);
    with debug, the app logs those domains' debug lines (App.wait_log ())."""

    def __init__(self, name, hold_history=False, debug=None):
        self.world = World(name)
        self.server = Server(self.world)
        env = {"debug": debug}
        self.hold = None
        if hold_history:
            self.hold = os.path.join(self.world.root, "hold-history")
            open(self.hold, "w").close()
            preload = os.environ.get("LD_PRELOAD")
            module = os.environ["TRIAGE_TEST_HOLD_SQL_MODULE"]
            env.update({"LD_PRELOAD": f"{preload} {module}" if preload else module,
                        "TRIAGE_TEST_HOLD_SQL": "PRAGMA cache_size",
                        "TRIAGE_TEST_HOLD_FILE": self.hold})
        self.app = App(self.world, **env)
        self.item = None

    def __enter__(self):
        known = tray.registered()
        self.server.start()
        self.app.start()
        self.item = tray.wait_registered(known)
        return self

    def props(self):
        return tray.properties(self.item)

    def labels(self):
        return [label for _, label, _ in tray.menu(self.item)]

    def wait_prop(self, name, value, timeout=WAIT):
        wait_for(f"the item's {name} to be {value!r}", lambda: self.props().get(name) == value,
                 timeout=timeout)

    def wait_label(self, label):
        return wait_for(f"{label!r} in the tray menu",
                        lambda: next((t for t in self.labels() if t.startswith(label)), None))

    def action_state(self, name):
        reply = notifyd.bus.call_sync("io.github.atptriage.Triage", APP_PATH, "org.gtk.Actions",
                                      "Describe", notifyd.GLib.Variant("(s)", (name,)),
                                      None, notifyd.Gio.DBusCallFlags.NONE, 5000, None)
        (enabled, ptype, state), = reply.unpack()
        return state[0] if state else None

    def history_held(self):
        return os.path.exists(self.hold + ".held")

    def release_history(self):
        os.unlink(self.hold)

    def window_opened(self):
        """Whether the app has made its window (GtkApplication publishes its
        actions on the bus as it adds it)."""
        try:
            (xml,) = notifyd.bus.call_sync("io.github.atptriage.Triage", APP_PATH + "/window",
                                           "org.freedesktop.DBus.Introspectable", "Introspect",
                                           None, notifyd.GLib.VariantType.new("(s)"),
                                           notifyd.Gio.DBusCallFlags.NO_AUTO_START, 5000,
                                           None).unpack()
        except notifyd.GLib.Error:
            return False
        return "<node name=" in xml

    def __exit__(self, *exc):
        if self.hold is not None and os.path.exists(self.hold):
            self.release_history()
        self.app.stop()
        self.server.stop()
        self.world.stop_servers()
        self.world.cleanup()


def test_item_follows_inbox():
    with Scenario("tray-item") as s:
        props = s.props()
        if props["Status"] != "Passive" or props["IconName"] != "mail-read-symbolic":
            raise Failure(f"idle item: {props['Status']} {props['IconName']}")
        if props["ToolTip"][2:] != ("Triage", "No requests waiting"):
            raise Failure(f"tooltip {props['ToolTip']}")
        if props["Menu"] != "/MenuBar" or props["Id"] != "io.github.atptriage.Triage":
            raise Failure(f"menu {props['Menu']} id {props['Id']}")

        # The deadline is the post's time plus half an hour, shown to the
        # minute: a minute may begin between the post and the check.
        posting = time.time()
        s.server.post("Deploy the tray build?", SIMPLE, deadline_in=1800)
        posted = time.time()
        s.wait_prop("Status", "Active")
        props = s.props()
        if props["IconName"] != "mail-unread-symbolic":
            raise Failure(f"pending icon {props['IconName']}")
        if props["ToolTip"][3] != "1 request waiting":
            raise Failure(f"tooltip {props['ToolTip']}")
        dues = []
        for at in (posting, posted):
            then = time.localtime(at + 1800)
            due = time.strftime("%H:%M", then)
            if then.tm_mday != time.localtime(at).tm_mday:   # half an hour before midnight
                due = f"tomorrow, {due}"
            dues.append(due)
        label = s.wait_label("Deploy the tray build?")
        if label not in [f"Deploy the tray build? — due {due}" for due in dues]:
            raise Failure(f"menu label {label!r}, wanted the deadline {' or '.join(dues)}")
        rest = s.labels()[1:]
        if rest != ["_Open Triage", "_Do Not Disturb", "_Preferences", "_Quit"]:
            raise Failure(f"menu {rest}")

        s.server.post("Rotate the keys right now?", URGENT)
        s.wait_prop("Status", "NeedsAttention")
        props = s.props()
        if props["IconName"] != "mail-mark-important-symbolic" or \
                props["ToolTip"][3] != "2 requests waiting":
            raise Failure(f"urgent item: {props['IconName']} {props['ToolTip']}")


def test_urgent_as_deadline_nears():
    with Scenario("tray-nears") as s:
        s.server.post("Due in a little over five minutes?", SIMPLE, deadline_in=300 + NEARS_IN_S)
        s.wait_prop("Status", "Active")
        # Nothing else happens: the deadline coming within five minutes is enough.
        s.wait_prop("Status", "NeedsAttention", timeout=WAIT + NEARS_IN_S)


def test_menu_opens_request():
    with Scenario("tray-open") as s:
        nid = s.server.post("Open me from the tray?", SIMPLE)
        s.wait_label("Open me from the tray?")
        if nid in read_marks(s.world):
            raise Failure("marked read before it was opened")
        tray.click(s.item, "Open me from the tray?")
        wait_for("the request opened (marked read)", lambda: nid in read_marks(s.world))


def test_menu_opens_request_before_history():
    # The app's history opens on a worker once its store has: on a disk
    # shared with builds, seconds after the first requests are listed. One
    # opened meanwhile (the tray clicked right after start) was marked in a
    # state the window dropped when the history came, and never stored.
    with Scenario("tray-open-early", hold_history=True) as s:
        wait_for("the app's history held as it opens", s.history_held)
        nid = s.server.post("Open me before the history is there?", SIMPLE)
        s.wait_label("Open me before the history is there?")
        tray.click(s.item, "Open me before the history is there?")
        wait_for("the window opened", s.window_opened)
        s.release_history()
        wait_for("the request opened (marked read)", lambda: nid in read_marks(s.world))


def test_do_not_disturb():
    with Scenario("tray-dnd") as s:
        # Told of first, so bubbles are known to work in this world.
        s.server.post("Before do not disturb?", SIMPLE)
        notifyd.wait_notify("Before do not disturb?")

        tray.click(s.item, "_Do Not Disturb")
        wait_for("the setting on", lambda: s.action_state("do-not-disturb") is True)
        s.wait_prop("OverlayIconName", "notifications-disabled-symbolic")
        toggle = next(p for _, t, p in tray.menu(s.item) if t == "_Do Not Disturb")
        if toggle.get("toggle-state") != 1:
            raise Failure(f"menu item not checked: {toggle}")

        # The ordinary ones first: the app tells of requests in the order
        # they come, so once the bubbles of the two posted after them are
        # in, any of theirs would be too.
        s.server.post("Quiet ordinary request?", SIMPLE)
        s.server.post("Quiet and due in an hour?", SIMPLE, deadline_in=3600)
        s.server.post("Quiet but time sensitive?", URGENT)
        s.server.post("Quiet but due in four minutes?", SIMPLE, deadline_in=240)
        notifyd.wait_notify("Quiet but time sensitive?")
        notifyd.wait_notify("Quiet but due in four minutes?")
        s.wait_label("Quiet and due in an hour?")
        s.wait_label("Quiet ordinary request?")
        quiet = ("Quiet ordinary request?", "Quiet and due in an hour?")
        for title in quiet:
            if notifyd.notifies(title):
                raise Failure(f"a bubble for {title!r} under do not disturb")

        # Due in a little over five minutes: silent now, urgent once its
        # deadline is five minutes away, and told then (fake-notifyd logs
        # when each bubble came), however late a loaded machine shows it.
        # Posted once the others are in, so that its quiet time is not spent
        # waiting for them.
        posting = time.time()
        s.server.post("Quiet until it draws near?", SIMPLE, deadline_in=300 + NEARS_IN_S)
        urgent_at = int(posting) + NEARS_IN_S   # the deadline drops the post's fraction
        s.wait_label("Quiet until it draws near?")
        near = wait_for("a bubble for 'Quiet until it draws near?'",
                        lambda: notifyd.notifies("Quiet until it draws near?"),
                        timeout=WAIT + NEARS_IN_S)
        early = [e for e in near if e["at"] < urgent_at]
        if early:
            raise Failure(f"a bubble for 'Quiet until it draws near?' under do not disturb, "
                          f"{urgent_at - early[0]['at']:.1f} s before its deadline was five "
                          f"minutes away")
        if near[-1]["hints"].get("urgency") != 2:
            raise Failure(f"the bubble of a request drawing near: {near[-1]['hints']}")
        for title in quiet:
            if notifyd.notifies(title):
                raise Failure(f"a bubble for {title!r} under do not disturb")

        tray.click(s.item, "_Do Not Disturb")
        wait_for("the setting off", lambda: s.action_state("do-not-disturb") is False)
        s.server.post("Loud again?", SIMPLE)
        notifyd.wait_notify("Loud again?")


def test_no_background_notice_with_tray():
    with Scenario("tray-notice", debug="triage-application") as s:
        s.server.post("Anything to say?", SIMPLE)
        notifyd.wait_notify("Anything to say?")
        # The app decides 3 s after its start (the time a tray has to show
        # the icon), and logs it; a notice given then would go out before
        # the bubble of a request posted after that (bubbles go in order).
        s.app.wait_log("the app's background check", "Background check: ")
        s.server.post("Anything to say, checked?", SIMPLE)
        notifyd.wait_notify("Anything to say, checked?")
        # No app under this test's tray ever says it.
        if notifyd.notifies("running in the background"):
            raise Failure("the app said it runs in the background, with a tray showing it")


def test_quit():
    with Scenario("tray-quit") as s:
        proc = s.app.proc
        tray.click(s.item, "_Quit")
        try:
            status = proc.wait(timeout=10)
        except Exception:
            raise Failure("the app did not quit from the tray menu") from None
        if status != 0:
            raise Failure(f"the app quit with status {status}")


run([
    ("the item follows the inbox: status, icon, tooltip, menu", test_item_follows_inbox),
    ("an item turns urgent as a deadline comes near", test_urgent_as_deadline_nears),
    ("a request's menu item opens it", test_menu_opens_request),
    ("a request opened before the app's history is there stays opened",
     test_menu_opens_request_before_history),
    ("do not disturb from the tray silences ordinary bubbles only", test_do_not_disturb),
    ("no background notice where a tray shows the icon", test_no_background_notice_with_tray),
    ("Quit in the tray menu ends the app", test_quit),
])
