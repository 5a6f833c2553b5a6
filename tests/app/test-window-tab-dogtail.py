#!/usr/bin/python3
# test-window-tab-dogtail.py — the main window of the real triage binary
# gone through with the keyboard alone, read through AT-SPI (dogtail) as a
# screen reader reads each stop: its role and name, and its description where
# that says a state. No stop without a name, no press of Tab that leaves the
# keyboard where it was; each case says what it walks.
#
# Runs under tests/fake-notifyd.py --private-bus --no-click, with GTK_A11Y
# unset for the app (the accessibility bus is D-Bus-activated on that bus).
#
# Copyright 2026 The Triage authors
# SPDX-License-Identifier: GPL-3.0-or-later

import contextlib
import datetime
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import aitptest  # noqa: E402
import a11ytest  # noqa: E402  (dogtail first)
from a11ytest import find, find_app, has_keyboard, key_to, moved_to, rawinput  # noqa: E402
from apptest import App, Failure, Server, World, run, wait_for  # noqa: E402

TAB = "Tab"
BACK = "<Shift>ISO_Left_Tab"
APPROVE = [{"id": "approve", "label": "Approve", "response_type": "simple"}]


def assert_described(node, description):
    if node.description != description:
        raise Failure(f"the {node.roleName} {node.name!r} is described as "
                      f"{node.description!r}, not {description!r}")


def key_to_any(keys):
    """Presses @keys and gives the control the keyboard lands on, whatever it is."""
    a11ytest.focus_moves()
    a11ytest._focused[0] = None
    rawinput.keyCombo(keys)

    def landed():
        a11ytest.focus_moves()
        return a11ytest._focused[0]
    try:
        return wait_for(f"{keys} to move the keyboard", landed, timeout=15, interval=0.05)
    except Failure:
        raise Failure(f"{keys} left the keyboard where it was") from None


@contextlib.contextmanager
def app_with(name, titles=()):
    """The app started as a person starts it, requests @titles in its inbox,
    its window with the keyboard; gives its node on the accessibility bus and
    the server."""
    world = World(name)
    server = Server(world)
    app = App(world, service=False, GTK_A11Y=None, NO_AT_BRIDGE=None)
    try:
        server.start()
        for title in titles:
            server.post(title, APPROVE, description="Tab through.")
        app.start()
        triage = find_app(app, timeout=20)
        if titles:
            find(triage, "the last request in the inbox", "list item", titles[-1])
        frame = find(triage, "the main window", "frame", "Triage")
        rawinput.absoluteMotion(400, 300)
        wait_for("the window to have the keyboard", lambda: has_keyboard(frame), interval=0.1)
        yield triage, server
    finally:
        app.stop()
        server.stop()
        world.cleanup()


def test_empty_window_round():
    """With no request, Tab goes round the whole window, past the empty
    inbox's example command to the empty side, said as it reads, and round
    the empty history to its empty page."""
    with app_with("tab-empty") as (triage, _):
        find(triage, "the empty inbox's Copy Command", "push button", "Copy Command")
        # The window opens with the keyboard on the Inbox tab.
        key_to(TAB, "page tab", "History")
        key_to(TAB, "push button", "Main Menu")
        # Past the example command, which GTK 4.8 let take Tab without the
        # keyboard: it stayed where it was at every press, in both directions.
        key_to(TAB, "push button", "Copy Command")
        placeholder = key_to(TAB, "scroll pane", "No Request Selected")
        assert_described(placeholder, "Choose a request to see what is asked and answer it")
        key_to(TAB, "page tab", "Inbox")
        key_to(BACK, "scroll pane", "No Request Selected")
        key_to(BACK, "push button", "Copy Command")
        key_to(BACK, "push button", "Main Menu")

        # The empty history, round too.
        key_to(BACK, "page tab", "History")
        rawinput.pressKey("space")
        find(triage, "the empty history", "label", "No Decisions Yet")
        # The keyboard was on the inbox's switcher, gone with it: from the
        # history's.
        key_to(TAB, "page tab", "History")
        key_to(TAB, "push button", "Main Menu")
        key_to(TAB, "entry", "Search the decision history")
        key_to(TAB, "push button", "Export the History")
        for name in ["Service", "Project", "Outcome", "Received"]:
            key_to(TAB, "push button", name)
        key_to(TAB, "image", "Decisions over time")
        empty = key_to(TAB, "scroll pane", "No Decisions Yet")
        assert_described(empty, "Every request your agents send, and what became of it, is kept here")
        key_to(TAB, "page tab", "Inbox")


