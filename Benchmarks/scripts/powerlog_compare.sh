#!/usr/bin/env bash
# Times `apm-inspect energy` on the real PowerLog database next to the same summary in the sqlite3 shell.
#
#   Benchmarks/scripts/powerlog_compare.sh [DB] [RUNS]
#     DB    default: ../shared/corpus/powerlog/powerlog_2021-12-16_05-54_84E2141B.PLSQL
#     RUNS  default: 21
#   BIN=path/to/apm-inspect to skip the release build.
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
if [ -z "${BIN:-}" ]; then
  swift build -c release --product apm-inspect >/dev/null
  BIN="$(swift build -c release --show-bin-path)/apm-inspect"
fi
SQL="$(mktemp)"
trap 'rm -f "$SQL" /tmp/powerlog-bench.out' EXIT
cat > "$SQL" <<'Q'
.mode list
SELECT n.Name, SUM(e.Energy) AS energy
  FROM PLAccountingOperator_Aggregate_RootNodeEnergy e
  JOIN PLAccountingOperator_EventNone_Nodes n ON n.ID = e.NodeID
 WHERE e.timeInterval = 3600 GROUP BY n.Name ORDER BY energy DESC;
SELECT r.Name, SUM(e.Energy) AS energy
  FROM PLAccountingOperator_Aggregate_RootNodeEnergy e
  JOIN PLAccountingOperator_EventNone_Nodes r ON r.ID = e.RootNodeID
 WHERE e.timeInterval = 3600 GROUP BY r.Name ORDER BY energy DESC;
SELECT datetime(b.timestamp + (SELECT o.system FROM PLStorageOperator_EventForward_TimeOffset o
                                WHERE o.timestamp <= b.timestamp ORDER BY o.timestamp DESC LIMIT 1), 'unixepoch'),
       b.Level, b.IsCharging
  FROM PLBatteryAgent_EventBackward_Battery b ORDER BY b.timestamp;
SELECT MIN(Level), MAX(Level) FROM PLBatteryAgent_EventBackward_Battery;
Q

# Milliseconds of one run of the command.
once() {
  local start end
  start=$(date +%s%N)
  "$@" > /tmp/powerlog-bench.out 2>&1
  end=$(date +%s%N)
  echo $(( (end - start) / 1000 ))
}
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
measure() { # name, command...
  local name="$1"; shift
  local times=()
  "$@" > /dev/null 2>&1 # warm the page cache
  for _ in $(seq "$RUNS"); do times+=("$(once "$@")"); done
  /usr/bin/time -f "%M" -o /tmp/powerlog-bench.rss "$@" > /dev/null 2>&1
  printf '%-34s median %7.1f ms   min %7.1f ms   peak RSS %6.1f MB\n' "$name" \
    "$(printf '%s\n' "${times[@]}" | median | awk '{print $1/1000}')" \
    "$(printf '%s\n' "${times[@]}" | sort -n | head -1 | awk '{print $1/1000}')" \
    "$(awk '{print $1/1024}' /tmp/powerlog-bench.rss)"
}
echo "PowerLog summary on $(basename "$DB") ($(du -k "$DB" | cut -f1) KB), $RUNS runs, page cache warm"
measure "apm-inspect energy (text)" "$BIN" energy "$DB"
measure "apm-inspect energy --format json" "$BIN" energy --format json "$DB"
measure "apm-inspect inspect" "$BIN" inspect "$DB"
measure "sqlite3 shell, the same headline queries" sqlite3 -readonly "$DB" ".read $SQL"
