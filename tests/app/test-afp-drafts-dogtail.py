#!/usr/bin/python3
# test-afp-drafts-dogtail.py — the feedback a person wrote in an AFP review
# and did not send survives the app, as an ATP draft does
# (test-drafts-dogtail.py): the real triage binary, a real triage-server with
# a review asked by `triage-ask --afp`, driven through AT-SPI (dogtail). A
# confidence, its justification and a summary are in the app's database a
# moment after the person stops; the app killed (SIGKILL) and started again
# shows them when the review is opened, ready to send.
#
# Then the app's disk fills (its file size limit, RLIMIT_FSIZE, drops to 0
# with prlimit, SIGXFSZ ignored: writes fail with EFBIG as on a full disk,
# the chaos tests' way): what is typed next cannot be written, and the window
# says so in a toast that stays, once; with the limit back, what is typed is
# written again and the toast goes. Sent, the draft leaves the database and
# the requester reads the summary typed last.
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
from a11ytest import find, find_app, find_where, rawinput  # noqa: E402  (dogtail first)
from afptest import ask, finish  # noqa: E402
from apptest import Failure, FullDiskApp, Notifyd, Server, World, run, wait_for  # noqa: E402

TITLE = "Release notes draft"
REQUEST = {"iteration": 1,
           "artifact": {"media_type": "text/plain", "content": "Version 2 is faster."}}
TOAST = "Drafts are not being saved"

notifyd = Notifyd()


def review_read(proc):
    """The feedback the requester read (its stream's text part)."""
    return json.loads(json.loads(finish(proc).splitlines()[1])["part"]["text"])["feedback"]


def stored(app):
    """The one draft in the app's database as (request id, decoded), or (None, None)."""
    drafts = app.drafts()
    if len(drafts) > 1:
        raise Failure(f"drafts of more than one request: {drafts}")
    for nid, text in drafts.items():
        return nid, json.loads(text)
    return None, None


def wait_stored(app, what, predicate):
    try:
        return wait_for(what, lambda: predicate(stored(app)[1] or {}) and stored(app)[0])
    except Failure as e:
        raise Failure(f"{e}; the database holds {stored(app)[1]}") from None


def summary_is(text):
    return lambda draft: draft.get("general_summary") == text


def type_into(key, text):
    """A mnemonic (Alt+key) takes the keyboard to the field, selecting what
    it holds; the text typed replaces it. GTK 4.8 does not tell AT-SPI an
    entry's text: what was typed is checked in the database."""
    rawinput.keyCombo("<Alt>" + key)
    rawinput.typeText(text)


def open_review(triage, nid):
    notifyd.activate("open-request", nid)
    rawinput.absoluteMotion(400, 300)   # over the window, which has the keyboard then
    find(triage, "the editor's heading", "heading", "Your Review")


def toast(triage):
    return triage.findChild(lambda n: n.roleName == "label" and n.name.startswith(TOAST),
                            retry=False, requireResult=False)


def test_restart_and_full_disk():
    world = World("afp-drafts")
    server = Server(world)
    app = FullDiskApp(world, service=False, GTK_A11Y=None, NO_AT_BRIDGE=None)
    try:
        server.start()
        proc = ask(world, REQUEST, title=TITLE)
        app.start()
        triage = find_app(app, timeout=30)
        bubble = notifyd.wait_notify(f"Review requested: {TITLE}")
        notifyd.press(bubble["id"], "default")
        rawinput.absoluteMotion(400, 300)
        find(triage, "the editor's heading", "heading", "Your Review")

        # Written: in the database once the person stops.
        low = find_where(triage, "the Low confidence",
                         lambda n: n.name == "Low" and n.roleName in ("radio button", "check box"))
        rawinput.keyCombo("<Alt>w")
        wait_for("Low to be chosen", lambda: low.checked, interval=0.1)
        type_into("y", "Read it twice.")
        type_into("u", "Say how much faster.")
        nid = wait_stored(app, "the feedback in the app's database",
                          lambda d: d.get("confidence") == {"level": "low",
                                                            "justification": "Read it twice."}
                          and summary_is("Say how much faster.")(d))

        # A crash: the next start shows it all again, ready to send.
        app.kill()
        app.start()
        triage = find_app(app, timeout=30)
        open_review(triage, nid)
        low = find_where(triage, "the Low confidence",
                         lambda n: n.name == "Low" and n.roleName in ("radio button", "check box"))
        wait_for("Low chosen again", lambda: low.checked, interval=0.1)
        send = find(triage, "Send Review", "push button", "Send Review")
        wait_for("Send Review enabled by the feedback read back", lambda: send.sensitive, interval=0.1)

        # The disk full: what is typed now is not kept, and the window says so, once.
        limit = app.fill_disk()
        type_into("u", "Twice as fast.")
        wait_for("the toast saying drafts are not saved", lambda: toast(triage))
        if not summary_is("Say how much faster.")(stored(app)[1]):
            raise Failure(f"a write on a full disk reached the database: {stored(app)[1]}")
        toasts = triage.findChildren(lambda n: n.roleName == "label" and n.name.startswith(TOAST))
        if len(toasts) != 1:
            raise Failure(f"{len(toasts)} toasts about drafts, not one")

        # Space is back: the next change is written, and the toast goes.
        app.free_disk(limit)
        type_into("u", "Twice as fast on a cold start.")
        wait_stored(app, "the summary written once space is back",
                    summary_is("Twice as fast on a cold start."))
        wait_for("the toast to go", lambda: toast(triage) is None)

        # Sent: the answer takes the draft; the requester reads what was typed last.
        wait_for("Send Review enabled", lambda: send.sensitive, interval=0.1)
        send.doActionNamed("click")
        wait_for("the draft to leave the database", lambda: not app.drafts())
        feedback = review_read(proc)
        if feedback.get("general_summary") != "Twice as fast on a cold start." or \
                feedback.get("confidence", {}).get("level") != "low":
            raise Failure(f"the requester read {feedback}")
    finally:
        app.stop()
        server.stop()
        world.stop_servers()
        world.cleanup()


run([("an AFP review's draft survives a crash; a full disk is told until writes work again",
      test_restart_and_full_disk)])
