#!/usr/bin/python3
# bench-hostile.py — how fast triage-server answers an ordinary client while
# hostile ones hold it: 1,000 connections that sent half a request and then
# nothing, and a WebSocket peer that never reads while requests of 16 KiB for
# its user pour in (issue 12's "slow and hostile clients"; target: the other
# client answered within 100 ms p99, the server's memory bounded).
#
#   TRIAGE_SERVER=build-bench/src/server/triage-server bench/server/bench-hostile.py
#       [--half N] [--flood N] [--samples N]
#
# Run by bench/server/run.sh. The phases, one after the other on one server
# (SQLite in a temporary folder, synchronous=FULL as shipped), each timing the
# same request — another user's GET /api/v1/client/notifications?limit=1, one
# at a time — so that what costs what can be told apart:
#
#   idle       nothing else going on
#   flood      6 clients post N requests of 16 KiB (300) for a user with no
#              stream: the cost of the posts themselves (each a durable commit)
#   peer       the same flood for a user whose WebSocket peer never reads
#              (receive buffer 4 KiB)
#   half       N connections (1,000) each with the headers and half the body
#              of a POST, then silence (they stay for the rest of the run);
#              timed once the server has taken them all in
#   hostile    the flood to a peer that never reads, on top of the half
#              requests: the chaos test's scenario (tests/chaos)
#
# For each: p50, p99 and max in ms, and the server's CPU time and RSS. The
# machine's load average is printed first: the figures mean little without it.
#
# Copyright 2026 The Triage authors
# SPDX-License-Identifier: GPL-3.0-or-later

import argparse
import http.client
import json
import os
import resource
import secrets
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import uuid

# The hostile clients are those of the chaos test (tests/chaos), which
# asserts what this measures.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "tests", "chaos"))
from hostileclients import FLOOD_TEXT, flood, half_request, never_reading_peer, percentile  # noqa: E402


class Server:
    def __init__(self, root):
        self.token = secrets.token_hex(16)
        token_file = os.path.join(root, "admin-token")
        with open(token_file, "w") as f:
            f.write(self.token)
        env = dict(os.environ, HOME=root, XDG_DATA_HOME=root, XDG_RUNTIME_DIR=root)
        self.proc = subprocess.Popen(
            [os.environ["TRIAGE_SERVER"], "--listen", "127.0.0.1:0",
             "--database", os.path.join(root, "server.db"), "--admin-token-file", token_file,
             "--print-address", "--no-limits", "--heartbeat-interval", "2",
             "--idle-timeout", "600", "--request-timeout", "600"],
            env=env, stdout=subprocess.PIPE, stdin=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            text=True)
        line = self.proc.stdout.readline()
        if "http://127.0.0.1:" not in line:
            sys.exit(f"triage-server did not start (said {line!r})")
        self.port = int(line.strip().rsplit(":", 1)[1].rstrip("/"))
        threading.Thread(target=lambda out: [None for _ in out], args=(self.proc.stdout,),
                         daemon=True).start()

    def request(self, method, path, body=None, token=None):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        headers = {"Authorization": f"Bearer {token or self.token}"}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        conn.request(method, path, body=data, headers=headers)
        reply = conn.getresponse()
        raw = reply.read()
        conn.close()
        if reply.status not in (200, 201):
            sys.exit(f"{method} {path}: {reply.status} {raw[:200]!r}")
        return json.loads(raw) if raw else None

    def post(self, key, title, description="Bench."):
        return self.request("POST", "/api/v1/notifications",
                            {"id": str(uuid.uuid4()),
                             "context": {"title": title, "description": description},
                             "actions": [{"id": "ok", "label": "OK", "response_type": "simple"}]},
                            token=key)

    def stat(self):
        """(CPU seconds, RSS KiB) of the server."""
        with open(f"/proc/{self.proc.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        cpu = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        with open(f"/proc/{self.proc.pid}/status") as f:
            rss = next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))
        return cpu, rss


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--half", type=int, default=1000)
    parser.add_argument("--flood", type=int, default=300)
    parser.add_argument("--samples", type=int, default=300)
    args = parser.parse_args()

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))   # the server inherits it
    root = tempfile.mkdtemp(prefix="bench-hostile-")
    held = []
    server = Server(root)
    try:
        reader = server.request("POST", "/api/v1/admin/users", {"id": "reader"})["token"]
        quiet = server.request("POST", "/api/v1/admin/users", {"id": "quiet"})["token"]
        victim = server.request("POST", "/api/v1/admin/users", {"id": "victim"})["token"]
        keys = {}
        for name, who in (("Reader bot", "reader"), ("Quiet flood", "quiet"),
                          ("Hostile flood", "victim")):
            keys[who] = server.request("POST", "/api/v1/services",
                                       {"name": name, "description": name,
                                        "recipients": [who]})["api_key"]
        server.post(keys["reader"], "For the reader")
        del quiet

        def timed_list():
            began = time.monotonic()
            server.request("GET", "/api/v1/client/notifications?limit=1", token=reader)
            return time.monotonic() - began

        def flood_for(who, count):
            return flood(lambda i: server.post(keys[who], f"Flood {i}", description=FLOOD_TEXT),
                         count, timed_list)

        results = []

        def phase(name, run):
            cpu0, rss0 = server.stat()
            began = time.monotonic()
            latencies = run()
            took = time.monotonic() - began
            cpu1, rss1 = server.stat()
            results.append((name, latencies, cpu1 - cpu0, rss1, took))
            print(f"{name:8} p50 {percentile(latencies, 0.5) * 1000:7.1f} ms  "
                  f"p99 {percentile(latencies, 0.99) * 1000:7.1f} ms  "
                  f"max {max(latencies) * 1000:7.1f} ms  ({len(latencies)} requests in "
                  f"{took:.1f} s; server CPU {cpu1 - cpu0:.2f} s, RSS {rss1 // 1024} MiB)",
                  flush=True)

        load = os.getloadavg()
        print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; {os.cpu_count()} CPUs; "
              f"{args.half} half requests, {args.flood} requests of 16 KiB", flush=True)
        phase("idle", lambda: [timed_list() for _ in range(args.samples)])
        phase("flood", lambda: flood_for("quiet", args.flood))

        def peer():
            s = never_reading_peer(server.port, victim)
            try:
                return flood_for("victim", args.flood)
            finally:
                s.close()

        phase("peer", peer)

        def half():
            began, cpu = time.monotonic(), server.stat()[0]
            for _ in range(args.half):
                held.append(half_request(server.port))
            timed_list()
            print(f"{'':8} ({args.half} half requests sent, and the next request answered, "
                  f"in {time.monotonic() - began:.1f} s; server CPU "
                  f"{server.stat()[0] - cpu:.2f} s)", flush=True)
            return [timed_list() for _ in range(args.samples)]

        phase("half", half)

        def hostile():
            held.append(never_reading_peer(server.port, victim))
            return flood_for("victim", args.flood) + [timed_list() for _ in range(50)]

        phase("hostile", hostile)
        _, rss_end = server.stat()
        load = os.getloadavg()
        print(f"load average after {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; server RSS "
              f"{rss_end // 1024} MiB at the end", flush=True)
    finally:
        for s in held:
            s.close()
        server.proc.kill()
        server.proc.wait()
        shutil.rmtree(root, ignore_errors=True)


main()
