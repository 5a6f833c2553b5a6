#!/usr/bin/python3
# test-chaos-app.py — faults injected into the real triage-server and the real
# triage app (--gapplication-service, under tests/fake-notifyd.py
# --private-bus --no-click, whose log records every bubble and which presses
# bubble buttons when asked), with exact outcomes:
#
#   - server killed: SIGKILL and a restart while 4 clients post 1,000 requests
#     and the app is connected. Every request that got a 2xx is in the app's
#     database and acknowledged by it, and its inbox holds exactly the 1,000
#     (the status icon's tooltip, under tests/fake-sni-watcher.py, counts the
#     inbox's requests: one held twice or missing would show); a request whose
#     post failed and was posted again is there once, never twice; no request
#     got two bubbles; the answers given just before the crash, while the
#     server was down and just after it came back each stand as given, and
#     the restarted server's log shows each sent to it once (the one given
#     just before the crash again only if it still waited in the outbox).
#   - app killed: SIGKILL with answers in its outbox and the server down, at a
#     moment chosen at random (once the outbox row of its first, second or
#     third answer is written); started again while the server is still
#     down (its launcher cannot start one), then the server back: every
#     answer reaches the server exactly once — recorded as given, and one
#     request an answer in the server's log (a repeat would be answered 200
#     and leave no other trace) — (20 trials; 100 with TRIAGE_CHAOS_LONG=1).
#   - the app's disk full: its file size limit (RLIMIT_FSIZE, set on the
#     running app with prlimit; SIGXFSZ ignored, so writes fail with EFBIG as
#     on a full disk) drops to 0. An answer given from a bubble cannot be kept
#     and a bubble says so (nothing is sent, the request stays pending); a new
#     request is still shown, with one bubble saying the database cannot be
#     written. With the limit back, a new answer reaches the server; the
#     database passes PRAGMA integrity_check, and the next start keeps the
#     request that arrived meanwhile.
#   - the server's disk full (the same limit on the server) while an answer
#     is given: refused with 503 STORAGE_UNAVAILABLE, it stays in the app's
#     outbox through two tries or more, nothing is reported lost, and with
#     the limit back it reaches the server exactly once.
#
# Copyright 2026 The Triage authors
# SPDX-License-Identifier: GPL-3.0-or-later

import os
import random
import resource
import signal
import sqlite3
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from chaostest import (ACKNOWLEDGED, LONG, ChaosServer, ChaosWorld, Failure,  # noqa: E402
                       Poster, app_rows, log, run, wait_for)
from apptest import FullDiskApp, Notifyd, Tray, skip_without_display  # noqa: E402

skip_without_display()
notifyd = Notifyd()
tray = Tray(notifyd.bus)
TWO_SIMPLE = [{"id": "approve", "label": "Approve", "response_type": "simple"},
              {"id": "deny", "label": "Deny", "response_type": "simple"}]


class Scenario:
    def __init__(self, name):
        self.world = ChaosWorld(name)
        self.server = ChaosServer(self.world, log=True)
        self.app = FullDiskApp(self.world)
        self.mark = len(notifyd.events())   # the bubbles of this scenario come after

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.app.kill()
        self.server.kill()
        self.world.stop_servers()   # one the app started itself
        self.world.cleanup()

    def kill_server(self):
        """SIGKILL to the server, whoever started it (the app starts one of its
        own when its server has been away for a few seconds)."""
        self.server.kill()
        self.world.stop_servers()

    def post_and_see(self, title):
        nid = self.server.post(title, TWO_SIMPLE)
        return nid, self.wait_notify(title)

    def answers_sent(self, since=0):
        """The statuses of the answers the server was sent since the mark
        @since of its log, read once the app is gone (nothing more can be
        sent) and the server stopped (its log complete)."""
        self.app.kill()
        self.server.stop()
        return self.server.requests("POST", "/api/v1/client/respond", since=since)

    def wait_notify(self, part):
        """The bubble for @part; fails at once if the app died meanwhile."""
        def seen():
            if self.app.proc is not None and self.app.proc.poll() is not None:
                raise Failure(f"the app exited with {self.app.proc.returncode}")
            return notifyd.notifies(part)
        return wait_for(f"a notification for {part!r}", seen)[-1]


