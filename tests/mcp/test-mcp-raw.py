#!/usr/bin/python3
# test-mcp-raw.py — the real triage-mcp spoken to byte by byte, against a real
# triage-server --local in a private runtime folder; the test plays the person
# through the client REST API. What the SDK client (test-mcp-sdk.mjs) never
# sends: malformed JSON-RPC, unknown methods, calls before initialize, huge
# lines; and what needs exact timing: cancellation, progress, expiry. triage-mcp
# as a process (standard input closing, signals, options, a team server) is
# tested in test-mcp-process.py, MCP 2026-07-28 in test-mcp-modern.py.
#
# Copyright 2026 The Triage authors
# SPDX-License-Identifier: GPL-3.0-or-later

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mcptest import Mcp, Session, expect_error, pending_titled  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "app"))
from apptest import Failure, run, wait_for  # noqa: E402


def test_calls_before_initialize():
    with Session("before-init") as s:
        # -32600, not -32002, which MCP gives to "Resource not found" (2025-06-18 on).
        expect_error(s.mcp.request("tools/list"), -32600, "Server not initialized")
        expect_error(s.mcp.request("tools/call", {"name": "ask_human", "arguments": {}}), -32600,
                     "Server not initialized")
        if s.mcp.request("ping").get("result") != {}:
            raise Failure("ping before initialize is allowed and answers {}")
        # A method this server does not have is "Method not found" before initialize
        # too, not -32600: a client probing for a revision or feature this server
        # lacks (rmcp's Auto mode probing for 2026-07-28 fell back to initialize
        # only on -32601) reads it as "not here".
        expect_error(s.mcp.request("resources/list"), -32601, "resources/list")
        expect_error(s.mcp.request("server/discover"), -32601, "server/discover")
        result = s.mcp.initialize()
        if result["protocolVersion"] != "2025-11-25" or "tools" not in result["capabilities"]:
            raise Failure(f"initialize: {result}")
        names = [t["name"] for t in s.mcp.request("tools/list")["result"]["tools"]]
        if names != ["request_approval", "ask_human", "ask_choice"]:
            raise Failure(f"tools {names}")
        expect_error(s.mcp.request("initialize", {"protocolVersion": "2025-11-25"}), -32600,
                     "already")


def test_version_negotiation():
    for asked, agreed in [("2025-06-18", "2025-06-18"), ("2025-11-25", "2025-11-25"),
                          ("2025-03-26", "2025-03-26"),
                          ("2024-11-05", "2024-11-05"), ("1999-01-01", "2025-11-25")]:
        with Session("version", server=False) as s:
            if s.mcp.initialize(asked)["protocolVersion"] != agreed:
                raise Failure(f"{asked} should give {agreed}")
    with Session("version-missing", server=False) as s:
        expect_error(s.mcp.request("initialize", {"capabilities": {}}), -32602, "protocolVersion")


