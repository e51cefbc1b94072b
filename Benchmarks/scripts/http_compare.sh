#!/usr/bin/env bash
# Times `apm-inspect http` next to haralyzer (pip) on a generated 100 MB HAR, and next to tshark (apt) on a
# generated large pcap; prints medians of RUNS runs with peak RSS (GNU time). Inputs are generated into a
# temporary folder (deterministic, seed 1) and deleted afterwards.
#
# Usage: Benchmarks/scripts/http_compare.sh [BIN] ; env RUNS (default 3), HAR_MB (100), PCAP_CONNECTIONS (4000)
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN="${1:-$(swift build -c release --show-bin-path)/apm-inspect}"
RUNS="${RUNS:-3}"
HAR_MB="${HAR_MB:-100}"
PCAP_CONNECTIONS="${PCAP_CONNECTIONS:-4000}"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
command -v tshark >/dev/null || { echo "tshark is missing (apt-get install tshark)"; exit 1; }
python3 -c 'import haralyzer' 2>/dev/null || { echo "haralyzer is missing (pip install haralyzer)"; exit 1; }
[ -x /usr/bin/time ] || { echo "GNU time is missing (apt-get install time)"; exit 1; }

python3 Benchmarks/scripts/http_generate_har.py --out "$WORK/large.har" --mb "$HAR_MB"
python3 Benchmarks/scripts/http_generate_pcap.py --out "$WORK/large.pcap" --connections "$PCAP_CONNECTIONS"
HAR_BYTES=$(wc -c < "$WORK/large.har")
PCAP_BYTES=$(wc -c < "$WORK/large.pcap")

# measure NAME INPUT_BYTES COMMAND...: median wall time and peak RSS over RUNS runs.
measure() {
  local name="$1" bytes="$2"; shift 2
  local times=() rss=()
  for _ in $(seq "$RUNS"); do
    /usr/bin/time -f "%e %M" -o "$WORK/time.txt" "$@" > /dev/null 2>"$WORK/err.txt" || { cat "$WORK/err.txt"; exit 1; }
    read -r t m < "$WORK/time.txt"
    times+=("$t"); rss+=("$m")
  done
  python3 - "$name" "$bytes" "${times[*]}" "${rss[*]}" <<'PY'
import statistics, sys
name, size, times, rss = sys.argv[1], int(sys.argv[2]), [float(x) for x in sys.argv[3].split()], [int(x) for x in sys.argv[4].split()]
t = statistics.median(times)
print(f"| {name} | {t:.2f} s | {size / 1048576 / t:.0f} MB/s | {max(rss) / 1024:.0f} MB |")
PY
}

echo "HAR: $(python3 -c "print(round($HAR_BYTES/1048576,1))") MB; pcap: $(python3 -c "print(round($PCAP_BYTES/1048576,1))") MB; median of $RUNS runs"
echo
echo "| tool | time | throughput | peak RSS |"
echo "|---|---|---|---|"
measure "apm-inspect http --format json (HAR, full model)" "$HAR_BYTES" "$BIN" http --format json "$WORK/large.har"
measure "apm-inspect http (HAR, text summary)" "$HAR_BYTES" "$BIN" http "$WORK/large.har"
measure "haralyzer 2.4 (HAR, same figures)" "$HAR_BYTES" python3 Benchmarks/scripts/http_haralyzer.py "$WORK/large.har"
measure "apm-inspect http --format json (pcap)" "$PCAP_BYTES" "$BIN" http --format json "$WORK/large.pcap"
measure "apm-inspect http (pcap, text summary)" "$PCAP_BYTES" "$BIN" http "$WORK/large.pcap"
measure "tshark -z http,tree -z dns,tree -z conv,tcp (pcap)" "$PCAP_BYTES" \
  tshark -r "$WORK/large.pcap" -q -z http,tree -z dns,tree -z conv,tcp
