#!/usr/bin/python3
# test-dogtail.py — the real triage binary driven through AT-SPI (dogtail) the way
# a person would: open a request from its notification, tick two boxes of a
# multi-choice and send, open the next request from the list, type a text answer
# and send it from the keyboard, open a third, back out of its confirmation with
# Escape, then confirm the irreversible action, and close the window
# (the app stays, and still raises bubbles). Every answer is checked on the real
# triage-server, and every control met must have a spoken name. Then a person
# triages three requests with the keyboard alone: Ctrl+F, Down, Enter, Space;
# the next request opens by itself with the keyboard on its answer.
#
# Runs under tests/fake-notifyd.py --private-bus --no-click, with GTK_A11Y
# unset for the app (the accessibility bus is D-Bus-activated on that bus).
#
# Copyright 2026 The Triage authors
# SPDX-License-Identifier: GPL-3.0-or-later

import os
import sys
import time

# G_DEBUG=fatal-warnings is for our programs, not for the AT-SPI libraries this
# process loads (they warn about objects that vanish). Nor can the app keep it
# here: GTK 4.8 itself warns when asked for screen coordinates over AT-SPI,
# which is how dogtail finds where to click (the window is at 0,0 under Xvfb,
# so the positions are right). The other UI tests keep warnings fatal.
os.environ.pop("G_DEBUG", None)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from apptest import App, Failure, Notifyd, Server, World, run, wait_for  # noqa: E402

import dogtail.config  # noqa: E402

dogtail.config.config.checkForA11y = False
# GTK 4.8 gives only windows the "showing" state, so searches take every
# visible node; the helpers below look where only one such node can be.
dogtail.config.config.searchShowingOnly = False
dogtail.config.config.defaultDelay = 0.2
dogtail.config.config.actionDelay = 0.2
dogtail.config.config.typingDelay = 0.02
dogtail.config.config.searchCutoffCount = 10
dogtail.config.config.logDebugToStdOut = False
dogtail.config.config.logDebugToFile = False

from dogtail import rawinput  # noqa: E402
from dogtail.predicate import GenericPredicate  # noqa: E402
from dogtail.tree import root  # noqa: E402

MULTI = [{"id": "teams", "label": "Pick teams", "response_type": "multi_choice",
          "options": [{"value": "engineering", "label": "Engineering"},
                      {"value": "security", "label": "Security"},
                      {"value": "product", "label": "Product"}],
          "constraints": {"min_selections": 1, "max_selections": 2}}]
TEXT = [{"id": "reason", "label": "Reason", "response_type": "text",
         "constraints": {"min_length": 5, "max_length": 200}}]
IRREVERSIBLE = [{"id": "drop", "label": "Drop the database", "response_type": "simple",
                 "flags": ["irreversible"]}]

notifyd = Notifyd()
APP_ID = "io.github.atptriage.Triage"
APP_PATH = "/io/github/atptriage/Triage"


def find(parent, what, role=None, name=None, timeout=15):
    """The first showing node with that role and name (retried until it shows)."""
    predicate = GenericPredicate(name=name, roleName=role)
    return wait_for(what, lambda: parent.findChild(predicate, retry=False, requireResult=False),
                    timeout=timeout, interval=0.2)


CONTROL_ROLES = {"push button", "toggle button", "check box", "radio button", "text",
                 "spin button", "slider", "combo box", "menu button"}


def assert_controls_named(parent, where):
    """Every control a person can operate has a name a screen reader can say
    (GTK falls back to the widget's class name, e.g. "GtkMenuButton")."""
    nameless = [f"{n.roleName} {n.name!r}"
                for n in parent.findChildren(lambda n: n.roleName in CONTROL_ROLES)
                if not n.name.strip() or n.name.startswith(("Gtk", "Adw", "Triage"))
                or "_" in n.name]
    if nameless:
        raise Failure(f"controls without a proper accessible name in {where}: {nameless}")


