# common.sh — helpers shared by build-aux/check.sh and build-aux/start.sh (sourced).
#
# Copyright 2026 The Triage authors
# SPDX-License-Identifier: GPL-3.0-or-later

TRIAGE_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# Where the build dirs (build, build-asan, build-fuzz) go; the source root by default.
TRIAGE_BUILD_BASE=${TRIAGE_BUILD_BASE:-$TRIAGE_ROOT}

# The options of the main build dir `build`, used by both check.sh and start.sh so
# that neither reconfigures what the other set up.
MAIN_BUILD_OPTS=(--werror)

if [ -t 2 ]; then
    say() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }
else
    say() { printf '==> %s\n' "$*" >&2; }
fi

# setup_builddir DIR CC [MESON_OPTION...]
# Configures DIR (a name under $TRIAGE_BUILD_BASE) with compiler CC and the options.
# Nothing is done when DIR was already set up with exactly these; when they changed
# the dir is wiped and set up again (a compiler can't change in place, and options
# dropped from the list would otherwise linger). A dir that a failed run left
# half-configured is set up again too.
setup_builddir() {
    local name="$1" dir="$TRIAGE_BUILD_BASE/$1" cc="$2"
    shift 2
    local stamp="$dir/.triage-setup" want
    want="CC=$cc meson=$(meson --version) $*"
    if [ -f "$dir/build.ninja" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
        return 0
    fi
    local mode=()
    if [ -f "$dir/meson-private/coredata.dat" ]; then
        mode=(--wipe)
        say "$name: options changed, setting it up again ($cc $*)"
    else
        say "$name: setting up ($cc $*)"
    fi
    rm -f "$stamp"
    local log
    log=$(mktemp "${TMPDIR:-/tmp}/triage-setup.XXXXXX")
    if ! CC="$cc" meson setup "${mode[@]}" "$dir" "$TRIAGE_ROOT" "$@" >"$log" 2>&1 \
        && ! { rm -rf "$dir" && CC="$cc" meson setup "$dir" "$TRIAGE_ROOT" "$@" >"$log" 2>&1; }
    then
        cat "$log" >&2
        rm -f "$log"
        say "$name: meson setup failed"
        return 1
    fi
    rm -f "$log"
    printf '%s' "$want" >"$stamp"
}

# build_dir DIR [TARGET...]: compile everything in DIR, or only the targets
# (meson compile's [PATH/]NAME) and what they need.
build_dir() {
    local name="$1"
    shift
    if [ $# -gt 0 ]; then
        say "$name: building $*"
    else
        say "$name: building"
    fi
    meson compile -C "$TRIAGE_BUILD_BASE/$name" ${TRIAGE_JOBS:+-j "$TRIAGE_JOBS"} "$@"
}

# suite_targets DIR SUITE...: the targets (meson compile's PATH/NAME) the tests
# of the suites run, from DIR's introspection files. Only for tests that need
# nothing but their own executable and declared depends: a test that finds a
# program through its environment (TRIAGE_SERVER, …) does not declare it.
suite_targets() {
    /usr/bin/python3 - "$TRIAGE_BUILD_BASE/$1" "$TRIAGE_ROOT" "${@:2}" <<'PYEOF'
import json, os, sys
info = os.path.join(sys.argv[1], "meson-info")
root, suites = sys.argv[2], set(sys.argv[3:])
with open(os.path.join(info, "intro-targets.json")) as f:
    targets = {t["id"]: t for t in json.load(f)}
with open(os.path.join(info, "intro-tests.json")) as f:
    tests = json.load(f)
wanted = set()
for t in tests:
    # meson test --suite X takes X as "project:suite", the suite or the project
    if any(s in suites or s.split(":", 1)[-1] in suites for s in t["suite"]):
        wanted.update(t["depends"])
for tid in sorted(wanted):
    t = targets[tid]
    where = os.path.relpath(os.path.dirname(t["defined_in"]), root)
    print(t["name"] if where == "." else where + "/" + t["name"])
PYEOF
}

# prepare_dir DIR CC [--only SUITE...] -- [MESON_OPTION...]
# Sets DIR up (setup_builddir) and builds it: everything, or with --only just
# what the tests of the suites run (see suite_targets). Returns 1 when the
# setup failed, 2 when the build did.
prepare_dir() {
    local name="$1" cc="$2"
    shift 2
    local only=() targets=()
    if [ "${1:-}" = --only ]; then
        shift
        while [ "$1" != "--" ]; do only+=("$1"); shift; done
    fi
    shift
    setup_builddir "$name" "$cc" "$@" || return 1
    if [ ${#only[@]} -gt 0 ]; then
        mapfile -t targets < <(suite_targets "$name" "${only[@]}")
        [ ${#targets[@]} -gt 0 ] || say "$name: no tests in suite ${only[*]}: building everything"
    fi
    build_dir "$name" ${targets[@]+"${targets[@]}"} </dev/null || return 2
}

# exec_in_devenv BUILDDIR PROGRAM [ARG...]
# Replaces the shell with PROGRAM in the environment `meson devenv -C BUILDDIR`
# gives (the build tree's programs on PATH, its GSettings schemas and data),
# in the current folder. `meson devenv BUILDDIR PROGRAM` would keep Python
# between the terminal and PROGRAM: Ctrl+C then prints meson's traceback.
# The environment is read NUL-separated, so no value is ever parsed as shell.
# Returns 1 (with a message) only when that environment could not be had.
exec_in_devenv() {
    local builddir="$1"
    shift
    local vars=()
    mapfile -d '' vars < <(meson devenv -C "$builddir" --workdir "$PWD" env -0)
    if [ ${#vars[@]} -eq 0 ]; then
        say "meson devenv -C $builddir failed"
        return 1
    fi
    exec env -i "${vars[@]}" "$@"
}
