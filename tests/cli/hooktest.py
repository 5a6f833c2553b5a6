#!/usr/bin/python3
# hooktest.py — what the tests of triage-ask --hook claude-code share: the sample
# inputs of Claude Code's hooks reference, the hook run as Claude Code runs it (the
# event's JSON on standard input, one line of JSON expected back), and the person
# answering through the client REST API of a real triage-server --local; a relay that
# holds back the server's answer to a POST (the server stored it, the answer is lost),
# and one that stops passing anything (the server hung: it takes connections, never
# answers).
#
# Copyright 2026 The Triage authors
# SPDX-License-Identifier: GPL-3.0-or-later

import base64
import contextlib
import json
import os
import socket
import subprocess
import sys
import threading

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "app"))
from apptest import Failure, Server, WAIT, World, die_with_parent, wait_for  # noqa: E402


class LoggedServer(Server):
    """A Server whose log (its standard error: one access line a request, written once
    the answer is on its way) goes to a file, so a test can wait for a request to have
    been answered: a request the person sees was stored before its 201 was sent."""

    def start(self):
        self.log = os.path.join(self.world.root, "server.log")
        args = [os.environ["TRIAGE_SERVER"], "--local", "--database", self.world.server_db,
                "--print-address", "--heartbeat-interval", "2", *self.extra_args]
        if self.socket != self.world.socket:
            args += ["--socket", self.socket]
        with open(self.log, "ab") as log:
            self.proc = subprocess.Popen(args, env=self.world.env(), stdout=subprocess.PIPE,
                                         stderr=log, stdin=subprocess.DEVNULL, text=True,
                                         preexec_fn=die_with_parent)
        line = self.proc.stdout.readline()
        if not line.startswith("listening on"):
            self.proc.kill()
            raise Failure(f"triage-server did not start (said {line!r})")
        return self

    def wait_posted(self, service):
        """Waits until the server has answered a POST of a notification by @service."""
        def posted():
            with open(self.log, "rb") as log:
                return any(b"POST /api/v1/notifications 201 " in line and
                           f"service:{service} ".encode() in line for line in log)
        wait_for(f"the server to answer {service}'s POST", posted)

def pump(source, sink, hung=None, seen=None):
    """Copies @source to @sink until either ends, adding what it reads to @seen (a
    list) if given; once @hung (an Event) is set, what @source sends is read and
    dropped."""
    try:
        while data := source.recv(65536):
            if seen is not None:
                seen.append(data)
            if hung is None or not hung.is_set():
                sink.sendall(data)
    except OSError:
        pass


class Relay:
    """A relay on the world's socket in front of the server's own: take () is given
    each connection made to it and the one it made to the server for it (while the
    server is away, the connection is closed)."""

    def __init__(self, world, upstream):
        os.makedirs(os.path.dirname(world.socket), mode=0o700, exist_ok=True)
        self.upstream = upstream
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.bind(world.socket)
        self.sock.listen(16)
        threading.Thread(target=self.serve, daemon=True).start()

    def serve(self):
        while True:
            try:
                client, _ = self.sock.accept()
            except OSError:
                return
            server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                server.connect(self.upstream)
            except OSError:
                client.close()
                continue
            self.take(client, server)

    def close(self):
        self.sock.close()


class AnswerHolder(Relay):
    """A relay whose first connection's request passes, and the server's answer to it
    is read and held back; the others pass both ways."""

    def __init__(self, world, upstream):
        self.answered = threading.Event()
        self.first = None
        super().__init__(world, upstream)

    def take(self, client, server):
        threading.Thread(target=pump, args=(client, server), daemon=True).start()
        if self.first is None:
            self.first = client
            threading.Thread(target=self.hold, args=(server,), daemon=True).start()
        else:
            threading.Thread(target=pump, args=(server, client), daemon=True).start()

    def hold(self, server):
        while server.recv(65536):
            self.answered.set()

    def drop_first(self):
        """Ends the first connection: its request went out, its answer never comes."""
        self.first.shutdown(socket.SHUT_RDWR)
        self.first.close()


