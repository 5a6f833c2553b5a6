#!/usr/bin/python3
# a11ytest.py — reading the real triage binary through the accessibility tree
# (dogtail), as a screen reader finds it: dogtail set up for AT-SPI on the
# tests' bus, the app on it, a node by role and name, a button's label. For
# tests/app/test-connection-problems.py and test-connection-told.py; the app
# must run with a11y=True (apptest.RemoteApp).
#
# Copyright 2026 The Triage authors
# SPDX-License-Identifier: GPL-3.0-or-later

import os
import sys

# As in test-dogtail.py: GTK 4.8 warns when asked for screen coordinates over
# AT-SPI, and the AT-SPI libraries warn about objects that vanish.
os.environ.pop("G_DEBUG", None)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from apptest import wait_for  # noqa: E402

import dogtail.config  # noqa: E402

dogtail.config.config.checkForA11y = False
dogtail.config.config.searchShowingOnly = False
dogtail.config.config.defaultDelay = 0.2
dogtail.config.config.actionDelay = 0.2
dogtail.config.config.typingDelay = 0.02
dogtail.config.config.searchCutoffCount = 10
dogtail.config.config.logDebugToStdOut = False
dogtail.config.config.logDebugToFile = False

from dogtail.predicate import GenericPredicate  # noqa: E402
from dogtail.tree import root  # noqa: E402


def find(parent, what, role=None, name=None, timeout=20):
    """The first node with that role and name (retried until it shows)."""
    predicate = GenericPredicate(name=name, roleName=role)
    return wait_for(what, lambda: parent.findChild(predicate, retry=False, requireResult=False),
                    timeout=timeout, interval=0.2)


def find_app(app):
    """The app on the accessibility bus (failing at once if it exited)."""
    def found():
        app.alive()
        return next((a for a in root.applications() if a.name == "triage"), None)
    return wait_for("triage on the accessibility bus", found, timeout=30, interval=0.3)


def buttons(node):
    """The labels of the buttons in @node (hidden ones are not in the tree)."""
    return sorted(n.name for n in node.findChildren(lambda n: n.roleName == "push button"))
