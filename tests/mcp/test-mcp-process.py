#!/usr/bin/python3
# test-mcp-process.py — the real triage-mcp as a process, against a real
# triage-server --local in a private runtime folder: standard input closing or a
# signal mid-call (every waiting request withdrawn), standard output kept for the
# session alone, standard descriptors closed at start, no server, bad options, and
# a team server reached with --server and the key from TRIAGE_API_KEY. The
# JSON-RPC spoken byte by byte is tested in test-mcp-raw.py.
#
# Copyright 2026 The Triage authors
# SPDX-License-Identifier: GPL-3.0-or-later

import http.client
import json
import os
import signal
import subprocess
import sys
import time
import uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mcptest import Mcp, Session  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "app"))
from apptest import Failure, World, die_with_parent, run, wait_for  # noqa: E402



def test_input_closes_mid_call():
    with Session("eof") as s:
        s.mcp.initialize()
        s.mcp.tool("request_approval", {"title": "Left waiting 1"})
        s.mcp.tool("ask_human", {"question": "Left waiting 2", "response_type": "text"})
        first = s.wait_pending("Left waiting 1")
        second = s.wait_pending("Left waiting 2")
        s.mcp.close_input()
        if s.mcp.wait_exit() != 0:
            raise Failure(f"exit status {s.mcp.proc.returncode}; stderr {s.mcp.errors()!r}")
        for n in (first, second):
            if s.status(n["id"]) != "invalidated":
                raise Failure(f"{n['context']['title']} was not withdrawn")


def test_signal_mid_call():
    # SIGHUP: the terminal closed, of a client that started triage-mcp in its process group.
    for sig in (signal.SIGTERM, signal.SIGHUP):
        with Session(f"signal-{sig.name}") as s:
            s.mcp.initialize()
            s.mcp.tool("request_approval", {"title": f"Ended by {sig.name}"})
            n = s.wait_pending(f"Ended by {sig.name}")
            s.mcp.proc.send_signal(sig)
            if s.mcp.wait_exit() != 0:
                raise Failure(f"{sig.name}: exit status {s.mcp.proc.returncode}")
            if s.status(n["id"]) != "invalidated":
                raise Failure(f"not withdrawn on {sig.name}")


def test_stdout_is_the_session_alone():
    """GLib prints its debug lines on standard output when G_MESSAGES_DEBUG is set (a
    person debugging, a desktop session that exports it): there they would break the
    JSON-RPC stream that the MCP client reads."""
    for domains in ["all", "GLib-GIO"]:
        with Session(f"debug-{domains}", env={"G_MESSAGES_DEBUG": domains}) as s:
            s.mcp.initialize()
            id = s.mcp.tool("request_approval", {"title": f"Debugging {domains}"})
            n = s.wait_pending(f"Debugging {domains}")
            status, reply = s.server.respond_as_client(n["id"], "approve")
            if status != 200:
                raise Failure(f"respond: {status} {reply}")
            if s.mcp.reply(id)["result"]["structuredContent"]["approved"] is not True:
                raise Failure(f"result {s.mcp.seen}")
            s.mcp.close_input()
            s.mcp.wait_exit()
            s.mcp.errors()
            unparsable = [m for m in s.mcp.seen if "unparsable" in m]
            if unparsable:
                raise Failure(f"G_MESSAGES_DEBUG={domains}: standard output carried {unparsable[:3]}")


