#!/usr/bin/python3
# test-aitp-dogtail.py — AITP-02 decisions answered through the real triage
# binary, driven through AT-SPI (dogtail) with real pointer and key events, as a
# person answers them: seed 003's radio (a radio button, then Send), checkbox
# (two check buttons), confirmation (one button per option) and a products
# request with variants (a variant picked, a quantity, two products, and the
# confirmation the agent asked for). Each is posted by an agent over the
# wire, and the decision the agent reads back validates against AITP-02's
# `Decision` (python3-jsonschema) and holds what was chosen. Every control
# met must have a spoken name.
#
# Runs under tests/fake-notifyd.py --private-bus --no-click, alone (see
# test-dogtail.py for why, and for the GTK 4.8 quirks worked around here).
#
# Copyright 2026 The Triage authors
# SPDX-License-Identifier: GPL-3.0-or-later

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import aitptest  # noqa: E402
from a11ytest import (GenericPredicate, assert_no_type_names, find, find_app, find_where,  # noqa: E402  (dogtail first)
                      rawinput, tab_to)
from apptest import App, Failure, Notifyd, Server, World, run, wait_for  # noqa: E402

notifyd = Notifyd()
APP_ID = "io.github.atptriage.Triage"
APP_PATH = "/io/github/atptriage/Triage"

CONTROL_ROLES = {"push button", "toggle button", "check box", "radio button", "text",
                 "spin button", "slider", "combo box", "menu button"}


def find_option(parent, name):
    """A radio decision's option: a radio button for a screen reader too (a
    grouped GtkCheckButton is a "check box" in GTK 4.8 unless told)."""
    try:
        return find_where(parent, f"the radio button {name!r}",
                          lambda n: n.name == name and n.roleName == "radio button")
    except Failure as e:
        named = [(n.roleName, [(c.roleName, c.name) for c in n.findChildren(lambda c: True)])
                 for n in parent.findChildren(lambda n: n.name == name)]
        raise Failure(f"{e}; nodes named so: {named}") from None


def said_twice(name):
    """A name GTK 4.8 made of a label and a labelling widget saying the same ("7 7")."""
    words = name.split()
    half = len(words) // 2
    return len(words) % 2 == 0 and half > 0 and words[:half] == words[half:]


def assert_controls_named(parent, where):
    """Every control a person can operate has a name a screen reader can say;
    the decision's own controls (under its "Answer" heading) say it once."""
    nameless = [f"{n.roleName} {n.name!r}"
                for n in parent.findChildren(lambda n: n.roleName in CONTROL_ROLES)
                if not n.name.strip() or n.name.startswith(("Gtk", "Adw", "Triage"))
                or "_" in n.name]
    find(parent, "the Answer heading", "heading", "Answer")
    for heading in parent.findChildren(GenericPredicate(name="Answer", roleName="heading")):
        nameless += [f"{n.roleName} {n.name!r}"
                     for n in heading.parent.findChildren(lambda n: n.roleName in CONTROL_ROLES)
                     if said_twice(n.name)]
    if nameless:
        raise Failure(f"controls without a proper accessible name in {where}: {nameless}")


def press(node):
    """Operates a control: by its AT-SPI action where it has one (it needs no
    pointer, so it works below the fold too), else with the pointer."""
    actions = node.actions
    for name in ("click", "toggle", "press", "activate"):
        if name in actions:
            node.doActionNamed(name)
            return
    node.click()


def list_nodes(node):
    """The lists and their items under @node (a drop-down's, once it is open)."""
    return node.findChildren(lambda n: n.roleName in ("list", "list item"))


def open_request(nid):
    """As a bubble click does: app.open-request over D-Bus."""
    notifyd.bus.call_sync(APP_ID, APP_PATH, "org.gtk.Actions", "Activate",
                          notifyd.GLib.Variant("(sava{sv})",
                                               ("open-request", [notifyd.GLib.Variant("s", nid)],
                                                {})),
                          None, notifyd.Gio.DBusCallFlags.NONE, 5000, None)


class Person:
    """The server, the app with its window, and the app's accessibility tree."""

    def __init__(self, name):
        self.world = World(name)
        self.server = Server(self.world)
        self.app = App(self.world, service=False, GTK_A11Y=None, NO_AT_BRIDGE=None)

    def __enter__(self):
        self.server.start()
        self.app.start()
        self.triage = find_app(self.app)
        return self

    def ask(self, name, heading, **changes):
        """An agent asks for decision @name (tests/atp/data/aitp); the person
        opens it, as from its bubble. Returns (request, Triage's id)."""
        request = aitptest.load(name)
        request.update(changes)
        nid = aitptest.post(self.server, request)
        notifyd.wait_notify(heading)
        open_request(nid)
        wait_for(f"{heading!r} shown",
                 lambda: [n for n in self.triage.findChildren(
                     lambda n: n.roleName == "heading" and n.name == heading)], interval=0.3)
        return request, nid

    def send(self):
        """Send, once the answer can be sent."""
        button = find(self.triage, "the Send button", "push button", "Send")
        wait_for("Send to be enabled", lambda: button.sensitive, interval=0.1)
        press(button)

    def __exit__(self, *exc):
        self.app.stop()
        self.server.stop()
        self.world.stop_servers()
        self.world.cleanup()


