#!/usr/bin/python3
# afptest.py — the requester of an Agent Feedback Protocol 1.2 review for the
# tests that drive the real app: `triage-ask --afp` asked for a review (its
# request on standard input) and read to its end.
#
# Copyright 2026 The Triage authors
# SPDX-License-Identifier: GPL-3.0-or-later

import json
import os
import subprocess

from apptest import Failure


def ask(world, request, session=None, title=None):
    """`triage-ask --afp` for @request, waiting for the person's review."""
    args = [os.environ["TRIAGE_ASK"], "--afp", "--service", "writer", "--service-name", "Spec Writer"]
    if session:
        args += ["--session", session]
    if title:
        args += ["--title", title]
    proc = subprocess.Popen(args, env=world.env(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    proc.stdin.write(json.dumps(request))
    proc.stdin.close()
    return proc


def finish(proc):
    """What the requester wrote on standard output, once it ended well."""
    try:
        out = proc.stdout.read()
        err = proc.stderr.read()
        status = proc.wait(timeout=120)
    except subprocess.TimeoutExpired:
        proc.kill()
        raise Failure("triage-ask --afp did not end") from None
    if status != 0:
        raise Failure(f"triage-ask --afp ended with {status}: {err!r}")
    return out