def test_closed_standard_fds():
    """A standard descriptor the client closed was the next one opened: with standard
    input closed triage-mcp read GLib's wakeup eventfd and never ended; with standard
    output closed it wrote the answer into it. Now they read as /dev/null: no input
    ends the session, output that cannot be written ends it, exit 0 both."""
    world = World("mcp-closed-fds")
    try:
        for fd, stdin in [(0, None), (1, subprocess.PIPE)]:
            proc = subprocess.Popen(
                [os.environ["TRIAGE_MCP"]], env=world.env(), stdin=stdin,
                stderr=subprocess.PIPE,
                preexec_fn=lambda fd=fd: (die_with_parent(), os.close(fd)))
            if stdin is not None:
                proc.stdin.write(b'{"jsonrpc":"2.0","id":1,"method":"ping"}\n')
                proc.stdin.close()
            try:
                status = proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                raise Failure(f"descriptor {fd} closed: triage-mcp did not end")
            errors = proc.stderr.read()
            if status != 0 or (fd == 1 and b"Bad file descriptor" not in errors):
                raise Failure(f"descriptor {fd} closed: exit {status}, {errors!r}")
    finally:
        world.cleanup()


def test_no_server():
    with Session("no-server", "--retry-for", "1s", server=False) as s:
        s.mcp.initialize()
        result = s.mcp.reply(s.mcp.tool("request_approval", {"title": "Anyone?"}))["result"]
        text = result["content"][0]["text"]
        if not result.get("isError") or "local server" not in text:
            raise Failure(f"no server: {result}")
    # With the default --retry-for the explanation must come well inside the 60 s
    # after which most clients (the official SDKs' default request timeout) give up
    # on a call: at 60 s it raced that timeout, and the agent read "Request timed
    # out" instead of why.
    with Session("no-server-default", server=False) as s:
        s.mcp.initialize()
        started = time.monotonic()
        result = s.mcp.reply(s.mcp.tool("request_approval", {"title": "Anyone?"}),
                             timeout=90)["result"]
        took = time.monotonic() - started
        if not result.get("isError") or "local server" not in result["content"][0]["text"]:
            raise Failure(f"no server, default options: {result}")
        if took > 45:
            raise Failure(f"no server: the tool error took {took:.0f} s (clients give up at 60)")


def test_bad_options():
    with Session("options", "--api-key", "sk_x", server=False) as s:
        if s.mcp.wait_exit() != 2 or b"TRIAGE_API_KEY" not in s.mcp.errors():
            raise Failure("--api-key must be refused")
    with Session("retry-for", "--retry-for", "99999d", server=False) as s:
        if s.mcp.wait_exit() != 2 or \
                b"--retry-for \xe2\x80\x9c99999d\xe2\x80\x9d: too long" not in s.mcp.errors():
            raise Failure(f"--retry-for 99999d: {s.mcp.errors()!r}")
    with Session("name", "--service-name", "Two\nlines", server=False) as s:
        if s.mcp.wait_exit() != 2 or b"--service-name: control characters" not in s.mcp.errors():
            raise Failure(f"a line break in --service-name: {s.mcp.errors()!r}")
    # Blank or huge, the service id or name was sent as it was: the server took a blank
    # one for no service, and closed the connection at a huge one, so every call failed
    # as if no server ran. Port 0 failed every call after --retry-for.
    for args, said in [(["--service", "   "], b"--service: must not be empty"),
                       (["--service-name", " \u00a0"], b"--service-name: must not be empty"),
                       (["--service", "x" * 65], b"--service: 65 characters, more than the 64"),
                       (["--service-name", "\u00e9" * 101],
                        b"--service-name: 101 characters, more than the 100"),
                       (["--server", "http://127.0.0.1:0/"], b"names port 0")]:
        with Session("bad-service", *args, server=False) as s:
            if s.mcp.wait_exit() != 2 or said not in s.mcp.errors():
                raise Failure(f"{args[0]} {args[1][:10]}: {s.mcp.errors()!r}")
    # An empty --socket crashed triage-mcp when it connected.
    with Session("empty-socket", "--socket", "", server=False) as s:
        s.mcp.proc.stdin.close()
        if s.mcp.wait_exit() != 2 or b"--socket: must not be empty" not in s.mcp.errors():
            raise Failure(f"an empty --socket: {s.mcp.proc.returncode} {s.mcp.errors()!r}")
    with Session("no-key", "--server", "https://triage.example", server=False) as s:
        s.mcp.proc.stdin.close()
        if s.mcp.wait_exit() != 2:
            raise Failure("--server without a key must exit 2")
    # A line break in the key was sent on: a libsoup critical, then a bare 401.
    with Session("key-line-break", "--server", "https://triage.example", server=False,
                 env={"TRIAGE_API_KEY": "sk_one\nsk_two"}) as s:
        if s.mcp.wait_exit() != 2 or b"TRIAGE_API_KEY holds a line break" not in s.mcp.errors():
            raise Failure(f"a line break in the key: {s.mcp.errors()!r}")


