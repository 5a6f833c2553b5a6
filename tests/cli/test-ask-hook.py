#!/usr/bin/python3
# test-ask-hook.py — triage-ask --hook claude-code, fed the sample inputs of Claude
# Code's hooks reference (PreToolUse, PermissionRequest, and the later events that
# release a waiting hook), against a real triage-server --local in a private
# runtime folder; the test plays the person through the client REST API and checks
# the exact decision JSON and the exit status: allow, deny with the typed reason,
# expiry, no server, bad input, an interrupted hook or Claude Code gone (its
# request withdrawn), a call answered in Claude Code's own prompt first, and bad
# options, and a withdrawal misrouted for a moment (a bare 404). What the request
# shows is tested in test-ask-hook-request.py.
#
# Copyright 2026 The Triage authors
# SPDX-License-Identifier: GPL-3.0-or-later

import json
import os
import signal
import socket
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hooktest import (AnswerHolder, attachment_text, expect, Hook, Misrouted,  # noqa: E402
                      PERMISSION_REQUEST, pre_tool_use, PRE_TOOL_USE_BASH, Scenario)

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "app"))
from apptest import die_with_parent, Failure, run, wait_for, World  # noqa: E402


def test_pre_tool_use_allowed():
    with Scenario("allow") as s:
        hook = Hook(s.world, PRE_TOOL_USE_BASH)
        n = s.person.answer("Bash in my-project: npm test", "allow")
        # The local server's person is "default": "Allowed in Triage by default" read
        # as a rule that allowed it, not a person.
        expect(hook.result(), (0, pre_tool_use("allow", "Allowed in Triage by user “default”")))
        if n["service"]["name"] != "Claude Code" or n["context"]["project"] != "my-project":
            raise Failure(f"service / project: {n['service']}, {n['context']}")
        if n["context"]["description"] != ("Claude Code wants to run this command in "
                                           "/home/user/my-project.\n\nThe agent's note on it "
                                           "(its own words): Run test suite"):
            raise Failure(f"description {n['context']['description']!r}")
        attachment = n["context"]["attachments"][0]
        if attachment["type"] != "text/x-shellscript" or attachment_text(n) != "npm test":
            raise Failure(f"attachment {attachment}")
        if n["actions"][0].get("flags"):
            raise Failure(f"npm test is not destructive: {n['actions'][0]}")
        if n["context"]["metadata"]["session_id"] != "abc123":
            raise Failure(f"metadata {n['context']['metadata']}")


def test_permission_request_denied_with_reason():
    with Scenario("deny") as s:
        hook = Hook(s.world, PERMISSION_REQUEST)
        # The reason names who answered, a typed one after the colon; its U+2028 (a line
        # break to a reader splitting on every Unicode one) escaped as in all our JSON.
        n = s.person.answer("Bash in ...: rm -rf node_modules", "deny",
                            "Use npm ci instead\u2028(see the README)")
        expect(hook.result(), (0, {"hookSpecificOutput": {
            "hookEventName": "PermissionRequest",
            "decision": {"behavior": "deny", "message": "Denied in Triage by user “default”: "
                                                       "Use npm ci instead\u2028(see the README)"}}}))
        if b"\\u2028" not in hook.out or "\u2028".encode() in hook.out:
            raise Failure(f"U+2028 not escaped: {hook.out!r}")
        if n["actions"][0]["flags"] != ["destructive", "irreversible"]:
            raise Failure(f"rm -rf is destructive and irreversible: {n['actions'][0]}")
        if n["actions"][1]["response_type"] != "text":
            raise Failure(f"deny takes a typed reason: {n['actions'][1]}")


def test_permission_request_allowed():
    with Scenario("pr-allow") as s:
        hook = Hook(s.world, PERMISSION_REQUEST)
        s.person.answer("Bash in ...: rm -rf node_modules", "allow")
        expect(hook.result(), (0, {"hookSpecificOutput": {
            "hookEventName": "PermissionRequest", "decision": {"behavior": "allow"}}}))


def test_denied_without_reason():
    with Scenario("deny-empty") as s:
        hook = Hook(s.world, PRE_TOOL_USE_BASH)
        s.person.answer("Bash in my-project: npm test", "deny", "")
        expect(hook.result(), (0, pre_tool_use("deny", "Denied in Triage by user “default”")))


