#!/usr/bin/python3
# apptest.py — helpers for the tests that drive the real triage binary: a real
# triage-server in a private runtime folder, REST over its socket, or on
# 127.0.0.1 (with TLS if asked) with tokens; the app in remote mode and its
# user token in the keyring; the fake notification server's log and control
# interface, and the app's own database. tests/chaos uses them too.
#
# Copyright 2026 The Triage authors
# SPDX-License-Identifier: GPL-3.0-or-later

import ctypes
import http.client
import json
import os
import pty
import resource
import secrets
import select
import shutil
import signal
import socket
import sqlite3
import ssl
import subprocess
import sys
import tempfile
import threading
import time
import uuid

# How long a wait may take before it fails the test: a bound, not a speed,
# as long as the C tests' (TRIAGE_TEST_WATCHDOG_S, APP_TEST_WAIT_MS); the
# chaos tests set 90.
WAIT = float(os.environ.get("APPTEST_WAIT", "30"))
TLS_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "server", "tls")

# Descriptions a bubble shows whole or not by its lines (5 of 40 characters),
# not by a count of characters: five full lines, 203 characters with their
# breaks, are shown whole; eight short lines, fewer characters, are cut (the
# bubble says the first five, "…" after them).
FIVE_FULL_LINES = "\n".join(["Remove the build caches of this project:",
                               "the folders /tmp/build, /var/tmp/build,",
                               "and the logs of last month in ~/logs/old",
                               "Nothing else is touched; the sources and",
                               "the releases stay as they are right now."])
EIGHT_SHORT_LINES = "Clean up:\n/tmp\n/var/tmp\n~/.cache\n~/build\n~/src\n~/old\nand delete ~/"
EIGHT_SHORT_LINES_SHOWN = "Clean up:\n/tmp\n/var/tmp\n~/.cache\n~/build…"


class Failure(Exception):
    pass


_libc = ctypes.CDLL(None, use_errno=True)
_PR_SET_PDEATHSIG = 1


def die_with_parent():
    """preexec_fn: the child gets SIGKILL when this test process ends, however it
    ends, so a failed test never leaves a server or an app holding its output."""
    _libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)


