#!/usr/bin/python3
# test-mcp-owed.py — withdrawals still owed when triage-mcp exits (the server away as the
# session ends) are not lost: the end waits a few seconds at most (and not at all after
# a second signal), the file $XDG_STATE_HOME/triage/mcp-owed-HASH.json keeps them, and
# the next triage-mcp run for that server withdraws them as it starts. A damaged file is
# said once and set aside; an unknown or settled request is dropped quietly, one the
# person answered meanwhile and one refused for good (401) said once and dropped. A
# wait refused for good (a key revoked) is a refusal, its question left in the inbox and
# said so. And a question whose POST lost its answer (the server may hold it) is withdrawn
# mid-session. A bare 404 (a proxy's page) says nothing of the request: a withdrawal or a
# wait that meets one tries again.
#
# Copyright 2026 The Triage authors
# SPDX-License-Identifier: GPL-3.0-or-later

import contextlib
import glob
import hashlib
import json
import os
import signal
import sqlite3
import sys
import types
import uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mcptest import Failure, Mcp, Session, wait_for  # noqa: E402
from hooktest import AnswerHolder, Misrouted  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "app"))
from apptest import TcpServer, World, run  # noqa: E402

OWED = b"trying again while the session lasts"
LEFT = b"the next triage-mcp run for this server withdraws it"
# Why it was left (triage-mcp-withdrawals.c): a second signal, or the grace waited out.
CUT_SHORT = b"before exiting: the end was cut short"
WAITED_OUT = b"before exiting: the end waited"
SERVICE = "mcp-test-agent"   # the service of clientInfo.name "Test Agent"


def owed_path(s):
    """The owed file of the local server of @s's world (triage-mcp-owed.c names it)."""
    digest = hashlib.sha256(f"unix:{s.world.socket}".encode()).hexdigest()
    return os.path.join(s.world.root, "state", "triage", f"mcp-owed-{digest[:16]}.json")


def owed_ids(s):
    try:
        with open(owed_path(s)) as f:
            return [w["id"] for w in json.load(f)["withdrawals"]]
    except FileNotFoundError:
        return []


def write_owed(s, text):
    os.makedirs(os.path.dirname(owed_path(s)), exist_ok=True)
    with open(owed_path(s), "w") as f:
        f.write(text)


def withdrawn(s, nid):
    wait_for(f"request {nid} to be withdrawn", lambda: s.status(nid) == "invalidated")


def next_run(s):
    """Another triage-mcp run for the same server, as another session would start it."""
    s.mcp.stop()
    s.mcp = Mcp(s.world)
    return s.mcp


def expect_clean_exit(mcp):
    mcp.close_input()
    if mcp.wait_exit() != 0:
        raise Failure(f"exit status {mcp.proc.returncode}; stderr {mcp.errors()!r}")
    if b"WARNING" in mcp.errors() or b"CRITICAL" in mcp.errors():
        raise Failure(f"standard error: {mcp.errors()!r}")


def test_server_away_at_exit():
    # The question waits; the server dies; the session ends. The exit used to lose the
    # withdrawal, and the question waited in the inbox for nobody.
    with Session("away-at-exit") as s:
        s.mcp.initialize()
        s.mcp.tool("request_approval", {"title": "Left as the session ends"})
        n = s.wait_pending("Left as the session ends")
        s.server.wait_posted(SERVICE)
        s.server.kill()
        s.mcp.close_input()
        if s.mcp.wait_exit() != 0:
            raise Failure(f"exit status {s.mcp.proc.returncode}; stderr {s.mcp.errors()!r}")
        # It exits (within wait_exit ()'s bound): its withdrawal's tries end with the
        # grace, or before it when the server's socket refuses them at once.
        if LEFT not in s.mcp.errors():
            raise Failure(f"standard error: {s.mcp.errors()!r}")
        if owed_ids(s) != [n["id"]]:
            raise Failure(f"the owed file holds {owed_ids(s)}")
        if os.stat(owed_path(s)).st_mode & 0o777 != 0o600:
            raise Failure(f"the owed file is {oct(os.stat(owed_path(s)).st_mode)}")

        # A run while the server is still away keeps it, and does not say it again.
        mcp = next_run(s)
        expect_clean_exit(mcp)
        if n["id"].encode() in mcp.errors() or owed_ids(s) != [n["id"]]:
            raise Failure(f"the owed file holds {owed_ids(s)}; stderr {mcp.errors()!r}")

        s.server.start()
        mcp = next_run(s)
        withdrawn(s, n["id"])
        wait_for("the owed file to be removed", lambda: not os.path.exists(owed_path(s)))
        # The run goes on as any session.
        mcp.initialize()
        id = mcp.tool("request_approval", {"title": "Asked by the next run"})
        again = s.wait_pending("Asked by the next run")
        s.server.respond_as_client(again["id"], "approve")
        if mcp.reply(id)["result"]["structuredContent"]["approved"] is not True:
            raise Failure("the next run's question was not answered")
        expect_clean_exit(mcp)


