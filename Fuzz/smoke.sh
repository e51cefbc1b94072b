#!/usr/bin/env bash
# Deterministic bounded fuzz run for CI: build every target with libFuzzer and ASan, replay the committed fail
# cases, then run each target with a fixed seed and a fixed number of runs over seeds taken from Corpus/.
# Any crash, sanitizer report, timeout or out-of-memory fails the run. docs/robustness.md explains the setup.
#
#   Fuzz/smoke.sh                       all targets
#   Fuzz/smoke.sh FuzzDNS FuzzTLS       some of them
#   FUZZ_RUNS_SCALE=4 Fuzz/smoke.sh     four times the runs below
#   FUZZ_MAX_LEN=65536 Fuzz/smoke.sh    longer inputs than the default 16 KiB (seeds longer than that are cut)
# Each target also stops after FUZZ_MAX_TIME seconds (default 60): a guard for a loaded machine, not the normal end.
#
# Campaigns use the same script with an optimised build, a time budget instead of a run count, and a corpus kept
# between sessions in Fuzz/work/ (gitignored):
#   FUZZ_CONFIG=release FUZZ_WORK=Fuzz/work FUZZ_RUNS_SCALE=1000000 FUZZ_MAX_TIME=600 nice -n 10 Fuzz/smoke.sh FuzzDNS
set -euo pipefail
cd "$(dirname "$0")"
FUZZ="$PWD"
ROOT="$(cd .. && pwd)"
if ! command -v swift >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swift ]; then export PATH="/opt/swift/usr/bin:$PATH"; fi

source "$FUZZ/targets.sh"

echo "== build (libFuzzer + AddressSanitizer)"
# --sanitize=fuzzer makes SwiftPM link libFuzzer's main; -sanitize=fuzzer,address as ONE flag, because SwiftPM's
# two separate -sanitize= flags come out in random order and swiftc keeps only the last.
CONFIG="${FUZZ_CONFIG:-debug}"
# The packet-decoder targets use @testable imports: debug builds allow them, release needs -enable-testing.
FLAGS=(-c "$CONFIG" --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address)
[ "$CONFIG" = debug ] || FLAGS+=(-Xswiftc -enable-testing -Xswiftc -DFUZZ_TESTABLE)
if ! swift build "${FLAGS[@]}" > .build-fuzz.log 2>&1; then
  grep -v 'Cannot export local symbol' .build-fuzz.log; exit 1   # ld.gold's harmless ASan warnings
fi
BIN="$(swift build "${FLAGS[@]}" --show-bin-path)"
export SWIFT_BACKTRACE=enable=no   # Swift's crash handler and ASan trip over each other; let libFuzzer report
export LSAN_OPTIONS="suppressions=$FUZZ/lsan.supp"   # leaks inside toolchain libraries (FoundationXML)
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
    < <(find "FailCases/$target" -path '*/open' -prune -o -type f ! -name '*.md' -print0 | sort -z)
  for open_case in FailCases/"$target"/open/*; do
    if [ -f "$open_case" ]; then echo "  open finding, not replayed (see FailCases/README.md): $open_case"; fi
  done
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
    for file in "$ROOT"/Corpus/$glob; do if [ -f "$file" ]; then cp "$file" "$seeds/"; fi; done
  done
  corpus="${FUZZ_WORK:+$(cd "$ROOT" && mkdir -p "$FUZZ_WORK" && cd "$FUZZ_WORK" && pwd)}"
  corpus="${corpus:-$WORK}/corpus-$target"   # written to by libFuzzer, so first; temporary unless FUZZ_WORK is set
  mkdir -p "$corpus"
  dict=()
  [[ "$JSON_TARGETS" == *" $target "* ]] && dict=(-dict="$FUZZ/json.dict")
  [ -n "${DICTS[$target]:-}" ] && dict=(-dict="$FUZZ/${DICTS[$target]}")
  read -r -a limits <<< "${LIMITS[$target]:-}"   # later flags win: these override the defaults before them
  status=0
  start=$(date +%s)
  "$bin" -seed=1 -runs=$((runs * SCALE)) -max_total_time="${FUZZ_MAX_TIME:-60}" -max_len="${FUZZ_MAX_LEN:-16384}" \
    -timeout=10 -rss_limit_mb=2048 "${limits[@]}" -print_final_stats=1 \
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
