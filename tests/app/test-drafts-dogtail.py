#!/usr/bin/python3
# test-drafts-dogtail.py — what a person typed and did not send survives the
# app: the real triage binary, a real triage-server, driven through AT-SPI
# (dogtail). A reason typed and a number set are in the app's database a
# moment after the person stops; the app killed (SIGKILL, as a crash or a
# lost session ends it) and started again shows them when the request is
# opened; more typed and the app quit at once (Ctrl+Q's action) is kept too.
# A request answered on another device takes its draft out of the database,
# while the app runs and while it does not (the next start learns it).
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
from a11ytest import find, find_app, rawinput  # noqa: E402  (dogtail first)
from apptest import WAIT, App, Failure, Notifyd, Server, World, run, wait_for  # noqa: E402

ACTIONS = [{"id": "reason", "label": "Reason", "response_type": "text",
            "constraints": {"min_length": 5, "max_length": 200}},
           {"id": "replicas", "label": "Replicas", "response_type": "number",
            "constraints": {"min": 1, "max": 9}}]
TITLE = "Why the rollback?"

notifyd = Notifyd()


class Scene:
    """A real server with one request posted, and the app (started, killed,
    started again) in a world of their own."""

    def __init__(self, name):
        self.world = World(name)
        self.server = Server(self.world)
        self.app = None
        self.nid = None

    def __enter__(self):
        self.server.start()
        self.nid = self.server.post(TITLE, ACTIONS)
        return self

    def __exit__(self, *exc):
        if self.app is not None:
            self.app.stop()
        self.server.stop()
        self.world.cleanup()

    def start_app(self, window=True):
        """The app, as a person starts it (its window opens, seen through
        AT-SPI: returned), or in the background."""
        self.app = App(self.world, service=not window, GTK_A11Y=None, NO_AT_BRIDGE=None).start()
        return find_app(self.app, timeout=30) if window else None

    def answer_elsewhere(self, action_id, data):
        status, reply = self.server.respond_as_client(self.nid, action_id, data)
        if status != 200:
            raise Failure(f"the answer from elsewhere: {status} {reply}")


def open_request(triage, nid):
    notifyd.activate("open-request", nid)
    find(triage, "the request's heading", "heading", TITLE)
    return (find(triage, "the Reason field", "text", "Reason"),
            find(triage, "the Replicas field", "spin button", "Replicas"))


def type_into(field, text):
    field.click()
    wait_for("the field to have the focus", lambda: field.focused, interval=0.1)
    before = field.text
    rawinput.typeText(text)
    wait_for(f"{text!r} in the field", lambda: field.text == before + text, interval=0.1)


def stored(app, nid):
    """The draft of nid in the app's database, decoded, or None."""
    text = app.drafts().get(nid)
    return None if text is None else json.loads(text)


def wait_stored(app, nid, want):
    try:
        wait_for(f"the draft {want} in the app's database", lambda: stored(app, nid) == want)
    except Failure as e:
        raise Failure(f"{e}; it holds {stored(app, nid)}") from None


def quit_app(app):
    """app.quit, as Ctrl+Q or the tray's Quit: the app may exit before it replies."""
    try:
        notifyd.activate("quit")
    except Exception:  # noqa: BLE001 — gone before its reply: what was asked
        pass
    app.proc.wait(timeout=WAIT)
    app.proc = None


def test_restart():
    with Scene("drafts") as s:
        nid = s.nid
        triage = s.start_app()

        # Typed and set: in the database once the person stops, no quitting needed.
        reason, replicas = open_request(triage, nid)
        type_into(reason, "The canary failed")
        replicas.value = 7
        wait_stored(s.app, nid, {"reason": "The canary failed", "replicas": "7"})

        # A crash: nothing more is written. The next start shows it all again.
        s.app.kill()
        triage = s.start_app()
        reason, _ = open_request(triage, nid)
        wait_for("the reason typed before the crash",
                 lambda: reason.text == "The canary failed", interval=0.1)

        # More typed, and quit at once: the window keeps it as it closes (the
        # number too, which was put back in its field: AT-SPI's value is the
        # spin button's adjustment, which the field's text sets only on Enter).
        type_into(reason, " twice")
        quit_app(s.app)
        if stored(s.app, nid) != {"reason": "The canary failed twice", "replicas": "7"}:
            raise Failure(f"after quitting, the database holds {stored(s.app, nid)}")
        triage = s.start_app()
        reason, _ = open_request(triage, nid)
        wait_for("the reason typed before quitting",
                 lambda: reason.text == "The canary failed twice", interval=0.1)

        # Answered on another device while it is open: the draft goes from the
        # database, the text stays on screen (read-only).
        s.answer_elsewhere("reason", "Rolled back by Sam")
        wait_for("the draft to leave the database", lambda: nid not in s.app.drafts())
        wait_for("the field to turn read-only", lambda: not reason.sensitive, interval=0.1)


def test_answered_while_away():
    with Scene("drafts-away") as s:
        triage = s.start_app()
        reason, _ = open_request(triage, s.nid)
        type_into(reason, "Half a reason")
        wait_stored(s.app, s.nid, {"reason": "Half a reason"})
        s.app.kill()

        s.answer_elsewhere("replicas", 3)
        s.start_app(window=False)

        def gone():
            s.app.alive()
            return s.nid not in s.app.drafts()
        wait_for("the draft to leave the database once the app learns of the answer", gone)


run([("a draft survives a crash and quitting, and goes when answered elsewhere", test_restart),
     ("a request answered while the app was away takes its draft", test_answered_while_away)])
