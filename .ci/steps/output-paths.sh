#!/usr/bin/env bash
# Output paths never destroy evidence (issue 38). Every file the user names for output (translate -o, report -o,
# energy --plot, symbolicate -o DIR) is written to a temporary file in its folder and renamed over the target:
# an output that is an input (same spelling, ./, a symbolic link, a hard link) is refused with the input kept
# byte for byte; a link at the output path is refused and the file it leads to untouched; a failed write leaves
# the old file whole and no temporary file. Permission cases run as an unprivileged user (root writes anywhere).
set -euo pipefail
: "${BIN:?BIN must name the apm-inspect binary}"
ips=Corpus/crash/ios17.2.1_309_json_exc_crash_sigabrt_nsexception_leb_unknown_keys.ips
db=Corpus/powerlog/ios15_offset-change_D16AP_19H12.PLSQL
fixtures=Tests/SymbolicationTests/Fixtures
T="$(mktemp -d)"
cleanup() { chmod -R u+rwx "$T" 2>/dev/null || true; rm -rf "$T"; }
trap cleanup EXIT
chmod 755 "$T"
cp "$BIN" "$T/apm-inspect"
chmod 755 "$T/apm-inspect"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
run() {
  status=0
  "$@" > "$T/out" 2> "$T/err" || status=$?
}
expect_status() { [ "$status" -eq "$1" ] || { fail "$2: exit $status, expected $1: $(head -3 "$T/err")"; }; }
same() { cmp -s "$1" "$2" || fail "$3: $2 was changed"; }
no_temporary() {
  if ls -A "$1" | grep -q '^\.apm-inspect-'; then fail "$2: a temporary file was left in $1"; fi
}

echo "== an output that is an input, however it is named, is refused and the input kept"
mkdir "$T/ev"
cp "$ips" "$T/ev/x.ips"
ln -s x.ips "$T/ev/link.ips"
ln "$T/ev/x.ips" "$T/ev/hard.ips"
for out in "$T/ev/x.ips" "$T/ev/./x.ips" "$T/ev/link.ips" "$T/ev/hard.ips"; do
  run "$T/apm-inspect" translate "$T/ev/x.ips" -o "$out"
  expect_status 2 "translate -o $out"
  grep -qF -- "-o $out: " "$T/err" || fail "translate -o $out: the path is not named: $(cat "$T/err")"
  same "$ips" "$T/ev/x.ips" "translate -o $out"
done
status=0
(cd "$T/ev" && "$T/apm-inspect" translate x.ips -o ./x.ips) 2> "$T/err" || status=$?
expect_status 2 "translate x.ips -o ./x.ips"
same "$ips" "$T/ev/x.ips" "translate x.ips -o ./x.ips"
# A file found inside a folder given counts too.
run "$T/apm-inspect" report -o "$T/ev/hard.ips" "$T/ev"
expect_status 2 "report -o (a hard link to a file of the folder read)"
same "$ips" "$T/ev/x.ips" "report -o a hard link"
cp "$db" "$T/ev/db.PLSQL"
ln "$T/ev/db.PLSQL" "$T/ev/plot.svg"
run "$T/apm-inspect" energy "$T/ev/db.PLSQL" --plot "$T/ev/plot.svg"
expect_status 2 "energy --plot (a hard link to the database)"
same "$db" "$T/ev/db.PLSQL" "energy --plot a hard link"
# symbolicate -o DIR: a report in the folder that is the input under another name (a link, a hard link).
cp "$fixtures/reports/Demo-arm64-ios.crash" "$T/ev/Demo-arm64-ios.crash"
for kind in hard soft; do
  rm -rf "$T/sym" && mkdir "$T/sym"
  if [ "$kind" = hard ]; then ln "$T/ev/Demo-arm64-ios.crash" "$T/sym/"; else ln -s "$T/ev/Demo-arm64-ios.crash" "$T/sym/"; fi
  run "$T/apm-inspect" symbolicate "$T/ev/Demo-arm64-ios.crash" --dsym "$fixtures/Demo-arm64.dSYM" -o "$T/sym"
  expect_status 1 "symbolicate -o DIR holding a $kind link to the input"
  grep -qF "$T/sym/Demo-arm64-ios.crash: error: cannot write the report" "$T/err" \
    || fail "symbolicate ($kind link): $(cat "$T/err")"
  same "$fixtures/reports/Demo-arm64-ios.crash" "$T/ev/Demo-arm64-ios.crash" "symbolicate -o DIR ($kind link)"
  no_temporary "$T/sym" "symbolicate ($kind link)"