def test_four_types():
    with Person("aitp-dogtail") as p:
        t = p.triage

        # Radio: one radio button, then Send.
        request, nid = p.ask("seed-003-radio-request.json", "Select your favorite number:")
        find_option(t, "100")
        assert_controls_named(t, "the window with a radio decision")
        assert_no_type_names(t, "the window with a radio decision")
        find_option(t, "7").click()
        p.send()
        aitptest.wait_decision(p.server, nid, request, [{"id": "7", "name": "7"}])

        # Checkbox: two check buttons.
        request, nid = p.ask("seed-003-checkbox-request.json", "Your Favorite Colors")
        find(t, "the Green box", "check box", "Green").click()
        find(t, "the Red box", "check box", "Red").click()
        assert_controls_named(t, "the window with a checkbox decision")
        assert_no_type_names(t, "the window with a checkbox decision")
        p.send()
        aitptest.wait_decision(p.server, nid, request,
                               [{"id": "red", "name": "Red"}, {"id": "green", "name": "Green"}])

        # Confirmation: the question, a button per option, each an answer.
        request, nid = p.ask("seed-003-confirmation-request.json", "Please confirm")
        find(t, "the first answer", "push button", "Yes, eat the cookies")
        find(t, "the third answer", "push button", "Something else")
        assert_controls_named(t, "the window with a confirmation")
        assert_no_type_names(t, "the window with a confirmation")
        find(t, "the second answer", "push button", "No, that's not healthy").click()
        aitptest.wait_decision(p.server, nid, request,
                               [{"id": "2", "name": "No, that's not healthy"}])


def test_products():
    """Products with variants: the sand JBL (its own price) three times, the
    Sony once, then the confirmation this agent asked for."""
    with Person("aitp-dogtail-products") as p:
        t = p.triage
        request, nid = p.ask("products-variants.json", "Which headphones?")
        # The first variant is picked for the person; pick the sand one (the
        # drop-down takes a click, then the keys of its list).
        picker = find_where(t, "the variant picker",
                            lambda n: n.name == "Variant" and n.roleName != "label")
        find(t, "the black JBL's check", "check box", "Choose JBL Tour One M2, black (Black)")
        assert_controls_named(t, "the window with a products decision")
        assert_no_type_names(t, "the window with a products decision")
        # The keys go to the list once it is open, which a loaded machine
        # takes its time over (a fixed half second was once all it had).
        shown = len(list_nodes(t))
        picker.click()
        wait_for("the variant list to open", lambda: len(list_nodes(t)) > shown, interval=0.1)
        rawinput.pressKey("Down")
        rawinput.pressKey("Return")
        choose = find(t, "the sand JBL's check", "check box", "Choose JBL Tour One M2 (Sand)")
        # Its own price (the locale's money format, or the amount and "USD").
        wait_for("the sand variant's price",
                 lambda: t.findChild(lambda n: n.roleName == "label" and "209.00" in n.name,
                                     retry=False, requireResult=False), interval=0.2)
        quantity = find(t, "the sand JBL's quantity", "spin button",
                        "Quantity of JBL Tour One M2 (Sand)")
        quantity.value = 3
        wait_for("the quantity to be 3", lambda: quantity.value == 3, interval=0.1)
        press(choose)
        # The Sony's card is below the fold: Tab from the sand JBL's check, then Space.
        sony = find(t, "the Sony's check", "check box", "Choose Sony WH-1000XM5")
        wait_for("the sand JBL's check to have the keyboard", lambda: choose.focused, interval=0.1)
        tab_to(sony)
        rawinput.pressKey("space")
        try:
            wait_for("two products chosen",
                     lambda: t.findChild(GenericPredicate(name="2 products chosen", roleName="label"),
                                         retry=False, requireResult=False), interval=0.2)
        except Failure as e:
            summary = [n.name for n in t.findChildren(lambda n: n.roleName == "label"
                                                      and "chosen" in n.name)]
            raise Failure(f"{e}; the summary says {summary}; the checks' actions "
                          f"{list(choose.actions)}, {list(sony.actions)}") from None
        p.send()

        # x-triage.confirm: the confirmation dialog names the whole answer.
        dialog = find(t, "the confirmation dialog", "dialog", "Which headphones?")
        find(dialog, "the answer in the dialog", "label",
             "Your answer will be sent to Test Bot: JBL Tour One M2 (Sand) × 3, Sony WH-1000XM5")
        if aitptest.view(p.server, nid)["status"] != "pending":
            raise Failure("answered before it was confirmed")
        confirm = find(dialog, "the confirmation's button", "push button", "Send")
        wait_for("the confirmation's button to accept a click", lambda: confirm.sensitive,
                 interval=0.1)
        confirm.click()
        aitptest.wait_decision(p.server, nid, request,
                               [{"id": "jbl-sand", "name": "JBL Tour One M2 (Sand)", "quantity": 3},
                                {"id": "sony", "name": "Sony WH-1000XM5", "quantity": 1}])


run([("radio, checkbox and confirmation decisions answered through the accessibility tree",
      test_four_types),
     ("a products decision: variant, quantity, two products, confirmed", test_products)])
