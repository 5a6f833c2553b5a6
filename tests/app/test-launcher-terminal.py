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
import signal
import sys

from apptest import Failure, Terminal, UnixHTTPConnection, World, run, wait_for

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
    terminal = Terminal([HELPER], env)

    try:
        terminal.wait_output("the launcher's ready line", "ready ")
        server = world.find_server()
        if server is None:
            raise Failure("the launcher started no triage-server:\n" + terminal.text())
        if session_of(server) == session_of(terminal.pid):
            raise Failure(f"triage-server {server} is in the terminal's session "
                          f"{session_of(terminal.pid)}")

        os.write(terminal.fd, b"\x03")  # Ctrl+C: the terminal's SIGINT to its foreground job
        status = terminal.wait_exit(timeout=30)
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
        wait_for("the terminal to be let go", lambda: not terminal.read())
        if "healthz" in terminal.text():
            raise Failure("the server's log reached the terminal:\n" + terminal.text())
        log = os.path.join(state, "triage", "triage-server.log")

        def logged():
            try:
                with open(log) as f:
                    return "healthz" in f.read()
            except FileNotFoundError:
                return False
        wait_for(f"the request's line in {log}", logged)
    finally:
        terminal.close()
        world.stop_servers()
        world.cleanup()


if __name__ == "__main__":
    sys.exit(run([("/launcher/ctrl-c-leaves-the-server", test_ctrl_c_leaves_the_server)]))
