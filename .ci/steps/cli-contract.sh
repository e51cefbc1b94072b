#!/usr/bin/env bash
# The command line's promises (README, --help): the exit status of each class (0 read, 1 unreadable, 2 usage) in
# every command, one wording per failure, `-` for standard input, one JSON shape per command line, and a reader
# that closes the pipe early (`| head`) leaving no temporary file behind.
set -euo pipefail
: "${BIN:?BIN must name the apm-inspect binary}"
T="$(mktemp -d)"
trap 'rm -rf "$T"' EXIT
JETSAM=Corpus/jetsam/ios13.3.1_iPhone8-2_frontmost-per-process-limit_1450MB.ips
IPS=Corpus/crash/ios17.2.1_309_json_exc_crash_sigabrt_nsexception_leb_unknown_keys.ips
HAR=Corpus/http/chrome_h2_ssl-inside-connect.har
PLSQL=Corpus/powerlog/ios15_offset-change_D16AP_19H12.PLSQL
mkdir "$T/empty-folder" "$T/tmp"
: > "$T/empty.ips"
failures=0

# expect STATUS 'TEXT IN STDERR (or empty)' COMMAND...: runs the command, checks its status and stderr.
expect() {
  local want="$1" text="$2" status=0
  shift 2
  "$@" > "$T/out" 2> "$T/err" < /dev/null || status=$?
  if [ "$status" != "$want" ] || { [ -n "$text" ] && ! grep -qF -- "$text" "$T/err"; }; then
    echo "FAIL: $* exited $status (want $want)${text:+, stderr should hold: $text}"; sed 's/^/    /' "$T/err" | head -5
    failures=$((failures + 1))
  else
    echo "  ok $status: ${*#"$BIN "}"
  fi
}

echo "-- 0: every input read"
expect 0 '' "$BIN" inspect "$JETSAM"
expect 0 '' "$BIN" memory-limits Corpus/jetsam
expect 0 '' "$BIN" http "$HAR"
expect 0 'Corpus/http/README.md: note: not an HTTP capture; skipped' "$BIN" http Corpus/http
expect 0 '' "$BIN" energy "$PLSQL"
expect 0 '' "$BIN" translate "$IPS"
expect 0 '' "$BIN" anonymize "$IPS" "$HAR" -o "$T/anonymized"
expect 0 '' "$BIN" scan Corpus/sysdiagnose
expect 0 '' "$BIN" --help

echo "-- 1: an input could not be read, in the same words in every command"
for command in inspect memory-limits http energy translate scan; do
  expect 1 "$T/missing.ips: error: cannot open: No such file or directory" "$BIN" "$command" "$T/missing.ips"
  expect 1 "$T/empty.ips: error: the file is empty" "$BIN" "$command" "$T/empty.ips"
done
expect 1 "$T/missing.ips: error: cannot open: No such file or directory" "$BIN" anonymize "$T/missing.ips" -o "$T/a1"
expect 1 "$T/empty.ips: error: the file is empty" "$BIN" anonymize "$T/empty.ips" -o "$T/a2"
expect 2 'it is inside the input folder' "$BIN" anonymize Corpus/crash -o Corpus/crash/anonymized
for command in inspect memory-limits http energy scan; do
  expect 1 "$T/empty-folder: error: the folder holds no files; nothing was read" "$BIN" "$command" "$T/empty-folder"
