#!/bin/bash
# start.sh — install what is missing, build, and start Triage with its local server.
#
# Copyright 2026 The Triage authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: build-aux/start.sh [ARG...]
#
# Installs the dependencies (build-aux/install-deps.sh: apt, only what is missing;
# root or sudo), configures and builds ./build (the same options as check.sh, so
# the two share it), then runs the desktop app from the build tree in the
# environment of `meson devenv -C build`: the compiled GSettings schema, the icons
# and the triage-server / triage-ask of the build tree are found without
# installing. The program runs in place of this script, in the current folder, so
# Ctrl+C reaches the program itself, with no meson in between (no Python traceback).
# With no server configured the app works in local mode: it starts or finds
# `triage-server --local` on $XDG_RUNTIME_DIR/triage/triage.sock.
#
# Without the app (not built, or no graphical session) it runs the local server
# in the foreground instead and prints how to send it a first request.
# ARGs go to the program started. Stop it with Ctrl+C.
#
# Environment:
#   START_SKIP_DEPS=1   do not run install-deps.sh
#   START_SERVER_ONLY=1 start only the local server, even if the app could run
#   START_SKIP_BUILD=1  neither set up nor build ./build: start what is built
#   TRIAGE_JOBS=N       compile jobs (default: ninja's choice)
#   TRIAGE_BUILD_BASE   folder for the build dir (default: the source root)
set -uo pipefail

# shellcheck source=build-aux/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"

case "${1:-}" in
    -h|--help) sed -n '2,/^set -uo/{/^set -uo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"; exit 0 ;;
esac

if [ "${START_SKIP_DEPS:-${TRIAGE_SKIP_DEPS:-0}}" != 1 ]; then
    say "checking dependencies (build-aux/install-deps.sh)"
    bash "$TRIAGE_ROOT/build-aux/install-deps.sh" || { say "install-deps.sh failed"; exit 1; }
fi
if [ "${START_SKIP_BUILD:-0}" != 1 ]; then
    setup_builddir build gcc "${MAIN_BUILD_OPTS[@]}" || exit 1
    build_dir build || { say "the build failed"; exit 1; }
fi

builddir="$TRIAGE_BUILD_BASE/build"
app="$builddir/src/app/triage"
server="$builddir/src/server/triage-server"
ask="$builddir/src/cli/triage-ask"

# `meson devenv` prepends to XDG_DATA_DIRS; an unset one means the default, which
# the prepended value would otherwise hide (no system icons, no system schemas).
export XDG_DATA_DIRS="${XDG_DATA_DIRS:-/usr/local/share:/usr/share}"

if [ "${START_SERVER_ONLY:-0}" != 1 ] && [ -x "$app" ]; then
    if [ -n "${WAYLAND_DISPLAY:-}" ] || [ -n "${DISPLAY:-}" ]; then
        say "starting Triage ($app)"
        exec_in_devenv "$builddir" "$app" "$@"
        exit 1
    fi
    say "no graphical session (neither WAYLAND_DISPLAY nor DISPLAY is set): starting only the local server"
fi

if [ ! -x "$server" ]; then
    say "nothing to start: $server is not built yet"
    exit 1
fi

# GLib falls back to the cache folder when there is no runtime folder.
socket="${XDG_RUNTIME_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}}/triage/triage.sock"
action=ok
cat >&2 <<EOF

Triage's local server is starting; it listens on $socket
for agents of this user (no token needed). Stop it with Ctrl+C.
EOF
if [ -x "$ask" ]; then
    action=approve
    cat >&2 <<EOF

In another terminal, ask a first question and wait for the answer:

    $ask --title 'Hello from Triage' --confirm; echo "exit status \$?"

EOF
else
    cat >&2 <<EOF

In another terminal, send a first request:

    curl --unix-socket $socket -H 'Content-Type: application/json' \\
         -d '{"context": {"title": "Hello from Triage", "description": "A first request"},
              "actions": [{"id": "ok", "label": "OK", "response_type": "simple"}]}' \\
         http://localhost/api/v1/notifications

EOF
fi
cat >&2 <<EOF
List what is waiting for an answer, and answer it (use the notification_id shown):

    curl --unix-socket $socket 'http://localhost/api/v1/client/notifications?status=pending'
    curl --unix-socket $socket -H 'Content-Type: application/json' \\
         -d '{"notification_id": "ID", "action_id": "$action", "response_data": null}' \\
         http://localhost/api/v1/client/respond

EOF
exec_in_devenv "$builddir" "$server" --local --print-address "$@"
exit 1
