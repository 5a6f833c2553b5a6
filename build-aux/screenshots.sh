#!/bin/bash
# screenshots.sh — the README's and AppStream's pictures of the inbox, the
# history and an attachment preview, taken of the real app.
#
# Copyright 2026 The Triage authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: build-aux/screenshots.sh [OUTPUT_DIR]
#
# Builds the build dir `build` (set up as check.sh and start.sh do, if it is not
# yet), then in a throw-away headless session (build-aux/run-headless.sh: Xvfb,
# a private bus, an empty home) runs build-aux/screenshots.py: a real
# `triage-server --local` with requests posted as services, a history of past
# decisions written into the app's database, the real `triage` opening a
# request (app.open-request over D-Bus, as a bubble click does), then the
# history and a preview (clicked through the accessibility tree, as a person
# would), and a request answered on another device while it is open (the
# server with an admin token, so another person can be the one who answers),
# and two AITP-02 decisions: products (a variant picked, a quantity set, through
# the accessibility tree) and a confirmation.
# ImageMagick's `import` saves the screen under each window.
# Default output: docs/screenshots/ (inbox.png, history.png, preview.png,
# settled.png, aitp-products.png, aitp-confirmation.png).
#
# Environment:
#   SCREENSHOT_VARIANTS=1   also inbox-dark.png, inbox-narrow.png (360 pixels)
#                           and inbox-large-text.png (1.5 × text), for checking
#   TRIAGE_BUILD_BASE       where the build dir is (see common.sh)
set -euo pipefail

# shellcheck source=build-aux/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"

out=${1:-$TRIAGE_ROOT/docs/screenshots}
case "$out" in
    /*) ;;
    *) out="$PWD/$out" ;;
esac
command -v import >/dev/null || { say "ImageMagick's import is missing (install-deps.sh)"; exit 1; }
/usr/bin/python3 -c 'import dogtail' 2>/dev/null ||
    { say "python3-dogtail is missing (install-deps.sh)"; exit 1; }
setup_builddir build gcc "${MAIN_BUILD_OPTS[@]}"
build_dir build
mkdir -p "$out"
say "taking the screenshots"
RUN_HEADLESS_SCREEN=1400x1000x24 \
    bash "$TRIAGE_ROOT/build-aux/run-headless.sh" \
    /usr/bin/python3 "$TRIAGE_ROOT/build-aux/screenshots.py" "$TRIAGE_BUILD_BASE/build" "$out"
say "wrote $out"
