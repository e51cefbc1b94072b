#!/usr/bin/env bash
# Crash report parse throughput, side by side with pycrashreport on the same .ips files, in one run.
#   Benchmarks/scripts/crash_compare.sh [COUNT] [ROUNDS]
#   env: APM_INSPECT_BIN (skip the release build), PYTHON (the interpreter), CRASH_LIBRARY=0 (skip the library-level
#        figures, which need the Benchmarks package's CrashThroughput built; THROUGHPUT=path reuses one),
#        CORPUS_COPIES (copies of each corpus file, default 100)
#
# Inputs (generated once into Benchmarks/data/, which git ignores):
#   json/  COUNT realistic iOS 15-17 bug_type 309 crash reports (generate_crashes.py, seed 1);
#   text/  the same reports translated by `apm-inspect translate` into Apple's text layout, under a bug_type 109
#          header: the text-in-.ips form pycrashreport reads;
#   corpus/ the project's own Corpus/crash and Corpus/watchdog .ips, and its older text reports under a 109
#          header, 100 copies each: the eras pycrashreport cannot read (its failures are counted, not timed away).
# Figures: library level (parse of the full model + watchdog analysis, fields touched: those of every thread, and
# those pycrashreport offers; start-up not counted, on either side) as the median of ROUNDS rounds, printed only, and
# end to end (`apm-inspect scan --jobs 1` against the Python process, through the real interpreter) as the median of
# ROUNDS runs by bench_lib.sh's `measure`, written to $BENCH_TSV as families `crash:json`, `crash:text`, ... One core
# each. Family `crash:json-output` times the full model written as JSON (`scan --format ndjson`, `inspect --format
# json`) on the json set against the same pycrashreport process.
set -euo pipefail
cd "$(dirname "$0")/../.."
. Benchmarks/scripts/bench_lib.sh
COUNT="${1:-500}"; ROUNDS="${2:-5}"
COPIES="${CORPUS_COPIES:-100}"
DATA="Benchmarks/data/crash-compare-$COUNT"
[ "$COPIES" = 100 ] || DATA="$DATA-copies$COPIES"
bench_python
"$PY" -c 'import pycrashreport' 2>/dev/null || "$PY" -m pip install -q pycrashreport
bench_binary
if [ "${CRASH_LIBRARY:-1}" != 0 ] && [ -z "${THROUGHPUT:-}" ]; then
  (cd Benchmarks && swift build -c release --product CrashThroughput > /dev/null)
  THROUGHPUT="$(cd Benchmarks && swift build -c release --show-bin-path)/CrashThroughput"
fi
if [ ! -d "$DATA" ]; then
  mkdir -p "$DATA/json" "$DATA/text" "$DATA/corpus"
  "$PY" Benchmarks/scripts/generate_crashes.py --out "$DATA/json" --count "$COUNT" --seed 1
  for f in "$DATA"/json/*.ips; do
    { head -1 "$f" | sed 's/"bug_type":"309"/"bug_type":"109"/'; "$BIN" translate "$f"; } > "$DATA/text/$(basename "$f")"
  done
  i=0
  for src in Corpus/crash/*.ips Corpus/watchdog/*.ips; do
    for n in $(seq 1 "$COPIES"); do cp "$src" "$DATA/corpus/json-$i-$n.ips"; done
    i=$((i + 1))
  done
  header='{"bug_type":"109","timestamp":"2021-03-04 10:11:12.00 +0100","os_version":"iPhone OS 14.4 (18D52)","incident_id":"5B1E8C52-1A4B-4C8E-9D3F-2A7B6C5D4E3F","name":"App"}'
  for src in Corpus/crash/ios14.4_*.crash Corpus/crash/ios9.3.5_*.crash Corpus/crash/ios13.3.1_*.crash \
    Corpus/watchdog/ios13.6_*.crash Corpus/watchdog/ios11.2_*.crash; do
    for n in $(seq 1 "$COPIES"); do { echo "$header"; cat "$src"; } > "$DATA/corpus/text-$i-$n.ips"; done
    i=$((i + 1))
  done
fi
# The corpus files pycrashreport can read (it fails on the older text eras and on JSON watchdog reports): the
# like-for-like subset, since a failure costs it less than a parse.
if [ ! -d "$DATA/corpus-both" ]; then
  mkdir -p "$DATA/corpus-both"
  "$PY" Benchmarks/scripts/crash_pycrashreport.py "$DATA/corpus" 1 --list-parsed |
    while read -r path; do cp "$path" "$DATA/corpus-both/"; done
fi
field() { sed -n "s/.*median \([0-9.]*\) s.*/\1/p"; }
echo "crash reports, one core, median of $ROUNDS; $(nproc) cores on this machine"
for set in json text corpus corpus-both; do
  dir="$DATA/$set"
  cat "$dir"/* > /dev/null
  echo "[$set] $(ls "$dir" | wc -l) files, $(du -sm "$dir" | cut -f1) MB"
  if [ "${CRASH_LIBRARY:-1}" != 0 ]; then
    ours=$("$THROUGHPUT" "$dir" "$ROUNDS")
    ours_faulting=$("$THROUGHPUT" "$dir" "$ROUNDS" faulting)
    theirs=$("$PY" Benchmarks/scripts/crash_pycrashreport.py "$dir" "$ROUNDS")
    echo "  library:    $ours"
    echo "              $ours_faulting"
    echo "              $theirs"
    awk -v a="$(echo "$ours" | field)" -v f="$(echo "$ours_faulting" | field)" -v b="$(echo "$theirs" | field)" \
      'BEGIN { printf "              ratio %.1fx (every thread touched), %.1fx (the faulting thread, as pycrashreport)\n", b / a, b / f }'
  fi
  echo "  end to end:"
  bench_family "crash:$set"
  bench_input "$dir"
  load_check begin
  measure "apm-inspect scan --jobs 1" "$ROUNDS" -- "$BIN" scan --jobs 1 "$dir"
  measure "pycrashreport process (crash_pycrashreport.py)" "$ROUNDS" -- "$PY" Benchmarks/scripts/crash_pycrashreport.py "$dir" 1
  load_check end
done
# The full model written as JSON (the issue-21 target: `scan --format ndjson` faster than pycrashreport reading the
# same files), on the json set: every thread, frame, image and register is encoded, against pycrashreport's parse.
echo "[json output] $DATA/json"
bench_family "crash:json-output"
bench_input "$DATA/json"
load_check begin
measure "apm-inspect scan --jobs 1 --format ndjson" "$ROUNDS" -- "$BIN" scan --jobs 1 --format ndjson "$DATA/json"
measure "apm-inspect inspect --format json (the folder)" "$ROUNDS" -- "$BIN" inspect --format json "$DATA/json"
measure "pycrashreport process (crash_pycrashreport.py)" "$ROUNDS" -- "$PY" Benchmarks/scripts/crash_pycrashreport.py "$DATA/json" 1
load_check end
