#!/usr/bin/env bash
# Evidence: every command, on every kind of input, leaves the input folder byte-for-byte as it was (file list,
# sizes, modes, content hashes) and the temporary folder empty — including a WAL-mode PowerLog copied without its
# -wal file, a .PLSQL.gz padded with zeros, and Ctrl-C in the middle of a large inflate. A FIFO is read once (no
# hang) and /dev/zero stops at the read limit. Run by .ci/run with BIN (release apm-inspect); the databases are
# generated here, in a private folder removed at the end.
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${BIN:?BIN must be the path of the apm-inspect binary}"
command -v python3 >/dev/null || { echo "FAIL: python3 is needed to generate the databases"; exit 1; }

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
EVIDENCE="$WORK/evidence"
export TMPDIR="$WORK/tmp"
mkdir -p "$EVIDENCE" "$TMPDIR" "$WORK/bomb" "$WORK/fifo"

python3 - "$EVIDENCE" "$WORK/bomb" <<'PY'
import sqlite3, zlib, sys, os
evidence, bomb = sys.argv[1], sys.argv[2]

def powerlog(path, wal):
    con = sqlite3.connect(path)
    if wal:
        con.execute("PRAGMA journal_mode=WAL")
    con.executescript("""
        CREATE TABLE PLStorageOperator_EventForward_TimeOffset (ID INTEGER PRIMARY KEY, timestamp REAL, system REAL);
        INSERT INTO PLStorageOperator_EventForward_TimeOffset (timestamp, system) VALUES (1000000000, 30);
        CREATE TABLE PLBatteryAgent_EventBackward_BatteryUI (ID INTEGER PRIMARY KEY, timestamp REAL,
          IsCharging INTEGER, Level REAL);
    """)
    con.executemany("INSERT INTO PLBatteryAgent_EventBackward_BatteryUI (timestamp, IsCharging, Level) VALUES (?, 0, ?)",
                    [(1000000000 + 60 * i, 100 - i * 0.05) for i in range(2000)])
    con.commit()
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    for suffix in ("-wal", "-shm"):
        if os.path.exists(path + suffix):
            os.remove(path + suffix)
    return open(path, "rb").read()

def gzip(path, head, zeros):
    z = zlib.compressobj(1, zlib.DEFLATED, 31)
    with open(path, "wb") as f:
        f.write(z.compress(head))
        block = bytes(1 << 20)
        left = zeros
        while left > 0:
            f.write(z.compress(block[:min(left, len(block))]))
            left -= len(block)
        f.write(z.flush())