def not_recorded_notices(s):
    """The notices of answers lost in scenario @s."""
    return [e for e in notifyd.events()[s.mark:]
            if e["event"] == "Notify" and "An answer was not recorded" in e["summary"]]


def assert_answer_stands(server, nid, action):
    """The server holds our answer, and a different one is refused (409): the
    app's stands. That it was sent only once is not seen here: the same
    answer sent again is a retry, answered 200 with nothing changed; the
    server's log counts those (test_app_killed_with_outbox)."""
    got = server.wait_responded(nid)
    if got["response"]["action_id"] != action:
        raise Failure(f"{nid}: the server recorded {got['response']}, not {action}")
    status, _ = server.respond_as_client(nid, "approve" if action == "deny" else "deny")
    if status != 409:
        raise Failure(f"{nid}: a second answer got {status}, not 409")


def test_server_killed_under_load():
    clients, per_client = 4, 250
    with Scenario("server-kill") as s:
        # The server comes back when the test brings it, never by the app's
        # launcher (it finds a "server" that exits at once): what the server
        # that comes back is sent is all in its log.
        s.app = FullDiskApp(s.world, TRIAGE_SERVER="/bin/false")
        s.server.start()
        known = tray.registered()
        s.app.start()
        item = tray.wait_registered(known)
        # Three requests with bubbles, answered around the crash.
        before, bubble_before = s.post_and_see("Answer before the crash?")
        during, bubble_during = s.post_and_see("Answer while the server is down?")
        after, bubble_after = s.post_and_see("Answer after the restart?")
        wait_for("the app to acknowledge the first three",
                 lambda: len(s.server.rows("SELECT id FROM notifications WHERE status = ?",
                                           (ACKNOWLEDGED,))) == 3)

        posters = [Poster(s.world.socket, f"Load {c}", per_client) for c in range(clients)]
        for p in posters:
            p.start()
        total = clients * per_client
        wait_for("a third of the requests to be accepted",
                 lambda: sum(len(p.accepted) for p in posters) >= total // 3, timeout=120)
        notifyd.press(bubble_before["id"], "respond:approve")
        s.kill_server()
        accepted_at_kill = sum(len(p.accepted) for p in posters)
        notifyd.press(bubble_during["id"], "respond:deny")
        wait_for("the answer given offline in the app's outbox",
                 lambda: any(r[0] == during for r in s.app.outbox()))
        # The answer given just before the kill is sent again if its reply
        # did not come before the kill: its row is still in the outbox (the
        # app writes them in turn, so it is there by now if it ever was, and
        # without a server nothing takes it out).
        before_again = any(r[0] == before for r in s.app.outbox())
        mark = s.server.log_size()
        s.server.start()
        notifyd.press(bubble_after["id"], "respond:approve")

        for p in posters:
            p.join(timeout=300)
            if p.is_alive():
                raise Failure("a client did not finish in 300 s")
            if p.error is not None:
                raise p.error
        accepted = [nid for p in posters for nid in p.accepted]
        retried = set().union(*(p.failed_once for p in posters))
        statuses = {}
        for p in posters:
            for k, v in p.statuses.items():
                statuses[k] = statuses.get(k, 0) + v
        log(f"{accepted_at_kill} accepted before the kill; {len(retried)} posts failed and "
            f"were posted again; answers {statuses}")
        if len(accepted) != total or len(set(accepted)) != total:
            raise Failure(f"{len(set(accepted))} distinct requests accepted, not {total}")
        if not retried:
            raise Failure("no post failed: the kill came too late to test anything")

        # The app holds every one: in its database, acknowledged to the server.
        wanted = set(accepted)
        wait_for(f"all {total} requests acknowledged by the app",
                 lambda: len(wanted & {r[0] for r in s.server.rows(
                     "SELECT id FROM notifications WHERE status = ?", (ACKNOWLEDGED,))}) == total,
                 timeout=240)
        # The app acknowledges what it shows; its database is written on the
        # store's own thread, so the rows may follow the acknowledgements.
        in_app = []

        def stored():
            nonlocal in_app
            in_app = [r[0] for r in app_rows(s.world, "SELECT id FROM notifications")]
            return not wanted - set(in_app)
        try:
            wait_for(f"all {total} requests in the app's database", stored, timeout=120)
        except Failure:
            pass
        if len(in_app) != len(set(in_app)):
            raise Failure("a request is in the app's database twice")
        missing = wanted - set(in_app)
        if missing:
            raise Failure(f"{len(missing)} accepted requests not in the app, e.g. {min(missing)}")
        extra = set(in_app) - wanted - {before, during, after}
        if extra:
            raise Failure(f"{len(extra)} requests in the app that nobody posted")
        server_ids = [r[0] for r in s.server.rows("SELECT id FROM notifications")]
        if len(server_ids) != total + 3:
            raise Failure(f"the server holds {len(server_ids)} requests, not {total + 3}")

        # No request bubbled twice (the resync after the reconnect brings them all again).
        titles = [e["summary"] for e in notifyd.events()[s.mark:] if e["event"] == "Notify"]
        doubled = {t for t in titles if titles.count(t) > 1 and t.startswith("Test Bot:")}
        if doubled:
            raise Failure(f"bubbles shown twice: {sorted(doubled)[:5]}")

        # The three answers: each on the server once, the outbox empty, nothing reported lost.
        assert_answer_stands(s.server, before, "approve")
        assert_answer_stands(s.server, during, "deny")
        assert_answer_stands(s.server, after, "approve")
        wait_for("the outbox to empty", lambda: not s.app.outbox())
        if not_recorded_notices(s):
            raise Failure(f"the app reported an answer lost: {not_recorded_notices(s)}")

        # What the person sees: the inbox holds the accepted requests, each
        # once (the three answered are no longer waiting). Its count is the
        # status icon's tooltip.
        want = f"{total} requests waiting"
        try:
            wait_for(f"the tray to say {want!r}",
                     lambda: tray.properties(item)["ToolTip"][3] == want)
        except Failure:
            raise Failure(f"the tray says {tray.properties(item)['ToolTip'][3]!r}, "
                          f"not {want!r}") from None

        # What the server that came back was sent: the answers given while
        # it was down and after it came back once each, the one given just
        # before the kill again only if it was still waiting (200 each; the
        # same answer again would be 200 too), and the test's three
        # different answers (409).
        want = [200] * (2 + before_again) + [409] * 3
        sent = s.answers_sent(since=mark)
        if sorted(sent) != want:
            raise Failure(f"the restarted server was sent the answers {sent}, not {want} (the "
                          f"answer given before the kill {'' if before_again else 'not '}"
                          f"waiting in the outbox)")
        log(f"the restarted server was sent {sent.count(200)} answers (the one given before "
            f"the kill {'again' if before_again else 'not again'})")


def test_app_killed_with_outbox():
    """Each trial: three requests shown, the server killed, one to three of
    them answered at once from their bubbles, the app SIGKILLed at a moment
    chosen at random in that window — once the outbox holds the first,
    second or third of those answers (the others may be being written) —,
    started again while the server is still down, then the server back.
    Every answer the dead app's outbox holds reaches the server exactly
    once: it is recorded as given, and the server's log holds one request
    an answer (a second sending would be taken as a retry, answered 200 and
    recorded nowhere else); the other requests, answered or not, stay
    pending (an answer the app had not written down was never shown as
    sent)."""
    trials = 100 if LONG else 20
    # The seed is logged first, so that a failed run's moments can be had
    # again (TRIAGE_CHAOS_SEED=N); a number either way, as random seeds a
    # string and the number it spells differently.
    seed = int(os.environ.get("TRIAGE_CHAOS_SEED") or time.time_ns())
    log(f"random moments of seed {seed} (TRIAGE_CHAOS_SEED={seed} repeats them)")
    rng = random.Random(seed)
    with Scenario("app-kill") as s:
        # The server stays down until the test brings it back: the app's
        # own launcher finds a "server" that exits at once (it retries,
        # offline, meanwhile).
        s.app = FullDiskApp(s.world, TRIAGE_SERVER="/bin/false")
        s.server.start()
        given = kept = 0
        for trial in range(trials):
            s.app.start()
            asked = [s.post_and_see(f"Trial {trial}.{k}?") for k in range(3)]
            s.kill_server()
            pressed = {}
            for nid, bubble in asked[:rng.randint(1, len(asked))]:
                pressed[nid] = rng.choice(["approve", "deny"])
                notifyd.press(bubble["id"], f"respond:{pressed[nid]}")
            at = rng.randint(1, len(pressed))
            wait_for(f"{at} of the {len(pressed)} answers in the app's outbox",
                     lambda: len({r[0] for r in s.app.outbox()} & set(pressed)) >= at)
            s.app.kill()
            # What it had written down is what it must send, once (read
            # from the dead app's database: an error here fails the trial).
            db = sqlite3.connect(f"file:{s.world.app_db}?mode=ro", uri=True, timeout=10)
            try:
                answers = dict(db.execute("SELECT notification_id, action_id FROM outbox"))
            finally:
                db.close()
            if any(pressed.get(nid) != action for nid, action in answers.items()):
                raise Failure(f"trial {trial}: the outbox holds {answers}, answered {pressed}")
            known = tray.registered()
            s.app.start()
            tray.wait_registered(known)     # up again, the server still down
            mark = s.server.log_size()
            s.server.start()
            for nid, action in answers.items():
                got = s.server.wait_responded(nid)
                if got["response"]["action_id"] != action:
                    raise Failure(f"trial {trial}: {nid} recorded {got['response']}, "
                                  f"answered {action}")
            wait_for("the outbox to empty", lambda: not s.app.outbox())
            sent = s.answers_sent(since=mark)
            if sent != [200] * len(answers):
                raise Failure(f"trial {trial}: {len(answers)} answers in the outbox (the app "
                              f"killed once {at} of {len(pressed)} were), the server was sent "
                              f"{len(sent)} answers: statuses {sent}")
            s.server.start()
            for nid in {nid for nid, _ in asked} - set(answers):
                if s.server.get(nid)["status"] == "responded":
                    raise Failure(f"trial {trial}: {nid} was never answered, yet is responded")
                # Answered elsewhere: the next start's inbox is not fuller.
                s.server.respond_as_client(nid, "deny")
            given += len(pressed)
            kept += len(answers)
        if not_recorded_notices(s):
            raise Failure(f"the app reported an answer lost: {not_recorded_notices(s)}")
        log(f"{trials} trials, {given} answers given, {kept} of them in the outbox when the "
            f"app was killed, each sent to the server once")


def test_app_disk_full():
    with Scenario("app-disk-full") as s:
        s.server.start()
        s.app.start()
        kept, bubble_kept = s.post_and_see("Kept before the disk filled?")
        wait_for("the app to store it", lambda: app_rows(
            s.world, "SELECT id FROM notifications WHERE id = ?", (kept,)))
        # Its history opens after the store, on a worker of its own, and
        # writes its schema the first time: a disk full before that fails it
        # (it is tried again: tests/app/test-app-history-late.c), which is
        # not what this case is about.
        wait_for("the app's history to open", lambda: app_rows(
            s.world, "SELECT value FROM triage_history_meta WHERE key = 'schema'"))
        limit = s.app.fill_disk()

        # An answer that cannot be kept is not sent, and the person is told.
        notifyd.press(bubble_kept["id"], "respond:approve")
        notice = s.wait_notify("An answer was not recorded")
        if "could not be saved" not in notice["body"]:
            raise Failure(f"notice {notice['body']!r}")
        if s.server.get(kept)["status"] == "responded":
            raise Failure("an answer the app could not keep was sent")
        # A new request is shown all the same, and the person is told once
        # that the database cannot be written.
        during, _ = s.post_and_see("Arrived while the disk was full?")
        warned = s.wait_notify("Triage cannot write its database")
        log(f"told: {notice['summary']}: {notice['body']} / {warned['summary']}: {warned['body']}")
        s.server.post("Second while full?", TWO_SIMPLE)
        s.wait_notify("Second while full?")
        if len(notifyd.notifies("Triage cannot write its database")) != 1:
            raise Failure("the database warning was shown more than once")

        # Space is back: answers are kept and sent again.
        s.app.free_disk(limit)
        after, bubble_after = s.post_and_see("After the space came back?")
        notifyd.press(bubble_after["id"], "respond:deny")
        assert_answer_stands(s.server, after, "deny")
        if s.server.get(kept)["status"] == "responded":
            raise Failure("the answer that failed was sent after all")
        s.app.kill()
        db = sqlite3.connect(s.world.app_db, timeout=10)
        try:
            check = db.execute("PRAGMA integrity_check").fetchall()
        finally:
            db.close()
        if check != [("ok",)]:
            raise Failure(f"the app's database: integrity_check {check}")
        # The next start has what arrived while it could not write.
        s.app.start()
        wait_for("the request from the full-disk time stored", lambda: app_rows(
            s.world, "SELECT id FROM notifications WHERE id = ?", (during,)))
        if s.server.get(kept)["status"] == "responded":
            raise Failure("the answer that failed was sent after the restart")
        # The server was sent one answer (and the test's different one, 409):
        # the one it could not keep never, the other once.
        sent = s.answers_sent()
        if sorted(sent) != [200, 409]:
            raise Failure(f"the server was sent the answers {sent}, not one 200 (and the "
                          f"test's 409)")


def test_server_disk_full_under_app():
    """The server's disk full while the person answers: the app is refused
    (503 STORAGE_UNAVAILABLE), keeps the answer in its outbox and tries again,
    reports nothing lost, and the answer reaches the server once, when space
    is back."""
    with Scenario("server-disk-full") as s:
        # A write over the limit fails (EFBIG) instead of killing the server,
        # and its warning that a commit failed must not abort it.
        s.server = ChaosServer(s.world, preexec=lambda: signal.signal(signal.SIGXFSZ, signal.SIG_IGN),
                               env={"G_DEBUG": None}, log=True)
        s.server.start()
        s.app.start()
        nid, bubble = s.post_and_see("Answered while the server's disk is full?")
        wait_for("the app to acknowledge it", lambda: s.server.rows(
            "SELECT id FROM notifications WHERE id = ? AND status = ?", (nid, ACKNOWLEDGED)))
        limit = resource.prlimit(s.server.proc.pid, resource.RLIMIT_FSIZE)
        resource.prlimit(s.server.proc.pid, resource.RLIMIT_FSIZE, (0, limit[1]))

        notifyd.press(bubble["id"], "respond:deny")
        # Refused at least twice (the first try and a retry), kept meanwhile;
        # an answer given up on is reported at once (the app says so).
        def refused_and_kept():
            if not_recorded_notices(s):
                raise Failure(f"the app gave up an answer the server refused for now: "
                              f"{not_recorded_notices(s)}")
            return [r for r in app_rows(s.world, "SELECT attempts, last_error, state FROM outbox"
                                        " WHERE notification_id = ?", (nid,)) if r[0] >= 2]
        rows = wait_for("the answer refused and kept in the outbox", refused_and_kept)
        if s.server.get(nid)["status"] == "responded":
            raise Failure("the server recorded an answer it could not store")
        log(f"the app's outbox: {rows[0][0]} attempts, state {rows[0][2]}, last error "
            f"{rows[0][1]!r}")

        # Space is back: the next retry (at most 60 s away) goes through.
        resource.prlimit(s.server.proc.pid, resource.RLIMIT_FSIZE, limit)
        assert_answer_stands(s.server, nid, "deny")
        wait_for("the outbox to empty", lambda: not s.app.outbox())
        if not_recorded_notices(s):
            raise Failure(f"the app reported an answer lost: {not_recorded_notices(s)}")
        # What the server was sent: the answer refused (503) on each try
        # while its disk was full, then taken once (200); and the test's
        # different answer (409).
        sent = s.answers_sent()
        if sent.count(200) != 1 or sent.count(409) != 1 or sent.count(503) < 2 or \
                len(sent) != sent.count(503) + 2:
            raise Failure(f"the server was sent the answers {sent}: not 503s, one 200 (and "
                          f"the test's 409)")
        log(f"the server was sent the answer {len(sent) - 1} times: "
            f"{[status for status in sent if status != 409]}")


run([
    ("the app's disk full: told, nothing sent, nothing corrupted, service once space is back",
     test_app_disk_full),
    ("the server's disk full under the app: the answer waits in the outbox, recorded once later",
     test_server_disk_full_under_app),
    ("server SIGKILLed under 4 posting clients: nothing lost or doubled", test_server_killed_under_load),
    ("app SIGKILLed with answers in its outbox: each reaches the server once",
     test_app_killed_with_outbox),
])
