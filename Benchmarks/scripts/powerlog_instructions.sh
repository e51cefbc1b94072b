#!/usr/bin/env bash
# Instruction counts (callgrind) of the PowerLog rows of docs/performance.md: the machine is shared, so counts, not
# wall time, say whether a change helped.
#
#   Benchmarks/scripts/powerlog_instructions.sh BIN [DB] [ROWS_DB]
#     DB       default: ../shared/corpus/powerlog/powerlog_2021-12-16_05-54_84E2141B.PLSQL
#     ROWS_DB  default: Benchmarks/data/powerlog-rows-1000000.PLSQL (skipped when absent; slow: minutes per row)
#
# Prints one line per command: instructions, then the command. SWIFT_DETERMINISTIC_HASHING=1 keeps the count from
# moving by a few percent between runs.
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN="${1:?usage: powerlog_instructions.sh BIN [DB] [ROWS_DB]}"
DB="${2:-../shared/corpus/powerlog/powerlog_2021-12-16_05-54_84E2141B.PLSQL}"
ROWS_DB="${3:-Benchmarks/data/powerlog-rows-1000000.PLSQL}"
SQL=Benchmarks/scripts/powerlog_queries.sql
count() {
  local n
  n=$(SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null \
    | sed -n 's/.*Collected : \([0-9]*\).*/\1/p')
  printf '%12s  %s\n' "$n" "$*"
}
count "$BIN" --version
count "$BIN" energy "$DB"
count "$BIN" energy --format json "$DB"
count "$BIN" inspect "$DB"
count sqlite3 -readonly "$DB" ".read $SQL"
if [ -f "$ROWS_DB" ]; then
  count "$BIN" energy "$ROWS_DB"
  count sqlite3 -readonly "$ROWS_DB" ".read $SQL"
  count "$BIN" energy --format json "$ROWS_DB"
  count sqlite3 -readonly -json "$ROWS_DB" "SELECT * FROM PLBatteryAgent_EventBackward_Battery"
fi