def test_person():
    world = World("dogtail")
    server = Server(world)
    # test_env sets GTK_A11Y=none, which hides the app from AT-SPI: drop it.
    # Started as a person starts it: its window opens at once.
    app = App(world, service=False, GTK_A11Y=None, NO_AT_BRIDGE=None)
    try:
        server.start()
        app.start()
        multi = server.post("Notify which teams?", MULTI)
        text = server.post("Why the rollback?", TEXT)
        drop = server.post("Drop the staging database?", IRREVERSIBLE)

        # 1. Open the first request from its bubble (its default action).
        bubble = notifyd.wait_notify("Notify which teams?")
        notifyd.wait_notify("Drop the staging database?")
        notifyd.press(bubble["id"], "default")

        triage = wait_for("triage on the accessibility bus",
                          lambda: next((a for a in root.applications()
                                        if a.name == "triage"), None), timeout=20, interval=0.3)

        find(triage, "the Engineering box", "check box", "Engineering")
        assert_controls_named(triage, "the window with a multi-choice request")
        find(triage, "the Engineering box", "check box", "Engineering").click()
        find(triage, "the Security box", "check box", "Security").click()
        find(triage, "the send button", "push button", "Send “Pick teams”").click()
        answered = server.wait_responded(multi)
        if sorted(answered["response"]["response_data"]) != ["engineering", "security"]:
            raise Failure(f"multi-choice recorded as {answered['response']}")

        # 2. The next request, from the list; type the reason.
        find(triage, "the text request in the list", "label", "Why the rollback?").click()
        field = find(triage, "the text field", "text", "Reason")
        assert_controls_named(triage, "the window with a text request")
        field.click()
        wait_for("the text field to have the focus", lambda: field.focused, interval=0.1)
        rawinput.typeText("The canary failed twice")
        try:
            wait_for("the typed text in the field",
                     lambda: field.text == "The canary failed twice", interval=0.1)
        except Failure as e:
            raise Failure(f"{e}; the field holds {field.text!r}") from None
        # Sent from the keyboard (Ctrl+Enter), the mouse left alone.
        find(triage, "the send button", "push button", "Send “Reason”")
        rawinput.keyCombo("<Control>Return")
        answered = server.wait_responded(text)
        if answered["response"]["response_data"] != "The canary failed twice":
            raise Failure(f"text recorded as {answered['response']}")

        # 3. The irreversible one: the confirmation dialog must come first, and
        # Escape backs out of it.
        find(triage, "the third request in the list", "label", "Drop the staging database?").click()
        action = find(triage, "the action button", "push button", "Drop the database")
        action.click()
        find(triage, "the confirmation dialog", "dialog", "Drop the database?")
        rawinput.pressKey("Escape")
        wait_for("the dialog to go", lambda: not [c for c in triage.children
                                                   if c.roleName == "dialog"])
        time.sleep(0.3)
        if server.get(drop)["status"] == "responded":
            raise Failure("Escape sent the irreversible action")
        action.click()
        dialog = find(triage, "the confirmation dialog", "dialog", "Drop the database?")
        # The confirm button names the action; it is not the default (Cancel is).
        confirm = find(dialog, "the confirmation's button", "push button", "Drop the database")
        find(dialog, "the confirmation's Cancel button", "push button", "Cancel")
        assert_controls_named(dialog, "the confirmation")
        if server.get(drop)["status"] == "responded":
            raise Failure("an irreversible action was sent before it was confirmed")
        # The dialog refuses a confirmation in its first moment: its button
        # turns sensitive once it accepts one (under load, later than 800 ms).
        wait_for("the confirmation's button to accept a click", lambda: confirm.sensitive,
                 interval=0.1)
        confirm.click()
        answered = server.wait_responded(drop)
        if answered["response"]["action_id"] != "drop":
            raise Failure(f"recorded {answered['response']}")

        # 4. Closing the window leaves the app running, and still told of requests.
        frame = find(triage, "the main window", "frame", "Triage")
        find(frame, "the window's Close button", "push button", "Close").click()
        def window_closed():
            try:
                return not [c for c in triage.children if c.roleName == "frame"]
            except Exception:  # noqa: BLE001 — the whole app went away: said just below
                return True
        wait_for("the window to close", window_closed)
        time.sleep(1.0)
        if app.proc.poll() is not None:
            raise Failure(f"the app quit (status {app.proc.returncode}) when its window closed")
        server.post("Still listening?", TEXT)
        notifyd.wait_notify("Still listening?")
    finally:
        app.stop()
        server.stop()
        world.cleanup()


def app_on_bus():
    reply = notifyd.bus.call_sync("org.freedesktop.DBus", "/org/freedesktop/DBus",
                                  "org.freedesktop.DBus", "NameHasOwner",
                                  notifyd.GLib.Variant("(s)", (APP_ID,)), None,
                                  notifyd.Gio.DBusCallFlags.NONE, 5000, None)
    return reply.unpack()[0]


