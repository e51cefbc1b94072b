#!/usr/bin/env bash
# Deterministic bounded fuzz run for CI: build every target with libFuzzer and ASan, replay the committed fail
# cases, then run each target with a fixed seed and a fixed number of runs over seeds taken from Corpus/.
# Any crash, sanitizer report, timeout or out-of-memory fails the run. docs/robustness.md explains the setup.
#
#   Fuzz/smoke.sh                       all targets
#   Fuzz/smoke.sh FuzzDNS FuzzTLS       some of them
#   FUZZ_RUNS_SCALE=4 Fuzz/smoke.sh     four times the runs below
set -euo pipefail
cd "$(dirname "$0")"
FUZZ="$PWD"
ROOT="$(cd .. && pwd)"
if ! command -v swift >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swift ]; then export PATH="/opt/swift/usr/bin:$PATH"; fi

# Target, runs at -seed=1, and the Corpus/ files it starts from (besides Seeds/<target>/). The runs are chosen
# so the whole run takes a few minutes on two cores after the build.
TARGETS=(
  "FuzzIPSContainer 6000 jetsam/*.ips crash/*.ips watchdog/*.ips"
  "FuzzJetsam 3000 jetsam/*.ips"
  "FuzzJetsamLimits 3000 jetsam/*.ips"
  "FuzzCrashText 3000 crash/*.crash crash/*.txt watchdog/*.crash"
  "FuzzCrashJSON 3000 crash/*.ips watchdog/*.ips"
  "FuzzWatchdog 3000 watchdog/*.crash watchdog/*.ips"
  "FuzzHAR 4000 http/*.har"
  "FuzzCharlesJSON 4000 http/*.chlsj"
  "FuzzCharlesXML 4000 http/*.chlsx"
  "FuzzPacketCapture 6000 http/*.pcap http/*.pcapng"
  "FuzzDNS 30000"
  "FuzzTLS 30000"
  "FuzzHTTP1 20000"
  "FuzzPowerLog 1500 powerlog/*.PLSQL powerlog/rotated/*.PLSQL powerlog/rotated/*.PLSQL.gz"
  "FuzzTar 6000 sysdiagnose/*.tar.gz sysdiagnose/hostile/links.tar.gz sysdiagnose/hostile/traversal.tar.gz"
  "FuzzGzip 20000 http/*.zhar http/*.har.gz powerlog/*.gz"
  "FuzzJSONTape 20000 jetsam/blog-excerpt*.ips http/*.har"
  "FuzzJSONEncoder 10000 jetsam/blog-excerpt*.ips http/truncated_mid-entry.har"
)
# Targets whose inputs are JSON get the dictionary.
JSON_TARGETS=" FuzzIPSContainer FuzzJetsam FuzzJetsamLimits FuzzCrashJSON FuzzHAR FuzzCharlesJSON FuzzJSONTape FuzzJSONEncoder "

echo "== build (libFuzzer + AddressSanitizer)"
# --sanitize=fuzzer makes SwiftPM link libFuzzer's main; -sanitize=fuzzer,address as ONE flag, because SwiftPM's
# two separate -sanitize= flags come out in random order and swiftc keeps only the last.
if ! swift build -c debug --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address > .build-fuzz.log 2>&1; then
  grep -v 'Cannot export local symbol' .build-fuzz.log; exit 1   # ld.gold's harmless ASan warnings
fi
BIN="$(swift build -c debug --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address --show-bin-path)"
export SWIFT_BACKTRACE=enable=no   # Swift's crash handler and ASan trip over each other; let libFuzzer report
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
SCALE="${FUZZ_RUNS_SCALE:-1}"
selected=" $* "
failed=()

for line in "${TARGETS[@]}"; do
  read -r target runs globs <<< "$line"
  [ "$#" -eq 0 ] || [[ "$selected" == *" $target "* ]] || continue
  bin="$BIN/$target"
  echo "== $target"
  # Known crashers first: each must now run clean.
  cases=()
  [ -d "FailCases/$target" ] && while IFS= read -r -d '' f; do cases+=("$f"); done \
    < <(find "FailCases/$target" -type f ! -name '*.md' -print0 | sort -z)
  if [ "${#cases[@]}" -gt 0 ]; then
    if ! "$bin" -timeout=10 -rss_limit_mb=2048 "${cases[@]}" > "$WORK/replay.log" 2>&1; then
      echo "FAIL: $target: a committed fail case crashes again"; tail -40 "$WORK/replay.log"; failed+=("$target"); continue
    fi
    echo "  replayed ${#cases[@]} fail case(s)"
  fi
  # Seeds: the committed ones plus the Corpus/ files listed above (copied: libFuzzer takes folders).
  seeds="$WORK/seeds-$target"
  mkdir -p "$seeds"
  [ -d "Seeds/$target" ] && cp Seeds/"$target"/* "$seeds"/
  for glob in $globs; do
    for file in "$ROOT"/Corpus/$glob; do [ -f "$file" ] && cp "$file" "$seeds/"; done
  done
  corpus="$WORK/corpus-$target"   # written to by libFuzzer: first, and temporary
  mkdir -p "$corpus"
  dict=()
  [[ "$JSON_TARGETS" == *" $target "* ]] && dict=(-dict="$FUZZ/json.dict")
  status=0
  start=$(date +%s)
  "$bin" -seed=1 -runs=$((runs * SCALE)) -max_len=65536 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    "${dict[@]}" -artifact_prefix="$WORK/$target-" "$corpus" "$seeds" > "$WORK/$target.log" 2>&1 || status=$?
  seconds=$(( $(date +%s) - start ))
  final="$(grep -E '^#[0-9]+[[:space:]]+(DONE|INITED|pulse|NEW|REDUCE)' "$WORK/$target.log" | tail -1 || true)"
  execs="$(grep -E 'stat::average_exec_per_sec' "$WORK/$target.log" | awk '{print $2}' || true)"
  echo "  ${final:-no status line} | exec/s ${execs:-?} | ${seconds}s | exit $status"
  if [ "$status" -ne 0 ]; then
    echo "FAIL: $target (exit $status: 77 crash, 70 timeout, 71 out of memory, 1 sanitizer report)"
    grep -E 'ERROR|Fatal error|fuzz property|SUMMARY|deadly|Test unit written' "$WORK/$target.log" | head -20
    mkdir -p "$FUZZ/findings"
    cp "$WORK/$target"-* "$FUZZ/findings/" 2>/dev/null && echo "  crasher kept in Fuzz/findings/ (gitignored)"
    failed+=("$target")
  fi
done

if [ "${#failed[@]}" -gt 0 ]; then echo "fuzz smoke: FAILED: ${failed[*]}"; exit 1; fi
echo "fuzz smoke: ok"
