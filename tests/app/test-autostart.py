#!/usr/bin/python3
# test-autostart.py — Start at Login of the real triage binary, with the
# settings in a key file and the autostart entry in the test's own
# XDG_CONFIG_HOME (under tests/fake-notifyd.py --private-bus; dogtail reads
# Preferences as a screen reader does). The entry starts the app without a
# window, which only stays while it runs in the background:
#
# - with Run in Background off, Start at Login cannot be turned on, shows
#   off and says why; turned on, Run in Background makes it operable; both on
#   write the entry, Run in Background off removes it and Start at Login
#   shows off again, and back on it comes back as the person left it;
# - an entry of ours stored with Run in Background off (an older version
#   wrote one: the app it started at login quit at once) is removed when the
#   app starts; one another tool made (GNOME Tweaks copies the launcher) is
#   left alone.
#
# Copyright 2026 The Triage authors
# SPDX-License-Identifier: GPL-3.0-or-later

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from a11ytest import find, find_app  # noqa: E402  (sets dogtail up first)
from apptest import App, Failure, Notifyd, Server, World, run, wait_for  # noqa: E402

APP_ID = "io.github.atptriage.Triage"
APP_PATH = "/io/github/atptriage/Triage"
NEEDS = "Needs Run in Background"

notifyd = Notifyd()

# What an older version wrote, and what GNOME Tweaks writes (the launcher).
OUR_ENTRY = """[Desktop Entry]
Type=Application
Name=Triage
Exec=triage --gapplication-service
NoDisplay=true
X-GNOME-Autostart-enabled=true
"""
TWEAKS_ENTRY = """[Desktop Entry]
Type=Application
Name=Triage
Exec=triage
DBusActivatable=true
"""


class KeyfileApp(App):
    """The real app in local mode with its settings in a key file (@settings:
    the keys, their GVariant text); with a11y=True on the accessibility bus."""

    def __init__(self, world, settings, service=True, a11y=False):
        env = dict(GSETTINGS_BACKEND="keyfile")
        if a11y:
            env.update(GTK_A11Y=None, NO_AT_BRIDGE=None)   # test_env hides it from AT-SPI
        super().__init__(world, service=service, **env)
        folder = os.path.join(world.config, "glib-2.0", "settings")
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, "keyfile"), "w") as f:
            f.write("[io/github/atptriage/Triage]\n")
            f.writelines(f"{key}={value}\n" for key, value in settings.items())


def entry_path(world):
    return os.path.join(world.config, "autostart", APP_ID + ".desktop")


def write_entry(world, text):
    os.makedirs(os.path.dirname(entry_path(world)), exist_ok=True)
    with open(entry_path(world), "w") as f:
        f.write(text)


def entry_exec(world):
    """The Exec line of the autostart entry, once it is whole; None if there is none."""
    try:
        with open(entry_path(world)) as f:
            lines = f.read().splitlines()
    except FileNotFoundError:
        return None
    if "X-GNOME-UsesNotifications=true" not in lines and "DBusActivatable=true" not in lines:
        return None     # being written
    return next((line[5:] for line in lines if line.startswith("Exec=")), "")


def activate(action):
    notifyd.bus.call_sync(APP_ID, APP_PATH, "org.gtk.Actions", "Activate",
                          notifyd.GLib.Variant("(sava{sv})", (action, [], {})),
                          None, notifyd.Gio.DBusCallFlags.NONE, 5000, None)


def switch_of(preferences, title):
    """The switch of the row titled @title (named by the row's title)."""
    return wait_for(f"the {title} switch",
                    lambda: preferences.findChild(
                        lambda n: n.roleName in ("check box", "toggle button", "switch") and
                        n.name == title, retry=False, requireResult=False),
                    timeout=20, interval=0.2)


def says(preferences, text):
    return preferences.findChild(lambda n: n.roleName == "label" and n.name and text in n.name,
                                 retry=False, requireResult=False) is not None


