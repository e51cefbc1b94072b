#!/usr/bin/env bash
# Translation conformance: `translate` matches Apple's own rendering byte for byte on the two Apple-rendered pairs
# of ../shared/corpus/crash, and every 309 .ips there survives the round trip translate → inspect of the text.
set -euo pipefail
: "${BIN:?BIN must name the apm-inspect binary}" "${SHARED:?SHARED must name the shared folder}"
CORPUS="$SHARED/corpus/crash"
[ -d "$CORPUS" ] || { echo "FAIL: $CORPUS is missing: the conformance corpus must sit beside the checkout"; exit 1; }
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

echo "== translate: byte identity with Apple's translation"
pairs=(
  "ms_ios15.5_swift_assert_exc_breakpoint_309.ips:ms_ios15.5_swift_assert_exc_breakpoint_translated.crash"
  "ms_macos12.4_x86_64_sigill_309.ips:ms_macos12.4_x86_64_sigill_translated.crash"
)
for pair in "${pairs[@]}"; do
  ips="$CORPUS/${pair%%:*}" apple="$CORPUS/${pair##*:}"
  [ -f "$ips" ] && [ -f "$apple" ] || { echo "FAIL: missing pair $ips / $apple"; exit 1; }
  "$BIN" translate "$ips" > "$WORK/ours.crash"
  if ! cmp "$WORK/ours.crash" "$apple"; then
    echo "FAIL: $(basename "$ips") differs from Apple's $(basename "$apple"):"
    diff "$WORK/ours.crash" "$apple" | head -40 || true
    exit 1
  fi
  echo "  identical  $(basename "$apple")"
done

echo "== translate: round trip of every 309 .ips (translate, then inspect the text)"
count=0
for ips in "$CORPUS"/*.ips; do
  bug=$(head -c 4096 "$ips" | python3 -c 'import json,sys
line = sys.stdin.read().split("\n", 1)[0]
try: print(json.loads(line).get("bug_type", ""))
except Exception: print("")')
  [ "$bug" = "309" ] || continue
  "$BIN" translate "$ips" > "$WORK/text.crash"
  "$BIN" inspect --format json "$ips" > "$WORK/json.json"
  "$BIN" inspect --format json "$WORK/text.crash" > "$WORK/text.json"
  python3 - "$ips" "$WORK/json.json" "$WORK/text.json" <<'PY'
import json, sys
path, json_path, text_path = sys.argv[1:4]
a, b = json.load(open(json_path)), json.load(open(text_path))
assert b["kind"] == "crashReport", f"{path}: the translated text was read as {b['kind']}"
ra, rb = a["report"], b["report"]
def exc(r): return (r.get("exception") or {}).get("type")
# Apple lists the absolute placeholder image (source A, base 0, size 0) as `0x0 - 0xffffffffffffffff ???`:
# it is in the text but is no image of the report's own.
def own(i): return not (i.get("base") == "0x0" and i.get("end") in (None, "0xffffffffffffffff"))
checks = {
    "process": (ra.get("process"), rb.get("process")),
    "pid": (ra.get("pid"), rb.get("pid")),
    "exception type": (exc(ra), exc(rb)),
    "crashed thread": (ra.get("crashedThread"), rb.get("crashedThread")),
    "thread count": (len(ra.get("threads", [])), len(rb.get("threads", []))),
    "frame counts": ([len(t.get("frames", [])) for t in ra.get("threads", [])],
                     [len(t.get("frames", [])) for t in rb.get("threads", [])]),
    "image count": (len([i for i in ra.get("binaryImages", []) if i.get("source") != "A"]),
                    len([i for i in rb.get("binaryImages", []) if own(i)])),
    "frame addresses": ([[f.get("address") for f in t.get("frames", [])] for t in ra.get("threads", [])],
                        [[f.get("address") for f in t.get("frames", [])] for t in rb.get("threads", [])]),
    "frame symbols": ([[(f.get("symbol"), f.get("symbolOffset")) for f in t.get("frames", [])]
                       for t in ra.get("threads", [])],
                      [[(f.get("symbol"), f.get("symbolOffset")) for f in t.get("frames", [])]
                       for t in rb.get("threads", [])]),
    "images": ([(i.get("base"), i.get("end"), i.get("uuid")) for i in ra.get("binaryImages", [])
                if i.get("source") != "A"],
               [(i.get("base"), i.get("end"), i.get("uuid")) for i in rb.get("binaryImages", []) if own(i)]),
}
bad = {k: v for k, v in checks.items() if v[0] != v[1]}
assert not bad, f"{path}: round trip differs: {bad}"
errors = [d for d in b["diagnostics"] if d["severity"] == "error"]
assert not errors, f"{path}: the translated text has errors: {errors}"
print(f"  ok  {ra.get('process') or '-':28} threads={checks['thread count'][0]:<3} {path.split('/')[-1]}")
PY
  count=$((count + 1))
done
[ "$count" -ge 2 ] || { echo "FAIL: expected at least the two Apple pairs among the 309 files, found $count"; exit 1; }
