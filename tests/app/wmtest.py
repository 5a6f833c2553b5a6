#!/usr/bin/python3
# wmtest.py — an X display of the test's own (Xvfb) where the test plays the
# window manager, one that keeps the focus where it is until the person
# clicks a window: what the app's window does when it is shown but not looked
# at, which the session's display cannot show.
#
# Under the session's Xvfb no window manager runs. GTK 4.8 then gives a
# window it presents the X input focus itself (gdk_x11_surface_focus():
# XSetInputFocus when no window manager supports _NET_ACTIVE_WINDOW), so a
# window opened there is active at once; and the other UI tests' windows,
# on the same display at the same time, take the focus as they come. Here
# the test claims _NET_ACTIVE_WINDOW (EWMH): GTK asks it to activate the
# window, a request it leaves unanswered, as a window manager's focus-stealing
# prevention does; the focus stays on a window of the test's until focus()
# gives it to the app's window, as a click would.
#
# Copyright 2026 The Triage authors
# SPDX-License-Identifier: GPL-3.0-or-later

import ctypes
import ctypes.util
import os
import shutil
import subprocess
import tempfile

from apptest import WAIT, Failure, die_with_parent, wait_for

_XA_ATOM = 4
_XA_WINDOW = 33
_PROP_MODE_REPLACE = 0
_INPUT_ONLY = 2
_REVERT_TO_POINTER_ROOT = 1
_CURRENT_TIME = 0


def _xlib():
    """libX11 through ctypes (GTK's own dependency: no Python binding needed)."""
    x = ctypes.CDLL(ctypes.util.find_library("X11"))
    d, w, a = ctypes.c_void_p, ctypes.c_ulong, ctypes.c_ulong
    x.XOpenDisplay.restype = d
    x.XOpenDisplay.argtypes = [ctypes.c_char_p]
    x.XDefaultRootWindow.restype = w
    x.XDefaultRootWindow.argtypes = [d]
    x.XCreateWindow.restype = w
    x.XCreateWindow.argtypes = [d, w, ctypes.c_int, ctypes.c_int, ctypes.c_uint, ctypes.c_uint,
                                ctypes.c_uint, ctypes.c_int, ctypes.c_uint, ctypes.c_void_p,
                                ctypes.c_ulong, ctypes.c_void_p]
    x.XInternAtom.restype = a
    x.XInternAtom.argtypes = [d, ctypes.c_char_p, ctypes.c_int]
    x.XChangeProperty.argtypes = [d, w, a, a, ctypes.c_int, ctypes.c_int, ctypes.c_void_p,
                                  ctypes.c_int]
    x.XMapWindow.argtypes = [d, w]
    x.XSetInputFocus.argtypes = [d, w, ctypes.c_int, ctypes.c_ulong]
    x.XSync.argtypes = [d, ctypes.c_int]
    x.XCloseDisplay.argtypes = [d]
    return x


class WmDisplay:
    """A private Xvfb and the test as its window manager (see above). Give
    the app its DISPLAY (env()); focus() and focused() as xdotool sees them."""

    def __init__(self):
        if shutil.which("Xvfb") is None or shutil.which("xdotool") is None:
            raise Failure("Xvfb and xdotool are needed for a display of the test's own "
                          "(build-aux/install-deps.sh)")
        self.dir = tempfile.mkdtemp(prefix="triage-wm-")
        self.log = os.path.join(self.dir, "xvfb.log")
        fd_path = os.path.join(self.dir, "displayfd")
        with open(fd_path, "w+") as fd_file, open(self.log, "w") as log:
            self.xvfb = subprocess.Popen(
                ["Xvfb", "-displayfd", str(fd_file.fileno()), "-screen", "0", "1280x800x24",
                 "-nolisten", "tcp"],
                pass_fds=[fd_file.fileno()], stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                preexec_fn=die_with_parent)
        self.xlib = None
        self.xdisplay = None
        try:
            self.name = ":" + wait_for("Xvfb to give a display", lambda: self._number(fd_path))
            self._claim()
        except BaseException:
            self.stop()
            raise

    def _number(self, path):
        """The display's number, once Xvfb accepts connections (it writes it then)."""
        if self.xvfb.poll() is not None:
            with open(self.log) as f:
                raise Failure(f"Xvfb exited ({self.xvfb.returncode}): {f.read().strip()}")
        with open(path) as f:
            text = f.read()
        return text.strip() if text.endswith("\n") else None

    def _claim(self):
        """Says it is an EWMH window manager that supports _NET_ACTIVE_WINDOW
        (a check window naming itself, as the spec asks), and holds the focus
        on that window: not on the root, where the window under the pointer
        would get the keys and GTK could count it as focused."""
        x = self.xlib = _xlib()
        d = self.xdisplay = x.XOpenDisplay(self.name.encode())
        if not d:
            raise Failure(f"cannot open the test's display {self.name}")
        root = x.XDefaultRootWindow(d)
        self.window = x.XCreateWindow(d, root, -100, -100, 1, 1, 0, 0, _INPUT_ONLY, None, 0, None)
        check = x.XInternAtom(d, b"_NET_SUPPORTING_WM_CHECK", False)
        itself = (ctypes.c_ulong * 1)(self.window)
        supported = (ctypes.c_ulong * 1)(x.XInternAtom(d, b"_NET_ACTIVE_WINDOW", False))
        x.XChangeProperty(d, self.window, check, _XA_WINDOW, 32, _PROP_MODE_REPLACE, itself, 1)
        x.XChangeProperty(d, root, check, _XA_WINDOW, 32, _PROP_MODE_REPLACE, itself, 1)
        x.XChangeProperty(d, root, x.XInternAtom(d, b"_NET_SUPPORTED", False), _XA_ATOM, 32,
                          _PROP_MODE_REPLACE, supported, 1)
        x.XMapWindow(d, self.window)
        x.XSetInputFocus(d, self.window, _REVERT_TO_POINTER_ROOT, _CURRENT_TIME)
        x.XSync(d, False)

    def env(self):
        return {"DISPLAY": self.name}

    def _xdotool(self, *args):
        env = dict(os.environ, DISPLAY=self.name)
        try:
            return subprocess.run(["xdotool", *args], env=env, capture_output=True, text=True,
                                  timeout=WAIT)
        except subprocess.TimeoutExpired:
            raise Failure(f"timed out after {WAIT:.0f} s waiting for xdotool {' '.join(args)}")

    def windows(self, pid):
        """The windows of process @pid shown (mapped) on this display, waited for."""
        found = self._xdotool("search", "--sync", "--onlyvisible", "--pid", str(pid))
        windows = found.stdout.split()
        if found.returncode != 0 or not windows:
            raise Failure(f"no window of process {pid} on {self.name}: {found.stderr.strip()}")
        return windows

    def focused(self):
        """The window that has the X input focus."""
        return self._xdotool("getwindowfocus").stdout.strip()

    def focus(self, window):
        """Gives @window the X input focus, as this window manager would when
        the person clicks it: GTK then makes it active."""
        if self._xdotool("windowfocus", window).returncode != 0:
            raise Failure(f"xdotool could not focus window {window} on {self.name}")

    def stop(self):
        if self.xdisplay:
            self.xlib.XCloseDisplay(self.xdisplay)
            self.xdisplay = None
        if self.xvfb.poll() is None:
            self.xvfb.terminate()
            self.xvfb.wait(timeout=WAIT)
        shutil.rmtree(self.dir, ignore_errors=True)