def wait_for(what, predicate, timeout=WAIT, interval=0.02):
    """Polls predicate() until it returns a true value; fails after timeout."""
    end = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > end:
            raise Failure(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(interval)


def read_log(path):
    """The events of a fake's JSON Lines log (fake-notifyd.py,
    fake-sni-watcher.py). The fake may be writing a line as it is read, and a
    reader can see part of it: only whole lines count (a half line read as
    JSON once failed a tray test, "Expecting value: line 1 column 205")."""
    with open(path) as f:
        text = f.read()
    return [json.loads(line) for line in text.split("\n")[:-1] if line.strip()]


class UnixHTTPConnection(http.client.HTTPConnection):
    def __init__(self, path, timeout=10):
        super().__init__("localhost", timeout=timeout)
        self.socket_path = path

    def connect(self):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(self.timeout)
        self.sock.connect(self.socket_path)


class World:
    """A private HOME/XDG tree shared by one server and one app."""

    def __init__(self, name):
        self.root = tempfile.mkdtemp(prefix=f"triage-{name}-")
        self.runtime = os.path.join(self.root, "runtime")
        os.makedirs(self.runtime, mode=0o700)
        self.data = os.path.join(self.root, "data")
        self.config = os.path.join(self.root, "config")
        os.makedirs(self.data)
        os.makedirs(self.config)
        self.socket = os.path.join(self.runtime, "triage", "triage.sock")
        self.server_db = os.path.join(self.root, "server.db")
        self.app_db = os.path.join(self.data, "triage", "triage.db")

    def env(self, **extra):
        env = dict(os.environ)
        env.update({
            "HOME": self.root,
            "XDG_RUNTIME_DIR": self.runtime,
            "XDG_DATA_HOME": self.data,
            "XDG_CONFIG_HOME": self.config,
            "XDG_CACHE_HOME": os.path.join(self.root, "cache"),
            "XDG_STATE_HOME": os.path.join(self.root, "state"),   # a started server's log
            "GSETTINGS_BACKEND": "memory",
        })
        for key, value in extra.items():
            if value is None:
                env.pop(key, None)      # e.g. GTK_A11Y, for a test that drives AT-SPI
            else:
                env[key] = value
        return env

    def find_server(self):
        """The pid of a triage-server running in this world (e.g. one the app
        started), or None."""
        return self.find_process(b"triage-server")

    def find_process(self, program):
        """The pid of a program (bytes, its file name) running in this world, or None."""
        for pid in os.listdir("/proc"):
            if not pid.isdigit():
                continue
            try:
                with open(f"/proc/{pid}/environ", "rb") as f:
                    environ = f.read().split(b"\0")
                with open(f"/proc/{pid}/cmdline", "rb") as f:
                    cmdline = f.read().split(b"\0")
            except OSError:
                continue
            if (b"XDG_RUNTIME_DIR=" + self.runtime.encode()) in environ and \
                    os.path.basename(cmdline[0]) == program:
                return int(pid)
        return None

    def stop_servers(self, program=b"triage-server"):
        """Ends the servers (or other programs) running in this world, so none
        outlives its test."""
        while (pid := self.find_process(program)) is not None:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            for _ in range(100):
                if not os.path.exists(f"/proc/{pid}/cmdline") or \
                        open(f"/proc/{pid}/cmdline", "rb").read() == b"":
                    break
                time.sleep(0.02)

    def cleanup(self):
        shutil.rmtree(self.root, ignore_errors=True)


class Server:
    """A real triage-server in local mode on the world's socket and database
    (extra_args: more options, e.g. --admin-token-file; socket: another socket,
    where the app does not look)."""

    def __init__(self, world, *extra_args, socket=None):
        self.world = world
        self.extra_args = list(extra_args)
        self.socket = socket or world.socket
        self.proc = None

    def start(self):
        args = [os.environ["TRIAGE_SERVER"], "--local", "--database", self.world.server_db,
                "--print-address", "--heartbeat-interval", "2", *self.extra_args]
        if self.socket != self.world.socket:
            args += ["--socket", self.socket]
        self.proc = subprocess.Popen(args, env=self.world.env(), stdout=subprocess.PIPE,
                                     stdin=subprocess.DEVNULL, text=True,
                                     preexec_fn=die_with_parent)
        line = self.proc.stdout.readline()
        if not line.startswith("listening on"):
            self.proc.kill()
            raise Failure(f"triage-server did not start (said {line!r})")
        # Keep reading so a later line never blocks the server.
        return self

    def stop(self, sig=signal.SIGTERM):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(sig)
            self.proc.wait(timeout=10)
        self.proc = None

    def kill(self):
        self.stop(signal.SIGKILL)

    def request(self, method, path, body=None, service="tests", headers=None):
        conn = UnixHTTPConnection(self.socket)
        hdrs = {"X-Triage-Service": service, "X-Triage-Service-Name": "Test Bot"}
        hdrs.update(headers or {})
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            hdrs["Content-Type"] = "application/json"
        conn.request(method, path, body=data, headers=hdrs)
        reply = conn.getresponse()
        raw = reply.read()
        conn.close()
        return reply.status, (json.loads(raw) if raw else None)

    def answers(self):
        """Whether a server answers on the world's socket (whoever started it)."""
        try:
            return self.request("GET", "/api/v1/client/notifications")[0] == 200
        except OSError:
            return False

    def post(self, title, actions=None, deadline_in=None, description="Please decide.",
             service="tests"):
        nid = str(uuid.uuid4())
        body = {"id": nid,
                "context": {"title": title, "description": description},
                "actions": actions or [{"id": "ok", "label": "OK", "response_type": "simple"}]}
        if deadline_in is not None:
            t = time.gmtime(time.time() + deadline_in)
            body["deadline"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", t)
        status, reply = self.request("POST", "/api/v1/notifications", body, service=service)
        if status != 201:
            raise Failure(f"POST /api/v1/notifications: {status} {reply}")
        return nid

    def get(self, nid, service="tests"):
        status, reply = self.request("GET", f"/api/v1/notifications/{nid}", service=service)
        if status != 200:
            raise Failure(f"GET /api/v1/notifications/{nid}: {status} {reply}")
        return reply

    def respond_as_client(self, nid, action_id, data=None, token=None):
        """Answers as a client: the trusted socket's user, or a user's token."""
        return self.request("POST", "/api/v1/client/respond",
                            {"notification_id": nid, "action_id": action_id,
                             "response_data": data},
                            headers={"Authorization": f"Bearer {token}"} if token else None)

    def wait_responded(self, nid, service="tests"):
        return wait_for(f"the server to record an answer to {nid}",
                        lambda: (lambda n: n if n.get("status") == "responded" else None)(
                            self.get(nid, service)))


class App:
    """The real triage binary: in the background (--gapplication-service), or
    with service=False started as a person starts it (its window opens). With
    debug (G_MESSAGES_DEBUG's domains), what it writes goes to a log file of
    its own, read with log_lines () and wait_log (): GLib writes debug lines
    on standard output, which is the test's TAP otherwise."""

    def __init__(self, world, *args, service=True, debug=None, **env):
        self.world = world
        self.args = (["--gapplication-service"] if service else []) + list(args)
        self.env = env
        self.proc = None
        self.log_file = None
        if debug is not None:
            self.env["G_MESSAGES_DEBUG"] = debug
            self.log_file = tempfile.NamedTemporaryFile(mode="w+", prefix="app-", suffix=".log",
                                                        dir=world.root, delete=False)

    def start(self):
        self.proc = subprocess.Popen([os.environ["TRIAGE_APP"], *self.args],
                                     env=self.world.env(**self.env), stdin=subprocess.DEVNULL,
                                     stdout=self.log_file, stderr=self.log_file,
                                     preexec_fn=self.preexec)
        return self

    def preexec(self):
        """Runs in the app's process before it starts."""
        die_with_parent()

    def log_lines(self):
        """The whole lines of its log, this run's and those before."""
        if self.log_file is None:
            raise Failure("the app keeps no log: make it with App(…, debug=\"domains\")")
        with open(self.log_file.name) as f:
            text = f.read()
        return text.split("\n")[:-1]

    def wait_log(self, what, needle, start=0):
        """The first line of its log from line @start on holding @needle,
        waited for; fails at once, with the log's end, if the app exits."""
        def found():
            line = next((line for line in self.log_lines()[start:] if needle in line), None)
            if line is None:
                self.alive()
            return line
        return wait_for(what, found)

    def kill(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)
        self.proc = None

    def stop(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None

    def alive(self):
        """Fails if the app has exited (with the end of its log, if it keeps one)."""
        if self.proc is None or self.proc.poll() is not None:
            status = None if self.proc is None else self.proc.returncode
            tail = "" if self.log_file is None else ":\n" + "\n".join(self.log_lines()[-30:])
            raise Failure(f"the app is not running (exit status {status}){tail}")

    def read_db(self, sql):
        """The rows of @sql on the app's database, read only, as another
        process reads it: none before the database or its table exists."""
        if not os.path.exists(self.world.app_db):
            return []
        db = sqlite3.connect(f"file:{self.world.app_db}?mode=ro", uri=True, timeout=5)
        try:
            return db.execute(sql).fetchall()
        except sqlite3.OperationalError:
            return []
        finally:
            db.close()

    def outbox(self):
        """The app's outbox rows, read straight from its database."""
        return self.read_db("SELECT notification_id, action_id, response_data, state FROM outbox")

    def drafts(self):
        """The app's stored drafts, {request id: JSON text}."""
        return dict(self.read_db("SELECT notification_id, json FROM drafts"))


class FullDiskApp(App):
    """The real app, in which a write over its file size limit fails (EFBIG,
    as on a full disk) instead of killing it with SIGXFSZ: fill_disk () drops
    the limit (RLIMIT_FSIZE) to 0 while it runs, free_disk () gives it back."""

    def preexec(self):
        super().preexec()
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)

    def fill_disk(self):
        """Returns the limit it had, for free_disk ()."""
        limit = resource.prlimit(self.proc.pid, resource.RLIMIT_FSIZE)
        resource.prlimit(self.proc.pid, resource.RLIMIT_FSIZE, (0, limit[1]))
        return limit

    def free_disk(self, limit):
        resource.prlimit(self.proc.pid, resource.RLIMIT_FSIZE, limit)


class TcpServer:
    """A real triage-server on 127.0.0.1, a port of its own kept across
    restarts, with an admin token (extra_args: more options; env: changes to
    its environment). Its database is the world's (server_db), or with @name
    one of its own in the world (two servers side by side). With tls=True it
    serves its self-signed test certificate (tests/server/tls), reached as
    https://localhost, which this computer does not trust."""

    def __init__(self, world, *extra_args, name=None, tls=False, env=None):
        self.world = world
        self.extra_args = list(extra_args)
        self.tls = tls
        self.env = env or {}
        self.database = os.path.join(world.root, f"{name}.db") if name else world.server_db
        self.admin_token = secrets.token_hex(16)
        self.token_file = os.path.join(world.root, f"{name}-admin-token" if name else "admin-token")
        with open(self.token_file, "w") as f:
            f.write(self.admin_token)
        self.port = 0
        self.proc = None

    def start(self):
        # The same port after a restart: the app's address stays right.
        args = [os.environ["TRIAGE_SERVER"], "--listen", f"127.0.0.1:{self.port}",
                "--database", self.database, "--admin-token-file", self.token_file,
                "--print-address", "--no-limits", "--heartbeat-interval", "2", *self.extra_args]
        if self.tls:
            args += ["--tls-certificate", os.path.join(TLS_DIR, "cert.pem"),
                     "--tls-key", os.path.join(TLS_DIR, "key.pem")]

        def child():
            die_with_parent()
            # A write over the file size limit fails with EFBIG instead of killing.
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)

        self.proc = subprocess.Popen(args, env=self.world.env(**self.env), stdout=subprocess.PIPE,
                                     stdin=subprocess.DEVNULL, text=True, preexec_fn=child)
        line = self.proc.stdout.readline()
        if "://127.0.0.1:" not in line:
            self.proc.kill()
            self.proc.wait()
            raise Failure(f"triage-server did not start (said {line!r})")
        self.port = int(line.strip().rsplit(":", 1)[1].rstrip("/"))
        threading.Thread(target=lambda out: [None for _ in out], args=(self.proc.stdout,),
                         daemon=True).start()   # later lines never block the server
        return self

    @property
    def url(self):
        return f"https://localhost:{self.port}" if self.tls else f"http://127.0.0.1:{self.port}"

    def kill(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=30)
        self.proc = None

    stop = kill

    def request(self, method, path, body=None, token=None, timeout=30):
        """One request (the admin token unless @token); its status and answer."""
        if self.tls:
            context = ssl.create_default_context(cafile=os.path.join(TLS_DIR, "cert.pem"))
            conn = http.client.HTTPSConnection("localhost", self.port, timeout=timeout,
                                               context=context)
        else:
            conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        headers = {"Authorization": f"Bearer {token or self.admin_token}"}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        conn.request(method, path, body=data, headers=headers)
        reply = conn.getresponse()
        raw = reply.read()
        conn.close()
        return reply.status, (json.loads(raw) if raw else None)

    def checked(self, method, path, body=None, token=None, want=(200, 201)):
        status, reply = self.request(method, path, body, token)
        if status not in want:
            raise Failure(f"{method} {path}: {status} {reply}")
        return reply

    def user(self, uid):
        return self.checked("POST", "/api/v1/admin/users", {"id": uid})["token"]

    def service(self, name, recipients, callback_url=None):
        body = {"name": name, "description": name, "recipients": recipients}
        if callback_url:
            body["callback_url"] = callback_url
        return self.checked("POST", "/api/v1/services", body)["api_key"]

    def post(self, key, title, nid=None, want=(201,), description="Please decide."):
        """Posts a request as the service of @key; its id and the answer."""
        nid = nid or str(uuid.uuid4())
        body = {"id": nid, "context": {"title": title, "description": description},
                "actions": [{"id": "ok", "label": "OK", "response_type": "simple"}]}
        return nid, self.checked("POST", "/api/v1/notifications", body, token=key, want=want)

    def respond(self, token, nid, want=(200,)):
        return self.checked("POST", "/api/v1/client/respond",
                            {"notification_id": nid, "action_id": "ok"}, token=token, want=want)


def start_keyring():
    """A gnome-keyring of the test's own on its private bus (that of
    tests/fake-notifyd.py --private-bus), its "login" keyring unlocked and the
    default collection, so tokens can be stored without a prompt. It ends
    with the bus."""
    home = tempfile.mkdtemp(prefix="triage-keyring-")
    runtime = os.path.join(home, "runtime")
    os.makedirs(runtime, mode=0o700)
    env = dict(os.environ, HOME=home, XDG_DATA_HOME=os.path.join(home, "data"),
               XDG_RUNTIME_DIR=runtime, XDG_CONFIG_HOME=os.path.join(home, "config"))
    for name in ("GNOME_KEYRING_CONTROL", "SSH_AUTH_SOCK", "G_DEBUG"):
        env.pop(name, None)
    # It forks and stays on the bus.
    subprocess.run(["gnome-keyring-daemon", "--unlock", "--components=secrets"],
                   input=b"test-keyring-pw", env=env, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, check=True, timeout=30)

    import gi
    gi.require_version("Gio", "2.0")
    from gi.repository import Gio, GLib

    bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)

    def default_collection():
        try:
            path = bus.call_sync("org.freedesktop.secrets", "/org/freedesktop/secrets",
                                 "org.freedesktop.Secret.Service", "ReadAlias",
                                 GLib.Variant("(s)", ("default",)), None,
                                 Gio.DBusCallFlags.NO_AUTO_START, 2000, None).unpack()[0]
        except GLib.Error:
            return None
        return path if path.startswith("/org/freedesktop/secrets/collection/") else None
    wait_for("the keyring's default collection", default_collection)


