#!/usr/bin/env bash
# Archives and encodings through the command, on inputs generated here: PAX long and non-ASCII member names, a
# sysdiagnose and a .har.gz whose start compresses extremely well, UTF-16 reports, hostile members (FIFO, device,
# escaping paths, links out), and gzip/tar bombs through scan, energy and http, each stopped by a named limit.
set -euo pipefail
: "${BIN:?BIN must name the apm-inspect binary}"
T="$(mktemp -d)"
trap 'rm -rf "$T"' EXIT
python3 - "$T" <<'PY'
import gzip, io, json, sys, tarfile, zlib
out = sys.argv[1]
jetsam = open("Corpus/jetsam/ios13.3.1_iPhone8-2_frontmost-per-process-limit_1450MB.ips", "rb").read()
crash = open("Corpus/crash/ios14.4_text_exc_bad_access_sigsegv_kern_invalid_address.crash", "rb").read()

def add(tar, name, data=b"", kind=tarfile.REGTYPE, link=""):
    info = tarfile.TarInfo(name)
    info.type, info.linkname, info.size = kind, link, len(data)
    tar.addfile(info, io.BytesIO(data) if kind == tarfile.REGTYPE else None)

# PAX: a long, non-ASCII member name that the ustar header can only hold truncated.
long_name = "sysdiagnose_x/crashes_and_spins/" + "Ünïcödé-" * 12 + "JetsamEvent.ips"
with tarfile.open(f"{out}/pax.tar.gz", "w:gz", format=tarfile.PAX_FORMAT) as tar:
    add(tar, long_name, jetsam)
# Hostile members.
with tarfile.open(f"{out}/hostile.tar", "w", format=tarfile.PAX_FORMAT) as tar:
    add(tar, "pipe.ips", kind=tarfile.FIFOTYPE)
    add(tar, "dev/sda.ips", kind=tarfile.BLKTYPE)
    add(tar, "../escape.ips", jetsam)
    add(tar, "/etc/absolute.ips", jetsam)
    add(tar, "out.ips", kind=tarfile.SYMTYPE, link="../../../etc/passwd")
    add(tar, "ok.ips", jetsam)
# A sysdiagnose whose first member is 8 MB of zeros, holding the corpus PowerLog.
with tarfile.open(f"{out}/sysdiagnose_2023.11.05_07-00-00-0500_iPhone-OS_iPhone_19H12.tar.gz", "w:gz") as tar:
    add(tar, "sysdiagnose_x/logs/zeros.bin", bytes(8 << 20))
    add(tar, "sysdiagnose_x/logs/powerlogs/powerlog.PLSQL",
        open("Corpus/powerlog/ios15_offset-change_D16AP_19H12.PLSQL", "rb").read())
# A HAR whose first megabytes are one comment.
har = json.dumps({"log": {"version": "1.2", "creator": {"name": "t", "version": "1", "comment": " " * (3 << 20)},
                          "entries": []}}).encode()
open(f"{out}/padded.har.gz", "wb").write(gzip.compress(har))
open(f"{out}/padded.zhar", "wb").write(zlib.compress(har))
# UTF-16 reports.
open(f"{out}/utf16le.crash", "wb").write(b"\xff\xfe" + crash.decode("utf-8").encode("utf-16-le"))
open(f"{out}/utf16be.ips", "wb").write(b"\xfe\xff" + jetsam.decode("utf-8").encode("utf-16-be"))
# Bombs: 160 MB of zeros in a tar member, in a capture, in a PowerLog.
class Zeros(io.RawIOBase):
    def __init__(self, n): self.left = n
    def readable(self): return True
    def readinto(self, b):
        k = min(len(b), self.left); b[:k] = bytes(k); self.left -= k; return k
with tarfile.open(f"{out}/bomb.tar.gz", "w:gz", compresslevel=9) as tar:
    info = tarfile.TarInfo("JetsamEvent-bomb.ips"); info.size = 160 << 20
    tar.addfile(info, io.BufferedReader(Zeros(160 << 20)))
body = b'{"log":{"entries":[' + b" " * (160 << 20) + b"]}}"
open(f"{out}/bomb.har.gz", "wb").write(gzip.compress(body, 9))
open(f"{out}/bomb.zhar", "wb").write(zlib.compress(body, 9))
open(f"{out}/bomb.PLSQL.gz", "wb").write(gzip.compress(b"SQLite format 3\x00" + bytes(160 << 20), 9))
PY

expect() { # expect STATUS PATTERN COMMAND...: runs the command, checks its status and that PATTERN is printed
  local want="$1" pattern="$2" status=0
  shift 2
  "$@" > "$T/out.txt" 2>&1 || status=$?
  [ "$status" -eq "$want" ] || { echo "FAIL: $* exited $status, expected $want"; tail -5 "$T/out.txt"; exit 1; }
  grep -qF -- "$pattern" "$T/out.txt" || { echo "FAIL: $*: '$pattern' is missing"; tail -5 "$T/out.txt"; exit 1; }
  echo "  ok $(basename "${@: -1}"): $pattern"
}

expect 0 '"kind":"jetsamEvent"' "$BIN" scan --format ndjson "$T/pax.tar.gz"
expect 0 'JetsamEvent.ips' "$BIN" scan --format ndjson "$T/pax.tar.gz"
expect 0 "member 'pipe.ips' is a FIFO (named pipe); ignored" "$BIN" scan "$T/hostile.tar"
expect 0 "member 'dev/sda.ips' is a block device node; ignored" "$BIN" scan "$T/hostile.tar"
expect 0 "skipped member '../escape.ips'" "$BIN" scan "$T/hostile.tar"
expect 0 "skipped member '/etc/absolute.ips'" "$BIN" scan "$T/hostile.tar"
expect 0 "link 'out.ips' → '../../../etc/passwd' not followed" "$BIN" scan "$T/hostile.tar"
expect 0 'PowerLog' "$BIN" energy "$T/sysdiagnose_2023.11.05_07-00-00-0500_iPhone-OS_iPhone_19H12.tar.gz"
expect 0 '"kind" : "httpArchive"' "$BIN" inspect --format json "$T/padded.har.gz"
expect 0 '"kind" : "httpArchive"' "$BIN" inspect --format json "$T/padded.zhar"
expect 0 '"kind" : "crashReport"' "$BIN" inspect --format json "$T/utf16le.crash"
expect 0 'read as UTF-16BE text' "$BIN" inspect --format json "$T/utf16be.ips"
expect 0 'expansion-ratio limit reached' "$BIN" scan "$T/bomb.tar.gz"
expect 1 'expansion-ratio limit: 100:1' "$BIN" scan "$T/bomb.har.gz"
expect 1 'expansion-ratio limit: 100:1' "$BIN" http "$T/bomb.har.gz"
expect 1 'expansion-ratio limit: 100:1' "$BIN" http "$T/bomb.zhar"
expect 1 'expansion-ratio limit: 100:1' "$BIN" energy "$T/bomb.PLSQL.gz"
expect 1 'the archive holds no PowerLog database; expansion-ratio limit reached' "$BIN" energy "$T/bomb.tar.gz"
