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

# build_dir DIR: compile everything in DIR.
build_dir() {
    say "$1: building"
    meson compile -C "$TRIAGE_BUILD_BASE/$1" ${TRIAGE_JOBS:+-j "$TRIAGE_JOBS"}
}