done
expect 1 'no HTTP capture (HAR, Charles session, pcap/pcapng) found in the folder' "$BIN" http Corpus/jetsam
expect 1 'already a text crash report: nothing to translate' "$BIN" translate Corpus/crash/ios14.4_text_exc_bad_access_sigsegv_kern_invalid_address.crash
# translate reads a sysdiagnose's crash reports, each under its ARCHIVE!/member heading; one without any says so.
expect 0 '' "$BIN" translate Corpus/sysdiagnose/*.tar.gz
grep -qF '.tar.gz!/' "$T/out" || { echo "FAIL: translate of a sysdiagnose did not translate the reports inside it"; failures=$((failures + 1)); }
expect 1 'the archive holds no crash report translate reads' "$BIN" translate Corpus/sysdiagnose/hostile/bomb.tar.gz
# inspect reads an archive's reports as scan does (issue 40): each one named ARCHIVE!/member.
expect 0 '' "$BIN" inspect --wide Corpus/sysdiagnose/*.tar.gz
grep -qF '.tar.gz!/' "$T/out" || { echo "FAIL: inspect of a sysdiagnose did not read the reports inside it"; failures=$((failures + 1)); }

echo "-- 2: usage errors"
expect 2 "Unknown option '--no-such-option'" "$BIN" inspect --no-such-option "$JETSAM"
expect 2 "The value 'csv' is invalid for '--format <format>'" "$BIN" inspect --format csv "$JETSAM"
expect 2 "--output applies to --format sentry-envelope only" "$BIN" inspect --format sentry -o "$T" "$JETSAM"
expect 2 "Please provide one of 'text' and 'json'" "$BIN" energy --format ndjson "$PLSQL"
expect 2 "Missing expected argument" "$BIN" inspect
expect 2 "--jobs must be at least 1" "$BIN" inspect --jobs 0 "$JETSAM"
expect 2 "The value 'sometimes' is invalid for '--color <auto|always|never>'" "$BIN" inspect --color sometimes "$IPS"
expect 2 "The value 'three' is invalid for '--frames <n>'" "$BIN" inspect --frames three "$IPS"
expect 2 "--jobs must be at least 1" "$BIN" memory-limits --jobs 0 Corpus/jetsam
expect 2 "Unexpected argument 'frobnicate'" "$BIN" frobnicate
expect 2 "can be given only once" "$BIN" inspect - -

echo "-- help: each command lists the formats it produces; --jobs states its default once"
COLUMNS=200 "$BIN" inspect --help | grep -qF "values: text, json, ndjson, sentry, sentry-envelope, otel, folded;" \
  || { echo "FAIL: inspect --help formats"; failures=$((failures + 1)); }
if "$BIN" inspect --help | grep -q "csv\|markdown"; then echo "FAIL: inspect --help offers csv or markdown"; failures=$((failures + 1)); fi
if "$BIN" --generate-completion-script zsh | sed -n '/^_apm-inspect_inspect()/,/^}/p' | grep -q "'csv'"; then
  echo "FAIL: zsh completion offers csv to inspect"; failures=$((failures + 1))
fi
[ "$("$BIN" scan --help | grep -c 'default')" = 2 ] || { echo "FAIL: scan --help: a default shown twice"; failures=$((failures + 1)); }

echo "-- - reads standard input"
status=0
"$BIN" inspect --format json - < "$JETSAM" > "$T/stdin.json" || status=$?
python3 - "$T/stdin.json" <<'PY' && [ "$status" = 0 ] || { echo "FAIL: inspect - (status $status)"; failures=$((failures + 1)); }
import json, sys
d = json.load(open(sys.argv[1]))
assert isinstance(d, dict) and d["file"] == "-" and d["kind"] == "jetsamEvent", d
PY
cat "$IPS" | "$BIN" translate - | grep -q "^Incident Identifier: 89EA024E" || { echo "FAIL: translate -"; failures=$((failures + 1)); }
cat "$HAR" | "$BIN" http - | grep -q "^HTTP archive  -$" || { echo "FAIL: http -"; failures=$((failures + 1)); }

echo "-- translate: several reports with separators, or into a folder"
[ "$("$BIN" translate "$IPS" "$IPS" | grep -c '^==> ')" = 2 ] || { echo "FAIL: translate A B: separators"; failures=$((failures + 1)); }
"$BIN" translate -o "$T/translated" "$IPS" Corpus/watchdog/ios16.1_309_frontboard_scene-update_8badf00d_sync_network.ips
[ "$(find "$T/translated" -name '*.crash' | wc -l)" = 2 ] || { echo "FAIL: translate -o FOLDER"; failures=$((failures + 1)); }

echo "-- --format json: a folder is an array whatever it holds; --array for one file"
mkdir "$T/one" && cp "$JETSAM" "$T/one/"
"$BIN" inspect --format json "$T/one" > "$T/one.json"
"$BIN" inspect --format json --array "$JETSAM" > "$T/array.json"
python3 - "$T/one.json" "$T/array.json" <<'PY' || { echo "FAIL: JSON shape"; failures=$((failures + 1)); }
import json, sys
for path in sys.argv[1:]:
    d = json.load(open(path))
    assert isinstance(d, list) and len(d) == 1 and d[0]["kind"] == "jetsamEvent", (path, d)
PY

echo "-- a reader that closes the pipe early: quiet end, nothing left in TMPDIR"
for args in "scan --format ndjson Corpus" "inspect --format json Corpus" "inspect Corpus"; do
  # shellcheck disable=SC2086
  status=$( set +e -o pipefail; TMPDIR="$T/tmp" "$BIN" $args 2> "$T/err" | head -c 100 > /dev/null; echo "${PIPESTATUS[0]}" )
  left=$(find "$T/tmp" -mindepth 1 | wc -l)
  if [ "$status" != 141 ] || [ "$left" != 0 ] || grep -q "cannot write" "$T/err"; then
    echo "FAIL: $args | head: status $status (want 141, SIGPIPE), $left temporary entries left"; cat "$T/err" | head -3
    failures=$((failures + 1))
  else
    echo "  ok: $args | head ends by SIGPIPE, TMPDIR empty"
  fi
done

[ "$failures" = 0 ] || { echo "cli-contract: $failures failure(s)"; exit 1; }
echo "cli-contract: all promises kept"
