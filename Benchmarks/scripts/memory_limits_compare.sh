#!/usr/bin/env bash
# Side-by-side timing of `apm-inspect memory-limits` and the Python baselines on the same generated reports (this was
# Benchmarks/compare.sh before that became the entry point for every family).
#
#   Benchmarks/scripts/memory_limits_compare.sh [COUNT] [PROCESSES] [RUNS]   (defaults: 1000 reports × 400 processes, 5 runs)
#   APM_INSPECT_BIN=path/to/apm-inspect to skip the release build; PYTHON=path to choose the interpreter.
#
# The two tables are first checked to agree row by row (compare_limits.py); then each tool is timed with
# bench_lib.sh's `measure` (median wall and CPU, min wall, peak RSS; files cached first) and the rows go to $BENCH_TSV.
set -euo pipefail
cd "$(dirname "$0")/../.."
. Benchmarks/scripts/bench_lib.sh
COUNT="${1:-1000}"; PROCS="${2:-400}"; RUNS="${3:-5}"
bench_family memory-limits
bench_python
bench_binary
DATA="Benchmarks/data/jetsam-$COUNT-$PROCS"
if [ ! -d "$DATA" ]; then
  "$PY" Benchmarks/scripts/generate_jetsam.py --out "$DATA" --count "$COUNT" --processes "$PROCS" --seed 1
fi
"$PY" -c 'import orjson' 2>/dev/null || "$PY" -m pip install -q orjson
WORK="$(mktemp -d "${TMPDIR:-/tmp}/limits-bench.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
"$BIN" memory-limits --format csv "$DATA" > "$WORK/ours.csv" 2>/dev/null
"$PY" Benchmarks/scripts/memory_limits_python.py --json-module orjson "$DATA" > "$WORK/python.csv" 2>/dev/null
"$PY" Benchmarks/scripts/compare_limits.py "$WORK/ours.csv" "$WORK/python.csv"
bench_input "$DATA"
echo "memory-limits over $COUNT reports × $PROCS processes ($(du -sm "$DATA" | cut -f1) MB), median of $RUNS runs"
load_check begin
measure "apm-inspect memory-limits, 2 cores" "$RUNS" -- "$BIN" memory-limits --format csv "$DATA"
measure "apm-inspect memory-limits, 1 core" "$RUNS" -- "$BIN" memory-limits --format csv --jobs 1 "$DATA"
measure "python + orjson, 2 workers" "$RUNS" -- "$PY" Benchmarks/scripts/memory_limits_python.py --json-module orjson --workers 2 "$DATA"
measure "python + orjson, 1 worker" "$RUNS" -- "$PY" Benchmarks/scripts/memory_limits_python.py --json-module orjson "$DATA"
measure "python + json module, 2 workers" "$RUNS" -- "$PY" Benchmarks/scripts/memory_limits_python.py --json-module json --workers 2 "$DATA"
load_check end
