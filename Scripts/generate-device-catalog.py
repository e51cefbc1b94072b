#!/usr/bin/env python3
"""Generate Sources/AppleDeviceCatalog/DeviceCatalog+Generated.swift from devices.tsv.

devices.tsv is the single source of truth for the AppleDeviceCatalog module. This script
validates it and writes a Swift array literal of `DeviceModel` values, so the library needs
no bundle resource at run time (Foundation's `Bundle.module` traps on Linux when the binary
is moved away from its resource bundle).

Usage (from anywhere):
    python3 Scripts/generate-device-catalog.py           # rewrite the Swift file
    python3 Scripts/generate-device-catalog.py --check   # exit 1 if the Swift file is stale

Only the Python standard library is used. The output is already in swift-format style
(4 spaces, one argument per line, grouped numeric literals), so `swift format lint --strict`
passes on it without a formatting step.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TSV_PATH = ROOT / "Sources" / "AppleDeviceCatalog" / "devices.tsv"
SWIFT_PATH = ROOT / "Sources" / "AppleDeviceCatalog" / "DeviceCatalog+Generated.swift"
COMMAND = "python3 Scripts/generate-device-catalog.py"

HEADER = ["identifier", "name", "ram_mb", "source", "family"]

# TSV family column -> Swift `DeviceModel.Family` case.
FAMILIES = {
    "iPhone": "iPhone",
    "iPad": "iPad",
    "iPod": "iPod",
    "Watch": "watch",
    "Simulator": "simulator",
}

# Identifier shape per family: hardware families are "<Prefix><major>,<minor>".
IDENTIFIER_PATTERNS = {
    "iPhone": re.compile(r"^iPhone[0-9]+,[0-9]+$"),
    "iPad": re.compile(r"^iPad[0-9]+,[0-9]+$"),
    "iPod": re.compile(r"^iPod[0-9]+,[0-9]+$"),
    "Watch": re.compile(r"^Watch[0-9]+,[0-9]+$"),
    "Simulator": re.compile(r"^(i386|x86_64|arm64)$"),
}

SOURCE_PATTERN = re.compile(r"^name:[A-Za-z0-9]+;ram:[A-Za-z0-9+]+$")


class TSVError(Exception):
    """A problem in devices.tsv, reported with its line number."""


def parse_ram(text: str, line_no: int) -> list[int]:
    """Parse the ram_mb column: empty, one integer, or integers joined by '|' (ascending)."""
    if text == "":
        return []
    options = []
    for part in text.split("|"):
        if not re.fullmatch(r"[1-9][0-9]*", part):
            raise TSVError(f"line {line_no}: ram_mb {text!r} is not empty, N or N|M")
        options.append(int(part))
    if options != sorted(set(options)):
        raise TSVError(f"line {line_no}: ram_mb options {text!r} must be distinct and ascending")
    return options


def read_rows(path: Path) -> list[dict]:
    """Read and validate devices.tsv; return one dict per data row, in file order."""
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if not lines or lines[0].split("\t") != HEADER:
        raise TSVError(f"line 1: header must be {chr(9).join(HEADER)!r}")
    rows = []
    seen: dict[str, int] = {}
    for line_no, line in enumerate(lines[1:], start=2):
        if line.strip() == "":
            raise TSVError(f"line {line_no}: empty line")
        if "\r" in line:
            raise TSVError(f"line {line_no}: carriage return (file must use LF line ends)")
        fields = line.split("\t")
        if len(fields) != len(HEADER):
            raise TSVError(f"line {line_no}: expected {len(HEADER)} tab-separated fields, got {len(fields)}")
        identifier, name, ram_text, source, family = fields
        if family not in FAMILIES:
            raise TSVError(f"line {line_no}: unknown family {family!r} (expected one of {sorted(FAMILIES)})")
        if not IDENTIFIER_PATTERNS[family].match(identifier):
            raise TSVError(f"line {line_no}: identifier {identifier!r} does not fit family {family}")
        if identifier in seen:
            raise TSVError(f"line {line_no}: duplicate identifier {identifier!r} (first on line {seen[identifier]})")
        seen[identifier] = line_no
        if name == "" or name != name.strip():
            raise TSVError(f"line {line_no}: name {name!r} is empty or has surrounding spaces")
        if not SOURCE_PATTERN.match(source):
            raise TSVError(f"line {line_no}: source {source!r} is not 'name:CODE;ram:CODE'")
        for field in fields:
            if any(ord(c) < 0x20 for c in field):
                raise TSVError(f"line {line_no}: control character in {field!r}")
        rows.append(
            {
                "identifier": identifier,
                "name": name,
                "ram": parse_ram(ram_text, line_no),
                "source": source,
                "family": FAMILIES[family],
            }
        )
    return rows


def swift_string(value: str) -> str:
    """Render a Swift string literal."""
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return f'"{escaped}"'


def swift_int(value: int) -> str:
    """Render an integer literal the way swift-format's GroupNumericLiterals wants it."""
    digits = str(value)
    if len(digits) <= 4:
        return digits
    groups = []
    while digits:
        groups.insert(0, digits[-3:])
        digits = digits[:-3]
    return "_".join(groups)


def render(rows: list[dict]) -> str:
    """Render the whole Swift file."""
    out = [
        "// This file is generated. Do not edit it by hand.",
        "//",
        "// Source: Sources/AppleDeviceCatalog/devices.tsv",
        f"// Regenerate with: {COMMAND}",
        "",
        "extension DeviceCatalog {",
        "    /// Every row of `devices.tsv`, in file order.",
        "    static let generatedModels: [DeviceModel] = [",
    ]
    for row in rows:
        ram = "[" + ", ".join(swift_int(v) for v in row["ram"]) + "]"
        out += [
            "        DeviceModel(",
            f"            identifier: {swift_string(row['identifier'])},",
            f"            name: {swift_string(row['name'])},",
            f"            family: .{row['family']},",
            f"            ramOptionsMB: {ram},",
            f"            source: {swift_string(row['source'])}",
            "        ),",
        ]
    out += [
        "    ]",
        "}",
        "",
    ]
    return "\n".join(out)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="do not write; exit 1 if the Swift file is stale")
    args = parser.parse_args()
    try:
        rows = read_rows(TSV_PATH)
    except (OSError, TSVError) as error:
        print(f"{TSV_PATH.relative_to(ROOT)}: error: {error}", file=sys.stderr)
        return 1
    generated = render(rows)
    current = SWIFT_PATH.read_text(encoding="utf-8") if SWIFT_PATH.exists() else None
    if args.check:
        if current != generated:
            print(f"{SWIFT_PATH.relative_to(ROOT)} is stale; run: {COMMAND}", file=sys.stderr)
            return 1
        print(f"{SWIFT_PATH.relative_to(ROOT)} is up to date ({len(rows)} models)")
        return 0
    if current != generated:
        SWIFT_PATH.write_text(generated, encoding="utf-8")
        print(f"wrote {SWIFT_PATH.relative_to(ROOT)} ({len(rows)} models)")
    else:
        print(f"{SWIFT_PATH.relative_to(ROOT)} already up to date ({len(rows)} models)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
