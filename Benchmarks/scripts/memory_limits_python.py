#!/usr/bin/env python3
"""Per-device app memory limits from JetsamEvent reports: the baseline a Python user would write.

    python3 memory_limits_python.py [--json-module orjson|json] [--workers N] PATH...

It is the comparison point for `apm-inspect memory-limits` (speed) and a cross-check of its numbers.

What it does, per file (folders are walked recursively, every regular file is read; names and
extensions are not trusted):

1. Split line 1 (the IPS header) from the rest (the body) and parse both strictly with the chosen JSON
   module. If line 1 is not a JSON object with a `bug_type` and the whole file is one JSON object
   that looks like a jetsam body (`memoryStatus` + `processes`), the file is taken as a headerless
   body.
2. Require bug_type "298" (header, else body). Other bug_types are counted as "not jetsam".
   A file whose header or body is not strict JSON (comments, `...` elisions, trailing commas,
   truncation) is counted as "unreadable" and named on stderr: this baseline has no tolerant mode.
   A file whose first non-blank byte is not `{` (a README, a text crash log) is counted as "notjson".
3. De-duplicate on (incident, crashReporterKey) (header `incident_id`, else body `incident`). The
   first path in sorted order wins.
4. pageSize = memoryStatus.pageSize, else a top-level pageSize. Never a default: a report without
   one is counted as "no pageSize" and its kills are not used.
5. For each process with reason == "per-process-limit":
       footprint = rpages * pageSize;   limit_mb = floor(footprint / 2^20)
   and a role, first rule that matches wins:
       daemon       states has "daemon", or name is kernel_task / launchd / SpringBoard / backboardd
       extension    name ends with "Extension", "Ext" or "Extensio" (32-char truncation of
                    "...Extension"), or contains ".appex"
       foreground   states has "frontmost"
       background   anything else (suspended / background apps: the inactive limit)
6. Aggregate per (product, os_version): unique reports, and count/min/median/max of limit_mb for
   foreground, background and extension kills (median = statistics.median, so an even count gives
   the mean of the two middle values). Daemon kills are only counted.
   macOS (os_version "macOS ..."/"Mac OS X ...", product "Mac...") and other non-iOS reports are
   left out of the table (they have no app limit) and counted on stderr. Beta builds (build code
   ending in a lowercase letter, e.g. 21A5291j) stay in the table with flag "beta".

Output: CSV on stdout, one row per (product, os_version), sorted; a summary on stderr.
With --workers N the files are parsed by a multiprocessing Pool(N); the aggregation is the same.
"""

from __future__ import annotations

import argparse
import csv
import os
import re
import statistics
import sys
import time

MiB = 1 << 20
SYSTEM_NAMES = frozenset(("kernel_task", "launchd", "SpringBoard", "backboardd"))
EXT_SUFFIXES = ("Extension", "Ext", "Extensio")
BUILD_RE = re.compile(r"^(.*?)\s*\(([0-9A-Za-z]+)\)\s*$")
BETA_RE = re.compile(r"\d[a-z]$")

loads = None  # set in init_json (also in each worker process)


def init_json(module: str) -> None:
    global loads
    if module == "orjson":
        import orjson
        loads = orjson.loads
    else:
        import json
        loads = json.loads


def role_of(proc: dict) -> str:
    states = proc.get("states") or ()
    name = proc.get("name") or ""
    if "daemon" in states or name in SYSTEM_NAMES:
        return "daemon"
    if name.endswith(EXT_SUFFIXES) or ".appex" in name:
        return "extension"
    if "frontmost" in states:
        return "foreground"
    return "background"


def is_ios(os_version: str, product: str) -> bool:
    if product.startswith("Mac") or os_version.startswith(("macOS", "Mac OS")):
        return False
    return os_version.startswith(("iPhone OS", "iPadOS", "iOS")) or product.startswith(("iPhone", "iPad", "iPod"))