def expect_popup(opener, choices, list_name):
    """Space on @opener opens its popup with the keyboard on its choice, named;
    Down goes through the others; Escape goes back to @opener."""
    item = key_to("space", "list item", choices[0])
    if item.parent.name != list_name:
        raise Failure(f"the popup's list is named {item.parent.name!r}, not {list_name!r}")
    for choice in choices[1:]:
        key_to("Down", "list item", choice)
    key_to("Escape", "push button", opener)


def history_searched(triage, title):
    """The History tab, @title listed in it, the keyboard in its search."""
    find(triage, "the History tab", "page tab", "History").click()
    history = find(triage, "the history's list", "list", "Decision history")
    find(history, "the request in the history", "list item", title)
    key_to("<Control>f", "entry", "Search the decision history")


def test_filter_popups_named():
    """The inbox's and the history's filter popups: their list named by the
    filter, every row by the choice it shows."""
    with app_with("tab-popups", ["Popup one?"]) as (triage, _):
        key_to("<Control>f", "entry", "Search pending requests")
        key_to(TAB, "push button", "Service")
        expect_popup("Service", ["All Services", "Test Bot"], "Service")
        key_to(TAB, "push button", "Project")
        expect_popup("Project", ["All Projects"], "Project")

        history_searched(triage, "Popup one?")
        key_to(TAB, "push button", "Export the History")
        key_to(TAB, "push button", "Service")
        key_to(TAB, "push button", "Project")
        key_to(TAB, "push button", "Outcome")
        expect_popup("Outcome", ["Any Outcome", "Pending", "Answered here"], "Outcome")
        key_to(TAB, "push button", "Received")
        expect_popup("Received", ["Any Time", "Today", "Last 7 Days"], "Received")


def days(first, last):
    """The period as the button shows it ("Nov 26 – Dec  2": GLib pads the
    day with a figure space)."""
    def day(date):
        return f"{date.strftime('%b')} {format(date.day, chr(0x2007) + '>2')}"
    return f"{day(first)} – {day(last)}"


def test_chosen_days_described():
    """Chosen Days…: the button that opens the days' popup is named by what it
    does and described by the days chosen, after a change too; the popup's
    calendars' arrows are named."""
    with app_with("tab-days", ["Days one?"]) as (triage, _):
        history_searched(triage, "Days one?")
        for name in ["Export the History", "Service", "Project", "Outcome", "Received"]:
            key_to(TAB, "push button", name)
        # The sixth choice, "Chosen Days…" (the popup's rows are read in
        # the case above).
        key_to_any("space")
        for _ in range(5):
            key_to_any("Down")
        # Chosen: the days' popup opens, the last seven days in it.
        rawinput.pressKey("Return")
        find(triage, "the first day's calendar", None, "First day")
        today = datetime.date.today()
        week = days(today - datetime.timedelta(days=6), today)
        key_to("Escape", "push button", "Choose the Days")
        button = key_to(BACK, "push button", "Received")
        assert_described(button, "Chosen Days…")
        button = key_to(TAB, "push button", "Choose the Days")
        assert_described(button, week)

        # Other days, shown: said as they change.
        rawinput.pressKey("space")
        find(triage, "the first day's calendar", None, "First day")
        # The keyboard is in the first day's calendar: another day. Then the
        # other calendar: its arrows named.
        rawinput.pressKey("Right")
        rawinput.pressKey("space")
        stops = [(node.roleName, node.name) for node in (key_to_any(TAB) for _ in range(5))]
        arrows = [stop for stop in stops if stop[0] == "push button"]
        if arrows != [("push button", name) for name in
                      ["Previous Month", "Next Month", "Previous Year", "Next Year"]]:
            raise Failure(f"the calendar's arrows are {arrows}, in Tab's stops {stops}")
        key_to("<Alt>s", "push button", "Choose the Days")

        def shown():
            return [n.name for n in button.findChildren(lambda n: n.roleName == "label")]
        wait_for("the other days to show", lambda: shown() and shown() != [week],
                 timeout=15, interval=0.1)
        assert_described(button, shown()[0])


