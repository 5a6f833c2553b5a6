#!/usr/bin/python3
# test-connection-problems.py — what the window of the real triage binary says
# when the connection ends in a configuration error, read through the
# accessibility tree (dogtail) as a screen reader finds it:
#
# - a team server serving TLS with a self-signed certificate this computer
#   does not trust (a real triage-server with --tls-certificate): the bar says
#   nothing is pending, so a status page takes the empty inbox's place (whose
#   help would say requests arrive here): the connection cannot be made
#   securely, why (the issuer is not trusted), and what to do, with an Open
#   Preferences button — never "Offline", "no network" or "Trying again",
#   though the stream tries again behind it (checked after two of its
#   tries); the button opens Preferences, where the person enters another
#   server (a real triage-server on 127.0.0.1) and connects: a request posted
#   there shows in the list, and the connection bar says "Connected";
# - a server address that is not one (another scheme, no host): the page says
#   which problem it has, in sentences, with Open Preferences and no "Retry
#   Now" (trying the same address again cannot help);
# - no token stored yet, the app in the background with bubbles turned off
#   and no tray: the window opens (nothing else could tell the person) and
#   says which step is missing, with Open Preferences alone;
# - the token refused while the app runs in the background with no window:
#   it stays (it used to quit without a word), says so in a bubble (recorded
#   by fake-notifyd), and the bubble opens the window, which says what to do;
# - the app's own database cannot open: says so and what to do, offers no
#   button that cannot help, and not "Offline".
#
# The app runs in remote mode (settings in a key file), its user tokens in a
# gnome-keyring of this test's own on the private bus of
# tests/fake-notifyd.py --private-bus (which keeps the accessibility bus).
#
# Copyright 2026 The Triage authors
# SPDX-License-Identifier: GPL-3.0-or-later

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from a11ytest import buttons, find, find_app  # noqa: E402  (sets dogtail up first)
from apptest import (Failure, Notifyd, RemoteApp, TcpServer, World, run,  # noqa: E402
                     start_keyring, store_token, wait_for)


def problem_page(triage, app, title):
    """The status page that takes the empty inbox's place, once its title is
    @title; returns it and all it says (title, description)."""
    def page():
        app.alive()
        return triage.findChild(lambda n: n.roleName == "panel" and n.name == title,
                                retry=False, requireResult=False)
    try:
        found = wait_for(f"a status page titled {title!r}", page, timeout=30, interval=0.2)
    except Failure:
        said = [n.name for n in triage.findChildren(lambda n: n.roleName == "panel" and n.name
                                                    and n.name != "GtkStackPage")]
        raise Failure(f"no status page says {title!r}; the window's panels say {said}") from None
    labels = [n.name for n in found.findChildren(lambda n: n.roleName == "label" and n.name)]
    return found, " ".join([title] + labels)


MISLEADING = ("Offline", "no network", "Trying again", "Reconnecting", "Connecting")


def assert_not_misleading(text):
    for words in MISLEADING:
        if words in text:
            raise Failure(f"the window says {words!r} of a configuration error: {text!r}")


def assert_says(text, *parts):
    for part in parts:
        if part not in text:
            raise Failure(f"the window does not say {part!r}: {text!r}")


def test_untrusted_certificate():
    world = World("connection-tls")
    tls = TcpServer(world, name="tls", tls=True)
    plain = TcpServer(world, name="plain")
    app = None
    try:
        tls.start()
        plain.start()
        store_token(tls.url, tls.user("ana"))
        store_token(plain.url, plain.user("ana"))
        key = plain.service("Fixed bot", ["ana"])
        app = RemoteApp(world, tls.url, service=False, a11y=True).start()
        triage = find_app(app)

        # Nothing pending: a status page, not the empty inbox's "it appears here".
        page, text = problem_page(triage, app, "Cannot Connect Securely")
        assert_says(text, "its issuer is not trusted on this computer", tls.url, "Preferences")
        assert_not_misleading(text)
        if buttons(page) != ["Open Preferences", "Retry Now"]:
            raise Failure(f"the page offers {buttons(page)}, not Open Preferences and Retry Now")

        # The stream still tries again behind it (for when the certificate is
        # fixed): two more tries change nothing the person reads.
        seen = app.tries_ended()
        wait_for("two more tries of the stream", lambda: app.alive() or
                 app.tries_ended() >= seen + 2, timeout=60, interval=0.2)
        page, text = problem_page(triage, app, "Cannot Connect Securely")
        assert_says(text, "its issuer is not trusted on this computer")
        assert_not_misleading(text)

        # Fixed in Preferences, opened from the page: another server.
        find(page, "the page's Preferences button", "push button",
             "Open Preferences").doActionNamed("click")
        preferences = find(triage, "the Preferences window", "frame", "Preferences")
        # Entered through AT-SPI's EditableText, as an on-screen keyboard or a
        # screen reader would (GTK 4.8 reports neither the field's focus nor,
        # in an AdwEntryRow, its text back: the outcome below checks it).
        address = find(preferences, "the server address field", "text", "Server Address")
        address.text = plain.url
        find(preferences, "the Connect button", "push button", "Connect").doActionNamed("click")

        # The other server's request shows, and the connection bar says all is well.
        plain.post(key, "After the fix?")
        find(triage, "the request in the list", "label", "After the fix?", timeout=30)
        wait_for("the connection bar to say the app is connected",
                 lambda: app.alive() or triage.findChild(
                     lambda n: n.roleName == "panel" and n.name == "Connected",
                     retry=False, requireResult=False), timeout=30, interval=0.2)
    finally:
        if app is not None:
            app.kill()
        tls.stop()
        plain.stop()
        world.cleanup()


