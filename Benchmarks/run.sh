#!/usr/bin/env bash
# Generates the benchmark inputs (once) and runs the package-benchmark suites.
#   Benchmarks/run.sh [extra arguments for `swift package benchmark`]
set -euo pipefail
cd "$(dirname "$0")"
[ -d data/jetsam-1000-400 ] || python3 scripts/generate_jetsam.py --out data/jetsam-1000-400 --count 1000 --processes 400 --seed 1
[ -d data/jetsam-large ] || python3 scripts/generate_jetsam.py --out data/jetsam-large --count 1 --processes 2000 --seed 2
[ -f data/powerlog-rows-1000000.PLSQL ] || python3 scripts/generate_powerlog_rows.py --rows 1000000 --out data/powerlog-rows-1000000.PLSQL
if [ ! -d data/crash-bench ]; then
  python3 scripts/generate_crashes.py --out data/crash-bench/json --count 50 --seed 2
  mkdir -p data/crash-bench/text
  (cd .. && swift build -c release --product apm-inspect > /dev/null)
  BIN="$(cd .. && swift build -c release --show-bin-path)/apm-inspect"
  for f in data/crash-bench/json/*.ips; do
    { head -1 "$f" | sed 's/"bug_type":"309"/"bug_type":"109"/'; "$BIN" translate "$f"; } > "data/crash-bench/text/$(basename "$f")"
  done
fi
swift package --allow-writing-to-package-directory benchmark --no-progress "$@"
