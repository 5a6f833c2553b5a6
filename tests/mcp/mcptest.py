#!/usr/bin/python3
# mcptest.py — a raw MCP session with the real triage-mcp: one JSON-RPC message a
# line on its standard input and output, read on a thread so a test can wait for
# a message with a bound, and see everything the server sent; a Session puts it
# beside a real triage-server in a world of its own.
#
# Copyright 2026 The Triage authors
# SPDX-License-Identifier: GPL-3.0-or-later

import json
import os
import queue
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "app"))
from apptest import Failure, Server, World, die_with_parent, wait_for, WAIT  # noqa: E402,F401
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cli"))
from hooktest import start_server  # noqa: E402


class Mcp:
    """triage-mcp started in a World (against its local server unless args say)."""

    def __init__(self, world, *args, env=None):
        self.world = world
        self.proc = subprocess.Popen(
            [os.environ["TRIAGE_MCP"], *args], env=world.env(**(env or {})),
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            preexec_fn=die_with_parent)
        self.messages = queue.Queue()
        self.seen = []          # every message read, in order
        self.unclaimed = {}     # responses read while waiting for another, by id
        self.stderr = b""
        self.said = threading.Condition()
        self.stderr_ended = False
        self.next_id = 1
        # Cleared, the reader stops taking lines: a client that does not read for a while.
        self.reading = threading.Event()
        self.reading.set()
        threading.Thread(target=self._read, daemon=True).start()
        self._stderr_reader = threading.Thread(target=self._read_stderr, daemon=True)
        self._stderr_reader.start()

    def _read(self):
        while True:
            self.reading.wait()
            line = self.proc.stdout.readline()
            if not line:
                break
            try:
                message = json.loads(line)
            except ValueError:
                message = {"unparsable": line}
            self.seen.append(message)
            self.messages.put(message)
        self.messages.put(None)

    def _read_stderr(self):
        for line in self.proc.stderr:
            with self.said:
                self.stderr += line
                self.said.notify_all()
        with self.said:
            self.stderr_ended = True
            self.said.notify_all()

    def wait_stderr(self, part, timeout=WAIT):
        """Waits until triage-mcp has said @part (bytes) on standard error."""
        with self.said:
            if not self.said.wait_for(lambda: part in self.stderr or self.stderr_ended,
                                      timeout) or part not in self.stderr:
                raise Failure(f"triage-mcp did not say {part!r}; it said {self.stderr!r}")

    def send_raw(self, data):
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def send(self, message):
        self.send_raw(json.dumps(message).encode() + b"\n")

    def notify(self, method, params=None):
        message = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)

    def call(self, method, params=None, id=None):
        """Sends a request; returns its id."""
        if id is None:
            id = self.next_id
            self.next_id += 1
        message = {"jsonrpc": "2.0", "id": id, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        return id

    def next(self, timeout=WAIT):
        try:
            message = self.messages.get(timeout=timeout)
        except queue.Empty:
            raise Failure(f"no message from triage-mcp within {timeout:.0f} s")
        if message is None:
            self.messages.put(None)
            raise Failure(f"triage-mcp closed its output; stderr: {self.stderr!r}")
        return message

    def reply(self, id, timeout=WAIT):
        """The response to request @id (notifications meanwhile stay in self.seen)."""
        if id in self.unclaimed:
            return self.unclaimed.pop(id)
        end = time.monotonic() + timeout
        while True:
            message = self.next(max(0.1, end - time.monotonic()))
            if "method" in message:
                continue
            if message.get("id") == id:
                return message
            self.unclaimed[message.get("id")] = message

    def request(self, method, params=None):
        return self.reply(self.call(method, params))

    def initialize(self, version="2025-11-25", name="Test Agent"):
        reply = self.request("initialize", {
            "protocolVersion": version, "capabilities": {},
            "clientInfo": {"name": name, "version": "1.0"}})
        if "result" not in reply:
            raise Failure(f"initialize: {reply}")
        self.notify("notifications/initialized")
        return reply["result"]

    def tool(self, name, arguments, progress_token=None):
        """Starts a tools/call; returns its id."""
        params = {"name": name, "arguments": arguments}
        if progress_token is not None:
            params["_meta"] = {"progressToken": progress_token}
        return self.call("tools/call", params)

    def close_input(self):
        self.proc.stdin.close()

    def wait_exit(self, timeout=WAIT):
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            raise Failure(f"triage-mcp did not exit within {timeout:.0f} s")

    def errors(self):
        """Everything triage-mcp wrote on standard error (once it has exited)."""
        self._stderr_reader.join(timeout=WAIT)
        return self.stderr

    def stop(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


class Session:
    """A world with a real triage-server --local in it (unless server=False) and
    triage-mcp started with @args against it; the test plays the person through
    the server's client API; with @relay (a class of hooktest.py's), behind that relay."""

    def __init__(self, name, *args, server=True, env=None, relay=None):
        self.world = World(f"mcp-{name}")
        self.server, self.relay = start_server(self.world, server, relay)
        self.mcp = Mcp(self.world, *args, env=env)

    def __enter__(self):
        return self

    def status(self, nid):
        status, reply = self.server.request("GET", f"/api/v1/client/notifications/{nid}")
        if status != 200:
            raise Failure(f"client GET {nid}: {status} {reply}")
        return reply["status"]

    def wait_pending(self, title):
        return wait_for(f"“{title}” in the inbox", lambda: pending_titled(self.server, title))

    def __exit__(self, *exc):
        self.mcp.stop()
        if self.relay is not None:
            self.relay.close()
        if self.server is not None:
            self.server.stop()
        self.world.cleanup()


def expect_error(reply, code, part=""):
    error = reply.get("error")
    if error is None or error["code"] != code or part not in error["message"]:
        raise Failure(f"expected error {code} mentioning {part!r}, got {reply}")
    return error


def modern(extra=None, version="2026-07-28", client=None, capabilities=True):
    """Params of a request of MCP 2026-07-28: no handshake, everything in _meta."""
    meta = {"io.modelcontextprotocol/protocolVersion": version}
    if capabilities:
        meta["io.modelcontextprotocol/clientCapabilities"] = {}
    if client is not None:
        meta["io.modelcontextprotocol/clientInfo"] = {"name": client, "version": "2.0"}
    return dict(extra or {}, _meta=dict(meta, **(extra or {}).get("_meta", {})))


def pending_titled(server, title):
    """The pending request titled @title on @server (as the person sees it), or None."""
    status, reply = server.request("GET", "/api/v1/client/notifications?status=pending")
    if status != 200:
        raise Failure(f"client list: {status} {reply}")
    for n in reply["notifications"]:
        if n["context"]["title"] == title:
            return n
    return None
