#!/usr/bin/python3
# test-aitp-schema.py — every decision a real triage-server hands an AITP agent
# validates against AITP-02's `Decision` schema, checked with Debian's
# python3-jsonschema: each example of seed 003 (tests/atp/data/aitp/) and a
# products request with variants are asked over the wire, answered by the person
# through /api/v1/client/respond, and the decision read back by the agent (GET,
# and the agent's long-poll) is validated.
#
# Copyright 2026 The Triage authors
# SPDX-License-Identifier: GPL-3.0-or-later

import json
import os
import sys

import jsonschema

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "app"))
from apptest import Failure, Server, World, run  # noqa: E402

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "atp", "data", "aitp")

# AITP-02's `Decision` and `SelectedOption`, written here from their definition
# in nearai/aitp, schemas/capabilities/aitp-02-decisions/v1.0.0/schema.json
# (OpenAPI 3.0 components: the same keywords as JSON Schema draft 4). That
# document is not copied into the project; this is the part a decision must obey.
DECISION_SCHEMA = {
    "$schema": "http://json-schema.org/draft-04/schema#",
    "definitions": {
        "SelectedOption": {
            "type": "object",
            "properties": {
                "id": {"type": "string"},
                "name": {"type": "string"},
                "quantity": {"type": "number"},
            },
            "required": ["id"],
            "additionalProperties": False,
        },
    },
    "type": "object",
    "properties": {
        "$schema": {"type": "string", "format": "uri"},
        "decision": {
            "type": "object",
            "properties": {
                "request_decision_id": {"type": "string"},
                "options": {
                    "type": "array",
                    "items": {"$ref": "#/definitions/SelectedOption"},
                    "minItems": 1,
                },
            },
            "required": ["options"],
            "additionalProperties": True,
        },
    },
    "required": ["$schema", "decision"],
    "additionalProperties": True,
}

VALIDATOR = jsonschema.Draft4Validator(DECISION_SCHEMA, format_checker=jsonschema.FormatChecker())

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
     [{"id": "jbl-sand", "name": "JBL Tour One M2", "quantity": 3},
      {"id": "sony", "name": "Sony WH-1000XM5", "quantity": 1}]),
]


def load(name):
    with open(os.path.join(DATA, name), encoding="utf-8") as f:
        return json.load(f)


def validate(message):
    errors = sorted(VALIDATOR.iter_errors(message), key=str)
    if errors:
        raise Failure(f"{json.dumps(message)} is no AITP-02 Decision: {errors[0].message}")


def test_validator_refuses():
    """The schema above does refuse what AITP-02 refuses (else the test proves nothing)."""
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


if __name__ == "__main__":
    run([
        ("validator-refuses", test_validator_refuses),
        ("every-decision-validates", test_every_decision_validates),
    ])
