#!/usr/bin/python3
# test-mcp-modern.py — MCP 2026-07-28 (no handshake, everything in _meta) with the
# real triage-mcp against a real triage-server --local: server/discover, results,
# refusals; and each request standing on its own, so the service a question is
# asked as comes from that request's clientInfo, never from an earlier request's.
#
# Copyright 2026 The Triage authors
# SPDX-License-Identifier: GPL-3.0-or-later

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mcptest import Session, expect_error, modern  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "app"))
from apptest import Failure, run, wait_for  # noqa: E402


def test_stateless_revision():
    """MCP 2026-07-28 (the latest revision): no initialize; each request carries its
    version, capabilities and client in _meta; server/discover is required; every
    result has resultType, and list results ttlMs and cacheScope."""
    with Session("modern") as s:
        reply = s.mcp.request("server/discover", modern())
        result = reply.get("result")
        if result is None or result.get("resultType") != "complete" or \
                result.get("supportedVersions") != ["2026-07-28"] or \
                "tools" not in result.get("capabilities", {}) or \
                not isinstance(result.get("ttlMs"), int) or result["ttlMs"] < 0 or \
                result.get("cacheScope") not in ("public", "private") or \
                result["_meta"]["io.modelcontextprotocol/serverInfo"]["name"] != "triage-mcp" or \
                "proceed only on approved" not in result.get("instructions", ""):
            raise Failure(f"server/discover: {reply}")
        result = s.mcp.request("tools/list", modern())["result"]
        if [t["name"] for t in result["tools"]] != ["request_approval", "ask_human",
                                                     "ask_choice"] or \
                result["resultType"] != "complete" or "ttlMs" not in result or \
                result.get("cacheScope") not in ("public", "private"):
            raise Failure(f"tools/list: {result}")
        expect_error(s.mcp.request("tools/list", modern({"cursor": "page-2"})), -32602,
                     "cursor was not issued")
        # A version it does not speak, and a request without the required members.
        error = expect_error(s.mcp.request("tools/list", modern(version="2099-01-01")), -32022)
        if error.get("data") != {"supported": ["2026-07-28"],
                                 "requested": "2099-01-01"}:
            raise Failure(f"unsupported version: {error}")
        # A version spoken only after initialize is not one a request may name,
        # and the list the refusal gives holds none such (a client picks from it).
        error = expect_error(s.mcp.request("tools/list", modern(version="2025-11-25")), -32022)
        if error.get("data", {}).get("supported") != ["2026-07-28"]:
            raise Failure(f"a legacy version in _meta: {error}")
        expect_error(s.mcp.request("tools/list", modern(capabilities=False)), -32602,
                     "io.modelcontextprotocol/clientCapabilities")
        expect_error(s.mcp.request("ping", modern()), -32601, "ping")
        # Invalid arguments: a tool error the model reads.
        result = s.mcp.request("tools/call", modern({"name": "ask_human", "arguments": {
            "question": "Missing a type"}}))["result"]
        if not result.get("isError") or result.get("resultType") != "complete" or \
                "response_type: required" not in result["content"][0]["text"]:
            raise Failure(f"invalid arguments: {result}")
        # A call, named after the client of its _meta, with progress; then answered.
        id = s.mcp.call("tools/call", modern({"name": "request_approval",
                                              "arguments": {"title": "Stateless?"},
                                              "_meta": {"progressToken": "p1"}},
                                             client="Modern Agent"))
        n = s.wait_pending("Stateless?")
        if n["service"]["name"] != "Modern Agent":
            raise Failure(f"the service is named after the client in _meta: {n['service']}")
        wait_for("progress", lambda: any(m.get("method") == "notifications/progress" and
                                         m["params"]["progressToken"] == "p1"
                                         for m in s.mcp.seen))
        s.server.respond_as_client(n["id"], "approve")
        result = s.mcp.reply(id)["result"]
        if result.get("resultType") != "complete" or \
                result["structuredContent"]["approved"] is not True or \
                result["_meta"]["io.modelcontextprotocol/serverInfo"]["name"] != "triage-mcp":
            raise Failure(f"answered: {result}")
        # Cancelled: withdrawn, no answer.
        id = s.mcp.call("tools/call", modern({"name": "request_approval",
                                              "arguments": {"title": "Cancel stateless"}}))
        n = s.wait_pending("Cancel stateless")
        s.mcp.notify("notifications/cancelled", {"requestId": id})
        wait_for("the request to be withdrawn", lambda: s.status(n["id"]) == "invalidated")
        # The same process still serves a client of the initialize era.
        if s.mcp.initialize()["protocolVersion"] != "2025-11-25":
            raise Failure("initialize after stateless requests")
        if "resultType" in s.mcp.request("tools/list")["result"]:
            raise Failure("a 2025-11-25 result has no resultType")