def test_malformed():
    with Session("malformed", server=False) as s:
        s.mcp.initialize()
        cases = [
            (b"this is not json\n", -32700, None),
            (b'{"jsonrpc": "2.0", "id": 1, "method": "ping"\n', -32700, None),
            (b'\xff\xfe{"broken utf-8": 1}\n', -32700, None),
            (b'[{"jsonrpc": "2.0", "id": 1, "method": "ping"}]\n', -32600, None),
            (b'"a string"\n', -32600, None),
            (b'{"jsonrpc": "1.0", "id": 5, "method": "ping"}\n', -32600, 5),
            (b'{"id": 6, "method": "ping"}\n', -32600, 6),
            (b'{"jsonrpc": "2.0", "id": {"no": 1}, "method": "ping"}\n', -32600, None),
            (b'{"jsonrpc": "2.0", "id": 7}\n', -32600, 7),
            (b'{"jsonrpc": "2.0", "id": 8, "method": 42}\n', -32600, 8),
            (b'{"jsonrpc": "2.0", "id": 9, "method": "tools/list", "params": [1]}\n', -32602, 9),
            # Whole objects that do not parse: the id is there to read, and with id null the
            # call waited for the client's own timeout. JSON.stringify () writes an unpaired
            # surrogate for a string cut in the middle of an emoji; the TypeScript SDK
            # writes the id last.
            (b'{"jsonrpc": "2.0", "id": 10, "method": "tools/call", "params": {"name": '
             b'"ask_human", "arguments": {"question": "Ship it? \\ud83d"}}}\n', -32700, 10),
            (b'{"jsonrpc": "2.0", "method": "tools/call", "params": {"name": "ask_human", '
             b'"arguments": {"x": ' + b"[" * 80 + b"]" * 80 + b'}}, "id": "deep"}\n',
             -32700, "deep"),
            # An integer id past 64 bits is none the scan can read back: id null, not a
            # wrapped number (it was -1, or -2^63), the id of some other call.
            (b'{"jsonrpc": "2.0", "id": 18446744073709551617, "method": "ping"}\n', -32700, None),
            (b'{"jsonrpc": "2.0", "id": 9223372036854775808, "method": "ping"}\n', -32700, None),
        ]
        for data, code, id in cases:
            s.mcp.send_raw(data)
            reply = s.mcp.next()
            if reply.get("id") != id or reply.get("error", {}).get("code") != code:
                raise Failure(f"{data!r}: expected error {code} with id {id}, got {reply}")
        # A fractional id is an id (MCP's RequestId is string | number), answered with the
        # same number: 1.0 stays a fraction. It was -32600 with id null.
        for id in (1.5, 1.0, -0.25):
            s.mcp.send_raw(b'{"jsonrpc": "2.0", "id": %s, "method": "ping"}\n' % repr(id).encode())
            reply = s.mcp.next()
            if reply.get("result") != {} or type(reply.get("id")) is not float or reply["id"] != id:
                raise Failure(f"ping with id {id}: {reply}")
        # A response (nothing waits for one), a blank line and CRLF are taken in stride.
        s.mcp.send_raw(b'{"jsonrpc": "2.0", "id": 99, "result": {}}\n\n')
        s.mcp.send_raw(b'{"jsonrpc": "2.0", "id": "crlf", "method": "ping"}\r\n')
        if s.mcp.next() != {"jsonrpc": "2.0", "id": "crlf", "result": {}}:
            raise Failure("the session did not carry on after malformed input")
        # "params": null is none, as a missing params: the Go SDK's keepalive pinged so
        # (go-sdk#162), and a -32602 to its ping ended the session.
        for method in ("ping", "tools/list"):
            s.mcp.send({"jsonrpc": "2.0", "id": method, "method": method, "params": None})
            reply = s.mcp.reply(method)
            if "result" not in reply:
                raise Failure(f"{method} with params null: {reply}")


