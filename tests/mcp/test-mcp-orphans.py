#!/usr/bin/python3
# test-mcp-orphans.py — a question triage-mcp gives up on does not stay in the person's
# inbox: the server gone past --retry-for while the person had not answered (the agent
# gets its error), or the agent cancelling while the server is down or draining. The
# withdrawal the server could not take is tried again while the session lasts, so the
# real server, stopped (SIGKILL or its drain) and started again, withdraws it.
#
# Copyright 2026 The Triage authors
# SPDX-License-Identifier: GPL-3.0-or-later

import glob
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mcptest import Failure, Session, wait_for  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "app"))
from apptest import run  # noqa: E402

OWED = b"trying again while the session lasts"


def withdrawn(s, nid):
    wait_for("the request to be withdrawn", lambda: s.status(nid) == "invalidated")


def test_server_gone_mid_wait():
    # Killed while the person had not answered: past --retry-for the agent gets a tool
    # error. The request used to stay pending, without a deadline for ever, and the
    # person could answer a question nobody waited for.
    with Session("gone", "--retry-for", "1s") as s:
        s.mcp.initialize()
        id = s.mcp.tool("request_approval", {"title": "Asked of a server that dies"})
        n = s.wait_pending("Asked of a server that dies")
        s.server.wait_posted("mcp-test-agent")   # else its answer is lost with the server
        s.server.kill()
        result = s.mcp.reply(id)["result"]
        if result.get("isError") is not True or \
                "Triage stopped answering" not in result["content"][0]["text"]:
            raise Failure(f"expected the tool error, got {result}")
        # Past the withdrawal's own 5 s: it waits for the server to come back.
        s.mcp.wait_stderr(OWED)
        s.server.start()
        withdrawn(s, n["id"])
        # The session goes on, and asks again once the server is back.
        id = s.mcp.tool("request_approval", {"title": "Asked again"})
        again = s.wait_pending("Asked again")
        s.server.respond_as_client(again["id"], "approve")
        if s.mcp.reply(id)["result"]["structuredContent"]["approved"] is not True:
            raise Failure("the next question was not answered")


def test_cancelled_while_down():
    # The agent cancels while the server is draining (SIGTERM) and then gone: the
    # withdrawal's one try failed and the request waited for nobody.
    with Session("cancel-down") as s:
        s.mcp.initialize()
        id = s.mcp.tool("ask_human", {"question": "Cancelled while down", "response_type": "text"})
        n = s.wait_pending("Cancelled while down")
        s.server.stop()
        s.mcp.notify("notifications/cancelled", {"requestId": id, "reason": "user pressed stop"})
        s.mcp.wait_stderr(OWED)
        s.server.start()
        withdrawn(s, n["id"])
        ping = s.mcp.call("ping")
        if s.mcp.next().get("id") != ping:
            raise Failure("a cancelled call must not be answered")
        s.mcp.close_input()
        if s.mcp.wait_exit() != 0:
            raise Failure(f"exit status {s.mcp.proc.returncode}; stderr {s.mcp.errors()!r}")


def test_answered_while_owed():
    # The person answers the question while its withdrawal is owed (the server was
    # away, then back before the next try): the tries that follow, the session's last
    # one included, find it settled (409) and stop, without a warning.
    with Session("answered-owed", "--retry-for", "1s") as s:
        s.mcp.initialize()
        id = s.mcp.tool("request_approval", {"title": "Answered while owed"})
        n = s.wait_pending("Answered while owed")
        s.server.wait_posted("mcp-test-agent")
        s.server.kill()
        s.mcp.reply(id)
        s.mcp.wait_stderr(OWED)
        s.server.start()
        s.server.respond_as_client(n["id"], "approve")
        s.mcp.close_input()
        if s.mcp.wait_exit() != 0:
            raise Failure(f"exit status {s.mcp.proc.returncode}; stderr {s.mcp.errors()!r}")
        if b"WARNING" in s.mcp.errors():
            raise Failure(f"a settled request's withdrawal warned: {s.mcp.errors()!r}")
        if s.status(n["id"]) not in ("responded", "invalidated"):
            raise Failure(f"the request is {s.status(n['id'])}")


def test_cancelled_never_reached():
    # Cancelled while the server is down, before any POST reached it (its connections
    # failed): nothing is withdrawn, nothing is owed to the next run, and the end does
    # not wait. The withdrawal used to post the question first: with the server back,
    # the person's history showed a question never asked, withdrawn; still down, the
    # end waited 5 s and the owed file kept it.
    with Session("never-reached", env={"G_MESSAGES_DEBUG": "triage-service"}) as s:
        s.server.stop()
        s.mcp.initialize()
        id = s.mcp.tool("request_approval", {"title": "Never asked"})
        s.mcp.wait_stderr(b"trying again in")
        s.mcp.notify("notifications/cancelled", {"requestId": id, "reason": "not needed"})
        s.mcp.close_input()
        if s.mcp.wait_exit() != 0:
            raise Failure(f"exit status {s.mcp.proc.returncode}; stderr {s.mcp.errors()!r}")
        if b"could not withdraw" in s.mcp.errors() or b"WARNING" in s.mcp.errors():
            raise Failure(f"standard error: {s.mcp.errors()!r}")
        owed = glob.glob(os.path.join(s.world.root, "state", "triage", "mcp-owed-*.json"))
        if owed:
            raise Failure(f"owed files for a request never made: {owed}")
        s.server.start()
        status, reply = s.server.request("GET", "/api/v1/client/notifications")
        if status != 200 or any(n["context"]["title"] == "Never asked"
                                for n in reply["notifications"]):
            raise Failure(f"the person's notifications: {status} {reply}")


run([
    ("cancelled before any POST reached the server: nothing made, nothing owed",
     test_cancelled_never_reached),
    ("the server gone mid-wait: withdrawn when it is back", test_server_gone_mid_wait),
    ("cancelled while the server is down: withdrawn when it is back", test_cancelled_while_down),
    ("answered while its withdrawal is owed: no warning", test_answered_while_owed),
])