def test_team_server():
    """--server URL with the service key from TRIAGE_API_KEY; the person is a user
    of that server with a token of their own."""
    world = World("mcp-team")
    admin = "admin-" + uuid.uuid4().hex
    env = world.env(TRIAGE_ADMIN_TOKEN=admin)
    server = subprocess.Popen([os.environ["TRIAGE_SERVER"], "--listen", "127.0.0.1:0",
                               "--database", os.path.join(world.root, "team.db"),
                               "--print-address"], env=env, stdout=subprocess.PIPE,
                              stdin=subprocess.DEVNULL, text=True, preexec_fn=die_with_parent)
    mcp = None
    try:
        line = server.stdout.readline()
        if not line.startswith("listening on http://"):
            raise Failure(f"triage-server said {line!r}")
        url = line.split()[-1]
        host, port = url[len("http://"):].split(":")

        def call(method, path, token, body=None):
            conn = http.client.HTTPConnection(host, int(port), timeout=10)
            conn.request(method, path, body=json.dumps(body) if body is not None else None,
                         headers={"Authorization": f"Bearer {token}",
                                  "Content-Type": "application/json"})
            reply = conn.getresponse()
            data = reply.read()
            conn.close()
            return reply.status, json.loads(data) if data else None

        status, user = call("POST", "/api/v1/admin/users", admin, {"id": "alice"})
        if status != 201:
            raise Failure(f"create user: {status} {user}")
        status, service = call("POST", "/api/v1/services", admin,
                               {"name": "Team agent", "description": "An agent of the team",
                                "recipients": ["alice"]})
        if status != 201:
            raise Failure(f"create service: {status} {service}")

        mcp = Mcp(world, "--server", url, env={"TRIAGE_API_KEY": service["api_key"]})
        mcp.initialize()
        id = mcp.tool("ask_human", {"question": "Which team?", "response_type": "text"})

        def waiting():
            status, reply = call("GET", "/api/v1/client/notifications?status=pending",
                                 user["token"])
            return next((n for n in reply["notifications"]
                         if n["context"]["title"] == "Which team?"), None)
        n = wait_for("the question on the team server", waiting)
        if n["service"]["name"] != "Team agent":
            raise Failure(f"a remote server names the service by its key: {n['service']}")
        status, reply = call("POST", "/api/v1/client/respond", user["token"],
                             {"notification_id": n["id"], "action_id": "answer",
                              "response_data": "platform"})
        if status != 200:
            raise Failure(f"respond: {status} {reply}")
        sc = mcp.reply(id)["result"]["structuredContent"]
        if sc["answer"] != "platform" or sc["responder"]["id"] != "alice":
            raise Failure(f"team answer: {sc}")
    finally:
        if mcp is not None:
            mcp.stop()
        server.terminate()
        server.wait(timeout=10)
        world.cleanup()


run([
    ("standard input closes mid-call", test_input_closes_mid_call),
    ("SIGTERM or SIGHUP mid-call", test_signal_mid_call),
    ("standard output is the session alone", test_stdout_is_the_session_alone),
    ("standard descriptors closed", test_closed_standard_fds),
    ("no server", test_no_server),
    ("a team server with a key", test_team_server),
    ("bad options", test_bad_options),
])