def test_second_signal_ends_grace():
    # An MCP client closes standard input, waits, then sends SIGTERM: the end waits no
    # longer. The server is stopped (SIGSTOP): it takes connections and answers nothing,
    # so without the signal the withdrawal would hold the end for the whole grace. What
    # triage-mcp says of the withdrawal it left tells which ended the wait (a time
    # measured around the signal failed on a busy machine).
    with Session("second-signal") as s:
        s.mcp.initialize()
        s.mcp.tool("request_approval", {"title": "Ended by a second signal"})
        n = s.wait_pending("Ended by a second signal")
        s.server.wait_posted(SERVICE)
        s.server.proc.send_signal(signal.SIGSTOP)
        try:
            s.mcp.close_input()
            # The withdrawal under way is in the file: the session is ending.
            wait_for("the withdrawal in the owed file", lambda: owed_ids(s) == [n["id"]])
            s.mcp.proc.send_signal(signal.SIGTERM)
            if s.mcp.wait_exit() != 0:
                raise Failure(f"exit status {s.mcp.proc.returncode}: {s.mcp.errors()!r}")
        finally:
            s.server.proc.send_signal(signal.SIGCONT)
        if s.mcp.errors().count(CUT_SHORT) != 1 or WAITED_OUT in s.mcp.errors():
            raise Failure(f"the second signal did not end the wait: {s.mcp.errors()!r}")
        if owed_ids(s) != [n["id"]]:
            raise Failure(f"the owed file holds {owed_ids(s)}")
        next_run(s)
        withdrawn(s, n["id"])
        wait_for("the owed file to be removed", lambda: not os.path.exists(owed_path(s)))
        expect_clean_exit(s.mcp)


def killed_while_owed(name, reason):
    """A withdrawal owed mid-session (the question cancelled with @reason) is in the file
    before the session ends, so a client that kills triage-mcp outright (SIGKILL) loses
    it neither: the next run withdraws it, and says nothing of the file."""
    with Session(name) as s:
        s.mcp.initialize()
        id = s.mcp.tool("ask_human", {"question": "Cancelled, then killed",
                                      "response_type": "text"})
        n = s.wait_pending("Cancelled, then killed")
        s.server.kill()
        s.mcp.notify("notifications/cancelled", {"requestId": id, "reason": reason})
        s.mcp.wait_stderr(OWED)
        wait_for("the owed withdrawal in the file", lambda: owed_ids(s) == [n["id"]])
        s.mcp.stop()   # SIGKILL
        s.server.start()
        next_run(s)
        withdrawn(s, n["id"])
        expect_clean_exit(s.mcp)
        if os.path.exists(owed_path(s)):
            raise Failure(f"the owed file is still there: {owed_ids(s)}")
        if b"damaged" in s.mcp.errors():
            raise Failure(f"standard error: {s.mcp.errors()!r}")


def test_killed_while_owed():
    killed_while_owed("killed-owed", "stop")


