#!/usr/bin/python3
# test-aitp-scenarios.py — AITP-02 decisions through the real triage binary and
# a real triage-server, under tests/fake-notifyd.py --private-bus --no-click
# (which records every bubble and presses its buttons when asked):
#
#   - a radio and a confirmation decision of a few options get a button per
#     option in their bubble (when it shows the description whole in its
#     lines); pressing one answers, and the agent's decision validates against
#     AITP-02's `Decision`;
#   - a checkbox or products decision, or one whose agent asks for a
#     confirmation (x-triage.confirm), only opens the view;
#   - an answer given from a bubble while the server is down waits in the
#     outbox, survives a kill -9 of the app, and is delivered once both are
#     back, exactly once.
#
# Copyright 2026 The Triage authors
# SPDX-License-Identifier: GPL-3.0-or-later

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import aitptest  # noqa: E402
from apptest import (App, Failure, Notifyd, Server, World, run,  # noqa: E402
                     EIGHT_SHORT_LINES, EIGHT_SHORT_LINES_SHOWN, FIVE_FULL_LINES,
                     skip_without_display, wait_for)

skip_without_display()

notifyd = Notifyd()


class Scenario:
    def __init__(self, name):
        self.world = World(name)
        self.server = Server(self.world)
        self.app = App(self.world)

    def __enter__(self):
        self.server.start()
        self.app.start()
        return self

    def ask(self, name, summary, **changes):
        """Posts example @name as an agent (with @changes to its
        request_decision) and waits for its bubble, whose summary holds @summary
        (the bubbles of earlier tests stay in the log: each test asks with
        titles of its own); returns (request, id, bubble)."""
        request = aitptest.load(name)
        request["request_decision"].update(changes)
        decision_id = aitptest.post(self.server, request)
        return request, decision_id, notifyd.wait_notify(summary)

    def __exit__(self, *exc):
        self.app.stop()
        self.server.stop()
        self.world.stop_servers()   # any the app started, which outlive it by design
        self.world.cleanup()


def keys(notify):
    return [k for k, _ in notify["actions"]]


def test_bubble_radio():
    with Scenario("aitp-radio") as s:
        request, nid, bubble = s.ask("seed-003-radio-request.json", "Select your favorite number:")
        if bubble["summary"] != "Test Bot (AITP): Select your favorite number:":
            raise Failure(f"summary {bubble['summary']!r}")
        if keys(bubble) != ["default", "respond:0", "respond:7", "respond:100", "open"]:
            raise Failure(f"actions {bubble['actions']}")
        if [label for _, label in bubble["actions"][1:4]] != ["0", "7", "100"]:
            raise Failure(f"labels {bubble['actions']}")
        notifyd.press(bubble["id"], "respond:7")
        aitptest.wait_decision(s.server, nid, request, [{"id": "7", "name": "7"}])
        wait_for("the outbox to empty", lambda: not s.app.outbox())


def test_bubble_confirmation():
    with Scenario("aitp-confirmation") as s:
        request, nid, bubble = s.ask("seed-003-confirmation-request.json", "Please confirm")
        if keys(bubble) != ["default", "respond:1", "respond:2", "respond:3", "open"]:
            raise Failure(f"actions {bubble['actions']}")
        if bubble["actions"][2][1] != "No, that's not healthy":
            raise Failure(f"labels {bubble['actions']}")
        notifyd.press(bubble["id"], "respond:2")
        aitptest.wait_decision(s.server, nid, request,
                               [{"id": "2", "name": "No, that's not healthy"}])


def test_bubble_lines():
    """As for ATP, the bubble's buttons go with a description shown whole in
    its lines: five full lines get them, eight short lines do not."""
    with Scenario("aitp-lines") as s:
        request, nid, bubble = s.ask("seed-003-radio-request.json", "Five full lines, AITP?",
                                     id="radio-five-lines", title="Five full lines, AITP?",
                                     description=FIVE_FULL_LINES)
        if bubble["body"] != FIVE_FULL_LINES:
            raise Failure(f"body {bubble['body']!r}")
        if keys(bubble) != ["default", "respond:0", "respond:7", "respond:100", "open"]:
            raise Failure(f"actions {bubble['actions']}")
        notifyd.press(bubble["id"], "respond:7")
        aitptest.wait_decision(s.server, nid, request, [{"id": "7", "name": "7"}])
        _, _, cut = s.ask("seed-003-radio-request.json", "Eight short lines, AITP?",
                          id="radio-eight-lines", title="Eight short lines, AITP?",
                          description=EIGHT_SHORT_LINES)
        if cut["body"] != EIGHT_SHORT_LINES_SHOWN or keys(cut) != ["default", "open"]:
            raise Failure(f"a cut description's bubble: {cut['body']!r}, {cut['actions']}")


def test_bubble_opens_only():
    with Scenario("aitp-open-only") as s:
        cases = [("seed-003-checkbox-request.json", "Your Favorite Colors", {}),
                 ("seed-003-products-request.json", "Recommended Products", {}),
                 ("seed-003-radio-request.json", "Pick one, confirmed",
                  {"id": "radio-confirmed", "title": "Pick one, confirmed"})]
        for name, title, changes in cases:
            request = aitptest.load(name)
            request["request_decision"].update(changes)
            if changes:
                request["x-triage"] = {"confirm": True}
            aitptest.post(s.server, request)
            bubble = notifyd.wait_notify(title)
            if keys(bubble) != ["default", "open"]:
                raise Failure(f"{title}: actions {bubble['actions']}")


def test_outbox_while_offline():
    with Scenario("aitp-outbox") as s:
        # A title of its own: the log holds the bubbles of the tests before.
        request, nid, bubble = s.ask("seed-003-radio-request.json", "Your number, offline?",
                                     title="Your number, offline?")
        s.server.kill()
        notifyd.press(bubble["id"], "respond:100")
        rows = wait_for("the answer in the app's outbox", s.app.outbox)
        if rows[0][0] != nid or rows[0][1] != "decision" or \
                json.loads(rows[0][2]) != {"options": [{"id": "100", "name": "100"}]}:
            raise Failure(f"outbox {rows}")
        s.app.kill()                      # kill -9, with the answer only on disk
        s.server.start()
        if aitptest.view(s.server, nid)["status"] != "pending":
            raise Failure("answered before the app came back")
        s.app.start()
        aitptest.wait_decision(s.server, nid, request, [{"id": "100", "name": "100"}])
        wait_for("the outbox to empty", lambda: not s.app.outbox())
        # Sent once: a second answer is refused with 409.
        status, _ = s.server.respond_as_client(nid, "decision", {"options": [{"id": "0"}]})
        if status != 409:
            raise Failure(f"a second answer got {status}, not 409")


run([
    ("a radio decision answered from its bubble", test_bubble_radio),
    ("a confirmation answered from its bubble", test_bubble_confirmation),
    ("bubble buttons go with a description shown whole in lines", test_bubble_lines),
    ("checkbox, products and confirmed decisions only open the view", test_bubble_opens_only),
    ("an answer given offline waits in the outbox, delivered once", test_outbox_while_offline),
])
