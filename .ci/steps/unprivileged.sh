#!/usr/bin/env bash
# Folder walks as an unprivileged user (root reads every folder, so permission failures only show this way):
# a folder that cannot be listed and a file that cannot be read are named with exit status 1; names that are not
# UTF-8 are read and shown escaped; a symbolic-link loop ends with a note; a FIFO in a folder is skipped with a note.
set -euo pipefail
: "${BIN:?BIN must name the apm-inspect binary}"
report=Corpus/jetsam/ios13.3.1_iPhone8-2_frontmost-per-process-limit_1450MB.ips
T="$(mktemp -d)"
cleanup() { chmod -R u+rwx "$T" 2>/dev/null || true; rm -rf "$T"; }
trap cleanup EXIT
chmod 755 "$T"
# A copy the unprivileged user can run, wherever the build folder is.
cp "$BIN" "$T/apm-inspect"
chmod 755 "$T/apm-inspect"

if [ "$(id -u)" -eq 0 ]; then
  if command -v setpriv >/dev/null 2>&1; then
    AS=(setpriv --reuid=65534 --regid=65534 --clear-groups)
  else
    AS=(runuser -u nobody --)
  fi
else
  AS=()
fi
run() { "${AS[@]}" "$T/apm-inspect" "$@"; }

mkdir -p "$T/tree/locked" "$T/tree/sub"
cp "$report" "$T/tree/readable.ips"
cp "$report" "$T/tree/locked/hidden.ips"
cp "$report" "$T/tree/unreadable.ips"
cp "$report" "$T/tree/sub/$(printf 'caf\xe9.ips')"
ln -s .. "$T/tree/sub/up"
mkfifo "$T/tree/pipe"
chmod -R a+rX "$T/tree"
chmod 000 "$T/tree/locked" "$T/tree/unreadable.ips"

status=0
run scan --format json "$T/tree" > "$T/out.json" 2> "$T/err.txt" || status=$?
[ "$status" -eq 1 ] || { echo "FAIL: scan with an unlistable folder exited $status, expected 1"; cat "$T/err.txt"; exit 1; }
grep -qF "$T/tree/locked: error: cannot list the folder: Permission denied" "$T/err.txt" \
  || { echo "FAIL: the unlistable folder is not named"; cat "$T/err.txt"; exit 1; }
grep -qF "$T/tree/unreadable.ips" "$T/err.txt" \
  || { echo "FAIL: the unreadable file is not named"; cat "$T/err.txt"; exit 1; }
grep -qF "$T/tree/sub/up: note: a symbolic link to a folder already walked" "$T/err.txt" \
  || { echo "FAIL: the link loop is not noted"; cat "$T/err.txt"; exit 1; }
grep -qF "$T/tree/pipe: note: a FIFO" "$T/err.txt" || { echo "FAIL: the FIFO is not noted"; cat "$T/err.txt"; exit 1; }
EXPECT_DIR="$T/tree" python3 - "$T/out.json" <<'PY'
import json, os, sys
d = json.load(open(sys.argv[1]))
root = os.environ["EXPECT_DIR"]
kinds = {f["file"][len(root):]: f["kind"] for f in d["files"]}
assert kinds.get("/readable.ips") == "jetsamEvent", kinds
# The Latin-1 name is read, and shown with its invalid byte escaped as \xE9.
assert kinds.get("/sub/caf\\xE9.ips") == "jetsamEvent", kinds
assert not any("hidden" in k for k in kinds), kinds
print("  ok unprivileged scan:", sorted(kinds))
PY

# Everything readable: exit 0, and a name that is not UTF-8 given directly is found, not "no such file".
chmod 755 "$T/tree/locked" && chmod 644 "$T/tree/unreadable.ips"
status=0
run scan --format ndjson "$T/tree/sub/$(printf 'caf\xe9.ips')" > "$T/one.ndjson" 2> "$T/err.txt" || status=$?
[ "$status" -eq 0 ] || { echo "FAIL: scan of a non-UTF-8 name exited $status"; cat "$T/err.txt"; exit 1; }
grep -qF '"kind":"jetsamEvent"' "$T/one.ndjson" || { echo "FAIL: the non-UTF-8 name was not read"; cat "$T/one.ndjson"; exit 1; }
run inspect --format ndjson "$T/tree/sub/$(printf 'caf\xe9.ips')" | grep -qF '"file":"'"$T"'/tree/sub/caf\\xE9.ips","kind":"jetsamEvent"' \
  || { echo "FAIL: inspect of a non-UTF-8 name"; exit 1; }
