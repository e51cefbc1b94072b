#!/usr/bin/env bash
# Text output fits the terminal (issue 46): every text view of the shared corpus, in every command that prints
# tables, has no line wider than COLUMNS, or 100 columns when COLUMNS is unset or not a number; --wide prints cells
# whole. Widths are display columns (East Asian wide characters count two).
set -euo pipefail
: "${BIN:?BIN must point at the release apm-inspect binary}"
: "${SHARED:?SHARED must point at the shared folder}"
CORPUS="$SHARED/corpus"
[ -d "$CORPUS" ] || { echo "FAIL: $CORPUS is missing"; exit 1; }
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

widest() {
  python3 -c '
import sys, unicodedata
def width(line):
    return sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line)
print(max([width(l) for l in sys.stdin.read().split("\n")] or [0]))'
}

failures=0
check() {
  local limit="$1" columns="$2"; shift 2
  local status=0
  if [ -n "$columns" ]; then
    env COLUMNS="$columns" "$BIN" "$@" > "$WORK/out" 2> "$WORK/err" || status=$?
  else
    env -u COLUMNS "$BIN" "$@" > "$WORK/out" 2> "$WORK/err" || status=$?
  fi
  if [ "$status" -gt 1 ]; then echo "FAIL: $* exited $status"; failures=$((failures + 1)); return; fi
  local w; w="$(widest < "$WORK/out")"
  if [ "$w" -gt "$limit" ]; then
    echo "FAIL: COLUMNS=${columns:-unset} $*: a line of $w columns (limit $limit)"
    awk -v l="$limit" 'length($0) > l' "$WORK/out" | head -3
    failures=$((failures + 1))
  else
    echo "  ok $w <= $limit: COLUMNS=${columns:-unset} $*"
  fi
}

runs=(
  "scan $CORPUS" "report $CORPUS" "memory-limits $CORPUS" "energy $CORPUS/powerlog" "http $CORPUS/http"
  "inspect $CORPUS" "inspect --threads all --images --registers $CORPUS/crash"
)
for run in "${runs[@]}"; do
  # shellcheck disable=SC2086
  check 100 "" $run
  # shellcheck disable=SC2086
  check 100 "not-a-number" $run
  # shellcheck disable=SC2086
  check 80 80 $run
done

# --wide prints cells whole: the corpus has lines longer than 100 columns once nothing is shortened.
"$BIN" scan --wide "$CORPUS" > "$WORK/wide" 2>/dev/null || true
"$BIN" inspect --wide "$CORPUS/crash" >> "$WORK/wide" 2>/dev/null || true
if [ "$(widest < "$WORK/wide")" -le 100 ]; then
  echo "FAIL: --wide printed nothing wider than 100 columns"; failures=$((failures + 1))
fi

[ "$failures" -eq 0 ] || { echo "FAIL: $failures text output(s) wider than the terminal"; exit 1; }
echo "table width: every text view within COLUMNS"
