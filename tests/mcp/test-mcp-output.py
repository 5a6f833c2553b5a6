#!/usr/bin/python3
# test-mcp-output.py — the real triage-mcp with a client that stops reading its
# standard output for a while (busy, paused): the session goes on (answers read
# from the server, cancellations, questions asked), nothing written is lost or
# reordered, and a client that leaves more than 1 MiB unread is read from no more
# until it reads, so what waits to be written stays bounded.
#
# Copyright 2026 The Triage authors
# SPDX-License-Identifier: GPL-3.0-or-later

import fcntl
import os
import signal
import struct
import sys
import termios
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mcptest import Session  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "app"))
from apptest import Failure, run, wait_for  # noqa: E402


def unread_in(pipe):
    """Bytes waiting in @pipe (either end of it)."""
    return struct.unpack("i", fcntl.ioctl(pipe.fileno(), termios.FIONREAD, b"\0\0\0\0"))[0]


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        return next(int(f.split()[1]) for f in status if f.startswith("VmRSS:"))


def responses(mcp, ids):
    """The responses to @ids, which must come in that order."""
    got = [mcp.reply(id) for id in ids]
    order = [m["id"] for m in mcp.seen if "method" not in m and m.get("id") in set(ids)]
    if order != list(ids):
        raise Failure(f"responses out of order: {order[:10]}… for {list(ids)[:10]}…")
    return got


def test_client_not_reading():
    """With standard output full (about 190 KiB of tools/list answers left unread), a
    write blocked the whole main loop: the next question was never read, a cancellation
    never withdrawn, the person's answer never taken. Now the session goes on, and once
    the client reads it gets every message, in order."""
    with Session("not-reading") as s:
        s.mcp.initialize()
        s.mcp.reading.clear()
        listed = [s.mcp.call("tools/list") for _ in range(20)]
        wait_for("standard output full", lambda: unread_in(s.mcp.proc.stdout) >= 32768)
        asked = s.mcp.tool("ask_human", {"question": "Asked while unread?",
                                         "response_type": "text"}, progress_token="p")
        cancelled = s.mcp.tool("request_approval", {"title": "Cancelled while unread"})
        n = s.wait_pending("Asked while unread?")
        c = s.wait_pending("Cancelled while unread")
        s.mcp.notify("notifications/cancelled", {"requestId": cancelled, "reason": "changed"})
        wait_for("the cancelled question withdrawn", lambda: s.status(c["id"]) == "invalidated")
        s.server.respond_as_client(n["id"], "answer", "yes, unread")
        pinged = s.mcp.call("ping")
        s.mcp.reading.set()
        # In the order they were written; the answer and the ping's reply in
        # either order (the answer reaches triage-mcp when the server's wait
        # ends, which a loaded machine may put after the ping).
        got = responses(s.mcp, listed)
        answer = s.mcp.reply(asked)
        s.mcp.reply(pinged)
        if any(len(r["result"]["tools"]) != 3 for r in got):
            raise Failure("a tools/list answer came back damaged")
        if answer["result"]["structuredContent"]["answer"] != "yes, unread":
            raise Failure(f"the answer: {answer}")
        if any(m.get("id") == cancelled for m in s.mcp.seen):
            raise Failure("a cancelled call was answered")


def test_signal_while_not_read():
    """SIGTERM with standard output full: the signal's handler never ran while a write
    blocked, so the program hung and its question stayed in the inbox. Now the question
    is withdrawn, and what the client leaves unread holds the end for 5 s at most."""
    with Session("signal-not-reading") as s:
        s.mcp.initialize()
        s.mcp.reading.clear()
        for _ in range(20):
            s.mcp.call("tools/list")
        wait_for("standard output full", lambda: unread_in(s.mcp.proc.stdout) >= 32768)
        s.mcp.tool("request_approval", {"title": "Stopped while unread"})
        n = s.wait_pending("Stopped while unread")
        s.mcp.proc.send_signal(signal.SIGTERM)
        if s.mcp.wait_exit() != 0:
            raise Failure(f"exit status {s.mcp.proc.returncode}: {s.mcp.errors()!r}")
        if s.status(n["id"]) != "invalidated":
            raise Failure("the question was not withdrawn")
        if b"did not read the last" not in s.mcp.errors():
            raise Failure(f"standard error: {s.mcp.errors()!r}")


def test_client_leaves_while_unread():
    """Standard input closed while answers wait unread, then the client gone: the write
    that fails ends the session at once (it waited out the 5 s for a client that no
    longer existed, and then crashed)."""
    with Session("leaves-unread") as s:
        s.mcp.initialize()
        s.mcp.reading.clear()
        for _ in range(20):
            s.mcp.call("tools/list")
        wait_for("standard output full", lambda: unread_in(s.mcp.proc.stdout) >= 32768)
        s.mcp.tool("request_approval", {"title": "Left while unread"})
        n = s.wait_pending("Left while unread")
        s.mcp.close_input()
        # Its end seen: the question withdrawn, what is left waits to be written.
        wait_for("the question withdrawn", lambda: s.status(n["id"]) == "invalidated")
        s.mcp.proc.stdout.close()
        # The old code waited out the 5 s, then crashed (SIGSEGV): the status says it,
        # where a bound under 5 s would have been a race on a loaded machine.
        status = s.mcp.wait_exit()
        if status != 0:
            raise Failure(f"exit status {status}: {s.mcp.errors()!r}")


def sanitized(pid):
    """Whether the process runs with AddressSanitizer's runtime."""
    with open(f"/proc/{pid}/maps") as maps:
        return any("libasan" in line for line in maps)


def test_bounded():
    """A client that sends requests and reads none of the answers: past 1 MiB waiting
    to be written, triage-mcp reads no more of its input (the client's writes block, as
    over a socket), rather than keep every answer in memory; once the client reads,
    every request is answered, in order."""
    with Session("bounded") as s:
        s.mcp.initialize()
        rss_before = rss_kib(s.mcp.proc.pid)
        s.mcp.reading.clear()
        # 8 MiB of requests, 19 MiB of answers.
        line = b'{"jsonrpc":"2.0","method":"tools/list","params":{"_meta":{"pad":"%s"}},"id":%d}\n'
        ids = list(range(100000, 102000))
        writer = threading.Thread(
            target=lambda: s.mcp.send_raw(b"".join(line % (b"x" * 4000, i) for i in ids)),
            daemon=True)
        writer.start()
        wait_for("triage-mcp no longer reading its input",
                 lambda: unread_in(s.mcp.proc.stdin) >= 60000 and writer.is_alive())
        grown = rss_kib(s.mcp.proc.pid) - rss_before
        # Unbounded, it would keep the 19 MiB of answers. AddressSanitizer keeps
        # freed memory in quarantine (each request's, here), resident: a looser
        # bound there, still well under what nothing bounded would take.
        bound = 16 * 1024 if sanitized(s.mcp.proc.pid) else 8 * 1024
        print(f"# grew by {grown} KiB (bound {bound} KiB)", flush=True)
        if grown > bound:
            raise Failure(f"triage-mcp grew by {grown} KiB while its client did not read")
        s.mcp.reading.set()
        responses(s.mcp, ids)
        writer.join()


run([
    ("a client not reading holds nothing up", test_client_not_reading),
    ("what waits to be written is bounded", test_bounded),
    ("a signal while the client does not read", test_signal_while_not_read),
    ("the client gone while its answers wait", test_client_leaves_while_unread),
])
