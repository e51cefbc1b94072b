#!/usr/bin/env bash
# Times `apm-inspect scan` (the MetricKit fleet view) next to metrickit_python.py over generated payload files.
#
#   Benchmarks/scripts/metrickit_compare.sh [COUNT] [RUNS]
#     COUNT  payload files to generate (default 2000; each holds one metric payload, every third a diagnostic too)
#     RUNS   timed runs of each side (default 5); the medians are printed
#   BIN=path/to/apm-inspect to skip the release build.
#
# The files go to Benchmarks/data/metrickit-COUNT (git ignores Benchmarks/data/) and are kept for the next run.
# Both sides are first checked to agree (exit sums, diagnostics by kind, per-version launch p50/p90 and hang rate);
# then each is timed with /usr/bin/time (wall, user + system CPU, peak RSS). Python is called through the real
# interpreter (sys.executable, resolved once), not a `python3` shim on PATH that would add its own start-up.
# Timings mean something only on an idle machine.
set -euo pipefail
cd "$(dirname "$0")/../.."
COUNT="${1:-2000}"
RUNS="${2:-5}"
PY="$(python3 -c 'import sys; print(sys.executable)')"
if [ -z "${BIN:-}" ]; then
  swift build -c release --product apm-inspect >/dev/null
  BIN="$(swift build -c release --show-bin-path)/apm-inspect"
fi
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

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
measure() { # name, command...
  local name="$1"; shift
  local walls=() cpus=() rss=()
  "$@" > /dev/null 2>&1 # warm the page cache
  for _ in $(seq "$RUNS"); do
    /usr/bin/time -f "%e %U %S %M" -o "$WORK/time" "$@" > /dev/null 2>&1
    read -r wall user system peak < "$WORK/time"
    walls+=("$wall")
    cpus+=("$(awk -v u="$user" -v s="$system" 'BEGIN {print u + s}')")
    rss+=("$peak")
  done
  local wall cpu peak
  wall="$(printf '%s\n' "${walls[@]}" | median)"
  cpu="$(printf '%s\n' "${cpus[@]}" | median)"
  peak="$(printf '%s\n' "${rss[@]}" | median)"
  printf '%-40s wall %6.2f s  CPU %6.2f s  %9.0f payloads/s  peak RSS %6.1f MB\n' "$name" "$wall" "$cpu" \
    "$(awk -v n="$COUNT" -v w="$wall" 'BEGIN {print (w > 0 ? n / w : 0)}')" "$(awk -v k="$peak" 'BEGIN {print k / 1024}')"
}
echo "MetricKit fleet view over $COUNT payload files ($(du -sk "$DATA" | cut -f1) KB), median of $RUNS runs"
measure "apm-inspect scan (all cores)" "$BIN" scan "$DATA"
measure "apm-inspect scan --jobs 1" "$BIN" scan --jobs 1 "$DATA"
measure "python3 metrickit_python.py (json)" "$PY" Benchmarks/scripts/metrickit_python.py --quiet "$DATA"