class Hung(Relay):
    """A relay that passes both ways until hang (); from then on it passes nothing
    either way, on the connections it has and on new ones, which it keeps open: a
    server that hung, taking connections and never answering. What the clients sent
    is in sent, as read."""

    def __init__(self, world, upstream):
        self.hung = threading.Event()
        self.held = []
        self.sent = []
        super().__init__(world, upstream)

    def take(self, client, server):
        self.held += [client, server]
        threading.Thread(target=pump, args=(client, server, self.hung, self.sent),
                         daemon=True).start()
        threading.Thread(target=pump, args=(server, client, self.hung), daemon=True).start()

    def hang(self):
        self.hung.set()

    def close(self):
        super().close()
        for held in self.held:
            held.close()


class Misrouted(Relay):
    """A relay that reads each request whole and passes it until misroute (); from then
    on it answers each request as a proxy whose route to the server is missing does (a
    bare 404, an HTML page without ATP's error object) and closes that connection, until
    it has so answered a request line starting with @until. A request already passed
    (a long-poll under way) is left to finish. The request lines it answered so are in
    misrouted; the requests it passed, whole, in sent."""

    PAGE = b"<html><body><h1>404 Not Found</h1></body></html>"

    def __init__(self, world, upstream):
        self.misrouting = threading.Event()
        self.until = None
        self.misrouted = []
        self.held = []
        self.sent = []
        super().__init__(world, upstream)

    def take(self, client, server):
        self.held += [client, server]
        threading.Thread(target=self.forward, args=(client, server), daemon=True).start()
        threading.Thread(target=pump, args=(server, client), daemon=True).start()

    @staticmethod
    def read_request(client, data):
        """The next request on @client after @data (bytes already read): (its line, the
        request whole, what was read after it), or None once the client closed."""
        while b"\r\n\r\n" not in data:
            chunk = client.recv(65536)
            if not chunk:
                return None
            data += chunk
        head, body = data.split(b"\r\n\r\n", 1)
        lines = head.decode("latin-1").split("\r\n")
        length = next((int(line.split(":", 1)[1]) for line in lines[1:]
                       if line.lower().startswith("content-length:")), 0)
        while len(body) < length:
            chunk = client.recv(65536)
            if not chunk:
                return None
            body += chunk
        return lines[0], head + b"\r\n\r\n" + body[:length], body[length:]

    def forward(self, client, server):
        data = b""
        with contextlib.suppress(OSError):
            while (request := self.read_request(client, data)) is not None:
                line, whole, data = request
                if not self.misrouting.is_set():
                    self.sent.append(whole)
                    server.sendall(whole)
                    continue
                if line.startswith(self.until):
                    self.misrouting.clear()
                self.misrouted.append(line)
                client.sendall(b"HTTP/1.1 404 Not Found\r\nContent-Type: text/html\r\n"
                               b"Content-Length: %d\r\nConnection: close\r\n\r\n%s"
                               % (len(self.PAGE), self.PAGE))
                break
        for sock in (client, server):
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()

    def misroute(self, until, cut=False):
        """Misroutes from now on, until a request line starting with @until; with @cut,
        the connections it has are ended too (a long-poll under way fails)."""
        self.until = until
        self.misrouting.set()
        if cut:
            held, self.held = self.held, []
            for sock in held:
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)
                sock.close()

    def saw(self, start):
        """Whether a request line starting with @start was misrouted."""
        return any(line.startswith(start) for line in self.misrouted)

    def passed(self, request):
        """Whether a client sent @request (the start of a request line) through."""
        return any(whole.startswith(request.encode()) for whole in self.sent)

    def close(self):
        super().close()
        for sock in self.held:
            sock.close()


