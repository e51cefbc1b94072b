#!/usr/bin/env bash
# Times `apm-inspect energy` on the real PowerLog database next to the same summary in the sqlite3 shell.
#
#   Benchmarks/scripts/powerlog_compare.sh [DB] [RUNS]
#     DB    default: ../shared/corpus/powerlog/powerlog_2021-12-16_05-54_84E2141B.PLSQL
#     RUNS  default: 21
#   ROWS_DB  default: Benchmarks/data/powerlog-rows-1000000.PLSQL, generated when absent
#            (generate_powerlog_rows.py --rows 1000000); ROWS_DB=none skips the 1M-row rows
#   SMALL_ROWS_DB  default: Benchmarks/data/powerlog-rows-100000.PLSQL, generated when absent (--rows 100000): the
#            JSON pair again at a tenth of the rows, for the growth of time and memory with the row count;
#            SMALL_ROWS_DB=none skips it
#   APM_INSPECT_BIN=path/to/apm-inspect (or BIN=) to skip the release build.
#
# Each command is timed by bench_lib.sh's `measure` (median wall and CPU, min wall, peak RSS; rows to $BENCH_TSV,
# family `powerlog`). The queries are Benchmarks/scripts/powerlog_queries.sql, so the recorded command repeats as is.
#
# The sqlite3 side runs the queries a person would write for the same figures: energy per consumer and per root node
# (hourly buckets, node names joined), the time range with the per-row clock offset, and the battery level span.
# apm-inspect does more (schema census of every table, sessions, drain, run time, coalitions, exits), so the
# comparison is of the whole command a user runs against the queries for its headline figures.
set -euo pipefail
cd "$(dirname "$0")/../.."
DB="${1:-../shared/corpus/powerlog/powerlog_2021-12-16_05-54_84E2141B.PLSQL}"
RUNS="${2:-21}"
[ -f "$DB" ] || { echo "no database at $DB"; exit 1; }
command -v sqlite3 >/dev/null || { apt-get update -qq && apt-get install -y -qq sqlite3; }
. Benchmarks/scripts/bench_lib.sh
bench_family powerlog
bench_binary
SQL=Benchmarks/scripts/powerlog_queries.sql
bench_input "$DB"
echo "PowerLog summary on $(basename "$DB") ($(du -k "$DB" | cut -f1) KB), $RUNS runs, page cache warm"
load_check begin
measure "apm-inspect energy (text)" "$RUNS" -- "$BIN" energy "$DB"
measure "apm-inspect energy --format json" "$RUNS" -- "$BIN" energy --format json "$DB"
measure "apm-inspect inspect" "$RUNS" -- "$BIN" inspect "$DB"
measure "sqlite3 shell, the same headline queries" "$RUNS" -- sqlite3 -readonly "$DB" ".read $SQL"
load_check end

# The 1M-row database: the same pair, and the JSON output against the shell's JSON dump of the battery table.
ROWS_DB="${ROWS_DB:-Benchmarks/data/powerlog-rows-1000000.PLSQL}"
if [ "$ROWS_DB" != none ]; then
  [ -f "$ROWS_DB" ] || python3 Benchmarks/scripts/generate_powerlog_rows.py --rows 1000000 --out "$ROWS_DB"
  ROWS_RUNS="${ROWS_RUNS:-3}"
  bench_input "$ROWS_DB"
  echo "PowerLog summary on $(basename "$ROWS_DB") ($(du -k "$ROWS_DB" | cut -f1) KB), $ROWS_RUNS runs"
  load_check begin
  SMALL_ROWS_DB="${SMALL_ROWS_DB:-Benchmarks/data/powerlog-rows-100000.PLSQL}"
  if [ "$SMALL_ROWS_DB" != none ]; then
    [ -f "$SMALL_ROWS_DB" ] || python3 Benchmarks/scripts/generate_powerlog_rows.py --rows 100000 --out "$SMALL_ROWS_DB"
    measure "apm-inspect energy --format json, 100k rows" "$ROWS_RUNS" -- "$BIN" energy --format json "$SMALL_ROWS_DB"
    measure "sqlite3 -json, the battery table, 100k rows" "$ROWS_RUNS" -- \
      sqlite3 -readonly -json "$SMALL_ROWS_DB" "SELECT * FROM PLBatteryAgent_EventBackward_Battery"
  fi
  measure "apm-inspect energy (text), 1M rows" "$ROWS_RUNS" -- "$BIN" energy "$ROWS_DB"
  measure "sqlite3 shell, the same headline queries, 1M rows" "$ROWS_RUNS" -- sqlite3 -readonly "$ROWS_DB" ".read $SQL"
  measure "apm-inspect energy --format json, 1M rows" "$ROWS_RUNS" -- "$BIN" energy --format json "$ROWS_DB"
  measure "sqlite3 -json, the battery table, 1M rows" "$ROWS_RUNS" -- \
    sqlite3 -readonly -json "$ROWS_DB" "SELECT * FROM PLBatteryAgent_EventBackward_Battery"
  load_check end
fi
