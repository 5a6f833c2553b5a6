#!/bin/sh
# bench/app/run.sh — build and run the desktop app's benchmark in a release build.
#
# Usage: bench/app/run.sh [--count N] [--frames N] [--inbox M] [--history H]
#        bench/app/run.sh --preview
#        bench/app/run.sh --choices
# The build directory is $BENCH_BUILD, by default build-bench in the source tree
# (configured with --buildtype=release on first use). The benchmark runs in a
# private headless session (build-aux/run-headless.sh: Xvfb, a session bus) with
# a real triage-server, its own fake notification server and the real triage.
# It prints the figures; exit status 1 when a target is missed
# (p99 < 50 ms, RSS < 80 MiB with 1,000 pending, first frame < 500 ms; with
# 10,000 pending and 100,000 in the history, RSS < 150 MiB; MCP tools/call → Notify
# p99 within 5 ms of the ATP POST → Notify p99; AITP POST → Notify p99 within 1 ms of
# the ATP POST → Notify p99 measured in turn with it; triage-ask --afp started → Notify
# p99 within 1 ms of triage-ask's in ATP started → Notify p99 in turn with it).

set -eu

src=$(cd "$(dirname "$0")/../.." && pwd)
build=${BENCH_BUILD:-$src/build-bench}

if [ ! -f "$build/build.ninja" ]; then
  meson setup "$build" "$src" --buildtype=release
fi

# --choices: the main loop's worst stall while a choice and a multi_choice of
# 20,000 options are shown, searched and ticked (bench-choices), drawn with
# GTK's cairo renderer unless the environment chooses one (Mesa's software GL
# under Xvfb adds its own drawing to the main thread's work).
if [ "${1:-}" = "--choices" ]; then
  shift
  ninja -C "$build" -j2 bench/app/bench-choices
  if [ -z "${GSK_RENDERER:-}" ]; then
    export GSK_RENDERER=cairo GDK_DEBUG=gl-disable
  fi
  exec "$src/build-aux/run-headless.sh" "$build/bench/app/bench-choices" "$@"
fi

# --preview: the main loop's worst stall while heavy previews are shown (bench-preview),
# with GTK's cairo renderer and its GL one; case names after it run only those.
if [ "${1:-}" = "--preview" ]; then
  shift
  ninja -C "$build" -j2 bench/app/bench-preview data/gschemas.compiled
  export GSETTINGS_SCHEMA_DIR="$build/data"
  # Both renderers: cairo, as the app draws without a GPU (and the tests), and
  # GTK's default GL one, Mesa's software GL under Xvfb (issue 16). A renderer
  # chosen in the environment runs alone.
  if [ -n "${GSK_RENDERER:-}" ]; then
    exec "$src/build-aux/run-headless.sh" "$build/bench/app/bench-preview" "$@"
  fi
  status=0
  echo "== GSK_RENDERER=cairo"
  GSK_RENDERER=cairo GDK_DEBUG=gl-disable \
    "$src/build-aux/run-headless.sh" "$build/bench/app/bench-preview" "$@" || status=1
  echo "== GSK_RENDERER=gl (GTK's default)"
  GSK_RENDERER=gl "$src/build-aux/run-headless.sh" "$build/bench/app/bench-preview" "$@" || status=1
  exit $status
fi

ninja -C "$build" -j2 bench/app/bench-app src/app/triage src/server/triage-server src/mcp/triage-mcp \
  src/cli/triage-ask data/gschemas.compiled

export TRIAGE_SERVER="$build/src/server/triage-server"
export TRIAGE_APP="$build/src/app/triage"
export TRIAGE_MCP="$build/src/mcp/triage-mcp"
export TRIAGE_ASK="$build/src/cli/triage-ask"
export GSETTINGS_SCHEMA_DIR="$build/data"

exec "$src/build-aux/run-headless.sh" "$build/bench/app/bench-app" "$@"
