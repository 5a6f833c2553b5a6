#!/usr/bin/python3
# screenshots.py BUILD_DIR OUTPUT_DIR — the pictures build-aux/screenshots.sh
# takes, run inside build-aux/run-headless.sh (a fresh home, Xvfb, a private bus).
#
# Copyright 2026 The Triage authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
# A real triage-server in local mode gets five requests from four services; a
# history of two months of past decisions is written into the app's database
# (the history view reads the app's own database, so this is what it would
# hold); the real triage opens the deploy request (as a bubble click does),
# then shows the history and a preview, clicked through the accessibility
# tree; then a release request open in the window is answered by alex on
# another device, and the view shows it settled; then an AITP-02 products
# decision (variants, ratings, prices, a variant picked and a quantity set
# through the accessibility tree) and an AITP-02 confirmation; then the second
# iteration of an AFP 1.2 review (the diff against the first artifact, the
# agent's decisions beside the person's earlier items). With SCREENSHOT_VARIANTS=1,
# the inbox also dark, 360 pixels wide and with 1.5 × text.

import base64
import http.client
import json
import os
import random
import socket
import sqlite3
import subprocess
import sys
import time
import uuid

BUILD, OUT = sys.argv[1], sys.argv[2]
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
APP_ID = "io.github.atptriage.Triage"
APP_PATH = "/io/github/atptriage/Triage"
WIDTH, HEIGHT = 1100, 740
SETTLED_HEIGHT = 900
AITP_HEIGHT = 960
AFP_HEIGHT = 980
SOCKET = os.path.join(os.environ["XDG_RUNTIME_DIR"], "triage", "triage.sock")
APP_DB = os.path.join(os.environ["XDG_DATA_HOME"], "triage", "triage.db")

os.environ.update({
    "GSETTINGS_SCHEMA_DIR": os.path.join(BUILD, "data"),
    "GSETTINGS_BACKEND": "keyfile",
    "XDG_DATA_DIRS": f"{ROOT}/data:/usr/local/share:/usr/share",
    "TRIAGE_SERVER": os.path.join(BUILD, "src", "server", "triage-server"),
})
os.environ.pop("GTK_A11Y", None)       # the clicks go through AT-SPI

import dogtail.config  # noqa: E402

dogtail.config.config.checkForA11y = False
dogtail.config.config.searchShowingOnly = False
dogtail.config.config.defaultDelay = 0.3
dogtail.config.config.logDebugToStdOut = False
dogtail.config.config.logDebugToFile = False
from dogtail import rawinput  # noqa: E402
from dogtail.predicate import GenericPredicate  # noqa: E402
from dogtail.tree import root as a11y_root  # noqa: E402


def wait_for(what, predicate, timeout=20):
    end = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > end:
            sys.exit(f"screenshots: timed out waiting for {what}")
        time.sleep(0.1)


class Unix(http.client.HTTPConnection):
    def __init__(self):
        super().__init__("localhost", timeout=10)

    def connect(self):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(SOCKET)


def call(method, path, body, headers):
    conn = Unix()
    conn.request(method, path, body=json.dumps(body).encode(),
                 headers={"Content-Type": "application/json", **headers})
    reply = conn.getresponse()
    return reply.status, json.loads(reply.read() or b"null")


def post(service, name, request):
    status, body = call("POST", "/api/v1/notifications", request,
                        {"X-Triage-Service": service, "X-Triage-Service-Name": name})
    if status != 201:
        sys.exit(f"screenshots: the server refused a request: {body}")
    return body["notification_id"]


def in_minutes(minutes):
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() + minutes * 60))


def simple(label, *flags):
    return {"id": label.lower().replace(" ", "_"), "label": label, "response_type": "simple",
            "flags": list(flags)}