def test_batches_of_2025_03_26():
    """MCP 2025-03-26 says a server MUST receive JSON-RPC batches: one array of the
    responses comes back once every request of the batch has one (a call's when the
    person answers), nothing for notifications alone, and a cancelled call is left
    out. A client that spoke only 2025-03-26 used to be answered 2025-11-25 and left."""
    with Session("batch") as s:
        if s.mcp.initialize("2025-03-26")["protocolVersion"] != "2025-03-26":
            raise Failure("2025-03-26 is spoken")
        s.mcp.send([{"jsonrpc": "2.0", "id": "b1", "method": "ping"},
                    {"jsonrpc": "2.0", "method": "notifications/whatever"},
                    {"jsonrpc": "2.0", "id": "b2", "method": "tools/list"},
                    {"jsonrpc": "2.0", "id": "b3", "method": "resources/list"},
                    42])
        reply = s.mcp.next()
        by_id = {m.get("id"): m for m in reply} if isinstance(reply, list) else {}
        if len(reply) != 4 or by_id.get("b1", {}).get("result") != {} or \
                len(by_id.get("b2", {}).get("result", {}).get("tools", [])) != 3 or \
                by_id.get("b3", {}).get("error", {}).get("code") != -32601 or \
                by_id.get(None, {}).get("error", {}).get("code") != -32600:
            raise Failure(f"a batch: {reply}")
        # Notifications alone: nothing comes back.
        s.mcp.send([{"jsonrpc": "2.0", "method": "notifications/whatever"}])
        id = s.mcp.call("ping")
        if s.mcp.next() != {"jsonrpc": "2.0", "id": id, "result": {}}:
            raise Failure("a batch of notifications was answered")
        s.mcp.send([])
        expect_error(s.mcp.next(), -32600, "empty batch")
        # 2025-03-26 lists invalid arguments among protocol errors.
        expect_error(s.mcp.request("tools/call", {"name": "ask_human",
                                                  "arguments": {"question": "No type"}}),
                     -32602, "response_type")
        # A call in a batch: the array waits for the person's answer.
        s.mcp.send([{"jsonrpc": "2.0", "id": "c1", "method": "tools/call",
                     "params": {"name": "request_approval", "arguments": {"title": "Batched"}}},
                    {"jsonrpc": "2.0", "id": "c2", "method": "ping"}])
        n = s.wait_pending("Batched")
        id = s.mcp.call("ping")
        if s.mcp.next() != {"jsonrpc": "2.0", "id": id, "result": {}}:
            raise Failure("the batch was answered before its call")
        s.server.respond_as_client(n["id"], "approve")
        reply = s.mcp.next()
        by_id = {m.get("id"): m for m in reply} if isinstance(reply, list) else {}
        if len(reply) != 2 or by_id.get("c2", {}).get("result") != {} or \
                by_id.get("c1", {}).get("result", {}).get("structuredContent", {}) \
                .get("approved") is not True:
            raise Failure(f"a batch with a call: {reply}")
        # A call of a batch cancelled: the other responses come back without it.
        s.mcp.send([{"jsonrpc": "2.0", "id": "d1", "method": "tools/call",
                     "params": {"name": "request_approval",
                                "arguments": {"title": "Cancel batched"}}},
                    {"jsonrpc": "2.0", "id": "d2", "method": "ping"}])
        n = s.wait_pending("Cancel batched")
        s.mcp.notify("notifications/cancelled", {"requestId": "d1", "reason": "changed mind"})
        reply = s.mcp.next()
        if reply != [{"jsonrpc": "2.0", "id": "d2", "result": {}}]:
            raise Failure(f"a batch whose call was cancelled: {reply}")
        wait_for("the cancelled call's request withdrawn",
                 lambda: s.status(n["id"]) == "invalidated")


def test_first_revision():
    """MCP 2024-11-05, the first revision, which older clients still send: answered
    with 2024-11-05 (they disconnect from any other), and spoken as it was: no tool
    title, annotations or outputSchema, no structuredContent (the text carries the
    JSON), progress without message, serverInfo {name, version}, invalid arguments a
    protocol error, no batches."""
    with Session("first", "--progress-interval", "1", "--retry-for", "1s") as s:
        result = s.mcp.initialize("2024-11-05", name="Old Client")
        if result["protocolVersion"] != "2024-11-05" or \
                set(result["serverInfo"]) != {"name", "version"} or \
                "tools" not in result["capabilities"] or "instructions" not in result:
            raise Failure(f"initialize: {result}")
        tools = s.mcp.request("tools/list")["result"]["tools"]
        if [t["name"] for t in tools] != ["request_approval", "ask_human", "ask_choice"] or \
                any(set(t) != {"name", "description", "inputSchema"} or
                    t["inputSchema"]["type"] != "object" for t in tools):
            raise Failure(f"tools/list: {tools}")
        id = s.mcp.tool("ask_choice", {"question": "Old pick", "options": [
            {"id": "a", "label": "A"}, {"id": "b", "label": "B"}]}, progress_token=7)
        n = s.wait_pending("Old pick")
        if n["service"]["name"] != "Old Client":
            raise Failure(f"service {n['service']}")

        def progress():
            return [m["params"] for m in s.mcp.seen
                    if m.get("method") == "notifications/progress"]
        wait_for("two progress notifications", lambda: len(progress()) >= 2)
        if any(set(p) != {"progressToken", "progress"} for p in progress()):
            raise Failure(f"progress: {progress()}")
        s.server.respond_as_client(n["id"], "choose", "b")
        result = s.mcp.reply(id)["result"]
        if set(result) != {"content"} or \
                json.loads(result["content"][1]["text"])["chosen"] != ["b"] or \
                "chose b" not in result["content"][0]["text"]:
            raise Failure(f"result: {result}")
        # Invalid arguments are a protocol error in 2024-11-05, and nothing is asked.
        error = expect_error(s.mcp.reply(s.mcp.tool("ask_human", {"question": "x"})), -32602,
                             "response_type")
        if error.get("data") != {"field": "response_type"}:
            raise Failure(f"invalid arguments: {error}")
        expect_error(s.mcp.request("tools/call", {"name": "rm_rf", "arguments": {}}), -32602,
                     "Unknown tool")
        # No batches before 2025-03-26.
        s.mcp.send([{"jsonrpc": "2.0", "id": "b1", "method": "ping"}])
        expect_error(s.mcp.next(), -32600, "2024-11-05")
        # A tool execution error is a result with isError, and no structuredContent.
        s.server.stop()
        result = s.mcp.reply(s.mcp.tool("request_approval", {"title": "Nobody home"}),
                             timeout=30)["result"]
        if set(result) != {"content", "isError"} or result["isError"] is not True:
            raise Failure(f"a failed call: {result}")


