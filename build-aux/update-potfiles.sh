#!/bin/bash
# update-potfiles.sh — bring po/POTFILES.in up to date: add every file under src/
# and data/ that has translatable strings (_(), N_(), C_(), NC_(), ngettext,
# translatable="yes") and drop entries whose file is gone. The test
# 'translations' (suite data) fails until this has been run after such a change.
#
# Copyright 2026 The Triage authors
# SPDX-License-Identifier: GPL-3.0-or-later
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
exec /usr/bin/python3 "$root/tests/data/check-data.py" potfiles-update "$root"
