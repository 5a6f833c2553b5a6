#!/usr/bin/python3
# hostile-peer.py — an "ATP server" that answers what a real triage-server never
# would, for the libatp net tests: broken 2xx bodies, proxy errors, oversized
# answers, redirects, silence, and a WebSocket that sends unknown, garbage and
# binary frames around heartbeats (one whose timestamp is no RFC 3339 time) and
# one valid notification. With the token "repeat" its pending list holds that
# notification too, and the WebSocket sends it again and one already settled (a
# server repeating itself); with the token "full" the WebSocket is closed at
# once with 4029 and no error frame; with "busy" its handshake is answered 503
# with a Retry-After of 30 s. With the tokens "paged" and "strict" the pending
# list has a second page, and a page over ATP's 100 is refused ("strict": with
# a code of another server's). A request looked up or answered (POST
# …/respond) meets a 409 of another server's code, a 503 or a 429 with a
# Retry-After, by its id (REFUSALS); the times they came are at /peer/gets and
# /peer/responds.
#
# It runs in its own process (libsoup 3.2's SoupServer leaks accepted sockets,
# which would drown the ASan run of the test in noise). It prints
# "listening on http://127.0.0.1:PORT" once it accepts, and exits when its
# standard input closes.
#
# Copyright 2026 The Triage authors
# SPDX-License-Identifier: GPL-3.0-or-later

import base64
import email.utils
import hashlib
import http.server
import json
import struct
import sys
import threading
import time
import urllib.parse

WS_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
MAX_ANSWER = 2 * 1024 * 1024
received_frames = []   # text frames the client sent over the WebSocket
responds = {}          # notification id -> the times (monotonic) its answers came
gets = {}              # notification id -> the times it was asked for (REFUSALS' ids)
lock = threading.Lock()

NOTIFICATION = {
    "id": "9a8b7c6d-1e2f-4a3b-8c4d-5e6f7a8b9c0d",
    "version": "1.0",
    "timestamp": "2026-05-01T12:00:00Z",
    "service": {"id": "s", "name": "S"},
    "context": {"title": "Peer", "description": "d"},
    "actions": [{"id": "ok", "label": "OK", "response_type": "simple"}],
    "status": "delivered",
}
SETTLED = dict(NOTIFICATION, id="9a8b7c6d-1e2f-4a3b-8c4d-5e6f7a8b9c0e",
               context={"title": "Peer, settled", "description": "d"}, status="responded")


def ws_frame(opcode, payload):
    header = bytes([0x80 | opcode])
    n = len(payload)
    if n < 126:
        header += bytes([n])
    elif n < 65536:
        header += bytes([126]) + struct.pack("!H", n)
    else:
        header += bytes([127]) + struct.pack("!Q", n)
    return header + payload


def ws_read(rfile):
    head = rfile.read(2)
    if len(head) < 2:
        return None, None
    opcode = head[0] & 0x0F
    n = head[1] & 0x7F
    if n == 126:
        n = struct.unpack("!H", rfile.read(2))[0]
    elif n == 127:
        n = struct.unpack("!Q", rfile.read(8))[0]
    mask = rfile.read(4) if head[1] & 0x80 else b"\0\0\0\0"
    data = bytearray(rfile.read(n))
    for i in range(len(data)):
        data[i] ^= mask[i % 4]
    return opcode, bytes(data)


