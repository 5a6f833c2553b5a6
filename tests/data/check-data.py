#!/usr/bin/python3
# check-data.py — checks of Triage's data files (the meson suite 'data').
#
# Copyright 2026 The Triage authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
#   check-data.py desktop FILE...                 desktop-file-validate
#   check-data.py appstream FILE                  appstreamcli validate --no-net
#   check-data.py schemas DIR                     glib-compile-schemas --strict --dry-run
#   check-data.py systemd UNIT                    systemd-analyze verify --user (skips if absent)
#   check-data.py pot SRCROOT                     POTFILES.in complete + xgettext + msgfmt
#   check-data.py potfiles-update SRCROOT         add the missing files to POTFILES.in and
#                                                 drop the ones that are gone (not a test:
#                                                 build-aux/update-potfiles.sh runs it)
#   check-data.py consistency APP_ID BUILDDATA SRCDATA   ids, names and icons agree
#   check-data.py manpage PAGE                    groff -man -ww: no warnings
#   check-data.py man-options PAGE PROGRAM        every option of PROGRAM --help is in PAGE,
#                                                 every option in PAGE's OPTIONS is in --help
#
# Exit status: 0 pass, 1 fail, 77 skip (a tool or a program is not there).

import configparser
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

SKIP = 77
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg, file=sys.stderr)


def skip(msg):
    print("SKIP: " + msg)
    sys.exit(SKIP)


def need(tool):
    path = shutil.which(tool)
    if not path:
        skip(f"{tool} is not installed (build-aux/install-deps.sh installs it)")
    return path


def run(argv, **kw):
    """Run argv, echo its output, return (returncode, stdout, stderr)."""
    print("+ " + " ".join(argv))
    p = subprocess.run(argv, capture_output=True, text=True, timeout=120, **kw)
    if p.stdout:
        print(p.stdout, end="")
    if p.stderr:
        print(p.stderr, end="", file=sys.stderr)
    return p.returncode, p.stdout, p.stderr


def cmd_desktop(files):
    tool = need("desktop-file-validate")
    for f in files:
        rc, out, err = run([tool, f])
        if rc != 0 or "error:" in out + err:
            fail(f"desktop-file-validate rejects {f}")


def cmd_appstream(files):
    tool = need("appstreamcli")
    for f in files:
        rc, _, _ = run([tool, "validate", "--no-net", "--explain", f])
        if rc != 0:
            fail(f"appstreamcli validate rejects {f}")


def cmd_schemas(dirs):
    tool = need("glib-compile-schemas")
    for d in dirs:
        rc, out, err = run([tool, "--strict", "--dry-run", d])
        if rc != 0 or out.strip() or err.strip():
            fail(f"glib-compile-schemas --strict rejects the schemas in {d}")


def cmd_systemd(units):
    tool = shutil.which("systemd-analyze")
    if not tool:
        skip("systemd-analyze is not installed")
    server = os.environ.get("TRIAGE_SERVER", "")
    if not (server and os.access(server, os.X_OK)):
        skip("triage-server is not built yet; systemd-analyze verify needs the ExecStart program")
    for unit in units:
        with tempfile.TemporaryDirectory() as tmp:
            runtime = os.path.join(tmp, "runtime")
            os.mkdir(runtime, 0o700)
            copy = os.path.join(tmp, os.path.basename(unit))
            with open(unit) as src:
                text = src.read()
            m = re.search(r"^ExecStart=(\S+)", text, re.M)
            if not m or not m.group(1).endswith("/triage-server"):
                fail(f"{unit}: ExecStart does not run triage-server")
                continue
            if not re.search(r"^ExecStart=\S+ --local\s*$", text, re.M):
                fail(f"{unit}: ExecStart must be 'triage-server --local'")
            # Verify the unit as installed, but with the program from the build tree.
            with open(copy, "w") as dst:
                dst.write(text.replace(m.group(1), server, 1))
            env = dict(os.environ, XDG_RUNTIME_DIR=runtime)
            rc, out, err = run([tool, "verify", "--user", "--man=no", copy], env=env)
            # verify exits 0 on "ignoring" parse errors: any message is a failure.
            if rc != 0 or out.strip() or err.strip():
                fail(f"systemd-analyze verify rejects {unit}")


