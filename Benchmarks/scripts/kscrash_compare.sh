#!/usr/bin/env bash
# Times `apm-inspect scan --format ndjson` on generated KSCrash reports next to kscrash_python.py (Python's json
# module doing the same mapping: crashed thread, exception, every frame attributed to its image, the image list).
#
#   Benchmarks/scripts/kscrash_compare.sh [COUNT] [RUNS]      (defaults: 1000 reports, 5 runs)
#   APM_INSPECT_BIN=path/to/apm-inspect to skip the release build; PYTHON=path to choose the interpreter.
#
# The reports go to Benchmarks/data/kscrash-COUNT (kscrash_generate.py, seed 1; git ignores Benchmarks/data/) and are
# kept. Both sides are first checked to agree on every file (same crashed-thread index, same exception type); then
# each is timed with bench_lib.sh's `measure` (wall, CPU, peak RSS) and the rows go to $BENCH_TSV.
set -euo pipefail
cd "$(dirname "$0")/../.."
. Benchmarks/scripts/bench_lib.sh
COUNT="${1:-1000}"; RUNS="${2:-5}"
bench_family kscrash
bench_python
bench_binary
DATA="Benchmarks/data/kscrash-$COUNT"
if [ ! -d "$DATA" ] || [ "$(find "$DATA" -name '*.json' | wc -l)" -ne "$COUNT" ]; then
  rm -rf "$DATA"
  "$PY" Benchmarks/scripts/kscrash_generate.py --out "$DATA" --count "$COUNT" --seed 1
fi
WORK="$(mktemp -d "${TMPDIR:-/tmp}/kscrash-bench.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT

# The two agree before either is timed.
"$BIN" scan --format ndjson "$DATA" > "$WORK/scan.ndjson" 2>/dev/null
"$PY" Benchmarks/scripts/kscrash_python.py "$DATA" > "$WORK/python.ndjson" 2>/dev/null
"$PY" - "$WORK/scan.ndjson" "$WORK/python.ndjson" <<'PY'
import json, os, sys
ours = {}
for line in open(sys.argv[1]):
    envelope = json.loads(line)
    report = envelope.get("report", {})
    ours[os.path.basename(envelope["file"])] = (envelope.get("kind"), report.get("crashedThread"),
                                                (report.get("exception") or {}).get("type"))
theirs = {}
for line in open(sys.argv[2]):
    row = json.loads(line)
    theirs[os.path.basename(row["file"])] = ("kscrash", row["crashedThread"], row["exceptionType"])
problems = [f"{name}: apm-inspect {ours.get(name)} python {theirs.get(name)}"
            for name in sorted(set(ours) | set(theirs)) if ours.get(name) != theirs.get(name)]
if problems:
    print("kscrash: apm-inspect and the Python peer disagree:\n" + "\n".join(problems[:20]))
    sys.exit(1)
print(f"  agree: {len(ours)} reports, same crashed thread and exception type")
PY

bench_input "$DATA"
echo "KSCrash reports: $COUNT files ($(du -sk "$DATA" | cut -f1) KB), median of $RUNS runs"
load_check begin
measure "apm-inspect scan --format ndjson" "$RUNS" -- "$BIN" scan --format ndjson "$DATA"
measure "apm-inspect scan --format ndjson --jobs 1" "$RUNS" -- "$BIN" scan --format ndjson --jobs 1 "$DATA"
measure "python json module (kscrash_python.py)" "$RUNS" -- "$PY" Benchmarks/scripts/kscrash_python.py "$DATA"
load_check end