def test_long_reason_kept():
    # The MCP client's reason has no limit; the file's reads at most 1000 characters. A
    # reason of 1,500 was written whole, and the next run set the file aside as damaged
    # and lost the withdrawal: it is cut as it is written (whole characters).
    killed_while_owed("long-reason", "é" * 1500)
    # A file that holds such a reason (an older run wrote it) keeps its withdrawal.
    with Session("long-reason-read") as s:
        pending = s.server.post("Owed with a long reason", service=SERVICE)
        write_owed(s, json.dumps({
            "server": f"unix:{s.world.socket}",
            "withdrawals": [{"id": pending, "service": SERVICE, "reason": "é" * 1500}]}))
        mcp = next_run(s)
        withdrawn(s, pending)
        wait_for("the owed file to be removed", lambda: not os.path.exists(owed_path(s)))
        expect_clean_exit(mcp)
        if b"damaged" in mcp.errors():
            raise Failure(f"standard error: {mcp.errors()!r}")


def test_two_runs_share_the_file():
    # Two clients' triage-mcp for one server end at once with the server away: each
    # merges its withdrawal into the file under the lock, and neither is lost. The next
    # run withdraws each as the service that asked it.
    with Session("two-runs") as s:
        runs = [s.mcp, Mcp(s.world)]
        try:
            pending = []
            for number, mcp in enumerate(runs, 1):
                mcp.initialize(name=f"Agent {number}")
                mcp.tool("request_approval", {"title": f"Asked by agent {number}"})
                pending.append(s.wait_pending(f"Asked by agent {number}"))
                s.server.wait_posted(f"mcp-agent-{number}")
            s.server.kill()
            for mcp in runs:
                mcp.close_input()
            for mcp in runs:
                if mcp.wait_exit() != 0:
                    raise Failure(f"exit status {mcp.proc.returncode}: {mcp.errors()!r}")
            if sorted(owed_ids(s)) != sorted(n["id"] for n in pending):
                raise Failure(f"the owed file holds {owed_ids(s)}")
        finally:
            runs[1].stop()
        s.server.start()
        next_run(s)
        for n in pending:
            withdrawn(s, n["id"])
        wait_for("the owed file to be removed", lambda: not os.path.exists(owed_path(s)))
        expect_clean_exit(s.mcp)


@contextlib.contextmanager
def left_on_team_server(name, title):
    """A team server where a run with the key of a service asked @title, then ended
    while the server was away (killed; started again here), as a namespace: world,
    server, alice (the person's token), key, n (the question as alice sees it), owed
    (the owed file) and next_run (key) (another run, stopped at the end)."""
    world = World(name)
    server = TcpServer(world).start()
    runs = []

    def next_run(key):
        runs.append(Mcp(world, "--server", server.url, env={"TRIAGE_API_KEY": key}))
        return runs[-1]
    try:
        alice = server.user("alice")
        key = server.service("Team agent", ["alice"])
        mcp = next_run(key)
        mcp.initialize()
        mcp.tool("request_approval", {"title": title})

        def pending():
            reply = server.checked("GET", "/api/v1/client/notifications?status=pending",
                                   token=alice)
            return next((n for n in reply["notifications"]
                         if n["context"]["title"] == title), None)
        n = wait_for("the question on the team server", pending)
        server.kill()
        mcp.close_input()
        if mcp.wait_exit() != 0 or LEFT not in mcp.errors():
            raise Failure(f"exit status {mcp.proc.returncode}; stderr {mcp.errors()!r}")
        files = glob.glob(os.path.join(world.root, "state", "triage", "mcp-owed-*.json"))
        if len(files) != 1:
            raise Failure(f"owed files: {files}")
        with open(files[0]) as f:
            owed = json.load(f)
        if not owed["server"].startswith(server.url) or \
                [w["id"] for w in owed["withdrawals"]] != [n["id"]] or \
                "service" in owed["withdrawals"][0]:
            raise Failure(f"the owed file holds {owed}")
        server.start()
        yield types.SimpleNamespace(
            world=world, server=server, alice=alice, key=key, n=n, owed=files[0],
            next_run=next_run,
            status=lambda: server.checked("GET", f"/api/v1/client/notifications/{n['id']}",
                                          token=alice)["status"])
    finally:
        for mcp in runs:
            mcp.stop()
        server.kill()
        world.cleanup()


