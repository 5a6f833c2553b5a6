#!/usr/bin/python3
# aitptest.py — AITP-02 Decisions for the tests that drive a real triage-server
# (and the real app): seed 003's examples (tests/atp/data/aitp/), posting them
# as an agent does, waiting for the agent's view of the decision, and checking
# the decision message against AITP-02's `Decision` with Debian's
# python3-jsonschema.
#
# Copyright 2026 The Triage authors
# SPDX-License-Identifier: GPL-3.0-or-later

import json
import os
import time

import jsonschema

from apptest import Failure

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "atp", "data", "aitp")
SCHEMA_URI = "https://aitp.dev/v1/decisions/schema.json"

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

DECISIONS = "/api/v1/aitp/decisions"


def load(name):
    """An example of tests/atp/data/aitp (seed 003's, comments removed, and ours)."""
    with open(os.path.join(DATA, name), encoding="utf-8") as f:
        return json.load(f)


def validate(message):
    """Fails unless @message is an AITP-02 decision message."""
    errors = sorted(VALIDATOR.iter_errors(message), key=str)
    if errors:
        raise Failure(f"{json.dumps(message)} is no AITP-02 Decision: {errors[0].message}")


def post(server, message, service="tests"):
    """Asks for a decision as an agent does; returns Triage's id of the request."""
    status, created = server.request("POST", DECISIONS, message, service=service)
    if status != 201:
        raise Failure(f"POST {DECISIONS}: {status} {created}")
    return created["id"]


def view(server, decision_id, wait=0, service="tests"):
    """The agent's view of a decision (GET, held up to @wait seconds)."""
    status, reply = server.request("GET", f"{DECISIONS}/{decision_id}?wait={wait}",
                                   service=service)
    if status != 200:
        raise Failure(f"GET {DECISIONS}/{decision_id}: {status} {reply}")
    return reply


def wait_decision(server, decision_id, request, expected=None, timeout=60, service="tests"):
    """Waits (the agent's long-poll) until the decision is answered, checks the
    decision message against the schema, that it answers @request and, when
    given, that its options are @expected; returns the options."""
    end = time.monotonic() + timeout
    while True:
        reply = view(server, decision_id, wait=5, service=service)
        if reply["status"] == "answered":
            break
        if reply["status"] != "pending" or time.monotonic() > end:
            raise Failure(f"decision {decision_id} not answered: {reply}")
    message = reply["decision"]
    validate(message)
    if message["$schema"] != SCHEMA_URI:
        raise Failure(f"the decision's $schema is {message['$schema']!r}")
    if message["decision"].get("request_decision_id") != request["request_decision"]["id"]:
        raise Failure(f"the decision names another request: {message}")
    options = message["decision"]["options"]
    if expected is not None and options != expected:
        raise Failure(f"decided {options}, not {expected}")
    return options
