#!/bin/sh
# bench/atp/run.sh — build and run the libatp benchmarks in a release build.
#
# Usage: bench/atp/run.sh [SECONDS-PER-MEASUREMENT]
# The build directory is $BENCH_BUILD, by default build-bench in the source tree
# (configured with --buildtype=release on first use).
# Exit status: non-zero when a target (ratio ≤ 2.0 against bare json-glib) is missed.

set -eu

src=$(cd "$(dirname "$0")/../.." && pwd)
build=${BENCH_BUILD:-$src/build-bench}

if [ ! -f "$build/build.ninja" ]; then
  meson setup "$build" "$src" --buildtype=release
fi
ninja -C "$build" -j2 bench/atp/bench-parse

"$build/bench/atp/bench-parse" "$@"
