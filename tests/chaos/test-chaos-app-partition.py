#!/usr/bin/python3
# test-chaos-app-partition.py — network partitions between the real triage app
# and a team server: the app (--gapplication-service, remote mode, its user
# token in the keyring) talks to a real triage-server on TCP through
# tests/chaos/partition-proxy.py, under tests/fake-notifyd.py (bubbles) and
# tests/fake-sni-watcher.py (the tray: this test reads the status icon's
# tooltip and menu, which list what is pending, over D-Bus), on the private
# bus of tests/app/with-private-keyring.sh (a keyring of its own).
#
# For each fault — a stall (no byte either way, no FIN, no RST: the app must
# notice the silence), a drop (RST) and a half-close (FIN to the app) — with
# three requests pending in the app, while the link is down one is answered
# elsewhere, one withdrawn by its service and two new ones posted. Once the
# link is back, asserted:
#   - the app noticed the dead link (its stream's log says why) and opened a
#     new connection: a stall by the silence window of the real app (60 s
#     without a frame; the server's heartbeats come every 2 s: noticed 55–80 s
#     after the stall began), a drop or FIN at once (within 15 s, as a lost
#     connection, never by the silence);
#   - what the person sees once it settles: the tray's tooltip and menu list
#     exactly the pending requests — the one kept and the two new ones, each
#     once, none of the two that settled — and no request had two bubbles
#     (a new one has its own, or is counted in "N more requests"); the bubbles of the settled ones no longer offer to answer (withdrawn, or
#     saying what became of them);
#   - the server holds the new requests as acknowledged by the app.
#
# Copyright 2026 The Triage authors
# SPDX-License-Identifier: GPL-3.0-or-later

import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from chaostest import (LONG, ChaosWorld, Failure, TcpServer,  # noqa: E402
                       die_with_parent, log, run, wait_for)
from apptest import Notifyd, RemoteApp, Tray, skip_without_display, store_token  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SILENCE_S = 60    # ATP_STREAM_DEFAULT_SILENCE_TIMEOUT_MS: the app's window
STALL_SLACK_S = 20    # what a loaded machine may add to a stall's detection
AT_ONCE_S = 15        # a drop or FIN: the first backoff (≤ 1 s) and the load
skip_without_display()
notifyd = Notifyd()
tray = Tray(notifyd.bus)


