#!/bin/bash
# orca-walk.sh — what the Orca screen reader says as a person walks Triage with
# the keyboard, read off Orca's own log in a headless session. On demand, not a
# test: Orca's words change with its version; the tests check the tree it reads
# (tests/app/a11ytest.py). Needs the packages orca and xdotool (apt install
# --no-install-recommends orca xdotool) and a built `build`.
#
# Usage: build-aux/orca-walk.sh [OUTDIR]
#   Starts Orca and the app with its local server, posts a request with six of
#   the response types, opens it from the search (Ctrl+F, Down, Return), Tabs
#   through its controls, goes back, and prints each line Orca spoke (its key
#   echo left out). OUTDIR (default: a temporary one) keeps Orca's whole log.
#
# Headless limits: with no window manager, Orca follows only the window it saw
# activated first, so windows opened later (Preferences) are not read here.
#
# Copyright 2026 The Triage authors
# SPDX-License-Identifier: GPL-3.0-or-later
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

if [ "${ORCA_WALK_STAGE:-}" != inner ]; then
    for tool in orca xdotool curl; do
        command -v "$tool" >/dev/null || { echo "orca-walk: $tool not found (apt install orca xdotool curl)" >&2; exit 1; }
    done
    [ -x "$root/build/src/app/triage" ] || { echo "orca-walk: build the app first (meson setup build && ninja -C build)" >&2; exit 1; }
    out=${1:-$(mktemp -d "${TMPDIR:-/tmp}/orca-walk.XXXXXX")}
    mkdir -p "$out"
    ORCA_WALK_STAGE=inner exec "$root/build-aux/run-headless.sh" "$0" "$out"
fi

out=$1
cd "$root"
export GSETTINGS_BACKEND=memory

# Waits up to 30 s for a command to succeed.
await() {
    for _ in $(seq 300); do "$@" >/dev/null 2>&1 && return 0; sleep 0.1; done
    echo "orca-walk: gave up waiting for: $*" >&2
    return 1
}
said() { grep -a -c "SPEECH OUTPUT" "$out/orca.debug" 2>/dev/null; }
# Presses a key and waits until Orca has spoken about it (or 3 s passed).
key() {
    local before
    before=$(said)
    xdotool key "$1"
    for _ in $(seq 30); do [ "$(said)" -gt "$before" ] && break; sleep 0.1; done
    sleep 0.3   # what follows the first line (a description, a list's size)
}

orca --replace --debug-file="$out/orca.debug" >"$out/orca.out" 2>&1 &
sleep 3   # Orca's start: it says nothing the log shows until a window is active
meson devenv -C build ./src/app/triage >"$out/app.out" 2>&1 &
socket="$XDG_RUNTIME_DIR/triage/triage.sock"
await test -S "$socket"
await xdotool search --name '^Triage$'

curl -s --unix-socket "$socket" -H 'Content-Type: application/json' -H 'X-Triage-Service: deploy-bot' \
     -d '{"context": {"title": "Deploy web to production?", "description": "Build 412 passed all checks.",
                      "metadata": {"branch": "main"}},
          "actions": [{"id": "go", "label": "Deploy", "response_type": "simple", "flags": ["destructive"]},
                      {"id": "why", "label": "Reason", "response_type": "text"},
                      {"id": "env", "label": "Environment", "response_type": "choice",
                       "options": [{"value": "s", "label": "Staging"}, {"value": "p", "label": "Production"}]},
                      {"id": "tell", "label": "Notify the team", "response_type": "binary",
                       "options": {"true_label": "Notify", "false_label": "Stay quiet"}},
                      {"id": "n", "label": "Replicas", "response_type": "number", "constraints": {"min": 1, "max": 9}},
                      {"id": "sure", "label": "Confidence", "response_type": "scale", "constraints": {"min": 1, "max": 5}}]}' \
     http://localhost/api/v1/notifications >"$out/post.out"
await grep -q notification_id "$out/post.out"
sleep 2   # the app takes it from its stream; nothing here to wait on

key ctrl+f
key Down
key Return
for _ in $(seq 14); do key Tab; done
key Escape
key Tab

grep -a "SPEECH OUTPUT" "$out/orca.debug" | sed "s/^.*SPEECH OUTPUT: //; s/ *{'established.*//; s/ voice=.*//" |
    grep -v -E "^'(tab|left control|control|ctrl|escape|return|down|shift|f) ?'" 
echo "(Orca's whole log: $out/orca.debug)" >&2
kill $(jobs -p) 2>/dev/null
# The local server the app started outlives it: ended here, found by this
# session's runtime directory.
for pid in $(pgrep -x triage-server); do
    grep -qzx "XDG_RUNTIME_DIR=$XDG_RUNTIME_DIR" "/proc/$pid/environ" 2>/dev/null && kill "$pid"
done
