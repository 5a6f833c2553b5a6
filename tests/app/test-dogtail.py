#!/usr/bin/python3
# test-dogtail.py — the real triage binary driven through AT-SPI (dogtail) the way
# a person would: open a request from its notification, tick two boxes of a
# multi-choice and send, open the next request from the list, type a text answer
# and send it from the keyboard, open a third, back out of its confirmation with
# Escape, then confirm the irreversible action, and close the window
# (the app stays, and still raises bubbles). Every answer is checked on the real
# triage-server, and every control met must have a spoken name. Then a person
# triages three requests with the keyboard alone: Ctrl+F, Down, Enter, Tab,
# Space; each request opens with the keyboard on its heading (Enter there
# answers nothing), the next by itself after an answer. And a
# request with all seven response types, settled in each of the five ways,
# still shows every action's label and control (insensitive), names the
# outcome in its banner and marks the action chosen, as a screen reader
# finds them. The status pages' buttons (the empty inbox's "Copy Command",
# "Clear Filters" of a search without results) say their label once.
#
# Runs under tests/fake-notifyd.py --private-bus --no-click, with GTK_A11Y
# unset for the app (the accessibility bus is D-Bus-activated on that bus).
#
# Copyright 2026 The Triage authors
# SPDX-License-Identifier: GPL-3.0-or-later

import os
import sqlite3
import sys
import uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from a11ytest import (GenericPredicate, assert_no_type_names, find, find_app, has_keyboard,  # noqa: E402  (dogtail first)
                      rawinput, tab_to)
from apptest import App, Failure, Notifyd, Server, World, run, wait_for  # noqa: E402

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
# The settled-request case's request that expires while shown, in seconds.
EXPIRES_IN_S = 20


CONTROL_ROLES = {"push button", "toggle button", "check box", "radio button", "text",
                 "spin button", "slider", "combo box", "menu button"}


def said_twice(name):
    """GTK 4.8 joins a button's label property and its mnemonic label: "Copy
    Command Copy Command"."""
    words = name.split()
    half = len(words) // 2
    return len(words) % 2 == 0 and half > 0 and words[:half] == words[half:]


def assert_button_named(parent, what, label, count=1):
    """The push buttons saying @label (@count of them at least, waited for)
    are named by their label, once."""
    def buttons():
        found = parent.findChildren(lambda n: n.roleName == "push button" and label in n.name)
        return found if len(found) >= count else None
    names = [n.name for n in wait_for(f"{what}: {label}", buttons, timeout=15, interval=0.2)]
    if any(name != label for name in names):
        raise Failure(f"{what}: push buttons named {names}, expected {label!r} exactly")


def assert_controls_named(parent, where):
    """Every control a person can operate has a name a screen reader can say
    (GTK falls back to the widget's class name, e.g. "GtkMenuButton")."""
    nameless = [f"{n.roleName} {n.name!r}"
                for n in parent.findChildren(lambda n: n.roleName in CONTROL_ROLES)
                if not n.name.strip() or n.name.startswith(("Gtk", "Adw", "Triage"))
                or "_" in n.name or said_twice(n.name)]
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

        triage = find_app(app, timeout=20)

        find(triage, "the Engineering box", "check box", "Engineering")
        assert_controls_named(triage, "the window with a multi-choice request")
        assert_no_type_names(triage, "the window with a multi-choice request")
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
        assert_no_type_names(triage, "the window with a text request")
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
        # An answer given turns the view read-only at once, before the dialog
        # goes: the action can still be given, and the server has no answer.
        if not action.sensitive or server.get(drop)["status"] == "responded":
            raise Failure("Escape sent the irreversible action")
        action.click()
        dialog = find(triage, "the confirmation dialog", "dialog", "Drop the database?")
        # The confirm button names the action; it is not the default (Cancel is).
        confirm = find(dialog, "the confirmation's button", "push button", "Drop the database")
        find(dialog, "the confirmation's Cancel button", "push button", "Cancel")
        assert_controls_named(dialog, "the confirmation")
        assert_no_type_names(dialog, "the confirmation")
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
        # An app that quits with its window would be gone before it takes
        # the request posted now: its bubble shows the app stayed.
        server.post("Still listening?", TEXT)

        def still_listening():
            if app.proc.poll() is not None:
                raise Failure(f"the app quit (status {app.proc.returncode}) when its window closed")
            return notifyd.notifies("Still listening?")
        wait_for("a bubble for 'Still listening?'", still_listening)
    finally:
        app.stop()
        server.stop()
        world.cleanup()


