#!/usr/bin/env bash
# Output robustness (issue 15): every failure the audit listed, on inputs generated here from Corpus/ files.
# Numbers beyond any integer, far-out times, non-finite JSON values, full disks, and file names and database
# schemas that carry terminal escapes. The command must never die on a signal, must say when output was lost,
# and must never let a byte of the input drive the terminal.
set -euo pipefail
: "${BIN:?BIN must name the apm-inspect binary}"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
ESC=$'\e'
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# Runs the command, keeping stdout and stderr in $WORK/out and $WORK/err and the status in $status.
run() {
  status=0
  "$@" > "$WORK/out" 2> "$WORK/err" || status=$?
  if [ "$status" -gt 128 ]; then fail "$* died with signal $((status - 128))"; head -5 "$WORK/err"; fi
}
expect_status() { [ "$status" -eq "$1" ] || { fail "$2: exit $status, expected $1"; head -5 "$WORK/err"; }; }
no_escape_in() { ! grep -q "$ESC" "$1" || fail "$2: an ESC byte reached the terminal"; }

echo "== numbers of 2^63 and more in a watchdog report (trapped in the diagnosis and the renderer)"
mkdir -p "$WORK/scan"
sed -e 's/after 19.81s/after 9223372036854775807s/' \
  -e 's/Elapsed application CPU time (seconds): 6.870/Elapsed application CPU time (seconds): 18446744073709551616/' \
  Corpus/watchdog/ios8.4_text_00000020_8badf00d_scene-create_legacy.crash > "$WORK/scan/huge-elapsed.crash"
sed -e 's/allowance of 19.97 seconds/allowance of 9223372036854775807 seconds/' \
  -e 's/Elapsed application CPU time (seconds): 0.104/Elapsed application CPU time (seconds): 18446744073709551616/' \
  Corpus/watchdog/ios13.6_text_springboard_scene-create_8badf00d_semaphore.crash > "$WORK/scan/huge-allowance.crash"
grep -q 9223372036854775807s "$WORK/scan/huge-elapsed.crash" || fail "the elapsed time was not replaced"
grep -q 'allowance of 9223372036854775807' "$WORK/scan/huge-allowance.crash" || fail "the allowance was not replaced"
cp Corpus/crash/ios14.4_text_exc_bad_access_sigsegv_kern_invalid_address.crash "$WORK/scan/ordinary.crash"
for file in "$WORK"/scan/huge-*.crash; do
  run "$BIN" inspect "$file"
  expect_status 0 "inspect $(basename "$file")"
  grep -q "Main thread:" "$WORK/out" || fail "inspect $(basename "$file"): no main-thread diagnosis"
  run "$BIN" inspect --format json "$file"
  expect_status 0 "inspect --format json $(basename "$file")"
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["kind"] == "watchdogTermination", d["kind"]' \
    "$WORK/out" || fail "inspect --format json $(basename "$file"): not a watchdog envelope"
done
run "$BIN" scan --format ndjson "$WORK/scan"
expect_status 0 "scan --format ndjson of the huge-number reports"
[ "$(wc -l < "$WORK/out")" -eq 3 ] || fail "scan --format ndjson: $(wc -l < "$WORK/out") envelopes, expected 3"
run "$BIN" scan "$WORK/scan"
expect_status 0 "scan (text) of the huge-number reports"
echo "  ok"

echo "== a Charles time far out of range (trapped in the waterfall: a range whose lower bound passed its upper)"
sed 's/"requestBegin": "2024-03-01T18:00:00.095+08:00"/"requestBegin": "2024-03-01T18:00:-2147483649+08:00"/' \
  Corpus/http/charles_session.chlsj > "$WORK/far-time.chlsj"
grep -q -- '-2147483649' "$WORK/far-time.chlsj" || fail "the requestBegin was not replaced"
for command in http inspect; do
  run "$BIN" "$command" "$WORK/far-time.chlsj"
  expect_status 0 "$command far-time.chlsj"
  grep -q "Slowest requests" "$WORK/out" || fail "$command far-time.chlsj: no waterfall"
  # Every bar is exactly the waterfall's width, whatever the times.
  python3 - "$WORK/out" <<'PY' || fail "$command far-time.chlsj: a bar is not 40 cells"
import re, sys
bars = re.findall(r"\|(.*)\|  ", open(sys.argv[1], encoding="utf-8").read())
assert bars and all(len(b) == 40 for b in bars), bars
PY
done
echo "  ok"