def tab_to_stop(role, name, presses=20):
    """Tab until the keyboard is on the @role @name; every stop on the way
    named, and every press moving on (no trap). Gives the stops, in order."""
    stops = []
    for _ in range(presses):
        node = key_to_any(TAB)
        stops.append((node.roleName, node.name))
        if not node.name.strip() or node.name.startswith(("Gtk", "Adw", "Triage")):
            raise Failure(f"Tab went to a {node.roleName} without a name, after {stops[:-1]}")
        if (node.roleName, node.name) == (role, name):
            return stops
    raise Failure(f"Tab did not reach the {role} {name!r} in {presses} presses: {stops}")


def open_request(triage, heading, words):
    """Opens the request found by @words from the inbox's search."""
    key_to("<Control>f", "entry", "Search pending requests")
    rawinput.keyCombo("<Control>a")
    rawinput.typeText(words)
    pending = find(triage, "the inbox's list", "list", "Pending requests")
    wait_for(f"the search to find {heading!r} alone",
             lambda: [n.name for n in pending.children] == [heading], timeout=15, interval=0.1)
    key_to("Down", "list item", heading)
    key_to("Return", "heading", heading)


def test_request_stops():
    """An ATP request's context values and an AITP request's options go by
    in one press of Tab a control, each named."""
    with app_with("tab-requests") as (triage, server):
        # An ATP request with context values (selectable with the pointer).
        body = {"id": "6b0e2b52-3b9c-4c55-9d58-8f0f1c1c0a01",
                "context": {"title": "Deploy with context?", "description": "Tab through.",
                            "metadata": {"branch": "main", "commit": "4f2a9c1"}},
                "actions": APPROVE}
        status, reply = server.request("POST", "/api/v1/notifications", body)
        if status != 201:
            raise Failure(f"POST /api/v1/notifications: {status} {reply}")
        find(triage, "the ATP request in the inbox", "list item", "Deploy with context?")
        open_request(triage, "Deploy with context?", "deploy")
        find(triage, "the context's first value", "label", "main")
        tab_to_stop("push button", "Approve")
        tab_to_stop("page tab", "Inbox")

        # An AITP decision's options: one stop each, the option's button.
        aitptest.post(server, aitptest.load("seed-003-radio-request.json"))
        heading = "Select your favorite number:"
        open_request(triage, heading, "favorite")
        stops = tab_to_stop("radio button", "100")
        options = [stop for stop in stops if stop[0] in ("radio button", "list item")]
        if options != [("radio button", "0"), ("radio button", "7"), ("radio button", "100")]:
            raise Failure(f"the options' stops are {options}")


def shown(node):
    """The names of @node's children as the app says them now (GTK 4.8 tells
    no change of a list's rows: the client's cache keeps the old)."""
    node.clear_cache()
    return [child.name for child in node]