def read_report(path: str):
    """Returns (status, payload). status: ok | nopagesize | unreadable | notjetsam | notjson | error."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        return ("error", f"{path}: {e.strerror}")
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    if not data.lstrip()[:1] == b"{":
        return ("notjson", path)  # README, text crash log, binary...: not a JSON report at all
    nl = data.find(b"\n")
    first = data if nl < 0 else data[:nl]
    header = None
    body = None
    try:
        obj = loads(first)
        if isinstance(obj, dict):
            if "bug_type" in obj and "processes" not in obj:
                header = obj
            elif "processes" in obj:  # a one-line body
                body = obj
    except ValueError:
        pass
    if header is not None:
        if str(header.get("bug_type")) != "298":
            return ("notjetsam", path)
        try:
            body = loads(data[nl + 1:]) if nl >= 0 else None
        except ValueError:
            return ("unreadable", path)
    elif body is None:
        try:
            body = loads(data)  # headerless body
        except ValueError:
            return ("unreadable", path)
    if not isinstance(body, dict):
        return ("unreadable", path)
    if header is None:
        bt = body.get("bug_type")
        if bt is not None and str(bt) != "298":
            return ("notjetsam", path)
        if bt is None and not ("memoryStatus" in body and "processes" in body):
            return ("notjetsam", path)
        header = {}
    procs = body.get("processes")
    if not isinstance(procs, list):
        return ("unreadable", path)

    incident = header.get("incident_id") or body.get("incident")
    key = body.get("crashReporterKey")
    dedupe = (incident, key) if (incident or key) else (path, None)
    os_version = header.get("os_version") or body.get("build") or ""
    product = body.get("product") or ""

    ms = body.get("memoryStatus")
    page_size = ms.get("pageSize") if isinstance(ms, dict) else None
    if page_size is None:
        page_size = body.get("pageSize")
    kills = []
    if page_size:
        for p in procs:
            if isinstance(p, dict) and p.get("reason") == "per-process-limit":
                rpages = p.get("rpages")
                if isinstance(rpages, int):
                    kills.append((role_of(p), rpages * page_size // MiB))
    return ("ok" if page_size else "nopagesize", (path, dedupe, product, os_version, kills))


def walk(paths):
    out = []
    for p in paths:
        if os.path.isdir(p):
            for root, dirs, files in os.walk(p):
                dirs.sort()
                for fn in files:
                    full = os.path.join(root, fn)
                    if os.path.isfile(full):
                        out.append(full)
        else:
            out.append(p)
    return sorted(out)


def fmt_median(vals):
    if not vals:
        return ""
    m = statistics.median(vals)
    return str(int(m)) if m == int(m) else f"{m:.1f}"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("paths", nargs="+", metavar="PATH")
    ap.add_argument("--json-module", choices=("orjson", "json"), default="orjson")
    ap.add_argument("--workers", type=int, default=1, help="processes in a multiprocessing Pool (1 = no pool)")
    ap.add_argument("--quiet", action="store_true", help="do not list unreadable files on stderr")
    args = ap.parse_args(argv)

    t0 = time.perf_counter()
    init_json(args.json_module)
    files = walk(args.paths)
    if args.workers > 1:
        import multiprocessing as mp
        with mp.Pool(args.workers, initializer=init_json, initargs=(args.json_module,)) as pool:
            results = pool.map(read_report, files, chunksize=max(1, min(64, len(files) // (args.workers * 8) or 1)))
    else:
        results = [read_report(f) for f in files]

    counts = {"files": len(files), "reports": 0, "duplicates": 0, "unreadable": 0, "notjetsam": 0, "notjson": 0,
              "nopagesize": 0, "excluded_platform": 0, "error": 0}
    seen = set()
    rows: dict[tuple[str, str], dict] = {}
    unreadable = []
    excluded = []
    for status, payload in results:  # results are in sorted path order
        if status in ("unreadable", "error"):
            counts[status] += 1
            unreadable.append(payload)
            continue
        if status in ("notjetsam", "notjson"):
            counts[status] += 1
            continue
        path, dedupe, product, os_version, kills = payload
        if dedupe in seen:
            counts["duplicates"] += 1
            continue
        seen.add(dedupe)
        if not is_ios(os_version, product):
            counts["excluded_platform"] += 1
            excluded.append(f"{path} ({product}, {os_version}, {len(kills)} per-process-limit kill(s))")
            continue
        counts["reports"] += 1
        if status == "nopagesize":
            counts["nopagesize"] += 1
        row = rows.setdefault((product, os_version), {"reports": 0, "foreground": [], "background": [],
                                                      "extension": [], "daemon": []})
        row["reports"] += 1
        for role, mb in kills:
            row[role].append(mb)

    w = csv.writer(sys.stdout, lineterminator="\n")
    w.writerow(["product", "os_version", "build", "flags", "reports",
                "fg_n", "fg_min_mb", "fg_median_mb", "fg_max_mb",
                "bg_n", "bg_min_mb", "bg_median_mb", "bg_max_mb",
                "ext_n", "ext_min_mb", "ext_median_mb", "ext_max_mb", "daemon_n"])
    for (product, os_version), row in sorted(rows.items()):
        m = BUILD_RE.match(os_version)
        version, build = (m.group(1), m.group(2)) if m else (os_version, "")
        flags = "beta" if BETA_RE.search(build) else ""
        cells = [product, version, build, flags, row["reports"]]
        for cls in ("foreground", "background", "extension"):
            v = row[cls]
            cells += [len(v), min(v) if v else "", fmt_median(v), max(v) if v else ""]
        cells.append(len(row["daemon"]))
        w.writerow(cells)
    sys.stdout.flush()

    elapsed = time.perf_counter() - t0
    if not args.quiet:
        for u in unreadable:
            print(f"unreadable: {u}", file=sys.stderr)
        for e in excluded:
            print(f"excluded (not iOS): {e}", file=sys.stderr)
    print("summary: " + " ".join(f"{k}={v}" for k, v in counts.items())
          + f" json={args.json_module} workers={args.workers} elapsed={elapsed:.3f}s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
