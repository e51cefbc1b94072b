#!/usr/bin/env bash
# Times `apm-inspect http` next to haralyzer (pip) on a generated 100 MB HAR, and next to tshark (apt) on a
# generated large pcap: median wall and CPU, min wall and peak RSS of RUNS runs (bench_lib.sh's `measure`; rows to
# $BENCH_TSV, families `http:har` and `http:pcap`). Inputs are generated (deterministic, seed 1) into
# Benchmarks/data/http-HAR_MB-PCAP_CONNECTIONS, which git ignores, and kept, so each recorded command repeats as is.
# A missing peer (haralyzer, tshark) is reported and its row left out; the apm-inspect rows are still measured.
#
# Usage: Benchmarks/scripts/http_compare.sh [BIN] ; env RUNS (default 3), HAR_MB (100), PCAP_CONNECTIONS (4000),
#        APM_INSPECT_BIN (same as BIN), PYTHON (the interpreter; default: the one `python3` resolves to)
set -euo pipefail
cd "$(dirname "$0")/../.."
. Benchmarks/scripts/bench_lib.sh
if [ -n "${1:-}" ]; then APM_INSPECT_BIN="$1"; fi
RUNS="${RUNS:-3}"
HAR_MB="${HAR_MB:-100}"
PCAP_CONNECTIONS="${PCAP_CONNECTIONS:-4000}"
bench_python
bench_binary
[ -x /usr/bin/time ] || { echo "GNU time is missing (apt-get install time)"; exit 1; }
HARALYZER=1; "$PY" -c 'import haralyzer' 2>/dev/null || { HARALYZER=0; echo "haralyzer is missing (pip install haralyzer): its row is left out"; }
TSHARK=1; command -v tshark >/dev/null || { TSHARK=0; echo "tshark is missing (apt-get install tshark): its row is left out"; }

DATA="Benchmarks/data/http-$HAR_MB-$PCAP_CONNECTIONS"
mkdir -p "$DATA"
[ -f "$DATA/large.har" ] || "$PY" Benchmarks/scripts/http_generate_har.py --out "$DATA/large.har" --mb "$HAR_MB"
[ -f "$DATA/large.pcap" ] || "$PY" Benchmarks/scripts/http_generate_pcap.py --out "$DATA/large.pcap" --connections "$PCAP_CONNECTIONS"

echo "HAR: $(du -m "$DATA/large.har" | cut -f1) MB; pcap: $(du -m "$DATA/large.pcap" | cut -f1) MB; median of $RUNS runs"
bench_family http:har
bench_input "$DATA/large.har"
load_check begin
measure "apm-inspect http (HAR, text summary)" "$RUNS" -- "$BIN" http "$DATA/large.har"
measure "apm-inspect http --format json (HAR, full model)" "$RUNS" -- "$BIN" http --format json "$DATA/large.har"
[ "$HARALYZER" = 0 ] || measure "haralyzer (HAR, same figures)" "$RUNS" -- "$PY" Benchmarks/scripts/http_haralyzer.py "$DATA/large.har"
load_check end
bench_family http:pcap
bench_input "$DATA/large.pcap"
load_check begin
measure "apm-inspect http (pcap, text summary)" "$RUNS" -- "$BIN" http "$DATA/large.pcap"
measure "apm-inspect http --format json (pcap)" "$RUNS" -- "$BIN" http --format json "$DATA/large.pcap"
[ "$TSHARK" = 0 ] || measure "tshark -z http,tree -z dns,tree -z conv,tcp (pcap)" "$RUNS" -- \
  tshark -r "$DATA/large.pcap" -q -z http,tree -z dns,tree -z conv,tcp
load_check end
