#!/usr/bin/python3
# test-browse-dogtail.py — the inbox's and the history's lists of the real
# triage binary with the keyboard alone, read through AT-SPI (dogtail) as a
# screen reader reads them. In the history view: from the search (Ctrl+F),
# Tab goes through the export button, the four filters (each named, and
# described by its choice), the chart (in words: its description) and the
# list, one stop in the order they are seen, and on out of the list in one
# press, not row by row (GTK 4.8 takes Tab from row to row), into it on its
# first row, the newest, also once a newer request came while the keyboard
# was out of it; Shift+Tab goes back the same way; the arrows go through the
# rows (Home and End to the ends), whose list says how many there are and
# reads as a list of list items, not as GTK 4.8's grid of cells; Escape in
# the search clears it, and a second goes on to the list. In the
# inbox, the list is one stop of Tab too: from a row, Tab goes on to the
# request shown beside it, not to the next row, and Shift+Tab comes back to
# the row.
#
# Runs under tests/fake-notifyd.py --private-bus --no-click, with GTK_A11Y
# unset for the app (the accessibility bus is D-Bus-activated on that bus).
#
# Copyright 2026 The Triage authors
# SPDX-License-Identifier: GPL-3.0-or-later

import contextlib
import os
import sqlite3
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from a11ytest import (assert_list, find, find_app, has_keyboard,  # noqa: E402  (dogtail first)
                      key_to, rawinput)
from apptest import App, Failure, Server, World, run, wait_for  # noqa: E402
from gi.repository import GLib  # noqa: E402

APPROVE = [{"id": "approve", "label": "Approve", "response_type": "simple"}]
TITLES = ["History keys: first?", "History keys: second?", "History keys: third?"]
NEWER = "History keys: newer?"
TAB = "Tab"
BACK = "<Shift>ISO_Left_Tab"


def assert_described(node, description):
    if node.description != description:
        raise Failure(f"the {node.roleName} {node.name!r} is described as "
                      f"{node.description!r}, not {description!r}")


@contextlib.contextmanager
def app_with(name, titles, description):
    """The app started as a person starts it, requests @titles in its inbox,
    its window with the keyboard; gives its node on the accessibility bus
    and the server."""
    world = World(name)
    server = Server(world)
    app = App(world, service=False, GTK_A11Y=None, NO_AT_BRIDGE=None)
    try:
        server.start()
        for title in titles:
            server.post(title, APPROVE, description=description)
        app.start()
        triage = find_app(app, timeout=20)
        find(triage, "the last request in the inbox", "label", titles[-1])
        frame = find(triage, "the main window", "frame", "Triage")
        rawinput.absoluteMotion(400, 300)
        wait_for("the window to have the keyboard", lambda: has_keyboard(frame), interval=0.1)
        yield triage, server, world
    finally:
        app.stop()
        server.stop()
        world.cleanup()


def test_history_keys():
    with app_with("history-keys", TITLES, "Please decide.") as (triage, server, _):
        find(triage, "the History tab", "page tab", "History").click()
        # Newest first; all three in the list before the keys are pressed.
        history = find(triage, "the history's list", None, "Decision history")
        if history.roleName != "list":
            raise Failure(f"the history reads as a {history.roleName}, not a list")
        for title in TITLES:
            find(history, "the requests in the history", "list item", title)

        search = key_to("<Control>f", "entry", "Search the decision history")
        key_to(TAB, "push button", "Export the History")
        for name, choice in [("Service", "All Services"), ("Project", "All Projects"),
                             ("Outcome", "Any Outcome"), ("Received", "Any Time")]:
            assert_described(key_to(TAB, "push button", name), choice)
        chart = key_to(TAB, "image", "Decisions over time")
        if "3 requests" not in chart.description:
            raise Failure(f"the chart is described as {chart.description!r}")
        # Into the list on its first row, the newest, though rows recorded
        # after the list was filled (the history is written as the requests
        # come) pushed down the row GTK 4.8 keeps for the keyboard.
        row = key_to(TAB, "list item", TITLES[-1])
        # The list says how many it shows (the count above it is no stop of
        # Tab), and reads as the list it looks, not as GTK 4.8's grid.
        if row.parent != history:
            raise Failure(f"the history's first row is in {row.parent.name!r}")
        assert_described(history, "3 requests")
        assert_list(history, TITLES[::-1])
        key_to("End", "list item", TITLES[0])
        key_to("Home", "list item", TITLES[-1])
        # One press out of the list, not one a row: to the window's next control.
        key_to(TAB, "page tab", "Inbox")

        # A request comes while the keyboard is out of the list, left on its
        # first row: back in on the newest, shown first, not on the row that
        # had been first.
        server.post(NEWER, APPROVE, description="Please decide.")
        find(history, "the newer request in the history", "list item", NEWER)
        assert_list(history, [NEWER] + TITLES[::-1])
        key_to(BACK, "list item", NEWER)
        key_to("Down", "list item", TITLES[-1])

        # Back the same way, into the list where the keyboard left it.
        key_to("Down", "list item", TITLES[1])
        key_to("Down", "list item", TITLES[0])
        key_to("Up", "list item", TITLES[1])
        key_to(BACK, "image", "Decisions over time")
        key_to(BACK, "push button", "Received")
        key_to(TAB, "image", "Decisions over time")
        key_to(TAB, "list item", TITLES[1])

        # Escape clears the search (here one that finds nothing); a second
        # goes on to the list, at its first row.
        key_to("<Control>f", "entry", search.name)
        rawinput.typeText("zqxj")
        find(triage, "the history without results", "push button", "Clear Filters")
        rawinput.pressKey("Escape")
        find(history, "the history's list again", "list item", TITLES[0])
        if not search.focused:
            raise Failure("the first Escape took the keyboard out of the search")
        key_to("Escape", "list item", NEWER)


