#!/bin/bash
# check.sh — install what is missing, build, and run every test of Triage.
#
# Copyright 2026 The Triage authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: build-aux/check.sh [--quick | --stress] [--long] [-- MESON_TEST_ARG...]
#
# Steps (each in its own build dir under the source root):
#   deps        build-aux/install-deps.sh (apt, only what is missing; root or sudo)
#   build       gcc, --werror, default options: build everything and run ALL tests
#               (suites unit, integration, ui, data) under build-aux/run-headless.sh
#   build-asan  gcc, -Db_sanitize=address,undefined -Dapp=false: suites unit and
#               integration, so memory errors and leaks fail the run
#   build-fuzz  clang, -Dfuzzing=true -Db_sanitize=address,undefined -Db_lundef=false
#               -Dapp=false: suite fuzz (short, bounded runs of every fuzz target);
#               it builds only the fuzz targets (they need nothing else), unless
#               `-- ARGS` may select other tests
# build-asan and build-fuzz are set up and built in the background at nice 19
# from the start, while build compiles and runs its tests (most of which wait on
# sockets and timeouts): their compilers take the cores the tests leave idle.
# (Where the kernel groups processes by session for the scheduler, autogroup,
# nice only ranks the processes of one session: the builds ahead, in a session
# of their own, share the machine with build's compile as equals.)
# build-asan's tests start as soon as it is built, beside build's build and
# tests (in a headless session of their own), the fuzz targets after them; and
# build's suite alone (the dogtail tests, which need a display to themselves)
# runs beside the rest of build's tests, in a session of its own too, as the
# step build-alone. build's tests run twice as many at once as there are cores,
# build-asan's one more than the cores (CHECK_TEST_PROCESSES,
# CHECK_ASAN_TEST_PROCESSES): they mostly wait.
# Each step's output is printed in order, when its turn comes; "waited N s" says
# how long the tests had to wait for a build still running (build-asan's: from
# the start).
# The chaos tests (suite chaos: faults injected into the real server and app,
# tests/chaos) run in the build step too, in their short versions.
# The data checks (suite data: desktop file, metainfo, schema, systemd unit, man
# pages, translations) run in the build step.
# Every test run is under run-headless.sh, so no test sees the real HOME, keyring,
# session bus or display.
#
# At the end it prints one line, "N passed, N failed, N skipped", counted from the
# testlog.json of every test run; a step that could not configure, build or run its
# tests counts as one failure, and so does a "skipped" fuzz target (exit status 77
# is what libFuzzer returns for a crash). Exit status: 0 only if nothing failed.
#
# Options:
#   --quick     only the build step (no sanitizer or fuzz build)
#   --stress    build the main build dir, then run its suites ui and integration
#               STRESS_ROUNDS (5) times in a row while a CPU hog (stress-ng, else a
#               busy loop per core) keeps every core busy; prints each round's result,
#               then the summary line over all rounds. Fails if any round failed.
#               The hog ends with the run (also on Ctrl+C or a failure; it dies with
#               this script even when the script is killed).
#   --long      the long versions of the chaos tests (TRIAGE_CHAOS_LONG=1: 100
#               app-kill trials instead of 20, bigger floods); minutes longer
#   -- ARGS     extra arguments for every `meson test`, e.g. -- --suite unit
# Environment:
#   CHECK_SKIP_DEPS=1    do not run install-deps.sh
#   CHECK_SKIP_MAIN=1    skip the build step
#   CHECK_SKIP_ASAN=1    skip the build-asan step
#   CHECK_SKIP_FUZZ=1    skip the build-fuzz step
#   CHECK_ASAN_TIMEOUT_MULTIPLIER   test timeout multiplier under sanitizers (default 3)
#   CHECK_TEST_PROCESSES=N       tests of build run at once (default: twice the cores)
#   CHECK_ASAN_TEST_PROCESSES=N  tests of build-asan run at once (default: the cores + 1)
#   STRESS_ROUNDS=N      rounds of --stress (default 5)
#   TRIAGE_CHAOS_LONG=1  as --long
#   TRIAGE_JOBS=N        compile jobs (default: ninja's choice)
#   TRIAGE_BUILD_BASE    folder for the build dirs (default: the source root)
set -uo pipefail

# shellcheck source=build-aux/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"

quick=0
stress=0
test_args=()
user_test_args=0
while [ $# -gt 0 ]; do
    case "$1" in
        --quick) quick=1 ;;
        --stress) stress=1 ;;
        --long) export TRIAGE_CHAOS_LONG=1 ;;
        --) shift; test_args=("$@"); [ $# -eq 0 ] || user_test_args=1; break ;;
        -h|--help) sed -n '2,/^set -uo/{/^set -uo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"; exit 0 ;;
        *) echo "check.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
    shift
