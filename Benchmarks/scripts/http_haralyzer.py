#!/usr/bin/env python3
"""The haralyzer baseline: reads a HAR and prints the same figures `apm-inspect http` computes (requests, status
classes, per-host count and p50/p90/p99 of total time and wait, bytes by host).

Usage: http_haralyzer.py FILE
"""
import json
import math
import sys
from collections import defaultdict
from urllib.parse import urlsplit

from haralyzer import HarEntry, HarParser


def pct(values, p):
    if not values:
        return -1
    values = sorted(values)
    return values[max(1, math.ceil(p / 100 * len(values))) - 1]


def main():
    with open(sys.argv[1], "r", encoding="utf-8-sig") as f:
        parser = HarParser(json.loads(f.read()))
    by_host = defaultdict(list)
    statuses = defaultdict(int)
    count = 0
    for entry in parser.har_data["entries"]:
        e = HarEntry(entry)
        count += 1
        status = e.status
        statuses[status // 100 if status else 0] += 1
        by_host[urlsplit(e.request.url).hostname].append((e.time, e.timings.get("wait", -1), entry["response"].get("_transferSize", 0)))
    print(f"requests {count} status classes {dict(statuses)} hosts {len(by_host)}")
    for host, rows in sorted(by_host.items(), key=lambda kv: -len(kv[1]))[:5]:
        totals = [r[0] for r in rows if r[0] is not None and r[0] >= 0]
        waits = [r[1] for r in rows if r[1] is not None and r[1] >= 0]
        print(f"  {host} n={len(rows)} total p50/p90/p99 {pct(totals, 50)}/{pct(totals, 90)}/{pct(totals, 99)} "
              f"wait p50 {pct(waits, 50)} bytes {sum(r[2] or 0 for r in rows)}")


if __name__ == "__main__":
    main()