def test_unknown_methods():
    with Session("unknown", server=False) as s:
        s.mcp.initialize()
        expect_error(s.mcp.request("resources/list"), -32601, "resources/list")
        expect_error(s.mcp.request("tools/teleport", {}), -32601)
        s.mcp.notify("notifications/whatever", {"x": 1})     # ignored, no reply
        s.mcp.notify("notifications/cancelled", {"requestId": 12345})   # nothing to cancel
        id = s.mcp.call("ping")
        reply = s.mcp.next()
        if reply.get("id") != id:
            raise Failure(f"a notification was answered: {reply}")
        expect_error(s.mcp.request("tools/call", {"name": "rm_rf", "arguments": {}}), -32602,
                     "Unknown tool: rm_rf")
        expect_error(s.mcp.request("tools/call", {"arguments": {}}), -32602,
                     "params.name: required")
        # Given, but not a string: not "required".
        expect_error(s.mcp.request("tools/call", {"name": 5, "arguments": {}}), -32602,
                     "params.name: expected a string")
        expect_error(s.mcp.request("tools/call", {"name": "ask_human", "arguments": [1]}),
                     -32602, "arguments")
        # The list is one page: a cursor was never issued, so it is invalid (the spec:
        # SHOULD be -32602), not answered as if there were none. null is none.
        expect_error(s.mcp.request("tools/list", {"cursor": "eyJwYWdlIjoyfQ=="}), -32602,
                     "cursor was not issued")
        expect_error(s.mcp.request("tools/list", {"cursor": 2}), -32602, "cursor must be a string")
        if len(s.mcp.request("tools/list", {"cursor": None})["result"]["tools"]) != 3:
            raise Failure("tools/list with a null cursor")


