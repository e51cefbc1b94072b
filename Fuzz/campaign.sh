#!/usr/bin/env bash
# Fuzz campaign: run each target until it has used a budget of CPU time (not wall time), so that a loaded machine
# gives every target the same work, and record what it reached. Optimised build with libFuzzer and ASan; the corpus
# grows in Fuzz/work/corpus-<target>/ (gitignored) and is kept between campaigns.
#
#   Fuzz/campaign.sh                          every target, 600 CPU-seconds each, two at a time
#   FUZZ_CPU_SECONDS=60 Fuzz/campaign.sh FuzzDNS FuzzTLS
#   FUZZ_PARALLEL=1 FUZZ_NICE=10 Fuzz/campaign.sh
#   FUZZ_SKIP_BUILD=1 FUZZ_MAX_LEN=65536 Fuzz/campaign.sh FuzzMachO   without building first
#
# One line per target is appended to Fuzz/work/campaign.tsv:
#   target, start (UTC), CPU s, wall s, executions, executions per CPU second, cov, ft, corpus files, exit, finding
# CPU time is the fuzzer's user + system time read from /proc/<pid>/stat every second; when it reaches the budget
# the fuzzer gets SIGINT and writes its final statistics. A wall-clock guard (FUZZ_WALL_LIMIT, default 4x the
# budget) stops a target that sleeps instead of computing, and the row says so. Crashing inputs are kept in
# Fuzz/findings/ (gitignored) and the exit status is 1 if any target found something.
set -uo pipefail
cd "$(dirname "$0")"
FUZZ="$PWD"
ROOT="$(cd .. && pwd)"
if ! command -v swift >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swift ]; then export PATH="/opt/swift/usr/bin:$PATH"; fi
source "$FUZZ/targets.sh"

BUDGET="${FUZZ_CPU_SECONDS:-600}"
WALL_LIMIT="${FUZZ_WALL_LIMIT:-$((BUDGET * 4))}"
PARALLEL="${FUZZ_PARALLEL:-2}"
NICE="${FUZZ_NICE:-5}"
WORK="$FUZZ/work"
mkdir -p "$WORK" "$FUZZ/findings"
TABLE="$WORK/campaign.tsv"
[ -f "$TABLE" ] || printf 'target\tstart\tcpu_s\twall_s\texecs\texecs_per_cpu_s\tcov\tft\tcorpus\texit\tfinding\n' > "$TABLE"

FLAGS=(-c release --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address -Xswiftc -enable-testing -Xswiftc -DFUZZ_TESTABLE)
# FUZZ_SKIP_BUILD=1 runs the binaries already built (a second campaign beside a running one must not rebuild the
# targets under it after a source change; the row then belongs to the commit those binaries were built from).
if [ "${FUZZ_SKIP_BUILD:-0}" = 1 ]; then
  echo "== using the targets already built (FUZZ_SKIP_BUILD=1)"
else
  echo "== build (release, libFuzzer + AddressSanitizer)"
  if ! swift build "${FLAGS[@]}" > .build-campaign.log 2>&1; then
    grep -v 'Cannot export local symbol' .build-campaign.log; exit 1
  fi
fi
BIN="$(swift build "${FLAGS[@]}" --show-bin-path)"
export SWIFT_BACKTRACE=enable=no
export LSAN_OPTIONS="suppressions=$FUZZ/lsan.supp"
CLK_TCK="$(getconf CLK_TCK)"

cpu_ticks() {  # user + system ticks of a process, fields 14 and 15 after the parenthesised command name
  local stat
  stat="$(cat "/proc/$1/stat" 2>/dev/null)" || return 1
  stat="${stat##*) }"
  read -r -a fields <<< "$stat"
  echo $(( fields[11] + fields[12] ))
}