def shown_in(node, view):
    """Whether @node is inside @view's area on screen (GTK 4.8 reports a row
    kept out of sight just below it)."""
    (x, y), (w, h) = node.position, node.size
    (vx, vy), (vw, vh) = view.position, view.size
    return h > 0 and vy <= y and y + h <= vy + vh


def names(node):
    """The names of @node's children as the app says them now (a row that
    went meanwhile is no longer there to read: read again)."""
    def read():
        try:
            node.clear_cache()
            return [child.name for child in node]
        except GLib.GError:
            return None
    return wait_for("the list to be read", read, timeout=15, interval=0.1)


def forget(world, title):
    """Deletes @title's request from the app's database, as the history's
    retention does (the view sees the change by itself)."""
    db = sqlite3.connect(world.app_db, timeout=10)
    try:
        with db:
            db.execute("DELETE FROM notifications WHERE title = ?", (title,))
    finally:
        db.close()


def test_history_row_left():
    """Where Shift+Tab takes the keyboard back into the history's list: to
    the row it left far down, shown, though the list was scrolled back to
    its top meanwhile (GTK 4.8 went back to it out of sight); to the row
    below it once it is gone (deleted, as by the history's retention); and
    to a new search's first row."""
    titles = [f"Far down {n:02d}?" for n in range(1, 21)]
    with app_with("history-row-left", titles, "Far down.") as (triage, server, world):
        find(triage, "the History tab", "page tab", "History").click()
        history = find(triage, "the history's list", "list", "Decision history")
        find(history, "the newest request in the history", "list item", titles[-1])
        key_to("<Control>f", "entry", "Search the decision history")
        key_to("Down", "list item", titles[-1])
        for title in titles[-2:-15:-1]:
            key_to("Down", "list item", title)
        left = titles[-14]

        # Out, the list scrolled back to its top with the wheel, and back in.
        key_to(TAB, "page tab", "Inbox")
        (x, y), (w, h) = history.position, history.size
        newest = find(history, "the newest request", "list item", titles[-1])
        for _ in range(30):
            if shown_in(newest, history):
                break
            rawinput.click(x + w // 2, y + h // 2, button=4)
        wait_for("the list to be back at its top", lambda: shown_in(newest, history),
                 timeout=15, interval=0.1)
        row = key_to(BACK, "list item", left)
        wait_for(f"{left!r} to be shown", lambda: shown_in(row, history), timeout=15, interval=0.1)

        # Out, the row deleted, and back in: on the row below it.
        key_to(TAB, "page tab", "Inbox")
        forget(world, left)
        wait_for(f"{left!r} to leave the list", lambda: left not in names(history),
                 timeout=15, interval=0.2)
        row = key_to(BACK, "list item", titles[-15])
        wait_for("the row below to be shown", lambda: shown_in(row, history),
                 timeout=15, interval=0.1)

        # A search that leaves it out: in on its first result.
        key_to("<Control>f", "entry", "Search the decision history")
        rawinput.typeText("down 0")
        found = [title for title in titles[8::-1] if title != left]
        wait_for("the search to show the first nine but the one deleted",
                 lambda: names(history) == found, timeout=15, interval=0.2)
        key_to(TAB, "push button", "Export the History")
        for name in ["Service", "Project", "Outcome", "Received"]:
            key_to(TAB, "push button", name)
        key_to(TAB, "image", "Decisions over time")
        row = key_to(TAB, "list item", found[0])
        wait_for("the first result to be shown", lambda: shown_in(row, history),
                 timeout=15, interval=0.1)


def test_inbox_list_one_stop():
    with app_with("inbox-keys", TITLES[:2], "Inbox keys."):
        key_to("<Control>f", "entry", "Search pending requests")
        key_to("Down", "list item", TITLES[0])
        key_to("Return", "heading", TITLES[0])
        key_to("<Control>f", "entry", "Search pending requests")
        key_to("Down", "list item", TITLES[0])
        # Out of the list to the request shown beside it (its description
        # takes the keyboard first there), not to the next row; and back.
        key_to(TAB, "label", "Inbox keys.")
        key_to(BACK, "list item", TITLES[0])
        key_to("Down", "list item", TITLES[1])
        key_to(TAB, "label", "Inbox keys.")


run([("the history with the keyboard: Tab in the order seen, arrows in the list, Escape",
      test_history_keys),
     ("Shift+Tab back into the history: the row left, shown; the one below once it is gone",
      test_history_row_left),
     ("the inbox's list is one stop of Tab", test_inbox_list_one_stop)])