# What another ATP server may answer, to a GET of a notification or an answer
# to it, by the end of its id: (status, body, content type, headers).
REFUSALS = {
    # a conflict of a code libatp does not know
    "-000000000009": lambda: (409, json.dumps({"code": "ALREADY_DECIDED",
                                               "message": "the request is decided",
                                               "request_id": "r9"})),
    # busy: try again in 2 seconds
    "-00000000000a": lambda: (503, json.dumps({"code": "SERVICE_UNAVAILABLE", "message": "busy",
                                               "request_id": "ra"}),
                              "application/json", [("Retry-After", "2")]),
    # busy until 4 seconds from now (an HTTP-date: whole seconds)
    "-00000000000b": lambda: (429, json.dumps({"code": "RATE_LIMIT_EXCEEDED",
                                               "message": "slow down", "request_id": "rb"}),
                              "application/json",
                              [("Retry-After", email.utils.formatdate(time.time() + 4,
                                                                      usegmt=True))]),
    # busy for longer than the app's own wait before it asks again (10 s)
    "-00000000000c": lambda: (503, json.dumps({"code": "SERVICE_UNAVAILABLE", "message": "busy",
                                               "request_id": "rc"}),
                              "application/json", [("Retry-After", "12")]),
    # busy for a day: more than a client waits
    "-00000000000d": lambda: (429, json.dumps({"code": "RATE_LIMIT_EXCEEDED",
                                               "message": "come back tomorrow",
                                               "request_id": "rd"}),
                              "application/json", [("Retry-After", "86400")]),
}


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def answer(self, status, body, content_type="application/json", headers=()):
        data = body.encode() if isinstance(body, str) else body
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Connection", "close")
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)
        self.close_connection = True

    def token(self):
        return self.headers.get("Authorization", "").removeprefix("Bearer ")

    def do_GET(self):
        path = self.path.split("?")[0]
        if path == "/api/v1/client/stream":
            self.websocket()
        elif path == "/api/v1/client/notifications":
            query = urllib.parse.parse_qs(self.path.partition("?")[2])
            limit = int(query.get("limit", ["50"])[0])
            cursor = query.get("cursor", [None])[0]
            if limit > 100:
                # ATP's largest page, and a server before triage-server took 1,000
                # (its older code for the error); with the token "strict", another
                # ATP server's refusal of it (a code of its choice)
                code = "INVALID_REQUEST" if self.token() == "strict" else "INVALID_FIELD_VALUE"
                self.answer(400, json.dumps({"code": code,
                                             "message": "limit must be from 1 to 100",
                                             "details": {"field": "limit"},
                                             "request_id": "r"}))
                return
            if self.token() in ("paged", "strict") and cursor is None:
                # a first page, and more: the next one is asked for over 100
                self.answer(200, json.dumps({"notifications": [NOTIFICATION], "pagination": {
                    "next_cursor": "p2", "has_more": True, "total_count": 2}}))
                return
            items = [NOTIFICATION] if self.token() == "repeat" else []
            self.answer(200, json.dumps({"notifications": items, "pagination": {
                "next_cursor": None, "has_more": False, "total_count": len(items)}}))
        elif path == "/peer/frames":
            with lock:
                self.answer(200, json.dumps(received_frames))
        elif path == "/peer/responds":
            with lock:
                self.answer(200, json.dumps(responds))
        elif path == "/peer/gets":
            with lock:
                self.answer(200, json.dumps(gets))
        elif path.endswith("-000000000001"):
            self.answer(200, '{"id": ')                     # broken JSON
        elif path.endswith("-000000000002"):
            self.answer(200, "[1,2]")                       # JSON, not an object
        elif path.endswith("-000000000003"):
            self.answer(502, "<h1>Bad gateway</h1>", "text/html",
                        [("X-Request-ID", "req-proxy-1")])  # a proxy, no error object
        elif path.endswith("-000000000004"):
            self.answer(200, b" " * (MAX_ANSWER + 1024))    # over the cap
        elif path.endswith("-000000000005"):
            self.send_response(302)
            self.send_header("Location", "https://elsewhere.example/")
            self.send_header("Content-Length", "0")
            self.send_header("Connection", "close")
            self.end_headers()
            self.close_connection = True
        elif path.endswith("-000000000007"):
            # another ATP server's codes, which libatp does not know
            self.answer(401, json.dumps({"code": "TOKEN_EXPIRED", "message": "token expired",
                                         "request_id": "r7"}))
        elif path.endswith("-000000000008"):
            self.answer(400, json.dumps({"code": "VALIDATION_FAILED", "message": "bad id",
                                         "request_id": "r8"}))
        elif path[-13:] in REFUSALS:
            with lock:
                gets.setdefault(path[-36:], []).append(time.monotonic())
            self.answer(*REFUSALS[path[-13:]]())
        elif path.endswith("-000000000006"):
            time.sleep(5)                                   # never answers in time
            self.close_connection = True
        else:
            self.answer(404, '{"code":"NOT_FOUND","message":"no such path","request_id":"r"}')

    def do_POST(self):
        # An answer: 200, or what REFUSALS holds for its id, and a 409 of
        # another server's code to one sent again; GET /peer/responds says
        # when each came.
        length = int(self.headers.get("Content-Length", "0"))
        try:
            nid = json.loads(self.rfile.read(length)).get("notification_id", "")
        except (ValueError, AttributeError):
            nid = ""
        if self.path != "/api/v1/client/respond":
            self.answer(404, '{"code":"NOT_FOUND","message":"no such path","request_id":"r"}')
            return
        with lock:
            times = responds.setdefault(nid, [])
            times.append(time.monotonic())
            attempt = len(times)
        if attempt > 1:
            # sent again: a conflict of a code libatp does not know
            self.answer(*REFUSALS["-000000000009"]())
        elif nid[-13:] in REFUSALS:
            self.answer(*REFUSALS[nid[-13:]]())
        else:
            self.answer(200, "{}")

    def websocket(self):
        if self.token() == "busy":
            # no stream now, and not for the next 30 s
            self.answer(503, json.dumps({"code": "SERVICE_UNAVAILABLE", "message": "draining",
                                         "request_id": "rs"}), headers=[("Retry-After", "30")])
            return

        key = self.headers.get("Sec-WebSocket-Key", "")
        accept = base64.b64encode(hashlib.sha1((key + WS_GUID).encode()).digest()).decode()
        self.send_response(101)
        self.send_header("Upgrade", "websocket")
        self.send_header("Connection", "Upgrade")
        self.send_header("Sec-WebSocket-Accept", accept)
        self.end_headers()
        self.wfile.flush()

        if self.token() == "full":
            self.wfile.write(ws_frame(8, struct.pack("!H", 4029) + b"too many connections"))
            self.wfile.flush()
            ws_read(self.rfile)   # the client's close
            self.close_connection = True
            return

        frames = [
            (1, json.dumps({"type": "x-future", "data": {"a": 1}})),
            (1, json.dumps({"type": "x-future-2"})),
            (1, "not json at all"),
            (1, json.dumps({"type": "notification", "data": {"id": 1}})),
            (2, b"\x00\x01\x02"),
            # another server's clock, which is no RFC 3339 time: acked all the same
            (1, json.dumps({"type": "heartbeat", "data": {"timestamp": "Fri, 01 May 2026 12:00:00 GMT"}})),
            (1, json.dumps({"type": "heartbeat", "data": {"timestamp": "2026-05-01T12:00:00Z"}})),
            (1, json.dumps({"type": "notification", "data": NOTIFICATION})),
        ]
        if self.token() == "repeat":
            frames += [
                (1, json.dumps({"type": "notification", "data": NOTIFICATION})),
                (1, json.dumps({"type": "notification", "data": SETTLED})),
            ]
        for opcode, payload in frames:
            data = payload.encode() if isinstance(payload, str) else payload
            self.wfile.write(ws_frame(opcode, data))
        self.wfile.flush()

        while True:
            opcode, data = ws_read(self.rfile)
            if opcode is None or opcode == 8:
                if opcode == 8:
                    self.wfile.write(ws_frame(8, data[:2]))
                    self.wfile.flush()
                break
            if opcode == 1:
                with lock:
                    received_frames.append(data.decode())
            elif opcode == 9:
                self.wfile.write(ws_frame(10, data))
                self.wfile.flush()
        self.close_connection = True


def main():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print("listening on http://127.0.0.1:%d" % server.server_address[1], flush=True)
    sys.stdin.read()   # until the test closes our standard input
    server.shutdown()


if __name__ == "__main__":
    main()
