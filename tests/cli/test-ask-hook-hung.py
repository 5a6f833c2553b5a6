#!/usr/bin/python3
# test-ask-hook-hung.py — triage-ask --hook claude-code and a server that hangs: it
# takes the connection and never answers (a relay in front of a real triage-server
# --local that stops passing anything). Claude Code waits while the hook does, so the
# hook gives such a server up soon and leaves the call to Claude Code's own prompt,
# well inside Claude Code's 600 s hook timeout; the person's time to answer is not
# bounded so.
#
# Copyright 2026 The Triage authors
# SPDX-License-Identifier: GPL-3.0-or-later

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hooktest import (expect, Hook, Hung, PERMISSION_REQUEST, pre_tool_use,  # noqa: E402
                      PRE_TOOL_USE_BASH, Scenario)

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "app"))
from apptest import Failure, run, wait_for  # noqa: E402

ALLOWED = pre_tool_use("allow", "Allowed in Triage by user “default”")


def fallback(s, seconds):
    return (f"Triage: the local server at {s.world.socket} did not answer within {seconds} "
            "seconds; asking here instead")


def test_hung_before_the_post_answered():
    # A server that took the POST and said nothing kept Claude Code waiting 35 s for
    # its own prompt: the POST's 30 s timeout, then the 5 s of the withdrawal (the
    # POST went out whole: the server may have stored it). It is given 10 s, then 5 s
    # to withdraw. A hook asking a server that answers (on its own socket, past the
    # relay) still waits once those gave up, and takes the answer given after them.
    with Scenario("hung-post", relay=Hung) as s:
        alive = Hook(s.world, PRE_TOOL_USE_BASH, "--socket", s.server.socket)
        s.person.waiting("Bash in my-project: npm test")
        s.relay.hang()
        began = time.monotonic()
        pre = Hook(s.world, PRE_TOOL_USE_BASH)
        permission = Hook(s.world, PERMISSION_REQUEST)
        expect(pre.result(), (0, pre_tool_use("ask", fallback(s, 10))))
        expect(permission.result(), (0, {"systemMessage": fallback(s, 10)}))
        took = time.monotonic() - began
        if took > 25:
            raise Failure(f"the hung server was given up after {took:.1f} s")
        if alive.proc.poll() is not None:
            raise Failure(f"the hook asking a server that answers ended within {took:.1f} s")
        s.person.answer("Bash in my-project: npm test", "allow")
        expect(alive.result(), (0, ALLOWED))


def test_hung_while_the_person_is_asked():
    # The server took the request and hangs during the long-poll that waits for the
    # person: that is given up at the end of one long-poll (30 s) and 10 s more, then
    # 5 s to withdraw; with the 60 s long-poll and the 30 s timeout it was 95 s, so a
    # hang late in the default 9 minutes took the hook past Claude Code's 600 s, whose
    # timeout lets the call go on to Claude Code's rules instead of its prompt.
    with Scenario("hung-wait", relay=Hung) as s:
        hook = Hook(s.world, PRE_TOOL_USE_BASH)
        s.person.waiting("Bash in my-project: npm test")
        # The POST's answer reached the hook once its long-poll is on its way.
        wait_for("the hook's long-poll", lambda: any(
            sent.startswith(b"GET /api/v1/notifications/") for sent in s.relay.sent))
        s.relay.hang()
        began = time.monotonic()
        expect(hook.result(), (0, pre_tool_use("ask", fallback(s, 40))))
        took = time.monotonic() - began
        if took > 60:
            raise Failure(f"the server hung mid-wait was given up after {took:.1f} s")


run([
    ("hung before the POST was answered: asks in the agent within 15 s",
     test_hung_before_the_post_answered),
    ("hung while the person is asked: asks in the agent within 45 s",
     test_hung_while_the_person_is_asked),
])
