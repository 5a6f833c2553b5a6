#!/usr/bin/python3
# busy-local-server.py — stands in for `triage-server --local` (the app's
# launcher starts it from $TRIAGE_SERVER): it serves on the local socket and
# answers every request 503, as a local server that came up but cannot serve
# yet. It writes its process id to $BUSY_LOCAL_SERVER_PID_FILE, ends with
# SIGTERM, and when the test that started it ends.
#
# Copyright 2026 The Triage authors
# SPDX-License-Identifier: GPL-3.0-or-later

import ctypes
import http.server
import os
import signal
import socketserver
import sys

PR_SET_PDEATHSIG = 1


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        body = b'{"code":"SERVICE_UNAVAILABLE","message":"not serving yet","request_id":"b"}'
        self.send_response(503)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(body)
        self.close_connection = True

    do_POST = do_GET


class Server(socketserver.ThreadingMixIn, socketserver.UnixStreamServer):
    daemon_threads = True


def main():
    ctypes.CDLL(None).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    path = os.path.join(os.environ["XDG_RUNTIME_DIR"], "triage", "triage.sock")
    if "--socket" in sys.argv:
        path = sys.argv[sys.argv.index("--socket") + 1]
    with open(os.environ["BUSY_LOCAL_SERVER_PID_FILE"], "w") as f:
        f.write(str(os.getpid()))
    try:
        os.unlink(path)   # the socket of the server that died
    except FileNotFoundError:
        pass
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    server = Server(path, Handler)
    signal.signal(signal.SIGTERM, lambda *args: sys.exit(0))
    server.serve_forever()


if __name__ == "__main__":
    main()