def store_token(url, token):
    """The user's token in the keyring, where the app looks for it."""
    import gi
    gi.require_version("Secret", "1")
    from gi.repository import Secret
    schema = Secret.Schema.new("io.github.atptriage.Triage.UserToken", Secret.SchemaFlags.NONE,
                               {"server": Secret.SchemaAttributeType.STRING})
    if not Secret.password_store_sync(schema, {"server": url}, Secret.COLLECTION_DEFAULT,
                                      f"Triage token for {url}", token, None):
        raise Failure("could not store the token in the keyring")


class RemoteApp(App):
    """The real app in remote mode at @url (settings in a key file, with
    @settings: more keys, their GVariant text); its stream's log
    (G_MESSAGES_DEBUG=atp-stream) kept in a file, where each try of the stream
    that ends says so. With a11y=True it is on the accessibility bus (for
    dogtail); service=False opens its window as a person's start does."""

    def __init__(self, world, url, service=True, a11y=False, settings=None, **env):
        if a11y:
            # test_env sets GTK_A11Y=none, which hides the app from AT-SPI: dropped.
            env = dict(dict(GTK_A11Y=None, NO_AT_BRIDGE=None), **env)
        super().__init__(world, service=service, debug="atp-stream",
                         GSETTINGS_BACKEND="keyfile", **env)
        folder = os.path.join(world.config, "glib-2.0", "settings")
        os.makedirs(folder, exist_ok=True)
        keys = {"server-mode": "'remote'", "server-url": f"'{url}'", **(settings or {})}
        with open(os.path.join(folder, "keyfile"), "w") as f:
            f.write("[io/github/atptriage/Triage]\n")
            f.writelines(f"{key}={value}\n" for key, value in keys.items())

    def tries_ended(self):
        """How many of the stream's tries have ended (each logs why)."""
        return sum(1 for line in self.log_lines() if "Stream to " in line and " ended: " in line)


