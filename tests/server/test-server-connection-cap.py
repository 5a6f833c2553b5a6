#!/usr/bin/python3
# test-server-connection-cap.py — a peer that opens connections and sends
# nothing, or a line of a request: each new connection of an address past
# --limit connections=N is closed at once (the others are served, the
# address's kept-alive connections too), and a request's headers have a
# deadline much shorter than --request-timeout, while a slow body keeps it.
#
# Over loopback only connections whose request's headers are awaited count
# (a TLS proxy in front holds a whole team's streams from one address); the
# whole cap needs a peer that is not loopback: this host's own address on its
# outgoing interface, so the server listens on 0.0.0.0 with TLS; without such
# an address that part is skipped.
#
# Copyright 2026 The Triage authors
# SPDX-License-Identifier: GPL-3.0-or-later

import os
import select
import shutil
import socket
import ssl
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
CERT = os.path.join(HERE, "tls", "cert.pem")
KEY = os.path.join(HERE, "tls", "key.pem")
WAIT = float(os.environ.get("APPTEST_WAIT", "60"))
checks = 0


def ok(condition, what):
    global checks
    checks += 1
    print(f"{'ok' if condition else 'not ok'} {checks} {what}", flush=True)
    if not condition:
        raise SystemExit(1)


def log(text):
    print(f"# {text}", flush=True)


def outgoing_address():
    """This host's address on its outgoing interface, or None (only
    loopback). Connecting a UDP socket sends nothing."""
    for probe in ("192.0.2.1", "198.51.100.1", "203.0.113.1", "10.255.255.1"):
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        try:
            s.connect((probe, 9))
            address = s.getsockname()[0]
        except OSError:
            continue
        finally:
            s.close()
        if not address.startswith("127."):
            return address
    return None


class Server:
    def __init__(self, folder, name, *args):
        self.proc = subprocess.Popen(
            [os.environ["TRIAGE_SERVER"], "--database", os.path.join(folder, name + ".db"),
             "--print-address", *args],
            stdout=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True)
        line = self.proc.stdout.readline().strip()
        ok(line.startswith("listening on "), f"{name}: {line}")
        self.port = int(line.rsplit(":", 1)[1])

    def stop(self):
        self.proc.terminate()
        self.proc.wait(timeout=60)


def closed_by_server(s, seconds):
    """Whether the server closed @s (end of stream or reset) within @seconds."""
    readable, _, _ = select.select([s], [], [], seconds)
    if not readable:
        return False
    try:
        return s.recv(4096) == b""
    except ConnectionResetError:
        return True


def still_open(s):
    readable, _, _ = select.select([s], [], [], 0)
    return not readable


def read_status(sock):
    """Reads one whole answer from @sock (its headers, then as much body as
    they announce: a kept-alive connection's next answer must not begin with
    the rest of this one); returns its status."""
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(4096)
        if not chunk:
            raise ConnectionError("closed before the answer")
        head += chunk
    headers, _, body = head.partition(b"\r\n\r\n")
    length = 0
    for line in headers.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value)
    while len(body) < length:
        body += sock.recv(4096)
    return int(headers.split(b" ", 2)[1])


def https_get(context, address, port, path, sock=None, source=None):
    """GET @path over TLS (a new connection, or @sock kept alive); returns
    (status, the TLS socket)."""
    if sock is None:
        raw = socket.create_connection((address, port), timeout=WAIT,
                                       source_address=(source, 0) if source else None)
        sock = context.wrap_socket(raw, server_hostname="localhost")
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: localhost\r\n\r\n".encode())
    return read_status(sock), sock


def test_header_deadline(folder):
    """The security review's connection (a request line, then nothing) and
    a silent one are closed after the headers' deadline, not --request-timeout
    (300 s); a slow body and a kept-alive connection are not."""
    server = Server(folder, "headers", "--listen", "127.0.0.1:0")
    held = []
    try:
        kept = socket.create_connection(("127.0.0.1", server.port), timeout=WAIT)
        kept.sendall(b"GET /readyz HTTP/1.1\r\nHost: x\r\n\r\n")
        ok(read_status(kept) == 200, "a kept-alive connection's first request")
        slow_body = socket.create_connection(("127.0.0.1", server.port))
        slow_body.sendall(b"POST /api/v1/notifications HTTP/1.1\r\nHost: x\r\n"
                          b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"id\":")
        began = time.monotonic()
        line_only = socket.create_connection(("127.0.0.1", server.port))
        line_only.sendall(b"GET / HTTP/1.1\r\n")
        silent = socket.create_connection(("127.0.0.1", server.port))
        held += [kept, slow_body, line_only, silent]
        ok(closed_by_server(line_only, WAIT),
           f"a request line and then nothing: closed within {WAIT:.0f} s (--request-timeout 300)")
        ok(closed_by_server(silent, WAIT), "a connection that sends nothing: closed too")
        log(f"both closed {time.monotonic() - began:.1f} s after they were opened")
        ok(still_open(slow_body), "a slow body, begun before them, is still being waited for")
        kept.sendall(b"GET /readyz HTTP/1.1\r\nHost: x\r\n\r\n")
        ok(read_status(kept) == 200,
           "the kept-alive connection, idle meanwhile, answers its next request")
    finally:
        for s in held:
            s.close()
        server.stop()


