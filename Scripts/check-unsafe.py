#!/usr/bin/env python3
"""Keeps unsafe pointer code where docs/architecture.md ("Unsafe code") says it may be.

Unsafe pointers (`Unsafe*Pointer`, `withUnsafe*`) belong in Sources/ByteAccess, the byte-access module the parsers
read through. Elsewhere in Sources they are allowed only in the files listed in Scripts/unsafe-allowlist.txt, each
up to the count recorded there: C interop that needs a pointer (zlib's z_stream, write(2), the demangler call,
SQLite) and the files not yet moved to ByteAccess. The check fails when a file outside the list holds one, or a
listed file holds more than its count, so the list can only shrink. Counts are lines that match, as

    grep -rcE 'Unsafe(Mutable)?(Raw)?(Buffer)?Pointer|withUnsafe' Sources

counts them, once the text inside string literals is left out: the old Swift demangler's table spells the
standard library's type names (`"UnsafeRawPointer"`), which are words of its output, not pointers.

    python3 Scripts/check-unsafe.py            # the check (CI, .ci/run)
    python3 Scripts/check-unsafe.py --tighten  # rewrite the list with the lower counts of today (never higher)
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ALLOWED_MODULE = "Sources/ByteAccess/"
LIST = os.path.join(ROOT, "Scripts", "unsafe-allowlist.txt")
PATTERN = re.compile(r"Unsafe(Mutable)?(Raw)?(Buffer)?Pointer|withUnsafe")
# A one-line string literal ("…", escapes included); its text is not code.
STRING_LITERAL = re.compile(r'"(?:[^"\\]|\\.)*"')


def counts():
    found = {}
    for folder, _, files in os.walk(os.path.join(ROOT, "Sources")):
        for name in files:
            if not name.endswith(".swift"):
                continue
            path = os.path.relpath(os.path.join(folder, name), ROOT)
            if path.startswith(ALLOWED_MODULE):
                continue
            with open(os.path.join(ROOT, path), encoding="utf-8") as handle:
                n = sum(1 for line in handle if PATTERN.search(STRING_LITERAL.sub('""', line)))
            if n:
                found[path] = n
    return found


def read_list():
    """The list's entries, `count path` a line; `#` starts a comment (kept by --tighten)."""
    allowed = {}
    with open(LIST, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            text = line.split("#", 1)[0].strip()
            if not text:
                continue
            parts = text.split(None, 1)
            if len(parts) != 2 or not parts[0].isdigit():
                sys.exit(f"{LIST}:{number}: expected `count path`, found {line.strip()!r}")
            allowed[parts[1]] = int(parts[0])
    return allowed


def tighten(found):
    lines = []
    with open(LIST, encoding="utf-8") as handle:
        for line in handle:
            text = line.split("#", 1)[0].strip()
            if not text:
                lines.append(line)
                continue
            count, path = text.split(None, 1)
            now = min(int(count), found.get(path, 0))
            if now:
                comment = line[len(line.split("#", 1)[0]):].rstrip("\n") if "#" in line else ""
                lines.append(f"{now} {path}{('  ' + comment.strip()) if comment else ''}\n")
    with open(LIST, "w", encoding="utf-8") as handle:
        handle.writelines(lines)


def main():
    found = counts()
    if "--tighten" in sys.argv[1:]:
        tighten(found)
        return
    allowed = read_list()
    problems = []
    for path, n in sorted(found.items()):
        limit = allowed.get(path)
        if limit is None:
            problems.append(f"{path}: {n} unsafe pointer line(s) outside {ALLOWED_MODULE}: read the bytes through "
                            "ByteAccess (BorrowedBytes, ByteCursor) instead")
        elif n > limit:
            problems.append(f"{path}: {n} unsafe pointer lines, the allowlist allows {limit}")
    slack = [(path, allowed[path], found.get(path, 0)) for path in sorted(allowed) if found.get(path, 0) < allowed[path]]
    for problem in problems:
        print("FAIL:", problem)
    if problems:
        sys.exit(f"{len(problems)} file(s) break the unsafe-code rule (docs/architecture.md, \"Unsafe code\")")
    for path, limit, n in slack:
        print(f"  note: {path} now has {n} (allowlist {limit}): `python3 Scripts/check-unsafe.py --tighten`")
    total = sum(found.values())
    print(f"  ok: {total} unsafe pointer lines outside {ALLOWED_MODULE}, in {len(found)} allowlisted files")


if __name__ == "__main__":
    main()