def test_refused_in_background():
    """The server stops accepting the token while the app runs in the
    background, no window open: it used to quit there and then, silently,
    leaving the person to think requests still arrive as bubbles. It stays,
    says so in a bubble, and that bubble opens the window saying what to do."""
    world = World("connection-background")
    server = TcpServer(world, name="team")
    notifyd = Notifyd()
    app = None
    try:
        server.start()
        store_token(server.url, server.user("ana"))
        key = server.service("Background bot", ["ana"])
        app = RemoteApp(world, server.url, a11y=True).start()
        server.post(key, "While connected?")
        notifyd.wait_notify("While connected?")

        # Another database behind the same address: the token is unknown there.
        server.stop()
        os.remove(server.database)
        server.start()
        try:
            bubble = wait_for("a bubble saying the app cannot receive requests",
                              lambda: app.alive() or
                              notifyd.notifies("Triage cannot receive requests"), timeout=30)[-1]
        except Failure:
            app.alive()
            raise
        if "refused the token" not in bubble["body"]:
            raise Failure(f"the bubble does not say why: {bubble['body']!r}")
        app.alive()

        # Its button opens the window, which says what is wrong (the request
        # kept from before is listed, under the bar).
        notifyd.press(bubble["id"], "default")
        triage = find_app(app)
        bar = wait_for("the connection bar to say the sign-in failed",
                       lambda: app.alive() or triage.findChild(
                           lambda n: n.roleName == "panel" and n.name.startswith("Sign-in failed"),
                           retry=False, requireResult=False), timeout=30, interval=0.2)
        assert_says(bar.name, "refused the token", "Preferences")
        if "Preferences" not in buttons(bar):
            raise Failure(f"the bar offers {buttons(bar)}, not Preferences")
    finally:
        if app is not None:
            app.kill()
        server.stop()
        world.cleanup()


def test_database_cannot_open():
    """The app's own database cannot open (here a folder is where it goes):
    not "Offline" with a Retry that did nothing and the empty inbox's "send
    yourself a first request", but what is wrong and what to do."""
    world = World("connection-database")
    app = None
    try:
        os.makedirs(world.app_db)
        app = RemoteApp(world, "", service=False)
        app.env = dict(GTK_A11Y=None, NO_AT_BRIDGE=None)   # local mode, as installed
        app.start()
        triage = find_app(app)
        page, text = problem_page(triage, app, "Cannot Open the App’s Database")
        assert_says(text, "triage.db", "restart Triage")
        assert_not_misleading(text)
        if buttons(page):
            raise Failure(f"the page offers {buttons(page)}, which cannot help")
    finally:
        if app is not None:
            app.kill()
        world.stop_servers()
        world.cleanup()


BAD_ADDRESSES = {
    # Another scheme: libatp's reason ended "… not htp:", and the page then
    # read "… not htp: Correct it in Preferences."
    "htp://triage.example.com":
        "“htp://triage.example.com” begins with htp://, which is not a way to reach a server: "
        "an address begins with https:// (or http:// for a server on this computer). "
        "Correct it in Preferences.",
    "https://":
        "“https://” names no server: enter its host name after the //, as in "
        "https://triage.example.com. Correct it in Preferences.",
}


def test_bad_address():
    """Each kind of address that is not one: the page says which problem it
    has, in sentences, and what to do, with Open Preferences and no Retry."""
    for address, description in BAD_ADDRESSES.items():
        world = World("connection-address")
        app = None
        try:
            app = RemoteApp(world, address, service=False, a11y=True).start()
            triage = find_app(app)
            page, text = problem_page(triage, app, "The Server Address Is Not Valid")
            if description not in text:
                raise Failure(f"for {address!r} the page says {text!r}, not {description!r}")
            assert_not_misleading(text)
            # Trying the same address again cannot help.
            if buttons(page) != ["Open Preferences"]:
                raise Failure(f"the page offers {buttons(page)}, not Open Preferences alone")
        finally:
            if app is not None:
                app.kill()
            world.cleanup()


def test_no_token_without_bubbles():
    """No token stored yet (a first run), the app started in the background
    with bubbles turned off in Preferences and no tray to show its icon:
    nothing else could say that requests cannot arrive, and it used to wait
    unseen for a bubble that never showed. The window opens and says which
    step is missing, not that a sign-in failed, and offers what does it
    (Preferences), not a Retry that cannot find a token."""
    world = World("connection-no-token")
    notifyd = Notifyd()
    url = "https://triage.example.com"   # never reached: there is no token to send
    app = None
    try:
        app = RemoteApp(world, url, a11y=True,
                        settings={"notifications-enabled": "false"}).start()
        triage = find_app(app)
        page, text = problem_page(triage, app, "User Token Needed")
        assert_says(text, f"No user token is stored for {url} yet.", "in Preferences.")
        assert_not_misleading(text)
        if "ailed" in text:
            raise Failure(f"a token never entered is said to have failed: {text!r}")
        if buttons(page) != ["Open Preferences"]:
            raise Failure(f"the page offers {buttons(page)}, not Open Preferences alone")
        if notifyd.notifies("Triage cannot receive requests"):
            raise Failure("a bubble was shown, though bubbles are turned off")
        app.alive()
    finally:
        if app is not None:
            app.kill()
        world.cleanup()


if __name__ == "__main__":
    start_keyring()
    run([
        ("untrusted certificate: said, then fixed in Preferences", test_untrusted_certificate),
        ("a server address that is not one, of each kind", test_bad_address),
        ("no token yet, bubbles off: the window says the step", test_no_token_without_bubbles),
        ("a token refused in the background: told, not a quiet exit", test_refused_in_background),
        ("the app's database cannot open", test_database_cannot_open),
    ])
