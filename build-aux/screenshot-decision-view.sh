#!/bin/bash
# screenshot-decision-view.sh — the README's picture: the real app showing a request.
#
# Copyright 2026 The Triage authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: build-aux/screenshot-decision-view.sh [OUTPUT.png]
#
# Builds the build dir `build` (set up as check.sh and start.sh do, if it is not
# yet), then in a throw-away headless session (build-aux/run-headless.sh: Xvfb,
# a private bus, an empty home) starts a real `triage-server --local`, posts the
# deploy request of build-aux/screenshot-request.json as the service "Deploy
# Bot" (deadline 25 minutes ahead), starts the real `triage` in local mode,
# opens the request (app.open-request over D-Bus, as a notification click
# does) and saves the screen under the window (ImageMagick `import`; there is
# no window manager, so the window sits at 0,0 with its own decorations).
# Default output: docs/screenshots/decision-view.png.
#
# Environment:
#   SCREENSHOT_WIDTH, SCREENSHOT_HEIGHT   window size (default 1100 × 1000)
#   TRIAGE_BUILD_BASE                     where the build dir is (see common.sh)
set -euo pipefail

# shellcheck source=build-aux/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"

width=${SCREENSHOT_WIDTH:-1100}
height=${SCREENSHOT_HEIGHT:-1000}
build="$TRIAGE_BUILD_BASE/build"
app_id=io.github.atptriage.Triage
app_path=/io/github/atptriage/Triage

if [ "${1:-}" != --inner ]; then
    out=${1:-$TRIAGE_ROOT/docs/screenshots/decision-view.png}
    case "$out" in
        /*) ;;
        *) out="$PWD/$out" ;;
    esac
    command -v import >/dev/null || { say "ImageMagick's import is missing (install-deps.sh)"; exit 1; }
    setup_builddir build gcc "${MAIN_BUILD_OPTS[@]}"
    build_dir build
    mkdir -p "$(dirname "$out")"
    rm -f "$out"
    say "taking the screenshot"
    RUN_HEADLESS_SCREEN="$((width + 100))x$((height + 100))x24" \
        bash "$TRIAGE_ROOT/build-aux/run-headless.sh" "${BASH_SOURCE[0]}" --inner "$out"
    [ -s "$out" ] || { say "no picture was written"; exit 1; }
    say "wrote $out"
    exit 0
fi

# ---- inside the headless session (a fresh HOME and XDG folders) ----
out=$2
socket="$XDG_RUNTIME_DIR/triage/triage.sock"
server_pid=
app_pid=
finish() {
    [ -n "$app_pid" ] && kill "$app_pid" 2>/dev/null && wait "$app_pid" 2>/dev/null
    [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
    return 0
}
trap finish EXIT

# The window's size comes from the app's settings (a keyfile here, not dconf).
export GSETTINGS_SCHEMA_DIR="$build/data" GSETTINGS_BACKEND=keyfile
mkdir -p "$XDG_CONFIG_HOME/glib-2.0/settings"
printf '[io/github/atptriage/Triage]\nwindow-width=%d\nwindow-height=%d\n' "$width" "$height" \
    >"$XDG_CONFIG_HOME/glib-2.0/settings/keyfile"
# The app's icons from the source tree, the rest from the system.
export XDG_DATA_DIRS="$TRIAGE_ROOT/data:/usr/local/share:/usr/share"
export TRIAGE_SERVER="$build/src/server/triage-server"

"$TRIAGE_SERVER" --local --database "$XDG_DATA_HOME/server.db" >/dev/null &
server_pid=$!
for _ in $(seq 100); do
    curl -sf --unix-socket "$socket" -o /dev/null http://localhost/api/v1/client/notifications && break
    sleep 0.1
done

deadline=$(date -u -d '+25 minutes' +%Y-%m-%dT%H:%M:%SZ)
reply=$(sed "s/@DEADLINE@/$deadline/" "$TRIAGE_ROOT/build-aux/screenshot-request.json" |
        curl -sf --unix-socket "$socket" -H 'Content-Type: application/json' \
             -H 'X-Triage-Service: deploy-bot' -H 'X-Triage-Service-Name: Deploy Bot' \
             --data-binary @- http://localhost/api/v1/notifications)
id=$(printf '%s' "$reply" | sed -n 's/.*"notification_id" *: *"\([^"]*\)".*/\1/p')
[ -n "$id" ] || { echo "screenshot: the server did not take the request: $reply" >&2; exit 1; }

"$build/src/app/triage" &
app_pid=$!
for _ in $(seq 100); do
    gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
        --method org.freedesktop.DBus.NameHasOwner "$app_id" 2>/dev/null | grep -q true && break
    sleep 0.1
done
gdbus call --session --dest "$app_id" --object-path "$app_path" \
    --method org.gtk.Actions.Activate open-request "[<'$id'>]" "{}" >/dev/null
sleep 3   # connected, the request in the list, the view drawn
import -window root -crop "${width}x${height}+0+0" +repage "$out"
gdbus call --session --dest "$app_id" --object-path "$app_path" \
    --method org.gtk.Actions.Activate quit "[]" "{}" >/dev/null || true
wait "$app_pid" 2>/dev/null || true
app_pid=