def read_marks(world):
    """The requests the app has marked read, from its database."""
    if not os.path.exists(world.app_db):
        return set()
    db = sqlite3.connect(f"file:{world.app_db}?mode=ro", uri=True, timeout=5)
    try:
        return {row[0] for row in db.execute("SELECT notification_id FROM triage_read")}
    except sqlite3.OperationalError:
        return set()
    finally:
        db.close()


class Notifyd:
    """The fake notification server this test runs under (tests/fake-notifyd.py)."""

    def __init__(self):
        self.log = os.environ["FAKE_NOTIFYD_LOG"]
        import gi
        gi.require_version("Gio", "2.0")
        from gi.repository import Gio, GLib
        self.Gio, self.GLib = Gio, GLib
        self.bus = Gio.bus_get_sync(Gio.BusType.SESSION)

    def events(self):
        try:
            return read_log(self.log)
        except FileNotFoundError:
            return []

    def notifies(self, part):
        return [e for e in self.events() if e["event"] == "Notify" and part in e["summary"]]

    def wait_notify(self, part):
        found = wait_for(f"a notification for {part!r}", lambda: self.notifies(part))
        return found[-1]

    def closed(self, nid):
        return [e for e in self.events()
                if e["event"] in ("CloseNotification", "NotificationClosed") and e["id"] == nid]

    def wait_withdrawn(self, nid):
        return wait_for(f"bubble {nid} to be withdrawn",
                        lambda: [e for e in self.events()
                                 if e["event"] == "CloseNotification" and e["id"] == nid])

    def said(self, nid):
        """What bubble nid says now: its last Notify (a replacement keeps the id)."""
        found = [e for e in self.events() if e["event"] == "Notify" and e["id"] == nid]
        return found[-1] if found else None

    def wait_says(self, nid, prefix):
        """Waits until bubble nid says something starting with prefix (the
        app replaces a settled request's bubble with what became of it)."""
        return wait_for(f"bubble {nid} to say {prefix!r}",
                        lambda: (lambda e: e if e and e["body"].startswith(prefix) else None)(
                            self.said(nid)))

    def activate(self, action, *parameter, app_id="io.github.atptriage.Triage"):
        """Activates app.@action of the running app over D-Bus, as a bubble
        click does (open-request with a request's id)."""
        path = "/" + app_id.replace(".", "/")
        self.bus.call_sync(app_id, path, "org.gtk.Actions", "Activate",
                           self.GLib.Variant("(sava{sv})",
                                             (action, [self.GLib.Variant("s", p) for p in parameter],
                                              {})),
                           None, self.Gio.DBusCallFlags.NONE, 5000, None)

    def press(self, nid, key):
        self.bus.call_sync("org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                           "io.github.atptriage.Triage.FakeNotifyd", "InvokeAction",
                           self.GLib.Variant("(us)", (nid, key)), None,
                           self.Gio.DBusCallFlags.NONE, 5000, None)