def cmd_systemd_system(units):
    """The team server's system unit: systemd-analyze verify as a system unit, run
    as its own user in a sandbox (the settings README's exposure figure relies on)."""
    tool = shutil.which("systemd-analyze")
    if not tool:
        skip("systemd-analyze is not installed")
    server = os.environ.get("TRIAGE_SERVER", "")
    if not (server and os.access(server, os.X_OK)):
        skip("triage-server is not built yet; systemd-analyze verify needs the ExecStart program")
    required = ["DynamicUser=yes", "StateDirectory=triage", "ProtectSystem=strict",
                "NoNewPrivileges=yes", "PrivateTmp=yes", "PrivateDevices=yes", "ProtectHome=yes",
                "CapabilityBoundingSet=", "MemoryDenyWriteExecute=yes",
                "SystemCallFilter=@system-service", "RestrictAddressFamilies="]
    for unit in units:
        with open(unit) as src:
            text = src.read()
        for setting in required:
            if not re.search("^" + re.escape(setting), text, re.M):
                fail(f"{unit}: no {setting}")
        m = re.search(r"^ExecStart=(\S+)", text, re.M)
        if not m or not m.group(1).endswith("/triage-server"):
            fail(f"{unit}: ExecStart does not run triage-server")
            continue
        with tempfile.TemporaryDirectory() as tmp:
            copy = os.path.join(tmp, os.path.basename(unit))
            with open(copy, "w") as dst:
                dst.write(text.replace(m.group(1), server, 1))
            rc, out, err = run([tool, "verify", "--man=no", copy])
            if rc != 0 or out.strip() or err.strip():
                fail(f"systemd-analyze verify rejects {unit}: {out.strip()} {err.strip()}")


# The keywords of meson's i18n 'glib' preset, so this check extracts what
# `meson compile triage-pot` extracts, without writing po/triage.pot.
XGETTEXT_GLIB = [
    "--from-code=UTF-8", "--add-comments",
    "--keyword=_", "--keyword=N_", "--keyword=C_:1c,2", "--keyword=NC_:1c,2",
    "--keyword=g_dcgettext:2", "--keyword=g_dngettext:2,3", "--keyword=g_dpgettext2:2c,3",
    "--flag=N_:1:pass-c-format", "--flag=C_:2:pass-c-format", "--flag=NC_:2:pass-c-format",
    "--flag=g_dngettext:2:pass-c-format", "--flag=g_strdup_printf:1:c-format",
    "--flag=g_string_printf:2:c-format", "--flag=g_string_append_printf:2:c-format",
    "--flag=g_error_new:3:c-format", "--flag=g_set_error:4:c-format",
    "--flag=g_markup_printf_escaped:1:c-format", "--flag=g_printf:1:c-format",
    "--flag=g_fprintf:2:c-format", "--flag=g_snprintf:3:c-format",
]
C_MARK = re.compile(r'(?<![A-Za-z0-9_])(?:_|N_|C_|NC_|ngettext|g_dngettext|g_dpgettext2)'
                    r'\s*\(\s*"')
UI_MARK = re.compile(r'translatable\s*=\s*"(?:yes|true)"')
DATA_PATTERNS = (".desktop.in", ".metainfo.xml.in", ".gschema.xml")


def needs_translation(root, rel):
    path = os.path.join(root, rel)
    if rel.startswith("data/"):
        return rel.endswith(DATA_PATTERNS)
    if rel.endswith((".c", ".h")):
        pattern = C_MARK
    elif rel.endswith((".ui", ".ui.in")):
        pattern = UI_MARK
    else:
        return False
    with open(path, encoding="utf-8", errors="replace") as f:
        return bool(pattern.search(f.read()))


def read_potfiles(root):
    """(listed paths, [(line number, problem)]) of po/POTFILES.in."""
    listed, problems = [], []
    with open(os.path.join(root, "po", "POTFILES.in")) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            if line.startswith("[") or line.startswith("/"):
                problems.append((n, f"'{line}' must be a plain path relative to the top folder"))
                continue
            if not os.path.isfile(os.path.join(root, line)):
                problems.append((n, f"{line} does not exist"))
            if line in listed:
                problems.append((n, f"{line} is listed twice"))
            listed.append(line)
    return listed, problems


def translatable_files(root):
    """Every file under src/ and data/ with translatable strings, sorted."""
    found = []
    for top in ("src", "data"):
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, top)):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
            for name in sorted(filenames):
                rel = os.path.relpath(os.path.join(dirpath, name), root)
                if needs_translation(root, rel):
                    found.append(rel)
    return found


def cmd_potfiles_update(args):
    root = os.path.abspath(args[0])
    path = os.path.join(root, "po", "POTFILES.in")
    listed, _ = read_potfiles(root)
    keep = [p for p in listed if os.path.isfile(os.path.join(root, p))]
    added = [p for p in translatable_files(root) if p not in keep]
    with open(path) as f:
        lines = f.read().splitlines()
    out = [ln for ln in lines
           if not ln.strip() or ln.lstrip().startswith("#") or ln.strip() in keep]
    out += added
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")
    for p in added:
        print(f"added {p}")
    for p in sorted(set(listed) - set(keep)):
        print(f"removed {p}")