def post_requests():
    with open(os.path.join(ROOT, "build-aux", "screenshot-request.json")) as f:
        deploy = json.loads(f.read().replace("@DEADLINE@", in_minutes(25)))
    plan = {"release": "2.1.0", "strategy": "canary", "regions": [
        {"name": "eu-west-1", "canary_share": 5, "drain_seconds": 30},
        {"name": "us-east-1", "canary_share": 5, "drain_seconds": 30}],
        "rollback": {"error_rate_above": 0.5, "latency_p99_ms_above": 800}}
    deploy["context"]["attachments"].insert(0, {
        "type": "application/json", "description": "rollout-plan.json",
        "data": base64.b64encode(json.dumps(plan).encode()).decode()})
    ids = {"deploy": post("deploy-bot", "Deploy Bot", deploy)}
    post("data-pipeline", "Data Pipeline", {
        "deadline": in_minutes(110),
        "context": {"title": "Delete 1,204 stale customer records?", "project": "warehouse",
                    "description": "Records untouched for 7 years, past the retention period."},
        "actions": [{"id": "delete", "label": "Delete them", "response_type": "binary",
                     "options": {"true_label": "Delete", "false_label": "Keep"},
                     "flags": ["destructive", "irreversible"]}]})
    post("code-review", "Code Reviewer", {
        "context": {"title": "Merge pull request #482 (auth refactor)?", "project": "web-app",
                    "description": "Two approvals, all checks green, touches the login flow."},
        "actions": [{"id": "merge", "label": "Merge as", "response_type": "choice",
                     "options": [{"value": "squash", "label": "Squash"},
                                 {"value": "rebase", "label": "Rebase"}]}]})
    post("ci", "CI", {
        "deadline": in_minutes(240),
        "context": {"title": "Retry the flaky integration suite?", "project": "backend-api",
                    "description": "Third failure this week in test_payments_refund."},
        "actions": [simple("Retry"), simple("Quarantine the test")]})
    post("cost-guard", "Cost Guard", {
        "context": {"title": "Raise this month's GPU budget?",
                    "description": "Training runs have used 91 % of the budget."},
        "actions": [{"id": "budget", "label": "New budget", "response_type": "number",
                     "constraints": {"min": 1000, "max": 10000, "step": 500, "unit": "USD"},
                     "flags": ["costly"]}]})
    return ids


def settled_request(admin):
    """A release request that alex, another person the bot asks, answers
    on another device while it is open here: returns (id, alex's token)."""
    auth = {"Authorization": f"Bearer {admin}"}
    status, alex = call("POST", "/api/v1/admin/users", {"id": "alex"}, auth)
    if status != 201:
        sys.exit(f"screenshots: could not add alex: {alex}")
    status, service = call("POST", "/api/v1/services",
                           {"name": "Release Bot", "recipients": ["default", "alex"]}, auth)
    if status != 201:
        sys.exit(f"screenshots: could not register the release bot: {service}")
    nid = post(service["service_id"], "Release Bot", {
        "deadline": in_minutes(45),
        "context": {"title": "Roll web-app 2.4.0 out to everyone?", "project": "web-app",
                    "description": "The canary has served 5 % of users for 30 minutes: "
                                   "error rate 0.2 %, p99 latency 410 ms."},
        "actions": [simple("Go ahead"), simple("Stop"),
                    {"id": "share", "label": "Canary share instead", "response_type": "number",
                     "constraints": {"min": 5, "max": 100, "step": 5, "unit": "%"}},
                    {"id": "note", "label": "Note for the team", "response_type": "text",
                     "constraints": {"max_length": 500}}]})
    return nid, alex["token"]


AITP_SCHEMA = "https://aitp.dev/v1/decisions/schema.json"


def aitp_quote(quote_id, amount):
    return {"type": "Quote", "quote_id": quote_id, "payee_id": "audio-shop",
            "payment_plans": [{"plan_id": f"{quote_id}-once", "plan_type": "one-time",
                               "amount": amount, "currency": "USD"}],
            "valid_until": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() + 3 * 86400))}


