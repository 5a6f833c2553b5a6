#!/usr/bin/python3
# test-mcp-app.py — a question from triage-mcp reaches the person through the real
# triage app, and the tool result carries what they answered. Runs under
# tests/fake-notifyd.py --private-bus --no-click: the test presses the bubble's
# button the way a person would, and opens the request in the app.
#
# Copyright 2026 The Triage authors
# SPDX-License-Identifier: GPL-3.0-or-later

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mcptest import Mcp  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "app"))
from apptest import (App, Failure, Notifyd, Server, World, run,  # noqa: E402
                     skip_without_display, wait_for)

skip_without_display()
notifyd = Notifyd()


def keys(bubble):
    return [key for key, _ in bubble["actions"]]


def test_approved_from_the_bubble():
    world = World("mcp-app")
    server = Server(world).start()
    app = App(world).start()
    mcp = Mcp(world)
    try:
        mcp.initialize(name="Coding Agent")
        id = mcp.tool("request_approval", {"title": "Run the migration?",
                                           "description": "Adds a column to orders"})
        bubble = notifyd.wait_notify("Run the migration?")
        if bubble["summary"] != "Coding Agent: Run the migration?":
            raise Failure(f"the bubble names the agent: {bubble['summary']!r}")
        if keys(bubble) != ["default", "respond:approve", "respond:deny", "open"]:
            raise Failure(f"bubble buttons {bubble['actions']}")
        notifyd.press(bubble["id"], "respond:approve")
        result = mcp.reply(id)["result"]
        sc = result["structuredContent"]
        if sc["outcome"] != "answered" or sc["approved"] is not True:
            raise Failure(f"the tool result does not carry the approval: {result}")
        wait_for("the app's outbox to empty", lambda: not app.outbox())

        # Cancelled by the agent: the request is withdrawn, and the bubble says so and why.
        id = mcp.tool("request_approval", {"title": "Restart the database?"})
        bubble = notifyd.wait_notify("Restart the database?")
        mcp.notify("notifications/cancelled", {"requestId": id, "reason": "not needed"})
        said = notifyd.wait_says(bubble["id"], "Withdrawn by Coding Agent at ")
        if said["actions"] or \
                not said["body"].endswith("Reason: the agent cancelled the question: not needed"):
            raise Failure(f"the withdrawn bubble: {said}")
    finally:
        mcp.stop()
        app.stop()
        server.stop()
        world.stop_servers()
        world.cleanup()


run([
    ("approved from the app's bubble", test_approved_from_the_bubble),
])
