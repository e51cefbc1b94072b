#!/usr/bin/env bash
# The Spark recipe (docs/scale-out.md): Scripts/spark/fleet_job.py in Spark local mode on two cores over a generated
# MIXED set of reports (crashes, KSCrash, watchdog, JetsamEvent, MetricKit, 202/206 resource reports, files the
# report skips) must give the same `apm-inspect report --format json` as `report` over the files: the whole JSON,
# every section, compared by Scripts/spark/compare_reports.py (which says what it adjusts and why).
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
  python3 -m pip install --quiet pyspark || python3 -m pip install --quiet --break-system-packages pyspark || true
  PY=python3
  "$PY" -c 'import pyspark' || { echo "FAIL: pyspark cannot be installed: the Spark recipe is unchecked"; exit 1; }
fi
command -v java >/dev/null 2>&1 || { echo "FAIL: Spark needs Java (17): apt-get install openjdk-17-jre-headless"; exit 1; }
export PYSPARK_PYTHON="$PY" PYSPARK_DRIVER_PYTHON="$PY"
# Both reports are made at the same second, so generatedAt is compared like every other key.
export SOURCE_DATE_EPOCH=1717200000

python3 Scripts/spark/generate_reports.py "$WORK/reports" --count "$COUNT" --seed 11 --mixed 0.4
"$BIN" report --format json -o "$WORK/report.json" "$WORK/reports" || true
start=$(date +%s)
status=0
"$PY" Scripts/spark/fleet_job.py --bin "$BIN" --input "$WORK/reports" --output "$WORK/spark.json" --master 'local[2]' \
  || status=$?
echo "  spark recipe: $(( $(date +%s) - start )) s for $COUNT reports (exit status $status)"
[ -s "$WORK/spark.json" ] || { echo "FAIL: the Spark recipe wrote no report"; exit 1; }

python3 Scripts/spark/compare_reports.py "$WORK/report.json" "$WORK/spark.json" --direct-root "$WORK/reports" \
  --require crashes.groups crashes.perDay watchdog.rows oom.byDevice oom.memoryLimits oom.byVersionAndDevice \
            oom.metricKitByVersion hangs resourceKills.groups metricKit metricKitFleet categories inputs.skipped

# The documented engine-free line (docs/scale-out.md): a tar stream into `scan -`, its NDJSON into `report`.
tar -cf - -C "$WORK/reports" $(cd "$WORK/reports" && ls) | "$BIN" scan --format ndjson - > "$WORK/tar.ndjson" || true
"$BIN" report --format json -o "$WORK/tar.json" "$WORK/tar.ndjson" || true
python3 Scripts/spark/compare_reports.py "$WORK/report.json" "$WORK/tar.json" --direct-root "$WORK/reports"
