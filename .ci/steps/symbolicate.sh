#!/usr/bin/env bash
# Symbolicates the fixture crash reports (Tests/SymbolicationTests/Fixtures/reports/) with the fixture dSYMs and
# diffs each result with its reviewed expected output (reports/expected/). Run from the repository root after a
# build; BIN names the binary (.ci/run sets it; default .build/debug/apm-inspect).
set -euo pipefail
cd "$(dirname "$0")/../.."
binary="${BIN:-.build/debug/apm-inspect}"
fixtures=Tests/SymbolicationTests/Fixtures
reports="$fixtures/reports"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
status=0
# report|dSYM: the iOS reports against the arm64 dSYM, the macOS one against the fat dSYM (its x86_64 slice).
for pair in \
    "Demo-arm64-ios.crash|$fixtures/Demo-arm64.dSYM" \
    "Demo-arm64-ios.ips|$fixtures/Demo-arm64.dSYM" \
    "Demo-x86_64-macos.crash|$fixtures/Demo-fat.dSYM"; do
    report="${pair%%|*}"
    dsym="${pair#*|}"
    "$binary" symbolicate "$reports/$report" --dsym "$dsym" -o "$out" 2>"$out/$report.stderr"
    if ! diff -u "$reports/expected/$report" "$out/$report"; then
        echo "symbolicate: $report differs from its expected output" >&2
        status=1
    fi
    if ! diff -u "$reports/expected/$report.stderr" "$out/$report.stderr"; then
        echo "symbolicate: $report's diagnostics differ from the expected ones" >&2
        status=1
    fi
done
# A zip of the dSYMs (as App Store Connect ships them) gives the same output as the bundle.
python3 - "$fixtures" "$out/appDsyms.zip" <<'PY'
import os, sys, zipfile
root, target = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
    for folder, _, files in os.walk(os.path.join(root, "Demo-arm64.dSYM")):
        for name in files:
            path = os.path.join(folder, name)
            archive.write(path, os.path.relpath(path, root))
PY
"$binary" symbolicate "$reports/Demo-arm64-ios.crash" --dsym "$out/appDsyms.zip" >"$out/zip.crash" 2>/dev/null
if ! diff -u "$reports/expected/Demo-arm64-ios.crash" "$out/zip.crash"; then
    echo "symbolicate: the zip of the dSYM gives another output than the bundle" >&2
    status=1
fi
# --format json: the envelope, with the model symbolicated and the binary's spelling kept.
"$binary" symbolicate "$reports/Demo-arm64-ios.ips" --dsym "$fixtures/Demo-arm64.dSYM" --format json >"$out/env.json" \
    2>/dev/null
python3 - "$out/env.json" <<'PY' || status=1
import json, sys
envelope = json.load(open(sys.argv[1]))
frames = envelope["report"]["threads"][2]["frames"]
assert frames[0]["symbol"] == "demo::geometry::Rectangle::area() const", frames[0]
assert frames[0]["mangledSymbol"] == "_ZNK4demo8geometry9Rectangle4areaEv", frames[0]
assert frames[0]["file"] == "/Demo/src/shapes.cpp" and frames[0]["line"] == 19, frames[0]
assert [d["code"] for d in envelope["diagnostics"]] == ["symbolicate.missing-dsym"], envelope["diagnostics"]
PY
# A garbage dSYM and a link loop cost diagnostics, never the report: it is printed unsymbolicated, exit 0.
mkdir -p "$out/bad/Garbage.dSYM/Contents/Resources/DWARF"
python3 -c 'import sys; sys.stdout.buffer.write(bytes([0xCF,0xFA,0xED,0xFE]) + bytes(range(256)) * 16)' \
    >"$out/bad/Garbage.dSYM/Contents/Resources/DWARF/Garbage"
ln -s "$out/bad" "$out/bad/loop"
if ! "$binary" symbolicate "$reports/Demo-arm64-ios.crash" --dsym "$out/bad" >"$out/bad.crash" 2>"$out/bad.stderr"; then
    echo "symbolicate: a garbage dSYM failed the run" >&2
    status=1
fi
cmp -s "$reports/Demo-arm64-ios.crash" "$out/bad.crash" || { echo "symbolicate: the report changed" >&2; status=1; }
grep -q "Garbage" "$out/bad.stderr" || { echo "symbolicate: no finding for the garbage dSYM" >&2; status=1; }
grep -q "no dSYM for image Demo" "$out/bad.stderr" || { echo "symbolicate: no diagnostic for Demo" >&2; status=1; }
# translate --dsym: Apple's text layout of the symbolicated .ips.
"$binary" translate "$reports/Demo-arm64-ios.ips" --dsym "$fixtures/Demo-arm64.dSYM" >"$out/translated.crash" 2>/dev/null
if ! grep -q "compute + 76 (main.c:16)" "$out/translated.crash"; then
    echo "symbolicate: translate --dsym did not resolve the app frames" >&2
    status=1
fi
# -o never writes beside the inputs: the reports' own folder is refused, and nothing is written there.
before="$(ls "$reports" | wc -l)"
if "$binary" symbolicate "$reports/Demo-arm64-ios.crash" --dsym "$fixtures/Demo-arm64.dSYM" -o "$reports" 2>/dev/null; then
    echo "symbolicate: -o the input's own folder was accepted" >&2
    status=1
fi
[ "$(ls "$reports" | wc -l)" = "$before" ] || { echo "symbolicate: a file appeared beside the inputs" >&2; status=1; }
[ "$status" -eq 0 ] && echo "symbolicate: 3 fixture reports and a zipped dSYM match their expected output; json envelope, translate, -o and a garbage dSYM checked"
exit $status
