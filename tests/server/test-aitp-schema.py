#!/usr/bin/python3
# test-aitp-schema.py — every decision a real triage-server hands an AITP agent
# validates against AITP-02's `Decision` schema, checked with Debian's
# python3-jsonschema: each example of seed 003 (tests/atp/data/aitp/) and a
# products request with variants are asked over the wire, answered by the person
# through /api/v1/client/respond, and the decision read back by the agent (GET,
# and the agent's long-poll) is validated, and so is what `triage-ask --aitp`
# prints for each, and what a service's webhook receives (aitp.decision, and
# aitp.status for an end without one). The schema is in tests/app/aitptest.py,
# shared with the tests that answer through the real app.
#
# Copyright 2026 The Triage authors
# SPDX-License-Identifier: GPL-3.0-or-later

import http.server
import json
import os
import queue
import subprocess
import sys
import threading
import uuid

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "app"))
from aitptest import VALIDATOR, load, validate  # noqa: E402
from apptest import Failure, Server, World, die_with_parent, run, wait_for  # noqa: E402

# (request file, what the person answers, what Triage must hand the agent)
CASES = [
    ("seed-003-radio-request.json", {"options": [{"id": "100"}]},
     [{"id": "100", "name": "100"}]),
    ("seed-003-confirmation-request.json", {"options": [{"id": "1"}]},
     [{"id": "1", "name": "Yes, eat the cookies"}]),
    ("seed-003-checkbox-request.json",
     {"options": [{"id": "green"}, {"id": "red", "name": "Red"}]},
     [{"id": "green", "name": "Green"}, {"id": "red", "name": "Red"}]),
    ("seed-003-products-request.json", {"options": [{"id": "product_1"}]},
     [{"id": "product_1", "name": "JBL Tour One M2", "quantity": 1}]),
    ("products-variants.json",
     {"options": [{"id": "jbl-sand", "quantity": 3}, {"id": "sony"}]},
     [{"id": "jbl-sand", "name": "JBL Tour One M2 (Sand)", "quantity": 3},
      {"id": "sony", "name": "Sony WH-1000XM5", "quantity": 1}]),
]


def test_validator_refuses():
    """aitptest.py's schema does refuse what AITP-02 refuses (else the tests prove nothing)."""
    bad = [
        {"decision": {"options": [{"id": "a"}]}},                              # no $schema
        {"$schema": "https://aitp.dev/v1/decisions/schema.json"},              # no decision
        {"$schema": "https://aitp.dev/v1/decisions/schema.json", "decision": {"options": []}},
        {"$schema": "https://aitp.dev/v1/decisions/schema.json",
         "decision": {"options": [{"id": "a", "price": 1}]}},                   # not a SelectedOption
        {"$schema": "https://aitp.dev/v1/decisions/schema.json",
         "decision": {"options": [{"id": "a", "quantity": "1"}]}},
    ]
    for message in bad:
        if VALIDATOR.is_valid(message):
            raise Failure(f"the schema accepts {json.dumps(message)}")
    for name in ("seed-003-radio-decision.json", "seed-003-checkbox-decision.json",
                 "seed-003-products-decision.json", "seed-003-decision-template.json"):
        validate(load(name))


def test_every_decision_validates():
    world = World("aitp-schema")
    server = Server(world).start()
    try:
        for name, answer, expected in CASES:
            request = load(name)
            status, created = server.request("POST", "/api/v1/aitp/decisions", request)
            if status != 201:
                raise Failure(f"POST {name}: {status} {created}")
            decision_id = created["id"]
            status, reply = server.respond_as_client(decision_id, "decision", answer)
            if status != 200:
                raise Failure(f"answering {name}: {status} {reply}")
            status, view = server.request("GET", f"/api/v1/aitp/decisions/{decision_id}?wait=5")
            if status != 200 or view.get("status") != "answered":
                raise Failure(f"GET {name}: {status} {view}")
            message = view["decision"]
            validate(message)
            if message["decision"]["request_decision_id"] != request["request_decision"]["id"]:
                raise Failure(f"{name}: the decision names another request: {message}")
            if message["decision"]["options"] != expected:
                raise Failure(f"{name}: {message['decision']['options']} != {expected}")
    finally:
        server.stop()
        world.stop_servers()
        world.cleanup()


class Receiver:
    """A service's webhook endpoint on loopback: every delivery, in order."""

    def __init__(self):
        deliveries = self.deliveries = queue.Queue()

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                deliveries.put((self.headers.get("X-Triage-Event"), body.decode("utf-8")))
                self.send_response(200)
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def next(self, what):
        try:
            return self.deliveries.get(timeout=30)
        except queue.Empty:
            raise Failure(f"no webhook for {what} within 30 s")

    def stop(self):
        self.server.shutdown()


