#!/usr/bin/python3
# test-metrics.py — triage-server's /metrics: the Prometheus text format as
# promtool (Debian's prometheus package) checks it and prometheus_client
# parses it, refused without the admin token on the API listener, and counters
# that move by exactly what a scripted sequence of requests did.
#
# Copyright 2026 The Triage authors
# SPDX-License-Identifier: GPL-3.0-or-later

import datetime
import http.client
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

try:
    from prometheus_client.parser import text_string_to_metric_families
except ImportError:
    print("1..0 # SKIP python3-prometheus-client is not installed")
    sys.exit(0)

PROMTOOL = shutil.which("promtool")
checks = 0


def ok(condition, what):
    global checks
    checks += 1
    print(f"{'ok' if condition else 'not ok'} {checks} {what}")
    if not condition:
        raise SystemExit(1)


def request(base, method, path, token=None, body=None):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(base + path, data=data, method=method)
    if token:
        req.add_header("Authorization", "Bearer " + token)
    if data is not None:
        req.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=30) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def scrape(url):
    with urllib.request.urlopen(url, timeout=30) as answer:
        ok(answer.headers.get("Content-Type", "").startswith("text/plain; version=0.0.4"),
           "the text format's content type")
        return answer.read().decode()


def samples(text):
    """{(name, frozenset(labels)): value} of every sample."""
    found = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            found[(sample.name, frozenset(sample.labels.items()))] = sample.value
    return found


def value(found, name, **labels):
    return found.get((name, frozenset(labels.items())), 0.0)


def wait_for(what, condition, seconds=30):
    end = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > end:
            ok(False, f"waiting for {what}")
        time.sleep(0.05)


def main():
    server_binary = os.environ["TRIAGE_SERVER"]
    folder = tempfile.mkdtemp(prefix="triage-test-metrics-")
    admin = "adm_" + os.urandom(16).hex()
    env = dict(os.environ, TRIAGE_ADMIN_TOKEN=admin)
    database = os.path.join(folder, "server.db")
    launched = time.time()
    server = subprocess.Popen([server_binary, "--database", database, "--print-address",
                               "--listen", "127.0.0.1:0", "--metrics-listen", "127.0.0.1:0",
                               "--limit", "sends=4"],
                              stdout=subprocess.PIPE, stdin=subprocess.DEVNULL, env=env, text=True)
    try:
        base = server.stdout.readline().strip().removeprefix("listening on ")
        metrics_url = server.stdout.readline().strip().removeprefix("metrics on ")
        ok(base.startswith("http://") and metrics_url.endswith("/metrics"), "both addresses printed")
        run(base, metrics_url, admin)
        check_process(metrics_url, server.pid, launched)
    finally:
        server.terminate()
        server.wait(timeout=60)
        shutil.rmtree(folder, ignore_errors=True)
    print(f"1..{checks}")