status=0
run scan "$T/tree" > /dev/null 2> "$T/err.txt" || status=$?
[ "$status" -eq 0 ] || { echo "FAIL: scan of a readable tree exited $status"; cat "$T/err.txt"; exit 1; }
echo "  ok unprivileged: exit 1 naming the unlistable folder, 0 once every input is read"
# memory-limits and energy walk the same way: a folder that cannot be listed is named with exit 1, and a name that
# is not UTF-8 is read (not "cannot open") and shown escaped.
db=Corpus/powerlog/ios15_offset-change_D16AP_19H12.PLSQL
mkdir -p "$T/mixed/locked" "$T/mixed/logs"
cp "$report" "$T/mixed/$(printf 'caf\xe9.ips')"
cp "$report" "$T/mixed/locked/hidden.ips"
cp "$db" "$T/mixed/logs/$(printf 'powerlog_caf\xe9.PLSQL')"
cp "$db" "$T/mixed/locked/hidden.PLSQL"
chmod -R a+rX "$T/mixed"
chmod 000 "$T/mixed/locked"
limits_csv() { run memory-limits --format csv "$@"; }
status=0
limits_csv "$T/mixed" > "$T/limits.csv" 2> "$T/err.txt" || status=$?
[ "$status" -eq 1 ] || { echo "FAIL: memory-limits with an unlistable folder exited $status, expected 1"; cat "$T/err.txt"; exit 1; }
grep -qF "$T/mixed/locked: error: cannot list the folder: Permission denied" "$T/err.txt" \
  || { echo "FAIL: memory-limits does not name the unlistable folder"; cat "$T/err.txt"; exit 1; }
if grep -qF "cannot open" "$T/err.txt"; then echo "FAIL: memory-limits could not open a file"; cat "$T/err.txt"; exit 1; fi
grep -qF "; 1 JetsamEvent(s)" "$T/err.txt" \
  || { echo "FAIL: memory-limits did not read the non-UTF-8 report"; cat "$T/err.txt"; exit 1; }
# The table is the one the same report gives under a plain name: the name changes nothing but how it is shown.
limits_csv "$report" > "$T/plain.csv" 2> /dev/null
cmp -s "$T/limits.csv" "$T/plain.csv" || { echo "FAIL: memory-limits table differs"; diff "$T/plain.csv" "$T/limits.csv"; exit 1; }
status=0
run energy --format json "$T/mixed" > "$T/energy.json" 2> "$T/err.txt" || status=$?
[ "$status" -eq 1 ] || { echo "FAIL: energy with an unlistable folder exited $status, expected 1"; cat "$T/err.txt"; exit 1; }
grep -qF "$T/mixed/locked: error: cannot list the folder: Permission denied" "$T/err.txt" \
  || { echo "FAIL: energy does not name the unlistable folder"; cat "$T/err.txt"; exit 1; }
EXPECT_DIR="$T/mixed" python3 - "$T/energy.json" <<'PY'
import json, os, sys
d = json.load(open(sys.argv[1]))
root = os.environ["EXPECT_DIR"]
assert d["files"] == [root + "/logs/powerlog_caf\\xE9.PLSQL"], d["files"]
assert d["report"]["device"] == "D16AP", d["report"].get("device")
assert not any("/proc/self/fd" in x["message"] for x in d["diagnostics"]), d["diagnostics"]
print("  ok unprivileged energy:", d["files"])
PY
chmod 755 "$T/mixed/locked"
status=0
run energy "$T/mixed" > /dev/null 2> "$T/err.txt" || status=$?
[ "$status" -eq 0 ] || { echo "FAIL: energy over a readable tree exited $status"; cat "$T/err.txt"; exit 1; }
status=0
limits_csv "$T/mixed" > /dev/null 2> "$T/err.txt" || status=$?
[ "$status" -eq 0 ] || { echo "FAIL: memory-limits over a readable tree exited $status"; cat "$T/err.txt"; exit 1; }
echo "  ok unprivileged memory-limits and energy: exit 1 naming the unlistable folder, non-UTF-8 names read"

