#!/usr/bin/env bash
# Crash report parse throughput, side by side with pycrashreport on the same .ips files.
#   Benchmarks/scripts/crash_compare.sh [COPIES] [RUNS]
# Inputs: the project's JSON (309) .ips files from Corpus/crash and Corpus/watchdog, and its text reports wrapped
# in a bug_type 109 header (the text-in-.ips form pycrashreport reads), COPIES of each.
set -euo pipefail
cd "$(dirname "$0")/../.."
COPIES="${1:-200}"; RUNS="${2:-3}"
DATA="Benchmarks/data/crash-$COPIES"
if [ ! -d "$DATA" ]; then
  mkdir -p "$DATA"
  i=0
  for src in Corpus/crash/*.ips Corpus/watchdog/*.ips; do
    for n in $(seq 1 "$COPIES"); do cp "$src" "$DATA/json-$i-$n.ips"; done
    i=$((i + 1))
  done
  for src in Corpus/crash/ios14.4_*.crash Corpus/crash/ios9.3.5_*.crash Corpus/crash/ios13.3.1_*.crash \
    Corpus/watchdog/ios13.6_*.crash Corpus/watchdog/ios11.2_*.crash; do
    header='{"bug_type":"109","timestamp":"2021-03-04 10:11:12.00 +0100","os_version":"iPhone OS 14.4 (18D52)","incident_id":"5B1E8C52-1A4B-4C8E-9D3F-2A7B6C5D4E3F","name":"App"}'
    for n in $(seq 1 "$COPIES"); do { echo "$header"; cat "$src"; } > "$DATA/text-$i-$n.ips"; done
    i=$((i + 1))
  done
fi
python3 -c 'import pycrashreport' 2>/dev/null || pip install -q pycrashreport
swift build -c release --product apm-inspect > /dev/null
BIN="$(swift build -c release --show-bin-path)/apm-inspect"
FILES=$(ls "$DATA" | wc -l); MB=$(du -sm "$DATA" | cut -f1)
cat "$DATA"/* > /dev/null
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
measure() {
  local times=()
  for _ in $(seq "$RUNS"); do
    /usr/bin/time -f "%e" -o /tmp/crash-bench.time "$@" > /dev/null 2>&1
    times+=("$(cat /tmp/crash-bench.time)")
  done
  printf '%s\n' "${times[@]}" | median
}
ours_text=$(measure "$BIN" scan --jobs 1 "$DATA")
ours_json=$(measure "$BIN" scan --jobs 1 --format ndjson "$DATA")
theirs=$(measure python3 Benchmarks/scripts/crash_pycrashreport.py "$DATA")
echo "crash reports: $FILES .ips files ($MB MB), one core, median of $RUNS runs"
echo "  apm-inspect scan (full model, text summary):  $ours_text s"
echo "  apm-inspect scan --format ndjson (full model): $ours_json s"
echo "  pycrashreport, every field it offers:          $theirs s"
awk -v a="$ours_text" -v b="$ours_json" -v c="$theirs" \
  'BEGIN { printf "  ratio: %.1fx (summary), %.1fx (with JSON output)\n", c / a, c / b }'
