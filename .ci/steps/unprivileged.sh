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