def test_webhook_decisions_validate():
    """The webhook of an answered decision (aitp.decision) is the decision
    message, valid, and the one the agent's GET holds; a withdrawn decision's
    (aitp.status) carries no decision."""
    world = World("aitp-schema-webhook")
    admin = uuid.uuid4().hex
    token_file = os.path.join(world.root, "admin-token")
    with open(os.open(token_file, os.O_WRONLY | os.O_CREAT, 0o600), "w") as f:
        f.write(admin)
    receiver = Receiver()
    server = Server(world, "--admin-token-file", token_file).start()
    try:
        status, service = server.request("POST", "/api/v1/services",
                                          {"name": "Shop", "callback_url": receiver.url},
                                          headers={"Authorization": f"Bearer {admin}"})
        if status != 201:
            raise Failure(f"registering the service: {status} {service}")
        sid = service["service_id"]
        for name, answer, expected in CASES:
            request = load(name)
            status, created = server.request("POST", "/api/v1/aitp/decisions", request, service=sid)
            if status != 201:
                raise Failure(f"POST {name}: {status} {created}")
            status, reply = server.respond_as_client(created["id"], "decision", answer)
            if status != 200:
                raise Failure(f"answering {name}: {status} {reply}")
            event, body = receiver.next(name)
            if event != "aitp.decision":
                raise Failure(f"{name}: the webhook's event is {event!r}: {body}")
            message = json.loads(body)
            validate(message)
            status, view = server.request("GET", f"/api/v1/aitp/decisions/{created['id']}",
                                          service=sid)
            if status != 200 or view.get("decision") != message:
                raise Failure(f"{name}: the webhook's {body} is not the GET's {view}")
            if message["decision"]["options"] != expected:
                raise Failure(f"{name}: {message['decision']['options']} != {expected}")

        request = load(CASES[0][0])
        request["request_decision"]["id"] = "withdrawn-one"
        status, created = server.request("POST", "/api/v1/aitp/decisions", request, service=sid)
        if status != 201:
            raise Failure(f"POST withdrawn-one: {status} {created}")
        status, reply = server.request("PATCH", f"/api/v1/aitp/decisions/{created['id']}",
                                       {"status": "invalidated", "reason": "not needed"},
                                       service=sid)
        if status != 200:
            raise Failure(f"withdrawing: {status} {reply}")
        event, body = receiver.next("the withdrawal")
        view = json.loads(body)
        if event != "aitp.status" or view.get("status") != "invalidated" or \
                view.get("reason") != "not needed" or "decision" in view or \
                view.get("request_decision_id") != "withdrawn-one":
            raise Failure(f"the withdrawal's webhook: {event} {body}")
    finally:
        server.stop()
        receiver.stop()
        world.stop_servers()
        world.cleanup()


def listed(server, request_decision_id):
    """Triage's id of the pending decision the person's list holds with that
    request_decision.id, or None."""
    status, reply = server.request("GET", "/api/v1/client/notifications?protocols=aitp")
    if status != 200:
        raise Failure(f"the client list: {status} {reply}")
    for item in reply["notifications"]:
        if item.get("aitp", {}).get("request_decision", {}).get("id") == request_decision_id:
            return item["id"]
    return None


def test_triage_ask_decisions_validate():
    """triage-ask --aitp accepts every example, waits, and prints a decision
    message that validates."""
    world = World("aitp-schema-ask")
    server = Server(world).start()
    try:
        for name, answer, expected in CASES:
            request = load(name)
            message_file = os.path.join(world.root, name)
            with open(message_file, "w", encoding="utf-8") as f:
                json.dump(request, f)
            with open(message_file, encoding="utf-8") as stdin:
                ask = subprocess.Popen([os.environ["TRIAGE_ASK"], "--aitp"], env=world.env(),
                                       stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                       text=True, preexec_fn=die_with_parent)
            nid = wait_for(f"{name} asked by triage-ask",
                           lambda: listed(server, request["request_decision"]["id"]))
            status, reply = server.respond_as_client(nid, "decision", answer)
            if status != 200:
                raise Failure(f"answering {name}: {status} {reply}")
            out, err = ask.communicate(timeout=30)
            if ask.returncode != 0 or len(out.splitlines()) != 1:
                raise Failure(f"triage-ask --aitp < {name}: status {ask.returncode}, "
                              f"printed {out!r}, said {err!r}")
            message = json.loads(out)
            validate(message)
            if message["decision"]["request_decision_id"] != request["request_decision"]["id"] or \
                    message["decision"]["options"] != expected:
                raise Failure(f"triage-ask --aitp < {name} printed {out!r}")
    finally:
        server.stop()
        world.stop_servers()
        world.cleanup()


if __name__ == "__main__":
    run([
        ("validator-refuses", test_validator_refuses),
        ("every-decision-validates", test_every_decision_validates),
        ("triage-ask-decisions-validate", test_triage_ask_decisions_validate),
        ("webhook-decisions-validate", test_webhook_decisions_validate),
    ])
