#!/usr/bin/env bash
# The Ray recipe (docs/scale-out.md): Scripts/spark/ray_job.py on a local Ray (ray.init(num_cpus=2)) over a generated
# MIXED set of reports must give the same `apm-inspect report --format json` as `report` over the files, every
# section (Scripts/spark/compare_reports.py). Installs ray[data] with pip when no Python has it, and fails if it cannot.
set -euo pipefail
: "${BIN:?BIN must name the apm-inspect binary}"
COUNT="${RAY_REPORTS:-1500}"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/apm-inspect-ray.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT

# Ray's wheels are built for CPython 3.9 to 3.13: the pyenv 3.11 when the machine has it, else python3. ray[default]
# too: with aiohttp present (another package's), Ray starts its full dashboard agent, which needs OpenTelemetry.
RAY_MODULES='import ray, ray.data, pyarrow, opentelemetry.sdk.metrics, opentelemetry.exporter.prometheus'
PY=""
for candidate in "${RAY_PYTHON:-}" /root/.pyenv/versions/3.11.7/bin/python3 python3; do
  [ -n "$candidate" ] || continue
  if "$candidate" -c "$RAY_MODULES" 2>/dev/null; then PY="$candidate"; break; fi
done
if [ -z "$PY" ]; then
  for candidate in "${RAY_PYTHON:-}" /root/.pyenv/versions/3.11.7/bin/python3 python3; do
    [ -n "$candidate" ] && command -v "$candidate" >/dev/null 2>&1 && { PY="$candidate"; break; }
  done
  echo "  installing ray[data,default] for $PY"
  "$PY" -m pip install --quiet 'ray[data,default]' \
    || "$PY" -m pip install --quiet --break-system-packages 'ray[data,default]' || true
  "$PY" -c "$RAY_MODULES" || { echo "FAIL: ray[data,default] cannot be installed: the Ray recipe is unchecked"; exit 1; }
fi
export SOURCE_DATE_EPOCH=1717200000
# Ray would otherwise write its session logs under /tmp/ray; keep them in the step's folder.
export RAY_TMPDIR="$WORK/ray"

python3 Scripts/spark/generate_reports.py "$WORK/reports" --count "$COUNT" --seed 13 --mixed 0.4
"$BIN" report --format json -o "$WORK/report.json" "$WORK/reports" || true
start=$(date +%s)
status=0
"$PY" Scripts/spark/ray_job.py --bin "$BIN" --input "$WORK/reports" --output "$WORK/ray.json" --num-cpus 2 \
  || status=$?
echo "  ray recipe: $(( $(date +%s) - start )) s for $COUNT reports, Ray's start included (exit status $status)"
[ -s "$WORK/ray.json" ] || { echo "FAIL: the Ray recipe wrote no report"; exit 1; }

python3 Scripts/spark/compare_reports.py "$WORK/report.json" "$WORK/ray.json" --direct-root "$WORK/reports" \
  --require crashes.groups crashes.perDay watchdog.rows oom.byDevice oom.memoryLimits oom.byVersionAndDevice \
            oom.metricKitByVersion hangs resourceKills.groups metricKit metricKitFleet categories inputs.skipped
