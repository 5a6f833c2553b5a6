#!/usr/bin/python3
# test-afp-dogtail.py — a whole Agent Feedback Protocol 1.2 session through the
# real app and the real server: a requester runs `triage-ask --afp` three times
# (the second and third with --session and applied_feedback), and a person,
# simulated through the accessibility tree (dogtail), reviews each iteration in
# the review view: confidence, points, areas, summary; carries an earlier item
# over; sends. Every line the requester reads is checked against seed 004's
# rules: the wrapper's fields, one sessionID on every line of every iteration,
# the iteration echoed, item ids matching ^[a-z0-9._-]{8,128}$, unique, stable
# when carried over and never reused otherwise, and applied_feedback_ack with
# exactly one item per applied item, acknowledged or unknown_id as the
# session's history says.
#
# Runs under tests/fake-notifyd.py --private-bus --no-click, with GTK_A11Y
# unset for the app, alone (like test-dogtail.py).
#
# Copyright 2026 The Triage authors
# SPDX-License-Identifier: GPL-3.0-or-later

import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from a11ytest import assert_list, assert_no_type_names, find_app, find_where, rawinput  # noqa: E402  (dogtail first)
from afptest import ask, finish  # noqa: E402
from apptest import App, Failure, Notifyd, Server, World, run, wait_for  # noqa: E402

notifyd = Notifyd()
ID_PATTERN = re.compile(r"^[a-z0-9._-]{8,128}$")
WRAPPER_TYPES = ["step_start", "text", "step_finish"]


def named(node, name):
    # GTK 4.8 may name an entry's text node by its own name and then its
    # label's, when both apply: either form is taken.
    return node.name == name or node.name.startswith(name + " ")


def find(parent, what, role=None, name=None, timeout=20):
    def match(node):
        return (role is None or node.roleName == role) and (name is None or named(node, name))
    return find_where(parent, what, match, timeout=timeout)


def press(node):
    """Activates a button or check button without the pointer (it may be below the fold)."""
    names = list(node.actions.keys())
    for name in ("click", "activate", "toggle", "press"):
        if name in names:
            node.doActionNamed(name)
            return
    raise Failure(f"{node.roleName} {node.name!r} has no action to press ({names})")


def field(parent, name):
    # GTK 4.8 names an entry's text node twice over ("Aspect Aspect"): either is taken.
    return wait_for(f"the field {name!r}",
                    lambda: parent.findChild(lambda n: n.roleName == "text" and named(n, name),
                                             retry=False, requireResult=False),
                    timeout=20, interval=0.2)


def type_into(parent, name, text, keys=None):
    """Types into a field the way a person at the keyboard does: a mnemonic
    or Tab takes them there (keys), then they type."""
    node = field(parent, name)
    if keys == "Tab":
        rawinput.pressKey("Tab")
    elif keys:
        rawinput.keyCombo(keys)
    wait_for(f"{name!r} to have the keyboard", lambda: node.focused, interval=0.1)
    rawinput.typeText(text)
    # GTK 4.8 does not tell AT-SPI an entry's text (it reads as ""): what
    # was typed is checked in the answer the requester reads.
    try:
        wait_for(f"{name!r} to hold the text", lambda: node.text in (text, ""), timeout=3, interval=0.1)
    except Failure:
        raise Failure(f"{name!r} holds {node.text!r} after typing {text!r}") from None


# ---- the requester ----

def only_known(obj, known, where):
    unknown = [k for k in obj if k not in known and not k.startswith("x-")]
    if unknown:
        raise Failure(f"{where}: members neither known nor x-: {unknown}")


def nonblank(obj, key, where):
    value = obj.get(key)
    if not isinstance(value, str) or not value.strip():
        raise Failure(f"{where}.{key}: must be a non-empty string, got {value!r}")
    return value