def test_huge_input():
    with Session("huge") as s:
        s.mcp.initialize()
        # A line past the 4 MiB bound: refused once, skipped to its end, the session goes on.
        s.mcp.send_raw(b'{"jsonrpc": "2.0", "id": 1, "method": "ping", "params": {"x": "' +
                       b"a" * (5 * 1024 * 1024) + b'"}}\n')
        if expect_error(s.mcp.next(), -32600, "longer than") is None or \
                s.mcp.seen[-1].get("id") != 1:
            raise Failure(f"the refusal of a huge line names its id: {s.mcp.seen[-1]}")
        if s.mcp.request("ping").get("result") != {}:
            raise Failure("no ping after the huge line")
        # The refusal answers the request's id wherever it stands, so the client's call
        # ends at once (an error with id null answers nothing it waits for, and the call
        # hung until the client's own timeout): the TypeScript SDK writes the id last,
        # after the arguments that made the line long; braces, brackets, quotes and
        # escapes in those arguments, and an "id" inside them, are not the message's.
        details = ('{[\\"id\\": 666, ]}' * 300000)
        for id in ("call-7", 8):
            s.mcp.send(({"method": "tools/call", "params": {
                "name": "request_approval", "arguments": {"title": "Huge", "details": details,
                                                          "id": 666}}, "jsonrpc": "2.0",
                "id": id}))
            reply = s.mcp.next()
            expect_error(reply, -32600, "longer than")
            if reply["id"] != id:
                raise Failure(f"refusal of a huge tools/call with id {id!r}: {reply}")
        # A notification has no id to answer: null, as before.
        s.mcp.send({"jsonrpc": "2.0", "method": "notifications/whatever",
                    "params": {"x": details}})
        reply = s.mcp.next()
        if reply.get("id", "missing") is not None:
            raise Failure(f"refusal of a huge notification: {reply}")
        # The bound exactly: a message of 4 MiB is read, one byte more is refused alike
        # (its end then comes in the same read as the bytes that cross the bound).
        head = b'{"jsonrpc": "2.0", "id": "edge", "method": "ping", "params": {"x": "'
        for size, code in [(4 * 1024 * 1024, None), (4 * 1024 * 1024 + 1, -32600)]:
            s.mcp.send_raw(head + b"a" * (size - len(head) - 3) + b'"}}\n')
            reply = s.mcp.next()
            if code is None and reply != {"jsonrpc": "2.0", "id": "edge", "result": {}}:
                raise Failure(f"a message of {size} bytes: {reply}")
            if code is not None:
                expect_error(reply, code, "longer than")
        # Within the line bound but too large for a request: a tool error naming details.
        id = s.mcp.tool("request_approval", {"title": "Huge", "details": "x" * (3 * 1024 * 1024)})
        result = s.mcp.reply(id)["result"]
        if not result.get("isError") or "details:" not in result["content"][0]["text"] or \
                "details take 4096 KiB of it" not in result["content"][0]["text"]:
            raise Failure(f"huge details: {result}")
        # Too large because of its options (fewer than the 20,000 a request may hold,
        # with long labels), with no details or a line of them: the message used to
        # blame details, or the arguments as a whole, when the options are what a
        # model must shorten.
        options = [{"id": f"o{i}", "label": f"Option {i} " + "x" * 60} for i in range(19000)]
        for extra in ({}, {"details": "One line of details."}):
            id = s.mcp.tool("ask_choice", {"question": "So many", "multiple": True,
                                           "options": options, **extra})
            text = s.mcp.reply(id)["result"]["content"][0]["text"]
            if "details" in text or "Invalid arguments for tool ask_choice: options: the " \
                    "request would have" not in text or "; options take " not in text:
                raise Failure(f"too large for its options, {extra}: {text}")
        # Deep nesting is refused by the parser, not by a crash.
        s.mcp.send_raw(b"[" * 100000 + b"\n")
        expect_error(s.mcp.next(), -32700)
    # The input ending inside a huge line: refused with its id all the same.
    with Session("huge-eof", server=False) as s:
        s.mcp.initialize()
        s.mcp.send_raw(b'{"jsonrpc": "2.0", "method": "ping", "params": {"x": "' +
                       b"a" * (5 * 1024 * 1024) + b'"}, "id": "last"}')
        s.mcp.close_input()
        reply = s.mcp.next()
        expect_error(reply, -32600, "longer than")
        if reply["id"] != "last" or s.mcp.wait_exit() != 0:
            raise Failure(f"a huge last line: {reply}, exit {s.mcp.proc.returncode}")


def test_service_identity():
    """Each client is a service of its own, named as it names itself: the server keeps
    the name a service was first seen with, so two clients must never share an id by
    accident, and a name travels in a header, where a line break has no place."""
    with Session("identity") as s:
        cases = [({"name": "ok-agent", "title": "Evil\r\nX-Injected: 1"},
                  "mcp-ok-agent", "Evil  X-Injected: 1"),
                 ({"name": "Кодер"}, None, "Кодер"),
                 ({"name": "クロード"}, None, "クロード"),
                 ({"name": "Señor Code"}, "mcp-senor-code", "Señor Code"),
                 ({"name": "Long", "title": "L" + "o" * 300 + "ng"}, "mcp-long",
                  "L" + "o" * 98 + "…")]
        seen = set()
        for i, (info, service_id, name) in enumerate(cases):
            mcp = Mcp(s.world)
            try:
                reply = mcp.request("initialize", {"protocolVersion": "2025-11-25",
                                                   "capabilities": {},
                                                   "clientInfo": {"version": "1", **info}})
                if "result" not in reply:
                    raise Failure(f"initialize {info}: {reply}")
                mcp.tool("request_approval", {"title": f"Who asks {i}?"})
                service = s.wait_pending(f"Who asks {i}?")["service"]
                mcp.close_input()
                if mcp.wait_exit() != 0 or b"CRITICAL" in mcp.errors():
                    raise Failure(f"{info}: exit {mcp.proc.returncode}, {mcp.errors()!r}")
            finally:
                mcp.stop()
            if service["name"] != name or service["id"] in seen or \
                    not service["id"].startswith("mcp-") or \
                    (service_id is not None and service["id"] != service_id):
                raise Failure(f"{info}: service {service}, expected {service_id} “{name}”")
            seen.add(service["id"])


