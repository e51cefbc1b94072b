#!/usr/bin/env bash
# Conformance for MetricKit: every file of $SHARED/corpus/metrickit through `inspect --format json`. Each must come
# out as kind `metrickit` with no error (the one file cut short on purpose is read up to the cut, with a warning);
# the number of diagnostics by type and each crash's exception type and signal are checked against the raw JSON by
# the independent reading below. Then Corpus/metrickit against its reviewed expected outputs.
set -euo pipefail
: "${BIN:?BIN must name the apm-inspect binary}" "${SHARED:?SHARED must name the shared folder}"
CORPUS="$SHARED/corpus/metrickit"
[ -d "$CORPUS" ] || { echo "FAIL: $CORPUS is missing: the conformance corpus must sit beside the checkout"; exit 1; }
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT
count=0
for file in "$CORPUS"/*; do
  case "$file" in *.md) continue ;; esac
  status=0
  "$BIN" inspect --format json "$file" > "$OUT/out.json" 2> "$OUT/err.txt" || status=$?
  [ "$status" -le 1 ] || { echo "FAIL: $file exited with $status"; cat "$OUT/err.txt"; exit 1; }
  python3 - "$file" "$status" "$OUT/out.json" <<'PY'
import json, re, sys
path, status, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
d = json.load(open(out))
assert d["kind"] == "metrickit", f"{path}: kind {d['kind']}"
assert status == 0 and "error" not in d, f"{path}: error {d.get('error')}"
errors = [x for x in d["diagnostics"] if x["severity"] == "error"]
assert not errors, f"{path}: {errors}"
r = d["report"]

# The independent reading: the raw JSON, cut files closed at their end the simple way.
raw_text = open(path, encoding="utf-8").read()
try:
    raw = json.loads(raw_text)
except json.JSONDecodeError:
    raw = None
KINDS = {"crashDiagnostics": "crash", "hangDiagnostics": "hang", "cpuExceptionDiagnostics": "cpuException",
         "diskWriteExceptionDiagnostics": "diskWriteException", "appLaunchDiagnostics": "appLaunch",
         "memoryExceptionDiagnostics": "memoryException"}
MACH = {1: "EXC_BAD_ACCESS", 2: "EXC_BAD_INSTRUCTION", 3: "EXC_ARITHMETIC", 5: "EXC_SOFTWARE", 6: "EXC_BREAKPOINT",
        10: "EXC_CRASH", 11: "EXC_RESOURCE", 12: "EXC_GUARD"}
SIGNALS = {4: "SIGILL", 5: "SIGTRAP", 6: "SIGABRT", 8: "SIGFPE", 9: "SIGKILL", 10: "SIGBUS", 11: "SIGSEGV"}
if raw is None:
    # Only the file broken on purpose: read up to the cut, with a warning that says so.
    assert any(x["code"] == "json.truncated" for x in d["diagnostics"]), path
    print(f"  ok metrickit  cut short, read with a warning  {path.split('/')[-1]}")
    sys.exit(0)
payloads = raw if isinstance(raw, list) else [raw]
want = {}
crashes = []
frames = 0
def count_frames(node):
    global frames
    todo = list(node)
    while todo:
        f = todo.pop()
        frames += 1
        todo.extend(f.get("subFrames", []))
trees = []
for p in payloads:
    if "callStacks" in p:
        want["callStackTree"] = want.get("callStackTree", 0) + 1
        trees.append(p)
    for key, kind in KINDS.items():
        for diag in p.get(key, []):
            want[kind] = want.get(kind, 0) + 1
            trees.append(diag.get("callStackTree", {}))
            if kind == "crash":
                crashes.append(diag.get("diagnosticMetaData", {}))
for t in trees:
    for s in t.get("callStacks", []):
        count_frames(s.get("callStackRootFrames", []))
assert r["diagnosticCounts"] == want, f"{path}: counts {r['diagnosticCounts']} != {want}"
got_frames = sum(len((x.get("callTree") or {}).get("frames", [])) for p in r["payloads"] for x in p["diagnostics"])
assert got_frames == frames, f"{path}: {got_frames} frames read, the raw JSON has {frames}"
got_crashes = [x["crashReport"] for p in r["payloads"] for x in p["diagnostics"] if x["kind"] == "crash"]
assert len(got_crashes) == len(crashes), path
for meta, crash in zip(crashes, got_crashes):
    exc = crash.get("exception", {})
    if "exceptionType" in meta:
        assert exc.get("type") == MACH.get(meta["exceptionType"], str(meta["exceptionType"])), (path, exc)
    if "signal" in meta:
        assert exc.get("signal") == SIGNALS.get(meta["signal"], str(meta["signal"])), (path, exc)
    if "terminationReason" in meta:
        assert crash["termination"]["raw"] == meta["terminationReason"], path
    if "deviceType" in meta:
        assert crash.get("hardwareModel") == meta["deviceType"], path
print(f"  ok metrickit  {json.dumps(want, sort_keys=True):60} frames={frames:<5} {path.split('/')[-1]}")
PY
  count=$((count + 1))
done
[ "$count" -ge 1 ] || { echo "FAIL: no files in $CORPUS"; exit 1; }

echo "  golden outputs of Corpus/metrickit"
for expected in Corpus/metrickit/expected/*.json; do
  name="$(basename "$expected" .json)"
  "$BIN" inspect --format json "Corpus/metrickit/$name" > "$OUT/golden.json"
  diff -u "$expected" "$OUT/golden.json"
done

echo "  inspect --format folded: one 'stack count' line per stack end of every call-stack tree"
"$BIN" inspect --format folded Corpus/metrickit/*.json > "$OUT/folded.txt" 2> "$OUT/folded.err"
python3 - "$OUT/folded.txt" <<'PY'
import re, sys
lines = open(sys.argv[1], encoding="utf-8").read().splitlines()
assert len(lines) >= 10, f"only {len(lines)} folded stacks"
kinds = set()
for line in lines:
    assert re.fullmatch(r"[^ ;]+(;[^ ;]+)* [1-9][0-9]*", line), line
    kinds.add(line.split("@", 1)[0])
assert {"hang", "cpuException", "diskWriteException"} <= kinds, kinds
print(f"  ok folded  {len(lines)} stacks, diagnostics {sorted(kinds)}")
PY
grep -q "ios17.4_metric_payload.json: note: no diagnostic with a call-stack tree" "$OUT/folded.err" \
  || { echo "FAIL: a metric payload without trees is not said"; cat "$OUT/folded.err"; exit 1; }