done
# The long chaos runs take minutes more than the short ones' meson timeouts allow.
if [ "${TRIAGE_CHAOS_LONG:-0}" != 0 ]; then
    test_args=(--timeout-multiplier 4 ${test_args[@]+"${test_args[@]}"})
fi
if [ $quick = 1 ] || [ $stress = 1 ]; then
    CHECK_SKIP_ASAN=1
    CHECK_SKIP_FUZZ=1
fi
stress_rounds=${STRESS_ROUNDS:-5}
case "$stress_rounds" in
    ''|*[!0-9]*|0) echo "check.sh: STRESS_ROUNDS must be a positive number" >&2; exit 2 ;;
esac

results=$(mktemp -d "${TMPDIR:-/tmp}/triage-check.XXXXXX")
hog_pids=()

# A CPU hog on every core: stress-ng, or a busy loop per core without it. Each
# hog process gets SIGKILL when this script dies, however it dies (setpriv
# --pdeathsig; stress-ng's own workers die with their parent).
start_hog() {
    local cores i
    cores=$(nproc)
    if command -v stress-ng >/dev/null; then
        say "CPU hog: stress-ng --cpu $cores"
        setpriv --pdeathsig KILL stress-ng --cpu "$cores" --quiet </dev/null &
        hog_pids+=($!)
    else
        say "CPU hog: a busy loop on each of $cores cores (no stress-ng: see install-deps.sh)"
        for ((i = 0; i < cores; i++)); do
            setpriv --pdeathsig KILL bash -c 'while :; do :; done' </dev/null &
            hog_pids+=($!)
        done
    fi
}

hog_alive() {
    local pid
    for pid in "${hog_pids[@]}"; do
        kill -0 "$pid" 2>/dev/null || return 1
    done
}

