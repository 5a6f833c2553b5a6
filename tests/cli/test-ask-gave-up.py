#!/usr/bin/python3
# test-ask-gave-up.py — triage-ask giving up on a request it sent: the server gone for
# longer than --retry-for while the person had not answered (exit 3). With an id of its
# own the request is withdrawn, so it does not wait in the person's inbox for an answer
# nobody reads; sent with --id, it is kept for the run that resends it. Against a real
# triage-server --local, killed and started again; also when the server stored the
# request but its answer never came, and when the person answered meanwhile (the answer
# printed, exit 0). A request whose row the server cannot read any more is given up at
# once, not retried.
#
# Copyright 2026 The Triage authors
# SPDX-License-Identifier: GPL-3.0-or-later

import json
import os
import sqlite3
import subprocess
import sys
import uuid

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "app"))
from apptest import die_with_parent, Failure, run, wait_for, WAIT, World  # noqa: E402
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hooktest import AnswerHolder, LoggedServer  # noqa: E402


def pending_titled(server, title):
    status, reply = server.request("GET", "/api/v1/client/notifications?status=pending")
    return next((n for n in reply["notifications"] if n["context"]["title"] == title), None)


def ask(world, title, *extra):
    """Starts triage-ask on @world's socket."""
    return subprocess.Popen([os.environ["TRIAGE_ASK"], "--title", title, "--action", "ok",
                             *extra],
                            env=world.env(), stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=die_with_parent)


def finished(proc, what="triage-ask did not exit"):
    """Waits for @proc to exit; returns its standard output and error."""
    try:
        return proc.communicate(timeout=WAIT)
    except subprocess.TimeoutExpired:
        proc.kill()
        raise Failure(what)


def ended(proc, what="triage-ask did not exit"):
    """Waits for @proc to exit; returns its standard error."""
    return finished(proc, what)[1]


def status_of(server, n):
    _, reply = server.request("GET", f"/api/v1/client/notifications/{n['id']}")
    return reply["status"]


def give_up(*extra):
    """Asks, kills the server once the request is in the inbox, starts it again once
    triage-ask has said it gave up; returns (exit status, stderr, the request's status)."""
    world = World("ask-gave-up")
    server = LoggedServer(world).start()
    try:
        title = f"Asked of a server that dies {len(extra)}"
        proc = ask(world, title, "--retry-for", "1s", *extra)
        n = wait_for("the request in the inbox", lambda: pending_titled(server, title))
        server.wait_posted("triage-ask")   # else its answer is lost with the server
        server.kill()
        said = proc.stderr.readline()
        if not said:
            raise Failure("triage-ask said nothing")
        server.start()
        err = ended(proc)
        return proc.returncode, said + err, status_of(server, n)
    finally:
        server.stop()
        world.cleanup()


def test_withdrawn():
    status, err, state = give_up()
    if status != 3 or state != "invalidated" or \
            b"gave up waiting: the request was withdrawn" not in err:
        raise Failure(f"exit {status}, the request {state}; stderr {err!r}")


def test_kept_for_a_resend():
    status, err, state = give_up("--id", str(uuid.uuid4()))
    if status != 3 or state == "invalidated" or b"withdrawn" in err:
        raise Failure(f"exit {status}, the request {state}; stderr {err!r}")


def test_server_gone_for_good():
    """The server gone for good while it waits: exit 3, nothing on standard output, and
    standard error says it gave up and that the request it could not withdraw waits in
    the person's inbox, by its id (it said "could not withdraw the request")."""
    world = World("ask-gone-for-good")
    server = LoggedServer(world).start()
    try:
        title = "Asked of a server that never comes back"
        proc = ask(world, title, "--retry-for", "1s")
        n = wait_for("the request in the inbox", lambda: pending_titled(server, title))
        server.wait_posted("triage-ask")
        server.kill()
        out, err = finished(proc)
        said = f"gave up waiting; could not withdraw request {n['id']}, which waits in the " \
               "person's inbox until answered or expired: Cannot reach the local server"
        if proc.returncode != 3 or out or said.encode() not in err:
            raise Failure(f"exit {proc.returncode}; stdout {out!r}; stderr {err!r}")
    finally:
        server.stop()
        world.cleanup()


