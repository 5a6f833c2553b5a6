#!/bin/sh
# bench/browse/run.sh — build and run the inbox and history benchmark in a release build.
#
# Usage: bench/browse/run.sh [--history N] [--inbox M]
# The build directory is $BENCH_BUILD, by default build-bench in the source tree
# (configured with --buildtype=release on first use). The benchmark runs in a
# private headless session (build-aux/run-headless.sh: Xvfb, a session bus).
# It prints the figures; exit status 1 when a target is missed (search results
# p99 < 50 ms for the inbox and the history list, peak RSS < 150 MiB; an AFP
# review of 10,000 lines with its diff opened in < 200 ms).

set -eu

src=$(cd "$(dirname "$0")/../.." && pwd)
build=${BENCH_BUILD:-$src/build-bench}

if [ ! -f "$build/build.ninja" ]; then
  meson setup "$build" "$src" --buildtype=release
fi
ninja -C "$build" -j2 bench/browse/bench-browse bench/browse/bench-afp-view

# Without a GPU the app draws with GTK's cairo renderer (triage-application.c:
# Mesa's software GL would map LLVM into it); the widgets are measured the same way.
if ! ls /dev/dri/renderD* >/dev/null 2>&1; then
  export GDK_DEBUG="${GDK_DEBUG:-gl-disable}" GSK_RENDERER="${GSK_RENDERER:-cairo}"
fi

status=0
"$src/build-aux/run-headless.sh" "$build/bench/browse/bench-browse" "$@" || status=1
# An AFP review of a 10,000-line artifact with its diff, opened in the review view.
"$src/build-aux/run-headless.sh" "$build/bench/browse/bench-afp-view" || status=1
exit $status