stop_hog() {
    [ ${#hog_pids[@]} -gt 0 ] || return 0
    kill "${hog_pids[@]}" 2>/dev/null
    wait "${hog_pids[@]}" 2>/dev/null
    hog_pids=()
}

# The builds ahead (see build_ahead): the subshell that runs them one after the
# other, and the process group of the one building now.
ahead_pid=
ahead_fd=
# Steps run aside (see aside): name → the process group of each.
declare -A aside_pid=()

stop_ahead() {
    [ -n "$ahead_pid" ] || return 0
    kill "$ahead_pid" 2>/dev/null
    if [ -s "$results/ahead.pgid" ]; then
        kill -TERM -- "-$(cat "$results/ahead.pgid")" 2>/dev/null
    fi
    ahead_pid=
}

cleanup() {
    stop_ahead
    local pid
    for pid in "${aside_pid[@]}"; do
        kill -TERM -- "-$pid" 2>/dev/null
    done
    stop_hog
    rm -rf "$results"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
started=$(date +%s)

# step_failed WHAT: counts WHAT as a failed step (in a file: steps run aside fail too).
step_failed() {
    say "FAILED: $1"
    printf '%s\n' "$1" >>"$results/failed-steps"
}

# aside NAME COMMAND...: runs COMMAND (a function of this script) in the
# background, in a process group of its own (cleanup ends it) but in this
# session, so its tests share the machine with the others as equals; its output
# is kept for aside_done NAME.
aside() {
    local name="$1"
    shift
    set -m
    "$@" >"$results/$name.out" 2>&1 </dev/null &
    aside_pid[$name]=$!
    set +m
}

# aside_done NAME: waits for the step run aside as NAME and prints its output.
aside_done() {
    wait "${aside_pid[$1]}"
    unset "aside_pid[$1]"
    cat "$results/$1.out"
}

# summarize [--round] STEP_FAILURES SECONDS TESTLOG...: counts the results of
# meson's testlog.json files (each named STEP.json). Prints the failed tests, the
# time taken and "N passed, N failed, N skipped" (the steps that failed outside a
# test count as failures), and exits 1 if anything failed; with --round only the
# counts line, the failed tests after it.
summarize() {
    /usr/bin/python3 - "$@" <<'EOF'
import json, os, sys
args = sys.argv[1:]
brief = args[0] == "--round"
if brief:
    args = args[1:]
step_failures, seconds = int(args[0]), int(args[1])
passed = failed = skipped = 0
bad = []
for path in sorted(p for p in args[2:] if os.path.exists(p)):
    step = os.path.basename(path)[:-5]
    with open(path) as f:
        for line in f:
            if not line.strip():
                continue
            t = json.loads(line)
            r = t["result"]
            if r in ("OK", "EXPECTEDFAIL"):
                passed += 1
            elif r == "SKIP" and step == "build-fuzz":
                # 77 is libFuzzer's default exit status for a crash, and meson's
                # for a skip; a fuzz target never skips.
                failed += 1
                bad.append((step, t["name"], "exit status 77: a libFuzzer crash"))
            elif r == "SKIP":
                skipped += 1
            else:
                failed += 1
                bad.append((step, t["name"], r))
counts = "%d passed, %d failed, %d skipped" % (passed, failed + step_failures, skipped)
if brief:
    print(counts + "".join(f"{', ' if i else ': '}{name} ({why})" for i, (_, name, why) in enumerate(bad)))
    # The failed subtests with what they said (meson shows only the stderr of a
    # TAP test, and this round's log is gone once the next round starts).
    for path in args[2:]:
        with open(path) as f:
            for line in f:
                t = json.loads(line) if line.strip() else None
                if t is None or t["result"] in ("OK", "EXPECTEDFAIL", "SKIP"):
                    continue
                lines = (t.get("stdout") or "").splitlines()
                told, failing = [], False
                for l in lines:
                    if l.startswith("not ok"):
                        failing = True
                        told.append(l)
                    elif l.startswith("ok"):
                        failing = False
                    elif failing and l.startswith("#"):
                        told.append(l)
                for l in told or lines[-5:]:
                    print(f"    {t['name']}: {l}")
    sys.exit(0)
if bad:
    # What each failed test said last, without the debug chatter: CI keeps only
    # the tail of the output, and meson's error logs scrolled out of it long ago.
    for path in sorted(p for p in args[2:] if os.path.exists(p)):
        with open(path) as f:
            for line in f:
                t = json.loads(line) if line.strip() else None
                if t is None or t["result"] in ("OK", "EXPECTEDFAIL", "SKIP"):
                    continue
                print(f"--- {os.path.basename(path)[:-5]}: {t['name']} ({t['result']}), its last words:")
                for stream in ("stdout", "stderr"):
                    said = [l for l in (t.get(stream) or "").splitlines() if "-DEBUG: " not in l]
                    for l in said[-25:]:
                        print(f"  {stream[3:]}| {l[:300]}")
    print("failed tests:")
    print("\n".join(f"  {step}: {name} ({why})" for step, name, why in bad))
print(f"check took {seconds // 60} min {seconds % 60} s")
print(counts)
sys.exit(1 if failed + step_failures else 0)
EOF
}

# test_run DIR LOGBASE MESON_TEST_ARG...: runs the tests of DIR headless, $procs
# (2 unless set) at once; meson's log is DIR/meson-logs/LOGBASE.json.
test_run() {
    local dir="$TRIAGE_BUILD_BASE/$1" logbase="$2"
    shift 2
    rm -f "$dir/meson-logs/$logbase.json"
    bash "$TRIAGE_ROOT/build-aux/run-headless.sh" \
        meson test -C "$dir" --no-rebuild --num-processes "${procs:-2}" --print-errorlogs \
        --logbase "$logbase" "$@" ${test_args[@]+"${test_args[@]}"} </dev/null
}

# tests_ran NAME DIR LOGBASE RC: keeps the log of test_run DIR LOGBASE, whose
# status was RC, as NAME's.
tests_ran() {
    local name="$1" log="$TRIAGE_BUILD_BASE/$2/meson-logs/$3.json" rc="$4"
    # Ctrl+C reaches meson too, which records it and exits 1; bash then takes
    # the interrupt as handled and would go on (and wait for the steps aside).
    if [ "$rc" -gt 128 ] || grep -q '"result": "INTERRUPT"' "$log" 2>/dev/null; then
        say "$name: interrupted"
        exit 130
    fi
    if [ -f "$log" ]; then
        cp "$log" "$results/$name.json"
        # meson test fails without a failing test when it cannot run them at all
        if [ "$rc" -ne 0 ] && ! grep -q -E '"result": "(FAIL|TIMEOUT|ERROR|UNEXPECTEDPASS)"' \
                "$results/$name.json"; then
            step_failed "$name: meson test exited with $rc"
        fi
    elif [ "$rc" -ne 0 ]; then
        step_failed "$name: meson test exited with $rc"
    else
        say "$name: no tests in the selected suites"
    fi
}

# run_tests DIR MESON_TEST_ARG...: run the tests of DIR headless ($procs at once)
# and keep its log.
run_tests() {
    local name="$1"
    shift
    say "$name: testing"
    test_run "$name" testlog "$@"
    tests_ran "$name" "$name" testlog $?
}

# The tests of build. Those of the suite 'alone' need the display to themselves
# (dogtail's real input events): meson runs them one by one, each after every
# test before it has ended, which left a core idle for minutes. Here they run
# aside in a headless session of their own (their own display and buses), as
# the step build-alone; its output comes after build's. With `-- ARGS`, which
# may name suites or tests, everything runs in one go.
run_build_tests() {
    if [ $user_test_args = 1 ]; then
        procs=$build_procs run_tests build
        return
    fi
    aside build-alone run_alone_tests
    say "build: testing (but the suite alone: see build-alone), $build_procs at once"
    procs=$build_procs test_run build testlog --no-suite alone
    tests_ran build build testlog $?
    aside_done build-alone
}

run_alone_tests() {
    say "build-alone: testing the suite alone, in a headless session of its own, beside build's tests"
    test_run build testlog-alone --suite alone
    tests_ran build-alone build testlog-alone $?
}

# build-asan's tests, once it is built; then build-fuzz's targets, once it is.
run_ahead_tests() {
    if [ $asan = 1 ] && await_ahead build-asan; then
        procs=$asan_procs run_tests build-asan --suite unit --suite integration \
            --timeout-multiplier "$asan_mult"
    fi
    if [ $fuzz = 1 ] && await_ahead build-fuzz; then
        run_tests build-fuzz --suite fuzz --timeout-multiplier "$asan_mult"
    fi
}

# prepared NAME RC: whether prepare_dir's status RC lets NAME's tests run.
prepared() {
    case "$2" in
        0) return 0 ;;
        1) step_failed "$1: meson setup" ;;
        *) step_failed "$1: build" ;;
    esac
    return 1
}