def http_get(sock, path):
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    return read_status(sock)


def test_loopback_cap():
    """Over loopback (the machine's users, or a TLS proxy for a whole team)
    only connections whose request's headers are awaited count: the review's
    peer (a request line, then nothing) is capped, the address's kept-alive
    connections are not."""
    cap, extra, kept_count = 8, 12, 20
    folder = tempfile.mkdtemp(prefix="triage-test-connection-cap-lo-")
    server = Server(folder, "loopback", "--listen", "127.0.0.1:0", "--limit", f"connections={cap}")
    kept, held, refused = [], [], []
    try:
        def connect(source):
            return socket.create_connection(("127.0.0.1", server.port), timeout=WAIT,
                                            source_address=(source, 0))
        for _ in range(kept_count):
            kept.append(connect("127.0.0.2"))
            ok(http_get(kept[-1], "/readyz") == 200, f"127.0.0.2's kept-alive connection {len(kept)}")
        for _ in range(cap):
            held.append(connect("127.0.0.2"))
            held[-1].sendall(b"GET / HTTP/1.1\r\n")
        began = time.monotonic()
        for _ in range(extra):
            refused.append(connect("127.0.0.2"))
            try:
                refused[-1].sendall(b"GET / HTTP/1.1\r\n")
            except OSError:
                pass
        closed = sum(closed_by_server(s, WAIT) for s in refused)
        ok(closed == extra, f"{closed} of {extra} request lines past the cap closed by the server")
        log(f"closed {time.monotonic() - began:.2f} s after the first was opened")
        ok(all(still_open(s) for s in held), f"the {cap} under the cap are still waited for")
        s = connect("127.0.0.1")
        ok(http_get(s, "/readyz") == 200, "another address (127.0.0.1) is answered")
        s.close()
        ok(all(http_get(s, "/readyz") == 200 for s in kept),
           f"127.0.0.2's {kept_count} kept-alive connections answer their next request")
    finally:
        for s in kept + held + refused:
            s.close()
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)


def test_cap(folder, address):
    cap, extra = 16, 40
    server = Server(folder, "cap", "--listen", "0.0.0.0:0", "--tls-certificate", CERT,
                    "--tls-key", KEY, "--limit", f"connections={cap}")
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    held, refused = [], []
    try:
        # The address's own clients: kept-alive connections, each used once.
        for i in range(cap):
            status, s = https_get(context, address, server.port, "/readyz")
            held.append(s)
            ok(status == 200, f"{address}'s connection {i + 1} of {cap}: answered")
        # And then connections that send nothing: each one past the cap is
        # closed at once (the old server held each for --request-timeout).
        began = time.monotonic()
        for _ in range(extra):
            refused.append(socket.create_connection((address, server.port)))
        closed = sum(closed_by_server(s, WAIT) for s in refused)
        ok(closed == extra, f"{closed} of {extra} connections past the cap closed by the server")
        log(f"{extra} connections past the cap closed {time.monotonic() - began:.2f} s "
            "after the first was opened")
        # Everyone else is served, and so are the address's open connections.
        status, s = https_get(context, "127.0.0.1", server.port, "/readyz")
        s.close()
        ok(status == 200, "another client (loopback) is answered")
        ok(all(https_get(context, address, server.port, "/readyz", sock=s)[0] == 200
               for s in held), f"{address}'s {cap} kept-alive connections still answer")
        # One of them closed: the address may open one again.
        held.pop().close()
        deadline = time.monotonic() + WAIT
        while True:
            try:
                status, s = https_get(context, address, server.port, "/readyz")
                held.append(s)
                break
            except (ConnectionError, ssl.SSLError, OSError):
                if time.monotonic() > deadline:
                    status = None
                    break
                time.sleep(0.1)
        ok(status == 200, "once one of its connections is closed, the address opens one again")
        ok(server.proc.poll() is None, "the server is running")
    finally:
        for s in held + refused:
            s.close()
        server.stop()


def main():
    folder = tempfile.mkdtemp(prefix="triage-test-connection-cap-")
    try:
        test_header_deadline(folder)
        test_loopback_cap()
        address = outgoing_address()
        if address is None:
            print("# SKIP the cap: this host has no address but loopback")
        else:
            test_cap(folder, address)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print(f"1..{checks}")


if __name__ == "__main__":
    sys.exit(main())