def cmd_pot(args):
    root = os.path.abspath(args[0])
    listed, problems = read_potfiles(root)
    for n, problem in problems:
        fail(f"po/POTFILES.in:{n}: {problem}")

    # Every file with translatable strings must be listed.
    for rel in translatable_files(root):
        if rel not in listed:
            fail(f"{rel} has translatable strings but is not in po/POTFILES.in "
                 "(build-aux/update-potfiles.sh adds it)")

    xgettext = need("xgettext")
    msgfmt = need("msgfmt")
    existing = [p for p in listed if os.path.isfile(os.path.join(root, p))]
    with tempfile.TemporaryDirectory() as tmp:
        pot = os.path.join(tmp, "triage.pot")
        rc, _, err = run([xgettext, *XGETTEXT_GLIB, "--package-name=triage",
                          "-D", root, "-o", pot, *existing])
        if rc != 0:
            fail("xgettext failed on the files in po/POTFILES.in")
        elif "warning" in err.lower():
            fail("xgettext warns about the files in po/POTFILES.in")
        elif not os.path.exists(pot):
            fail("xgettext found no translatable strings")
        else:
            with open(pot, encoding="utf-8") as f:
                count = f.read().count('\nmsgid "') - 1  # minus the header entry
            print(f"triage.pot: {count} messages from {len(existing)} files")
            if count < 1:
                fail("triage.pot has no messages")
            rc, _, _ = run([msgfmt, "--check-format", "--check-domain", "-o", os.devnull, pot])
            if rc != 0:
                fail("msgfmt --check rejects the generated triage.pot")

    # Every language in LINGUAS has a valid po file.
    with open(os.path.join(root, "po", "LINGUAS")) as f:
        langs = [w for line in f if not line.lstrip().startswith("#") for w in line.split()]
    for lang in langs:
        po = os.path.join(root, "po", lang + ".po")
        if not os.path.isfile(po):
            fail(f"po/LINGUAS lists {lang} but po/{lang}.po does not exist")
            continue
        rc, _, _ = run([msgfmt, "--check", "-o", os.devnull, po])
        if rc != 0:
            fail(f"msgfmt --check rejects po/{lang}.po")


def read_desktop(path):
    cp = configparser.RawConfigParser(interpolation=None, strict=True)
    cp.optionxform = str
    cp.read(path, encoding="utf-8")
    return cp


def check_svg(path, size, symbolic):
    try:
        svg = ET.parse(path).getroot()
    except ET.ParseError as e:
        fail(f"{path}: not well-formed XML: {e}")
        return
    if svg.tag != "{http://www.w3.org/2000/svg}svg":
        fail(f"{path}: root element is not an SVG <svg>")
        return
    if svg.get("viewBox") != f"0 0 {size} {size}":
        fail(f"{path}: viewBox must be '0 0 {size} {size}'")
    if symbolic:
        for el in svg.iter():
            for attr in ("fill", "stroke"):
                v = (el.get(attr) or "").lower()
                if v and v not in ("none", "#2e3436", "currentcolor", "#222", "#222222", "#000"):
                    fail(f"{path}: symbolic icons are one colour; found {attr}={v}")