# The samples as the hooks reference prints them.
PRE_TOOL_USE_BASH = {
    "session_id": "abc123",
    "prompt_id": "550e8400-e29b-41d4-a716-446655440000",
    "transcript_path": "/home/user/.claude/projects/.../transcript.jsonl",
    "cwd": "/home/user/my-project",
    "permission_mode": "default",
    "hook_event_name": "PreToolUse",
    "tool_name": "Bash",
    "tool_input": {"command": "npm test", "description": "Run test suite",
                   "timeout": 120000, "run_in_background": False},
    "tool_use_id": "toolu_01ABC123...",
}
PERMISSION_REQUEST = {
    "session_id": "abc123",
    "transcript_path": "/Users/.../.claude/projects/.../00893aaf-19fa-41d2-8238-13269b9b3ca0.jsonl",
    "cwd": "/Users/...",
    "permission_mode": "default",
    "hook_event_name": "PermissionRequest",
    "tool_name": "Bash",
    "tool_input": {"command": "rm -rf node_modules",
                   "description": "Remove node_modules directory"},
    "permission_suggestions": [{"type": "addRules",
                                "rules": [{"toolName": "Bash", "ruleContent": "rm -rf node_modules"}],
                                "behavior": "allow", "destination": "localSettings"}],
}


def pre_tool_use(decision, reason):
    return {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": decision,
                                   "permissionDecisionReason": reason}}


class Hook:
    def __init__(self, world, event, *args, env=None):
        self.proc = subprocess.Popen([os.environ["TRIAGE_ASK"], "--hook", "claude-code", *args],
                                     env=world.env(**(env or {})), stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     preexec_fn=die_with_parent)
        self.proc.stdin.write(event if isinstance(event, bytes) else json.dumps(event).encode())
        self.proc.stdin.close()

    def result(self):
        try:
            out = self.proc.stdout.read()
            err = self.proc.stderr.read()
            status = self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            raise Failure("triage-ask --hook did not exit")
        self.out = out  # the bytes, for a test of how the JSON is escaped
        self.err = err  # what it said, for a failure to show
        if out.count(b"\n") != 1 or not out.endswith(b"\n"):
            raise Failure(f"expected one line of JSON, got {out!r} (stderr {err!r})")
        return status, json.loads(out)


class Person:
    def __init__(self, server):
        self.server = server

    def waiting(self, title, timeout=WAIT):
        def find():
            status, reply = self.server.request("GET",
                                                "/api/v1/client/notifications?status=pending")
            return next((n for n in reply["notifications"] if n["context"]["title"] == title),
                        None)
        return wait_for(f"“{title}” in the inbox", find, timeout=timeout)

    def answer(self, title, action, data=None, timeout=WAIT):
        n = self.waiting(title, timeout)
        status, reply = self.server.respond_as_client(n["id"], action, data)
        if status != 200:
            raise Failure(f"respond: {status} {reply}")
        return n


def expect(got, want):
    if got != want:
        raise Failure(f"expected {json.dumps(want)}, got {json.dumps(got)}")


def start_server(world, server=True, relay=None):
    """@world's LoggedServer (None without @server) and @relay (a class: AnswerHolder,
    Hung or Misrouted; None for none): with a relay the server is on a socket of its own, behind the
    relay on the world's socket (the one the programs under test use)."""
    if relay is not None:
        started = LoggedServer(world, socket=os.path.join(world.root, "server.sock")).start()
        return started, relay(world, started.socket)
    return (LoggedServer(world).start() if server else None), None


class Scenario:
    """A world and its server, behind a relay if asked (start_server ())."""

    def __init__(self, name, server=True, relay=None):
        self.world = World(f"hook-{name}")
        self.server, self.relay = start_server(self.world, server, relay)
        self.person = Person(self.server) if self.server else None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self.relay is not None:
            self.relay.close()
        if self.server is not None:
            self.server.stop()
        self.world.cleanup()


def attachment_text(n, index=0):
    return base64.b64decode(n["context"]["attachments"][index]["data"]).decode()
