#!/usr/bin/env python3
"""Checks that `apm-inspect memory-limits --format csv` and memory_limits_python.py agree row by row.

    python3 compare_limits.py OURS.csv PYTHON.csv

Compares, per (product, build): the report count and min / median / max of the foreground, background and
extension limits. Rows the baseline flags as beta are skipped (apm-inspect sets them aside by default).
Exits 1 and prints the differences when they disagree.
"""
import csv
import sys


def num(text):
    if text in ("", None):
        return None
    value = float(text)
    return int(value) if value == int(value) else value


def main():
    ours_path, python_path = sys.argv[1], sys.argv[2]
    ours = {}
    with open(ours_path, newline="") as handle:
        for row in csv.DictReader(handle):
            ours[(row["product"], row["osBuild"])] = (
                int(row["reports"]),
                num(row["foregroundMinMB"]), num(row["foregroundMedianMB"]), num(row["foregroundMaxMB"]),
                num(row["backgroundMinMB"]), num(row["backgroundMedianMB"]), num(row["backgroundMaxMB"]),
                num(row["extensionMinMB"]), num(row["extensionMedianMB"]), num(row["extensionMaxMB"]),
            )
    theirs = {}
    with open(python_path, newline="") as handle:
        for row in csv.DictReader(handle):
            if "beta" in row.get("flags", ""):
                continue
            theirs[(row["product"], row["build"])] = (
                int(row["reports"]),
                num(row["fg_min_mb"]), num(row["fg_median_mb"]), num(row["fg_max_mb"]),
                num(row["bg_min_mb"]), num(row["bg_median_mb"]), num(row["bg_max_mb"]),
                num(row["ext_min_mb"]), num(row["ext_median_mb"]), num(row["ext_max_mb"]),
            )
    problems = []
    for key in sorted(set(ours) | set(theirs)):
        if ours.get(key) != theirs.get(key):
            problems.append(f"{key}: apm-inspect {ours.get(key)} vs python {theirs.get(key)}")
    if problems:
        print("memory-limits disagrees with the Python baseline:")
        print("\n".join(problems))
        sys.exit(1)
    print(f"  ok: {len(ours)} rows agree with the Python baseline")


if __name__ == "__main__":
    main()
