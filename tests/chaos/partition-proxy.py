#!/usr/bin/python3
# partition-proxy.py — a TCP proxy between a client and a server that breaks
# the network on command, for tests/chaos/test-chaos-partition.c and
# test-chaos-app-partition.py (and, as a misrouting proxy, for
# tests/app/test-outbox-wait.c).
#
#   partition-proxy.py UPSTREAM_PORT
#   partition-proxy.py /PATH/OF/A/UNIX/SOCKET
#
# It listens on 127.0.0.1 (a free port), prints "listening on
# http://127.0.0.1:PORT" once it accepts, forwards every connection to
# 127.0.0.1:UPSTREAM_PORT (or to the Unix socket: a test PostgreSQL that
# listens on no TCP port, tests/server/test-server-pg-stall.c), and reads
# commands, one a line, on its standard input, answering each with
# "ok COMMAND" on standard output once done:
#
#   stall      a partition: no byte goes either way on the open connections,
#              and new connections are accepted but get nothing through (what
#              a dropped route looks like: no FIN, no RST, silence)
#   heal       the partition (or refuse) ends for new connections (the stalled ones stay
#              dead, as a real peer would have given up on them)
#   stall-until-new
#              a stall of the open connections that ends when the client opens
#              a new one (which goes through): the partition lasts until the
#              client gives up on the dead link, however long that takes
#   stall-matching TEXT
#              a stall of the open connections whose first 4 KiB from the
#              client hold TEXT alone (a PostgreSQL startup packet names its
#              application: one connection of a server whose backend hangs)
#   refuse     new connections are torn down at once with a RST (a route
#              that answers with resets) until heal
#   reset      every open connection is torn down with a RST on both sides
#   answer-404-matching TEXT
#              what a reverse proxy with a wrong route answers: every write of
#              the client that holds TEXT (an HTTP request line, say "POST
#              /api/v1/client/respond") is not passed on but answered with a
#              bare "404 Not Found" HTML page (no ATP error object), and its
#              connection closed, until heal
#   half-close the client's side of every open connection gets a FIN (EOF to
#              the client) while its own writes are still read and dropped
#              (never forwarded: the link is down both ways, the FIN is all
#              the client hears of it; its own FIN is passed on)
#   count      answers "ok count N": the connections open now
#   accepted   answers "ok accepted N": the connections accepted so far
#
# It exits when its standard input closes.
#
# Copyright 2026 The Triage authors
# SPDX-License-Identifier: GPL-3.0-or-later

import asyncio
import socket
import struct
import sys

UPSTREAM = sys.argv[1]


class Link:
    def __init__(self, reader, writer):
        self.client = (reader, writer)
        self.first = b""    # the client's first bytes (up to 4 KiB)
        self.upstream = None
        self.stalled = False
        self.half_closed = False
        self.tasks = []

    def abort(self):
        for _, w in [self.client] + ([self.upstream] if self.upstream else []):
            sock = w.get_extra_info("socket")
            if sock is not None:
                try:
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                except OSError:
                    pass
            w.transport.abort()
        for t in self.tasks:
            t.cancel()


links = set()
partitioned = False
heal_on_new = False
refusing = False
accepted = 0
answer_404 = None   # answer-404-matching's TEXT, as bytes

BARE_404_BODY = b"<html>\r\n<head><title>404 Not Found</title></head>\r\n" \
                b"<body>\r\n<center><h1>404 Not Found</h1></center>\r\n</body>\r\n</html>\r\n"
BARE_404 = b"HTTP/1.1 404 Not Found\r\nContent-Type: text/html\r\n" \
           b"Content-Length: %d\r\nConnection: close\r\n\r\n" % len(BARE_404_BODY) + BARE_404_BODY


async def answer_bare_404(link):
    # Nothing more goes either way on this link: the request is not passed
    # on, the client reads the page, then the end of the connection.
    link.stalled = True
    writer = link.client[1]
    try:
        writer.write(BARE_404)
        await writer.drain()
        writer.close()
    except (ConnectionError, OSError):
        pass
    if link.upstream is not None:
        link.upstream[1].transport.abort()


async def pump(link, reader, writer, to_client):
    try:
        while True:
            data = await reader.read(65536)
            if not data:
                if not link.stalled and not (to_client and link.half_closed):
                    writer.write_eof()
                return
            if not to_client and len(link.first) < 4096:
                link.first += data[:4096 - len(link.first)]
            # Swallowed: the partition eats it. After a half-close the
            # client's writes too: the link is down both ways (what it sends
            # on it, an acknowledgement or an answer, must not reach the
            # server as if it were up), only the FIN told the client.
            if link.stalled or link.half_closed:
                continue
            if not to_client and answer_404 is not None and answer_404 in data:
                await answer_bare_404(link)
                return
            writer.write(data)
            await writer.drain()
    except (ConnectionError, OSError, asyncio.CancelledError):
        pass


async def on_client(reader, writer):
    global accepted, partitioned, heal_on_new
    accepted += 1
    if heal_on_new:
        partitioned = heal_on_new = False
    link = Link(reader, writer)
    if refusing:
        link.abort()
        return
    links.add(link)
    link.stalled = partitioned
    try:
        if UPSTREAM.startswith("/"):
            up_reader, up_writer = await asyncio.open_unix_connection(UPSTREAM)
        else:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", int(UPSTREAM))
    except OSError:
        writer.transport.abort()
        links.discard(link)
        return
    link.upstream = (up_reader, up_writer)
    link.tasks = [asyncio.ensure_future(pump(link, reader, up_writer, False)),
                  asyncio.ensure_future(pump(link, up_reader, writer, True))]
    await asyncio.gather(*link.tasks, return_exceptions=True)
    for w in (writer, up_writer):
        if not link.stalled:
            w.close()
    links.discard(link)


async def commands():
    global partitioned, heal_on_new, refusing, answer_404
    loop = asyncio.get_running_loop()
    while True:
        line = await loop.run_in_executor(None, sys.stdin.readline)
        if not line:
            return
        command = line.strip()
        if command in ("stall", "stall-until-new"):
            partitioned = True
            heal_on_new = command == "stall-until-new"
            for link in links:
                link.stalled = True
        elif command.startswith("stall-matching "):
            text = command[len("stall-matching "):].encode()
            for link in links:
                if text in link.first:
                    link.stalled = True
        elif command.startswith("answer-404-matching "):
            answer_404 = command[len("answer-404-matching "):].encode()
        elif command == "heal":
            partitioned = heal_on_new = refusing = False
            answer_404 = None
        elif command == "refuse":
            refusing = True
        elif command == "reset":
            for link in list(links):
                link.abort()
                links.discard(link)
        elif command == "half-close":
            for link in links:
                link.half_closed = True
                try:
                    link.client[1].write_eof()
                except OSError:
                    pass
        elif command == "count":
            command = f"count {len(links)}"
        elif command == "accepted":
            command = f"accepted {accepted}"
        print(f"ok {command}", flush=True)


async def main():
    server = await asyncio.start_server(on_client, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    print(f"listening on http://127.0.0.1:{port}", flush=True)
    await commands()
    for link in list(links):
        link.abort()
    server.close()


asyncio.run(main())