# ahead_dir NAME CC [--only SUITE...] -- MESON_OPTIONS...: prepare_dir at nice 19
# in a process group of its own (stop_ahead ends it), its output to
# $results/NAME.log; then prints "NAME STATUS" for await_ahead.
ahead_dir() {
    local name="$1"
    # shellcheck disable=SC2016  # expanded by the inner bash
    TRIAGE_BUILD_BASE="$TRIAGE_BUILD_BASE" setsid nice -n 19 \
        bash -c '. "$0" && prepare_dir "$@"' "$TRIAGE_ROOT/build-aux/common.sh" "$@" \
        >"$results/$name.log" 2>&1 </dev/null &
    local pid=$!
    echo "$pid" >"$results/ahead.pgid"
    wait "$pid"
    local rc=$?
    : >"$results/ahead.pgid"
    echo "$name $rc"
}

# await_ahead NAME: waits for the build ahead of NAME, prints its output and
# fails the step (status 1) when it failed.
await_ahead() {
    local name="$1" began got rc
    began=$(date +%s)
    if ! read -r -u "$ahead_fd" got rc || [ "$got" != "$name" ]; then
        cat "$results/$name.log" 2>/dev/null
        step_failed "$name: its build in the background ended without a word"
        return 1
    fi
    say "$name: set up and built in the background (waited $(( $(date +%s) - began )) s for it):"
    cat "$results/$name.log"
    prepared "$name" "$rc"
}

if [ "${CHECK_SKIP_DEPS:-${TRIAGE_SKIP_DEPS:-0}}" != 1 ]; then
    say "checking dependencies (build-aux/install-deps.sh)"
    bash "$TRIAGE_ROOT/build-aux/install-deps.sh" </dev/null || {
        say "install-deps.sh failed"
        exit 1
    }
fi

asan_mult=${CHECK_ASAN_TIMEOUT_MULTIPLIER:-3}
# The tests wait (on sockets, processes, timers) far more than they compute:
# with two at a time of each build, the cores were idle a third to four
# fifths of the time (build's 216 took 1,720 s, one after the other, and 14
# minutes; build-asan's 124, 1,748 s and 15 minutes).
cores=$(nproc)
build_procs=${CHECK_TEST_PROCESSES:-$((cores * 2))}
asan_procs=${CHECK_ASAN_TEST_PROCESSES:-$((cores + 1))}
for n in "$build_procs" "$asan_procs"; do
    case "$n" in
        ''|*[!0-9]*|0) echo "check.sh: CHECK_TEST_PROCESSES and CHECK_ASAN_TEST_PROCESSES must be positive numbers" >&2; exit 2 ;;
    esac
done