def test_expiry_asks_in_the_agent():
    with Scenario("expiry") as s:
        hook = Hook(s.world, PRE_TOOL_USE_BASH, "--deadline", "1s")
        expect(hook.result(), (0, pre_tool_use(
            "ask", "Triage: nobody answered before the deadline; asking here instead")))
        hook = Hook(s.world, PERMISSION_REQUEST, "--deadline", "1s")
        expect(hook.result(), (0, {"systemMessage": "Triage: nobody answered before the "
                                                    "deadline; asking here instead"}))


def test_no_server_asks_in_the_agent():
    with Scenario("no-server", server=False) as s:
        hook = Hook(s.world, PRE_TOOL_USE_BASH)
        status, out = hook.result()
        reason = out["hookSpecificOutput"]["permissionDecisionReason"]
        socket = os.path.join(s.world.runtime, "triage", "triage.sock")
        expect((status, out), (0, pre_tool_use("ask", reason)))
        if not (reason.startswith(f"Triage: Cannot reach the local server at {socket}") and
                "is the local server running?" in reason and
                reason.endswith("; asking here instead")):
            raise Failure(f"reason {reason!r}")
        hook = Hook(s.world, PERMISSION_REQUEST)
        status, out = hook.result()
        if status != 0 or list(out) != ["systemMessage"] or \
                not out["systemMessage"].startswith("Triage: Cannot reach the local server"):
            raise Failure(f"PermissionRequest without a server: {status} {out}")


def test_bad_input_asks_in_the_agent():
    with Scenario("bad-input", server=False) as s:
        for data, part in [(b"not json", "cannot read the hook input"),
                           (b"[1, 2]", "not a JSON object"),
                           (b"", "cannot read the hook input"),
                           (json.dumps({"tool_name": "Bash", "tool_input": {}}).encode(),
                            "the hook input has no hook_event_name"),
                           (json.dumps({"hook_event_name": "Notification"}).encode(),
                            "“Notification”")]:
            status, out = Hook(s.world, data).result()
            if status != 0 or list(out) != ["systemMessage"] or part not in out["systemMessage"]:
                raise Failure(f"{data!r}: {status} {out}")
        # An event that asks nothing (the hook set for it by mistake): Claude Code shows
        # the message at each one, which must not claim it asks in its own prompt.
        for event in ("Notification", "SessionStart", "PreCompact", "SubagentStop"):
            status, out = Hook(s.world, dict(PRE_TOOL_USE_BASH, hook_event_name=event)).result()
            expect((status, out), (0, {"systemMessage": (
                f"Triage: hook event “{event}” is not one triage-ask answers (PreToolUse, "
                "PermissionRequest); set the hook for those events only")}))
        # A PreToolUse input too large or too broken to parse still answers "ask":
        # no decision would let Claude Code's rules run the tool unasked.
        huge = dict(PRE_TOOL_USE_BASH, tool_name="Write",
                    tool_input={"file_path": "/tmp/big", "content": "x" * (9 << 20)})
        for data in (json.dumps(huge).encode(), json.dumps(PRE_TOOL_USE_BASH).encode()[:-1]):
            status, out = Hook(s.world, data).result()
            reason = out.get("hookSpecificOutput", {}).get("permissionDecisionReason", "")
            if status != 0 or out != pre_tool_use("ask", reason) or \
                    not reason.startswith("Triage: cannot read the hook input: "):
                raise Failure(f"{len(data)} bytes: {status} {out}")
        event = dict(PRE_TOOL_USE_BASH)
        del event["tool_input"]
        status, out = Hook(s.world, event).result()
        expect((status, out), (0, pre_tool_use(
            "ask", "Triage: the hook input has no tool_input object; asking here instead")))


