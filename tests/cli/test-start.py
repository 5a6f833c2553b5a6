#!/usr/bin/python3
# test-start.py — build-aux/start.sh as a person runs it: in a terminal, stopped
# with Ctrl+C. Its local server (START_SERVER_ONLY=1, no display needed) must be
# the very process the terminal started, so Ctrl+C reaches it alone: with
# `meson devenv` in between, Python got the SIGINT too and printed a traceback
# over the server's goodbye. Runs start.sh on a pseudo-terminal of its own, with
# the build dir of this test (named build, as start.sh wants) left as it is.
#
# Copyright 2026 The Triage authors
# SPDX-License-Identifier: GPL-3.0-or-later

import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "app"))
from apptest import Failure, Terminal, run  # noqa: E402

SOURCE_ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
SERVER = os.path.realpath(os.environ["TRIAGE_SERVER"])
BUILD_DIR = os.path.dirname(os.path.dirname(os.path.dirname(SERVER)))


def test_ctrl_c_reaches_the_server_alone():
    root = tempfile.mkdtemp(prefix="triage-start-")
    runtime = os.path.join(root, "runtime")
    os.mkdir(runtime, 0o700)
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "XDG_DATA_DIRS")}
    env.update(HOME=root, XDG_RUNTIME_DIR=runtime, XDG_DATA_HOME=os.path.join(root, "data"),
               XDG_CONFIG_HOME=os.path.join(root, "config"), TERM="dumb",
               START_SKIP_DEPS="1", START_SKIP_BUILD="1", START_SERVER_ONLY="1",
               TRIAGE_BUILD_BASE=os.path.dirname(BUILD_DIR))
    terminal = Terminal(["/bin/bash", "build-aux/start.sh"], env, cwd=SOURCE_ROOT)
    try:
        terminal.wait_output("the local server listening", "listening on")
        socket = os.path.join(runtime, "triage", "triage.sock")
        if socket not in terminal.text() or not os.path.exists(socket):
            raise Failure(f"no server on {socket}; the terminal shows:\n{terminal.text()}")
        # The process the terminal started is the server itself, not a wrapper.
        exe = os.path.realpath(f"/proc/{terminal.pid}/exe")
        if exe != SERVER:
            raise Failure(f"the terminal's process runs {exe}, not {SERVER}")
        os.write(terminal.fd, b"\x03")    # Ctrl+C: SIGINT to the foreground job
        status = terminal.wait_exit()
        text = terminal.text()
        for noise in ("Traceback", "KeyboardInterrupt"):
            if noise in text:
                raise Failure(f"Ctrl+C printed a {noise}:\n{text}")
        if not os.WIFEXITED(status) or os.WEXITSTATUS(status) != 0:
            raise Failure(f"the server ended with wait status {status} after Ctrl+C:\n{text}")
        if os.path.exists(socket):
            raise Failure(f"{socket} is left after the server ended")
    finally:
        terminal.close()
        shutil.rmtree(root, ignore_errors=True)


def main():
    if os.path.basename(BUILD_DIR) != "build":
        print(f"1..0 # SKIP start.sh runs ./build only, and this is {BUILD_DIR}")
        return 0
    return run([("/start/ctrl-c-reaches-the-server-alone", test_ctrl_c_reaches_the_server_alone)])


if __name__ == "__main__":
    sys.exit(main())