done
no_temporary "$T/ev" "the refusals"
echo "  ok"

echo "== a symbolic link at the output path is refused, the file it leads to untouched"
printf 'keep me\n' > "$T/victim.txt"
ln -s "$T/victim.txt" "$T/planted"
for args in "translate $ips -o $T/planted" "report Corpus/jetsam -o $T/planted" "energy $db --plot $T/planted"; do
  run "$T/apm-inspect" $args
  expect_status 2 "$args"
  grep -q "symbolic link" "$T/err" || fail "$args: $(cat "$T/err")"
  [ "$(cat "$T/victim.txt")" = "keep me" ] || fail "$args: wrote through the link"
  [ -L "$T/planted" ] || fail "$args: replaced the link"
done
echo "  ok"

echo "== a successful write replaces the file (a second name of the old one keeps it), no temporary file left"
mkdir "$T/w"
printf 'old\n' > "$T/w/out.crash"
ln "$T/w/out.crash" "$T/w/second-name"
run "$T/apm-inspect" translate "$ips" -o "$T/w/out.crash"
expect_status 0 "translate -o over an existing file"
grep -q "^Incident Identifier:" "$T/w/out.crash" || fail "translate -o: the report was not written"
[ "$(cat "$T/w/second-name")" = old ] || fail "translate -o wrote through a hard link of the old file"
no_temporary "$T/w" "translate -o"
echo "  ok"

echo "== a write that fails (a file-size limit: EFBIG) leaves the old file whole and no temporary file"
cp "$T/w/second-name" "$T/w/before"
ln -f "$T/w/before" "$T/w/out.crash" 2>/dev/null || cp "$T/w/before" "$T/w/out.crash"
status=0
# SIGXFSZ ignored: the write returns EFBIG instead of killing the process.
(trap '' XFSZ; ulimit -f 1; exec "$T/apm-inspect" translate "$ips" -o "$T/w/out.crash") 2> "$T/err" || status=$?
expect_status 1 "translate -o under ulimit -f 1"
grep -q "cannot write the report: File too large" "$T/err" || fail "ulimit -f: $(cat "$T/err")"
same "$T/w/before" "$T/w/out.crash" "translate -o that failed"
no_temporary "$T/w" "translate -o that failed"
echo "  ok"

if [ "$(id -u)" -eq 0 ]; then
  if command -v setpriv >/dev/null 2>&1; then
    AS=(setpriv --reuid=65534 --regid=65534 --clear-groups)
  else
    AS=(runuser -u nobody --)
  fi
else
  AS=()
fi
echo "== as an unprivileged user: an unwritable folder is an error naming the path; umask is honoured"
cp "$ips" "$T/in.ips"
chmod 644 "$T/in.ips"
mkdir "$T/locked" "$T/mine"
chmod 555 "$T/locked"
[ "${#AS[@]}" -eq 0 ] || chown 65534:65534 "$T/mine"
run "${AS[@]}" "$T/apm-inspect" translate "$T/in.ips" -o "$T/locked/out.crash"
expect_status 1 "translate -o into an unwritable folder"
grep -qF "$T/locked/out.crash: error: cannot write the report: Permission denied" "$T/err" \
  || fail "unwritable folder: $(cat "$T/err")"
[ -z "$(ls -A "$T/locked")" ] || fail "unwritable folder: something was created: $(ls -A "$T/locked")"
run "${AS[@]}" "$T/apm-inspect" report Corpus/jetsam -o "$T/locked/report.txt"
expect_status 1 "report -o into an unwritable folder"
grep -qF "Permission denied" "$T/err" || fail "report -o unwritable folder: $(cat "$T/err")"
for mask in 022 077; do
  status=0
  (umask "$mask"; exec "${AS[@]}" "$T/apm-inspect" translate "$T/in.ips" -o "$T/mine/out-$mask.crash") 2> "$T/err" \
    || status=$?
  expect_status 0 "translate -o with umask $mask"
done
[ "$(stat -c %a "$T/mine/out-022.crash")" = 644 ] || fail "umask 022: mode $(stat -c %a "$T/mine/out-022.crash")"
[ "$(stat -c %a "$T/mine/out-077.crash")" = 600 ] || fail "umask 077: mode $(stat -c %a "$T/mine/out-077.crash")"
no_temporary "$T/mine" "unprivileged translate -o"
echo "  ok"

[ "$fails" -eq 0 ] || { echo "output-paths: $fails failure(s)"; exit 1; }
echo "output-paths: inputs, links and failed writes all leave the user's files as they were"