def test_stdout_is_the_decision_alone():
    # GLib prints debug lines on standard output when G_MESSAGES_DEBUG is set
    # (a person debugging, or a desktop session that exports it): Claude Code
    # would then read no JSON and lose the decision.
    with Scenario("debug-log") as s:
        hook = Hook(s.world, PRE_TOOL_USE_BASH, env={"G_MESSAGES_DEBUG": "all"})
        s.person.answer("Bash in my-project: npm test", "deny", "not now")
        expect(hook.result(),
               (0, pre_tool_use("deny", "Denied in Triage by user “default”: not now")))
    with Scenario("debug-log-no-server", server=False) as s:
        hook = Hook(s.world, PRE_TOOL_USE_BASH, "--retry-for", "1s",
                    env={"G_MESSAGES_DEBUG": "all"})
        status, out = hook.result()
        if status != 0 or out["hookSpecificOutput"]["permissionDecision"] != "ask":
            raise Failure(f"without a server: {status} {out}")


def test_questions_left_to_claude_code():
    # AskUserQuestion reaches a PermissionRequest hook too (anthropics/claude-code
    # #15400), but its prompt is the picker: an Allow would skip it with no
    # answers. No decision, and nothing in Triage.
    with Scenario("question") as s:
        for event in ("PermissionRequest", "PreToolUse"):
            hook = Hook(s.world, dict(PERMISSION_REQUEST, hook_event_name=event,
                                      tool_name="AskUserQuestion", tool_input={"questions": [
                                          {"question": "Which database?", "header": "DB",
                                           "multiSelect": False,
                                           "options": [{"label": "SQLite", "description": "file"},
                                                       {"label": "PostgreSQL",
                                                        "description": "server"}]}]}))
            expect(hook.result(), (0, {}))
        status, reply = s.server.request("GET", "/api/v1/client/notifications")
        if reply["notifications"]:
            raise Failure(f"asked in Triage: {reply['notifications']}")


def test_interrupted_withdraws():
    # SIGTERM: Claude Code's hook timeout. SIGHUP: the terminal Claude Code runs in
    # closed, which reaches its hooks too; it used to kill the hook and leave the
    # request in the inbox for nobody.
    for sig in (signal.SIGTERM, signal.SIGHUP):
        with Scenario("interrupted") as s:
            hook = Hook(s.world, PRE_TOOL_USE_BASH)
            n = s.person.waiting("Bash in my-project: npm test")
            hook.proc.send_signal(sig)
            expect(hook.result(), (0, pre_tool_use(
                "ask", "Triage: interrupted before anyone answered; asking here instead")))
            status, reply = s.server.request("GET", f"/api/v1/client/notifications/{n['id']}")
            if reply["status"] != "invalidated":
                raise Failure(f"{sig.name}: the request was not withdrawn: {reply['status']} "
                              f"(the hook said {hook.err!r})")


def test_claude_code_gone_withdraws():
    # Claude Code quits or crashes without signalling its hooks: the hook sees its
    # standard output closed (a pipe, or a socket as Node's child stdio is) and
    # withdraws the request instead of leaving it to wait for an answer nobody reads.
    with Scenario("gone") as s:
        for kind in ("pipe", "socket"):
            title = f"Bash in my-project: echo {kind}"
            event = dict(PRE_TOOL_USE_BASH, tool_input={"command": f"echo {kind}"})
            if kind == "pipe":
                reader, writer = os.pipe()
            else:
                reader, writer = socket.socketpair()
                reader, writer = reader.detach(), writer.detach()
            proc = subprocess.Popen([os.environ["TRIAGE_ASK"], "--hook", "claude-code"],
                                    env=s.world.env(), stdin=subprocess.PIPE, stdout=writer,
                                    stderr=subprocess.PIPE, preexec_fn=die_with_parent)
            os.close(writer)
            proc.stdin.write(json.dumps(event).encode())
            proc.stdin.close()
            n = s.person.waiting(title)
            os.close(reader)
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                raise Failure(f"{kind}: the hook kept waiting after Claude Code went away")
            err = proc.stderr.read()
            status, reply = s.server.request("GET", f"/api/v1/client/notifications/{n['id']}")
            if proc.returncode != 0 or reply["status"] != "invalidated" or \
                    b"Claude Code stopped reading the answer" not in err:
                raise Failure(f"{kind}: {proc.returncode} {reply['status']} {err!r}")


