#!/usr/bin/env python3
"""Makes the mdoc pages swift-argument-parser's GenerateManual writes pass `mandoc -Tlint` without warnings.

The plugin copies each command's help text into the page as it stands: several sentences on one input line,
blank lines between paragraphs, examples indented with spaces (which mdoc fills into one run-on paragraph), and
`.Pp` before `.It`. This rewrites only those, so the rendered page says what `--help` says:

- a blank line becomes `.Pp` (none after a section heading, before a list item or twice in a row);
- a run of indented lines, and the heading line just above it ("EXAMPLES ...:"), becomes a literal display
  (`.Bd -literal -offset indent` ... `.Ed`), so examples keep their lines;
- a text line with several sentences is split, one sentence per input line (not after "e.g." and the like);
- a text line that would start with `.` or `'` is escaped with `\\&`.

Usage: tidy-man-pages.py DIR   (rewrites every *.1 in DIR in place; run by Scripts/make-man-pages.sh)
"""
import os
import re
import sys

ABBREVIATIONS = ("e.g.", "i.e.", "etc.", "vs.", "cf.", "approx.", "no.")
SENTENCE_END = re.compile(r"(?<=[.!?])(?:[\"')\]]*) +(?=\S)")


def split_sentences(line):
    """One sentence per line; an abbreviation or a number like 1.5 does not end one."""
    pieces = []
    start = 0
    for match in SENTENCE_END.finditer(line):
        before = line[start : match.start()]
        word = before.rsplit(" ", 1)[-1].lower()
        if word.endswith(ABBREVIATIONS) or re.search(r"\b[A-Z]\.$", before):
            continue
        nxt = line[match.end() : match.end() + 1]
        if not (nxt.isupper() or nxt.isdigit() or nxt in "`\"'(-"):
            continue
        pieces.append(line[start : match.end()].rstrip())
        start = match.end()
    pieces.append(line[start:])
    return [p for p in pieces if p]


def escape(text):
    return "\\&" + text if text[:1] in (".", "'") else text


def tidy(lines):
    out = []
    i = 0

    def emit_pp():
        if out and not out[-1].startswith((".Sh", ".Ss", ".Pp", ".Bl", ".Ed")) and out[-1] != "":
            out.append(".Pp")

    while i < len(lines):
        line = lines[i]
        indented = line[:1] in (" ", "\t") and line.strip()
        heads_block = (
            not line.startswith(".")
            and line.rstrip().endswith(":")
            and i + 1 < len(lines)
            and lines[i + 1][:1] in (" ", "\t")
        )
        if indented or heads_block:
            block = []
            if heads_block:
                block.append(line.rstrip())
                i += 1
            while i < len(lines) and (lines[i][:1] in (" ", "\t") and lines[i].strip()):
                block.append(lines[i].rstrip())
                i += 1
            # A display is set off by its own vertical space: a paragraph break before it is redundant.
            while out and out[-1] == ".Pp":
                out.pop()
            out.append(".Bd -literal -offset indent")
            out.extend(escape(b) for b in block)
            out.append(".Ed")
            continue
        if not line.strip():
            nxt = next((l for l in lines[i + 1 :] if l.strip()), "")
            if not nxt.startswith(".It"):
                emit_pp()
            i += 1
            continue
        if line.startswith(".Pp"):
            nxt = next((l for l in lines[i + 1 :] if l.strip()), "")
            if not nxt.startswith((".It", ".Sh", ".Ss")):
                emit_pp()
            i += 1
            continue
        if line.startswith((".", "'")):
            out.append(line)
        else:
            out.extend(escape(s) for s in split_sentences(line))
        i += 1
    return out


def main():
    folder = sys.argv[1]
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".1"):
            continue
        path = os.path.join(folder, name)
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
        trailing = lines and lines[-1] == ""
        body = tidy(lines[:-1] if trailing else lines)
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(body) + ("\n" if trailing else ""))


if __name__ == "__main__":
    main()