def test_open_before_loaded():
    """A request opened the moment the app starts (a bubble of an earlier run,
    D-Bus activation) is shown once it has arrived, not refused."""
    world = World("dogtail-early")
    server = Server(world)
    app = App(world, GTK_A11Y=None, NO_AT_BRIDGE=None)
    try:
        server.start()
        nid = server.post("Opened before it arrived?", TEXT)
        app.start()
        wait_for("the app on the bus", app_on_bus, interval=0.01)
        notifyd.bus.call_sync(APP_ID, APP_PATH, "org.gtk.Actions", "Activate",
                              notifyd.GLib.Variant("(sava{sv})",
                                                   ("open-request", [notifyd.GLib.Variant("s", nid)],
                                                    {})),
                              None, notifyd.Gio.DBusCallFlags.NONE, 5000, None)
        triage = wait_for("triage on the accessibility bus",
                          lambda: next((a for a in root.applications()
                                        if a.name == "triage"), None), timeout=20, interval=0.3)
        find(triage, "the request in the decision view", "heading", "Opened before it arrived?")
        if app.proc.poll() is not None:
            raise Failure(f"the app ended with status {app.proc.returncode}")
    finally:
        app.stop()
        server.stop()
        world.cleanup()


APPROVE = [{"id": "approve", "label": "Approve", "response_type": "simple"}]


def test_keyboard_only():
    """Keyboard triage: to the list, open, answer, and the next one opens by
    itself, three times, with keys alone (the pointer only rests over the
    window, which has the keyboard then: there is no window manager)."""
    world = World("dogtail-keys")
    server = Server(world)
    app = App(world, service=False, GTK_A11Y=None, NO_AT_BRIDGE=None)
    try:
        server.start()
        # Sorted by deadline: first, second, then the one without a deadline.
        first = server.post("Keys first: restart the cache?", APPROVE, deadline_in=600)
        second = server.post("Keys second: why the rollback?", TEXT, deadline_in=1200)
        third = server.post("Keys third: tag the release?", APPROVE)
        app.start()
        triage = wait_for("triage on the accessibility bus",
                          lambda: next((a for a in root.applications()
                                        if a.name == "triage"), None), timeout=20, interval=0.3)
        find(triage, "the third request in the list", "label", "Keys third: tag the release?")
        rawinput.absoluteMotion(400, 300)
        time.sleep(0.5)

        rawinput.keyCombo("<Control>f")                  # the search entry
        search = find(triage, "the search entry", None, "Search pending requests")
        wait_for("the search to have the keyboard", lambda: search.focused, interval=0.1)
        rawinput.pressKey("Down")                        # the list, first request
        rawinput.pressKey("Return")                      # open it: the keyboard on Approve
        button = find(triage, "the first request's button", "push button", "Approve")
        wait_for("Approve to have the keyboard", lambda: button.focused, interval=0.1)
        rawinput.pressKey("space")
        server.wait_responded(first)

        # Stored: the next request opens by itself, its text field ready.
        field = find(triage, "the second request's text field", "text", "Reason")
        wait_for("the text field to have the keyboard", lambda: field.focused, interval=0.1)
        rawinput.typeText("Canary failed twice")
        try:
            wait_for("the typed text", lambda: field.text == "Canary failed twice", interval=0.1)
        except Failure as e:
            raise Failure(f"{e}; the field holds {field.text!r}") from None
        rawinput.keyCombo("<Control>Return")
        answered = server.wait_responded(second)
        if answered["response"]["response_data"] != "Canary failed twice":
            raise Failure(f"text recorded as {answered['response']}")

        # And the third.
        wait_for("the third request shown",
                 lambda: find(triage, "the third request's heading", "heading",
                              "Keys third: tag the release?"), interval=0.2)
        wait_for("its Approve to have the keyboard",
                 lambda: any(b.focused for b in triage.findChildren(
                     GenericPredicate(name="Approve", roleName="push button"))), interval=0.1)
        rawinput.pressKey("space")
        server.wait_responded(third)
    finally:
        app.stop()
        server.stop()
        world.cleanup()


run([("a person answers three requests through the accessibility tree", test_person),
     ("keyboard triage: open, answer, next, with keys alone", test_keyboard_only),
     ("a request opened before it arrived is shown once it does", test_open_before_loaded)])
