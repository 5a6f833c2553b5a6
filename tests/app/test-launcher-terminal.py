#!/usr/bin/python3
# test-launcher-terminal.py — the local server the app starts outlives the app's
# terminal: README says it keeps serving agents after the app quits, but started
# in the app's process group with the terminal as its standard input, the
# terminal's Ctrl+C (SIGINT to the foreground process group) ended it with the
# app, and its log lines kept printing into the person's shell. Runs the app's
# launcher (launcher-on-terminal) on a pseudo-terminal of its own, presses
# Ctrl+C there, then asks the server something.
#
# Copyright 2026 The Triage authors
# SPDX-License-Identifier: GPL-3.0-or-later

import os
import pty
import select
import signal
import sys
import time

from apptest import Failure, UnixHTTPConnection, World, run, wait_for

HELPER = os.environ["LAUNCHER_ON_TERMINAL"]


def session_of(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[3])          # after state, ppid, pgrp: session


def test_ctrl_c_leaves_the_server():
    world = World("launcher-tty")
    state = os.path.join(world.root, "state")
    env = world.env(XDG_STATE_HOME=state)
    env.pop("G_MESSAGES_DEBUG", None)
    pid, fd = pty.fork()
    if pid == 0:
        os.execve(HELPER, [HELPER], env)
    output = b""
    terminal_open = True

    def read(timeout=0.1):
        nonlocal output, terminal_open
        if terminal_open and select.select([fd], [], [], timeout)[0]:
            try:
                data = os.read(fd, 65536)
                output += data
                if not data:
                    terminal_open = False
            except OSError:           # EIO: no process holds the terminal any more
                terminal_open = False
        return output.decode(errors="replace")

    try:
        wait_for("the launcher's ready line", lambda: "ready " in read())
        server = world.find_server()
        if server is None:
            raise Failure("the launcher started no triage-server:\n" + read())
        if session_of(server) == session_of(pid):
            raise Failure(f"triage-server {server} is in the terminal's session {session_of(pid)}")

        os.write(fd, b"\x03")          # Ctrl+C: the terminal's SIGINT to its foreground job
        end = time.monotonic() + 30
        while True:
            read()
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                break
            if time.monotonic() > end:
                raise Failure("the launcher still runs after Ctrl+C:\n" + read())
        if not os.WIFSIGNALED(status) or os.WTERMSIG(status) != signal.SIGINT:
            raise Failure(f"the launcher ended with wait status {status}, not by SIGINT")

        # The server is still there and answers.
        connection = UnixHTTPConnection(world.socket)
        connection.request("GET", "/healthz")
        reply = connection.getresponse()
        reply.read()
        connection.close()
        if reply.status != 200:
            raise Failure(f"GET /healthz after Ctrl+C answered {reply.status}")
        if world.find_server() != server:
            raise Failure(f"triage-server {server} ended after Ctrl+C")

        # Nothing holds the terminal: the server's log is not in the person's shell.
        wait_for("the terminal to be let go", lambda: (read(), not terminal_open)[1])
        if "healthz" in output.decode(errors="replace"):
            raise Failure("the server's log reached the terminal:\n" + read())
        log = os.path.join(state, "triage", "triage-server.log")

        def logged():
            try:
                with open(log) as f:
                    return "healthz" in f.read()
            except FileNotFoundError:
                return False
        wait_for(f"the request's line in {log}", logged)
    finally:
        try:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass
        os.close(fd)
        world.stop_servers()
        world.cleanup()


if __name__ == "__main__":
    sys.exit(run([("/launcher/ctrl-c-leaves-the-server", test_ctrl_c_leaves_the_server)]))
