#!/usr/bin/env bash
# The one entry point of the comparisons (issue 21): runs every family's script against its peer, collects their
# TSV rows into Benchmarks/data/results-YYYY-MM-DD.tsv and, with --write-doc, regenerates the tables of
# docs/performance.md between the `<!-- compare.sh:FAMILY begin -->` / `end` markers (render_performance.py).
#
#   Benchmarks/compare.sh [--quick] [--only FAMILY,...] [--write-doc] [--doc PATH] [--tsv PATH] [--from TSV]
#
#   --quick       small inputs and 3 runs: a smoke run of the tooling (minutes), not figures to publish
#   --only        families to run, comma-separated: memory-limits scan crash http powerlog symbolication metrickit
#                 kscrash (default: all)
#   --write-doc   render the TSV into docs/performance.md (or --doc PATH) when the runs are done
#   --tsv PATH    where the rows go (default Benchmarks/data/results-DATE.tsv, DATE in UTC; appended)
#   --from TSV    run nothing; render TSV (with --write-doc)
#   COUNT [PROCESSES] [RUNS]   the old form: the memory-limits comparison alone with these sizes
#
# Environment: APM_INSPECT_BIN=path/to/apm-inspect to use a built binary (else each script builds the release
# product), PYTHON=path to choose the interpreter (default: what `python3` resolves to, never a shim).
# Measure for publication on an idle machine: what other processes used of the CPU is printed before and during each
# row set, and a row set where they used more than a quarter of a core (BENCH_MAX_OTHERS) is flagged busy in the TSV
# and in the rendered doc.
# Generated inputs stay in Benchmarks/data/ (git ignores it). A family whose tools are missing fails alone: the others
# still run, and the script exits 1 at the end naming it.
set -euo pipefail
cd "$(dirname "$0")/.."
ALL="memory-limits scan crash http powerlog symbolication metrickit kscrash symbols"
QUICK=0; ONLY=""; WRITE=0; DOC="docs/performance.md"; TSV=""; FROM=""
if [[ "${1:-}" =~ ^[0-9]+$ ]]; then
  exec Benchmarks/scripts/memory_limits_compare.sh "$@"
fi
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) QUICK=1 ;;
    --only) ONLY="${2//,/ }"; shift ;;
    --only=*) ONLY="${1#--only=}"; ONLY="${ONLY//,/ }" ;;
    --write-doc) WRITE=1 ;;
    --doc) DOC="$2"; shift ;;
    --tsv) TSV="$2"; shift ;;
    --from) FROM="$2"; shift ;;
    -h|--help) sed -n '2,22p' "$0"; exit 0 ;;
    *) echo "unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done
for family in $ONLY; do
  [[ " $ALL " == *" $family "* ]] || { echo "unknown family $family (one of: $ALL)" >&2; exit 2; }
done
FAMILIES="${ONLY:-$ALL}"
render() {
  local tsv="$1"
  [ "$WRITE" = 1 ] || return 0
  . Benchmarks/scripts/bench_lib.sh
  bench_python
  "$PY" Benchmarks/scripts/render_performance.py "$tsv" "$DOC"
}
if [ -n "$FROM" ]; then render "$FROM"; exit 0; fi

export BENCH_TSV="${TSV:-Benchmarks/data/results-$(date -u +%F).tsv}"
mkdir -p "$(dirname "$BENCH_TSV")"
. Benchmarks/scripts/bench_lib.sh
bench_python   # resolved once, exported to every script
if [ -z "${APM_INSPECT_BIN:-}" ]; then bench_binary; export APM_INSPECT_BIN="$BIN"; fi

run_family() {
  local family="$1"
  if [ "$QUICK" = 1 ]; then
    case "$family" in
      memory-limits) Benchmarks/scripts/memory_limits_compare.sh 30 50 3 ;;
      scan) Benchmarks/scripts/scan_benchmark.sh 100 3 ;;
      crash) CRASH_LIBRARY=0 CORPUS_COPIES=3 Benchmarks/scripts/crash_compare.sh 10 3 ;;
      http) RUNS=3 HAR_MB=2 PCAP_CONNECTIONS=80 Benchmarks/scripts/http_compare.sh ;;
      powerlog) Benchmarks/scripts/powerlog_compare.sh "${POWERLOG_DB:-}" 3 ;;
      symbolication) Benchmarks/scripts/symbolication_compare.sh 50 2 2000 3 ;;
      metrickit) Benchmarks/scripts/metrickit_compare.sh 40 3 ;;
      kscrash) Benchmarks/scripts/kscrash_compare.sh 50 3 ;;
      symbols) Benchmarks/scripts/symbols_benchmark.sh 200 20 3 ;;
    esac
  else
    case "$family" in
      memory-limits) Benchmarks/scripts/memory_limits_compare.sh 1000 400 7 ;;
      scan) Benchmarks/scripts/scan_benchmark.sh 10000 3 ;;
      crash) Benchmarks/scripts/crash_compare.sh 300 9 ;;
      http) RUNS=3 Benchmarks/scripts/http_compare.sh ;;
      powerlog) Benchmarks/scripts/powerlog_compare.sh "${POWERLOG_DB:-}" 31 ;;
      symbolication) Benchmarks/scripts/symbolication_compare.sh 1000 5 100000 3 ;;
      metrickit) Benchmarks/scripts/metrickit_compare.sh 2000 5 ;;
      kscrash) Benchmarks/scripts/kscrash_compare.sh 1000 5 ;;
      symbols) Benchmarks/scripts/symbols_benchmark.sh 10000 1000 3 ;;
    esac
  fi
}

echo "compare.sh: $(date -u +%FT%TZ), nproc $(nproc), load $(cut -d' ' -f1-3 /proc/loadavg), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
echo "rows: $BENCH_TSV"
failed=()
for family in $FAMILIES; do
  echo; echo "== $family"
  if ! run_family "$family"; then
    echo "== $family FAILED (see above); its rows may be missing" >&2
    failed+=("$family")
  fi
done
echo
echo "compare.sh: done $(date -u +%FT%TZ), nproc $(nproc), load $(cut -d' ' -f1-3 /proc/loadavg)"
busy=$(grep -c $'\tbusy$' "$BENCH_TSV" || true)
[ "$busy" = 0 ] || echo "WARNING: $busy row(s) in $BENCH_TSV were measured on a busy machine (other processes above ${BENCH_MAX_OTHERS:-0.25} cores)"
render "$BENCH_TSV"
if [ ${#failed[@]} -gt 0 ]; then echo "failed: ${failed[*]}" >&2; exit 1; fi