def test_team_server_away_at_exit():
    # --server URL: the file is the URL's, its withdrawals name no service (the key
    # does), and the next run withdraws them with the key it is given.
    with left_on_team_server("mcp-owed-team", "Asked of the team") as t:
        mcp = t.next_run(t.key)
        wait_for("the question to be withdrawn", lambda: t.status() == "invalidated")
        wait_for("the owed file to be removed", lambda: not os.path.exists(t.owed))
        expect_clean_exit(mcp)


def test_refused_for_good_dropped():
    # A withdrawal the server refuses for good (401: the next run's key is not the one
    # that asked, as a key revoked meanwhile) is said once, on standard error, with the
    # request, why and what to do, and dropped from the file: no later try does better.
    # It was a warning, which fatal-warnings (the tests') made an abort.
    with left_on_team_server("mcp-owed-refused", "Asked with a key revoked") as t:
        mcp = t.next_run("sk_revoked")
        wait_for("the owed file to be removed", lambda: not os.path.exists(t.owed))
        expect_clean_exit(mcp)
        said = f"could not withdraw request {t.n['id']}: the server refused it".encode()
        if mcp.errors().count(said) != 1 or b"check the service key" not in mcp.errors():
            raise Failure(f"standard error: {mcp.errors()!r}")
        if t.status() not in ("pending", "delivered"):
            raise Failure(f"the refused withdrawal left the request {t.status()}")


def test_key_revoked_while_waiting():
    # The service's key revoked while a call waits (the team server restarted without
    # it): the wait is refused for good (401), which the agent read as an outage
    # ("Triage stopped answering"), and nothing said that the question stays in the
    # person's inbox, where nothing can withdraw it with that key.
    world = World("mcp-key-revoked")
    server = TcpServer(world).start()
    mcp = None
    try:
        alice = server.user("alice")
        key = server.service("Team agent", ["alice"])
        mcp = Mcp(world, "--server", server.url, env={"TRIAGE_API_KEY": key})
        mcp.initialize()
        id = mcp.tool("request_approval", {"title": "Asked, then the key revoked"},
                      progress_token="p")
        # The first progress comes once the POST was answered: the call waits.
        wait_for("the call to wait", lambda: any(m.get("method") == "notifications/progress"
                                                 for m in mcp.seen))
        server.kill()
        with sqlite3.connect(server.database) as db:
            db.execute("UPDATE services SET key_hash = 'revoked' WHERE name = 'Team agent'")
        db.close()
        server.start()
        result = mcp.reply(id)["result"]
        text = result["content"][0]["text"]
        if not result.get("isError") or "refused" not in text or "stopped answering" in text \
                or "stays in the person's inbox" not in text:
            raise Failure(f"the refused wait: {result}")
        mcp.wait_stderr(b"the question stays in the person's inbox")
        if b"check the service key" not in mcp.errors():
            raise Failure(f"standard error: {mcp.errors()!r}")
        reply = server.checked("GET", "/api/v1/client/notifications?status=pending", token=alice)
        if [n["context"]["title"] for n in reply["notifications"]] != \
                ["Asked, then the key revoked"]:
            raise Failure(f"the inbox: {reply}")
        expect_clean_exit(mcp)
    finally:
        if mcp is not None:
            mcp.stop()
        server.kill()
        world.cleanup()


