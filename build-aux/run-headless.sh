#!/bin/bash
# run-headless.sh — run a command inside a throw-away headless desktop session.
#
# Copyright 2026 The Triage authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: build-aux/run-headless.sh CMD [ARG...]
#   e.g. build-aux/run-headless.sh meson test -C build --print-errorlogs
#
# CMD runs with:
#   * a private Xvfb display (Xvfb picks a free display number itself: -displayfd);
#   * a private D-Bus session bus (dbus-run-session), so D-Bus activation works
#     (the AT-SPI bus, dconf); it ends with CMD and its helpers exit with it;
#   * gnome-keyring-daemon (secrets component) with an unlocked "login" keyring, the
#     default collection, so libsecret stores and looks up secrets without a prompt;
#   * a fresh HOME and XDG_{DATA,CONFIG,CACHE,STATE}_HOME, and an XDG_RUNTIME_DIR of
#     mode 0700 (where triage-server --local puts its socket), deleted afterwards.
# No notification server is started: tests that notify run under
# tests/fake-notifyd.py, which owns org.freedesktop.Notifications for their lifetime.
# The exit status is CMD's (125 when the session itself could not be set up).
#
# Environment knobs:
#   RUN_HEADLESS_SCREEN       Xvfb screen geometry (default 1280x800x24)
#   RUN_HEADLESS_KEYRING_PW   login keyring password (default ci-keyring-pw; must be
#                             non-empty: an empty one makes gnome-keyring prompt)
#   RUN_HEADLESS_NOTIFYD      a command started as the notification server before CMD,
#                             e.g. /usr/lib/notification-daemon/notification-daemon
#                             (default none)
#   RUN_HEADLESS_KEEP=1       keep the temporary HOME (its path is printed on stderr)
set -u

die() { echo "run-headless: $*" >&2; exit 125; }

if [ "${RUN_HEADLESS_STAGE:-}" != "inner" ]; then
    # ------------------------------------------------------------------ outer stage
    [ $# -ge 1 ] || die "usage: $0 CMD [ARG...]"
    for t in Xvfb dbus-run-session gnome-keyring-daemon gdbus; do
        command -v "$t" >/dev/null || die "$t not found (run build-aux/install-deps.sh)"
    done
    self=$(readlink -f "$0") || die "cannot resolve $0"
    RH_TMP=$(mktemp -d "${TMPDIR:-/tmp}/run-headless.XXXXXX") || die "mktemp failed"
    export RH_TMP
    mkdir -p "$RH_TMP/home" "$RH_TMP/runtime"
    chmod 700 "$RH_TMP/home" "$RH_TMP/runtime"

    # -noreset: an X server resets itself each time its last client leaves,
    # and a test connecting while it does (the one before it just ended) was
    # told "cannot open display" — once in a few hundred tests under load.
    Xvfb -displayfd 5 -screen 0 "${RUN_HEADLESS_SCREEN:-1280x800x24}" -nolisten tcp -noreset \
         >"$RH_TMP/xvfb.log" 2>&1 5>"$RH_TMP/displayfd" </dev/null &
    XVFB_PID=$!
    # shellcheck disable=SC2317  # invoked via trap
    cleanup() {
        kill "$XVFB_PID" 2>/dev/null
        wait "$XVFB_PID" 2>/dev/null
        if [ "${RUN_HEADLESS_KEEP:-0}" = 1 ]; then
            echo "run-headless: kept $RH_TMP" >&2
        else
            rm -rf "$RH_TMP"
        fi
    }
    trap cleanup EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
    for _ in $(seq 100); do   # up to 10 s
        [ -s "$RH_TMP/displayfd" ] && break
        kill -0 "$XVFB_PID" 2>/dev/null || { cat "$RH_TMP/xvfb.log" >&2; die "Xvfb died"; }
        sleep 0.1
    done
    [ -s "$RH_TMP/displayfd" ] || die "Xvfb did not report a display"
    DISPLAY=":$(head -n1 "$RH_TMP/displayfd")"
    export DISPLAY

    # A fresh, private user environment: keyring files, dconf, caches, databases.
    export HOME="$RH_TMP/home"
    export XDG_RUNTIME_DIR="$RH_TMP/runtime"
    export XDG_DATA_HOME="$HOME/.local/share" XDG_CONFIG_HOME="$HOME/.config"
    export XDG_CACHE_HOME="$HOME/.cache" XDG_STATE_HOME="$HOME/.local/state"
    export XDG_SESSION_TYPE=x11 GDK_BACKEND=x11
    unset WAYLAND_DISPLAY DBUS_SESSION_BUS_ADDRESS NO_AT_BRIDGE GTK_A11Y \
          GNOME_KEYRING_CONTROL SSH_AUTH_SOCK XAUTHORITY
    export RUN_HEADLESS_STAGE=inner

    # dbus-run-session ends its bus when the child exits; bus-activated helpers
    # (at-spi-bus-launcher, gnome-keyring-daemon) then exit on their own.
    # Its "Failed to set fd limit" warning (no CAP_SYS_RESOURCE) is noise: drop it.
    dbus-run-session -- "$BASH" "$self" "$@" \
        2> >(grep --line-buffered -v 'Failed to set fd limit' >&2)
    exit $?
fi

# ---------------------------------------------------------------------- inner stage
unset RUN_HEADLESS_STAGE
pw="${RUN_HEADLESS_KEYRING_PW:-ci-keyring-pw}"
[ -n "$pw" ] || die "RUN_HEADLESS_KEYRING_PW must be non-empty (an empty one makes gnome-keyring prompt)"

name_on_bus() {
    gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
        --method org.freedesktop.DBus.NameHasOwner "$1" 2>/dev/null | grep -q true
}

# --unlock reads the password on stdin and creates (or unlocks) the "login" keyring,
# which becomes the default collection; the daemon forks and prints env lines.
eval "$(printf '%s' "$pw" | gnome-keyring-daemon --unlock --components=secrets \
        2>"$RH_TMP/keyring.log" | sed -n 's/^\([A-Z_]*=.*\)$/export \1/p')"
for _ in $(seq 50); do   # up to 5 s
    name_on_bus org.freedesktop.secrets && break
    sleep 0.1
done
name_on_bus org.freedesktop.secrets || { cat "$RH_TMP/keyring.log" >&2; die "gnome-keyring did not start"; }

NOTIFYD_PID=
case "${RUN_HEADLESS_NOTIFYD:-none}" in
    none|"") ;;
    *)  # shellcheck disable=SC2086  # a command line, split on purpose
        ${RUN_HEADLESS_NOTIFYD} >"$RH_TMP/notifyd.log" 2>&1 </dev/null &
        NOTIFYD_PID=$!
        for _ in $(seq 50); do
            name_on_bus org.freedesktop.Notifications && break
            sleep 0.1
        done ;;
esac

"$@"
rc=$?
[ -n "$NOTIFYD_PID" ] && kill "$NOTIFYD_PID" 2>/dev/null
exit $rc
