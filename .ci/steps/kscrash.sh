#!/usr/bin/env bash
# Conformance: every file of ../shared/corpus/kscrash is read as kind kscrash without an error (the INVALID one as a
# partial report with a diagnostic), and its key facts agree with the raw JSON as an independent reading gives them;
# then KSCrash 2.6's hang, watchdog, profile and termination reports (../shared/corpus/kscrash-2.6) are read into
# their own kinds.
set -euo pipefail
: "${BIN:?BIN must name the apm-inspect binary}" "${SHARED:?SHARED must name the shared folder}"
CORPUS="$SHARED/corpus/kscrash"
[ -d "$CORPUS" ] || { echo "FAIL: $CORPUS is missing: the conformance corpus must sit beside the checkout"; exit 1; }
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT
count=0
for file in "$CORPUS"/*.json; do
  status=0
  "$BIN" inspect --format json "$file" > "$OUT/inspect.json" 2> "$OUT/inspect.err" || status=$?
  [ "$status" -le 1 ] || { echo "FAIL: $file exited with $status"; cat "$OUT/inspect.err"; exit 1; }
  python3 - "$file" "$status" "$OUT/inspect.json" <<'PY'
import json, re, sys
path, status, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
name = path.split("/")[-1]
d = json.load(open(out))
assert d["kind"] == "kscrash", f"{name}: kind {d['kind']}"
assert status == 0 and "error" not in d and d["report"] is not None, f"{name}: error {d.get('error')}"
r = d["report"]
raw_text = open(path, encoding="utf-8").read()
if "INVALID" in name:
    # Independent reading: drop the trailing commas Python's json refuses, then compare as for any other file.
    assert r["isPartial"], f"{name}: a repaired report must be partial"
    assert any(x["code"] == "kscrash.lenient-json" for x in d["diagnostics"]), f"{name}: no diagnostic for the repair"
    raw_text = re.sub(r",(\s*[}\]])", r"\1", raw_text)
else:
    errors = [x for x in d["diagnostics"] if x["severity"] == "error"]
    assert not errors, f"{name}: {errors}"
raw = json.loads(raw_text)
if "report" not in raw and "crash" not in raw and "recrash_report" in raw:
    raw = raw["recrash_report"]
crash = raw.get("crash") or {}
error = crash.get("error") or {}
threads = crash.get("threads") or []
images = raw.get("binary_images", crash.get("binary_images")) or []

# Exception type: the Mach name (or the 2012 flat key), else the Mach number's name.
MACH = {1: "EXC_BAD_ACCESS", 2: "EXC_BAD_INSTRUCTION", 3: "EXC_ARITHMETIC", 5: "EXC_SOFTWARE", 6: "EXC_BREAKPOINT",
        10: "EXC_CRASH", 11: "EXC_RESOURCE", 12: "EXC_GUARD"}
SIG = {4: "SIGILL", 5: "SIGTRAP", 6: "SIGABRT", 8: "SIGFPE", 9: "SIGKILL", 10: "SIGBUS", 11: "SIGSEGV", 13: "SIGPIPE",
       15: "SIGTERM"}
mach = error.get("mach") if isinstance(error.get("mach"), dict) else {}
want_type = mach.get("exception_name") or error.get("mach_exception") or MACH.get(mach.get("exception"))
sig = error.get("signal") if isinstance(error.get("signal"), dict) else {}
want_signal = sig.get("name") or error.get("signal_name") or SIG.get(sig.get("signal"))
exc = r.get("exception") or {}
assert exc.get("type") == want_type, f"{name}: exception type {exc.get('type')}, raw {want_type}"
assert exc.get("signal") == want_signal, f"{name}: signal {exc.get('signal')}, raw {want_signal}"

crashed = [k for k, t in enumerate(threads) if isinstance(t, dict) and t.get("crashed") is True]
want_crashed = crashed[0] if crashed else None
assert r.get("crashedThread") == want_crashed, f"{name}: crashed thread {r.get('crashedThread')}, raw {want_crashed}"
assert len(r["threads"]) == len(threads), f"{name}: {len(r['threads'])} threads, raw {len(threads)}"
assert len(r["binaryImages"]) == len(images), f"{name}: {len(r['binaryImages'])} images, raw {len(images)}"
for image, source in zip(r["binaryImages"], images):
    assert int(image["base"], 16) == source["image_addr"], f"{name}: image base {image['base']}"
    if source.get("uuid"):
        assert image["uuid"] == source["uuid"].replace("-", "").lower(), f"{name}: uuid {image['uuid']}"
for thread, source in zip(r["threads"], threads):
    bt = source.get("backtrace")
    frames = bt.get("contents", []) if isinstance(bt, dict) else (bt or [])
    assert len(thread["frames"]) == len(frames), f"{name}: thread {thread['index']} frames"
    for frame, f in zip(thread["frames"], frames):
        assert int(frame["address"], 16) == f["instruction_addr"] % 2**64, f"{name}: frame address {frame['address']}"
if error.get("type") == "nsexception":
    ns = (error.get("nsexception") or {}).get("name") or error.get("nsexception_name")
    assert any(ns in line for line in r.get("applicationSpecificInformation", [])), f"{name}: no {ns} in ASI"
if error.get("type") == "cpp_exception":
    cpp = error["cpp_exception"]["name"]
    assert any(cpp in line for line in r.get("applicationSpecificInformation", [])), f"{name}: no {cpp} in ASI"
report = raw.get("report") or {}
if report.get("id"):
    assert r.get("incidentID") == report["id"], f"{name}: incident {r.get('incidentID')}"
if "recrash_report" in raw and "report" in raw:
    assert any(x["code"] == "kscrash.recrash" for x in d["diagnostics"]), f"{name}: the recrash report is not said"
print(f"  ok {name[:70]:70} {str(exc.get('type') or '-'):20} {str(exc.get('signal') or '-'):8} "
      f"crashed={r.get('crashedThread')} threads={len(r['threads'])} images={len(r['binaryImages'])}")
PY
  # Translate too: the Apple text reads back as a crash report.
  if "$BIN" translate "$file" > "$OUT/translated.crash" 2> "$OUT/translate.err"; then
    back=$("$BIN" inspect --format json "$OUT/translated.crash" | python3 -c 'import json,sys; print(json.load(sys.stdin)["kind"])')
    # A report with no threads, no exception and no process (an SDK's empty mock) has nothing to read back.
    python3 - "$OUT/inspect.json" "$back" "$file" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["report"]
empty = not r["threads"] and not r.get("exception") and not r.get("process")
assert sys.argv[2] == "crashReport" or empty, f"{sys.argv[3]}: the translation was read as {sys.argv[2]}"
PY
  else
    echo "FAIL: translate $file"; cat "$OUT/translate.err"; exit 1
  fi
  count=$((count + 1))
done
[ "$count" -ge 1 ] || { echo "FAIL: no files in $CORPUS"; exit 1; }

# KSCrash's own Apple-format text of some reports sits beside them (*.apple.txt): read by the text parser, it must
# give the facts the JSON reader gives (threads, the crashed thread's frame addresses, image bases, the exception
# and crashed thread). Where the handler crashed, the text's recrash section is read apart from the report
# (`recrashReport`) and must name the exception of the JSON's `recrash_report`.
pairs=0
for text in "$CORPUS"/*.apple.txt; do
  [ -e "$text" ] || continue
  json="${text%.apple.txt}.json"
  [ -e "$json" ] || continue
  "$BIN" inspect --format json "$text" > "$OUT/text.json" || true
  "$BIN" inspect --format json "$json" > "$OUT/json.json" || true
  python3 - "$text" "$OUT/text.json" "$OUT/json.json" "$json" <<'PY'
import json, sys
path = sys.argv[1]
name = path.split("/")[-1]
t = json.load(open(sys.argv[2])); j = json.load(open(sys.argv[3]))
assert t["kind"] == "crashReport" and j["kind"] == "kscrash", f"{name}: kinds {t['kind']} {j['kind']}"
rt, rj = t["report"], j["report"]
assert len(rt["threads"]) == len(rj["threads"]), f"{name}: threads {len(rt['threads'])} vs {len(rj['threads'])}"
crashed = rj["crashedThread"]
frames = lambda r: [f.get("address") for f in r["threads"][crashed]["frames"]]
assert frames(rt) == frames(rj), f"{name}: crashed thread frames differ"
bases = lambda r: sorted(int(i["base"], 16) for i in r["binaryImages"])
assert bases(rt) == bases(rj), f"{name}: image bases differ"
for key in ("type", "signal"):
    assert rt["exception"].get(key) == rj["exception"].get(key), f"{name}: exception {key} differs"
assert rt["crashedThread"] == crashed, f"{name}: crashed thread {rt['crashedThread']} vs {crashed}"
raw = json.load(open(sys.argv[4], encoding="utf-8"))
recrash = raw.get("recrash_report") if "report" in raw else None
if recrash:
    error = (recrash.get("crash") or {}).get("error") or {}
    rr = rt.get("recrashReport") or {}
    assert rr, f"{name}: the recrash section was not read apart"
    assert rr["exception"].get("type") == (error.get("mach") or {}).get("exception_name"), f"{name}: recrash type"
    assert rr["exception"].get("signal") == (error.get("signal") or {}).get("name"), f"{name}: recrash signal"
    assert any(x["code"] == "kscrash.recrash-text" for x in t["diagnostics"]), f"{name}: the recrash is not said"
else:
    assert "recrashReport" not in rt, f"{name}: a recrash report where the JSON has none"
print(f"  ok {name}: agrees with the JSON reader")
PY
  pairs=$((pairs + 1))
done
[ "$pairs" -ge 1 ] || { echo "FAIL: no *.apple.txt pairs in $CORPUS"; exit 1; }
echo "  $count KSCrash reports read and translated"

# KSCrash 2.6's own report kinds (../shared/corpus/kscrash-2.6): not every report is a crash. The hang is a hang,
# the watchdog kill carries code 0x8badf00d, the profile is no crash, the memory termination is an OOM, and the
# invalid SIGTERM report reads leniently with a diagnostic.
CORPUS26="$SHARED/corpus/kscrash-2.6"
[ -d "$CORPUS26" ] || { echo "FAIL: $CORPUS26 is missing: the conformance corpus must sit beside the checkout"; exit 1; }
checked=0
for role in example_Hang example_WatchdogTimeout filters-test_watchdog example_Profile filters-test_oom filters-test_sigterm; do
  file=$(ls "$CORPUS26"/*"$role".json 2>/dev/null | head -n 1)
  [ -n "$file" ] || { echo "FAIL: no *$role.json in $CORPUS26"; exit 1; }
  status=0
  "$BIN" inspect --format json "$file" > "$OUT/k26.json" 2> "$OUT/k26.err" || status=$?
  [ "$status" -le 1 ] || { echo "FAIL: $file exited with $status"; cat "$OUT/k26.err"; exit 1; }
  "$BIN" inspect --format sentry "$file" > "$OUT/k26.sentry" 2> "$OUT/k26.sentry.err" || true
  python3 - "$role" "$file" "$OUT/k26.json" "$OUT/k26.sentry" <<'PY'
import json, sys
role, path, out, sentry = sys.argv[1:5]
name = path.split("/")[-1]
d = json.load(open(out))
assert d["kind"] == "kscrash" and d.get("report") is not None, f"{name}: kind {d['kind']} error {d.get('error')}"
r = d["report"]
events = [json.loads(line) for line in open(sentry, encoding="utf-8") if line.startswith('{"') and '"exception"' in line]
levels = [e.get("level") for e in events]
if role == "example_Hang":
    assert r.get("category") == "hang" and r["isNotACrash"] is True, f"{name}: category {r.get('category')}"
    h = r["hang"]
    assert h["recovered"] is True and 7.9 < h["durationSeconds"] < 8.1, f"{name}: hang {h}"
    assert r["crashedThread"] == 0 and r["threads"][0]["frames"], f"{name}: no main thread stack"
    assert levels == ["error"], f"{name}: Sentry levels {levels}"
elif role in ("example_WatchdogTimeout", "filters-test_watchdog"):
    assert r.get("category") == "watchdogTermination", f"{name}: category {r.get('category')}"
    assert r["watchdog"]["code"] == "0x8badf00d", f"{name}: watchdog {r.get('watchdog')}"
    assert r["hang"]["recovered"] is False, f"{name}: hang {r.get('hang')}"
    assert levels == ["fatal"], f"{name}: Sentry levels {levels}"
elif role == "example_Profile":
    assert r.get("category") == "profile" and r["isNotACrash"] is True, f"{name}: category {r.get('category')}"
    assert len(r["profile"]["samples"]) > 0 and len(r["profile"]["frames"]) > 0, f"{name}: empty profile"
    assert events == [], f"{name}: a profile gave a Sentry event"
elif role == "filters-test_oom":
    assert r.get("category") == "outOfMemory", f"{name}: category {r.get('category')}"
    assert levels == ["fatal"], f"{name}: Sentry levels {levels}"
elif role == "filters-test_sigterm":
    assert r["isPartial"], f"{name}: a repaired report must be partial"
    assert any(x["code"] == "kscrash.lenient-json" for x in d["diagnostics"]), f"{name}: no diagnostic for the repair"
    assert (r.get("exception") or {}).get("signal") == "SIGTERM", f"{name}: exception {r.get('exception')}"
print(f"  ok {name[:64]:64} {r.get('category') or 'crash'}")
PY
  checked=$((checked + 1))
done
# The profile's stacks as folded lines, each ending in a count.
file=$(ls "$CORPUS26"/*example_Profile.json | head -n 1)
"$BIN" inspect --format folded "$file" > "$OUT/k26.folded"
python3 - "$OUT/k26.folded" <<'PY'
import sys
lines = open(sys.argv[1], encoding="utf-8").read().splitlines()
assert lines, "no folded stacks for the profile"
for line in lines:
    stack, count = line.rsplit(" ", 1)
    assert stack.startswith("profile@startup;") and int(count) > 0, line
print(f"  ok profile: {len(lines)} folded stack(s)")
PY
echo "  $checked KSCrash 2.6 reports read into their kinds"
