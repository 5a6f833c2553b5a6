#!/bin/bash
# install-deps.sh — build, test and headless-session dependencies of Triage on Debian 12.
#
# Copyright 2026 The Triage authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Idempotent and quiet: when every package is already installed it prints nothing
# and does not touch apt (no apt-get update). Otherwise it installs only what is
# missing, with --no-install-recommends. Runs as root, or as a user through sudo.
#   INSTALL_DEPS_NO_UI_TOOLS=1   skip screenshot / AT-SPI tooling (imagemagick, dogtail, xdotool)
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive

build_pkgs=(
    gcc libc6-dev pkg-config meson ninja-build gettext
    libglib2.0-dev libgtk-4-dev libadwaita-1-dev libsoup-3.0-dev libjson-glib-dev
    libnotify-dev libsecret-1-dev libsqlite3-dev sqlite3 libgtksourceview-5-dev
    libyajl-dev                                   # reads JSON text into json-glib's tree (libatp)
    libpq-dev                                     # the server's PostgreSQL backend (libpq)
    libmimalloc-dev                               # the server's allocator (src/server/meson.build)
    desktop-file-utils appstream appstream-util   # .desktop / metainfo validation
    gtk-update-icon-cache                         # meson's gnome.post_install
    groff-base                                    # man page checks (tests/data)
    clang libclang-rt-14-dev llvm                 # libFuzzer, sanitizers, llvm-symbolizer
)
headless_pkgs=(
    xvfb xauth                      # an X server without a screen
    x11-utils                       # xprop: the headless session's self-test
    dbus dbus-bin dbus-daemon       # dbus-run-session, private buses for the fakes
    libglib2.0-bin                  # gdbus, gsettings, glib-compile-schemas
    gnome-keyring                   # org.freedesktop.secrets for libsecret
    notification-daemon             # a real notification server that (unlike dunst) is
                                    # never D-Bus-activated by surprise
    at-spi2-core                    # a11y bus launcher + registry (GTK4 a11y)
    python3 python3-gi python3-dbus gir1.2-glib-2.0   # fake servers, test helpers
    python3-jsonschema              # AITP decisions checked against AITP-02's Decision (tests/server)
    libgl1-mesa-dri                 # llvmpipe for GTK's GL renderer under Xvfb
    fonts-dejavu-core adwaita-icon-theme librsvg2-common  # readable screenshots
    curl                            # README examples, server admin
    libsecret-tools                 # secret-tool: a service key in the keyring (README, tests/cli)
    glib-networking                 # TLS for libsoup (https/wss clients, the server's TLS listener)
    postgresql                      # initdb/postgres for the server's tests on PostgreSQL (each
                                    # test makes its own cluster; the system one is not used)
    stress-ng                       # the CPU hog of check.sh --stress
    prometheus                      # promtool checks the server's /metrics (tests/server)
    python3-prometheus-client       # parses /metrics in the metrics test (tests/server)
)
# Node.js and npm run the official MCP TypeScript SDK client against triage-mcp
# (tests/mcp). A nodejs that already brings its own npm (NodeSource's does) is
# kept: Debian's npm package would conflict with it.
node_pkgs=(nodejs npm)
ui_test_pkgs=(
    imagemagick                     # import -window root shot.png
    python3-dogtail                 # AT-SPI driving (pulls python3-pyatspi)
    xdotool                         # raw X input / window queries
)

pkgs=("${build_pkgs[@]}" "${headless_pkgs[@]}")
if ! { command -v node && command -v npm; } >/dev/null; then
    pkgs+=("${node_pkgs[@]}")
fi
[ "${INSTALL_DEPS_NO_UI_TOOLS:-0}" = 1 ] || pkgs+=("${ui_test_pkgs[@]}")

# One dpkg-query for all: packages not known to dpkg print nothing, so compare.
installed=$(dpkg-query -W -f='${Package} ${db:Status-Status}\n' "${pkgs[@]}" 2>/dev/null \
            | awk '$2 == "installed" { print $1 }' || true)
missing=()
for p in "${pkgs[@]}"; do
    grep -qx -- "$p" <<<"$installed" || missing+=("$p")
done

if [ ${#missing[@]} -gt 0 ]; then
    SUDO=()
    if [ "$(id -u)" -ne 0 ]; then
        if ! command -v sudo >/dev/null; then
            echo "install-deps: missing packages: ${missing[*]}" >&2
            echo "install-deps: run this script as root, or install sudo" >&2
            exit 1
        fi
        SUDO=(sudo)
        [ -t 0 ] || SUDO=(sudo -n)   # no terminal to ask a password on: fail, don't hang
    fi
    echo "install-deps: installing ${missing[*]}" >&2
    # always refresh: stale lists point at versions the mirror no longer has (404)
    "${SUDO[@]}" apt-get update -q >&2
    "${SUDO[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}" >&2
fi

pkg-config --exists --print-errors \
    'gtk4 >= 4.8' 'libadwaita-1 >= 1.2' 'libsoup-3.0 >= 3.2' 'json-glib-1.0 >= 1.6' \
    libnotify libsecret-1 sqlite3 gtksourceview-5 'libpq >= 15' 'yajl >= 2.1'
/usr/bin/python3 -c 'import gi; gi.require_version("Gio", "2.0"); from gi.repository import Gio' \
    || { echo "install-deps: /usr/bin/python3 cannot import gi (python3-gi)" >&2; exit 1; }
