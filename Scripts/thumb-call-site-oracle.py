#!/usr/bin/env python3
"""Checks armv7 return addresses against llvm-symbolizer, call site by call site (issue 45).

For every call (`bl`, `blx`) in the __text of the armv7 fixture dylib, the return address is the next instruction's
address, with the Thumb bit set when the caller is a Thumb function (as the link register holds it and as crash
reports print it). The script writes a crash report with one thread per call site, symbolicates it with
`apm-inspect symbolicate --format json`, and requires each frame to read as llvm-symbolizer reads the call
instruction itself: the same functions (inlined ones included, innermost first), files, lines and columns, and the
offset counted from the written address. It also counts the call sites where a plain one-byte step back (what is
right for arm64 and x86_64) would have named another function or line, so the figure shows what the Thumb-aware
lookup changes.

Usage: thumb-call-site-oracle.py --bin APM_INSPECT --fixtures DIR [--symbolizer llvm-symbolizer]
        [--objdump llvm-objdump] [--nm llvm-nm]
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

NAME = "LedgerCore"
BASE = 0x358000


def run(*command, stdin=None):
    return subprocess.run(command, input=stdin, capture_output=True, text=True, check=True).stdout


def call_sites(objdump, nm, binary):
    """(call address, length, caller is Thumb) for every bl/blx in __text."""
    thumb = set()
    for line in run(nm, "-m", "--defined-only", binary).splitlines():
        if "[Thumb]" in line:
            thumb.add(line.split()[-1])
    sites = []
    function = None
    for line in run(objdump, "-d", "--macho", binary).splitlines():
        label = re.match(r"^(_\w+):$", line)
        if label:
            function = label.group(1)
            continue
        # `    1006:\t00 f0 09 f8\tbl\t_ledger_check`: the raw bytes give the instruction's length.
        instruction = re.match(r"^\s+([0-9a-f]+):\t([0-9a-f ]+)\t(\S+)", line)
        if instruction and instruction.group(3) in ("bl", "blx"):
            length = len(instruction.group(2).split())
            sites.append((int(instruction.group(1), 16), length, function, function in thumb))
    return sites


def symbolizer(tool, dwarf, addresses):
    text = run(tool, "--inlines", "--no-demangle", "--output-style=JSON", f"--obj={dwarf}",
               stdin="\n".join(hex(a) for a in addresses) + "\n").strip()
    try:
        parsed = json.loads(text)
        entries = parsed if isinstance(parsed, list) else [parsed]
    except json.JSONDecodeError:
        entries = [json.loads(line) for line in text.splitlines()]
    answers = []
    for entry in entries:
        frames = [(f.get("FunctionName") or None, f.get("FileName") or None, f.get("Line") or None,
                   f.get("Column") or None, int(f.get("StartAddress") or "0", 16)) for f in entry.get("Symbol", [])
                  if f.get("FunctionName")]
        answers.append(frames)
    return answers


def report(sites, uuid):
    lines = [
        "Incident Identifier: 6F2A9C41-0D7B-4E35-B8A1-5C3E9F207D64",
        "Hardware Model:      iPhone5,2",
        "Process:             Ledger [1187]",
        "Path:                /private/var/containers/Bundle/Application/3A9C5E21-7B4D-4F08-9C1E-2D6B8A0F4E17/"
        "Ledger.app/Ledger",
        "Identifier:          com.example.ledger",
        "Version:             3.2 (320)",
        "Code Type:           ARM (Native)",
        "Parent Process:      launchd [1]",
        "",
        "Date/Time:           2017-09-14 08:41:27.5573 +0200",
        "OS Version:          iPhone OS 10.3.3 (14G60)",
        "Report Version:      104",
        "",
        "Exception Type:  EXC_BREAKPOINT (SIGTRAP)",
        "Exception Codes: 0x0000000000000001, 0x000000000000defe",
        "Triggered by Thread:  0",
        "",
    ]
    for n, (written, _) in enumerate(sites):
        lines.append(f"Thread {n}{' Crashed' if n == 0 else ''}:")
        lines.append(f"0   Ledger                        \t0x{0xb6f2d:08x} 0xb1000 + {0xb6f2d - 0xb1000}")
        lines.append(f"1   {NAME:<30}\t0x{BASE + written:08x} 0x{BASE:x} + {written}")
        lines.append("")
    lines += [
        "Binary Images:",
        "0xb1000 - 0xc8fff Ledger armv7  <5d2c1e0a9b3f4c7d8e6a1b2c3d4e5f60> /var/containers/Bundle/Application/"
        "3A9C5E21-7B4D-4F08-9C1E-2D6B8A0F4E17/Ledger.app/Ledger",
        f"0x{BASE:x} - 0x{BASE + 0x1fff:x} {NAME} armv7  <{uuid}> /var/containers/Bundle/Application/"
        f"3A9C5E21-7B4D-4F08-9C1E-2D6B8A0F4E17/Ledger.app/Frameworks/{NAME}.framework/{NAME}",
        "",
    ]
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--fixtures", required=True)
    parser.add_argument("--symbolizer", default="llvm-symbolizer")
    parser.add_argument("--objdump", default="llvm-objdump")
    parser.add_argument("--nm", default="llvm-nm")
    options = parser.parse_args()
    binary = os.path.join(options.fixtures, NAME)
    dsym = os.path.join(options.fixtures, f"{NAME}.dSYM")
    dwarf = os.path.join(dsym, "Contents", "Resources", "DWARF", NAME)
    uuid = re.search(r"^\s*uuid ([0-9A-F-]+)$", run(options.objdump, "--macho", "--private-headers", binary), re.M)
    if not uuid:
        sys.exit(f"FAIL: no UUID in {binary}")
    uuid = uuid.group(1).replace("-", "").lower()
    sites = call_sites(options.objdump, options.nm, binary)
    thumb_sites = sum(1 for site in sites if site[3])
    if len(sites) < 8 or thumb_sites < 6 or thumb_sites == len(sites):
        sys.exit(f"FAIL: {len(sites)} call sites, {thumb_sites} of them Thumb: the fixture lost its shapes")
    written = [(address + length) | (1 if is_thumb else 0) for address, length, _, is_thumb in sites]
    with tempfile.TemporaryDirectory() as work:
        path = os.path.join(work, "call-sites.crash")
        with open(path, "w") as handle:
            handle.write(report(list(zip(written, sites)), uuid))
        result = json.loads(run(options.bin, "symbolicate", path, "--dsym", dsym, "--format", "json"))
    threads = result["report"]["threads"]
    expected = symbolizer(options.symbolizer, dwarf, [address for address, _, _, _ in sites])
    naive = symbolizer(options.symbolizer, dwarf, [w - 1 for w in written])
    differences = 0
    naive_differences = 0
    naive_wrong_function = 0
    for n, ((address, length, function, is_thumb), value) in enumerate(zip(sites, written)):
        frames = [f for f in threads[n]["frames"] if f.get("image") == NAME]
        ours = [(f.get("symbol"), f.get("file"), f.get("line"), f.get("column")) for f in frames]
        theirs = [frame[:4] for frame in expected[n]]
        concrete_start = expected[n][-1][4] if expected[n] else None
        offset_ok = bool(frames) and concrete_start is not None \
            and frames[-1].get("symbolOffset") == value - concrete_start
        if ours != theirs or not offset_ok:
            differences += 1
            print(f"{function} call at {address:#x} (return address {value:#x}):\n  ours: {ours} "
                  f"+{frames[-1].get('symbolOffset') if frames else None}\n  llvm-symbolizer at the call: {theirs} "
                  f"+{value - concrete_start if concrete_start is not None else None}")
        bytewise = [frame[:4] for frame in naive[n]]
        if bytewise != theirs:
            naive_differences += 1
            if not bytewise or bytewise[-1][0] != theirs[-1][0]:
                naive_wrong_function += 1
    print(f"armv7 call sites: {len(sites)} ({thumb_sites} in Thumb code), {differences} differ from llvm-symbolizer "
          f"at the call instruction; a one-byte step back would differ at {naive_differences} "
          f"({naive_wrong_function} in the wrong function)")
    if differences:
        sys.exit("FAIL: armv7 return addresses are not resolved to their call")


if __name__ == "__main__":
    main()
