#!/usr/bin/env bash
# The library entry point's DocC documentation builds without a warning (a broken symbol link fails it) and holds
# a page for the inspector, the envelope and every standard family.
set -euo pipefail
if ! command -v swift >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swift ]; then export PATH="/opt/swift/usr/bin:$PATH"; fi
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT
swift package --disable-sandbox generate-documentation --target ReportInspection --warnings-as-errors \
  --output-path "$OUT/ReportInspection.doccarchive" > "$OUT/log" 2>&1 || { cat "$OUT/log"; echo "docc: ReportInspection documentation failed"; exit 1; }
pages="$OUT/ReportInspection.doccarchive/data/documentation/reportinspection"
count=0
for page in reportinspector inspection reportfamily inspectioninput httpcapturefamily metrickitfamily powerlogfamily \
  kscrashfamily jetsamfamily crashreportfamily ipssummaryfamily; do
  [ -s "$pages/$page.json" ] || { echo "docc: no page for $page"; exit 1; }
  count=$((count + 1))
done
python3 - "$pages/reportinspector.json" <<'PY'
import json, sys
page = json.load(open(sys.argv[1]))
text = json.dumps(page)
for needle in ["inspect(path:)", "inspect(bytes:path:)", "standardFamilies"]:
    assert needle in text, f"ReportInspector's page lacks {needle}"
PY
echo "docc: ReportInspection documentation built with no warning; $count pages checked"
