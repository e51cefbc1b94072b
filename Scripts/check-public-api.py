#!/usr/bin/env python3
"""Counts the public API of the library modules in Sources/ and checks that each public declaration is documented.

A declaration is one `public` or `open` access modifier on a `func`, `var`, `let`, `init`, `subscript`, `struct`,
`class`, `actor`, `enum`, `protocol`, `typealias`, `associatedtype`, `operator` or `macro`, wherever it sits
(top level, in a type, in an extension). The cases of a public enum carry no modifier and are not counted: they are
part of their enum. A `public extension` is not itself a declaration; each member written in it without an access
modifier is public by inheritance and counts as one declaration. `public import` is an import, not counted.

The check fails when:
  * there are more than LIMIT (800) declarations: `public` is kept for the documented library API
    (docs/library.md); what crosses modules inside the package is `package`, the rest internal;
  * a declaration has no `///` doc comment directly above it (attribute lines such as `@inlinable` may sit in
    between; a blank line may not), because DocC publishes every public declaration.

    python3 Scripts/check-public-api.py [--limit N] [--list]

Prints the count per module; --list prints every public declaration.
"""
import os
import re
import sys

LIMIT = 800
MODIFIERS = (
    r"(?:static|class|final|nonisolated|override|mutating|nonmutating|indirect|convenience|required|lazy|dynamic"
    r"|weak|unowned|optional|prefix|postfix|infix|consuming|borrowing|distributed)"
)
ATTR = r"@[A-Za-z_][A-Za-z0-9_]*(?:\([^()]*(?:\([^()]*\)[^()]*)*\))?"
KINDS = r"(?:func|var|let|init|subscript|struct|class|actor|enum|protocol|typealias|associatedtype|operator|macro)"
ACCESS = r"(?:public|open|package|internal|fileprivate|private)(?:\(set\))?"
PUBLIC_DECL = re.compile(
    r"^\s*(?:" + ATTR + r"\s+)*(?:(?:" + MODIFIERS + r"|" + ACCESS + r")\s+)*?(?:public|open)\s+(?:(?:" + MODIFIERS
    + r"|" + ACCESS + r")\s+)*" + KINDS + r"\b"
)
PUBLIC_EXTENSION = re.compile(r"^\s*(?:" + ATTR + r"\s+)*public\s+extension\b")
MEMBER_WITHOUT_ACCESS = re.compile(
    r"^\s*(?:" + ATTR + r"\s+)*(?:" + MODIFIERS + r"\s+)*" + KINDS + r"\b"
)
ATTRIBUTE_LINE = re.compile(r"^\s*@")


def code_of(lines):
    """Each line with comments and string contents blanked, so words in them are never declarations."""
    out, block, multi = [], 0, None
    for line in lines:
        res, i, n = [], 0, len(line)
        while i < n:
            if block:
                if line.startswith("*/", i):
                    block -= 1
                    i += 2
                elif line.startswith("/*", i):
                    block += 1
                    i += 2
                else:
                    i += 1
                res.append(" ")
                continue
            if multi:
                if line.startswith(multi, i):
                    multi = None
                    i += 3
                else:
                    i += 2 if line[i] == "\\" else 1
                res.append(" ")
                continue
            if line.startswith("//", i):
                break
            if line.startswith("/*", i):
                block, i = 1, i + 2
                continue
            m = re.match(r'#*"""', line[i:])
            if m:
                multi = '"""' + m.group(0)[:-3]
                i += len(m.group(0))
                continue
            m = re.match(r'(#*)"', line[i:])
            if m:
                close, i = '"' + m.group(1), i + len(m.group(0))
                while i < n and not line.startswith(close, i):
                    i += 2 if line[i] == "\\" and not m.group(1) else 1
                i += len(close)
                res.append('""')
                continue
            res.append(line[i])
            i += 1
        out.append("".join(res))
    return out


def declarations(text):
    """Line numbers (0-based) of the public declarations of one file."""
    lines = text.split("\n")
    code = code_of(lines)
    found, depth, extension_depth = [], 0, None
    for no, line in enumerate(code):
        if PUBLIC_DECL.match(line):
            found.append(no)
        elif extension_depth is not None and depth == extension_depth + 1 and MEMBER_WITHOUT_ACCESS.match(line):
            found.append(no)
        if PUBLIC_EXTENSION.match(line) and extension_depth is None:
            extension_depth = depth
        for ch in line:
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
                if extension_depth is not None and depth == extension_depth:
                    extension_depth = None
    return lines, found


def documented(lines, no):
    i = no - 1
    while i >= 0 and ATTRIBUTE_LINE.match(lines[i]):
        i -= 1
    return i >= 0 and (lines[i].lstrip().startswith("///") or lines[i].rstrip().endswith("*/"))


def main():
    args = sys.argv[1:]
    limit = int(args[args.index("--limit") + 1]) if "--limit" in args else LIMIT
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Sources")
    counts, undocumented, listing = {}, [], []
    for module in sorted(os.listdir(root)):
        for dirpath, _, files in os.walk(os.path.join(root, module)):
            for name in sorted(files):
                if not name.endswith(".swift"):
                    continue
                path = os.path.join(dirpath, name)
                lines, found = declarations(open(path, encoding="utf-8").read())
                counts[module] = counts.get(module, 0) + len(found)
                rel = os.path.relpath(path, os.path.join(root, ".."))
                for no in found:
                    listing.append(f"{rel}:{no + 1}: {lines[no].strip()}")
                    if not documented(lines, no):
                        undocumented.append(f"{rel}:{no + 1}: {lines[no].strip()}")
    total = sum(counts.values())
    if "--list" in args:
        print("\n".join(listing))
    for module, count in sorted(counts.items()):
        if count:
            print(f"{module:24} {count:5}")
    print(f"{'public declarations':24} {total:5} (limit {limit})")
    status = 0
    if total > limit:
        print(f"public-api: {total} public declarations, more than {limit}: make what is not the documented API "
              "(docs/library.md) `package`")
        status = 1
    if undocumented:
        print(f"public-api: {len(undocumented)} public declarations without a /// doc comment:")
        print("\n".join(undocumented))
        status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