def answer_held(name, title, answer=None):
    """Asks @title through a relay that holds back the server's answer to the POST,
    answered first with @answer unless None (as through another server of a cluster);
    kills the server, drops the held answer, and starts the server again once triage-ask
    has said it gave up. Returns (exit status, stdout, stderr, the request's status)."""
    world = World(name)
    server = LoggedServer(world, socket=os.path.join(world.root, "server.sock")).start()
    relay = AnswerHolder(world, server.socket)
    try:
        proc = ask(world, title, "--retry-for", "1s")
        wait_for("the server's answer to the POST, held back", relay.answered.is_set)
        n = pending_titled(server, title)
        if answer is not None:
            server.respond_as_client(n["id"], answer)
        server.kill()
        relay.drop_first()
        said = proc.stderr.readline()
        if not said:
            raise Failure("triage-ask said nothing")
        server.start()
        out, err = finished(proc)
        return proc.returncode, out, said + err, status_of(server, n)
    finally:
        relay.close()
        server.stop()
        world.cleanup()


def test_answer_lost():
    """The server stored the request and died before its answer reached triage-ask
    (held back by a relay, then the server killed): given up after --retry-for, the
    request is withdrawn once the server is back (exit 3), where it was left pending
    with nobody waiting: the POST without an answer looked like one never received."""
    status, _, err, state = answer_held("ask-answer-lost",
                                        "Asked of a server that dies before it answers")
    if status != 3 or state != "invalidated" or \
            b"gave up waiting: the request was withdrawn" not in err:
        raise Failure(f"exit {status}, the request {state}; stderr {err!r}")


def test_answered_as_it_gave_up():
    """The person answered while the POST's answer was held back (as through another
    server of a cluster): the server then died, triage-ask gave up, and its withdrawal
    met 409 NOTIFICATION_ALREADY_RESPONDED. It said "could not withdraw" and exit 3, the
    answer lost; now it reads the request and prints the answer, exit 0."""
    status, out, err, state = answer_held("ask-answered-gave-up",
                                          "Answered as triage-ask gives up", "ok")
    if status != 0 or json.loads(out)["action_id"] != "ok" or state != "responded" or \
            b"the person had answered meanwhile" not in err:
        raise Failure(f"exit {status}, the request {state}; stdout {out!r}; stderr {err!r}")


def test_damaged_row():
    """The request's row damaged while triage-ask waits (the server stopped, its stored
    JSON broken by hand): said at once, naming the row, exit 4; it was a 500 retried for
    the whole --retry-for, after a long-poll that waited its whole 60 s for it."""
    world = World("ask-damaged")
    server = LoggedServer(world).start()
    try:
        title = "Asked of a row that will not read"
        proc = ask(world, title, "--retry-for", "300s")
        n = wait_for("the request in the inbox", lambda: pending_titled(server, title))
        server.wait_posted("triage-ask")
        server.kill()
        with sqlite3.connect(world.server_db) as db:
            db.execute("UPDATE notifications SET json = '{' WHERE id = ?", (n["id"],))
        db.close()
        server.start()
        err = ended(proc, "triage-ask did not stop on the damaged row")
        if proc.returncode != 4 or n["id"].encode() not in err or b"cannot be read" not in err:
            raise Failure(f"exit {proc.returncode}; stderr {err!r}")
    finally:
        server.stop()
        world.cleanup()


run([
    ("the server gone past --retry-for: withdrawn", test_withdrawn),
    ("sent with --id: kept for the run that resends it", test_kept_for_a_resend),
    ("the server gone for good: the request named", test_server_gone_for_good),
    ("the POST's answer lost: withdrawn once the server is back", test_answer_lost),
    ("answered as it gave up: the answer printed", test_answered_as_it_gave_up),
    ("a damaged row: said at once, not retried", test_damaged_row),
])
