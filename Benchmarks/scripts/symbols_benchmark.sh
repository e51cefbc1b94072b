#!/usr/bin/env bash
# Symbol sources (issue 45): `scan` of COUNT text reports against a folder source of DSYMS dSYM bundles found by
# UUID, with the folder's index built (a new --symbol-cache each run) and reused (one cache), against the same scan
# with no symbols; and `symbolicate` of one report from a local HTTP symbol server, cold and warm cache.
#   Benchmarks/scripts/symbols_benchmark.sh [COUNT] [DSYMS] [RUNS]
#   APM_INSPECT_BIN=path/to/apm-inspect to skip the release build.
# Rows (family `symbols`) go to $BENCH_TSV through bench_lib.sh.
set -euo pipefail
cd "$(dirname "$0")/../.."
. Benchmarks/scripts/bench_lib.sh
COUNT="${1:-10000}"; DSYMS="${2:-1000}"; RUNS="${3:-3}"
bench_family symbols
bench_python
bench_binary
DATA="Benchmarks/data/symbols-$COUNT-$DSYMS"
[ -d "$DATA" ] || "$PY" Benchmarks/scripts/symbols_generate.py "$DATA" --dsyms "$DSYMS" --reports "$COUNT" > /dev/null
WORK="$(mktemp -d "${TMPDIR:-/tmp}/apm-inspect-symbols.XXXXXX")"
server=""
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$WORK"' EXIT

# Every report must come out named, or the figures would time a scan that found nothing.
"$BIN" scan --format ndjson --jobs 1 --symbols "$DATA/dsyms" --symbol-cache "$WORK/check" "$DATA/reports" > "$WORK/check.ndjson"
named=$(grep -c '"file" : "\/Demo\/src\/main.c"\|"file":"\/Demo\/src\/main.c"' "$WORK/check.ndjson" || true)
[ "$named" -eq "$COUNT" ] || { echo "symbols_benchmark: $named of $COUNT reports were symbolicated" >&2; exit 1; }

bench_input "$DATA/reports"
echo "scan of $COUNT reports against $DSYMS dSYMs ($(du -sm "$DATA" | cut -f1) MB), median of $RUNS runs"
load_check begin
measure "apm-inspect scan --jobs 1 (no symbols)" "$RUNS" -- "$BIN" scan --jobs 1 --format ndjson "$DATA/reports"
measure "apm-inspect scan --jobs 1 --symbols FOLDER, index built" "$RUNS" -- \
  sh -c 'c=$(mktemp -d) && "$0" scan --jobs 1 --format ndjson --symbols "$1" --symbol-cache "$c" "$2"; s=$?; rm -rf "$c"; exit $s' \
  "$BIN" "$DATA/dsyms" "$DATA/reports"
measure "apm-inspect scan --jobs 1 --symbols FOLDER, index cached" "$RUNS" -- \
  "$BIN" scan --jobs 1 --format ndjson --symbols "$DATA/dsyms" --symbol-cache "$WORK/warm" "$DATA/reports"
measure "apm-inspect scan --jobs 2 --symbols FOLDER, index cached" "$RUNS" -- \
  "$BIN" scan --jobs 2 --format ndjson --symbols "$DATA/dsyms" --symbol-cache "$WORK/warm" "$DATA/reports"
load_check end

# One report from a symbol server on the loopback (the unified layout), cold cache and warm.
u=4c4c448655553144a1752df7479ac8fa
mkdir -p "$WORK/served/${u:0:2}/${u:2}"
cp Tests/SymbolicationTests/Fixtures/Demo-fat.dSYM/Contents/Resources/DWARF/Demo-fat "$WORK/served/${u:0:2}/${u:2}/debuginfo"
port=$("$PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$PY" -m http.server --bind 127.0.0.1 --directory "$WORK/served" "$port" > /dev/null 2>&1 &
server=$!
for _ in $(seq 1 50); do "$PY" -c "import socket; socket.create_connection(('127.0.0.1', $port), 0.2)" 2>/dev/null && break; sleep 0.1; done
REPORT=Tests/SymbolicationTests/Fixtures/reports/Demo-arm64-ios.crash
bench_input "$REPORT"
load_check begin
measure "apm-inspect symbolicate --symbols http://…, cold cache" "$RUNS" -- \
  sh -c 'c=$(mktemp -d) && "$0" symbolicate "$1" --symbols "$2" --symbol-cache "$c"; s=$?; rm -rf "$c"; exit $s' \
  "$BIN" "$REPORT" "http://127.0.0.1:$port"
measure "apm-inspect symbolicate --symbols http://…, warm cache" "$RUNS" -- \
  "$BIN" symbolicate "$REPORT" --symbols "http://127.0.0.1:$port" --symbol-cache "$WORK/http-warm"
measure "apm-inspect symbolicate --dsym" "$RUNS" -- "$BIN" symbolicate "$REPORT" --dsym Tests/SymbolicationTests/Fixtures/Demo-fat.dSYM
load_check end
