#!/usr/bin/env bash
# The scale-out recipe (docs/scale-out.md): Scripts/spark/fleet_job.py in Spark local mode on two cores over a
# generated set of reports must give the crash groups `apm-inspect report --format json` gives.
set -euo pipefail
: "${BIN:?BIN must name the apm-inspect binary}"
COUNT="${SPARK_REPORTS:-3000}"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/apm-inspect-spark.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT

# A Python with pyspark: $PYSPARK_PYTHON, the pyenv one the machine has, or python3 after `pip install pyspark`.
PY=""
for candidate in "${PYSPARK_PYTHON:-}" /root/.pyenv/versions/3.11.7/bin/python3 python3; do
  [ -n "$candidate" ] || continue
  if "$candidate" -c 'import pyspark' 2>/dev/null; then PY="$candidate"; break; fi
done
if [ -z "$PY" ]; then
  echo "  installing pyspark"
  python3 -m pip install --quiet pyspark || python3 -m pip install --quiet --break-system-packages pyspark
  PY=python3
fi
command -v java >/dev/null 2>&1 || { echo "FAIL: Spark needs Java (17): apt-get install openjdk-17-jre-headless"; exit 1; }
export PYSPARK_PYTHON="$PY" PYSPARK_DRIVER_PYTHON="$PY"

python3 Scripts/spark/generate_reports.py "$WORK/reports" --count "$COUNT" --seed 11
"$BIN" report --format json "$WORK/reports" > "$WORK/report.json"
start=$(date +%s)
"$PY" Scripts/spark/fleet_job.py --bin "$BIN" --input "$WORK/reports" --output "$WORK/spark.json" --master 'local[2]'
echo "  spark job: $(( $(date +%s) - start )) s for $COUNT reports"

python3 - "$WORK/report.json" "$WORK/spark.json" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))["crashes"]
spark = json.load(open(sys.argv[2]))
keys = ["signature", "count", "firstSeen", "lastSeen", "undated", "process", "exception", "topFrame",
        "representativeFile", "appVersions", "osVersions", "devices", "sources", "newInNewestVersion"]
assert spark["total"] == report["total"] > 0, (spark["total"], report["total"])
assert len(spark["groups"]) == len(report["groups"]) == report["signatures"], (len(spark["groups"]), report["signatures"])
for ours, theirs in zip(report["groups"], spark["groups"]):
    for key in keys:
        assert ours[key] == theirs[key], (ours["signature"], key, ours[key], theirs[key])
    assert abs(ours["share"] - theirs["share"]) < 1e-9, (ours["signature"], ours["share"], theirs["share"])
assert spark["newestVersion"] == report["newestVersion"], (spark["newestVersion"], report["newestVersion"])
assert spark["newInNewestVersion"] == report["newInNewestVersion"] and report["newInNewestVersion"], report["newInNewestVersion"]
assert spark["perDay"] == report["perDay"], "per-day series differ"
sources = {s for g in report["groups"] for s in g["sources"]}
assert sources == {"crashReport", "kscrash"}, sources
print(f"  ok spark groups equal report's: {report['total']} crashes, {report['signatures']} signatures, "
      f"new in {report['newestVersion']}: {len(report['newInNewestVersion'])}")
PY
