#!/usr/bin/env python3
"""The Python peer of `apm-inspect scan`'s MetricKit fleet view, for metrickit_compare.sh.

    python3 Benchmarks/scripts/metrickit_python.py [--quiet] PATH...

What a Python user would write with the `json` module: every `*.json` file under the paths is loaded; each
payload with `applicationExitMetrics` is a metric payload, whose exit counts are summed by
`foreground.<reason>` / `background.<reason>` (the reason named as apm-inspect names it: `cumulative` and
`ExitCount` cut off, `App` cut off either end, first letter lower-cased), whose `histogrammedTimeToFirstDraw` and
`histogrammedApplicationHangTime` buckets are merged per app version, and whose `cumulativeForegroundTime` is
summed; every `*Diagnostics` array is counted by kind. Prints one JSON object (exits, diagnostics, payloads, per
version: launch count, p50/p90 in seconds by linear interpolation, hang rate) and, on stderr, payloads per second.
"""

import json
import os
import re
import sys
import time

UNITS = {"ms": 0.001, "sec": 1.0, "secs": 1.0, "s": 1.0, "min": 60.0, "hr": 3600.0}
KINDS = {"crashDiagnostics": "crash", "hangDiagnostics": "hang", "cpuExceptionDiagnostics": "cpuException",
         "diskWriteExceptionDiagnostics": "diskWriteException", "appLaunchDiagnostics": "appLaunch",
         "memoryExceptionDiagnostics": "memoryException"}
NUMBER = re.compile(r"^\s*(-?[0-9][0-9,]*(?:\.[0-9]+)?)\s*(.*)$")


def seconds(text):
    match = NUMBER.match(text) if isinstance(text, str) else None
    if not match or match.group(2).strip() not in UNITS:
        return None
    return float(match.group(1).replace(",", "")) * UNITS[match.group(2).strip()]


def reason_name(key):
    reason = key
    if reason.startswith("cumulative"):
        reason = reason[len("cumulative"):]
    for suffix in ("ExitCount", "Count"):
        if reason.endswith(suffix):
            reason = reason[: -len(suffix)]
            break
    if reason.startswith("App"):
        reason = reason[3:]
    if reason.endswith("App"):
        reason = reason[:-3]
    return reason[:1].lower() + reason[1:]


def buckets(histogram):
    values = histogram.get("histogramValue", {}) if isinstance(histogram, dict) else {}
    items = values.values() if isinstance(values, dict) else values
    for bucket in items:
        start, end = seconds(bucket.get("bucketStart")), seconds(bucket.get("bucketEnd"))
        count = bucket.get("bucketCount", 0)
        if start is not None and end is not None and isinstance(count, int) and count > 0:
            yield start, end, count


def percentile(merged, fraction):
    total = sum(merged.values())
    if total == 0:
        return None
    rank, seen = fraction * total, 0.0
    for (start, end), count in sorted(merged.items()):
        if seen + count >= rank:
            return round(start + (end - start) * ((rank - seen) / count), 6)
        seen += count
    return None


def main():
    args = [a for a in sys.argv[1:] if a != "--quiet"]
    quiet = "--quiet" in sys.argv
    started = time.perf_counter()
    exits, diagnostics, versions = {}, {}, {}
    metric_payloads = files = 0
    paths = []
    for root in args:
        if os.path.isdir(root):
            for folder, _, names in os.walk(root):
                paths += [os.path.join(folder, n) for n in names if n.endswith(".json")]
        else:
            paths.append(root)
    for path in sorted(paths):
        with open(path, "rb") as handle:
            document = json.load(handle)
        files += 1
        for payload in document if isinstance(document, list) else [document]:
            for key, kind in KINDS.items():
                for _ in payload.get(key, []):
                    diagnostics[kind] = diagnostics.get(kind, 0) + 1
            if "applicationExitMetrics" not in payload and "metaData" not in payload:
                continue
            metric_payloads += 1
            version = payload.get("appVersion") or payload.get("metaData", {}).get("appVersion") or "?"
            row = versions.setdefault(version, {"launch": {}, "hang": 0.0, "foreground": 0.0})
            for state, data_key in (("foreground", "foregroundExitData"), ("background", "backgroundExitData")):
                for key, count in payload.get("applicationExitMetrics", {}).get(data_key, {}).items():
                    name = f"{state}.{reason_name(key)}"
                    exits[name] = exits.get(name, 0) + count
            launch = payload.get("applicationLaunchMetrics", {}).get("histogrammedTimeToFirstDraw")
            for start, end, count in buckets(launch):
                row["launch"][(start, end)] = row["launch"].get((start, end), 0) + count
            hang = payload.get("applicationResponsivenessMetrics", {}).get("histogrammedApplicationHangTime")
            row["hang"] += sum((start + end) / 2 * count for start, end, count in buckets(hang))
            row["foreground"] += seconds(payload.get("applicationTimeMetrics", {})
                                         .get("cumulativeForegroundTime")) or 0.0
    elapsed = time.perf_counter() - started
    result = {
        "files": files, "metricPayloads": metric_payloads, "exits": exits, "diagnostics": diagnostics,
        "byVersion": {
            version: {"launches": sum(row["launch"].values()), "p50Seconds": percentile(row["launch"], 0.5),
                      "p90Seconds": percentile(row["launch"], 0.9),
                      "hangRate": round(row["hang"] / (row["foreground"] / 3600), 6) if row["foreground"] else None}
            for version, row in versions.items()
        },
    }
    if not quiet:
        json.dump(result, sys.stdout, indent=1, sort_keys=True)
        print()
    rate = metric_payloads / elapsed if elapsed > 0 else 0
    print(f"python: {metric_payloads} metric payloads in {elapsed:.3f} s, {rate:,.0f} payloads/s", file=sys.stderr)


if __name__ == "__main__":
    main()