def aitp_requests():
    """An AITP-02 products decision and a confirmation from a shopping
    assistant: returns their ids."""
    headers = {"X-Triage-Service": "shop-assistant", "X-Triage-Service-Name": "Shop Assistant"}
    products = {"$schema": AITP_SCHEMA, "request_decision": {
        "id": "headphones-1", "title": "Which headphones should I order?",
        "description": "Three pairs fit your budget of $350 and arrive by Friday.",
        "type": "products", "options": [
            {"id": "jbl", "name": "JBL Tour One M2",
             "description": "Over-ear, adaptive noise cancelling, 50 hours of battery.",
             "five_star_rating": 4.2, "reviews_count": 132, "url": "https://example.com/jbl",
             "quote": aitp_quote("q-jbl", 199.5),
             "variants": [{"id": "jbl-black", "short_variant_name": "Black"},
                          {"id": "jbl-sand", "short_variant_name": "Sand",
                           "quote": aitp_quote("q-jbl-sand", 209)}]},
            {"id": "sony", "name": "Sony WH-1000XM5",
             "description": "Over-ear, the quietest of the three, folds flat.",
             "five_star_rating": 4.7, "reviews_count": 2210, "url": "https://example.com/sony",
             "quote": aitp_quote("q-sony", 329)},
            {"id": "bose", "name": "Bose QuietComfort Earbuds II",
             "description": "In-ear, for the gym and the train.",
             "five_star_rating": 3.5, "reviews_count": 87,
             "quote": aitp_quote("q-bose", 249)}]},
        "x-triage": {"project": "home", "deadline": in_minutes(90)}}
    confirmation = {"$schema": AITP_SCHEMA, "request_decision": {
        "id": "order-1", "title": "Place the order for $418.00?",
        "description": "JBL Tour One M2 (Sand) × 2, delivered Friday to your home address, "
                       "paid with the card ending in 4242.",
        "type": "confirmation", "options": [
            {"id": "yes", "name": "Place the order"},
            {"id": "no", "name": "Don't order"},
            {"id": "later", "name": "Remind me tonight"}]}}
    ids = {}
    for name, body in (("products", products), ("confirmation", confirmation)):
        status, reply = call("POST", "/api/v1/aitp/decisions", body, headers)
        if status != 201:
            sys.exit(f"screenshots: the server refused an AITP decision: {reply}")
        ids[name] = reply["id"]
    return ids


HISTORY = [
    ("Deploy Bot", "deploy-bot", "backend-api", "Deploy backend-api {} to production?"),
    ("Deploy Bot", "deploy-bot", "web-app", "Roll web-app {} out to 25 % of users?"),
    ("CI", "ci", "backend-api", "Retry the nightly build {}?"),
    ("Data Pipeline", "data-pipeline", "warehouse", "Backfill partition {} of the events table?"),
    ("Code Reviewer", "code-review", "web-app", "Merge pull request #{}?"),
    ("Cost Guard", "cost-guard", None, "Approve the spend of batch job {}?"),
]
OUTCOMES = ["answered"] * 7 + ["answered-elsewhere"] * 2 + ["expired", "invalidated"]
STATUS = {"answered": "responded", "answered-elsewhere": "responded", "expired": "expired",
          "invalidated": "invalidated"}


AFP_SPEC_1 = """# Dark mode

Add a dark mode to the user interface.

## Scope
- The main window

## Open questions
- Who picks the colours?
"""

AFP_SPEC_2 = """# Dark mode

Add a dark mode to the user interface, following the system's style.

## Scope
- The main window
- The preferences window
- The tray menu

## Contrast
- Text at least 4.5:1 against its background

## Open questions
- Who picks the colours?
"""


