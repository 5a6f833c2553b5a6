#!/usr/bin/python3
# a11ytest.py — reading the real triage binary through the accessibility tree
# (dogtail), as a screen reader finds it: dogtail set up for AT-SPI on the
# tests' bus, the app on it, a node by role and name, a button's label. For
# every dogtail test in tests/app; the app must run with GTK_A11Y and
# NO_AT_BRIDGE unset (apptest.RemoteApp's a11y=True).
#
# Copyright 2026 The Triage authors
# SPDX-License-Identifier: GPL-3.0-or-later

import os
import re
import sys

# G_DEBUG=fatal-warnings is for our programs, not for the AT-SPI libraries this
# process loads (they warn about objects that vanish). Nor can the app keep it
# here: GTK 4.8 itself warns when asked for screen coordinates over AT-SPI,
# which is how dogtail finds where to click (the window is at 0,0 under Xvfb,
# so the positions are right). The other UI tests keep warnings fatal.
os.environ.pop("G_DEBUG", None)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from apptest import Failure, skip_without_display, wait_for  # noqa: E402

# Every test reading the app through AT-SPI starts it, a GTK app, and dogtail
# needs the display too: without one, the test is skipped, saying why.
skip_without_display()

import dogtail.config  # noqa: E402

dogtail.config.config.checkForA11y = False
# GTK 4.8 gives only windows the "showing" state, so searches take every
# visible node; the tests look where only one such node can be.
dogtail.config.config.searchShowingOnly = False
dogtail.config.config.defaultDelay = 0.2
dogtail.config.config.actionDelay = 0.2
dogtail.config.config.typingDelay = 0.02
dogtail.config.config.searchCutoffCount = 10
dogtail.config.config.logDebugToStdOut = False
dogtail.config.config.logDebugToFile = False

import pyatspi  # noqa: E402
from gi.repository import GLib  # noqa: E402
from dogtail import rawinput  # noqa: E402  (for the tests: real input events)
from dogtail.predicate import GenericPredicate  # noqa: E402
from dogtail.tree import root  # noqa: E402


__all__ = ["GenericPredicate", "assert_list", "assert_no_type_names", "buttons", "find",
           "find_app", "find_where", "has_keyboard", "invalid", "key_to", "moved_to", "rawinput",
           "root", "tab_to"]


def find(parent, what, role=None, name=None, timeout=20):
    """The first node with that role and name (retried until it shows)."""
    predicate = GenericPredicate(name=name, roleName=role)
    return wait_for(what, lambda: parent.findChild(predicate, retry=False, requireResult=False),
                    timeout=timeout, interval=0.2)


def find_where(parent, what, predicate, timeout=20):
    """The first node for which predicate(node) holds (retried until it shows)."""
    return wait_for(what, lambda: parent.findChild(predicate, retry=False, requireResult=False),
                    timeout=timeout, interval=0.2)


def find_app(app=None, timeout=30):
    """The app on the accessibility bus (failing at once if @app, an
    apptest.App, exited; without one, an app started over D-Bus)."""
    def found():
        if app is not None:
            app.alive()
        return next((a for a in root.applications() if a.name == "triage"), None)
    return wait_for("triage on the accessibility bus", found, timeout=timeout, interval=0.3)


def assert_list(node, items):
    """That @node reads as a screen reader says a list ("list, 3 items"): its
    role "list", its children @items (their names: their number is what is
    said), each a "list item", not a table and its cells ("row 1 column 1")."""
    if node.roleName != "list":
        raise Failure(f"{node.name!r} reads as a {node.roleName}, not a list")
    # Read afresh, as the app says it now: GTK 4.8 tells no change of a
    # list's rows (no children-changed), so the client's cache keeps the old.
    node.clear_cache()
    children = [node.getChildAtIndex(i) for i in range(node.childCount)]
    read = [(child.roleName, child.name) for child in children]
    if read != [("list item", item) for item in items]:
        raise Failure(f"the list {node.name!r} reads as {read}, not as the list items {items}")


# What a screen reader never says by its AT-SPI name: layout (fillers,
# scroll bars, separators), and text read as text (a label, a heading).
_NOT_SAID_BY_NAME = {"filler", "scroll bar", "separator", "image", "icon"}
_TEXT_ROLES = {"label", "heading"}
_SAID_AS_ONE = {"push button", "toggle button", "page tab", "combo box", "menu item"}
_TYPE_NAME = re.compile(r"(Gtk|Adw|Triage)[A-Z][A-Za-z]*")