def ask(s, title, client=None):
    """A 2026-07-28 request_approval from @client (None: no clientInfo); returns its
    call id and the request as the person sees it."""
    id = s.mcp.call("tools/call", modern({"name": "request_approval",
                                          "arguments": {"title": title}}, client=client))
    return id, s.wait_pending(title)


def approve(s, id, n):
    status, reply = s.server.respond_as_client(n["id"], "approve")
    if status != 200:
        raise Failure(f"respond to {n['id']}: {status} {reply}")
    result = s.mcp.reply(id)["result"]
    if result.get("isError") or result["structuredContent"]["approved"] is not True:
        raise Failure(f"call {id} after approval: {result}")


def expect_service(n, service_id, name):
    if n["service"]["id"] != service_id or n["service"]["name"] != name:
        raise Failure(f"“{n['context']['title']}”: service {n['service']}, "
                      f"expected {service_id} “{name}”")


def test_service_per_request():
    """Two clients on one connection (a proxy in front of the server): each request
    is asked as the client its own _meta names, not the first one seen."""
    with Session("per-request") as s:
        first, n1 = ask(s, "From Alpha", client="Alpha Agent")
        second, n2 = ask(s, "From Beta", client="Beta Agent")
        expect_service(n1, "mcp-alpha-agent", "Alpha Agent")
        expect_service(n2, "mcp-beta-agent", "Beta Agent")
        approve(s, second, n2)
        approve(s, first, n1)


def test_unnamed_request():
    """A request without clientInfo is the unnamed "triage-mcp" whatever came before
    it, and a client naming itself later does not take over a question already
    waiting: its long-polls and its withdrawal stay with the service that asked."""
    with Session("unnamed") as s:
        early, n1 = ask(s, "Before any name")
        named, n2 = ask(s, "Named", client="Alpha Agent")
        late, n3 = ask(s, "No name again")
        expect_service(n1, "triage-mcp", "triage-mcp")
        expect_service(n2, "mcp-alpha-agent", "Alpha Agent")
        expect_service(n3, "triage-mcp", "triage-mcp")
        approve(s, early, n1)
        approve(s, named, n2)
        s.mcp.notify("notifications/cancelled", {"requestId": late})
        wait_for("the unnamed request to be withdrawn",
                 lambda: s.status(n3["id"]) == "invalidated")


def test_eras_side_by_side():
    """An initialize session of 2025-11-25 and 2026-07-28 requests in one process: the
    session's calls are asked as its clientInfo, each modern request as its own."""
    with Session("eras") as s:
        modern_id, n1 = ask(s, "Modern first", client="Modern Agent")
        s.mcp.initialize(name="Legacy Agent")
        legacy_id = s.mcp.tool("request_approval", {"title": "Legacy call"})
        n2 = s.wait_pending("Legacy call")
        unnamed_id, n3 = ask(s, "Modern unnamed")
        expect_service(n1, "mcp-modern-agent", "Modern Agent")
        expect_service(n2, "mcp-legacy-agent", "Legacy Agent")
        expect_service(n3, "triage-mcp", "triage-mcp")
        for id, n in ((legacy_id, n2), (modern_id, n1), (unnamed_id, n3)):
            approve(s, id, n)