def test_quit_withdraws_once():
    # Claude Code quitting: its end of the hook's standard output closes and a signal
    # comes too (SIGTERM, or SIGINT/SIGHUP to its process group), near at once. The
    # second used to end the hook before the first one's withdrawal got through; with
    # the server away for a moment (restarted) the withdrawal is still under way.
    with Scenario("quit") as s:
        reader, writer = os.pipe()
        proc = subprocess.Popen([os.environ["TRIAGE_ASK"], "--hook", "claude-code"],
                                env=s.world.env(), stdin=subprocess.PIPE, stdout=writer,
                                stderr=subprocess.PIPE, preexec_fn=die_with_parent)
        os.close(writer)
        proc.stdin.write(json.dumps(PRE_TOOL_USE_BASH).encode())
        proc.stdin.close()
        n = s.person.waiting("Bash in my-project: npm test")
        s.server.wait_posted("claude-code")   # else its answer is lost with the server
        s.server.kill()
        os.close(reader)
        proc.send_signal(signal.SIGTERM)
        s.server.start()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            raise Failure("the hook did not exit")
        _, reply = s.server.request("GET", f"/api/v1/client/notifications/{n['id']}")
        if proc.returncode != 0 or reply["status"] != "invalidated":
            raise Failure(f"exit {proc.returncode}, the request {reply['status']}; "
                          f"stderr {proc.stderr.read()!r}")


def test_answered_in_claude_code_withdraws():
    # Claude Code shows its own dialog while a PermissionRequest hook runs and
    # leaves the hook running when the person answers there first. The hook run
    # for PostToolUse (the call went ahead) or Stop (the turn is over) makes the
    # waiting hooks of that session withdraw their requests.
    with Scenario("answered-there") as s:
        def ask(command, session="abc123", cwd="/Users/..."):
            event = dict(PERMISSION_REQUEST, session_id=session, cwd=cwd,
                         tool_input={"command": command, "description": "d"})
            hook = Hook(s.world, event)
            return hook, s.person.waiting(f"Bash in {os.path.basename(cwd)}: {command}")

        def status_of(n):
            return s.server.request("GET", f"/api/v1/client/notifications/{n['id']}")[1]["status"]

        ran, ran_n = ask("make")
        other, other_n = ask("make install")
        elsewhere, elsewhere_n = ask("make", session="another", cwd="/home/user/other")
        post = dict(PERMISSION_REQUEST, hook_event_name="PostToolUse",
                    tool_input={"command": "make", "description": "d"},
                    tool_response={"stdout": "", "stderr": "", "interrupted": False})
        del post["permission_suggestions"]
        hooks = os.path.join(s.world.runtime, "triage", "hooks")
        with open(os.path.join(hooks, "999999999"), "w") as f:
            f.write("gone\nffff\n")      # left by a hook that was killed, another session
        expect(Hook(s.world, post).result(), (0, {}))
        if os.path.exists(os.path.join(hooks, "999999999")):
            raise Failure("the entry of a hook that is gone was kept")
        # Nothing is asked any more: "asking here instead" told the person otherwise.
        expect(ran.result(), (0, {}))
        if status_of(ran_n) != "invalidated":
            raise Failure(f"the call that went ahead: {status_of(ran_n)}")
        if status_of(other_n) == "invalidated" or status_of(elsewhere_n) == "invalidated":
            raise Failure(f"other calls withdrawn: {status_of(other_n)} {status_of(elsewhere_n)}")
        # A tool's output too large to read: no release, and no alarm either.
        big = dict(post, tool_response={"stdout": "x" * (9 << 20)})
        expect(Hook(s.world, json.dumps(big).encode()).result(), (0, {}))
        if status_of(other_n) == "invalidated":
            raise Failure("a PostToolUse too large to read released a hook")
        stop = {"session_id": "abc123", "hook_event_name": "Stop", "stop_hook_active": False,
                "cwd": "/Users/...", "permission_mode": "default"}
        expect(Hook(s.world, stop).result(), (0, {}))
        expect(other.result(), (0, {}))
        if status_of(other_n) != "invalidated" or status_of(elsewhere_n) == "invalidated":
            raise Failure(f"after Stop: {status_of(other_n)} {status_of(elsewhere_n)}")
        s.server.respond_as_client(elsewhere_n["id"], "allow")
        expect(elsewhere.result(), (0, {"hookSpecificOutput": {
            "hookEventName": "PermissionRequest", "decision": {"behavior": "allow"}}}))
        if os.listdir(hooks):
            raise Failure(f"entries left after the hooks ended: {os.listdir(hooks)}")