def run(base, metrics_url, admin):
    # Refused without the admin token on the API listener.
    status, _ = request(base, "GET", "/metrics")
    ok(status == 401, "/metrics without a token: 401")
    status, user = request(base, "POST", "/api/v1/admin/users", admin, {"id": "alice"})
    ok(status == 201, "a user")
    alice = json.loads(user)["token"]
    status, _ = request(base, "GET", "/metrics", alice)
    ok(status == 403, "/metrics with a user token: 403")
    status, text = request(base, "GET", "/metrics", admin)
    ok(status == 200 and "triage_http_requests_total" in text, "/metrics with the admin token")

    status, service = request(base, "POST", "/api/v1/services", admin,
                              {"name": "deploy-bot", "recipients": ["alice"]})
    ok(status == 201, "a service")
    key = json.loads(service)["api_key"]

    # An event stream, open before anything is posted: each request is pushed once.
    host, port = base.removeprefix("http://").rsplit(":", 1)
    stream = http.client.HTTPConnection(host, int(port), timeout=30)
    stream.request("GET", "/api/v1/client/events?token=" + alice)
    events = stream.getresponse()
    ok(events.status == 200, "an event stream")
    ok(events.readline().startswith(b"event: ping"), "its first ping")

    before = samples(scrape(metrics_url))

    def post(title, deadline=None):
        body = {"context": {"title": title, "description": "D"},
                "actions": [{"id": "ok", "label": "OK", "response_type": "simple"}]}
        if deadline:
            body["deadline"] = deadline
        return request(base, "POST", "/api/v1/notifications", key, body)

    ids = []
    for title in ("answered", "withdrawn", "pending"):
        status, answer = post(title)
        ok(status == 201, f"posted {title}")
        ids.append(json.loads(answer)["notification_id"])
    soon = (datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(seconds=2))
    status, answer = post("expiring", soon.isoformat(timespec="milliseconds").replace("+00:00", "Z"))
    ok(status == 201, "posted expiring")
    expiring = json.loads(answer)["notification_id"]
    status, _ = post("over the limit")
    ok(status == 429, "the fifth post is over --limit sends=4")
    status, _ = request(base, "POST", "/api/v1/client/respond", alice,
                        {"notification_id": ids[0], "action_id": "ok"})
    ok(status == 200, "answered")
    # A long-poll whose client leaves before the request ends: 499, not 500.
    in_flight = "triage_http_requests_in_flight"
    waiting = value(samples(scrape(metrics_url)), in_flight)
    poll = http.client.HTTPConnection(host, int(port), timeout=30)
    poll.request("GET", f"/api/v1/notifications/{ids[1]}?wait=30",
                 headers={"Authorization": "Bearer " + key})
    wait_for("the long-poll to be waiting",
             lambda: value(samples(scrape(metrics_url)), in_flight) == waiting + 1)
    poll.close()
    status, _ = request(base, "PATCH", "/api/v1/notifications/" + ids[1], key,
                        {"status": "invalidated", "reason": "not needed"})
    ok(status == 200, "withdrawn")
    wait_for("the long-poll to end",
             lambda: value(samples(scrape(metrics_url)), in_flight) == waiting)
    for _ in range(2):
        status, _ = request(base, "GET", "/no/such/path")
        ok(status == 404, "an unknown path")

    def expired():
        status, answer = request(base, "GET", "/api/v1/notifications/" + expiring, key)
        return status == 200 and json.loads(answer)["status"] == "expired"
    wait_for("the deadline", expired)

    text = scrape(metrics_url)
    if PROMTOOL:
        check = subprocess.run([PROMTOOL, "check", "metrics"], input=text, capture_output=True,
                               text=True)
        ok(check.returncode == 0, "promtool check metrics: " + (check.stdout + check.stderr).strip())
    else:
        print("# promtool not found (Debian's prometheus package): its check is skipped")
    after = samples(text)

    def delta(name, **labels):
        return value(after, name, **labels) - value(before, name, **labels)

    ok(delta("triage_requests_created_total", protocol="atp") == 4, "4 created")
    ok(delta("triage_requests_answered_total", protocol="atp") == 1, "1 answered")
    ok(delta("triage_requests_invalidated_total", protocol="atp") == 1, "1 withdrawn")
    ok(delta("triage_requests_expired_total", protocol="atp") == 1, "1 expired")
    ok(delta("triage_requests_created_total", protocol="aitp") == 0, "no AITP request")
    ok(value(after, "triage_requests_pending", protocol="atp") == 1, "1 pending now")
    ok(delta("triage_time_to_answer_seconds_count", protocol="atp") == 1, "1 time to answer")
    http_total = "triage_http_requests_total"
    posts = dict(method="POST", route="/api/v1/notifications")
    ok(delta(http_total, status="201", **posts) == 4, "4 POSTs answered 201")
    ok(delta(http_total, status="429", **posts) == 1, "1 POST answered 429")
    ok(delta(http_total, method="POST", route="/api/v1/client/respond", status="200") == 1,
       "1 respond")
    ok(delta(http_total, method="PATCH", route="/api/v1/notifications/{id}", status="200") == 1,
       "1 PATCH, by its route template")
    ok(delta(http_total, method="GET", route="other", status="404") == 2, "2 unknown paths")
    polls = dict(method="GET", route="/api/v1/notifications/{id}")
    ok(delta(http_total, status="500", **polls) == 0,
       "the long-poll its client left is not counted as a 500")
    ok(value(after, http_total, method="GET", route="/metrics", status="401") == 1,
       "1 /metrics refused for no token")
    ok(value(after, http_total, method="GET", route="/metrics", status="403") == 1,
       "1 /metrics refused for a user token")
    ok(not any(name == http_total and dict(labels).get("route", "").count("-") >= 4
               for name, labels in after), "no raw id in a route label")
    ok(delta("triage_http_request_duration_seconds_count", route="/api/v1/notifications") == 5,
       "5 POST durations")
    ok(delta("triage_rate_limit_refusals_total", limit="sends") == 1, "1 refusal over sends")
    ok(value(after, "triage_stream_connections", kind="sse") == 1, "1 event stream open")
    ok(value(after, "triage_stream_connections_opened_total", kind="sse") == 1,
       "1 event stream opened")
    ok(delta("triage_stream_delivery_seconds_count") == 4, "4 deliveries to the stream")
    ok(delta("triage_db_commit_duration_seconds_count") > 0, "commits timed")
    ok(value(after, "triage_webhook_queue_depth") == 0, "no webhook queued")
    ok(value(after, "triage_ready") == 1, "ready")
    stream.close()


def check_process(metrics_url, pid, launched):
    """The standard process metrics, of the server's own process."""
    text = scrape(metrics_url)
    scraped = time.time()
    types = {family.name: family.type for family in text_string_to_metric_families(text)}
    found = samples(text)
    for family, kind in (("process_start_time_seconds", "gauge"),
                         ("process_cpu_seconds", "counter"),
                         ("process_resident_memory_bytes", "gauge"),
                         ("process_virtual_memory_bytes", "gauge"),
                         ("process_open_fds", "gauge"), ("process_max_fds", "gauge")):
        ok(types.get(family) == kind, f"{family}: a {kind} with its HELP and TYPE")
    start = value(found, "process_start_time_seconds")
    # /proc/stat's btime is whole seconds, and the start is counted in ticks
    # from it: a second or so either way of the clock the test read.
    ok(launched - 2 <= start <= scraped + 2,
       f"the start time {start} is when the test started the server ({launched})")
    ok(value(found, "process_cpu_seconds_total") > 0, "CPU time spent")
    ok(value(found, "process_resident_memory_bytes") > 1024 * 1024, "resident memory")
    ok(value(found, "process_virtual_memory_bytes") >= value(found, "process_resident_memory_bytes"),
       "virtual memory at least the resident")
    # Standard input, output and error, the listeners, the database.
    ok(value(found, "process_open_fds") >= 5, "open descriptors")
    with open(f"/proc/{pid}/limits") as limits:
        soft = next(line.split()[3] for line in limits if line.startswith("Max open files"))
    ok(soft == "unlimited" or value(found, "process_max_fds") == int(soft),
       f"the descriptor limit is the server's soft limit ({soft})")


main()