def test_status_page_buttons():
    """The buttons of the inbox's and the history's status pages say their
    label once ("Copy Command", not "Copy Command Copy Command")."""
    world = World("dogtail-status")
    server = Server(world)
    app = App(world, service=False, GTK_A11Y=None, NO_AT_BRIDGE=None)
    try:
        server.start()
        app.start()
        triage = find_app(app, timeout=20)
        # The empty inbox offers the command that sends a first request.
        assert_button_named(triage, "the empty inbox", "Copy Command")

        # A search that finds nothing offers to clear it.
        server.post("Status pages: restart the cache?", APPROVE)
        find(triage, "the request in the list", "label", "Status pages: restart the cache?")
        rawinput.absoluteMotion(400, 300)
        rawinput.keyCombo("<Control>f")
        search = find(triage, "the search entry", None, "Search pending requests")
        wait_for("the search to have the keyboard", lambda: search.focused, interval=0.1)
        rawinput.typeText("zqxj")
        assert_button_named(triage, "the inbox without results", "Clear Filters")
        assert_controls_named(triage, "the inbox without results")
        assert_no_type_names(triage, "the inbox without results")
        rawinput.pressKey("Escape")

        # And so does the history's.
        find(triage, "the History tab", "page tab", "History").click()
        history_search = find(triage, "the history's search entry", None, "Search the decision history")
        history_search.click()
        wait_for("the history's search to have the keyboard", lambda: history_search.focused,
                 interval=0.1)
        rawinput.typeText("zqxj")
        # The inbox's and the history's.
        assert_button_named(triage, "the history without results", "Clear Filters", count=2)
        assert_controls_named(triage, "the history without results")
        assert_no_type_names(triage, "the history without results")
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
        triage = find_app(app, timeout=20)
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
        triage = find_app(app, timeout=20)
        find(triage, "the third request in the list", "label", "Keys third: tag the release?")
        frame = find(triage, "the main window", "frame", "Triage")
        rawinput.absoluteMotion(400, 300)
        wait_for("the window to have the keyboard", lambda: has_keyboard(frame), interval=0.1)

        rawinput.keyCombo("<Control>f")                  # the search entry
        search = find(triage, "the search entry", None, "Search pending requests")
        wait_for("the search to have the keyboard", lambda: search.focused, interval=0.1)
        rawinput.pressKey("Down")                        # the list, first request
        rawinput.pressKey("Return")                      # open it: the keyboard on its heading
        heading = find(triage, "the first request's heading", "heading",
                       "Keys first: restart the cache?")
        wait_for("its heading to have the keyboard", lambda: heading.focused, interval=0.1)
        # Enter again (held, repeated, or pressed once too often) answers nothing;
        # Tab takes the keyboard on to Approve (its move says Enter was handled).
        button = find(triage, "the first request's button", "push button", "Approve")
        rawinput.pressKey("Return")
        tab_to(button)
        if not button.sensitive or server.get(first).get("status") == "responded":
            raise Failure("Enter on the heading of a request just opened answered it")
        rawinput.pressKey("space")
        server.wait_responded(first)

        # Stored: the next request opens by itself, the keyboard on its heading
        # (a key meant for the last one never answers it); Tab to its text field.
        heading = find(triage, "the second request's heading", "heading",
                       "Keys second: why the rollback?")
        wait_for("its heading to have the keyboard", lambda: heading.focused, interval=0.1)
        field = find(triage, "the second request's text field", "text", "Reason")
        tab_to(field)
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
        heading = find(triage, "the third request's heading", "heading",
                       "Keys third: tag the release?")
        wait_for("its heading to have the keyboard", lambda: heading.focused, interval=0.1)
        tab_to(next(b for b in triage.findChildren(
            GenericPredicate(name="Approve", roleName="push button")) if b.sensitive))
        rawinput.pressKey("space")
        server.wait_responded(third)
    finally:
        app.stop()
        server.stop()
        world.cleanup()


