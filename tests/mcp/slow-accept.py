#!/usr/bin/python3
# slow-accept.py LISTEN UPSTREAM — a server whose accept is slow, in front of a real
# triage-server at UPSTREAM (a Unix socket's path, or HOST:PORT). It takes no
# connection until told to, and says what a client's connection has come to:
#
#   LISTEN a path: a Unix socket. Prints "listening", then "pending" once the first
#   connection has written its whole request, none of which is read (taken from the
#   backlog, where it sat whole, only to look at it).
#   LISTEN "tcp": 127.0.0.1 on a port of its own, its backlog filled at once, so a
#   client's connect stays open (its SYN dropped, sent again later). Prints
#   "listening PORT", then "pending" once a connection is in SYN-SENT to it.
#
# On the line "accept" on standard input it accepts every connection, now and later,
# each relayed to UPSTREAM byte for byte (a request whose client left before its answer
# still answered there), and prints "accepted N" for each, then "closed N" once both
# its ends are done. Ends when standard input closes.
#
# Copyright 2026 The Triage authors
# SPDX-License-Identifier: GPL-3.0-or-later

import os
import select
import socket
import sys
import threading
import time

LOCK = threading.Lock()


def say(line):
    with LOCK:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()


def connect_upstream(upstream):
    if upstream.startswith("/"):
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.connect(upstream)
    else:
        host, port = upstream.rsplit(":", 1)
        sock = socket.create_connection((host, int(port)))
    return sock


def relay(client, upstream_address, count):
    """Relays @client to the server at @upstream_address. A client gone before its
    request was answered (cancelled) does not end it for the server, which gets the
    whole request and answers it, as a server that reads a request before it sees its
    client leave: what the client sent before it left is never lost on the way."""
    upstream = connect_upstream(upstream_address)
    owed = threading.Event()      # a request forwarded has had no answer yet
    client_done = threading.Event()

    def forward():
        try:
            while True:
                data = client.recv(65536)
                if not data:
                    break
                owed.set()
                upstream.sendall(data)
        except OSError:
            pass
        client_done.set()
        if not owed.is_set():
            try:
                upstream.shutdown(socket.SHUT_WR)
            except OSError:
                pass

    there = threading.Thread(target=forward, daemon=True)
    there.start()
    try:
        while True:
            data = upstream.recv(65536)
            if not data:
                break
            owed.clear()
            client.sendall(data)
            if client_done.is_set():
                break
    except OSError:
        pass
    try:
        client.shutdown(socket.SHUT_WR)
    except OSError:
        pass
    there.join()
    client.close()
    upstream.close()
    say(f"closed {count}")


def accept_all(listener, upstream_address, held):
    """Relays @held (a connection taken already, or None), then every other one."""
    count = 0
    while True:
        if held is not None:
            client, held = held, None
        else:
            try:
                client, _ = listener.accept()
            except OSError:
                return
        count += 1
        say(f"accepted {count}")
        threading.Thread(target=relay, args=(client, upstream_address, count),
                         daemon=True).start()


def hold_whole_request(listener):
    """The first connection, once its whole request has come, none of it read: its
    headers and the Content-Length bytes of body after them, peeked at."""
    client, _ = listener.accept()
    while True:
        select.select([client], [], [])
        data = client.recv(1 << 20, socket.MSG_PEEK)
        head, end, body = data.partition(b"\r\n\r\n")
        length = next((int(line.split(b":", 1)[1]) for line in head.split(b"\r\n")
                       if line.lower().startswith(b"content-length:")), 0)
        if not data or (end and len(body) >= length):
            return client
        time.sleep(0.01)   # what is peeked at stays readable: look again in a moment


def syn_sent_to(port):
    """How many connections to 127.0.0.1:@port are still opening (SYN-SENT)."""
    count = 0
    with open("/proc/net/tcp") as table:
        for line in table.read().splitlines()[1:]:
            fields = line.split()
            if fields[2] == f"0100007F:{port:04X}" and fields[3] == "02":
                count += 1
    return count


def listen_tcp():
    """A listener whose backlog one connection of our own fills: the next connects
    stay open. Returns it and that connection."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(0)
    filler = socket.create_connection(listener.getsockname())
    return listener, filler


def main():
    listen, upstream = sys.argv[1], sys.argv[2]
    filler = held = None
    if listen == "tcp":
        listener, filler = listen_tcp()
        port = listener.getsockname()[1]
        say(f"listening {port}")
        # Nothing tells of a SYN dropped but the client's own socket, as the kernel
        # lists it.
        while syn_sent_to(port) == 0:
            time.sleep(0.01)
    else:
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        listener.bind(listen)
        listener.listen(16)
        say("listening")
        held = hold_whole_request(listener)
    say("pending")

    for line in sys.stdin:
        if line.strip() == "accept":
            if filler is not None:
                filler.close()
            threading.Thread(target=accept_all, args=(listener, upstream, held),
                             daemon=True).start()
    listener.close()
    os._exit(0)


main()