def call_answer_lost(s, title, answer=None):
    """Asks @title in @s, whose relay holds back the server's answer to the POST (answered
    first with @answer unless None, as through another server of a cluster); kills the
    server, drops the held answer, waits for the call's tool error, and starts the server
    again. Returns the question."""
    s.mcp.initialize()
    id = s.mcp.tool("request_approval", {"title": title})
    wait_for("the server's answer to the POST, held back", s.relay.answered.is_set)
    n = s.wait_pending(title)
    if answer is not None:
        s.server.respond_as_client(n["id"], answer)
    s.server.kill()
    s.relay.drop_first()
    result = s.mcp.reply(id)["result"]
    if not result.get("isError"):
        raise Failure(f"the call whose answer was lost: {result}")
    s.server.start()
    return n


def test_answer_lost_withdrawn():
    # The server stored the question and died before its answer reached triage-mcp (held
    # back by a relay): the call fails, and the question, which the server may hold, is
    # withdrawn once the server is back, as the hook and triage-ask do (37e3530).
    with Session("answer-lost", "--retry-for", "1s", relay=AnswerHolder) as s:
        n = call_answer_lost(s, "Its answer lost")
        withdrawn(s, n["id"])
        expect_clean_exit(s.mcp)


def test_answered_as_it_gave_up():
    # The person answered while the POST's answer was held back (as through another
    # server of a cluster); the server then died, the call failed, and the withdrawal met
    # 409 NOTIFICATION_ALREADY_RESPONDED once the server was back: dropped without a
    # word, the answer lost. The call has ended: said once that it reached no agent.
    with Session("answered-gave-up", "--retry-for", "1s", relay=AnswerHolder) as s:
        n = call_answer_lost(s, "Answered as it gives up", "approve")
        said = f"request {n['id']} was answered after the agent stopped waiting".encode()
        s.mcp.wait_stderr(said)
        expect_clean_exit(s.mcp)
        if s.mcp.errors().count(said) != 1 or s.status(n["id"]) != "responded":
            raise Failure(f"the request {s.status(n['id'])}; stderr {s.mcp.errors()!r}")


def test_gone_and_settled_dropped():
    # What the server answers 404 (never arrived, or another server's) or 409 (expired,
    # withdrawn meanwhile) for has nothing left to withdraw: dropped, unsaid. One the
    # person answered is dropped too, said once: the answer reached no agent.
    with Session("gone-settled") as s:
        answered = s.server.post("Answered meanwhile", service=SERVICE)
        s.server.respond_as_client(answered, "ok")
        s.server.wait_responded(answered, service=SERVICE)
        pending = s.server.post("Still pending", service=SERVICE)
        unknown = str(uuid.uuid4())
        write_owed(s, json.dumps({
            "server": f"unix:{s.world.socket}",
            "withdrawals": [{"id": i, "service": SERVICE, "reason": "the agent went away"}
                            for i in (unknown, answered, pending)]}))
        mcp = next_run(s)
        withdrawn(s, pending)
        wait_for("the owed file to be removed", lambda: not os.path.exists(owed_path(s)))
        if s.status(answered) != "responded":
            raise Failure(f"the answered request is {s.status(answered)}")
        expect_clean_exit(mcp)
        if b"withdraw" in mcp.errors() or mcp.errors().count(b"answered after") != 1:
            raise Failure(f"a gone or settled request was spoken of: {mcp.errors()!r}")


def test_withdrawal_misrouted():
    # An owed withdrawal met a bare 404 (a proxy's page: the route to the server missing
    # for a moment), taken for the server's word that the request was gone: dropped from
    # the file, the question left in the inbox for nobody. It says nothing of the
    # request: tried again, as for a 502.
    with Session("withdrawal-misrouted", relay=Misrouted) as s:
        pending = s.server.post("Owed while misrouted", service=SERVICE)
        write_owed(s, json.dumps({
            "server": f"unix:{s.world.socket}",
            "withdrawals": [{"id": pending, "service": SERVICE,
                             "reason": "the agent went away"}]}))
        s.relay.misroute(until="PATCH ")
        mcp = next_run(s)
        withdrawn(s, pending)
        wait_for("the owed file to be removed", lambda: not os.path.exists(owed_path(s)))
        if not s.relay.saw("PATCH "):
            raise Failure(f"no withdrawal was misrouted: {s.relay.misrouted}")
        expect_clean_exit(mcp)