SEVEN = [
    {"id": "stop", "label": "Stop", "response_type": "simple"},
    {"id": "logs", "label": "Include logs?", "response_type": "binary",
     "options": {"true_label": "Yes", "false_label": "No"}},
    {"id": "env", "label": "Environment", "response_type": "choice",
     "options": [{"value": "prod", "label": "Production"}, {"value": "stage", "label": "Staging"}]},
    {"id": "teams", "label": "Teams", "response_type": "multi_choice",
     "options": [{"value": "eng", "label": "Engineering"}, {"value": "sec", "label": "Security"}]},
    {"id": "why", "label": "Comment", "response_type": "text"},
    {"id": "share", "label": "Rollout", "response_type": "number",
     "constraints": {"min": 0, "max": 100, "unit": "%"}},
    {"id": "sure", "label": "Confidence", "response_type": "scale",
     "constraints": {"min": 1, "max": 5}},
]


def open_request(nid):
    """As a bubble click does: app.open-request over D-Bus."""
    notifyd.bus.call_sync(APP_ID, APP_PATH, "org.gtk.Actions", "Activate",
                          notifyd.GLib.Variant("(sava{sv})",
                                               ("open-request", [notifyd.GLib.Variant("s", nid)],
                                                {})),
                          None, notifyd.Gio.DBusCallFlags.NONE, 5000, None)


def banner(triage, prefix, timeout=20):
    """The status banner, once its name (what a screen reader says) starts with prefix."""
    return wait_for(f"the banner to say {prefix!r}",
                    lambda: next((n for n in triage.findChildren(
                        lambda n: n.roleName == "status bar") if n.name.startswith(prefix)), None),
                    timeout=timeout, interval=0.3)


def assert_every_action_kept(triage, how):
    """Every action's label is still in the tree, on a control that is
    insensitive, and none of them can be operated. Returns the action cards
    a screen reader hears as chosen: [(label, description)]."""
    labels = [action["label"] for action in SEVEN]
    nodes = triage.findChildren(lambda n: n.name in labels)   # one walk of the tree
    for label in labels:
        named = [n for n in nodes if n.name == label]
        if not [n for n in named if not n.sensitive]:
            raise Failure(f"{how}: no insensitive control named {label!r} "
                          f"(found {[(n.roleName, n.sensitive) for n in named]})")
        operable = [n.roleName for n in named if n.roleName in CONTROL_ROLES and n.sensitive]
        if operable:
            raise Failure(f"{how}: {label!r} can still be operated: {operable}")
    return [(n.name, n.description) for n in nodes
            if n.roleName == "panel" and n.description.startswith("Chosen")]


