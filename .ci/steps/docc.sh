#!/usr/bin/env bash
# DocC for every library product builds without a warning (a broken symbol link fails it), and the entry point's
# archive holds a page for the inspector, the envelope and every standard family.
set -euo pipefail
if ! command -v swift >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swift ]; then export PATH="/opt/swift/usr/bin:$PATH"; fi
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT
LIBRARIES=(APMInspectCore AppleDeviceCatalog JetsamParsing CrashReportParsing WatchdogAnalysis PowerLogReading
  HTTPCaptureParsing InputMutation MetricKitParsing Symbolication BackendExport FleetReport ReportInspection)
targets=()
for library in "${LIBRARIES[@]}"; do targets+=(--target "$library"); done
swift package --disable-sandbox generate-documentation "${targets[@]}" --warnings-as-errors \
  --output-path "$OUT/archives" > "$OUT/log" 2>&1 || { cat "$OUT/log"; echo "docc: documentation failed"; exit 1; }
for library in "${LIBRARIES[@]}"; do
  [ -d "$OUT/archives/$library.doccarchive" ] || { echo "docc: no archive for $library"; exit 1; }
done
pages="$OUT/archives/ReportInspection.doccarchive/data/documentation/reportinspection"
count=0
for page in reportinspector inspection reportfamily inspectioninput httpcapturefamily metrickitfamily powerlogfamily \
  kscrashfamily jetsamfamily crashreportfamily ipssummaryfamily; do
  [ -s "$pages/$page.json" ] || { echo "docc: no page for $page"; exit 1; }
  count=$((count + 1))
done
python3 - "$pages/reportinspector.json" <<'PY'
import json, sys
text = json.dumps(json.load(open(sys.argv[1])))
for needle in ["inspect(path:)", "inspect(bytes:path:)", "standardFamilies"]:
    assert needle in text, f"ReportInspector's page lacks {needle}"
PY
echo "docc: ${#LIBRARIES[@]} library archives built with no warning; ReportInspection: $count pages checked"
