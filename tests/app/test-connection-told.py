#!/usr/bin/python3
# test-connection-told.py — where the real triage binary tells the person
# that requests cannot arrive, and that they can again, read as a screen
# reader and a tray host read it: the app in the background, in remote mode,
# against a real triage-server on 127.0.0.1 that refuses its token (under
# tests/fake-notifyd.py --private-bus, which records bubbles, and
# tests/fake-sni-watcher.py, the tray; dogtail reads the accessibility tree):
#
# - the tray icon's title and tooltip say Triage cannot receive requests and
#   why (the server refused the token), not "No requests waiting";
# - Preferences, opened from the app's action: no button is read by a screen
#   reader as a GTK type ("GtkImage": the User Token row's button) or as
#   nothing; nor in the window;
# - Connect with another wrong token: Preferences says the token was saved
#   but the server refused it, not only "Token saved in the keyring", and
#   its field is invalid and described by that to a screen reader; with the
#   right one, that it is connected, the field no longer invalid;
# - connected again: the tray says so no more, and the "Triage cannot
#   receive requests" bubble is withdrawn.
#
# Copyright 2026 The Triage authors
# SPDX-License-Identifier: GPL-3.0-or-later

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from a11ytest import find, find_app, invalid  # noqa: E402  (sets dogtail up first)
from apptest import (Failure, Notifyd, RemoteApp, TcpServer, Tray, World, run,  # noqa: E402
                     start_keyring, store_token, wait_for)

APP_NAME = "io.github.atptriage.Triage"
APP_PATH = "/io/github/atptriage/Triage"
CANNOT = "Triage cannot receive requests"
# What a screen reader must never read as a button's name.
TYPE_NAME = re.compile(r"^(Gtk|Adw|Gdk|Gsk)[A-Z][A-Za-z]*$")

notifyd = Notifyd()
tray = Tray(notifyd.bus)


def activate(action):
    notifyd.bus.call_sync(APP_NAME, APP_PATH, "org.gtk.Actions", "Activate",
                          notifyd.GLib.Variant("(sava{sv})", (action, [], {})),
                          None, notifyd.Gio.DBusCallFlags.NONE, 5000, None)


def unnamed_buttons(node):
    """The buttons of @node a screen reader reads as a GTK type or as nothing."""
    found = node.findChildren(lambda n: n.roleName in ("push button", "toggle button"))
    return [f"{n.roleName} {n.name!r}" for n in found
            if not n.name or not n.name.strip() or TYPE_NAME.match(n.name)]


def status_says(preferences, app, start):
    """The Connection row's text, once it starts with @start."""
    def said():
        app.alive()
        return preferences.findChild(lambda n: n.roleName == "label" and n.name and
                                     n.name.startswith(start), retry=False, requireResult=False)
    try:
        return wait_for(f"Preferences to say {start!r}", said, timeout=30, interval=0.2).name
    except Failure:
        labels = [n.name for n in preferences.findChildren(
            lambda n: n.roleName == "label" and n.name and "oken" in n.name)]
        raise Failure(f"Preferences does not say {start!r}; it says {labels}") from None


def test_refused_token_told():
    start_keyring()
    world = World("connection-told")
    server = TcpServer(world, name="team")
    app = None
    try:
        server.start()
        token = server.user("ana")
        store_token(server.url, "0" * 32)          # one the server never gave
        known = tray.registered()
        app = RemoteApp(world, server.url, a11y=True).start()
        item = tray.wait_registered(known)

        # The tray says requests cannot arrive, and why.
        def tooltip():
            app.alive()
            props = tray.properties(item)
            return props if props["ToolTip"][2] == CANNOT else None
        try:
            props = wait_for("the tray to say requests cannot arrive", tooltip, timeout=30)
        except Failure:
            raise Failure(f"the tray says {tray.properties(item)['ToolTip'][2:]}") from None
        body = props["ToolTip"][3]
        if "refused the token" not in body or "No requests waiting" in body:
            raise Failure(f"the tray's tooltip does not say why: {body!r}")
        if props["Title"] != CANNOT or props["Status"] != "NeedsAttention":
            raise Failure(f"the tray item: title {props['Title']!r}, status {props['Status']}")
        bubble = notifyd.wait_notify(CANNOT)

        # The window and Preferences: every button has a name a person can understand.
        activate("show")
        triage = find_app(app)
        window = wait_for("the window on the accessibility bus",
                          lambda: app.alive() or triage.findChild(
                              lambda n: n.roleName == "frame", recursive=False,
                              retry=False, requireResult=False), timeout=30, interval=0.2)
        find(window, "the window's Preferences button", "push button", "Preferences")
        bad = unnamed_buttons(window)
        if bad:
            raise Failure(f"the window has buttons a screen reader cannot name: {bad}")
        activate("preferences")
        preferences = find(triage, "the Preferences window", "frame", "Preferences")
        find(preferences, "the User Token row", None, "User Token")
        bad = unnamed_buttons(preferences)
        if bad:
            raise Failure(f"Preferences has buttons a screen reader cannot name: {bad}")
        peek = find(preferences, "the token's Show button", None, "Show Token")
        if peek.roleName not in ("push button", "toggle button"):
            raise Failure(f"Show Token is a {peek.roleName}")
        # Pressed, it hides the token again, and says so.
        peek.doActionNamed("click")
        peek = find(preferences, "the token's Hide button", None, "Hide Token")
        peek.doActionNamed("click")
        find(preferences, "the token's Show button again", None, "Show Token")

        # Another wrong token: saved, but refused — said once it is known.
        field = find(preferences, "the token field", None, "User Token")
        field = field if field.roleName != "list item" else \
            find(field, "the token's text", "password text")
        field.text = "1" * 32
        find(preferences, "the Connect button", "push button",
                      "Connect").doActionNamed("click")
        said = status_says(preferences, app, "Token saved in the keyring,")
        if "refused the token" not in said:
            raise Failure(f"Preferences does not say the token was refused: {said!r}")
        # Said on the token's field too, where a new one goes: invalid, and
        # described by what is wrong, for a screen reader as much as the eye.
        if not invalid(field) or field.description != said:
            raise Failure(f"the token field: invalid {invalid(field)}, described as "
                          f"{field.description!r}, not as {said!r}")

        # The right one: connected.
        field.text = token
        find(preferences, "the Connect button", "push button",
                      "Connect").doActionNamed("click")
        status_says(preferences, app, "Token saved in the keyring. Connected")
        if invalid(field) or field.description:
            raise Failure(f"connected, the token field stays invalid ({field.description!r})")

        # The tray and the bubble say it no more.
        wait_for("the tray to say requests arrive again",
                 lambda: app.alive() or tray.properties(item)["ToolTip"][2:] ==
                 ("Triage", "No requests waiting"), timeout=30)
        if tray.properties(item)["Title"] != "Triage":
            raise Failure(f"the tray's title stays {tray.properties(item)['Title']!r}")
        notifyd.wait_withdrawn(bubble["id"])
    finally:
        if app is not None:
            app.kill()
        server.stop()
        world.cleanup()


if __name__ == "__main__":
    run([
        ("a refused token: the tray, Preferences and the bubble say so, then no more",
         test_refused_token_told),
    ])