def afp_review():
    """An AFP 1.2 session of a spec writer: iteration 1 reviewed (two areas for
    improvement), then iteration 2 with the agent's applied_feedback.
    Returns the second review's id."""
    headers = {"X-Triage-Service": "spec-writer", "X-Triage-Service-Name": "Spec Writer"}
    first = {"request": {"protocol_version": "1.2", "iteration": 1,
                         "artifact": {"media_type": "text/markdown", "content": AFP_SPEC_1}},
             "title": "Dark mode spec", "project": "desktop"}
    status, reply = call("POST", "/api/v1/afp/reviews", first, headers)
    if status != 201:
        sys.exit(f"screenshots: the server refused an AFP review: {reply}")
    feedback = {"confidence": {"level": "medium", "justification": "Short spec, clear intent."},
                "positive_points": [{"aspect": "Clarity", "justification": "One goal, stated plainly."}],
                "areas_for_improvement": [
                    {"id": "scope-01", "aspect": "Scope",
                     "description": "Only the main window is named.",
                     "recommendation": "List every window and menu that changes."},
                    {"id": "accessibility-01", "aspect": "Accessibility",
                     "description": "Nothing says how readable the text stays.",
                     "recommendation": "Set a contrast ratio for text and icons."}],
                "general_summary": "A good start that needs its scope and contrast written down."}
    status, answer = call("POST", "/api/v1/client/respond",
                          {"notification_id": reply["id"], "action_id": "feedback",
                           "response_data": feedback}, {})
    if status != 200:
        sys.exit(f"screenshots: the feedback was refused: {answer}")
    second = {"request": {"protocol_version": "1.2", "iteration": 2,
                          "artifact": {"media_type": "text/markdown", "content": AFP_SPEC_2},
                          "applied_feedback": {"items": [
                              {"id": "scope-01", "status": "accepted",
                               "explanation": "Listed the preferences window and the tray menu."},
                              {"id": "accessibility-01", "status": "partial",
                               "reason_code": "pending_design",
                               "explanation": "Contrast for text is set; icons wait for the designers."}]}},
              "session_id": reply["session_id"], "title": "Dark mode spec", "project": "desktop"}
    status, reply = call("POST", "/api/v1/afp/reviews", second, headers)
    if status != 201:
        sys.exit(f"screenshots: the server refused the second iteration: {reply}")
    return reply["id"]


def fill_history():
    """Two months of past decisions, as the store would have recorded them."""
    wait_for("the app's database",
             lambda: os.path.exists(APP_DB) and sqlite3.connect(APP_DB).execute(
                 "SELECT count(*) FROM sqlite_master WHERE name = 'history_fts'").fetchone()[0])
    rand = random.Random(7)
    now = time.time()
    db = sqlite3.connect(APP_DB, timeout=10)
    for day in range(60, 0, -1):
        for _ in range(rand.randint(1, 5) if day > 30 else rand.randint(2, 9)):
            name, service, project, title = rand.choice(HISTORY)
            title = title.format(rand.randint(100, 999))
            created = now - day * 86400 + rand.randint(8 * 3600, 18 * 3600) - 12 * 3600
            outcome = rand.choice(OUTCOMES)
            nid = str(uuid.uuid4())
            note = {"id": nid, "version": "1.0",
                    "timestamp": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(created)),
                    "service": {"id": service, "name": name},
                    "context": {"title": title, "description": "A past request."},
                    "actions": [simple("Approve"), simple("Reject")], "status": "delivered"}
            if project:
                note["context"]["project"] = project
            answered = created + rand.choice([20, 45, 90, 180, 400, 900, 2400]) \
                if outcome.startswith("answered") else None
            usec = lambda t: int(t * 1e6) if t else None  # noqa: E731
            db.execute("INSERT INTO notifications (id, service_id, service_name, project, title,"
                       " json, status, created_at, first_seen, updated_at, outcome, action_id,"
                       " response_data, responder_id, responder_type, answered_at, delivered_at)"
                       " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                       (nid, service, name, project, title, json.dumps(note), STATUS[outcome],
                        usec(created), usec(created), usec(answered or created + 3600), outcome,
                        "approve" if answered else None, "null" if answered else None,
                        "alex" if outcome == "answered-elsewhere" else None,
                        "human" if answered else None, usec(answered), usec(answered)))
    db.commit()
    db.close()


