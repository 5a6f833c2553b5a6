#!/usr/bin/python3
# webhook-receiver.py — a service's webhook endpoint for the server's webhook
# tests: it records every POST it is sent (path, the ATP headers, the raw body
# and when it arrived) and answers by the path:
#
#   /ok/NAME        200
#   /fail/N/NAME    500 to the first N requests, then 200
#   /hang/NAME      no answer for 8 s to the first request (longer than the
#                   server waits), then 200
#   /redirect/NAME  302 to /ok/NAME-target
#
# GET /requests returns the records as a JSON array of {path, signature,
# request_id, event (X-Triage-Event), content_type, body (base64 of the raw
# bytes), time (unix seconds, a float)}.
#
# It runs in its own process (libsoup 3.2's SoupServer leaks accepted sockets
# under LeakSanitizer), on the port given as its argument (default: a free
# one), prints "listening on http://127.0.0.1:PORT" once it accepts, and exits
# when its standard input closes.
#
# Copyright 2026 The Triage authors
# SPDX-License-Identifier: GPL-3.0-or-later

import base64
import http.server
import json
import sys
import threading
import time

records = []
seen = {}   # path → requests so far
lock = threading.Lock()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def answer(self, status, body=b"", headers=()):
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        if self.path != "/requests":
            self.answer(404)
            return
        with lock:
            body = json.dumps(records).encode()
        self.answer(200, body)

    def do_POST(self):
        arrived = time.time()
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        with lock:
            records.append({
                "path": self.path,
                "signature": self.headers.get("X-ATP-Signature"),
                "request_id": self.headers.get("X-ATP-Request-ID"),
                "event": self.headers.get("X-Triage-Event"),
                "content_type": self.headers.get("Content-Type"),
                "body": base64.b64encode(body).decode(),
                "time": arrived,
            })
            count = seen[self.path] = seen.get(self.path, 0) + 1
        parts = self.path.strip("/").split("/")
        if parts[0] == "fail" and count <= int(parts[1]):
            self.answer(500, b'{"error":"not now"}')
        elif parts[0] == "hang" and count == 1:
            time.sleep(8)
            self.close_connection = True
        elif parts[0] == "redirect":
            self.answer(302, headers=[("Location", "/ok/%s-target" % parts[-1])])
        else:
            self.answer(200, b'{"ok":true}')


def main():
    port = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler)
    server.daemon_threads = True
    server.block_on_close = False   # never wait for a hanging answer to end
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print("listening on http://127.0.0.1:%d" % server.server_address[1], flush=True)
    sys.stdin.read()   # until the test closes our standard input
    server.shutdown()
    server.server_close()


if __name__ == "__main__":
    main()