def check_stream(out, request, session, issued, previous_ids):
    """Seed 004's rules on the three wrapper lines; returns (sessionID, response)."""
    lines = out.splitlines()
    if len(lines) != 3:
        raise Failure(f"{len(lines)} lines on standard output, not 3: {out!r}")
    messages = [json.loads(line) for line in lines]
    if [m.get("type") for m in messages] != WRAPPER_TYPES:
        raise Failure(f"wrapper types {[m.get('type') for m in messages]}")
    session_id = messages[0].get("sessionID")
    if not isinstance(session_id, str) or not re.match(r"^ses_[A-Za-z0-9]{16,}$", session_id):
        raise Failure(f"sessionID {session_id!r}")
    if session is not None and session_id != session:
        raise Failure(f"the session changed: {session_id} after {session}")
    for m in messages:
        if m.get("sessionID") != session_id:
            raise Failure(f"{m['type']}: sessionID {m.get('sessionID')} on a stream of {session_id}")
        if not isinstance(m.get("timestamp"), int) or m["timestamp"] < 0:
            raise Failure(f"{m['type']}: timestamp {m.get('timestamp')!r}")
        part = m.get("part")
        if not isinstance(part, dict):
            raise Failure(f"{m['type']}: part {part!r}")
        if part.get("sessionID", session_id) != session_id:
            raise Failure(f"{m['type']}: part.sessionID {part.get('sessionID')}")
    finish_part = messages[2]["part"]
    if finish_part.get("cost") != 0 or finish_part.get("tokens") != {"input": 0, "output": 0}:
        raise Failure(f"step_finish part {finish_part}")
    text = messages[1]["part"].get("text")
    if not isinstance(text, str):
        raise Failure(f"text part {messages[1]['part']}")

    response = json.loads(text)
    only_known(response, {"protocol_version", "iteration", "status", "feedback",
                          "applied_feedback_ack", "error"}, "response")
    if response.get("protocol_version") != "1.2":
        raise Failure(f"protocol_version {response.get('protocol_version')!r}")
    if response.get("iteration") != request["iteration"]:
        raise Failure(f"iteration {response.get('iteration')} for a request of {request['iteration']}")
    if response.get("status") != "success" or "error" in response:
        raise Failure(f"not a success: {response}")
    feedback = response.get("feedback")
    if not isinstance(feedback, dict):
        raise Failure(f"feedback {feedback!r}")
    only_known(feedback, {"confidence", "positive_points", "areas_for_improvement",
                          "general_summary"}, "feedback")
    confidence = feedback.get("confidence") or {}
    if confidence.get("level") not in ("high", "medium", "low"):
        raise Failure(f"confidence {confidence}")
    nonblank(confidence, "justification", "feedback.confidence")
    nonblank(feedback, "general_summary", "feedback")
    for i, point in enumerate(feedback.get("positive_points", [])):
        only_known(point, {"aspect", "justification"}, f"positive_points[{i}]")
        nonblank(point, "aspect", f"positive_points[{i}]")
        nonblank(point, "justification", f"positive_points[{i}]")
    ids = []
    for i, area in enumerate(feedback.get("areas_for_improvement", [])):
        where = f"areas_for_improvement[{i}]"
        only_known(area, {"id", "aspect", "description", "recommendation"}, where)
        for key in ("aspect", "description", "recommendation"):
            nonblank(area, key, where)
        if not ID_PATTERN.match(area.get("id", "")):
            raise Failure(f"{where}.id {area.get('id')!r} does not match the pattern")
        if area["id"] in issued and area["id"] not in previous_ids:
            raise Failure(f"{where}.id {area['id']} was issued earlier and is not a carried-over item")
        ids.append(area["id"])
    if len(set(ids)) != len(ids):
        raise Failure(f"ids not unique: {ids}")

    applied = request.get("applied_feedback")
    ack = response.get("applied_feedback_ack")
    if applied is None:
        if ack is not None:
            raise Failure(f"an ack without applied_feedback: {ack}")
    else:
        items = (ack or {}).get("items")
        want = [{"id": item["id"],
                 "processing_status": "acknowledged" if item["id"] in issued else "unknown_id"}
                for item in applied["items"]]
        if items != want:
            raise Failure(f"applied_feedback_ack {ack}, expected items {want}")
    return session_id, response


# ---- the person ----

def open_review(title):
    bubble = notifyd.wait_notify(f"Review requested: {title}")
    notifyd.press(bubble["id"], "default")
    rawinput.absoluteMotion(400, 300)   # over the window, which has the keyboard then (no window manager)
    return find_app(timeout=20)


def assert_earlier_list(triage, items):
    """The earlier items and what the agent did with them read as the list of
    cards they look (its heading names it), not as GTK 4.8's grid of cells;
    and nothing of the review is said by its widget type."""
    assert_list(find_where(triage, "the list of the earlier items",
                           lambda n: n.name == "Your Earlier Feedback" and n.roleName != "heading"),
                items)
    assert_no_type_names(triage, "the review with its earlier items")


def review(triage, level, justification, points, areas, summary, carry=()):
    """Fills the editor in as a person does, and sends."""
    find(triage, "the editor's heading", "heading", "Your Review")
    for aspect in carry:
        press(find(triage, f"Carry over {aspect}", "push button", f"Carry Over “{aspect}”"))
    # GTK 4.8 gives check buttons no AT-SPI action: their mnemonic, as a
    # person at the keyboard does (Alt+G, Alt+M, Alt+W).
    level_box = wait_for(f"the {level} confidence",
                         lambda: triage.findChild(lambda n: n.name == level and
                                                  n.roleName in ("radio button", "check box"),
                                                  retry=False, requireResult=False),
                         timeout=20, interval=0.2)
    rawinput.keyCombo("<Alt>" + {"High": "g", "Medium": "m", "Low": "w"}[level])
    wait_for(f"{level} to be chosen", lambda: level_box.checked, interval=0.1)
    type_into(triage, "Why this confidence", justification, "<Alt>y")
    for i, (aspect, why) in enumerate(points, 1):
        # Add takes the keyboard to the new item's aspect; Tab to the next field.
        press(find(triage, "Add Positive Point", "push button", "Add Positive Point"))
        type_into(triage, f"Point {i} aspect", aspect)
        type_into(triage, f"Point {i} justification", why, "Tab")
    first = len(carry) + 1
    for i, (aspect, description, recommendation) in enumerate(areas, first):
        press(find(triage, "Add Area for Improvement", "push button", "Add Area for Improvement"))
        type_into(triage, f"Area {i} aspect", aspect)
        type_into(triage, f"Area {i} description", description, "Tab")
        type_into(triage, f"Area {i} recommendation", recommendation, "Tab")
    type_into(triage, "General summary", summary, "<Alt>u")
    send = find(triage, "Send Review", "push button", "Send Review")
    wait_for("Send Review to be enabled", lambda: send.sensitive, interval=0.1)
    press(send)


