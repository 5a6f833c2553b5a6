#!/usr/bin/python3
# test-aitp-drafts-dogtail.py — what a person ticked in an AITP-02 decision
# and did not send survives the app, as an ATP draft does
# (test-drafts-dogtail.py): the real triage binary, a real triage-server with
# seed 003's checkbox decision posted by an agent, driven through AT-SPI
# (dogtail). Two options ticked are in the app's database a moment after the
# person stops; the app killed (SIGKILL) and started again ticks them again
# when the request is opened; sent, the draft leaves the database and the
# agent reads what was ticked.
#
# Runs under tests/fake-notifyd.py --private-bus --no-click, with GTK_A11Y
# unset for the app (the accessibility bus is D-Bus-activated on that bus).
#
# Copyright 2026 The Triage authors
# SPDX-License-Identifier: GPL-3.0-or-later

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import aitptest  # noqa: E402
from a11ytest import find, find_app  # noqa: E402  (dogtail first)
from apptest import App, Failure, Notifyd, Server, World, run, wait_for  # noqa: E402

HEADING = "Your Favorite Colors"

notifyd = Notifyd()


def open_request(triage, nid):
    notifyd.activate("open-request", nid)
    find(triage, "the request's heading", "heading", HEADING)
    return find(triage, "the Blue box", "check box", "Blue"), find(triage, "the Red box", "check box", "Red")


def stored(app, nid):
    """The draft of nid in the app's database, decoded, or None."""
    text = app.drafts().get(nid)
    return None if text is None else json.loads(text)


def test_restart():
    world = World("aitp-drafts")
    server = Server(world)
    app = None
    try:
        server.start()
        request = aitptest.load("seed-003-checkbox-request.json")
        nid = aitptest.post(server, request)

        app = App(world, service=False, GTK_A11Y=None, NO_AT_BRIDGE=None).start()
        triage = find_app(app, timeout=30)
        blue, red = open_request(triage, nid)
        blue.click()
        red.click()
        want = {"blue": True, "red": True}
        try:
            wait_for("the ticks in the app's database", lambda: stored(app, nid) == want)
        except Failure as e:
            raise Failure(f"{e}; it holds {stored(app, nid)}") from None

        # A crash: the next start ticks them again.
        app.kill()
        app = App(world, service=False, GTK_A11Y=None, NO_AT_BRIDGE=None).start()
        triage = find_app(app, timeout=30)
        blue, red = open_request(triage, nid)
        wait_for("Blue and Red ticked again", lambda: blue.checked and red.checked, interval=0.1)
        green = find(triage, "the Green box", "check box", "Green")
        if green.checked:
            raise Failure("Green was ticked, and never by the person")

        # Sent: the answer entering the outbox takes the draft; the agent reads the ticks.
        send = find(triage, "the Send button", "push button", "Send")
        wait_for("Send to be enabled", lambda: send.sensitive, interval=0.1)
        send.click()
        wait_for("the draft to leave the database", lambda: nid not in app.drafts())
        aitptest.wait_decision(server, nid, request,
                               [{"id": "blue", "name": "Blue"}, {"id": "red", "name": "Red"}])
    finally:
        if app is not None:
            app.stop()
        server.stop()
        world.stop_servers()
        world.cleanup()


run([("an AITP decision's ticks survive a crash, and go when sent", test_restart)])