run_target() {
  local target="$1" globs="$2"
  local seeds corpus log start_wall ticks=0 pid status finding=""
  seeds="$(mktemp -d)"
  [ -d "Seeds/$target" ] && cp Seeds/"$target"/* "$seeds"/
  for glob in $globs; do
    for file in "$ROOT"/Corpus/$glob; do if [ -f "$file" ]; then cp "$file" "$seeds/"; fi; done
  done
  corpus="$WORK/corpus-$target"
  mkdir -p "$corpus"
  log="$WORK/campaign-$target.log"
  local dict=()
  [[ "$JSON_TARGETS" == *" $target "* ]] && dict=(-dict="$FUZZ/json.dict")
  [ -n "${DICTS[$target]:-}" ] && dict=(-dict="$FUZZ/${DICTS[$target]}")
  local limits=()
  read -r -a limits <<< "${LIMITS[$target]:-}"
  local started
  started="$(date -u +%Y-%m-%dT%H:%M:%SZ)"
  start_wall=$(date +%s)
  # libFuzzer's -timeout is wall time: a fuzzer starved of CPU (a loaded machine, a high nice) can be stopped on an
  # input that is fast. A timeout is therefore replayed at once in a new process; when the replay takes under a
  # second the row says the fuzzer was starved, the input is moved aside, and the target goes on where it was (the
  # corpus is kept) until the budget is spent (three restarts at most).
  local spent=0 restarts=0 starved=""
  : > "$log"
  while :; do
    nice -n "$NICE" "$BIN/$target" -max_total_time="$WALL_LIMIT" -max_len="${FUZZ_MAX_LEN:-16384}" \
      -timeout=10 -rss_limit_mb=2048 "${limits[@]}" -print_final_stats=1 "${dict[@]}" \
      -artifact_prefix="$FUZZ/findings/$target-" "$corpus" "$seeds" >> "$log" 2>&1 &
    pid=$!
    ticks=$spent
    while kill -0 "$pid" 2>/dev/null; do
      local now
      now="$(cpu_ticks "$pid")" || break
      ticks=$((spent + now))
      if [ "$ticks" -ge $((BUDGET * CLK_TCK)) ]; then kill -INT "$pid"; break; fi
      sleep 1
    done
    wait "$pid"; status=$?
    spent=$ticks
    [ "$status" -eq 70 ] || break
    local unit replay
    unit="$(grep -oE "Test unit written to [^ ]+" "$log" | tail -1 | sed 's/Test unit written to //')"
    [ -f "$unit" ] || break
    replay="$( { /usr/bin/time -f '%e' "$BIN/$target" "$unit" > /dev/null 2>/dev/null; } 2>&1 | tail -1)"
    awk -v t="$replay" 'BEGIN { exit !(t + 0 < 1) }' || break
    mkdir -p "$FUZZ/findings/starved"
    mv "$unit" "$FUZZ/findings/starved/"
    starved="${starved:+$starved; }timeout not reproduced (replay ${replay} s: the fuzzer was starved of CPU)"
    restarts=$((restarts + 1))
    [ "$restarts" -le 3 ] && [ "$ticks" -lt $((BUDGET * CLK_TCK)) ] || { status=72; break; }
  done
  local wall=$(( $(date +%s) - start_wall ))
  local cpu=$(( ticks / CLK_TCK ))
  local execs cov ft files
  execs="$(awk '/stat::number_of_executed_units/ {s += $2; n++} END {if (n) print s}' "$log")"
  read -r cov ft <<< "$(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$log" | tail -1 | awk '{print $2, $4}')"
  files="$(find "$corpus" -type f | wc -l)"
  # 0: stopped by -max_total_time; 72: stopped by our SIGINT at the budget. Anything else found something.
  case "$status" in
    0) finding="wall limit before the CPU budget" ;;
    72) finding="$starved" ;;
    *) finding="$(grep -m1 -oE 'ERROR: [A-Za-z]+: [A-Za-z-]+|deadly signal|fuzz property[^\n]*|timeout|out-of-memory' "$log")"
       finding="${finding:-exit $status}" ;;
  esac
  local rate=0
  [ "$cpu" -gt 0 ] && [ -n "$execs" ] && rate=$(( execs / cpu ))
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$target" "$started" "$cpu" "$wall" "${execs:-?}" "$rate" \
    "${cov:-?}" "${ft:-?}" "$files" "$status" "$finding" >> "$TABLE"
  echo "  $target: ${cpu} CPU s, ${wall} s wall, ${execs:-?} execs, cov ${cov:-?} ft ${ft:-?}, exit $status ${finding}"
  rm -rf "$seeds"
  case "$status" in 0|72) return 0 ;; *) return 1 ;; esac
}

selected=" $* "
queue=()
for line in "${TARGETS[@]}"; do
  read -r target _ globs <<< "$line"
  [ "$#" -eq 0 ] || [[ "$selected" == *" $target "* ]] || continue
  queue+=("$target|$globs")
done

echo "== ${#queue[@]} target(s), $BUDGET CPU-seconds each, $PARALLEL at a time, nice $NICE"
failed=0
running=0
for item in "${queue[@]}"; do
  if [ "$running" -ge "$PARALLEL" ]; then wait -n || failed=1; running=$((running - 1)); fi
  echo "== ${item%%|*} ($(date -u +%H:%M:%S))"
  run_target "${item%%|*}" "${item#*|}" &
  running=$((running + 1))
done
while [ "$running" -gt 0 ]; do wait -n || failed=1; running=$((running - 1)); done
echo "campaign: rows appended to $TABLE"
exit "$failed"