echo "== a non-finite number in a report (the JSON encoder threw: nothing printed, or the report dropped)"
mkdir -p "$WORK/nonfinite"
sed 's/"cpuTime" : 847.69568400000003/"cpuTime" : 1e999/' \
  Corpus/jetsam/blog-excerpt_ios15.2_iPhone13-2_comments-elision-trailing-commas.ips > "$WORK/nonfinite/infinite-cpu.ips"
grep -q '1e999' "$WORK/nonfinite/infinite-cpu.ips" || fail "the cpuTime was not replaced"
cp Corpus/jetsam/ios13.3.1_iPhone8-2_frontmost-per-process-limit_1450MB.ips "$WORK/nonfinite/ordinary.ips"
run "$BIN" inspect --format json "$WORK/nonfinite/infinite-cpu.ips"
expect_status 0 "inspect --format json infinite-cpu.ips"
python3 - "$WORK/out" <<'PY' || fail "inspect --format json infinite-cpu.ips: the non-finite cpuTime is not kept with a warning"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["kind"] == "jetsamEvent", d["kind"]
# The number is not modelled (no non-finite double reaches the encoder): a warning at its key path, the text kept.
assert any(x["severity"] == "warning" and x.get("location", {}).get("keyPath", "").endswith("cpuTime")
           for x in d["diagnostics"]), d["diagnostics"]
assert any((p.get("unknownKeys") or {}).get("cpuTime") == "1e999" for p in d["report"]["processes"]), "text lost"
PY
run "$BIN" inspect --format json "$WORK/nonfinite"
expect_status 0 "inspect --format json of a folder with the infinite report"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert len(d) == 2 and all(e["kind"] == "jetsamEvent" for e in d), d' \
  "$WORK/out" || fail "inspect --format json DIR: expected two jetsam envelopes"
for command in "inspect --format ndjson" "scan --format ndjson"; do
  run $BIN $command "$WORK/nonfinite"
  expect_status 0 "$command of the folder"
  python3 -c 'import json,sys; rows=[json.loads(l) for l in open(sys.argv[1])]; assert len(rows) == 2, len(rows)' \
    "$WORK/out" || fail "$command: expected two envelopes"
done
echo "  ok"

echo "== output to a full disk (exited 0 with nothing written)"
report=Corpus/jetsam/ios13.3.1_iPhone8-2_frontmost-per-process-limit_1450MB.ips
ips=Corpus/crash/ios17.2.1_309_json_exc_crash_sigabrt_nsexception_leb_unknown_keys.ips
if [ -c /dev/full ] && [ -w /dev/full ]; then
  for args in "inspect $report" "inspect --format json $report" "inspect --format ndjson $report" \
    "scan --format ndjson $report" "memory-limits Corpus/jetsam" "translate $ips"; do
    status=0
    $BIN $args > /dev/full 2> "$WORK/err" || status=$?
    [ "$status" -eq 1 ] || fail "$args > /dev/full: exit $status, expected 1"
    grep -q "cannot write to standard output: No space left on device" "$WORK/err" \
      || fail "$args > /dev/full: no message: $(cat "$WORK/err")"
  done
  # A device is written in place: a writer that replaces its target (a temporary file renamed over it) once
  # replaced the machine's /dev/full with a regular file.
  run "$BIN" translate -o /dev/full "$ips"
  expect_status 1 "translate -o /dev/full"
  grep -q "full: error: cannot write the report: No space left on device" "$WORK/err" \
    || fail "translate -o /dev/full: $(cat "$WORK/err")"
  [ -c /dev/full ] || fail "/dev/full is no longer a device"
  # A link at the output path is refused (issue 38): neither followed nor replaced.
  ln -s /dev/full "$WORK/full"
  run "$BIN" translate -o "$WORK/full" "$ips"
  expect_status 2 "translate -o a link to /dev/full"
  [ -L "$WORK/full" ] || fail "translate -o replaced the link to /dev/full"
  [ -c /dev/full ] || fail "/dev/full is no longer a device"
else
  echo "  (no /dev/full device here: only the unwritable targets are checked)"