def gdbus(*args):
    subprocess.run(["gdbus", "call", "--session", *args], check=True, stdout=subprocess.DEVNULL)


def app_on_bus():
    reply = subprocess.run(["gdbus", "call", "--session", "--dest", "org.freedesktop.DBus",
                            "--object-path", "/org/freedesktop/DBus", "--method",
                            "org.freedesktop.DBus.NameHasOwner", APP_ID],
                           capture_output=True, text=True)
    return "true" in reply.stdout


def start_app(width=WIDTH, height=HEIGHT, **env):
    settings = os.path.join(os.environ["XDG_CONFIG_HOME"], "glib-2.0", "settings")
    os.makedirs(settings, exist_ok=True)
    with open(os.path.join(settings, "keyfile"), "w") as f:
        f.write(f"[io/github/atptriage/Triage]\nwindow-width={width}\nwindow-height={height}\n"
                "background-notice-shown=true\n")
    app = subprocess.Popen([os.path.join(BUILD, "src", "app", "triage")],
                           env={**os.environ, **env}, stdin=subprocess.DEVNULL)
    wait_for("the app on the bus", app_on_bus)
    return app


def quit_app(app):
    gdbus("--dest", APP_ID, "--object-path", APP_PATH, "--method", "org.gtk.Actions.Activate",
          "quit", "[]", "{}")
    app.wait(timeout=10)


def open_request(nid):
    gdbus("--dest", APP_ID, "--object-path", APP_PATH, "--method", "org.gtk.Actions.Activate",
          "open-request", f"[<'{nid}'>]", "{}")


def shot(name, width=WIDTH, height=HEIGHT):
    time.sleep(2.5)   # connected, listed, drawn
    path = os.path.join(OUT, name)
    subprocess.run(["import", "-window", "root", "-crop", f"{width}x{height}+0+0", "+repage",
                    path], check=True)
    print(f"screenshots: {path}", flush=True)


def triage_node():
    return wait_for("triage on the accessibility bus",
                    lambda: next((a for a in a11y_root.applications() if a.name == "triage"),
                                 None))


def keys(combo):
    """A key press for the window under the pointer (there is no window
    manager: the keyboard goes where the pointer is)."""
    rawinput.absoluteMotion(600, 400)
    time.sleep(0.3)
    rawinput.keyCombo(combo)


def set_text_dpi(dpi):
    """Xft.dpi in the X resources, which GDK reads for gtk-xft-dpi when no
    settings daemon runs (none does here)."""
    import ctypes
    x11 = ctypes.CDLL("libX11.so.6")
    x11.XOpenDisplay.restype = ctypes.c_void_p
    x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
    x11.XDefaultRootWindow.restype = ctypes.c_ulong
    x11.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
    x11.XInternAtom.restype = ctypes.c_ulong
    x11.XInternAtom.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
    x11.XChangeProperty.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_ulong,
                                    ctypes.c_ulong, ctypes.c_int, ctypes.c_int,
                                    ctypes.c_char_p, ctypes.c_int]
    x11.XCloseDisplay.argtypes = [ctypes.c_void_p]
    display = x11.XOpenDisplay(None)
    data = f"Xft.dpi:\t{dpi}\n".encode()
    x11.XChangeProperty(display, x11.XDefaultRootWindow(display),
                        x11.XInternAtom(display, b"RESOURCE_MANAGER", 0),
                        31, 8, 0, data, len(data))   # XA_STRING, PropModeReplace
    x11.XCloseDisplay(display)


def click(app_node, role, name):
    node = wait_for(f"{role} {name!r}", lambda: app_node.findChild(
        GenericPredicate(name=name, roleName=role), retry=False, requireResult=False))
    node.click()


