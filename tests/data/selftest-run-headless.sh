#!/bin/bash
# selftest-run-headless.sh — checks build-aux/run-headless.sh: inside it there is a
# display, a private session bus, an unlocked default keyring, a fresh HOME and a
# 0700 XDG_RUNTIME_DIR; the X server keeps its state between clients; the command's
# exit status comes back; nothing is left over.
#
# Copyright 2026 The Triage authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
#   selftest-run-headless.sh RUN_HEADLESS_SH
set -u
runner="$1"
command -v Xvfb >/dev/null || { echo "SKIP: Xvfb is not installed"; exit 77; }
command -v xprop >/dev/null || { echo "FAIL: xprop is not installed (x11-utils; build-aux/install-deps.sh)"; exit 1; }
outer_home="$HOME"
out=$(mktemp)
trap 'rm -f "$out"' EXIT

bash "$runner" bash -c '
    set -e
    [ -n "$DISPLAY" ] && [ -S "/tmp/.X11-unix/X${DISPLAY#:}" ] || { echo "no X display"; exit 1; }
    # The server does not reset when its last client leaves (a client connecting
    # meanwhile could not open the display): what one client set is still there.
    xprop -root -f _TRIAGE_SELFTEST 8s -set _TRIAGE_SELFTEST kept
    xprop -root _TRIAGE_SELFTEST | grep -q kept \
        || { echo "the X server reset when its last client left (no -noreset)"; exit 1; }
    [ "$HOME" != "'"$outer_home"'" ] && [ "$HOME" = "$RH_TMP/home" ] \
        && [ "$(ls "$XDG_DATA_HOME")" = keyrings ] || { echo "HOME is not fresh"; exit 1; }
    [ "$(stat -c %a "$XDG_RUNTIME_DIR")" = 700 ] || { echo "XDG_RUNTIME_DIR is not 0700"; exit 1; }
    [ -n "$DBUS_SESSION_BUS_ADDRESS" ] || { echo "no session bus"; exit 1; }
    coll=$(gdbus call --session -d org.freedesktop.secrets -o /org/freedesktop/secrets \
           -m org.freedesktop.Secret.Service.ReadAlias default)
    case "$coll" in *collection/login*) ;; *) echo "no default keyring: $coll"; exit 1;; esac
    locked=$(gdbus call --session -d org.freedesktop.secrets \
             -o /org/freedesktop/secrets/collection/login \
             -m org.freedesktop.DBus.Properties.Get org.freedesktop.Secret.Collection Locked)
    [ "$locked" = "(<false>,)" ] || { echo "keyring locked: $locked"; exit 1; }
    echo "$RH_TMP" > "$0"
    exit 42' "$out"
rc=$?
if [ $rc -ne 42 ]; then
    echo "FAIL: run-headless.sh returned $rc, expected the command's 42"
    exit 1
fi
tmp=$(cat "$out")
if [ -z "$tmp" ] || [ -e "$tmp" ]; then
    echo "FAIL: the session folder '$tmp' was not removed"
    exit 1
fi
echo ok
