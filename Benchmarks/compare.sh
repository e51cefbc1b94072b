#!/usr/bin/env bash
# Side-by-side timing of `apm-inspect memory-limits` and the Python baselines on the same generated reports.
#
#   Benchmarks/compare.sh [COUNT] [PROCESSES] [RUNS]     (defaults: 1000 reports × 400 processes, 5 runs)
#
# Prints the median wall time of each tool over RUNS runs (files cached first), the ratios, and peak memory.
set -euo pipefail
cd "$(dirname "$0")/.."
COUNT="${1:-1000}"; PROCS="${2:-400}"; RUNS="${3:-5}"
DATA="Benchmarks/data/jetsam-$COUNT-$PROCS"
if [ ! -d "$DATA" ]; then
  python3 Benchmarks/scripts/generate_jetsam.py --out "$DATA" --count "$COUNT" --processes "$PROCS" --seed 1
fi
swift build -c release --product apm-inspect >/dev/null
BIN="$(swift build -c release --show-bin-path)/apm-inspect"
cat "$DATA"/* > /dev/null
python3 -c 'import orjson' 2>/dev/null || pip install -q orjson
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
run() { # name, command...
  local name="$1"; shift
  local times=() peak=0
  for _ in $(seq "$RUNS"); do
    /usr/bin/time -f "%e %M" -o /tmp/bench.time "$@" > /dev/null 2>&1
    read -r t m < /tmp/bench.time; times+=("$t"); peak=$m
  done
  printf '%s %s %s\n' "$name" "$(printf '%s\n' "${times[@]}" | median)" "$peak"
}
{
  run apm-inspect-2-cores "$BIN" memory-limits --format csv "$DATA"
  run apm-inspect-1-core "$BIN" memory-limits --format csv --jobs 1 "$DATA"
  run python-orjson-2-workers python3 Benchmarks/scripts/memory_limits_python.py --json-module orjson --workers 2 "$DATA"
  run python-orjson-1-worker python3 Benchmarks/scripts/memory_limits_python.py --json-module orjson "$DATA"
  run python-json-2-workers python3 Benchmarks/scripts/memory_limits_python.py --json-module json --workers 2 "$DATA"
} > /tmp/bench.results
MB=$(du -sm "$DATA" | cut -f1)
echo "memory-limits over $COUNT reports × $PROCS processes ($MB MB), median of $RUNS runs"
awk -v mb="$MB" '{ printf "  %-26s %6.2f s  %6.0f MB/s  peak RSS %6.1f MB\n", $1, $2, mb / $2, $3 / 1024 }' /tmp/bench.results
ours=$(awk '$1=="apm-inspect-2-cores"{print $2}' /tmp/bench.results)
awk -v ours="$ours" '$1 ~ /^python/ { printf "  %s / apm-inspect-2-cores: %.2f×\n", $1, $2 / ours }' /tmp/bench.results
