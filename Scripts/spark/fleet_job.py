#!/usr/bin/env python3
"""The fleet report's crash groups, computed by Apache Spark over a directory of reports.

Parsing is stateless per file, so the fan-out is plain: the driver lists the files, each partition runs
`apm-inspect scan --format ndjson` over its share (in batches, one process per batch), keeps a few facts of every
crash envelope, and the groups are merged by signature with `reduceByKey`. The result has the shape and the
order of `apm-inspect report --format json` under `crashes` (groups, total, newestVersion, newInNewestVersion,
perDay), so the two can be compared key by key (.ci/steps/spark.sh does). The value lists here are exact; the
report caps them (32 versions, 64 devices, 400 days per group), so the two agree while a group stays under the caps.

    fleet_job.py --bin .build/release/apm-inspect --input DIR --output groups.json [--master local[2]]

See docs/scale-out.md for running it on a cluster and sending the NDJSON to Kafka or Elasticsearch instead.
"""
import argparse
import datetime
import functools
import json
import math
import os
import subprocess
import sys


def version_compare(lhs, rhs):
    """-1, 0 or 1, as apm-inspect orders versions (VersionOrder.swift): digit runs as numbers, `1.10` after `1.9`."""

    def runs(text):
        out, i, data = [], 0, text.encode()
        while i < len(data):
            digits = 48 <= data[i] <= 57
            j = i
            while j < len(data) and (48 <= data[j] <= 57) == digits:
                j += 1
            out.append((digits, data[i:j]))
            i = j
        return out

    left, right = runs(lhs), runs(rhs)
    for (ld, lr), (rd, rr) in zip(left, right):
        if ld != rd:
            return -1 if ld else 1
        if ld:
            lr, rr = lr.lstrip(b"0"), rr.lstrip(b"0")
            if len(lr) != len(rr):
                return -1 if len(lr) < len(rr) else 1
        if lr != rr:
            return -1 if lr < rr else 1
    # Whatever runs remain: the one with fewer bytes left first (both sides end on a run boundary).
    lrest = sum(len(r) for _, r in left[len(right):]) if len(left) > len(right) else 0
    rrest = sum(len(r) for _, r in right[len(left):]) if len(right) > len(left) else 0
    if lrest != rrest:
        return -1 if lrest < rrest else 1
    lb, rb = lhs.encode(), rhs.encode()
    return (lb > rb) - (lb < rb)


def epoch(iso):
    if not iso:
        return None
    try:
        return datetime.datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp()
    except ValueError:
        return None


# The bug_types Sources/APMInspectCore/IPS/BugType+Table.swift puts in the `hang` family.
HANG_BUG_TYPES = {"12", "207", "222", "223", "228", "242", "243", "302", "310", "328"}


def crash_facts(envelope):
    """The crashes of one envelope, as the fleet report reads them (FleetEvent+Models.swift)."""
    kind, report = envelope.get("kind"), envelope.get("report")
    if not isinstance(report, dict):
        return []

    def crash(model, source):
        if not model.get("signature") or model.get("isNotACrash"):
            return None
        # Apple's hang reports (a bug_type the table marks as a hang) are hangs, not crashes.
        if str((model.get("header") or {}).get("bugType", "")).strip() in HANG_BUG_TYPES:
            return None
        exception = model.get("exception") or {}
        parts = [p for p in (exception.get("type"), "(%s)" % exception["signal"] if exception.get("signal") else None) if p]
        frames = model.get("signatureFrames") or []
        return {
            "signature": model["signature"], "source": source, "exception": " ".join(parts) or "?",
            "topFrame": frames[0] if frames else None, "process": model.get("process"),
            "version": model.get("appVersion"), "os": model.get("osVersionNumber") or model.get("osVersion"),
            "device": model.get("hardwareModel"), "date": model.get("date"), "file": envelope["file"],
        }

    if kind in ("crashReport", "kscrash"):
        fact = crash(report, kind)
        return [fact] if fact else []
    if kind == "metrickit":
        out = []
        for payload in report.get("payloads", []):
            for diagnostic in payload.get("diagnostics", []):
                if diagnostic.get("kind") != "crash" or not isinstance(diagnostic.get("crashReport"), dict):
                    continue
                fact = crash(diagnostic["crashReport"], "metrickit")
                if not fact:
                    continue
                meta = diagnostic.get("metadata") or {}
                fact["version"] = meta.get("appVersion") or fact["version"]
                fact["os"] = meta.get("osVersionNumber") or fact["os"]
                fact["device"] = meta.get("deviceType") or fact["device"]
                fact["date"] = fact["date"] or payload.get("end") or payload.get("begin")
                out.append(fact)
        return out
    return []


def scan_partition(paths, binary, batch):
    """Runs `apm-inspect scan --format ndjson` over this partition's files and yields (signature, group)."""
    paths = list(paths)
    for start in range(0, len(paths), batch):
        chunk = paths[start:start + batch]
        # One worker thread: Spark already runs one task per core.
        process = subprocess.run(
            [binary, "scan", "--format", "ndjson", "--jobs", "1", *chunk],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, check=False,
        )
        if process.returncode > 1:
            raise RuntimeError("apm-inspect scan exited with %d" % process.returncode)
        for line in process.stdout.splitlines():
            if not line.strip():
                continue
            for fact in crash_facts(json.loads(line)):
                yield fact["signature"], group_of(fact)


