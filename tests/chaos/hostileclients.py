#!/usr/bin/python3
# hostileclients.py — the slow and hostile clients of issue 12, shared by the
# chaos test that asserts what the server does under them
# (tests/chaos/test-chaos-server.py) and the benchmark that measures it
# (bench/server/bench-hostile.py): a connection that sent half a request and
# then nothing, a WebSocket peer that never reads, and a flood of requests
# posted by several clients at once while another client's request is timed.
#
# Copyright 2026 The Triage authors
# SPDX-License-Identifier: GPL-3.0-or-later

import base64
import os
import socket
import threading

# The headers and the start of a 5,000-byte body; the rest never comes.
HALF_REQUEST = (b"POST /api/v1/notifications HTTP/1.1\r\nHost: x\r\n"
                b"Content-Type: application/json\r\nContent-Length: 5000\r\n\r\n{\"id\":")

# A flood's requests carry a description of 16 KiB.
FLOOD_TEXT = "x" * 16384

# How many clients post a flood at once.
FLOOD_POSTERS = 6


class HostileError(Exception):
    """A hostile client could not be set up (the server refused it)."""


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p))]


def half_request(port):
    """A connection that sent the headers and half the body of a POST, then
    nothing more."""
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(HALF_REQUEST)
    return s


def never_reading_peer(port, token):
    """A WebSocket to the user's stream that never reads what comes (its
    receive buffer as small as the kernel allows)."""
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall((f"GET /api/v1/client/stream HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
               f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
               f"Sec-WebSocket-Version: 13\r\nAuthorization: Bearer {token}\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = s.recv(1)
        if not chunk:
            raise HostileError("the stream handshake was closed")
        head += chunk
    if not head.startswith(b"HTTP/1.1 101"):
        raise HostileError(f"stream handshake: {head[:80]!r}")
    return s


def flood(post, count, timed):
    """Posts requests 0 … @count - 1 with post(i), FLOOD_POSTERS clients at
    once, and meanwhile calls timed() over and over; returns what timed()
    returned. The first failure of a post is raised once all are done."""
    errors = []

    def poster(first):
        try:
            for i in range(first, count, FLOOD_POSTERS):
                post(i)
        except Exception as e:  # noqa: BLE001 — raised below
            errors.append(e)

    threads = [threading.Thread(target=poster, args=(k,), daemon=True)
               for k in range(FLOOD_POSTERS)]
    for t in threads:
        t.start()
    latencies = []
    while any(t.is_alive() for t in threads):
        latencies.append(timed())
    if errors:
        raise errors[0]
    return latencies