def cmd_consistency(args):
    app_id, build, src = args
    desktop = os.path.join(build, app_id + ".desktop")
    autostart = os.path.join(build, app_id + "-autostart.desktop")
    service = os.path.join(build, app_id + ".service")
    metainfo = os.path.join(build, app_id + ".metainfo.xml")
    for f in (desktop, autostart, service, metainfo):
        if not os.path.isfile(f):
            fail(f"{f} was not generated")
    if failures:
        return

    d = read_desktop(desktop)["Desktop Entry"]
    if d.get("Icon") != app_id:
        fail(f"{desktop}: Icon must be {app_id}")
    if d.get("DBusActivatable") != "true":
        fail(f"{desktop}: DBusActivatable must be true")
    if d.get("Exec", "").split()[0] != "triage":
        fail(f"{desktop}: Exec must run triage")

    a = read_desktop(autostart)["Desktop Entry"]
    if a.get("Exec") != "triage --gapplication-service":
        fail(f"{autostart}: Exec must be 'triage --gapplication-service'")
    if a.get("Icon") != app_id:
        fail(f"{autostart}: Icon must be {app_id}")

    s = read_desktop(service)["D-BUS Service"]
    if s.get("Name") != app_id:
        fail(f"{service}: Name must be {app_id} (the desktop file's D-Bus name)")
    exe = s.get("Exec", "").split()
    if len(exe) != 2 or not exe[0].endswith("/triage") or exe[1] != "--gapplication-service":
        fail(f"{service}: Exec must be '<bindir>/triage --gapplication-service'")
    elif not os.path.isabs(exe[0]):
        fail(f"{service}: Exec needs an absolute path")

    m = ET.parse(metainfo).getroot()
    if m.findtext("id") != app_id:
        fail(f"{metainfo}: <id> must be {app_id}")
    if m.findtext("launchable") != app_id + ".desktop":
        fail(f"{metainfo}: <launchable> must be {app_id}.desktop")
    binaries = {b.text for b in m.iterfind("provides/binary")}
    if binaries != {"triage", "triage-server", "triage-ask"}:
        fail(f"{metainfo}: <provides> must list triage, triage-server and triage-ask")
    for img in m.iterfind("screenshots/screenshot/image"):
        if not re.fullmatch(r"https://\S+/docs/screenshots/[a-z0-9-]+\.png", img.text or ""):
            fail(f"{metainfo}: screenshot {img.text} is not under docs/screenshots/")
    if m.find("content_rating") is None:
        fail(f"{metainfo}: <content_rating> is missing")

    base = "io.github.atptriage.Triage"
    check_svg(os.path.join(src, "icons/hicolor/scalable/apps", base + ".svg"), 128, False)
    check_svg(os.path.join(src, "icons/hicolor/symbolic/apps", base + "-symbolic.svg"), 16, True)


def cmd_manpage(pages):
    groff = need("groff")
    for page in pages:
        env = dict(os.environ, LC_ALL="C.UTF-8")
        rc, out, err = run([groff, "-man", "-ww", "-z", "-t", page], env=env)
        if rc != 0 or err.strip():
            fail(f"groff warns about {page}")
        with open(page) as f:
            text = f.read()
        for section in ("NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "SEE ALSO"):
            if not re.search(r"^\.SH " + section + r"\s*$", text, re.M):
                fail(f"{page}: section {section} is missing")
        if re.search(r"TODO|FIXME|XXX", text):
            fail(f"{page}: has a placeholder")


LONG_OPT = re.compile(r"(?<![\w-])--([a-z0-9][a-z0-9-]*)")


def man_options(text):
    """Long options named anywhere in the page, and those in its OPTIONS section."""
    plain = text.replace("\\-", "-").replace("\\fB", "").replace("\\fR", "").replace("\\fI", "")
    everywhere = set(LONG_OPT.findall(plain))
    m = re.search(r"^\.SH OPTIONS\s*$(.*?)(?=^\.SH )", plain, re.M | re.S)
    section = set(LONG_OPT.findall(m.group(1))) if m else set()
    return everywhere, section


def cmd_man_options(args):
    page, program = args
    if not os.path.isabs(program):
        program = os.environ.get(program, program)
    if not os.access(program, os.X_OK):
        skip(f"{program} is not built yet")
    with open(page) as f:
        documented, section = man_options(f.read())

    helped = set()
    for flag in ("--help", "--help-all"):
        p = subprocess.run([program, flag], capture_output=True, text=True, timeout=30,
                           stdin=subprocess.DEVNULL)
        if flag == "--help" and p.returncode != 0:
            fail(f"{program} --help exits with {p.returncode}: {p.stderr.strip()}")
        if p.returncode == 0:
            helped |= set(LONG_OPT.findall(p.stdout))
    if not helped:
        fail(f"{program} --help lists no options")
    for opt in sorted(helped - documented):
        fail(f"{os.path.basename(page)}: --{opt} (from {os.path.basename(program)} --help) "
             "is not documented")
    for opt in sorted(section - helped):
        fail(f"{os.path.basename(page)}: documents --{opt}, which "
             f"{os.path.basename(program)} --help does not list")


COMMANDS = {
    "desktop": cmd_desktop,
    "appstream": cmd_appstream,
    "schemas": cmd_schemas,
    "systemd": cmd_systemd,
    "systemd-system": cmd_systemd_system,
    "pot": cmd_pot,
    "potfiles-update": cmd_potfiles_update,
    "consistency": cmd_consistency,
    "manpage": cmd_manpage,
    "man-options": cmd_man_options,
}


def main():
    if len(sys.argv) < 3 or sys.argv[1] not in COMMANDS:
        print(__doc__ or "usage: check-data.py COMMAND ARG...", file=sys.stderr)
        print("commands: " + ", ".join(COMMANDS), file=sys.stderr)
        return 2
    COMMANDS[sys.argv[1]](sys.argv[2:])
    if failures:
        print(f"{len(failures)} problem(s)", file=sys.stderr)
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
