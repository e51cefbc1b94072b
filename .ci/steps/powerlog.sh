#!/usr/bin/env bash
# Conformance step for PowerLog: the real iOS 15.0.2 database in $SHARED/corpus/powerlog must be read without an
# error, with a time range that makes sense and at least one app with energy; the repository's own corpus must give
# the documented results; --plot must write a valid SVG. Run by .ci/run with BIN (release apm-inspect) and SHARED.
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${BIN:?BIN must be the path of the apm-inspect binary}"
: "${SHARED:?SHARED must be the path of ../shared}"

for tool in python3 sqlite3; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "installing $tool"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$tool"
  fi
done

DIR="$SHARED/corpus/powerlog"
if [ ! -d "$DIR" ]; then
  echo "FAIL: $DIR is missing: the PowerLog conformance corpus must sit beside the checkout"; exit 1
fi
shopt -s nullglob
files=("$DIR"/*.PLSQL "$DIR"/*.PLSQL.gz)
[ "${#files[@]}" -ge 1 ] || { echo "FAIL: no *.PLSQL file in $DIR"; exit 1; }

OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT

for db in "${files[@]}"; do
  echo "-- $db"
  status=0
  "$BIN" energy --format json "$db" > "$OUT/energy.json" 2> "$OUT/energy.err" || status=$?
  [ "$status" -eq 0 ] || { echo "FAIL: energy exited with $status"; cat "$OUT/energy.err"; exit 1; }
  "$BIN" inspect --format json "$db" > "$OUT/inspect.json" || { echo "FAIL: inspect failed"; exit 1; }
  "$BIN" energy "$db" --plot "$OUT/plot.svg" > "$OUT/energy.txt" || { echo "FAIL: energy text/plot failed"; exit 1; }
  python3 - "$OUT" "$db" <<'PY'
import json, sqlite3, sys, datetime
import xml.dom.minidom
out, db = sys.argv[1], sys.argv[2]
doc = json.load(open(out + "/energy.json"))
inspect = json.load(open(out + "/inspect.json"))
errors = [d for d in doc["diagnostics"] if d["severity"] == "error"]
assert not errors, errors
assert inspect["kind"] == "powerLog", inspect["kind"]
report = inspect["report"]
for key in ("device", "osBuild", "timeRange", "tables", "apps"):
    assert key in report, "inspect report lacks " + key
r = doc["report"]
start = datetime.datetime.fromisoformat(r["timeRange"]["start"]["wallClock"])
end = datetime.datetime.fromisoformat(r["timeRange"]["end"]["wallClock"])
assert start < end, (start, end)
assert datetime.datetime(2007, 6, 29, tzinfo=datetime.timezone.utc) < start, start
assert end < datetime.datetime.now(datetime.timezone.utc), end
assert (end - start).days < 400, (start, end)
apps = [a for a in r["apps"] if a["energy"] > 0]
assert apps, "no app with energy"
assert all(0 <= a["share"] <= 1 for a in r["apps"])
# The per-row offset rule: every time is raw + the offset of the TimeOffset row at or before it.
con = sqlite3.connect("file:%s?immutable=1" % db, uri=True) if not db.endswith(".gz") else None
if con is not None:
    offsets = con.execute("SELECT timestamp, system FROM PLStorageOperator_EventForward_TimeOffset "
                          "WHERE timestamp IS NOT NULL AND system IS NOT NULL ORDER BY timestamp").fetchall()
    def offset(raw):
        chosen = offsets[0][1]
        for stamp, system in offsets:
            if stamp <= raw: chosen = system
        return chosen
    for sample in r["battery"]["samples"]:
        at = sample["at"]
        assert abs(at["clockOffset"] - offset(at["raw"])) < 1e-6, at
    total = con.execute("SELECT SUM(Energy) FROM PLAccountingOperator_Aggregate_RootNodeEnergy "
                        "WHERE timeInterval = 3600").fetchone()[0] or 0
    assert abs(r["energy"]["total"] - total) < 1e-6 * max(1, total), (r["energy"]["total"], total)
    runs = con.execute("SELECT COUNT(*) FROM PLAppTimeService_Aggregate_AppRunTime WHERE BundleID IS NOT NULL").fetchone()[0]
    assert sum(a["buckets"] for a in r["appRunTime"]) == runs, ("AppRunTime rows", runs)
    samples = con.execute("SELECT COUNT(*) FROM PLBatteryAgent_EventBackward_Battery").fetchone()[0]
    assert len(r["battery"]["samples"]) == samples, ("battery samples", samples)
    tables = con.execute("SELECT COUNT(*) FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite%'").fetchone()[0]
    assert len(r["tables"]) == tables, (len(r["tables"]), tables)
xml.dom.minidom.parse(out + "/plot.svg")
print("  ok: %s %s, %s -> %s, %d tables, %d consumers with energy (top %s %.1f %%)" % (
    r.get("device"), r.get("osBuild"), start.isoformat(), end.isoformat(), len(r["tables"]), len(apps),
    apps[0]["name"], apps[0]["share"] * 100))
PY
done

echo "-- Corpus/powerlog (the project's generated databases)"
"$BIN" energy --format json Corpus/powerlog/ios15_offset-change_D16AP_19H12.PLSQL > "$OUT/ios15.json"
"$BIN" energy --format json Corpus/powerlog/ios15_offset-change_D16AP_19H12_copy.PLSQL.gz > "$OUT/ios15gz.json"
"$BIN" energy --format json Corpus/powerlog/rotated > "$OUT/rotated.json"
"$BIN" energy --format json Corpus/powerlog/ios8_BLMAppEnergyBreakdown_N51AP_12B411.PLSQL > "$OUT/ios8.json"
python3 - "$OUT" <<'PY'
import json, sys
out = sys.argv[1]
one = json.load(open(out + "/ios15.json"))["report"]
gz = json.load(open(out + "/ios15gz.json"))["report"]
rot = json.load(open(out + "/rotated.json"))["report"]
ios8 = json.load(open(out + "/ios8.json"))["report"]
assert one["timeRange"]["start"]["wallClock"] == "2023-11-04T19:53:20.000-04:00", one["timeRange"]
assert one["timeRange"]["end"]["wallClock"] == "2023-11-05T06:48:20.000-05:00", one["timeRange"]
assert [a["name"] for a in one["apps"]][:2] == ["com.example.maps", "com.example.chat"]
assert one["energy"]["total"] == 8326, one["energy"]["total"]
for key in ("apps", "energy", "battery", "processExits", "timeRange"):
    assert gz[key] == one[key], "gzip copy differs in " + key
    assert rot[key] == one[key], "rotated merge differs in " + key
assert [u["app"] for u in ios8["backgroundLocation"]] == ["com.example.runner"] * 3
assert ios8["energy"]["total"] == 3280
print("  ok: generated corpus gives the documented results (Corpus/powerlog/README.md)")
PY
echo "powerlog conformance passed"