def test_three_iterations():
    world = World("afp-dogtail")
    server = Server(world)
    app = App(world, GTK_A11Y=None, NO_AT_BRIDGE=None)
    issued = set()
    try:
        server.start()
        app.start()

        # Iteration 1: seed 004's first request.
        first = {"iteration": 1,
                 "artifact": {"media_type": "text/plain",
                              "content": "Add a 'dark mode' to the user interface."}}
        proc = ask(world, first, title="Dark mode idea")
        triage = open_review("Dark mode idea")
        review(triage, "Medium", "The idea is high-level.",
               [("User Experience", "A feature people ask for.")],
               [("Scope Definition", "Which parts of the UI?", "List the components."),
                ("Accessibility", "Contrast is not mentioned.", "Set contrast ratios.")],
               "Valuable, needs planning.")
        session, response = check_stream(finish(proc), first, None, issued, set())
        ids1 = [a["id"] for a in response["feedback"]["areas_for_improvement"]]
        if len(ids1) != 2:
            raise Failure(f"iteration 1 areas {ids1}")
        issued.update(ids1)

        # Iteration 2: the agent accepted one, partly applied the other, and
        # names an id it made up; the person carries "Accessibility" over.
        second = {"protocol_version": "1.2", "iteration": 2,
                  "artifact": {"media_type": "text/markdown",
                               "content": "## Dark Mode Spec\n- The toolbar\n- The sidebar\n"},
                  "applied_feedback": {"items": [
                      {"id": ids1[0], "status": "accepted", "explanation": "Listed them."},
                      {"id": ids1[1], "status": "partial", "explanation": "Most components."},
                      {"id": "made-up-item-99", "status": "rejected", "reason_code": "out_of_scope"}]}}
        proc = ask(world, second, session=session, title="Dark mode spec")
        triage = open_review("Dark mode spec")
        find(triage, "the diff's summary", "label",
             "Changes since iteration 1: 3 lines added, 1 removed. "
             "Added lines start with +, removed lines with -.")
        find(triage, "the agent's decision", "label", "Partly applied")
        assert_earlier_list(triage, ["Scope Definition", "Accessibility", "Id made-up-item-99"])
        review(triage, "High", "Read it all.", [("Structure", "Clear list.")],
               [("Icons", "Icon colours are not covered.", "Add the icon palette.")],
               "Almost there.", carry=("Accessibility",))
        session2, response = check_stream(finish(proc), second, session, issued, set(ids1))
        ids2 = [a["id"] for a in response["feedback"]["areas_for_improvement"]]
        if ids2[0] != ids1[1] or ids2[1] in issued:
            raise Failure(f"iteration 2 ids {ids2} after {ids1}: the carried one must keep its id")
        issued.update(ids2)

        # Iteration 3: both answered; the person carries "Icons" over.
        third = {"protocol_version": "1.2", "iteration": 3,
                 "artifact": {"media_type": "text/markdown",
                              "content": "## Dark Mode Spec\n- The toolbar\n- The sidebar\n- Icons\n"},
                 "applied_feedback": {"items": [
                     {"id": ids2[0], "status": "accepted"},
                     {"id": ids2[1], "status": "rejected", "reason_code": "infeasible",
                      "explanation": "No designer this month."}]}}
        proc = ask(world, third, session=session, title="Dark mode spec, third")
        triage = open_review("Dark mode spec, third")
        find(triage, "the agent's reason", "label", "Reason: infeasible")
        assert_earlier_list(triage, ["Accessibility", "Icons"])
        review(triage, "Low", "Icons still open.", [], [], "Ship it without icons.", carry=("Icons",))
        _, response = check_stream(finish(proc), third, session, issued, set(ids2))
        ids3 = [a["id"] for a in response["feedback"]["areas_for_improvement"]]
        if ids3 != [ids2[1]]:
            raise Failure(f"iteration 3 ids {ids3}: expected the carried {ids2[1]}")
    finally:
        app.stop()
        server.stop()
        world.cleanup()


run([("a three-iteration AFP session reviewed through the accessibility tree", test_three_iterations)])
