#!/usr/bin/env bash
# Times `apm-inspect scan` (the MetricKit fleet view) next to metrickit_python.py over generated payload files.
#
#   Benchmarks/scripts/metrickit_compare.sh [COUNT] [RUNS]
#     COUNT  payload files to generate (default 2000; each holds one metric payload, every third a diagnostic too)
#     RUNS   timed runs of each side (default 5); the medians are printed
#   APM_INSPECT_BIN=path/to/apm-inspect (or BIN=) to skip the release build; PYTHON=path to choose the interpreter.
#
# The files go to Benchmarks/data/metrickit-COUNT (git ignores Benchmarks/data/) and are kept for the next run.
# Both sides are first checked to agree (exit sums, diagnostics by kind, per-version launch p50/p90 and hang rate);
# then each is timed with bench_lib.sh's `measure` (wall, user + system CPU, peak RSS; rows to $BENCH_TSV). Python is
# called through the real interpreter (bench_python: sys.executable, resolved once and checked not to be a shim).
# Timings mean something only on an idle machine (load_check flags the rows otherwise).
set -euo pipefail
cd "$(dirname "$0")/../.."
COUNT="${1:-2000}"
RUNS="${2:-5}"
. Benchmarks/scripts/bench_lib.sh
bench_family metrickit
bench_python
bench_binary
DATA="Benchmarks/data/metrickit-$COUNT"
if [ ! -d "$DATA" ] || [ "$(find "$DATA" -name '*.json' | wc -l)" -ne "$COUNT" ]; then
  rm -rf "$DATA"
  "$PY" Benchmarks/scripts/metrickit_generate.py --out "$DATA" --count "$COUNT" --seed 1
fi
WORK="$(mktemp -d "${TMPDIR:-/tmp}/metrickit-bench.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT

# The two agree before either is timed.
"$BIN" scan --format json "$DATA" > "$WORK/scan.json"
"$PY" Benchmarks/scripts/metrickit_python.py "$DATA" > "$WORK/python.json" 2>/dev/null
"$PY" - "$WORK/scan.json" "$WORK/python.json" <<'PY'
import json, sys
scan = json.load(open(sys.argv[1]))["metricKit"]
python = json.load(open(sys.argv[2]))
exits = {}
for row in scan["exits"]:
    for state in ("foreground", "background"):
        if row[state]:
            exits[f"{state}.{row['reason']}"] = row[state]
assert exits == {k: v for k, v in python["exits"].items() if v}, (exits, python["exits"])
assert scan["metricPayloads"] == python["metricPayloads"], (scan["metricPayloads"], python["metricPayloads"])
assert scan["diagnostics"] == python["diagnostics"], (scan["diagnostics"], python["diagnostics"])
for row in scan["byVersion"]:
    peer = python["byVersion"][row["name"]]
    launch = row.get("launch") or {}
    assert launch.get("count", 0) == peer["launches"], (row, peer)
    for key in ("p50Seconds", "p90Seconds"):
        assert abs(launch.get(key, 0) - (peer[key] or 0)) < 1e-5, (row["name"], key, launch, peer)
    assert abs((row.get("hangRate") or 0) - (peer["hangRate"] or 0)) < 1e-4, (row, peer)
print(f"  agree: {scan['metricPayloads']} metric payloads, {len(exits)} exit reasons, "
      f"{len(scan['byVersion'])} versions")
PY

bench_input "$DATA"
echo "MetricKit fleet view over $COUNT payload files ($(du -sk "$DATA" | cut -f1) KB), median of $RUNS runs"
load_check begin
measure "apm-inspect scan (all cores)" "$RUNS" -- "$BIN" scan "$DATA"
measure "apm-inspect scan --jobs 1" "$RUNS" -- "$BIN" scan --jobs 1 "$DATA"
measure "python json module (metrickit_python.py)" "$RUNS" -- "$PY" Benchmarks/scripts/metrickit_python.py --quiet "$DATA"
load_check end
