#!/bin/bash
# check.sh — install what is missing, build, and run every test of Triage.
#
# Copyright 2026 The Triage authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: build-aux/check.sh [--quick] [-- MESON_TEST_ARG...]
#
# Steps (each in its own build dir under the source root):
#   deps        build-aux/install-deps.sh (apt, only what is missing; root or sudo)
#   build       gcc, --werror, default options: build everything and run ALL tests
#               (suites unit, integration, ui, data) under build-aux/run-headless.sh
#   build-asan  gcc, -Db_sanitize=address,undefined -Dapp=false: suites unit and
#               integration, so memory errors and leaks fail the run
#   build-fuzz  clang, -Dfuzzing=true -Db_sanitize=address,undefined -Db_lundef=false
#               -Dapp=false: suite fuzz (short, bounded runs of every fuzz target)
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
#   -- ARGS     extra arguments for every `meson test`, e.g. -- --suite unit
# Environment:
#   CHECK_SKIP_DEPS=1    do not run install-deps.sh
#   CHECK_SKIP_MAIN=1    skip the build step
#   CHECK_SKIP_ASAN=1    skip the build-asan step
#   CHECK_SKIP_FUZZ=1    skip the build-fuzz step
#   CHECK_ASAN_TIMEOUT_MULTIPLIER   test timeout multiplier under sanitizers (default 3)
#   TRIAGE_JOBS=N        compile jobs (default: ninja's choice)
#   TRIAGE_BUILD_BASE    folder for the build dirs (default: the source root)
set -uo pipefail

# shellcheck source=build-aux/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"

quick=0
test_args=()
while [ $# -gt 0 ]; do
    case "$1" in
        --quick) quick=1 ;;
        --) shift; test_args=("$@"); break ;;
        -h|--help) sed -n '2,/^set -uo/{/^set -uo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"; exit 0 ;;
        *) echo "check.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
    shift
done
if [ $quick = 1 ]; then
    CHECK_SKIP_ASAN=1
    CHECK_SKIP_FUZZ=1
fi

results=$(mktemp -d "${TMPDIR:-/tmp}/triage-check.XXXXXX")
trap 'rm -rf "$results"' EXIT
failed_steps=()
started=$(date +%s)

step_failed() {
    say "FAILED: $1"
    failed_steps+=("$1")
}

# run_tests DIR MESON_TEST_ARG...: run the tests of DIR headless and keep its log.
run_tests() {
    local name="$1" dir="$TRIAGE_BUILD_BASE/$1"
    shift
    rm -f "$dir/meson-logs/testlog.json"
    say "$name: testing"
    bash "$TRIAGE_ROOT/build-aux/run-headless.sh" \
        meson test -C "$dir" --no-rebuild --num-processes 2 --print-errorlogs \
        "$@" ${test_args[@]+"${test_args[@]}"} </dev/null
    local rc=$?
    if [ -f "$dir/meson-logs/testlog.json" ]; then
        cp "$dir/meson-logs/testlog.json" "$results/$name.json"
        # meson test fails without a failing test when it cannot run them at all
        if [ $rc -ne 0 ] && ! grep -q -E '"result": "(FAIL|TIMEOUT|ERROR|UNEXPECTEDPASS)"' \
                "$results/$name.json"; then
            step_failed "$name: meson test exited with $rc"
        fi
    elif [ $rc -ne 0 ]; then
        step_failed "$name: meson test exited with $rc"
    else
        say "$name: no tests in the selected suites"
    fi
}

# step NAME CC SUITE_ARGS -- MESON_OPTIONS...
step() {
    local name="$1" cc="$2"
    shift 2
    local suites=()
    while [ "$1" != "--" ]; do suites+=("$1"); shift; done
    shift
    setup_builddir "$name" "$cc" "$@" || { step_failed "$name: meson setup"; return; }
    build_dir "$name" </dev/null || { step_failed "$name: build"; return; }
    run_tests "$name" ${suites[@]+"${suites[@]}"}
}

if [ "${CHECK_SKIP_DEPS:-${TRIAGE_SKIP_DEPS:-0}}" != 1 ]; then
    say "checking dependencies (build-aux/install-deps.sh)"
    bash "$TRIAGE_ROOT/build-aux/install-deps.sh" </dev/null || {
        say "install-deps.sh failed"
        exit 1
    }
fi

asan_mult=${CHECK_ASAN_TIMEOUT_MULTIPLIER:-3}

[ "${CHECK_SKIP_MAIN:-0}" = 1 ] || \
    step build gcc -- "${MAIN_BUILD_OPTS[@]}"
[ "${CHECK_SKIP_ASAN:-0}" = 1 ] || \
    step build-asan gcc --suite unit --suite integration --timeout-multiplier "$asan_mult" -- \
        -Db_sanitize=address,undefined -Dapp=false
[ "${CHECK_SKIP_FUZZ:-0}" = 1 ] || \
    step build-fuzz clang --suite fuzz --timeout-multiplier "$asan_mult" -- \
        -Dfuzzing=true -Db_sanitize=address,undefined -Db_lundef=false -Dapp=false

if [ ${#failed_steps[@]} -gt 0 ]; then
    printf 'failed step: %s\n' "${failed_steps[@]}"
fi
# One summary over every test run, plus the steps that failed outside a test; its
# exit status is the script's.
/usr/bin/python3 - "$results" "${#failed_steps[@]}" "$(( $(date +%s) - started ))" <<'EOF'
import glob, json, os, sys
results, step_failures, seconds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
passed = failed = skipped = 0
bad = []
for path in sorted(glob.glob(os.path.join(results, "*.json"))):
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
                bad.append(f"  {step}: {t['name']} (exit status 77: a libFuzzer crash)")
            elif r == "SKIP":
                skipped += 1
            else:
                failed += 1
                bad.append(f"  {step}: {t['name']} ({r})")
if bad:
    print("failed tests:")
    print("\n".join(bad))
print(f"check took {seconds // 60} min {seconds % 60} s")
print("%d passed, %d failed, %d skipped" % (passed, failed + step_failures, skipped))
sys.exit(1 if failed + step_failures else 0)
EOF