def test_session_version_in_meta():
    """A client that opened with initialize and puts the version it negotiated into every
    request's _meta (as clients that always stamp the envelope do) is served as its
    session: the handshake governs the process. Each of these was refused: -32022 for
    tools/list and tools/call, -32601 for ping."""
    with Session("stamped") as s:
        # The initialize itself may carry the envelope: an initialize opens a session of
        # the version its params name, whatever its _meta says (it was -32022).
        stamped = modern(version="2025-11-25", client="Stamping Agent")
        reply = s.mcp.request("initialize", dict(stamped, protocolVersion="2025-11-25",
                                                 capabilities={},
                                                 clientInfo={"name": "Stamping Agent",
                                                             "version": "1.0"}))
        if reply.get("result", {}).get("protocolVersion") != "2025-11-25":
            raise Failure(f"a stamped initialize: {reply}")
        s.mcp.notify("notifications/initialized")
        if s.mcp.request("ping", stamped).get("result") != {}:
            raise Failure("a stamped ping is answered {}")
        result = s.mcp.request("tools/list", stamped).get("result")
        if result is None or "resultType" in result or \
                [t["name"] for t in result["tools"]] != ["request_approval", "ask_human",
                                                         "ask_choice"]:
            raise Failure(f"a stamped tools/list is the session's: {result}")
        id = s.mcp.call("tools/call", modern({"name": "request_approval",
                                              "arguments": {"title": "Stamped call"}},
                                             version="2025-11-25", client="Stamping Agent"))
        n = s.wait_pending("Stamped call")
        expect_service(n, "mcp-stamping-agent", "Stamping Agent")
        approve(s, id, n)
        # Before any initialize, no session governs: such a request is refused as before.
    with Session("stamped-first", server=False) as s:
        expect_error(s.mcp.request("tools/list", modern(version="2025-11-25")), -32022)


def sockets(pid):
    """How many sockets process @pid has open."""
    count = 0
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            count += os.readlink(f"/proc/{pid}/fd/{fd}").startswith("socket:")
        except OSError:
            pass    # closed meanwhile
    return count


def test_connections_bounded():
    """Many differently named 2026-07-28 clients over a long run: triage-mcp keeps a
    connection for the services used last only (it kept one for every name it had
    ever seen, forever), and never drops one in use: the initialize session's asks
    as its client after all of them, and a question waiting throughout is answered."""
    with Session("bounded") as s:
        s.mcp.initialize(name="Session Agent")
        waiting = s.mcp.tool("request_approval", {"title": "Waiting throughout"})
        held = s.wait_pending("Waiting throughout")
        names = 40
        ids = [s.mcp.call("tools/call", modern({"name": "request_approval",
                                                "arguments": {"title": f"Agent {i} asks"}},
                                               client=f"Agent {i}"))
               for i in range(names)]
        for i, id in enumerate(ids):
            n = s.wait_pending(f"Agent {i} asks")
            expect_service(n, f"mcp-agent-{i}", f"Agent {i}")
            approve(s, id, n)
        # Each connection kept holds its socket to the server open.
        wait_for("the connections of clients seen long ago closed",
                 lambda: sockets(s.mcp.proc.pid) <= 20)
        approve(s, waiting, held)
        later = s.mcp.tool("request_approval", {"title": "Session again"})
        n = s.wait_pending("Session again")
        expect_service(n, "mcp-session-agent", "Session Agent")
        approve(s, later, n)


def test_service_option():
    """--service and --service-name name every request, whatever its clientInfo."""
    with Session("option", "--service", "ci-bot", "--service-name", "CI bot") as s:
        _, n1 = ask(s, "Option one", client="Alpha Agent")
        _, n2 = ask(s, "Option two")
        expect_service(n1, "ci-bot", "CI bot")
        expect_service(n2, "ci-bot", "CI bot")


run([
    ("MCP 2026-07-28: stateless requests", test_stateless_revision),
    ("each request names its own service", test_service_per_request),
    ("a request without clientInfo", test_unnamed_request),
    ("an initialize session beside 2026-07-28 requests", test_eras_side_by_side),
    ("a session's own version in _meta is served as the session", test_session_version_in_meta),
    ("--service names every request", test_service_option),
    ("connections for the clients used last only", test_connections_bounded),
])