class Tray:
    """The tray host this test plays, under tests/fake-sni-watcher.py (which
    registers items and logs them): it reads an item's properties and menu and
    clicks menu items itself, over the session bus."""

    ITEM = "org.kde.StatusNotifierItem"
    MENU = "com.canonical.dbusmenu"

    def __init__(self, bus):
        self.log = os.environ["FAKE_SNI_WATCHER_LOG"]
        import gi
        gi.require_version("Gio", "2.0")
        from gi.repository import Gio, GLib
        self.Gio, self.GLib = Gio, GLib
        self.bus = bus

    def events(self):
        try:
            return read_log(self.log)
        except FileNotFoundError:
            return []

    def wait_registered(self, known=()):
        """The bus name of an item registered with the watcher, not one of @known."""
        return wait_for("a status icon registered with the tray",
                        lambda: next((e["bus_name"] for e in reversed(self.events())
                                      if e["event"] == "Registered"
                                      and e["bus_name"] not in known), None))

    def registered(self):
        return [e["bus_name"] for e in self.events() if e["event"] == "Registered"]

    def _call(self, name, path, iface, method, args, reply):
        return self.bus.call_sync(name, path, iface, method, args,
                                  self.GLib.VariantType.new(reply), self.Gio.DBusCallFlags.NONE,
                                  5000, None).unpack()

    def properties(self, name):
        (props,) = self._call(name, "/StatusNotifierItem", "org.freedesktop.DBus.Properties",
                              "GetAll", self.GLib.Variant("(s)", (self.ITEM,)), "(a{sv})")
        return props

    def menu(self, name):
        """[(id, label, props)] of the menu's top level, separators left out."""
        _, layout = self._call(name, "/MenuBar", self.MENU, "GetLayout",
                               self.GLib.Variant("(iias)", (0, -1, [])), "(u(ia{sv}av))")
        items = []
        for child in layout[2]:
            item_id, props, _ = child
            if props.get("type") == "separator":
                continue
            items.append((item_id, props.get("label", ""), props))
        return items

    def click(self, name, label):
        """Clicks the menu item whose label is or starts with @label."""
        for item_id, text, _ in self.menu(name):
            if text == label or text.startswith(label):
                self._call(name, "/MenuBar", self.MENU, "Event",
                           self.GLib.Variant("(isvu)", (item_id, "clicked",
                                                        self.GLib.Variant("i", 0), 0)), "()")
                return
        raise Failure(f"no menu item {label!r} in {[t for _, t, _ in self.menu(name)]}")


