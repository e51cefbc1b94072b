#!/usr/bin/env bash
# Times `apm-inspect scan` over 10,000 generated reports with 1 and 2 worker threads (files per second).
#   Benchmarks/scripts/scan_benchmark.sh [COUNT] [RUNS]
#   APM_INSPECT_BIN=path/to/apm-inspect to skip the release build.
# The reports: JetsamEvents from generate_jetsam.py (100 processes each) and copies of the project's crash and
# watchdog corpus files, in equal numbers. Rows (family `scan`) go to $BENCH_TSV through bench_lib.sh.
set -euo pipefail
cd "$(dirname "$0")/../.."
. Benchmarks/scripts/bench_lib.sh
COUNT="${1:-10000}"; RUNS="${2:-3}"
bench_family scan
bench_python
bench_binary
DATA="Benchmarks/data/scan-$COUNT"
if [ ! -d "$DATA" ]; then
  half=$((COUNT / 2))
  "$PY" Benchmarks/scripts/generate_jetsam.py --out "$DATA/jetsam" --count "$half" --processes 100 --seed 3 > /dev/null
  mkdir -p "$DATA/crashes"
  sources=(Corpus/crash/*.crash Corpus/crash/*.ips Corpus/watchdog/*.crash Corpus/watchdog/*.ips)
  for i in $(seq 1 $((COUNT - half))); do
    src="${sources[$((i % ${#sources[@]}))]}"
    cp "$src" "$DATA/crashes/report-$i.${src##*.}"
  done
fi
bench_input "$DATA"
echo "scan of $COUNT reports ($(du -sm "$DATA" | cut -f1) MB), median of $RUNS runs"
load_check begin
for jobs in 1 2; do
  measure "apm-inspect scan --jobs $jobs" "$RUNS" -- "$BIN" scan --jobs "$jobs" --format ndjson "$DATA"
done
load_check end
