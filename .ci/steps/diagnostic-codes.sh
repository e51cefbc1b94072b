#!/usr/bin/env bash
# Stable diagnostic codes (docs/diagnostics.md): the page is generated from the declarations and current, every
# declaration is well formed, documented and used, and every diagnostic the built binary writes over this repo's
# Corpus/ and the shared conformance corpus carries a declared code.
set -euo pipefail
: "${BIN:?BIN must name the built apm-inspect}"
: "${SHARED:?SHARED must name the shared folder}"
[ -d "$SHARED/corpus" ] || { echo "FAIL: $SHARED/corpus is missing: the conformance corpus must sit beside the checkout"; exit 1; }
python3 Scripts/generate-diagnostics-doc.py --check
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
python3 Scripts/generate-diagnostics-doc.py --codes > "$WORK/declared"
# inspect reads every file of a folder; exit 1 only says some file could not be read, which the corpus means to hold.
"$BIN" inspect --format ndjson Corpus > "$WORK/repo.ndjson" 2>/dev/null || true
"$BIN" inspect --format ndjson "$SHARED/corpus" > "$WORK/shared.ndjson" 2>/dev/null || true
for archive in Corpus/sysdiagnose/*.tar.gz; do
  "$BIN" scan --format json "$archive" >> "$WORK/scan.json" 2>/dev/null || true
  echo >> "$WORK/scan.json"
done
python3 - "$WORK/declared" "$WORK/repo.ndjson" "$WORK/shared.ndjson" "$WORK/scan.json" <<'PY'
import collections, json, sys
declared = set(open(sys.argv[1]).read().split())
seen = collections.Counter()
problems = []
envelopes = 0

def walk(value, where):
    """Every object under a `diagnostics` key, wherever the envelope nests it."""
    if isinstance(value, dict):
        for key, child in value.items():
            if key == "diagnostics" and isinstance(child, list):
                for d in child:
                    if isinstance(d, dict) and "severity" in d and "message" in d:
                        code = d.get("code")
                        if code is None:
                            problems.append(f"{where}: a diagnostic without a code: {d['message'][:100]}")
                        elif code not in declared:
                            problems.append(f"{where}: code {code!r} is not declared")
                        else:
                            seen[code] += 1
            walk(child, where)
    elif isinstance(value, list):
        for child in value:
            walk(child, where)

for path in sys.argv[2:]:
    text = open(path, encoding="utf-8").read()
    decoder = json.JSONDecoder()
    i = 0
    while i < len(text):
        while i < len(text) and text[i] in " \r\n\t":
            i += 1
        if i >= len(text):
            break
        value, i = decoder.raw_decode(text, i)
        for envelope in value if isinstance(value, list) else [value]:
            envelopes += 1
            walk(envelope, envelope.get("file", path) if isinstance(envelope, dict) else path)
for problem in problems[:40]:
    print("FAIL:", problem)
if problems:
    sys.exit(f"{len(problems)} diagnostic(s) without a declared code")
assert envelopes > 200, f"only {envelopes} envelopes read: the corpus runs did not happen"
assert sum(seen.values()) > 50, f"only {sum(seen.values())} diagnostics met: the check saw too little to mean anything"
print(f"  ok: {sum(seen.values())} diagnostics in {envelopes} envelopes carry {len(seen)} distinct declared codes "
      f"(of {len(declared)})")
PY
