#!/usr/bin/env python3
"""Writes docs/diagnostics.md from the diagnostic codes declared in Sources/, and checks the declarations.

Every diagnostic code is a `static let` in a `Sources/<Module>/**/Diagnostic+<Area>Codes.swift` file, under a doc
comment that says what it means and ends with an `Example:` line (continued on `///   ` lines). The failure codes
of `InputError` (declared in `extension InputError.Code` blocks) are listed too: a diagnostic that reports one of
them as a finding carries `input.<code>`.

  Scripts/generate-diagnostics-doc.py            write docs/diagnostics.md
  Scripts/generate-diagnostics-doc.py --check    fail when the page is stale or a declaration breaks a rule
  Scripts/generate-diagnostics-doc.py --codes    print every code a diagnostic can carry, one per line

The rules --check enforces: each code is dot-separated kebab-case words (at least two), declared once, with a
meaning and an example; every declared code is used in Sources/; no code is made outside the declaration files
(no `Diagnostic.Code("…")` or `Self("…")` literal elsewhere); no code says `unclassified`.
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
SOURCES = ROOT / "Sources"
PAGE = ROOT / "docs" / "diagnostics.md"
CODE_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*(?:\.[a-z0-9]+(?:-[a-z0-9]+)*)+$")
DECLARATION = re.compile(r'^\s*(?:public |package )?static let (\w+) = (?:Self|Diagnostic\.Code|Code)\("([^"]*)"\)')
INPUT_DECLARATION = re.compile(r'^\s*(?:public |package )?static let (\w+) = (?:InputError\.Code|Code)\("([^"]*)"\)')
# The core type's own file makes `input.<code>` from an InputError code; nothing else may build one.
CORE_TYPE = SOURCES / "APMInspectCore" / "Diagnostics" / "Diagnostic+Code.swift"


def declaration_files():
    return sorted(p for p in SOURCES.rglob("Diagnostic+*Codes.swift"))


def comment_block(lines, index):
    """The `///` lines right above line `index`, without the slashes."""
    block = []
    i = index - 1
    while i >= 0 and lines[i].strip().startswith("///"):
        block.insert(0, lines[i].strip()[3:])
        i -= 1
    return block


def parse_declarations(problems):
    codes = []
    for path in declaration_files():
        module = path.relative_to(SOURCES).parts[0]
        lines = path.read_text().splitlines()
        for index, line in enumerate(lines):
            match = DECLARATION.match(line)
            if not match:
                if re.search(r'static let \w+ = ', line):
                    problems.append(f"{path.relative_to(ROOT)}:{index + 1}: not a code declaration: {line.strip()}")
                continue
            name, raw = match.groups()
            block = comment_block(lines, index)
            meaning, example, in_example = [], [], False
            for text in block:
                stripped = text.strip()
                if stripped.startswith("Example:"):
                    in_example = True
                    example.append(stripped[len("Example:"):].strip())
                elif in_example:
                    example.append(stripped)
                else:
                    meaning.append(stripped)
            codes.append({
                "name": name, "code": raw, "module": module, "file": path.relative_to(ROOT), "line": index + 1,
                "meaning": " ".join(m for m in meaning if m), "example": " ".join(e for e in example if e),
            })
    return codes


def parse_input_codes():
    codes = []
    for path in sorted(SOURCES.rglob("*.swift")):
        text = path.read_text()
        if "InputError" not in text:
            continue
        lines = text.splitlines()
        inside = False
        for index, line in enumerate(lines):
            if re.match(r"\s*(public )?struct Code\b", line) and "InputError" in path.name:
                inside = True
            if re.match(r"\s*extension InputError\.Code\b", line):
                inside = True
            if not inside:
                continue
            match = INPUT_DECLARATION.match(line)
            if match:
                name, raw = match.groups()
                meaning = " ".join(t.strip() for t in comment_block(lines, index))
                codes.append({"name": name, "code": raw, "meaning": meaning,
                              "module": path.relative_to(SOURCES).parts[0]})
    return codes


def check(codes, problems):
    seen = {}
    names = {}
    for c in codes:
        where = f"{c['file']}:{c['line']}"
        if not CODE_RE.match(c["code"]):
            problems.append(f"{where}: '{c['code']}' is not dot-separated kebab-case words")
        if "unclassified" in c["code"]:
            problems.append(f"{where}: '{c['code']}' is a placeholder, not a code")
        if c["code"] in seen:
            problems.append(f"{where}: '{c['code']}' is declared twice (first at {seen[c['code']]})")
        seen.setdefault(c["code"], where)
        if c["name"] in names:
            problems.append(f"{where}: the name {c['name']} is declared twice (first at {names[c['name']]})")
        names.setdefault(c["name"], where)
        if not c["meaning"]:
            problems.append(f"{where}: {c['code']} has no doc comment saying what it means")
        if not c["example"]:
            problems.append(f"{where}: {c['code']} has no 'Example:' line")
    declared = set(declaration_files())
    uses = {}
    literal = re.compile(r'(?:Diagnostic\.Code|\bSelf)\("')
    for path in sorted(SOURCES.rglob("*.swift")):
        text = path.read_text()
        if path not in declared and path != CORE_TYPE:
            for index, line in enumerate(text.splitlines()):
                if literal.search(line) and "Diagnostic" in text and ("Diagnostic.Code(\"" in line or
                                                                    "Code(\"" in line and "InputError" not in line):
                    if "Diagnostic.Code(\"" in line:
                        problems.append(f"{path.relative_to(ROOT)}:{index + 1}: a code made outside the "
                                        f"declaration files: {line.strip()}")
            if "unclassified" in text:
                problems.append(f"{path.relative_to(ROOT)}: says 'unclassified'")
        if path in declared:
            # Uses inside declaration files count only outside the declarations themselves.
            text = "\n".join(l for l in text.splitlines() if not DECLARATION.match(l))
        for name in re.findall(r"\.(\w+)\b", text):
            uses[name] = uses.get(name, 0) + 1
    for c in codes:
        if uses.get(c["name"], 0) == 0:
            problems.append(f"{c['file']}:{c['line']}: {c['code']} ({c['name']}) is declared but never used")


def escape(cell):
    return cell.replace("|", "\\|").replace("\n", " ")


def render(codes, inputs):
    out = [
        "# Diagnostic codes",
        "",
        "<!-- Generated by Scripts/generate-diagnostics-doc.py from Sources/**/Diagnostic+*Codes.swift: edit the",
        "     declarations, then run the script. CI runs it with --check. -->",
        "",
        "Every diagnostic apm-inspect reports (in JSON, the objects of a `diagnostics` array) carries a `code`: what",
        "the finding is about, in dot-separated kebab-case words, the first naming the area. Codes are stable: a",
        "code is never renamed or given another meaning, so pipelines, dashboards and tests match on the code,",
        "never on the message, whose wording may change between releases. A new kind of finding gets a new code.",
        "",
        "```json",
        '{ "code": "archive.member-too-large", "location": { "byteOffset": 10240 }, "message": "member ...",',
        '  "severity": "warning" }',
        "```",
        "",
        "The severity is the diagnostic's own (`note`, `warning`, `error`); one code may come with different",
        "severities where the same finding matters more in one place than another. Examples are messages as",
        "apm-inspect writes them, with made-up values.",
        "",
        f"{len(codes)} codes in {len({c['code'].split('.')[0] for c in codes})} areas, and `input.*` below.",
        "",
    ]
    areas = {}
    for c in codes:
        areas.setdefault(c["code"].split(".")[0], []).append(c)
    out.append("| Area | Codes | Declared in |")
    out.append("|---|---|---|")
    for area in sorted(areas):
        modules = sorted({str(c["file"]) for c in areas[area]})
        out.append(f"| [`{area}`](#{area}) | {len(areas[area])} | {', '.join(f'`{m}`' for m in modules)} |")
    out.append(f"| [`input`](#input) | {len(inputs)} | `InputError.Code` |")
    out.append("")
    for area in sorted(areas):
        out += [f"## {area}", "", "| Code | Meaning | Example message |", "|---|---|---|"]
        for c in sorted(areas[area], key=lambda c: c["code"]):
            out.append(f"| `{c['code']}` | {escape(c['meaning'])} | {escape(c['example'])} |")
        out.append("")
    out += [
        "## input",
        "",
        "A whole input that could not be read is an error with one of these codes (the exit status is 1, and in",
        "JSON the file's entry has `error` with the code). Where such a failure is only part of a larger read (one",
        "member of an archive, one report of a folder), it is reported as a diagnostic whose code is `input.`",
        "followed by the error's code.",
        "",
        "| Code | Meaning | Module |",
        "|---|---|---|",
    ]
    for c in sorted(inputs, key=lambda c: c["code"]):
        out.append(f"| `input.{c['code']}` | {escape(c['meaning'])} | {c['module']} |")
    out.append("")
    return "\n".join(out)


def main():
    problems = []
    codes = parse_declarations(problems)
    inputs = parse_input_codes()
    if "--codes" in sys.argv:
        for c in sorted(codes, key=lambda c: c["code"]):
            print(c["code"])
        for c in sorted(inputs, key=lambda c: c["code"]):
            print("input." + c["code"])
        return 0
    check(codes, problems)
    page = render(codes, inputs)
    if "--check" in sys.argv:
        if not PAGE.exists() or PAGE.read_text() != page:
            problems.append("docs/diagnostics.md is stale: run Scripts/generate-diagnostics-doc.py")
        for problem in problems:
            print(problem, file=sys.stderr)
        if problems:
            return 1
        print(f"diagnostic codes: {len(codes)} declared, {len(inputs)} input codes, docs/diagnostics.md current")
        return 0
    PAGE.write_text(page)
    for problem in problems:
        print(problem, file=sys.stderr)
    print(f"wrote {PAGE.relative_to(ROOT)}: {len(codes)} codes, {len(inputs)} input codes")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