def test_invalid_arguments_by_version():
    bad = {"question": "Rate it", "response_type": "scale", "constraints": {"min": 5, "max": 1}}
    with Session("args-new") as s:
        s.mcp.initialize("2025-11-25")
        result = s.mcp.reply(s.mcp.tool("ask_human", bad))["result"]
        text = result["content"][0]["text"]
        if not result.get("isError") or "constraints" not in text:
            raise Failure(f"2025-11-25: expected a tool error naming constraints, got {result}")
        for arguments, field in [({"question": "x"}, "response_type: required"),
                                 ({"question": "", "response_type": "text"}, "question: must not"),
                                 # Invisible alone: a blank heading in the person's inbox.
                                 ({"question": "\u200b\u2060", "response_type": "text"},
                                  "question: must be a string with something visible"),
                                 ({"question": "\u2800", "response_type": "text"},
                                  "question: must be a string with something visible"),
                                 # Answers the person cannot tell apart.
                                 ({"question": "x", "response_type": "binary",
                                   "true_label": "Same", "false_label": "Same"},
                                  "false_label: must differ from true_label"),
                                 ({"question": "x", "response_type": "text", "colour": 1},
                                  "colour: unknown argument"),
                                 ({"question": "x", "response_type": "choice"}, "options: required"),
                                 ({"question": "x", "response_type": "choice", "options": "a"},
                                  "options: expected an array, got string"),
                                 ({"question": "x", "response_type": "text", "constraints": 3},
                                  "constraints: expected an object, got integer"),
                                 # details is text: a screenshot in base64 is not shown.
                                 ({"question": "x", "response_type": "text",
                                   "details": "iVBORw0KGgo=", "details_type": "image/png"},
                                  "details_type: details is text, shown as text, so its type "
                                  "cannot be image/png"),
                                 ({"question": "x", "response_type": "text", "details": "%PDF",
                                   "details_type": "Application/PDF; x=1"},
                                  "details_type: details is text"),
                                 ({"question": "x", "response_type": "text", "deadline": "soon"},
                                  "deadline:"),
                                 # A duration, too far away: not "expected a duration".
                                 ({"question": "x", "response_type": "text",
                                   "deadline": "99999d"},
                                  "deadline: too far away: a duration may be at most ten years"),
                                 # Nearly RFC 3339: what it lacks.
                                 ({"question": "x", "response_type": "text",
                                   "deadline": "2099-05-01T17:00:00"},
                                  "deadline: the time has no offset"),
                                 ({"question": "x", "response_type": "number",
                                   "constraints": {"max_length": 5}},
                                  "constraints.max_length: only with response_type text"),
                                 ({"question": "x", "response_type": "text",
                                   "constraints": {"min": 1}},
                                  "constraints.min: only with response_type number or scale"),
                                 ({"question": "x", "response_type": "choice",
                                   "options": [{"value": "a", "label": "A"}],
                                   "constraints": {"max_selections": 1}},
                                  "constraints.max_selections: only with response_type "
                                  "multi_choice")]:
            result = s.mcp.reply(s.mcp.tool("ask_human", arguments))["result"]
            if not result.get("isError") or field not in result["content"][0]["text"]:
                raise Failure(f"{arguments}: expected {field!r}, got {result}")
    with Session("args-old") as s:
        s.mcp.initialize("2025-06-18")
        error = expect_error(s.mcp.reply(s.mcp.tool("ask_human", bad)), -32602, "constraints")
        if not error.get("data", {}).get("field", "").startswith("constraints"):
            raise Failure(f"2025-06-18: the error's data names no field: {error}")
        status, reply = s.server.request("GET", "/api/v1/client/notifications?status=pending")
        if reply["notifications"]:
            raise Failure(f"an invalid call reached the inbox: {reply}")


