#!/usr/bin/env bash
# Conformance: every file of ../shared/corpus/crash is read with the right kind and no error; the panic is a panic.
set -euo pipefail
: "${BIN:?BIN must name the apm-inspect binary}" "${SHARED:?SHARED must name the shared folder}"
CORPUS="$SHARED/corpus/crash"
[ -d "$CORPUS" ] || { echo "FAIL: $CORPUS is missing: the conformance corpus must sit beside the checkout"; exit 1; }
count=0
for file in "$CORPUS"/*; do
  case "$file" in *.md) continue ;; esac
  status=0
  "$BIN" inspect --format json "$file" > /tmp/apm-crash.json 2> /tmp/apm-crash.err || status=$?
  [ "$status" -le 1 ] || { echo "FAIL: $file exited with $status"; cat /tmp/apm-crash.err; exit 1; }
  expected=crashReport
  case "$(basename "$file")" in *bug151*|*panic*) expected=panic ;; esac
  python3 - "$file" "$expected" "$status" <<'PY'
import json, sys
path, expected, status = sys.argv[1], sys.argv[2], int(sys.argv[3])
d = json.load(open("/tmp/apm-crash.json"))
assert d["kind"] == expected, f"{path}: kind {d['kind']}, expected {expected}"
assert status == 0 and "error" not in d, f"{path}: error {d.get('error')}"
errors = [x for x in d["diagnostics"] if x["severity"] == "error"]
assert not errors, f"{path}: {errors}"
r = d["report"] or {}
if expected == "crashReport":
    for key in ("threads", "binaryImages"):
        assert key in r, f"{path}: no {key}"
print(f"  ok {expected:12} {r.get('process') or '-':28} threads={len(r.get('threads', []))} "
      f"images={len(r.get('binaryImages', []))} signature={r.get('signature') or '-'}  {path.split('/')[-1]}")
PY
  count=$((count + 1))
done
[ "$count" -ge 1 ] || { echo "FAIL: no files in $CORPUS"; exit 1; }
