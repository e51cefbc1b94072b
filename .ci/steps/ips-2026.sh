#!/usr/bin/env bash
# Conformance over $SHARED/corpus/ips-2026 (real reports of 2025–2026 kept by ipsw's tests): each file's kind and
# key facts as an independent reading of the raw file gives them. Both 409 shapes are system watchdogs with the watched
# process found; the 145 report's resource, limit and observed figures match its text; the iOS 27 JetsamEvent is
# still a jetsamEvent.
set -euo pipefail
: "${BIN:?BIN must name the apm-inspect binary}" "${SHARED:?SHARED must name the shared folder}"
CORPUS="$SHARED/corpus/ips-2026"
[ -d "$CORPUS" ] || { echo "FAIL: $CORPUS is missing: the conformance corpus must sit beside the checkout"; exit 1; }
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT
count=0
for file in "$CORPUS"/*.ips; do
  status=0
  "$BIN" inspect --format json "$file" > "$OUT/inspect.json" 2> "$OUT/inspect.err" || status=$?
  [ "$status" -eq 0 ] || { echo "FAIL: $file exited with $status"; cat "$OUT/inspect.err"; exit 1; }
  python3 - "$file" "$OUT/inspect.json" <<'PY'
import json, re, sys
path, out = sys.argv[1], sys.argv[2]
name = path.split("/")[-1]
d = json.load(open(out))
r = d["report"]
lines = open(path, encoding="utf-8").read().split("\n", 1)
header = json.loads(lines[0])
assert "error" not in d and r is not None, f"{name}: {d.get('error')}"
assert r["header"]["bugType"] == header["bug_type"], name
bug = header["bug_type"]
if bug == "409":
    body = json.loads(lines[1])
    assert d["kind"] == "systemWatchdog", f"{name}: kind {d['kind']}"
    assert r["isNotACrash"] is True and r["bugTypeName"] == "SystemWatchdogCrash", name
    assert r.get("pid") == body["pid"], f"{name}: pid {r.get('pid')}"
    assert r.get("build") == body.get("build"), f"{name}: build {r.get('build')}"
    assert r["termination"]["namespace"] == body["termination"]["namespace"], name
    table = body["stackshot"]["processByPid"]
    assert len(r["processes"]) == len(table), f"{name}: {len(r['processes'])} processes"
    threads = sum(len(p["threadById"]) for p in table.values())
    frames = sum(len(t["userFrames"]) for p in table.values() for t in p["threadById"].values())
    assert (r["threadCount"], r["frameCount"]) == (threads, frames), f"{name}: {r['threadCount']}, {r['frameCount']}"
    watched = [p for p in r["processes"] if p["isWatchedProcess"]]
    assert len(watched) == 1 and watched[0]["name"] == body["procName"], f"{name}: watched {watched}"
    got = watched[0]["threads"][0]["frames"][0]
    want = sorted(table[str(watched[0]["pid"])]["threadById"].values(), key=lambda t: t["id"])[0]["userFrames"][0]
    assert [got["imageIndex"], got["imageOffset"]] == want, f"{name}: frame {got}"
elif bug == "145":
    body = lines[1]
    field = lambda key: re.search(rf"^{key}:\s+(.+)$", body, re.M).group(1).strip()
    assert d["kind"] == "resourceReport", f"{name}: kind {d['kind']}"
    assert r["resource"] == "diskWrites" and r["isFatal"] is False and r["category"] == "resourceWarning", name
    assert r["bugTypeName"] == "SymptomsIO", name
    assert r["limit"]["text"] == field("Writes limit"), f"{name}: limit {r['limit']}"
    assert r["limitDurationSeconds"] == float(field("Limit duration").rstrip("s")), name
    observed = re.match(r"([\d.]+) (\w+) .*? over (\d+) seconds", field("Writes"))
    assert r["observed"]["value"] == float(observed.group(1)) and r["observed"]["unit"] == observed.group(2), name
    assert r["observedDurationSeconds"] == float(observed.group(3)), name
    frames = re.findall(r"^\s+(\d+)\s+\S+ \((.+) \+ (\d+)\)", body.split("Heaviest stack")[1].split("\n\n")[0], re.M)
    got = [(f["sampleCount"], f["image"], f["imageOffset"]) for f in r["heaviestStack"]]
    assert got == [(int(c), i, int(o)) for c, i, o in frames], f"{name}: stack {got}"
elif bug == "298":
    assert d["kind"] == "jetsamEvent", f"{name}: kind {d['kind']}"
else:
    raise AssertionError(f"{name}: bug_type {bug} has no check here")
print(f"  {d['kind']:<15} {name}")
PY
  count=$((count + 1))
done
[ "$count" -ge 4 ] || { echo "FAIL: only $count files in $CORPUS"; exit 1; }
