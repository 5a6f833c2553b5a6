#!/usr/bin/python3
# test-ask-terminal.py — triage-ask as a person runs it in a terminal when no
# server answers (the app not started yet, a wrong port): it says so at once,
# and how long it will keep trying, instead of minutes of silence (5 by
# default) before "gave up". Then a server comes up and the request goes
# through. The program runs on a pseudo-terminal of its own: the message is for
# people, so it is written only when standard error is a terminal.
#
# Copyright 2026 The Triage authors
# SPDX-License-Identifier: GPL-3.0-or-later

import http.client
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "app"))
from apptest import Failure, Terminal, die_with_parent, run  # noqa: E402

ASK = os.environ["TRIAGE_ASK"]
SERVER = os.environ["TRIAGE_SERVER"]


class UnixHTTP(http.client.HTTPConnection):
    def __init__(self, path):
        super().__init__("localhost", timeout=30)
        self.path = path

    def connect(self):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(self.path)


def rest(path, method, url, body=None):
    """The person's side: the client API on the local socket."""
    connection = UnixHTTP(path)
    data = None if body is None else json.dumps(body)
    connection.request(method, url, body=data,
                       headers={"Content-Type": "application/json"} if data else {})
    answer = connection.getresponse()
    text = answer.read()
    connection.close()
    if answer.status != 200:
        raise Failure(f"{method} {url}: {answer.status} {text!r}")
    return json.loads(text)


def world():
    root = tempfile.mkdtemp(prefix="triage-ask-terminal-")
    runtime = os.path.join(root, "runtime")
    os.mkdir(runtime, 0o700)
    env = dict(os.environ, HOME=root, XDG_RUNTIME_DIR=runtime,
               XDG_DATA_HOME=os.path.join(root, "data"), TERM="dumb")
    return root, runtime, env


def test_unreachable_said_at_once():
    root, runtime, env = world()
    terminal = Terminal([ASK, "--title", "Anyone there?", "--confirm", "--retry-for", "20m"], env)
    server = None
    try:
        # Said at the first failed try, not at the end of the 20 minutes.
        terminal.wait_output("the retry message", "trying again for up to 20 minutes (Ctrl+C to stop)",
                             timeout=30)
        if "Cannot reach the local server at" not in terminal.text():
            raise Failure(f"the message does not say what failed:\n{terminal.text()}")
        server = subprocess.Popen([SERVER, "--local", "--print-address"], env=env,
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                  preexec_fn=die_with_parent)
        if not server.stdout.readline().startswith(b"listening on"):
            raise Failure("the local server did not start")
        terminal.wait_output("the request sent once the server is up", "waiting for an answer to",
                             timeout=30)
        # Once for a run of failures, not a line for every try.
        if terminal.text().count("trying again") != 1:
            raise Failure(f"the retries were said more than once:\n{terminal.text()}")
        # The person answers: the run ends as usual.
        path = os.path.join(runtime, "triage", "triage.sock")
        listed = rest(path, "GET", "/api/v1/client/notifications?status=pending")
        rest(path, "POST", "/api/v1/client/respond",
             {"notification_id": listed["notifications"][0]["id"], "action_id": "approve"})
        status = os.waitstatus_to_exitcode(terminal.wait_exit(30))
        if status != 0:
            raise Failure(f"exit status {status}, expected 0:\n{terminal.text()}")
    finally:
        terminal.close()
        if server is not None:
            server.terminate()
            server.wait()
        shutil.rmtree(root, ignore_errors=True)


def test_not_said_off_a_terminal():
    """A script reading standard error gets the one message at the end, as before."""
    root, runtime, env = world()
    try:
        p = subprocess.run([ASK, "--title", "Anyone?", "--confirm", "--retry-for", "1s"], env=env,
                           capture_output=True, text=True, timeout=30)
        if p.returncode != 3 or "trying again" in p.stderr or "gave up after" not in p.stderr:
            raise Failure(f"exit {p.returncode}, standard error:\n{p.stderr}")
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    run([("/ask/terminal/unreachable-said-at-once", test_unreachable_said_at_once),
         ("/ask/terminal/not-said-off-a-terminal", test_not_said_off_a_terminal)])
