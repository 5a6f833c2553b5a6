#!/bin/sh
# bench/server/run.sh — build and run the triage-server load benchmark in a release build.
#
# Usage: bench/server/run.sh [bench-server options: --clients K --seconds S --rate R --idle N]
# The build directory is $BENCH_BUILD, by default build-bench in the source tree
# (configured with --buildtype=release on first use). The database lives in a
# temporary folder under $TMPDIR (default /tmp): run it on the disk you care about.
#
# Targets (issue #3): durable throughput with 10 clients >= 2,000/s and >= 0.5 x the raw
# SQLite commit rate; p99 POST -> WebSocket receipt < 20 ms at 200/s; 1,000 idle
# WebSocket connections in < 64 MiB server RSS. Issue 11: an AFP session of 50
# iterations continues (--session) in < 20 ms (bench-afp.c).

set -eu

src=$(cd "$(dirname "$0")/../.." && pwd)
build=${BENCH_BUILD:-$src/build-bench}

if [ ! -f "$build/build.ninja" ]; then
  meson setup "$build" "$src" --buildtype=release
fi
ninja -C "$build" -j2 bench/server/bench-server bench/server/bench-afp src/server/triage-server

TRIAGE_SERVER="$build/src/server/triage-server" "$build/bench/server/bench-server" "$@"
# AFP: continuing a session of 50 iterations (target < 20 ms)
TRIAGE_SERVER="$build/src/server/triage-server" "$build/bench/server/bench-afp"