def test_denied_in_claude_code_released_by_next_prompt():
    # Denied in Claude Code's own dialog, the turn ends as an interrupt: neither
    # PostToolUse nor Stop runs, and the Triage request used to wait out its
    # deadline. The person's next prompt (UserPromptSubmit, which the hooks
    # reference runs before Claude sees the prompt) is the first event that runs.
    with Scenario("next-prompt") as s:
        def status_of(n):
            return s.server.request("GET", f"/api/v1/client/notifications/{n['id']}")[1]["status"]

        denied = Hook(s.world, PERMISSION_REQUEST)
        denied_n = s.person.waiting("Bash in ...: rm -rf node_modules")
        other = Hook(s.world, dict(PERMISSION_REQUEST, session_id="another",
                                   cwd="/home/user/other"))
        other_n = s.person.waiting("Bash in other: rm -rf node_modules")
        prompt = {"session_id": "abc123",
                  "transcript_path": "/Users/.../.claude/projects/.../00893aaf.jsonl",
                  "cwd": "/Users/...", "permission_mode": "default",
                  "hook_event_name": "UserPromptSubmit",
                  "prompt": "No, keep node_modules; run npm ci instead"}
        expect(Hook(s.world, prompt).result(), (0, {}))
        expect(denied.result(), (0, {}))
        if status_of(denied_n) != "invalidated":
            raise Failure(f"the call denied in Claude Code: {status_of(denied_n)}")
        if status_of(other_n) == "invalidated":
            raise Failure("the next prompt of one session withdrew another session's call")
        s.server.respond_as_client(other_n["id"], "allow")
        expect(other.result(), (0, {"hookSpecificOutput": {
            "hookEventName": "PermissionRequest", "decision": {"behavior": "allow"}}}))


def test_pre_tool_use_not_released():
    # Claude Code waits on a PreToolUse hook before any prompt of its own, so no
    # later event means the call was decided elsewhere: a PostToolUse with the same
    # input is another call (Claude ran the same command twice in parallel), and
    # used to withdraw this one's request and hand it to Claude Code's prompt.
    with Scenario("pre-not-released") as s:
        waiting = Hook(s.world, PRE_TOOL_USE_BASH)
        n = s.person.waiting("Bash in my-project: npm test")
        post = dict(PRE_TOOL_USE_BASH, hook_event_name="PostToolUse", tool_use_id="toolu_other",
                    tool_response={"stdout": "", "stderr": "", "interrupted": False})
        expect(Hook(s.world, post).result(), (0, {}))
        status = s.server.request("GET", f"/api/v1/client/notifications/{n['id']}")[1]["status"]
        if status == "invalidated":
            raise Failure("a PostToolUse of another call withdrew a PreToolUse hook's request")
        s.server.respond_as_client(n["id"], "allow")
        expect(waiting.result(),
               (0, pre_tool_use("allow", "Allowed in Triage by user “default”")))


def test_server_gone_mid_wait():
    # The server dies while the person has not answered: Claude Code's own prompt
    # asks at once (the agent is waiting), never an allow.
    with Scenario("server-gone") as s:
        hook = Hook(s.world, PRE_TOOL_USE_BASH)
        s.person.waiting("Bash in my-project: npm test")
        s.server.kill()
        status, out = hook.result()
        reason = out["hookSpecificOutput"]["permissionDecisionReason"]
        expect((status, out), (0, pre_tool_use("ask", reason)))
        # Killed between two long-polls, the next one cannot connect; killed
        # during one, its answer breaks off: either names the local server.
        if not (reason.startswith("Triage: Cannot reach the local server") or
                reason.startswith("Triage: The connection to the local server")):
            raise Failure(f"reason {reason!r}")


def said_withdrawing(hook):
    """Waits for the hook to say it withdraws its request."""
    said = b""
    while b"withdrawing request" not in said:
        line = hook.proc.stderr.readline()
        if not line:
            raise Failure(f"the hook did not withdraw its request; it said {said!r}")
        said += line