def group_of(fact):
    seconds = epoch(fact["date"])
    dated = (seconds, fact["date"]) if seconds is not None else None
    return {
        "count": 1, "undated": 0 if dated else 1, "first": dated, "last": dated,
        "representative": (dated, fact["file"], fact["process"], fact["exception"], fact["topFrame"]),
        "appVersions": {fact["version"] or "?": 1}, "osVersions": {fact["os"] or "?": 1},
        "devices": {fact["device"] or "?": 1}, "sources": {fact["source"]: 1},
        "oldest": fact["version"], "newest": fact["version"],
        "days": {math.floor(seconds / 86400): 1} if dated else {},
    }


def newer(a, b):
    """The newer of two representatives: dated over undated, later instant, then the first path by bytes."""
    if (a[0] is None) != (b[0] is None):
        return a if b[0] is None else b
    if a[0] != b[0]:
        return a if a[0] > b[0] else b
    return a if a[1].encode() <= b[1].encode() else b


def add_counts(a, b):
    out = dict(a)
    for key, value in b.items():
        out[key] = out.get(key, 0) + value
    return out


def pick(a, b, choose):
    if a is None:
        return b
    if b is None:
        return a
    return choose(a, b)


def merge(a, b):
    older = lambda x, y: x if version_compare(x, y) <= 0 else y
    later = lambda x, y: x if version_compare(x, y) >= 0 else y
    return {
        "count": a["count"] + b["count"], "undated": a["undated"] + b["undated"],
        "first": pick(a["first"], b["first"], min), "last": pick(a["last"], b["last"], max),
        "representative": newer(a["representative"], b["representative"]),
        "appVersions": add_counts(a["appVersions"], b["appVersions"]),
        "osVersions": add_counts(a["osVersions"], b["osVersions"]),
        "devices": add_counts(a["devices"], b["devices"]), "sources": add_counts(a["sources"], b["sources"]),
        "oldest": pick(a["oldest"], b["oldest"], older), "newest": pick(a["newest"], b["newest"], later),
        "days": add_counts(a["days"], b["days"]),
    }


def values(counts):
    entries = sorted(counts.items(), key=lambda item: (-item[1], item[0].encode()))
    return {"values": [{"value": v, "count": c} for v, c in entries], "others": 0, "othersValues": 0}


def iso_day(day):
    return (datetime.date(1970, 1, 1) + datetime.timedelta(days=day)).isoformat()


def summarise(groups, chart_groups=5):
    total = sum(g["count"] for _, g in groups)
    newest = None
    for _, group in groups:
        if group["newest"] is not None and (newest is None or version_compare(newest, group["newest"]) < 0):
            newest = group["newest"]
    rows = []
    for signature, g in groups:
        _, file, process, exception, top = g["representative"]
        rows.append({
            "signature": signature, "count": g["count"],
            "share": math.floor(g["count"] / max(1, total) * 1_000_000 + 0.5) / 1_000_000,
            "firstSeen": g["first"][1] if g["first"] else None, "lastSeen": g["last"][1] if g["last"] else None,
            "undated": g["undated"], "process": process or "?", "exception": exception, "topFrame": top,
            "representativeFile": file, "appVersions": values(g["appVersions"]),
            "osVersions": values(g["osVersions"]), "devices": values(g["devices"]), "sources": g["sources"],
            "newInNewestVersion": newest is not None and g["oldest"] == newest,
        })
    rows.sort(key=lambda row: (-row["count"], row["signature"]))
    by_signature = dict(groups)
    per_day = [
        {"signature": row["signature"], "earlier": 0,
         "days": [{"day": iso_day(d), "count": c} for d, c in sorted(by_signature[row["signature"]]["days"].items())]}
        for row in rows[:chart_groups]
    ]
    return {
        "total": total, "signatures": len(rows), "groups": rows, "newestVersion": newest,
        "newInNewestVersion": [row["signature"] for row in rows if row["newInNewestVersion"]], "perDay": per_day,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin", required=True, help="the apm-inspect binary (on every worker, same path)")
    parser.add_argument("--input", required=True, help="a directory of reports")
    parser.add_argument("--output", required=True, help="where the crash groups go (JSON)")
    parser.add_argument("--master", default="local[2]")
    parser.add_argument("--partitions", type=int, default=0, help="default: 4 per core")
    parser.add_argument("--batch", type=int, default=400, help="files per apm-inspect process")
    args = parser.parse_args()

    from pyspark import SparkConf, SparkContext

    files = []
    for folder, _, names in os.walk(args.input):
        files.extend(os.path.join(folder, name) for name in names)
    files.sort()
    conf = (SparkConf().setMaster(args.master).setAppName("apm-inspect fleet report")
            .set("spark.ui.enabled", "false").set("spark.ui.showConsoleProgress", "false")
            .set("spark.driver.memory", "1g"))
    context = SparkContext(conf=conf)
    context.setLogLevel("ERROR")
    try:
        partitions = args.partitions or 4 * context.defaultParallelism
        binary, batch = os.path.abspath(args.bin), args.batch
        groups = (
            context.parallelize(files, partitions)
            .mapPartitions(lambda paths: scan_partition(paths, binary, batch))
            .reduceByKey(merge)
            .collect()
        )
    finally:
        context.stop()
    result = summarise(groups)
    result["files"] = len(files)
    with open(args.output, "w", encoding="utf-8") as handle:
        json.dump(result, handle, indent=1, sort_keys=True)
    print("fleet_job: %d files, %d crashes in %d signatures" % (len(files), result["total"], result["signatures"]),
          file=sys.stderr)


if __name__ == "__main__":
    main()
