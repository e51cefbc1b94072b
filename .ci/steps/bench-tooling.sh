#!/usr/bin/env bash
# The benchmark tooling itself (issue 21), without timing anything that matters: the doc renderer's unit check, and
# one row set through bench_lib.sh, whose rowset line must carry what other processes used of the CPU and whose row
# must have every column. The figures of docs/performance.md come from `Benchmarks/compare.sh --write-doc` on an
# idle machine, never from CI.
set -euo pipefail
: "${BIN:?BIN must name the apm-inspect binary}"
PY="$(python3 -c 'import sys; print(sys.executable)')"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

echo "== bench tooling: render_performance.py unit check"
"$PY" Benchmarks/scripts/test_render_performance.py

echo "== bench tooling: one row set through bench_lib.sh"
(
  export BENCH_TSV="$WORK/results.tsv" APM_INSPECT_BIN="$BIN"
  . Benchmarks/scripts/bench_lib.sh
  bench_family ci-smoke
  bench_binary
  load_check begin
  bench_input Corpus/crash
  measure "apm-inspect scan" 2 -- "$BIN" scan --jobs 1 Corpus/crash
  load_check end
)
grep -q '^# rowset family=ci-smoke .* others_before=[0-9.]* others_during=[0-9.]* busy=\(busy\|idle\) ' "$WORK/results.tsv" \
  || { echo "FAIL: no rowset line with others_before/others_during"; cat "$WORK/results.tsv"; exit 1; }
rows=$(awk -F'\t' '$1 == "ci-smoke" && NF == 10' "$WORK/results.tsv" | wc -l)
[ "$rows" = 1 ] || { echo "FAIL: expected one ci-smoke row of 10 columns, got $rows"; cat "$WORK/results.tsv"; exit 1; }
echo "bench tooling: ok"
