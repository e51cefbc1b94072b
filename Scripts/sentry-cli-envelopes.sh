#!/usr/bin/env bash
# Every envelope `scan --format sentry-envelope` writes from Corpus/ and $SHARED/corpus, sent with sentry-cli's own
# `send-envelope` (without --raw, so sentry-cli parses each one with its event model first) to a local endpoint that
# records them (Scripts/sentry-envelope-sink.py). Fails unless sentry-cli accepts every envelope, every one arrives,
# and each arrives with the fields we wrote. Installs sentry-cli with pip when it is missing.
#   BIN=.build/debug/apm-inspect SHARED=../shared bash Scripts/sentry-cli-envelopes.sh
set -euo pipefail
cd "$(dirname "$0")/.."
: "${BIN:?BIN must name the apm-inspect binary}" "${SHARED:?SHARED must name the shared folder}"
PY="${PYTHON:-python3}"
[ -d "$SHARED/corpus" ] || { echo "FAIL: $SHARED/corpus is missing"; exit 1; }
if ! command -v sentry-cli >/dev/null 2>&1; then
  "$PY" -m pip install -q sentry-cli
fi
command -v sentry-cli >/dev/null 2>&1 || { echo "FAIL: sentry-cli is needed (pip install sentry-cli)"; exit 1; }
echo "  $(sentry-cli --version)"

OUT="$(mktemp -d)"
SINK_PID=""
cleanup() {
  if [ -n "$SINK_PID" ]; then kill "$SINK_PID" 2>/dev/null || true; fi
  rm -rf "$OUT"
}
trap cleanup EXIT
mkdir "$OUT/envelopes" "$OUT/received"
# Exit status 1 is allowed: a few corpus files are damaged on purpose; their readable events still count.
"$BIN" scan --format sentry-envelope -o "$OUT/envelopes" Corpus "$SHARED/corpus" > /dev/null 2> "$OUT/scan.err" \
  || [ $? -le 1 ] || { echo "FAIL: scan died"; cat "$OUT/scan.err"; exit 1; }
sent=$(find "$OUT/envelopes" -name '*.envelope' | wc -l)
[ "$sent" -ge 30 ] || { echo "FAIL: only $sent envelopes from the corpus"; exit 1; }

"$PY" Scripts/sentry-envelope-sink.py serve "$OUT/received" "$OUT/port" &
SINK_PID=$!
for _ in $(seq 1 100); do [ -s "$OUT/port" ] && break; sleep 0.1; done
[ -s "$OUT/port" ] || { echo "FAIL: the envelope sink did not start"; exit 1; }
PORT="$(cat "$OUT/port")"

# No update check, no config file of the machine: only the DSN of the local endpoint.
export SENTRY_DSN="http://key@127.0.0.1:$PORT/1" SENTRY_DISABLE_UPDATE_CHECK=1 SENTRY_LOAD_DOTENV=0
export SENTRY_LOG_LEVEL=warn
refused=0
for file in "$OUT"/envelopes/*.envelope; do
  if ! sentry-cli send-envelope "$file" > "$OUT/cli.log" 2>&1 || grep -qiE "error|warn" "$OUT/cli.log"; then
    refused=$((refused + 1))
    [ "$refused" -le 5 ] && { echo "FAIL: sentry-cli refused $(basename "$file"):"; sed 's/^/    /' "$OUT/cli.log"; }
  fi
done
echo "  sentry-cli send-envelope accepted $((sent - refused)) of $sent envelopes"
[ "$refused" -eq 0 ] || { echo "FAIL: sentry-cli refused $refused of $sent envelopes"; exit 1; }
"$PY" Scripts/sentry-envelope-sink.py compare "$OUT/envelopes" "$OUT/received"