def assert_no_type_names(parent, where):
    """No node under @parent that a screen reader says on the way to a
    control (a panel, a list, a table and its cells, a status bar, a tab
    list) is named by its widget type: GTK 4.8 names an unnamed non-generic
    accessible so, and Orca 43 said "GtkStackPage panel" on entering a page
    of a GtkStack without a title, "GtkListBox" for a list. A label or
    heading is read by its text; an empty one is said by nobody."""
    def type_named(n):
        name = n.name or ""
        if not _TYPE_NAME.fullmatch(name):
            return False
        if n.roleName in _NOT_SAID_BY_NAME:
            return False
        if n.roleName in _TEXT_ROLES and not n.text:
            return False
        # Inside a control, which is said as one: GTK 4.8's drop-down button
        # and libadwaita 1.2's view switcher tab hold a stack of their own.
        ancestor = n.parent
        for _ in range(4):
            if ancestor is None:
                break
            if ancestor.roleName in _SAID_AS_ONE:
                return False
            ancestor = ancestor.parent
        return True
    found = sorted({f"{n.parent.roleName} {n.parent.name!r} > {n.roleName} {n.name!r}"
                    for n in parent.findChildren(type_named)})
    if found:
        raise Failure(f"named by their widget type in {where}: {found}")


def buttons(node):
    """The labels of the buttons in @node (hidden ones are not in the tree)."""
    return sorted(n.name for n in node.findChildren(lambda n: n.roleName == "push button"))


def invalid(node):
    """Whether @node (a field) is marked invalid, as a screen reader reads it
    (AT-SPI's "invalid" state, as GTK 4.8 sets it, or "invalid-entry", as later GTKs may)."""
    states = node.getState()
    return states.contains(pyatspi.STATE_INVALID) or states.contains(pyatspi.STATE_INVALID_ENTRY)


def has_keyboard(window):
    """Whether @window (a frame) is the active window, where keys go."""
    return window.getState().contains(pyatspi.STATE_ACTIVE)


_focus_moves = None
_focused = [None]


def focus_moves():
    """How many times the keyboard has moved to a control so far, counted
    from AT-SPI's events (a control's "focused" state turning on) as they
    come in; the count starts at the first call."""
    global _focus_moves
    if _focus_moves is None:
        _focus_moves = [0]

        def moved(event):
            if event.detail1:
                _focus_moves[0] += 1
                _focused[0] = event.source
        pyatspi.Registry.registerEventListener(moved, "object:state-changed:focused")
    context = GLib.MainContext.default()
    while context.iteration(False):
        pass
    return _focus_moves[0]


def tab_to(node, presses=30):
    """Moves the keyboard to @node with Tab, which also scrolls it into view
    (a control below the fold cannot be clicked, and a check button has no
    AT-SPI action in GTK 4.8). Each Tab is followed by the event of the
    keyboard's move: looking at @node before the app took the key would
    press Tab again, past it."""
    moves = focus_moves()
    for _ in range(presses):
        if node.focused:
            return
        rawinput.pressKey("Tab")
        wait_for("the keyboard to move on Tab", lambda: focus_moves() > moves, interval=0.05)
        moves = focus_moves()
    if not node.focused:
        raise Failure(f"{node.name!r} did not get the keyboard in {presses} presses of Tab")


def key_to(keys, role, name):
    """Presses @keys (rawinput.keyCombo's "<Shift>ISO_Left_Tab") and returns
    the control the keyboard lands on, once it is the one with @role and
    @name, or one of the names @name lists (its move is AT-SPI's event, read
    as it comes in); fails saying where it went otherwise."""
    return moved_to(lambda: rawinput.keyCombo(keys), keys, role, name)


def moved_to(act, what, role, name):
    """As key_to (), the keyboard's move that act () makes (@what says it)."""
    focus_moves()
    _focused[0] = None
    act()

    def landed():
        focus_moves()
        node = _focused[0]
        if node is None or node.roleName != role:
            return None
        return node if node.name == name or (not isinstance(name, str) and node.name in name) else None
    try:
        return wait_for(f"{what} to take the keyboard to the {role} {name!r}", landed,
                        timeout=15, interval=0.05)
    except Failure:
        node = _focused[0]
        where = f"the {node.roleName} {node.name!r}" if node is not None else "nowhere"
        raise Failure(f"{what} took the keyboard to {where}, not to the {role} {name!r}") from None
