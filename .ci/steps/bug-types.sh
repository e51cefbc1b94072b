#!/usr/bin/env bash
# The bug_type table (Sources/APMInspectCore/IPS/BugType+Table.swift) is generated from Apple's OSAnalytics log-type
# table as ipsw keeps it ($SHARED/corpus/ips-2026/ipsw-log_type.json): regenerate it into a scratch copy and diff it
# against the committed file, so a hand edit or a refreshed table that was not regenerated fails here.
set -euo pipefail
: "${SHARED:?SHARED must name the shared folder}"
TABLE="$SHARED/corpus/ips-2026/ipsw-log_type.json"
[ -f "$TABLE" ] || { echo "FAIL: $TABLE is missing: the conformance corpus must sit beside the checkout"; exit 1; }
python3 Scripts/generate-bug-types.py "$TABLE" --check
# The table's own count of enabled, non-testing types is what the generated file says it holds.
python3 - "$TABLE" <<'PY'
import json, re, sys
types = json.load(open(sys.argv[1], encoding="utf-8"))["log_types"]
enabled = sorted(c for c, e in types.items() if not re.match(r"^T\d+$", c) and not e.get("disabled"))
swift = open("Sources/APMInspectCore/IPS/BugType+Table.swift", encoding="utf-8").read()
rows = re.findall(r'^\s+\("([^"]+)", "([^"]+)", (true|false), \.(\w+)\),$', swift, re.M)
got = sorted(code for code, _, flag, _ in rows if flag == "true")
assert got == enabled, f"enabled codes differ: {sorted(set(got) ^ set(enabled))}"
for code, name, _, _ in rows:
    assert types[code]["name"] == name, f"{code}: {name} against {types[code]['name']}"
print(f"  bug_type table: {len(rows)} types, {len(got)} enabled, names as in the table")
PY