data = powerlog(evidence + "/CurrentPowerlog.PLSQL", wal=True)
assert data[18] == 2 and data[19] == 2, "the generated database is not in WAL mode"
# A database followed by zeros: only the database is worth inflating.
gzip(evidence + "/padded.PLSQL.gz", data, 64 << 20)
# A header whose page count cannot be trusted (change counter mismatch, as before SQLite 3.7.0) followed by 2 GiB of
# zeros: only the decompression limit bounds it, which leaves time to interrupt it.
legacy = bytearray(data)
legacy[95] ^= 0xFF
gzip(bomb + "/legacy.PLSQL.gz", bytes(legacy), 2 << 30)
PY
for f in Corpus/jetsam/*.ips Corpus/crash/ios14.4_text_exc_bad_access_sigsegv_kern_invalid_address.crash \
  Corpus/crash/ios17.2.1_309_json_exc_crash_sigabrt_nsexception_leb_unknown_keys.ips \
  Corpus/http/chrome_h2_ssl-inside-connect.har Corpus/http/chrome_h2_ssl-inside-connect.har.gz \
  Corpus/http/generated_http1_dns.pcap Corpus/sysdiagnose/*.tar.gz; do
  [ -f "$f" ] && cp "$f" "$EVIDENCE/"
done
chmod -R a-w "$EVIDENCE" 2>/dev/null || true
chmod u+w "$EVIDENCE"  # the folder itself stays writable: SQLite would create -shm/-wal there if it could

snapshot() {
  (cd "$EVIDENCE" && find . -printf '%p %y %s %m\n' | LC_ALL=C sort && find . -type f -print0 | LC_ALL=C sort -z \
    | xargs -0 sha256sum)
}
BEFORE="$(snapshot)"
check() {
  local what="$1" after
  after="$(snapshot)"
  if [ "$after" != "$BEFORE" ]; then
    echo "FAIL: $what changed the input folder:"; diff <(echo "$BEFORE") <(echo "$after") || true; exit 1
  fi
  if [ -n "$(ls -A "$TMPDIR")" ]; then
    echo "FAIL: $what left temporary files:"; ls -laR "$TMPDIR"; exit 1
  fi
}

runs=0
for command in inspect scan energy http translate memory-limits; do
  for input in "$EVIDENCE" "$EVIDENCE"/*; do
    status=0
    timeout 120 "$BIN" "$command" "$input" > "$WORK/out" 2> "$WORK/err" || status=$?
    if [ "$status" -gt 2 ]; then
      echo "FAIL: $command $input exited with $status"; tail -5 "$WORK/err"; exit 1
    fi
    check "$command $(basename "$input")"
    runs=$((runs + 1))
  done
done
for input in "$EVIDENCE" "$EVIDENCE"/*; do
  rm -rf "$WORK/anonymized"
  status=0
  timeout 120 "$BIN" anonymize "$input" -o "$WORK/anonymized" > "$WORK/out" 2> "$WORK/err" || status=$?
  if [ "$status" -gt 2 ]; then
    echo "FAIL: anonymize $input exited with $status"; tail -5 "$WORK/err"; exit 1
  fi
  check "anonymize $(basename "$input")"
  runs=$((runs + 1))
done
echo "  ok: $runs runs (7 commands × every input and the folder) left the input folder and TMPDIR untouched"

# The padded gzip is read (inflating stops at the database's declared size) with the warning saying so.
"$BIN" energy --format json "$EVIDENCE/padded.PLSQL.gz" > "$WORK/padded.json"
python3 - "$WORK/padded.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert any(x["code"] == "powerlog.gzip-past-declared-size" for x in d["diagnostics"]), d["diagnostics"]
assert len(d["report"]["battery"]["samples"]) == 2000
PY
echo "  ok: the padded .PLSQL.gz is inflated only as far as its database"

# FIFOs: read once, never opened a second time (the old behaviour hung here forever).
mkfifo "$WORK/fifo/stream"
for command in inspect scan energy; do
  cat "$EVIDENCE/CurrentPowerlog.PLSQL" > "$WORK/fifo/stream" &
  writer=$!
  status=0
  timeout 60 "$BIN" "$command" --format json "$WORK/fifo/stream" > "$WORK/out" 2> "$WORK/err" || status=$?
  kill "$writer" 2>/dev/null || true
  wait "$writer" 2>/dev/null || true
  [ "$status" -eq 0 ] || { echo "FAIL: $command on a FIFO carrying SQLite exited with $status"; cat "$WORK/err"; exit 1; }
  grep -q '"powerLog"\|"battery"' "$WORK/out" || { echo "FAIL: $command on a FIFO did not read the database"; exit 1; }
  check "$command on a FIFO"
done
# The text of one database folds rows from a file SQLite opens: a FIFO must not be sniffed (opened) first.
cat "$EVIDENCE/CurrentPowerlog.PLSQL" > "$WORK/fifo/stream" &
writer=$!
status=0
timeout 60 "$BIN" energy "$WORK/fifo/stream" > "$WORK/out" 2> "$WORK/err" || status=$?
kill "$writer" 2>/dev/null || true
wait "$writer" 2>/dev/null || true
[ "$status" -eq 0 ] || { echo "FAIL: energy (text) on a FIFO carrying SQLite exited with $status"; cat "$WORK/err"; exit 1; }
check "energy (text) on a FIFO"
printf 'plain text\n' > "$WORK/fifo/stream" &
writer=$!
status=0
timeout 60 "$BIN" scan "$WORK/fifo/stream" > /dev/null 2>&1 || status=$?
wait "$writer" 2>/dev/null || true
[ "$status" -le 1 ] || { echo "FAIL: scan on a FIFO carrying text exited with $status"; exit 1; }
echo "  ok: inspect, scan and energy read a FIFO once"

# /dev/zero: a device is refused at once; an endless pipe stops at the 1 GiB read limit, with the limit named.
status=0
timeout 20 "$BIN" inspect /dev/zero > /dev/null 2> "$WORK/err" || status=$?
[ "$status" -eq 1 ] && grep -q "a character device, not a file" "$WORK/err" \
  || { echo "FAIL: inspect /dev/zero exited with $status"; cat "$WORK/err"; exit 1; }
status=0
timeout 120 bash -c 'head -c 2000000000 /dev/zero | "$1" inspect /dev/stdin' _ "$BIN" > /dev/null 2> "$WORK/err" \
  || status=$?
[ "$status" -eq 1 ] && grep -q "read limit of 1073741824 bytes" "$WORK/err" \
  || { echo "FAIL: inspect of an endless pipe exited with $status"; cat "$WORK/err"; exit 1; }
echo "  ok: /dev/zero is refused as a device; an endless pipe stops at the read limit"

# Ctrl-C during a large inflate: the partial copy is removed and the exit status says SIGINT.
for command in energy inspect scan; do
  "$BIN" "$command" "$WORK/bomb/legacy.PLSQL.gz" > /dev/null 2>&1 &
  pid=$!
  for _ in $(seq 1 200); do
    [ -n "$(find "$TMPDIR" -type f -size +1M 2>/dev/null | head -1)" ] && break
    sleep 0.1
  done
  [ -n "$(find "$TMPDIR" -type f -size +1M | head -1)" ] || { echo "FAIL: $command never started inflating"; exit 1; }
  kill -INT "$pid"
  status=0
  wait "$pid" || status=$?
  [ "$status" -eq 130 ] || { echo "FAIL: $command exited with $status after SIGINT"; exit 1; }
  [ -z "$(ls -A "$TMPDIR")" ] || { echo "FAIL: $command left its partial copy after SIGINT"; ls -laR "$TMPDIR"; exit 1; }
done
echo "  ok: SIGINT during an inflate removes the partial copy (energy, inspect, scan)"
check "the whole step"
echo "evidence checks passed"