def test_wait_misrouted():
    # A call's wait met a bare 404: the agent read "Triage no longer knows the request"
    # while the question waited in the inbox, and the person's answer reached nobody.
    # The wait goes on, and the answer reaches the agent.
    with Session("wait-misrouted", relay=Misrouted) as s:
        s.mcp.initialize()
        id = s.mcp.tool("request_approval", {"title": "Waited while misrouted"},
                        progress_token="p")
        n = s.wait_pending("Waited while misrouted")
        wait_for("the call to wait", lambda: any(m.get("method") == "notifications/progress"
                                                 for m in s.mcp.seen))
        s.relay.misroute(until="GET ", cut=True)
        wait_for("the wait to be misrouted", lambda: s.relay.saw("GET "))
        s.server.respond_as_client(n["id"], "approve")
        result = s.mcp.reply(id)["result"]
        if result.get("isError") or result["structuredContent"]["approved"] is not True:
            raise Failure(f"the call misrouted for a moment: {result}")
        expect_clean_exit(s.mcp)


def test_damaged_file():
    # Not JSON, or an element that does not read: said once, set aside (*.damaged), never
    # fatal; what of it reads is still withdrawn.
    with Session("damaged") as s:
        write_owed(s, '{"server": "unix:/somewhere", "withdrawals": [')
        mcp = next_run(s)
        mcp.initialize()
        expect_clean_exit(mcp)
        if mcp.errors().count(b"is damaged") != 1 or \
                not os.path.exists(owed_path(s) + ".damaged"):
            raise Failure(f"standard error: {mcp.errors()!r}")
        if os.path.exists(owed_path(s)):
            raise Failure("the damaged file was left in place")

        pending = s.server.post("Owed beside a damaged entry", service=SERVICE)
        write_owed(s, json.dumps({
            "server": f"unix:{s.world.socket}",
            "withdrawals": [{"id": "not-an-id", "service": SERVICE},
                            {"id": pending, "service": SERVICE, "reason": "gone"},
                            {"id": str(uuid.uuid4()), "service": "line\nbreak"}]}))
        mcp = next_run(s)
        withdrawn(s, pending)
        wait_for("the owed file to be removed", lambda: not os.path.exists(owed_path(s)))
        expect_clean_exit(mcp)
        if mcp.errors().count(b"is damaged") != 1:
            raise Failure(f"standard error: {mcp.errors()!r}")

        # Set aside, it is said no more.
        mcp = next_run(s)
        mcp.initialize()
        expect_clean_exit(mcp)
        if b"damaged" in mcp.errors():
            raise Failure(f"said again: {mcp.errors()!r}")


run([
    ("the server away as the session ends: the next run withdraws it", test_server_away_at_exit),
    ("a second signal ends the grace; the next run withdraws it", test_second_signal_ends_grace),
    ("killed while a withdrawal is owed: the next run withdraws it", test_killed_while_owed),
    ("a withdrawal cancelled with a reason of 1,500 characters is kept", test_long_reason_kept),
    ("two runs ending at once keep both their withdrawals", test_two_runs_share_the_file),
    ("a team server away as the session ends: the next run withdraws it",
     test_team_server_away_at_exit),
    ("a gone or settled request in the owed file is dropped, an answered one said once",
     test_gone_and_settled_dropped),
    ("a withdrawal refused for good is said once and dropped", test_refused_for_good_dropped),
    ("a key revoked while a call waits: a refusal, the question stays in the inbox",
     test_key_revoked_while_waiting),
    ("a question whose POST lost its answer is withdrawn", test_answer_lost_withdrawn),
    ("a question answered as it gave up: said once", test_answered_as_it_gave_up),
    ("a withdrawal misrouted (a bare 404) is tried again", test_withdrawal_misrouted),
    ("a wait misrouted (a bare 404) goes on to the answer", test_wait_misrouted),
    ("a damaged owed file is said once and set aside", test_damaged_file),
])
