#!/usr/bin/python3
# chaostest.py — what the chaos tests (tests/chaos) share on top of
# tests/app/apptest.py (whose TcpServer, RemoteApp and store_token they use): a
# world whose server database is the one the app's own launcher would use (so
# whoever brings the server back, the test or the app, finds the same
# requests), a server started with options whose log tells what it was sent,
# clients that post and retry until they get a 2xx, and reads of both
# databases.
#
# Copyright 2026 The Triage authors
# SPDX-License-Identifier: GPL-3.0-or-later

import http.client
import json
import os
import re
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import uuid

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "app"))

from apptest import (App, Failure, Server, TcpServer, UnixHTTPConnection, World,  # noqa: E402,F401
                     die_with_parent, run, wait_for)

# The server stores a status as its AtpStatus number (src/atp/atp-types.h).
ACKNOWLEDGED, RESPONDED = 2, 3

# TRIAGE_CHAOS_LONG=1 (build-aux/check.sh --long): the long versions.
LONG = os.environ.get("TRIAGE_CHAOS_LONG", "0") not in ("", "0")


def log(text):
    """A TAP comment: what a scenario did, for the test log."""
    for line in str(text).splitlines():
        print(f"# {line}", flush=True)


class ChaosWorld(World):
    """A World whose server database is where triage-server --local keeps it by
    default ($XDG_DATA_HOME/triage/server.db): a server the app starts itself
    after a crash serves the same requests."""

    def __init__(self, name):
        super().__init__(f"chaos-{name}")
        os.makedirs(os.path.join(self.data, "triage"), mode=0o700, exist_ok=True)
        self.server_db = os.path.join(self.data, "triage", "server.db")


class ChaosServer(Server):
    """A real triage-server on the world's socket (rate limits off unless
    extra_args say otherwise; preexec runs in the child, env changes its
    environment), which can be killed and brought back. With log=True, what
    it writes on standard error (its log: a line a request) is kept here,
    each start's after the last's, for requests(); through a pipe, as a file
    of its own would meet its file size limit (RLIMIT_FSIZE) too. Lines
    other than a request's still go to the test's standard error."""

    def __init__(self, world, *extra_args, socket=None, preexec=None, env=None, log=False):
        super().__init__(world, "--no-limits", *extra_args, socket=socket)
        self.preexec = preexec
        self.env = env or {}
        self.log = log
        self.log_lines = []
        self.log_readers = []

    def start(self):
        args = [os.environ["TRIAGE_SERVER"], "--local", "--database", self.world.server_db,
                "--print-address", "--heartbeat-interval", "2", *self.extra_args]
        if self.socket != self.world.socket:
            args += ["--socket", self.socket]

        def child():
            die_with_parent()
            if self.preexec is not None:
                self.preexec()

        self.proc = subprocess.Popen(args, env=self.world.env(**self.env),
                                     stdout=subprocess.PIPE, stdin=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE if self.log else None, text=True,
                                     preexec_fn=child)
        if self.log:
            reader = threading.Thread(target=self._keep_log, args=(self.proc,), daemon=True)
            reader.start()
            self.log_readers.append(reader)
        line = self.proc.stdout.readline()
        if not line.startswith("listening on"):
            self.proc.kill()
            self.proc.wait()
            raise Failure(f"triage-server did not start (said {line!r})")
        self.lines = [line]
        threading.Thread(target=self._drain, args=(self.proc,), daemon=True).start()
        return self

    def _drain(self, proc):
        for line in proc.stdout:
            self.lines.append(line)

    def _keep_log(self, proc):
        for line in proc.stderr:
            self.log_lines.append(line)
            if "-access-INFO: " not in line:
                sys.stderr.write(line)

    def log_size(self):
        """A mark for requests(): the lines logged so far."""
        return len(self.log_lines)

    def requests(self, method, route, since=0):
        """The statuses (numbers) of the requests of @method on @route the
        server logged after the mark @since (its log's line a request: "…:
        METHOD ROUTE STATUS MS ms WHO request ID"), in their order: what it
        was really sent, however it answered. All of them once it has been
        stopped (its lines read to the end)."""
        if self.proc is None:
            for reader in self.log_readers:
                reader.join(timeout=30)
        line = re.compile(rf"-INFO: [0-9:.]+: {re.escape(method)} {re.escape(route)} ([0-9]+) ")
        return [int(m.group(1)) for m in map(line.search, self.log_lines[since:]) if m]

    def rows(self, sql, args=()):
        """Rows of the server's database (read-only; WAL lets it read while the
        server writes)."""
        db = sqlite3.connect(f"file:{self.world.server_db}?mode=ro", uri=True, timeout=10)
        try:
            return db.execute(sql, args).fetchall()
        finally:
            db.close()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def notification_body(nid, title, actions=None):
    return {"id": nid,
            "context": {"title": title, "description": "Chaos."},
            "actions": actions or [{"id": "ok", "label": "OK", "response_type": "simple"}]}


def try_post(socket_path, body, service="tests", timeout=10):
    """One POST of a notification; its status, or None when the connection
    failed (refused, reset, the server gone mid-answer: then it may or may not
    have been stored, and posting it again tells)."""
    try:
        conn = UnixHTTPConnection(socket_path, timeout=timeout)
        conn.request("POST", "/api/v1/notifications", body=json.dumps(body).encode(),
                     headers={"X-Triage-Service": service, "X-Triage-Service-Name": "Test Bot",
                              "Content-Type": "application/json"})
        reply = conn.getresponse()
        reply.read()
        conn.close()
        return reply.status
    except (OSError, http.client.HTTPException):   # e.g. IncompleteRead: killed mid-answer
        return None


class Poster(threading.Thread):
    """A client posting @count requests one after the other; a request that
    fails (no server, a reset, any status but 2xx) is posted again, the same
    body with the same id, until it gets a 2xx — what an ATP client does."""

    def __init__(self, socket_path, name, count):
        super().__init__(daemon=True)
        self.socket_path = socket_path
        self.bodies = [notification_body(str(uuid.uuid4()), f"{name} {i}") for i in range(count)]
        self.accepted = []         # ids, in the order they got a 2xx
        self.failed_once = set()   # ids whose first attempts failed
        self.statuses = {}         # status → count of answers
        self.error = None

    def run(self):
        try:
            for body in self.bodies:
                end = time.monotonic() + 120
                while True:
                    status = try_post(self.socket_path, body)
                    self.statuses[status] = self.statuses.get(status, 0) + 1
                    if status is not None and 200 <= status < 300:
                        self.accepted.append(body["id"])
                        break
                    self.failed_once.add(body["id"])
                    if time.monotonic() > end:
                        raise Failure(f"{body['id']} not accepted in 120 s (last {status})")
                    time.sleep(0.05)   # a poll for the server to be back
        except Exception as e:  # noqa: BLE001 — reported by the test
            self.error = e


def app_rows(world, sql, args=()):
    if not os.path.exists(world.app_db):
        return []
    db = sqlite3.connect(f"file:{world.app_db}?mode=ro", uri=True, timeout=10)
    try:
        return db.execute(sql, args).fetchall()
    except sqlite3.OperationalError:
        return []
    finally:
        db.close()


def process_gone(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise Failure(f"no VmRSS for {pid}")
