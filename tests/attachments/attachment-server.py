#!/usr/bin/python3
# attachment-server.py — a small web server for the attachment download tests
#
# Copyright 2026 The Triage authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Serves fixed answers on 127.0.0.1 (a port picked by the system), prints
# "listening on http://127.0.0.1:PORT" once it accepts, appends the path of
# every request to --log FILE, and exits when its standard input closes (the
# test ended, however it ended). It runs out of process so the tests measure
# only the client.
import argparse
import os
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

BIG_SIZE = 200 * 1024


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args):
        pass

    def record(self):
        with open(self.server.log_path, "a") as log:
            log.write(self.path + "\n")

    def body(self, status, content_type, data, reason=None):
        self.send_response(status, reason)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def vanish(self):
        self.wfile.flush()
        self.close_connection = True
        self.connection.shutdown(socket.SHUT_RDWR)

    def redirect(self, status, location):
        self.send_response(status)
        self.send_header("Location", location)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_GET(self):
        self.record()
        path = self.path
        if path == "/hello.txt":
            self.body(200, "text/plain; charset=utf-8", b"hello world")
        elif path == "/notes.txt":
            self.body(200, "text/plain", b"Downloaded notes\n")
        elif path == "/picture.png":
            # declared as a PNG by the attachment, but it is text
            self.body(200, "image/png", b"this is not a picture")
        elif path == "/big":
            self.body(200, "application/octet-stream", b"a" * BIG_SIZE)
        elif path == "/chunked-big":
            # No Content-Length: only counting the streamed bytes can stop it.
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            chunk = b"a" * 4096
            try:
                for _ in range(BIG_SIZE // len(chunk)):
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                self.wfile.write(b"0\r\n\r\n")
            except (BrokenPipeError, ConnectionResetError):
                pass
        elif path == "/vanish":
            # Half of what it declares, then the server is gone.
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", str(BIG_SIZE))
            self.end_headers()
            self.wfile.write(b"a" * (BIG_SIZE // 2))
            self.vanish()
        elif path == "/slow":
            # Never answers; the client gives up first.
            time.sleep(120)
        elif path == "/redirect":
            self.redirect(302, "/hello.txt")
        elif path == "/redirect-file":
            self.redirect(302, "file:///etc/passwd")
        elif path == "/redirect-http":
            self.redirect(302, "http://example.com/hello.txt")
        elif path == "/redirect-loopback":
            # Where a server on the internet would send a victim: this computer.
            self.redirect(302, "http://127.0.0.1:%d/hello.txt" % self.server.server_address[1])
        elif path == "/redirect-localhost":
            self.redirect(302, "http://localhost:%d/hello.txt" % self.server.server_address[1])
        elif path == "/redirect-loop":
            self.redirect(307, "/redirect-loop")
        else:
            self.body(404, "text/html", b"<b>nothing</b>", reason="Secret <b>reason</b>")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--log", required=True)
    args = parser.parse_args()

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    server.log_path = args.log
    open(args.log, "w").close()

    def watch_stdin():
        sys.stdin.buffer.read()
        os._exit(0)

    threading.Thread(target=watch_stdin, daemon=True).start()
    print("listening on http://127.0.0.1:%d" % server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
