#!/usr/bin/env python3
"""Parses every .ips under PATH with pycrashreport, touching every field it offers (the side-by-side baseline).

    python3 crash_pycrashreport.py PATH [ROUNDS]
    python3 crash_pycrashreport.py PATH 1 --list-parsed   # the files it can read, one path per line

Each round reads every file and parses it; the median round is printed with the files that parsed and failed, so
the comparison counts only work pycrashreport actually did. Interpreter start-up is not counted (see the
end-to-end figures in crash_compare.sh for that).
"""
import os
import statistics
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


def one_round(paths):
    parsed = failed = 0
    start = time.perf_counter()
    for path in paths:
        with open(path, "r", encoding="utf-8", errors="replace") as handle:
            text = handle.read()
        try:
            touch(get_crash_report_from_buf(text))
            parsed += 1
        except Exception:  # noqa: BLE001 - a baseline counts failures, it does not stop on them
            failed += 1
    return time.perf_counter() - start, parsed, failed


def parses(path):
    with open(path, "r", encoding="utf-8", errors="replace") as handle:
        text = handle.read()
    try:
        touch(get_crash_report_from_buf(text))
        return True
    except Exception:  # noqa: BLE001 - only sorting files into parsed and failed
        return False


def main():
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    paths = []
    for folder, _, names in os.walk(sys.argv[1]):
        paths.extend(os.path.join(folder, name) for name in sorted(names))
    if "--list-parsed" in sys.argv[3:]:
        for path in paths:
            if parses(path):
                print(path)
        return
    results = [one_round(paths) for _ in range(rounds)]
    median = statistics.median(result[0] for result in results)
    _, parsed, failed = results[-1]
    print(
        f"pycrashreport: {len(paths)} files, {parsed} parsed, {failed} failed, median {median:.3f} s, "
        f"{median * 1e6 / max(len(paths), 1):.1f} us/file"
    )


if __name__ == "__main__":
    main()