def test_filter_popup_search():
    """The history's Service popup with its search field: the field named by
    the filter and a stop of Tab above the list, the list one stop (not one a
    row), typing narrows it; Escape clears what was typed, a second closes
    the popup, the keyboard back on the filter, also when it opens again."""
    with app_with("tab-popup-search", ["Search one?"]) as (triage, _):
        history_searched(triage, "Search one?")
        key_to(TAB, "push button", "Export the History")
        key_to(TAB, "push button", "Service")
        choices = key_to("space", "list item", "All Services").parent
        # Out of the list in one press, to the field above it, and back in.
        search = key_to(TAB, "entry", "Service")
        assert_described(search, "Type to show only the choices that start with it")
        key_to(TAB, "list item", "All Services")
        key_to(BACK, "entry", "Service")
        rawinput.typeText("Te")
        wait_for("the choices to narrow to Test Bot", lambda: shown(choices) == ["Test Bot"],
                 timeout=15, interval=0.1)
        rawinput.pressKey("Escape")
        wait_for("Escape to clear the search", lambda: shown(choices) == ["All Services", "Test Bot"],
                 timeout=15, interval=0.1)
        if not search.focused:
            raise Failure("Escape with a search typed took the keyboard out of the search field")
        key_to("Escape", "push button", "Service")
        # Open again (on its search field, where it was left): one Escape
        # closes it, though the search GTK 4.8 keeps is "" then.
        key_to("space", "entry", "Service")
        key_to("Escape", "push button", "Service")


def test_preferences_remote_fields():
    """Preferences: A Remote Server takes the keyboard to its address, said
    as the keyboard enters it (GTK 4.8 said nothing there), then the token,
    its button and Connect, in the order seen, and back."""
    with app_with("tab-preferences", ["Preferences one?"]) as (triage, _):
        key_to("<Control>f", "entry", "Search pending requests")
        key_to("<Control>comma", "page tab", "General")
        # From the first choice's radio button: the first Tab from the page's
        # tab went to its row in most runs, straight to the button in one.
        tab_to_stop("radio button", "This Computer")
        for keys, role, name in [(TAB, "list item", "A Remote Server"),
                                 ("space", "text", "Server Address")]:
            key_to(keys, role, name)
        # The token's field is still silent (its text is not made a plain
        # "text": a reader would echo the token typed): one press past it.
        rawinput.keyCombo(TAB)
        for keys, role, name in [(TAB, "push button", "Show Token"),
                                 (TAB, "list item", "Connection"),
                                 (TAB, "push button", "Connect"),
                                 (TAB, "list item", "Show Notifications"),
                                 (BACK, "push button", "Connect"),
                                 (BACK, "list item", "Connection"),
                                 (BACK, "push button", "Show Token")]:
            key_to(keys, role, name)
        rawinput.keyCombo(BACK)
        for role, name in [("text", "Server Address"), ("radio button", "A Remote Server"),
                           ("list item", "A Remote Server")]:
            key_to(BACK, role, name)


def back_to_stop(role, name, presses=10):
    """Shift+Tab until the keyboard is on the @role @name."""
    for _ in range(presses):
        node = key_to_any(BACK)
        if (node.roleName, node.name) == (role, name):
            return node
    raise Failure(f"Shift+Tab did not reach the {role} {name!r} in {presses} presses")


def menu_to(name):
    """From the Main Menu button, its menu open, the keyboard down to @name."""
    items = [("menu item", "Retry Connection Now"), ("check menu item", "Do Not Disturb"),
             ("menu item", "Preferences"), ("menu item", "Keyboard Shortcuts"),
             ("menu item", "About Triage")]
    key_to("space", *items[0])
    for item in items[1:]:
        key_to("Down", *item)
        if item[1] == name:
            return
    raise Failure(f"no {name!r} in the main menu")