def expect_switch(app, switch, what, checked, sensitive):
    def settled():
        app.alive()
        return switch.checked == checked and switch.sensitive == sensitive
    try:
        wait_for(what, settled, timeout=20, interval=0.2)
    except Failure:
        raise Failure(f"{what}: checked {switch.checked}, sensitive {switch.sensitive}; "
                      f"expected {checked}, {sensitive}") from None


def test_preferences_follow_background():
    world = World("autostart-prefs")
    server = Server(world)
    app = None
    try:
        server.start()
        app = KeyfileApp(world, {"run-in-background": "false", "autostart": "false"},
                         service=False, a11y=True).start()
        triage = find_app(app)
        activate("preferences")
        preferences = find(triage, "the Preferences window", "frame", "Preferences")
        background = switch_of(preferences, "Run in Background")
        login = switch_of(preferences, "Start at Login")

        # Off in the background: Start at Login cannot be turned on, and says why.
        expect_switch(app, login, "Start at Login with Run in Background off", False, False)
        wait_for("Preferences to say Start at Login needs Run in Background",
                 lambda: says(preferences, NEEDS), timeout=20, interval=0.2)

        background.doActionNamed("toggle")
        expect_switch(app, login, "Start at Login with Run in Background on", False, True)
        if says(preferences, NEEDS):
            raise Failure("Start at Login still says it needs Run in Background")
        login.doActionNamed("toggle")
        expect_switch(app, login, "Start at Login turned on", True, True)
        wait_for("the autostart entry", lambda: app.alive() or
                 entry_exec(world) == "triage --gapplication-service", interval=0.1)

        # Run in Background off: no entry, Start at Login shows off and says why.
        background.doActionNamed("toggle")
        expect_switch(app, login, "Start at Login once Run in Background is off", False, False)
        wait_for("the autostart entry to be removed",
                 lambda: app.alive() or not os.path.exists(entry_path(world)), interval=0.1)
        wait_for("Preferences to say again that it needs Run in Background",
                 lambda: says(preferences, NEEDS), timeout=20, interval=0.2)

        # Back on: as the person left it.
        background.doActionNamed("toggle")
        expect_switch(app, login, "Start at Login once Run in Background is back on", True, True)
        wait_for("the autostart entry written again", lambda: app.alive() or
                 entry_exec(world) == "triage --gapplication-service", interval=0.1)
    finally:
        if app is not None:
            app.kill()
        server.stop()
        world.stop_servers()
        world.cleanup()


def test_stale_entry_removed():
    world = World("autostart-stale")
    server = Server(world)
    app = None
    try:
        server.start()
        write_entry(world, OUR_ENTRY)
        # Started at login as the entry starts it: it has nothing to stay for,
        # and takes the entry with it.
        app = KeyfileApp(world, {"run-in-background": "false", "autostart": "true"}).start()
        wait_for("the stale autostart entry to be removed",
                 lambda: not os.path.exists(entry_path(world)), interval=0.1)
        wait_for("the app to quit (nothing keeps it)", lambda: app.proc.poll() is not None,
                 timeout=30, interval=0.1)
        app.stop()

        # Another tool's entry (the launcher, which opens the window) stays.
        write_entry(world, TWEAKS_ENTRY)
        app = KeyfileApp(world, {"run-in-background": "false", "autostart": "false"}).start()
        wait_for("the app to quit (nothing keeps it)", lambda: app.proc.poll() is not None,
                 timeout=30, interval=0.1)
        if entry_exec(world) != "triage":
            raise Failure(f"another tool's autostart entry was changed: {entry_exec(world)!r}")
    finally:
        if app is not None:
            app.kill()
        server.stop()
        world.stop_servers()
        world.cleanup()


if __name__ == "__main__":
    run([
        ("an entry stored with Run in Background off is removed at start-up",
         test_stale_entry_removed),
        ("Start at Login needs Run in Background, in Preferences and in the entry",
         test_preferences_follow_background),
    ])