class Proxy:
    """tests/chaos/partition-proxy.py in front of the server."""

    def __init__(self, upstream_port):
        self.proc = subprocess.Popen(["/usr/bin/python3", os.path.join(HERE, "partition-proxy.py"),
                                      str(upstream_port)],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                     preexec_fn=die_with_parent)
        line = self.proc.stdout.readline()
        if not line.startswith("listening on "):
            raise Failure(f"partition-proxy did not start ({line!r})")
        self.url = line.split()[-1]

    def command(self, command):
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()
        answer = self.proc.stdout.readline().strip()
        if not answer.startswith(f"ok {command.split()[0]}"):
            raise Failure(f"partition-proxy: {command!r} answered {answer!r}")
        return answer

    def accepted(self):
        return int(self.command("accepted").split()[-1])

    def stop(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


class Scenario:
    def __init__(self):
        self.world = ChaosWorld("app-partition")
        self.server = TcpServer(self.world)
        self.proxy = None
        self.app = None
        self.item = None
        self.mark = len(notifyd.events())

    def __enter__(self):
        self.server.start()
        self.token = self.server.user("ana")
        self.key = self.server.service("Partitioned bot", ["ana"])
        self.proxy = Proxy(self.server.port)
        store_token(self.proxy.url, self.token)
        known = tray.registered()
        self.app = RemoteApp(self.world, self.proxy.url).start()
        try:
            self.item = tray.wait_registered(known)
        except BaseException as e:
            # __exit__ is not called for a failure here: say what the app said.
            self.__exit__(type(e), e, None)
            raise
        return self

    def __exit__(self, *exc):
        if self.app is not None:
            if exc[0] is not None:
                log("the app's log:\n" + "\n".join(self.app.log_lines()[-40:]))
            self.app.kill()
        if self.proxy is not None:
            self.proxy.stop()
        self.server.kill()
        self.world.cleanup()

    def alive(self):
        if self.app.proc.poll() is not None:
            raise Failure(f"the app exited with {self.app.proc.returncode}")

    def post(self, title):
        return self.server.post(self.key, title)[0]

    def seen(self, titles):
        """Waits until the tray lists exactly @titles (each once) as pending."""
        want = sorted(titles)
        count = len(want)
        tip = (f"{count} request waiting" if count == 1 else f"{count} requests waiting") \
            if count else "No requests waiting"

        def settled():
            self.alive()
            listed = sorted(label for _, label, _ in tray.menu(self.item)
                            if label not in ("_Open Triage", "_Do Not Disturb", "_Preferences",
                                             "_Quit", "No requests waiting"))
            tooltip = tray.properties(self.item)["ToolTip"][3]
            return (listed, tooltip) if listed == want and tooltip == tip else None

        try:
            return wait_for(f"the tray to list {want}", settled, timeout=120)
        except Failure:
            listed = [label for _, label, _ in tray.menu(self.item)]
            raise Failure(f"the tray lists {listed} ({tray.properties(self.item)['ToolTip'][3]!r}),"
                          f" not {want}") from None

    def answerable(self, nid):
        """Whether bubble @nid is on screen with its answer buttons (a request
        settled elsewhere is withdrawn, or says what became of it, no buttons)."""
        last = [e for e in notifyd.events()[self.mark:]
                if e["id"] == nid and e["event"] in ("Notify", "CloseNotification",
                                                     "NotificationClosed")]
        return bool(last) and last[-1]["event"] == "Notify" and \
            any(key.startswith("respond:") for key, _ in last[-1]["actions"])

    def bubbles(self, title):
        return [e for e in notifyd.events()[self.mark:]
                if e["event"] == "Notify" and e["summary"].endswith(title)]


def partition(s, fault, round_no):
    """One fault, with the changes made while the link is down; returns the
    seconds the app took to notice it (to its new connection)."""
    titles = {k: f"{fault} {round_no}: {k}?" for k in ("kept", "stale", "withdrawn", "new 1",
                                                        "new 2")}
    ids = {k: s.post(titles[k]) for k in ("kept", "stale", "withdrawn")}
    s.seen([titles["kept"], titles["stale"], titles["withdrawn"]])
    accepted = s.proxy.accepted()
    lines = len(s.app.log_lines())
    mark = len(notifyd.events())

    began = time.monotonic()
    if fault == "stall":
        # Silence both ways until the app gives up on the link and connects again.
        s.proxy.command("stall-until-new")
    else:
        # New connections are refused (RST) until the link heals.
        s.proxy.command("refuse")
        s.proxy.command("reset" if fault == "drop" else "half-close")

    # While the link is down: answered on another device, withdrawn by its
    # service, and two new requests.
    s.server.respond(s.token, ids["stale"])
    s.server.checked("PATCH", f"/api/v1/notifications/{ids['withdrawn']}",
                     {"status": "invalidated"}, token=s.key)
    ids["new 1"] = s.post(titles["new 1"])
    ids["new 2"] = s.post(titles["new 2"])

    if fault == "stall":
        wait_for("the app to give up on the stalled link and connect again",
                 lambda: s.alive() or s.proxy.accepted() > accepted, timeout=SILENCE_S + 120)
        took = time.monotonic() - began
    else:
        # The app noticed at once, and tries again (refused) while the link is down.
        wait_for("the app to try again while the link is down",
                 lambda: s.alive() or s.proxy.accepted() > accepted, timeout=60)
        took = time.monotonic() - began
        s.proxy.command("heal")
    ended = [line for line in s.app.log_lines()[lines:] if "ended:" in line]
    if not ended:
        raise Failure(f"the app's log says nothing of the lost link: {s.app.log_lines()[lines:]}")
    log(f"{fault}: the app noticed after {took:.1f} s: {ended[0].split('ended: ', 1)[-1]}")
    if fault == "stall":
        if "No message from" not in ended[0]:
            raise Failure(f"a stall noticed as {ended[0]!r}, not by the silence")
        # The last heartbeat came at most 2 s before the stall; the silence
        # timer fires SILENCE_S after it and the retry comes within a second
        # (the first backoff); the rest is the machine's load. A detection
        # after twice the window (a timer re-armed once too often) fails.
        if not SILENCE_S - 5 <= took <= SILENCE_S + STALL_SLACK_S:
            raise Failure(f"a stall noticed after {took:.1f} s (window {SILENCE_S} s)")
    else:
        # A reset or a FIN is seen on the socket at once: not left to the
        # silence timer a minute later.
        if "No message from" in ended[0]:
            raise Failure(f"a {fault} noticed only by the silence: {ended[0]!r}")
        if took > AT_ONCE_S:
            raise Failure(f"a {fault} noticed after {took:.1f} s, not at once")

    # What the person sees once it settles: exactly the pending set.
    s.seen([titles["kept"], titles["new 1"], titles["new 2"]])
    # Each new request has its bubble, or is counted in the one that says how
    # many more wait (the app shows at most 5 bubbles in 10 s).
    wait_for("a bubble for each new request",
             lambda: all(s.bubbles(titles[k]) for k in ("new 1", "new 2")) or
             any("more request" in e["summary"] for e in notifyd.events()[mark:]
                 if e["event"] == "Notify"))
    # The bubbles of the two that settled (when they had one of their own)
    # no longer offer to answer.
    for k in ("stale", "withdrawn"):
        for nid in {e["id"] for e in s.bubbles(titles[k])}:
            wait_for(f"the bubble of {titles[k]!r} to be withdrawn or to say what became of it",
                     lambda nid=nid: not s.answerable(nid))
    for k in titles:
        shown = {e["id"] for e in s.bubbles(titles[k])}
        if len(shown) > 1:
            raise Failure(f"{titles[k]!r} had {len(shown)} bubbles")
    wait_for("the new requests acknowledged by the app",
             lambda: all(s.server.request("GET", f"/api/v1/notifications/{ids[k]}",
                                          token=s.key)[1]["status"] == "acknowledged"
                         for k in ("new 1", "new 2")))

    # Settle the rest (live), for the next round.
    for k in ("kept", "new 1", "new 2"):
        s.server.respond(s.token, ids[k])
    s.seen([])
    return took


def test_partitions():
    rounds = 3 if LONG else 1
    with Scenario() as s:
        first = s.post("Before any fault?")
        s.seen(["Before any fault?"])
        s.server.respond(s.token, first)
        s.seen([])
        for r in range(rounds):
            for fault in ("drop", "half-close", "stall"):
                partition(s, fault, r)


run([
    ("partitions (stall, drop, half-close) between the app and its server: "
     "noticed, reconnected, resynced, nothing stale shown", test_partitions),
])
