#!/usr/bin/python3
# test-connection-unseen.py — the real triage binary in the background, in
# remote mode with no token stored (requests cannot arrive until the person
# enters one), on a session bus where no notification server answers (that of
# tests/app/with-private-keyring.sh: a keyring, nothing else) and no tray:
# the bubble that would say so cannot show, and nothing else would. The app
# used to stay in the background unseen, waiting for the person to see a
# bubble that never showed; the window opens instead, saying what to do.
#
# The window is looked for on the X display (xwininfo, xprop: x11-utils):
# there is no accessibility bus here.
#
# Copyright 2026 The Triage authors
# SPDX-License-Identifier: GPL-3.0-or-later

import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from apptest import Failure, RemoteApp, World, run, wait_for  # noqa: E402


def shown_windows(pid, title):
    """The X windows of process @pid titled @title that are on screen."""
    tree = subprocess.run(["xwininfo", "-root", "-tree"], capture_output=True, text=True).stdout
    found = []
    for wid in re.findall(r"^\s*(0x[0-9a-f]+) " + re.escape(f'"{title}"'), tree, re.M):
        owner = subprocess.run(["xprop", "-id", wid, "_NET_WM_PID"], capture_output=True,
                               text=True).stdout
        state = subprocess.run(["xwininfo", "-id", wid], capture_output=True, text=True).stdout
        if owner.strip().endswith(f"= {pid}") and "IsViewable" in state:
            found.append(wid)
    return found


def test_no_notification_server():
    world = World("connection-unseen")
    app = None
    try:
        app = RemoteApp(world, "https://triage.example.com").start()
        wait_for("the app to find no notification server",
                 lambda: app.alive() or any("Desktop notifications are unavailable" in line
                                            for line in app.log_lines()), timeout=30)
        try:
            wait_for("the window to open", lambda: app.alive() or
                     shown_windows(app.proc.pid, "Triage"), timeout=30, interval=0.2)
        except Failure:
            raise Failure("the app stays unseen in the background, though nothing told the "
                          "person that requests cannot arrive") from None
        app.alive()
    finally:
        if app is not None:
            app.kill()
        world.cleanup()


if __name__ == "__main__":
    if not (shutil.which("xwininfo") and shutil.which("xprop")) or not os.environ.get("DISPLAY"):
        print("1..0 # SKIP needs an X display, xwininfo and xprop (x11-utils)")
        sys.exit(0)
    run([
        ("no notification server, no tray: the window says requests cannot arrive",
         test_no_notification_server),
    ])