def main():
    admin = uuid.uuid4().hex
    token_file = os.path.join(os.environ["XDG_RUNTIME_DIR"], "admin-token")
    with open(os.open(token_file, os.O_WRONLY | os.O_CREAT, 0o600), "w") as f:
        f.write(admin)
    server = subprocess.Popen([os.environ["TRIAGE_SERVER"], "--local", "--database",
                               os.path.join(os.environ["XDG_DATA_HOME"], "server.db"),
                               "--admin-token-file", token_file],
                              stdout=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
    try:
        wait_for("the server's socket", lambda: os.path.exists(SOCKET))
        time.sleep(0.3)
        ids = post_requests()

        app = start_app()
        fill_history()
        open_request(ids["deploy"])
        shot("inbox.png")

        node = triage_node()
        keys("<Alt>2")
        shot("history.png")

        keys("<Alt>1")
        time.sleep(1)
        click(node, "label", "rollout-plan.json")
        shot("preview.png")
        quit_app(app)

        # Open here, answered by alex on another device: the view says so.
        nid, alex = settled_request(admin)
        app = start_app(WIDTH, SETTLED_HEIGHT)
        open_request(nid)
        time.sleep(2)
        status, reply = call("POST", "/api/v1/client/respond",
                             {"notification_id": nid, "action_id": "share", "response_data": 25},
                             {"Authorization": f"Bearer {alex}"})
        if status != 200:
            sys.exit(f"screenshots: alex's answer was refused: {reply}")
        shot("settled.png", WIDTH, SETTLED_HEIGHT)
        quit_app(app)

        # AITP-02: products with a variant picked and a quantity set, and a confirmation.
        aitp = aitp_requests()
        app = start_app(WIDTH, AITP_HEIGHT)
        node = triage_node()
        open_request(aitp["products"])
        picker = wait_for("the variant picker", lambda: node.findChild(
            lambda n: n.name == "Variant" and n.roleName != "label", retry=False,
            requireResult=False))
        picker.click()
        time.sleep(0.5)
        rawinput.pressKey("Down")
        rawinput.pressKey("Return")
        quantity = wait_for("the quantity of the sand JBL", lambda: node.findChild(
            GenericPredicate(name="Quantity of JBL Tour One M2 (Sand)", roleName="spin button"),
            retry=False, requireResult=False))
        quantity.value = 2
        click(node, "check box", "Choose JBL Tour One M2 (Sand)")
        rawinput.absoluteMotion(WIDTH + 50, 10)     # no pointer over the cards
        shot("aitp-products.png", WIDTH, AITP_HEIGHT)
        quit_app(app)
        app = start_app()
        node = triage_node()
        open_request(aitp["confirmation"])
        wait_for("the confirmation", lambda: node.findChild(
            GenericPredicate(name="Place the order", roleName="push button"),
            retry=False, requireResult=False))
        shot("aitp-confirmation.png", WIDTH, HEIGHT)
        quit_app(app)

        # AFP 1.2, iteration 2: the changes since iteration 1 and the agent's
        # decisions beside the person's earlier items.
        review = afp_review()
        app = start_app(WIDTH, AFP_HEIGHT)
        node = triage_node()
        open_request(review)
        wait_for("the agent's decisions", lambda: node.findChild(
            GenericPredicate(name="Partly applied", roleName="label"),
            retry=False, requireResult=False))
        shot("afp-review.png", WIDTH, AFP_HEIGHT)
        quit_app(app)

        if os.environ.get("SCREENSHOT_VARIANTS") == "1":
            for name, size, env in [("inbox-dark.png", (WIDTH, HEIGHT),
                                     {"ADW_DEBUG_COLOR_SCHEME": "prefer-dark"}),
                                    ("inbox-narrow.png", (360, 720), {}),
                                    ("inbox-large-text.png", (WIDTH, HEIGHT), {"LARGE": "1"})]:
                set_text_dpi(144 if env.pop("LARGE", None) else 96)
                app = start_app(*size, **env)
                open_request(ids["deploy"])
                shot(name, *size)
                quit_app(app)
    finally:
        server.terminate()
        server.wait()


main()