fi
run "$BIN" translate -o "$WORK/no/such/folder/out.crash" "$ips"
expect_status 1 "translate -o into a missing folder"
grep -q "out.crash: error: cannot write the report" "$WORK/err" || fail "translate -o missing folder: $(cat "$WORK/err")"
run "$BIN" translate -o "$WORK/written.crash" "$ips"
expect_status 0 "translate -o a writable file"
grep -q "^Incident Identifier:" "$WORK/written.crash" || fail "translate -o: the report was not written"
echo "  ok"

echo "== terminal escapes in file names (cleared the screen, forged path:line:col lines)"
mkdir -p "$WORK/names"
evil="$WORK/names/evil${ESC}[2J"$'\n'"forged.ips:1:1: error: forged"
printf 'not a report' > "$evil"
: > "$WORK/names/empty${ESC}]0;title"$'\a'".ips"
for format in text json ndjson; do
  run "$BIN" inspect --format "$format" "$WORK/names"
  expect_status 1 "inspect --format $format of the hostile names"
  no_escape_in "$WORK/err" "inspect --format $format (stderr)"
  no_escape_in "$WORK/out" "inspect --format $format (stdout)"
  [ "$(wc -l < "$WORK/err")" -eq 1 ] || fail "inspect --format $format: $(wc -l < "$WORK/err") error lines, expected 1"
  grep -q 'empty\\x1b]0;title\\x07.ips: error: the file is empty' "$WORK/err" \
    || fail "inspect --format $format: the error line does not show the escapes: $(cat -v "$WORK/err")"
done
run "$BIN" inspect "$WORK/names"
if grep -q '^forged.ips' "$WORK/out"; then fail "inspect: a newline in a file name started a line of its own"; fi
grep -q 'evil\\x1b\[2J\\nforged.ips' "$WORK/out" || fail "inspect: the evil name is not shown escaped"
run "$BIN" inspect --format json "$evil"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["file"].endswith("\x1b[2J\nforged.ips:1:1: error: forged")' \
  "$WORK/out" || fail "inspect --format json: the file name is not kept verbatim in JSON"
run "$BIN" scan "$WORK/names"
no_escape_in "$WORK/err" "scan (stderr)"
no_escape_in "$WORK/out" "scan (stdout)"
run "$BIN" translate "$WORK/names/empty${ESC}]0;title"$'\a'".ips"
no_escape_in "$WORK/err" "translate (stderr)"
echo "  ok"

echo "== SQLite error text quoting a hostile schema"
python3 - "$WORK/schema.PLSQL" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("CREATE TABLE PLBatteryAgent_EventBackward_Battery (timestamp REAL, Level REAL)")
db.commit()
# A schema row SQLite will refuse to parse, its name and text carrying terminal escapes.
db.execute("PRAGMA writable_schema=ON")
db.execute("INSERT INTO sqlite_master VALUES ('table', 't\x1b[2J', 't\x1b[2J', 99, 'CREATE TABLE \x1b]0;owned\x07 (')")
db.commit()
db.close()
PY
for command in energy inspect; do
  run "$BIN" "$command" "$WORK/schema.PLSQL"
  [ "$status" -le 1 ] || fail "$command schema.PLSQL: exit $status"
  no_escape_in "$WORK/err" "$command schema.PLSQL (stderr)"
  no_escape_in "$WORK/out" "$command schema.PLSQL (stdout)"
done
echo "  ok"

echo "== smaller: energy names the file once, no fake 1:1, inspect reads the reports inside a tar"
run "$BIN" energy "$WORK/missing.PLSQL"
expect_status 1 "energy on a missing file"
[ "$(grep -o "missing.PLSQL" "$WORK/err" | wc -l)" -eq 1 ] || fail "energy repeats the path: $(cat "$WORK/err")"
run "$BIN" translate "$WORK/missing.ips"
expect_status 1 "translate a missing file"
if grep -q ':1:1:' "$WORK/err"; then fail "translate: an error without a location shows 1:1: $(cat "$WORK/err")"; fi
grep -q "missing.ips: error: " "$WORK/err" || fail "translate: no error line: $(cat "$WORK/err")"
run "$BIN" inspect --wide Corpus/sysdiagnose/sysdiagnose_2024.03.01_10-20-30-0800_iPhone-OS_iPhone_21D61.tar.gz
grep -qF '.tar.gz!/' "$WORK/out" || fail "inspect on a tar.gz does not read the reports inside it: $(head -5 "$WORK/out")"
echo "  ok"

[ "$fails" -eq 0 ] || { echo "output robustness: $fails failure(s)"; exit 1; }
echo "output robustness: all checks passed"
