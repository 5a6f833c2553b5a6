#!/bin/bash
# screenshot-decision-view.sh — the README's picture of the decision view.
#
# Copyright 2026 The Triage authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: build-aux/screenshot-decision-view.sh [OUTPUT.png]
#
# Builds tests/widgets/widgets-demo (a realistic deploy request with several
# action types, some answered half-way) in the build dir `build` (set up as
# check.sh and start.sh do, if it is not yet), runs it in a throw-away headless
# session (build-aux/run-headless.sh) and saves the PNG the demo renders of
# its own window (gdk_texture_save_to_png of a snapshot: no window manager
# frame, same pixels on every machine). Default output:
# docs/screenshots/decision-view.png.
#
# Environment:
#   SCREENSHOT_WIDTH, SCREENSHOT_HEIGHT   window size (default 720 × 1500)
#   SCREENSHOT_DARK=1                     the dark style
#   TRIAGE_BUILD_BASE                     where the build dir is (see common.sh)
set -euo pipefail

# shellcheck source=build-aux/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"

out=${1:-$TRIAGE_ROOT/docs/screenshots/decision-view.png}
case "$out" in
    /*) ;;
    *) out="$PWD/$out" ;;
esac
width=${SCREENSHOT_WIDTH:-720}
height=${SCREENSHOT_HEIGHT:-1500}
dark=()
[ "${SCREENSHOT_DARK:-0}" = 1 ] && dark=(--dark)

setup_builddir build gcc "${MAIN_BUILD_OPTS[@]}"
say "build: building widgets-demo"
meson compile -C "$TRIAGE_BUILD_BASE/build" ${TRIAGE_JOBS:+-j "$TRIAGE_JOBS"} widgets-demo

mkdir -p "$(dirname "$out")"
say "taking the screenshot"
RUN_HEADLESS_SCREEN="$((width + 200))x$((height + 200))x24" \
    bash "$TRIAGE_ROOT/build-aux/run-headless.sh" \
    "$TRIAGE_BUILD_BASE/build/tests/widgets/widgets-demo" --filled \
    --width "$width" --height "$height" "${dark[@]}" --screenshot "$out"
[ -s "$out" ] || { echo "screenshot-decision-view: no picture was written" >&2; exit 1; }
say "wrote $out"
