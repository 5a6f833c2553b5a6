#!/bin/bash
# run-sdk-test.sh SRCDIR SDKDIR — installs the pinned MCP TypeScript SDK (package.json
# and package-lock.json of SRCDIR) into SDKDIR, a folder of the build, with npm ci,
# unless that exact lock file is installed there already; then runs
# test-mcp-sdk.mjs with it. npm's output goes to standard error; TAP to standard output.
#
# Copyright 2026 The Triage authors
# SPDX-License-Identifier: GPL-3.0-or-later
set -euo pipefail

src=$1
sdk=$2

for tool in node npm; do
    if ! command -v "$tool" >/dev/null; then
        echo "Bail out! $tool is missing (build-aux/install-deps.sh installs nodejs and npm)"
        exit 1
    fi
done

stamp="$sdk/.installed-lock.json"
if ! cmp -s "$src/package-lock.json" "$stamp" ||
   [ ! -f "$sdk/node_modules/@modelcontextprotocol/sdk/package.json" ]; then
    rm -rf "$sdk"
    mkdir -p "$sdk"
    cp "$src/package.json" "$src/package-lock.json" "$sdk/"
    if ! (cd "$sdk" && npm ci --no-audit --no-fund --loglevel=error) >&2; then
        echo "Bail out! npm ci of the pinned @modelcontextprotocol/sdk failed (see above)"
        exit 1
    fi
    cp "$src/package-lock.json" "$stamp"
fi

MCP_SDK_DIR="$sdk" exec node "$src/test-mcp-sdk.mjs"
