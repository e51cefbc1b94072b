#!/usr/bin/env python3
"""Parses every .ips under PATH with pycrashreport, touching every field it offers (the side-by-side baseline).

    python3 crash_pycrashreport.py PATH
"""
import os
import sys
import time

from pycrashreport.crash_report import get_crash_report_from_buf


def touch(report):
    values = [report.bug_type, report.incident_id, report.timestamp, report.name]
    for attribute in ("faulting_thread", "exception_type", "exception_subtype", "application_specific_information"):
        values.append(getattr(report, attribute, None))
    for frame in getattr(report, "frames", []) or []:
        values.append((frame.image_name, frame.image_base, frame.image_offset, frame.symbol, frame.symbol_offset))
    for register in getattr(report, "registers", []) or []:
        values.append((register.name, register.value))
    return len(values)


def main():
    start = time.perf_counter()
    files = parsed = failed = 0
    for folder, _, names in os.walk(sys.argv[1]):
        for name in sorted(names):
            files += 1
            with open(os.path.join(folder, name), "r", encoding="utf-8", errors="replace") as handle:
                text = handle.read()
            try:
                touch(get_crash_report_from_buf(text))
                parsed += 1
            except Exception:  # noqa: BLE001 - a baseline counts failures, it does not stop on them
                failed += 1
    elapsed = time.perf_counter() - start
    print(f"pycrashreport: {files} files, {parsed} parsed, {failed} failed, {elapsed:.2f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
