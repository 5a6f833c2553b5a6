#!/usr/bin/python3
# test-ask-stdin.py — triage-ask given more on standard input than a request may
# have, through a pipe, as an agent writes it: the whole input is read all the
# same (as --hook does), so the writer learns what was wrong from the exit status
# and the message, not from EPIPE for the rest of its write, which crashes a
# Node.js agent that does not handle the stream's 'error' event and raises
# BrokenPipeError in a Python one. No server is needed: the input is refused
# before anything is sent.
#
# Copyright 2026 The Triage authors
# SPDX-License-Identifier: GPL-3.0-or-later

import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "app"))
from apptest import Failure, die_with_parent, run  # noqa: E402

ASK = os.environ["TRIAGE_ASK"]


def oversized(args, body, status, said):
    with tempfile.TemporaryDirectory(prefix="triage-ask-stdin-") as runtime:
        env = dict(os.environ, XDG_RUNTIME_DIR=runtime)
        proc = subprocess.Popen([ASK, *args], env=env, stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                preexec_fn=die_with_parent)
        try:
            proc.stdin.write(body)
            proc.stdin.close()
        except BrokenPipeError:
            proc.kill()
            proc.wait()
            raise Failure(f"{args}: the writer got EPIPE for the rest of {len(body)} bytes")
        out = proc.stdout.read()
        err = proc.stderr.read()
        if proc.wait(timeout=30) != status or said not in out + err:
            raise Failure(f"{args}: exit {proc.returncode}, {out[:300]!r} {err[:300]!r}")


def test_json():
    oversized(["--json"], b'{"context": {"title": "' + b"x" * (3 << 20) + b'"}}', 2,
              b"more than the 1020 KiB it may have")


def test_aitp():
    oversized(["--aitp"], b'{"x": "' + b"x" * (3 << 20) + b'"}', 2, b"KiB it may have")


def test_afp():
    oversized(["--afp"], b'{"protocol_version": "1.2", "x": "' + b"x" * (3 << 20) + b'"}', 0,
              b"INVALID_REQUEST")


def endless(args, status, said):
    """A writer that never ends (`yes |`, `tail -f |`): read on for a bound, then
    refused all the same, not read from forever."""
    with tempfile.TemporaryDirectory(prefix="triage-ask-stdin-") as runtime:
        env = dict(os.environ, XDG_RUNTIME_DIR=runtime)
        yes = subprocess.Popen(["yes", "x" * 4000], stdout=subprocess.PIPE,
                               preexec_fn=die_with_parent)
        try:
            proc = subprocess.run([ASK, *args], env=env, stdin=yes.stdout, capture_output=True,
                                  timeout=120, preexec_fn=die_with_parent)
        except subprocess.TimeoutExpired:
            raise Failure(f"{args}: still reading an endless input after 120 s")
        finally:
            yes.kill()
            yes.wait()
        if proc.returncode != status or said not in proc.stdout + proc.stderr:
            raise Failure(f"{args}: exit {proc.returncode}, {proc.stdout[:300]!r} "
                          f"{proc.stderr[:300]!r}")


def test_endless():
    endless(["--json"], 2, b"more than the 1020 KiB it may have")
    endless(["--aitp"], 2, b"KiB it may have")
    endless(["--afp"], 0, b"INVALID_REQUEST")
    endless(["--hook", "claude-code"], 0, b"more than the 8192 KiB it may have")


run([
    ("an endless input is refused, not read forever", test_endless),
    ("--json: too much input is read all the same", test_json),
    ("--aitp: too much input is read all the same", test_aitp),
    ("--afp: too much input is read all the same", test_afp),
])