def test_settled():
    """A request with all seven response types, settled each of the five
    ways, still shows what was asked and what was answered."""
    world = World("dogtail-settled")
    admin = uuid.uuid4().hex
    token_file = os.path.join(world.root, "admin-token")
    with open(os.open(token_file, os.O_WRONLY | os.O_CREAT, 0o600), "w") as f:
        f.write(admin)
    server = Server(world, "--admin-token-file", token_file)
    app = App(world, service=False, GTK_A11Y=None, NO_AT_BRIDGE=None)
    try:
        server.start()
        # alex, another person the service asks too, answers from elsewhere.
        auth = {"Authorization": f"Bearer {admin}"}
        status, alex = server.request("POST", "/api/v1/admin/users", {"id": "alex"}, headers=auth)
        if status != 201:
            raise Failure(f"creating alex: {status} {alex}")
        status, service = server.request("POST", "/api/v1/services",
                                         {"name": "E2E Bot", "recipients": ["default", "alex"]},
                                         headers=auth)
        if status != 201:
            raise Failure(f"registering the service: {status} {service}")
        app.start()
        triage = find_app(app, timeout=20)

        def show(how, **kwargs):
            title = f"Settled: {how}?"
            nid = server.post(title, SEVEN, service=service["service_id"], **kwargs)
            find(triage, "the request in the list", "label", title)
            open_request(nid)
            wait_for(f"the {how} request shown",
                     lambda: [n for n in triage.findChildren(
                         lambda n: n.roleName == "heading" and n.name == title)], interval=0.3)
            find(triage, "its Stop button", "push button", "Stop")
            return nid

        # Withdrawn, with something typed: it stays. The field is below the
        # fold (seven cards): Tab takes the keyboard there, from the first
        # answer control, where opening the request put it.
        nid = show("withdrawn")
        field = find(triage, "the text field", "text", "Comment")
        frame = find(triage, "the main window", "frame", "Triage")
        rawinput.absoluteMotion(400, 300)
        wait_for("the window to have the keyboard", lambda: has_keyboard(frame), interval=0.1)
        tab_to(field, presses=20)
        rawinput.typeText("half typed")
        wait_for("the typed text", lambda: field.text == "half typed", interval=0.1)
        server.request("PATCH", f"/api/v1/notifications/{nid}",
                       {"status": "invalidated", "reason": "no longer needed"},
                       service=service["service_id"])
        banner(triage, "Withdrawn by E2E Bot at ")
        chosen = assert_every_action_kept(triage, "withdrawn")
        if field.text != "half typed" or field.sensitive:
            raise Failure(f"withdrawn: the text field holds {field.text!r}, sensitive {field.sensitive}")
        if chosen:
            raise Failure(f"withdrawn: marked as chosen: {chosen}")

        # Answered elsewhere, by alex: what, the value, who.
        nid = show("answered elsewhere")
        status, reply = server.respond_as_client(nid, "share", 25, token=alex["token"])
        if status != 200:
            raise Failure(f"alex's answer: {status} {reply}")
        node = banner(triage, "Answered ‘Rollout’: 25 % by alex on another device at ")
        chosen = assert_every_action_kept(triage, "answered elsewhere")
        if chosen != [("Rollout", "Chosen")]:
            raise Failure(f"answered elsewhere: chosen {chosen}; banner {node.name!r}")
        find(triage, "the chosen mark", "label", "Chosen")

        # Answered here and delivered.
        nid = show("delivered")
        spin = find(triage, "the Rollout field", "spin button", "Rollout")
        spin.value = 40
        send = find(triage, "Rollout's Send button", "push button", "Send “Rollout”")
        wait_for("Send to be enabled", lambda: send.sensitive, interval=0.1)
        send.doActionNamed("click")   # below the fold: no pointer needed
        server.wait_responded(nid, service["service_id"])
        banner(triage, "You answered ‘Rollout’: 40 %")
        chosen = assert_every_action_kept(triage, "delivered")
        if chosen != [("Rollout", "Chosen")]:
            raise Failure(f"delivered: chosen {chosen}")

        # Expired. It must be found, opened and shown before its deadline:
        # each step a search of the accessibility tree, seconds apiece on a
        # loaded machine (8 s left no room for it).
        show("expired", deadline_in=EXPIRES_IN_S)
        banner(triage, "Expired at ", timeout=20 + EXPIRES_IN_S)
        chosen = assert_every_action_kept(triage, "expired")
        if chosen:
            raise Failure(f"expired: marked as chosen: {chosen}")

        # No longer on the server: it no longer knows it for this person (404
        # to the answer). Said at once, read-only: answering again would meet
        # the same 404.
        nid = show("gone")
        db = sqlite3.connect(world.server_db, timeout=10)
        with db:
            gone = db.execute("DELETE FROM notification_recipients WHERE user_id = 'default' AND"
                              " notification_seq = (SELECT seq FROM notifications WHERE id = ?)",
                              (nid,)).rowcount
        db.close()
        if gone != 1:
            raise Failure(f"the server still knows the request ({gone} rows)")
        find(triage, "the Stop button", "push button", "Stop").doActionNamed("click")
        banner(triage, "No longer on the server")
        chosen = assert_every_action_kept(triage, "gone")
        if chosen:
            raise Failure(f"gone: chosen {chosen}")
    finally:
        app.stop()
        server.stop()
        world.cleanup()


run([("a person answers three requests through the accessibility tree", test_person),
     ("keyboard triage: open, answer, next, with keys alone", test_keyboard_only),
     ("a request opened before it arrived is shown once it does", test_open_before_loaded),
     ("the status pages' buttons say their label once", test_status_page_buttons),
     ("a settled request still shows what was asked and what was answered", test_settled)])