def test_dialogs_give_keyboard_back():
    """Preferences, opened with Ctrl+comma or from the main menu and closed
    with Escape, Ctrl+W or its close button, and About: the keyboard back on
    the control it left, Tab going on from there. (With no window manager to
    make the main window active again, GTK 4.8 kept no path to that control:
    Tab started over at the Inbox tab.)"""
    with app_with("tab-dialogs", ["Dialogs one?"]) as (triage, _):
        frame = find(triage, "the main window", "frame", "Triage")
        search = ("entry", "Search pending requests")
        key_to("<Control>f", *search)
        key_to("<Control>comma", "page tab", "General")
        key_to("Escape", *search)
        key_to(TAB, "push button", "Service")
        key_to("<Control>comma", "page tab", "General")
        key_to("<Control>w", "push button", "Service")
        key_to("<Control>comma", "page tab", "General")
        close = find(find(triage, "Preferences", "frame", "Preferences"),
                     "Preferences' close button", "push button", "Close")
        moved_to(close.click, "Preferences' close button", "push button", "Service")
        key_to(BACK, *search)

        # From the main menu. GTK 4.8 moves the keyboard from the menu's item
        # back to its button once Preferences has it: no move is said as the
        # main window has it again, but it is there, Tab going on from it.
        back_to_stop("push button", "Main Menu")
        for item, closing in [("Preferences", lambda: rawinput.pressKey("Escape")),
                              ("About Triage", lambda: rawinput.pressKey("Escape")),
                              ("Preferences", lambda: dialog_close(triage).click())]:
            menu_to(item)
            rawinput.pressKey("Return")
            wait_for(f"{item} to have the keyboard",
                     lambda: not has_keyboard(frame) and dialog_close(triage) is not None,
                     interval=0.1)
            closing()
            wait_for("the main window to have the keyboard again", lambda: has_keyboard(frame),
                     interval=0.1)
            key_to(TAB, *search)
            key_to(BACK, "push button", "Main Menu")


def dialog_close(triage):
    """The close button of the window over the main window, if one is open."""
    for window in triage.children:
        if window.roleName == "frame" and window.name != "Triage" and has_keyboard(window):
            return window.findChild(lambda n: n.roleName == "push button" and n.name == "Close",
                                    retry=False, requireResult=False)
    return None


def test_past_request():
    """A request answered, opened from the history: the keyboard on its
    heading, Tab round the page in the order seen (no trap); Escape, Back and
    Alt+Left each go back to the history, the keyboard on the row it came from."""
    with app_with("tab-past", ["Past one?"]) as (triage, _):
        open_request(triage, "Past one?", "past")
        tab_to_stop("push button", "Approve")
        rawinput.pressKey("space")
        find(triage, "the History tab", "page tab", "History").click()
        history = find(triage, "the history's list", "list", "Decision history")
        find_where = a11ytest.find_where
        find_where(history, "the request answered in the history",
                   lambda n: n.name == "Past one?" and "Answered here" in n.description)
        key_to("<Control>f", "entry", "Search the decision history")
        key_to("Down", "list item", "Past one?")
        # On its heading, as a request opened from the inbox.
        key_to("Return", "heading", "Past one?")
        round_trip = [key_to_any(TAB) for _ in range(4)]
        read = [(node.roleName, node.name.split(" ")[0]) for node in round_trip]
        if read != [("label", "Tab"), ("label", "Request"), ("push button", "Back"), ("label", "Tab")]:
            raise Failure(f"Tab in the past request went {read}")
        key_to(BACK, "push button", "Back to the History")
        key_to("Escape", "list item", "Past one?")
        key_to("Return", "heading", "Past one?")
        key_to(BACK, "push button", "Back to the History")
        key_to("space", "list item", "Past one?")
        key_to("Return", "heading", "Past one?")
        key_to("<Alt>Left", "list item", "Past one?")


run([("with no request, Tab goes round the window and the empty history, every stop named",
      test_empty_window_round),
     ("the inbox's and the history's filter popups name their list and choices",
      test_filter_popups_named),
     ("Choose the Days says the days chosen", test_chosen_days_described),
     ("an ATP request's context and an AITP request's options, one stop a control",
      test_request_stops),
     ("the history's filter popup's search: named, one stop of Tab, Escape clears then closes",
      test_filter_popup_search),
     ("Preferences' remote fields in the order seen, the address said as it is entered",
      test_preferences_remote_fields),
     ("a past request from the history: Tab round it, Escape, Back, Alt+Left to its row",
      test_past_request),
     ("Preferences and About closed, the keyboard is back on the control it left",
      test_dialogs_give_keyboard_back)])