def restart_while_withdrawing(s, hook, n):
    """Starts the server again once the hook says it withdraws request @n; the hook
    then leaves the call to Claude Code's prompt, and the request ends withdrawn."""
    said_withdrawing(hook)
    s.server.start()
    status, out = hook.result()
    reason = out["hookSpecificOutput"]["permissionDecisionReason"]
    expect((status, out), (0, pre_tool_use("ask", reason)))
    _, reply = s.server.request("GET", f"/api/v1/client/notifications/{n['id']}")
    if reply["status"] != "invalidated":
        raise Failure(f"the request was left {reply['status']}")


def test_server_back_withdraws():
    # The server dies, and is started again while the hook withdraws its request: the
    # request no longer waits in the inbox (for its deadline) for a person to answer a
    # call Claude Code has asked about in its own prompt.
    with Scenario("server-back") as s:
        hook = Hook(s.world, PRE_TOOL_USE_BASH)
        n = s.person.waiting("Bash in my-project: npm test")
        s.server.wait_posted("claude-code")   # else its answer is lost with the server
        s.server.kill()
        restart_while_withdrawing(s, hook, n)


def test_withdrawal_misrouted():
    # The route to the server missing for a moment as the hook withdraws (a proxy's bare
    # 404, without ATP's error object): that says nothing of the request, and the
    # withdrawal tries again. It was taken for "the request is gone", and the question
    # left in the person's inbox for nobody.
    with Scenario("misrouted", relay=Misrouted) as s:
        hook = Hook(s.world, PRE_TOOL_USE_BASH)
        n = s.person.waiting("Bash in my-project: npm test")
        # Its wait, sent once the POST's answer came, passed first.
        wait_for("the hook to wait", lambda: s.relay.passed(f"GET /api/v1/notifications/{n['id']}"))
        s.relay.misroute(until="PATCH ")
        hook.proc.send_signal(signal.SIGTERM)
        expect(hook.result(), (0, pre_tool_use(
            "ask", "Triage: interrupted before anyone answered; asking here instead")))
        _, reply = s.server.request("GET", f"/api/v1/client/notifications/{n['id']}")
        if not s.relay.saw("PATCH ") or reply["status"] != "invalidated":
            raise Failure(f"the request was left {reply['status']}; misrouted "
                          f"{s.relay.misrouted} (the hook said {hook.err!r})")


def answer_held(s, answer=None):
    """Runs the hook in @s (relay=AnswerHolder) with the server's answer to its POST
    held back, answered first with @answer unless None (as through another server of a
    cluster); kills the server and drops the held answer. Returns (the hook, the
    request)."""
    hook = Hook(s.world, PRE_TOOL_USE_BASH)
    wait_for("the server's answer to the POST, held back", s.relay.answered.is_set)
    n = s.person.waiting("Bash in my-project: npm test")
    if answer is not None:
        s.server.respond_as_client(n["id"], answer)
    s.server.kill()
    s.relay.drop_first()
    return hook, n


def test_answer_lost_withdraws():
    # The server stored the request and died before its answer reached the hook (held
    # back by a relay): the request may be there, and is withdrawn as one the server
    # answered. It was left in the inbox: a POST without an answer looked unsent.
    with Scenario("answer-lost", relay=AnswerHolder) as s:
        hook, n = answer_held(s)
        restart_while_withdrawing(s, hook, n)


def test_answered_as_it_gave_up():
    # The person answered while the POST's answer was held back (as through another
    # server of a cluster); the server then died and the hook gave up, and its
    # withdrawal met 409 NOTIFICATION_ALREADY_RESPONDED once the server was back. It
    # left the call to Claude Code's prompt, the person's answer lost; now it reads the
    # answer and decides with it.
    with Scenario("answered-gave-up", relay=AnswerHolder) as s:
        hook, _ = answer_held(s, "allow")
        said_withdrawing(hook)
        s.server.start()
        expect(hook.result(), (0, pre_tool_use("allow", "Allowed in Triage by user “default”")))


def test_service_options():
    # Documented: the service is claude-code ("Claude Code") unless --service names
    # another; --service-name names it (the local server takes both from the hook).
    for args, want in ((("--service", "deploy-agent"), ("deploy-agent", "deploy-agent")),
                       (("--service", "deploy-agent", "--service-name", "Deploy agent"),
                        ("deploy-agent", "Deploy agent")),
                       (("--service-name", "Claude at work"), ("claude-code", "Claude at work"))):
        with Scenario("service") as s:
            hook = Hook(s.world, PRE_TOOL_USE_BASH, *args)
            n = s.person.answer("Bash in my-project: npm test", "allow")
            expect(hook.result(), (0, pre_tool_use("allow", "Allowed in Triage by user “default”")))
            if (n["service"]["id"], n["service"]["name"]) != want:
                raise Failure(f"{args}: service {n['service']}, expected {want}")


