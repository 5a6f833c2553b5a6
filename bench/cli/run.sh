#!/bin/sh
# bench/cli/run.sh — build and run triage-ask's benchmark in a release build.
#
# Usage: bench/cli/run.sh [bench-hook.py options: --rounds N]
# The build directory is $BENCH_BUILD, by default build-bench in the source tree
# (configured with --buildtype=release on first use). The benchmark starts a real
# triage-server --local in a temporary folder under $TMPDIR (default /tmp) and the
# real triage-ask --hook claude-code.
#
# Target: triage-ask --hook claude-code over the huge inputs of
# tests/cli/test-ask-hook-request.py (a MultiEdit of 60,000 edits of a 16 MiB file;
# "git push " and "Remove-Item " 10,000 times; 20,000 "x" and "; rm -rf ~") exits
# within 15 s of its start, the person answering at once (the old code took minutes
# over the MultiEdit, 49 s over "git push "; Claude Code's hook timeout is 60 s by
# default). Exit status 1 when a round misses it.
#
# Copyright 2026 The Triage authors
# SPDX-License-Identifier: GPL-3.0-or-later

set -eu

src=$(cd "$(dirname "$0")/../.." && pwd)
build=${BENCH_BUILD:-$src/build-bench}

if [ ! -f "$build/build.ninja" ]; then
  meson setup "$build" "$src" --buildtype=release
fi
ninja -C "$build" -j2 src/server/triage-server src/cli/triage-ask

TRIAGE_SERVER="$build/src/server/triage-server" TRIAGE_ASK="$build/src/cli/triage-ask" \
  /usr/bin/python3 "$src/bench/cli/bench-hook.py" "$@"