# The main build dir's ui and integration suites, round after round, under load.
run_stress() {
    local dir="$TRIAGE_BUILD_BASE/build" round rc began line bad_rounds=0
    setup_builddir build gcc "${MAIN_BUILD_OPTS[@]}" || { step_failed "build: meson setup"; return; }
    build_dir build </dev/null || { step_failed "build: build"; return; }
    start_hog
    for ((round = 1; round <= stress_rounds; round++)); do
        hog_alive || { say "the CPU hog has gone: starting it again"; stop_hog; start_hog; }
        say "stress round $round/$stress_rounds: suites ui and integration under load"
        rm -f "$dir/meson-logs/testlog.json"
        began=$(date +%s)
        bash "$TRIAGE_ROOT/build-aux/run-headless.sh" \
            meson test -C "$dir" --no-rebuild --num-processes 2 --print-errorlogs \
            --suite ui --suite integration ${test_args[@]+"${test_args[@]}"} </dev/null
        rc=$?
        # Ctrl+C reaches meson too, which records it and exits 1; bash then
        # takes the interrupt as handled and would go on to the next round.
        if [ $rc -gt 128 ] || grep -q '"result": "INTERRUPT"' "$dir/meson-logs/testlog.json" 2>/dev/null; then
            say "stress round $round/$stress_rounds: interrupted"
            exit 130
        fi
        line="no test log"
        if [ -f "$dir/meson-logs/testlog.json" ]; then
            cp "$dir/meson-logs/testlog.json" "$results/stress-round-$round.json"
            line=$(summarize --round 0 0 "$results/stress-round-$round.json")
        fi
        if [ $rc -ne 0 ]; then
            bad_rounds=$((bad_rounds + 1))
            # a run that failed without a failing test (it could not run them) counts too
            grep -q -E '"result": "(FAIL|TIMEOUT|ERROR|UNEXPECTEDPASS)"' \
                "$results/stress-round-$round.json" 2>/dev/null \
                || step_failed "stress round $round: meson test exited with $rc"
        fi
        say "stress round $round/$stress_rounds: $([ $rc -eq 0 ] && echo passed || echo FAILED)" \
            "in $(( $(date +%s) - began )) s: ${line%%$'\n'*}"
        [ "$line" = "${line#*$'\n'}" ] || printf '%s\n' "${line#*$'\n'}" >&2
    done
    stop_hog
    say "stress: $((stress_rounds - bad_rounds))/$stress_rounds rounds passed"
}

asan=0; [ "${CHECK_SKIP_ASAN:-0}" = 1 ] || asan=1
fuzz=0; [ "${CHECK_SKIP_FUZZ:-0}" = 1 ] || fuzz=1
# The fuzz targets need only themselves; `-- ARGS` may select other tests.
fuzz_only=(--only fuzz)
[ $user_test_args = 0 ] || fuzz_only=()

# build-asan, then build-fuzz, one after the other in the background.
build_ahead() {
    [ $asan = 0 ] || ahead_dir build-asan gcc -- -Db_sanitize=address,undefined -Dapp=false
    [ $fuzz = 0 ] || ahead_dir build-fuzz clang ${fuzz_only[@]+"${fuzz_only[@]}"} -- \
        -Dfuzzing=true -Db_sanitize=address,undefined -Db_lundef=false -Dapp=false
}

if [ $stress = 1 ]; then
    run_stress
else
    if [ $asan = 1 ] || [ $fuzz = 1 ]; then
        exec {ahead_fd}< <(build_ahead)
        ahead_pid=$!
    fi
    # build-asan's tests run aside, as soon as it is built: beside build's
    # build, then beside build's tests; the fuzz targets after them. Most tests
    # wait (on sockets, processes, timeouts) far more than they compute, so one
    # step's tests after the other's left the machine mostly idle (build's: 224
    # s of CPU in 524 s on two cores).
    [ $asan = 0 ] && [ $fuzz = 0 ] || aside build-ahead run_ahead_tests
    if [ "${CHECK_SKIP_MAIN:-0}" != 1 ]; then
        prepare_dir build gcc -- "${MAIN_BUILD_OPTS[@]}"
        prepared build $? && run_build_tests
    fi
    [ $asan = 0 ] && [ $fuzz = 0 ] || aside_done build-ahead
    ahead_pid=
fi

failed_steps=()
[ ! -f "$results/failed-steps" ] || mapfile -t failed_steps <"$results/failed-steps"
if [ ${#failed_steps[@]} -gt 0 ]; then
    printf 'failed step: %s\n' "${failed_steps[@]}"
fi
# One summary over every test run, plus the steps that failed outside a test; its
# exit status is the script's.
summarize "${#failed_steps[@]}" "$(( $(date +%s) - started ))" "$results"/*.json