def test_bad_options():
    world = World("hook-options")
    try:
        # --quiet too: the documented "only --deadline and the connection options" held
        # for everything but it, taken and then not obeyed (the decision printed).
        for args in (["--hook", "cursor"], ["--hook", "claude-code", "--title", "x"],
                     ["--hook", "claude-code", "--quiet"], ["-q", "--hook=claude-code"]):
            proc = subprocess.run([os.environ["TRIAGE_ASK"], *args], env=world.env(),
                                  input=b"{}", capture_output=True, timeout=30)
            if proc.returncode != 2 or b"--hook" not in proc.stderr:
                raise Failure(f"{args}: {proc.returncode} {proc.stderr!r}")
        # Exit 2 denies the call for PreToolUse and PermissionRequest: loud, never an
        # allow. For the other events the same mistake (README puts the same command
        # under PostToolUse and Stop) must not be exit 2 too, which keeps Claude from
        # stopping (Stop: it loops on the message), erases the prompt
        # (UserPromptSubmit) or feeds the message to Claude (PostToolUse): exit 1, a
        # hook error Claude Code shows the person.
        for args in (["--hook", "claude-code", "--deadline", "2x"],
                     ["--hook", "claude-cod"], ["--hook", "claude-code", "--dedline", "2m"]):
            for event, status in (("PreToolUse", 2), ("PermissionRequest", 2), ("Stop", 1),
                                  ("SubagentStop", 1), ("PostToolUse", 1),
                                  ("UserPromptSubmit", 1), ("SessionEnd", 1)):
                data = dict(PRE_TOOL_USE_BASH, hook_event_name=event)
                proc = subprocess.run([os.environ["TRIAGE_ASK"], *args], env=world.env(),
                                      input=json.dumps(data).encode(), capture_output=True,
                                      timeout=30)
                if proc.returncode != status or proc.stdout or \
                        not proc.stderr.startswith(b"triage-ask: "):
                    raise Failure(f"{args} for {event}: exit {proc.returncode} (expected "
                                  f"{status}), {proc.stdout!r} {proc.stderr!r}")
    finally:
        world.cleanup()


run([
    ("PreToolUse allowed", test_pre_tool_use_allowed),
    ("PermissionRequest denied with a reason", test_permission_request_denied_with_reason),
    ("PermissionRequest allowed", test_permission_request_allowed),
    ("denied without a reason", test_denied_without_reason),
    ("expiry asks in the agent", test_expiry_asks_in_the_agent),
    ("no server asks in the agent", test_no_server_asks_in_the_agent),
    ("bad input asks in the agent", test_bad_input_asks_in_the_agent),
    ("standard output is the decision alone", test_stdout_is_the_decision_alone),
    ("questions left to Claude Code", test_questions_left_to_claude_code),
    ("interrupted: withdrawn, asks in the agent", test_interrupted_withdraws),
    ("Claude Code gone: withdrawn", test_claude_code_gone_withdraws),
    ("Claude Code quitting: withdrawn once", test_quit_withdraws_once),
    ("answered in Claude Code: withdrawn", test_answered_in_claude_code_withdraws),
    ("answered as it gave up on the server: that answer", test_answered_as_it_gave_up),
    ("denied in Claude Code: released by the next prompt",
     test_denied_in_claude_code_released_by_next_prompt),
    ("a PreToolUse hook is not released by another call", test_pre_tool_use_not_released),
    ("the server gone mid-wait: asks in the agent", test_server_gone_mid_wait),
    ("the server back while the hook withdraws: withdrawn", test_server_back_withdraws),
    ("the POST's answer lost: withdrawn", test_answer_lost_withdraws),
    ("a withdrawal misrouted (a bare 404): withdrawn", test_withdrawal_misrouted),
    ("--service and --service-name", test_service_options),
    ("bad options", test_bad_options),
])
