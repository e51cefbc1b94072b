#!/usr/bin/env bash
# Times `apm-inspect scan` over 10,000 generated reports with 1 and 2 worker threads (files per second).
#   Benchmarks/scripts/scan_benchmark.sh [COUNT] [RUNS]
# The reports: JetsamEvents from generate_jetsam.py (100 processes each) and copies of the project's crash and
# watchdog corpus files, in equal numbers.
set -euo pipefail
cd "$(dirname "$0")/../.."
COUNT="${1:-10000}"; RUNS="${2:-3}"
DATA="Benchmarks/data/scan-$COUNT"
if [ ! -d "$DATA" ]; then
  half=$((COUNT / 2))
  python3 Benchmarks/scripts/generate_jetsam.py --out "$DATA/jetsam" --count "$half" --processes 100 --seed 3 > /dev/null
  mkdir -p "$DATA/crashes"
  sources=(Corpus/crash/*.crash Corpus/crash/*.ips Corpus/watchdog/*.crash Corpus/watchdog/*.ips)
  for i in $(seq 1 $((COUNT - half))); do
    src="${sources[$((i % ${#sources[@]}))]}"
    cp "$src" "$DATA/crashes/report-$i.${src##*.}"
  done
fi
swift build -c release --product apm-inspect > /dev/null
BIN="$(swift build -c release --show-bin-path)/apm-inspect"
cat "$DATA"/*/* > /dev/null
for jobs in 1 2; do
  times=()
  for _ in $(seq "$RUNS"); do
    /usr/bin/time -f "%e %M" -o /tmp/scan-bench.time "$BIN" scan --jobs "$jobs" --format ndjson "$DATA" > /dev/null 2>&1
    read -r t m < /tmp/scan-bench.time
    times+=("$t")
  done
  median=$(printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
  awk -v n="$COUNT" -v t="$median" -v j="$jobs" -v m="$m" \
    'BEGIN { printf "scan %d reports, %d job(s): %.2f s median, %.0f files/s, peak RSS %.0f MB\n", n, j, t, n / t, m / 1024 }'
done
