#!/usr/bin/env bash
# scan: a generated sysdiagnose archive, hostile archives, and every file of Corpus/ and ../shared/corpus.
set -euo pipefail
: "${BIN:?BIN must name the apm-inspect binary}" "${SHARED:?SHARED must name the shared folder}"
[ -d "$SHARED/corpus" ] || { echo "FAIL: $SHARED/corpus is missing"; exit 1; }
TMPBASE="${TMPDIR:-/tmp}"
before=$( (ls -d "$TMPBASE"/apm-inspect-* 2>/dev/null || true) | wc -l)

archive=Corpus/sysdiagnose/sysdiagnose_2024.03.01_10-20-30-0800_iPhone-OS_iPhone_21D61.tar.gz
"$BIN" scan --format json "$archive" > /tmp/apm-scan.json
python3 - <<'PY'
import json
d = json.load(open("/tmp/apm-scan.json"))
kinds = d["inventory"]["kinds"]
assert kinds.get("crashReport") == 3 and kinds.get("jetsamEvent") == 2 and kinds.get("watchdogTermination") == 1, kinds
assert kinds.get("powerLog") == 1, kinds
facts = {f["file"].split("/")[-1]: f.get("source") for f in d["files"]}
assert all(s and s["productType"] == "iPhone15,3" and s["osBuild"] == "21D61" for s in facts.values()), facts
groups = d["inventory"]["crashGroups"]
assert groups[0]["count"] == 2 and groups[0]["process"] == "Lumen", groups
rows = {r["product"]: r for r in d["inventory"]["memoryLimits"]}
assert rows["iPhone8,2"]["foregroundLimitMB"]["min"] == 1450, rows
print(f"  ok sysdiagnose: {kinds}")
PY

for hostile in Corpus/sysdiagnose/hostile/*; do
  status=0
  "$BIN" scan --wide "$hostile" > /tmp/apm-scan.txt 2>&1 || status=$?
  [ "$status" -le 1 ] || { echo "FAIL: scan $hostile exited with $status"; cat /tmp/apm-scan.txt; exit 1; }
  case "$hostile" in
    *traversal*) grep -q "climbs out of the archive" /tmp/apm-scan.txt ;;
    *links*) [ "$(grep -c "not followed" /tmp/apm-scan.txt)" -eq 2 ] ;;
    *bomb*) grep -q "over the 268435456-byte limit; skipped" /tmp/apm-scan.txt ;;
    *truncated*) grep -q "the archive is truncated" /tmp/apm-scan.txt ;;
  esac || { echo "FAIL: $hostile: the expected finding is missing"; cat /tmp/apm-scan.txt; exit 1; }
  echo "  ok hostile $(basename "$hostile")"
done

# Ctrl-C in the middle of a scan leaves no temporary folder behind.
"$BIN" scan Corpus/sysdiagnose/hostile/bomb.tar.gz Corpus/sysdiagnose > /dev/null 2>&1 &
pid=$!
sleep 0.3
kill -INT "$pid" 2>/dev/null || true
status=0
wait "$pid" || status=$?
[ "$status" -eq 130 ] || [ "$status" -eq 0 ] || { echo "FAIL: interrupted scan exited with $status"; exit 1; }

# Every file of both corpora: never a death by signal.
for root in Corpus "$SHARED/corpus"; do
  status=0
  "$BIN" scan --format ndjson "$root" > /tmp/apm-scan.ndjson 2> /tmp/apm-scan.err || status=$?
  [ "$status" -le 1 ] || { echo "FAIL: scan $root exited with $status"; tail -5 /tmp/apm-scan.err; exit 1; }
  python3 -c 'import json,sys; [json.loads(l) for l in open("/tmp/apm-scan.ndjson")]' \
    || { echo "FAIL: scan $root printed invalid NDJSON"; exit 1; }
  echo "  ok scan $root: $(wc -l < /tmp/apm-scan.ndjson) envelopes, exit $status"
done
after=$( (ls -d "$TMPBASE"/apm-inspect-* 2>/dev/null || true) | wc -l)
[ "$after" -le "$before" ] || { echo "FAIL: scan left temporary folders in $TMPBASE"; exit 1; }
