#!/bin/bash
# with-private-keyring.sh CMD [ARG...] — runs CMD on a D-Bus session bus of its own
# with a gnome-keyring whose "login" keyring is unlocked, in a fresh HOME, so a
# test may lock the keyring without disturbing other tests.
#
# Copyright 2026 The Triage authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Exit status: CMD's, or 77 (skip) when dbus-run-session or gnome-keyring-daemon
# is missing.

set -u

if [ "${WITH_PRIVATE_KEYRING_INNER:-}" != 1 ]; then
    command -v dbus-run-session >/dev/null || { echo "dbus-run-session missing"; exit 77; }
    command -v gnome-keyring-daemon >/dev/null || { echo "gnome-keyring-daemon missing"; exit 77; }
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/triage-keyring.XXXXXX") || exit 99
    trap 'rm -rf "$tmp"' EXIT
    mkdir -p "$tmp/runtime" && chmod 700 "$tmp/runtime"
    # The bus and the keyring daemon must not inherit the tests' G_DEBUG
    # (fatal-warnings would kill gnome-keyring on a harmless warning); CMD gets it back.
    export WITH_PRIVATE_KEYRING_G_DEBUG="${G_DEBUG:-}"
    # A session bus that activates nothing: gnome-keyring is started below,
    # and its unlock prompter (gcr-prompter) cannot be, so a locked keyring's
    # prompt fails at once, every time. Activated, the prompter came up on
    # the tests' Xvfb or died for want of a display, at its own pace, and
    # libsecret then ended the lookup either way (or never).
    cat > "$tmp/session.conf" <<'CONF'
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <keep_umask/>
  <listen>unix:tmpdir=/tmp</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
CONF
    HOME="$tmp" XDG_DATA_HOME="$tmp/data" XDG_RUNTIME_DIR="$tmp/runtime" \
        XDG_CONFIG_HOME="$tmp/config" WITH_PRIVATE_KEYRING_INNER=1 \
        env -u G_DEBUG dbus-run-session --config-file="$tmp/session.conf" -- "$0" "$@" \
        2> >(grep -v 'Failed to set fd limit' >&2)
    exit $?
fi

unset GNOME_KEYRING_CONTROL SSH_AUTH_SOCK
eval "$(printf '%s' test-keyring-pw | gnome-keyring-daemon --unlock --components=secrets 2>/dev/null \
        | sed -n 's/^\([A-Z_]*=.*\)$/export \1/p')"
i=0
while [ $i -lt 50 ]; do
    gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
        --method org.freedesktop.DBus.NameHasOwner org.freedesktop.secrets 2>/dev/null \
        | grep -q true && break
    sleep 0.1
    i=$((i + 1))
done
# ...and until the unlocked "login" keyring is the default collection (created
# a moment after the name appears; before that, storing would ask to create one).
i=0
while [ $i -lt 50 ]; do
    gdbus call --session --dest org.freedesktop.secrets --object-path /org/freedesktop/secrets \
        --method org.freedesktop.Secret.Service.ReadAlias default 2>/dev/null \
        | grep -q "/org/freedesktop/secrets/collection/" && break
    sleep 0.1
    i=$((i + 1))
done
if [ -n "$WITH_PRIVATE_KEYRING_G_DEBUG" ]; then
    export G_DEBUG="$WITH_PRIVATE_KEYRING_G_DEBUG"
fi
exec "$@"