def test_answered():
    with Session("answered") as s:
        s.mcp.initialize()
        id = s.mcp.tool("ask_human", {"question": "How many replicas?", "response_type": "number",
                                      "constraints": {"min": 1, "max": 9, "step": 1},
                                      "details": "<svg/>", "details_type": "image/svg+xml"})
        n = s.wait_pending("How many replicas?")
        if n["context"]["attachments"][0]["type"] != "image/svg+xml":
            raise Failure(f"SVG is text, taken as details: {n['context']}")
        if n["service"]["name"] != "Test Agent":
            raise Failure(f"the service is named after the MCP client: {n['service']}")
        status, reply = s.server.respond_as_client(n["id"], "answer", 3)
        if status != 200:
            raise Failure(f"respond: {status} {reply}")
        result = s.mcp.reply(id)["result"]
        sc = result["structuredContent"]
        if sc["outcome"] != "answered" or sc["answer"] != 3 or sc["notification_id"] != n["id"]:
            raise Failure(f"result {result}")
        # The local server's person is "default": "default answered …" read as a
        # default, not a person.
        if result.get("isError") or \
                not result["content"][0]["text"].startswith("User “default” answered at ") or \
                not result["content"][0]["text"].endswith(": 3"):
            raise Failure(f"result text {result['content']}")


def test_many_at_once():
    """Questions wait side by side: a new one is not held behind the long-polls of
    those already waiting, and each answer returns to its own call."""
    with Session("many") as s:
        s.mcp.initialize()
        ids = {s.mcp.tool("ask_human", {"question": f"Parallel {i}?", "response_type": "text"}): i
               for i in range(6)}
        requests = {i: s.wait_pending(f"Parallel {i}?") for i in range(6)}
        for i in reversed(range(6)):
            s.server.respond_as_client(requests[i]["id"], "answer", f"answer {i}")
        for id, i in ids.items():
            sc = s.mcp.reply(id)["result"]["structuredContent"]
            if sc["answer"] != f"answer {i}" or sc["notification_id"] != requests[i]["id"]:
                raise Failure(f"call {i}: {sc}")


def test_too_many_at_once():
    """Each waiting question holds one of triage-mcp's connections in a long-poll: with
    all 64 held, the answer to a 65th question and the withdrawal of a cancelled one
    waited up to 60 s behind them (the person saw the cancelled question meanwhile).
    Past 56 waiting, a call is refused with a tool error the model reads, and answers
    and cancellations still come at once."""
    with Session("too-many") as s:
        s.mcp.initialize()
        ids = [s.mcp.tool("ask_human", {"question": f"Crowd {i}?", "response_type": "text"})
               for i in range(56)]

        def inbox():
            status, reply = s.server.request(
                "GET", "/api/v1/client/notifications?status=pending&limit=100")
            return {n["context"]["title"]: n for n in reply["notifications"]}
        wait_for("56 questions in the inbox", lambda: len(inbox()) == 56)
        crowd = [inbox()[f"Crowd {i}?"] for i in range(56)]
        result = s.mcp.reply(s.mcp.tool("request_approval", {"title": "One too many"}))["result"]
        if not result.get("isError") or "56 questions" not in result["content"][0]["text"] or \
                "structuredContent" in result:
            raise Failure(f"the 57th question: {result}")
        if pending_titled(s.server, "One too many") is not None:
            raise Failure("a refused question reached the inbox")
        s.mcp.notify("notifications/cancelled", {"requestId": ids[0]})
        wait_for("the cancelled question withdrawn",
                 lambda: s.status(crowd[0]["id"]) == "invalidated")
        id = s.mcp.tool("request_approval", {"title": "Room again"})
        n = s.wait_pending("Room again")
        s.server.respond_as_client(n["id"], "approve")
        if s.mcp.reply(id)["result"]["structuredContent"]["approved"] is not True:
            raise Failure("the question asked once there was room")


def test_expiry():
    with Session("expiry") as s:
        s.mcp.initialize()
        id = s.mcp.tool("request_approval", {"title": "Expire me", "deadline": "1s"})
        result = s.mcp.reply(id, timeout=30)["result"]
        sc = result["structuredContent"]
        if sc["outcome"] != "expired" or sc["approved"] is not False or result.get("isError"):
            raise Failure(f"expired: {result}")
        if "expired" not in result["content"][0]["text"]:
            raise Failure(f"the text does not say it expired: {result['content']}")