class Terminal:
    """A program on a pseudo-terminal of its own, whose session it leads:
    everything it writes, as it writes it (tests/cli: start.sh, triage-ask)."""

    def __init__(self, argv, env, cwd=None):
        self.argv = argv
        self.output = b""
        self.held = True          # some process still holds the terminal
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            if cwd is not None:
                os.chdir(cwd)
            os.execve(argv[0], argv, env)

    def read(self, timeout=0.1):
        """What is there within @timeout; False once no process holds the terminal."""
        if self.held and select.select([self.fd], [], [], timeout)[0]:
            try:
                data = os.read(self.fd, 65536)
            except OSError:       # EIO: every process on the terminal has let it go
                data = b""
            self.output += data
            self.held = bool(data)
        return self.held

    def text(self):
        return self.output.decode(errors="replace")

    def wait_output(self, what, needle, timeout=60):
        def seen():
            self.read()
            return needle in self.text()
        try:
            wait_for(what, seen, timeout=timeout)
        except Failure as e:
            raise Failure(f"{e}; the terminal shows:\n{self.text()}") from None

    def wait_exit(self, timeout=30):
        """The program's wait status, once it has ended and what it wrote last is read."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            self.read()
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                while self.read():
                    if not select.select([self.fd], [], [], 0.2)[0]:
                        break
                return status
        raise Failure(f"{' '.join(self.argv)} still runs after {timeout} s; "
                      f"the terminal shows:\n{self.text()}")

    def close(self):
        try:
            os.kill(self.pid, 9)
            os.waitpid(self.pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass
        os.close(self.fd)


def skip_without_display():
    """Ends a test that starts the app, a GTK one, as skipped (TAP) when there
    is no display to open: it fails otherwise, the app gone at its start."""
    if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        print("1..0 # SKIP no display (neither DISPLAY nor WAYLAND_DISPLAY is set) for the "
              "app; build-aux/run-headless.sh gives one", flush=True)
        sys.exit(0)


def run(tests):
    """Runs (name, function) pairs and prints TAP."""
    print(f"1..{len(tests)}", flush=True)
    failed = 0
    for number, (name, function) in enumerate(tests, 1):
        try:
            function()
            print(f"ok {number} {name}", flush=True)
        except Exception as e:  # noqa: BLE001 — every failure is reported, the rest still run
            failed += 1
            print(f"not ok {number} {name}", flush=True)
            for line in f"{type(e).__name__}: {e}".splitlines():
                print(f"# {line}", flush=True)
    sys.exit(1 if failed else 0)