def test_withdrawn_elsewhere():
    """Withdrawn by another process of the service: the text says the reason the
    server kept; without one (as every request withdrawn before the server kept
    them reads) it says just that, with no empty reason."""
    with Session("withdrawn") as s:
        s.mcp.initialize()
        for question, body, said in (
                ("Pick one", {"status": "invalidated", "reason": "test"},
                 "was withdrawn before anyone answered it; the reason given: “test”."),
                ("Pick again", {"status": "invalidated"},
                 "was withdrawn before anyone answered it.")):
            id = s.mcp.tool("ask_choice", {"question": question, "options": [
                {"id": "a", "label": "A"}, {"id": "b", "label": "B"}]})
            n = s.wait_pending(question)
            status, reply = s.server.request("PATCH", f"/api/v1/notifications/{n['id']}", body,
                                             service="mcp-test-agent")
            if status != 200:
                raise Failure(f"PATCH: {status} {reply}")
            result = s.mcp.reply(id)["result"]
            sc = result["structuredContent"]
            if sc["outcome"] != "withdrawn" or sc["chosen"] != [] or "reason" in sc:
                raise Failure(f"withdrawn: {sc}")
            if not result["content"][0]["text"].endswith(said):
                raise Failure(f"the text does not end “{said}”: {result['content']}")


def test_cancellation():
    with Session("cancel") as s:
        s.mcp.initialize()
        id = s.mcp.tool("request_approval", {"title": "Cancel me"})
        n = s.wait_pending("Cancel me")
        s.mcp.notify("notifications/cancelled", {"requestId": id, "reason": "user pressed stop"})
        wait_for("the request to be withdrawn", lambda: s.status(n["id"]) == "invalidated")
        ping = s.mcp.call("ping")
        if s.mcp.next().get("id") != ping:
            raise Failure("a cancelled call must not be answered")


def test_progress():
    with Session("progress", "--progress-interval", "1") as s:
        s.mcp.initialize()
        id = s.mcp.tool("request_approval", {"title": "Progress please"}, progress_token="tok-1")
        n = s.wait_pending("Progress please")

        def progress():
            return [m["params"] for m in s.mcp.seen
                    if m.get("method") == "notifications/progress"]
        wait_for("three progress notifications", lambda: len(progress()) >= 3)
        values = [p["progress"] for p in progress()]
        if any(p["progressToken"] != "tok-1" for p in progress()) or values != sorted(set(values)):
            raise Failure(f"progress {progress()}")
        s.server.respond_as_client(n["id"], "approve")
        sc = s.mcp.reply(id)["result"]["structuredContent"]
        if sc["approved"] is not True or sc["responder"]["type"] != "human":
            raise Failure(f"approved: {sc}")
        # Without a token, no progress.
        before = len(progress())
        id = s.mcp.tool("request_approval", {"title": "No progress"})
        n = s.wait_pending("No progress")
        s.server.respond_as_client(n["id"], "deny")
        if s.mcp.reply(id)["result"]["structuredContent"]["approved"] is not False:
            raise Failure("denied reads approved: false")
        if len([p for p in progress() if p["progressToken"] != "tok-1"]) or \
                len(progress()) > before + 1:
            raise Failure("progress for a call without a token")
        # A token is a string or any number (MCP's ProgressToken), a fraction too: it had
        # none, and a client resetting its timeout on progress gave up on the call.
        id = s.mcp.tool("request_approval", {"title": "Fractional token"}, progress_token=2.5)
        n = s.wait_pending("Fractional token")
        wait_for("progress for token 2.5", lambda: any(p["progressToken"] == 2.5
                                                        for p in progress()))
        s.server.respond_as_client(n["id"], "approve")
        s.mcp.reply(id)


run([
    ("calls before initialize", test_calls_before_initialize),
    ("version negotiation", test_version_negotiation),
    ("malformed JSON-RPC", test_malformed),
    ("MCP 2025-03-26: batches", test_batches_of_2025_03_26),
    ("MCP 2024-11-05, as it was", test_first_revision),
    ("unknown methods and tools", test_unknown_methods),
    ("huge input", test_huge_input),
    ("the service named after the client", test_service_identity),
    ("invalid arguments per protocol version", test_invalid_arguments_by_version),
    ("answered", test_answered),
    ("several questions at once", test_many_at_once),
    ("no more questions at once than connections", test_too_many_at_once),
    ("expiry", test_expiry),
    ("withdrawn by the service", test_withdrawn_elsewhere),
    ("cancellation withdraws", test_cancellation),
    ("progress while waiting", test_progress),
])
