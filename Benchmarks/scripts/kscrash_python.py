#!/usr/bin/env python3
"""The Python peer of `apm-inspect scan --format ndjson` on KSCrash reports, for kscrash_compare.sh.

    python3 Benchmarks/scripts/kscrash_python.py [--quiet] PATH...

What a Python user would write with the `json` module, mapping each KSCrash JSON report the way `scan` does for the
fields a triage needs: every `*.json` file under the paths is loaded; the binary images become a list (file name,
path, UUID lower-cased without dashes, arm64 / arm64e from cpu_subtype, start and end address, whether it is the
app's own executable or framework), sorted by address; every frame of every thread is attributed to the image whose
range holds its address (binary search), with its offset in that image, its symbol and symbol offset when the
report has one, and whether it is an app frame; the crashed thread is the one flagged `crashed` (its `index`); the
exception type is the Mach exception name (from the number when the name is missing, else EXC_CRASH for a signal
alone), with the signal and, for an NSException, its name and reason. Prints one JSON line per file (file,
crashedThread, exceptionType, signal, threads, frames, attributed frames, images) unless --quiet, and reports per
second on stderr.
"""

import bisect
import json
import os
import sys
import time

MACH_NAMES = {1: "EXC_BAD_ACCESS", 2: "EXC_BAD_INSTRUCTION", 3: "EXC_ARITHMETIC", 4: "EXC_EMULATION",
              5: "EXC_SOFTWARE", 6: "EXC_BREAKPOINT", 7: "EXC_SYSCALL", 8: "EXC_MACH_SYSCALL", 9: "EXC_RPC_ALERT",
              10: "EXC_CRASH", 11: "EXC_RESOURCE", 12: "EXC_GUARD", 13: "EXC_CORPSE_NOTIFY"}


def image_list(raw, app_path):
    images = []
    app_folder = os.path.dirname(app_path) + "/" if app_path else None
    for entry in raw or []:
        start, size = entry.get("image_addr", 0), entry.get("image_size", 0)
        path = entry.get("name") or ""
        images.append({"name": os.path.basename(path), "path": path,
                       "uuid": (entry.get("uuid") or "").replace("-", "").lower(),
                       "arch": "arm64e" if entry.get("cpu_subtype") == 2 else "arm64",
                       "base": start, "end": start + size - 1,
                       "isApp": bool(app_folder) and path.startswith(app_folder)})
    images.sort(key=lambda image: image["base"])
    return images


def attribute(frames, images, bases):
    out = []
    for position, frame in enumerate(frames):
        address = frame.get("instruction_addr", 0)
        slot = bisect.bisect_right(bases, address) - 1
        image = images[slot] if slot >= 0 and address <= images[slot]["end"] else None
        mapped = {"index": position, "address": hex(address), "image": image["name"] if image else None,
                  "imageOffset": address - image["base"] if image else None,
                  "isAppFrame": bool(image and image["isApp"])}
        if frame.get("symbol_name"):
            mapped["symbol"] = frame["symbol_name"]
            mapped["symbolOffset"] = address - frame.get("symbol_addr", address)
        out.append(mapped)
    return out


def map_report(path, document):
    crash = document.get("crash", {})
    system = document.get("system", {})
    images = image_list(document.get("binary_images"), system.get("CFBundleExecutablePath"))
    bases = [image["base"] for image in images]
    threads, crashed = [], None
    for thread in crash.get("threads", []):
        frames = attribute(thread.get("backtrace", {}).get("contents", []), images, bases)
        threads.append({"index": thread.get("index"), "crashed": bool(thread.get("crashed")), "frames": frames,
                        "queue": thread.get("dispatch_queue")})
        if thread.get("crashed") and crashed is None:
            crashed = thread.get("index")
    error = crash.get("error", {})
    mach, signal = error.get("mach") or {}, error.get("signal") or {}
    exception_type = mach.get("exception_name") or MACH_NAMES.get(mach.get("exception")) or \
        ("EXC_CRASH" if signal else None)
    exception = {"type": exception_type, "signal": signal.get("name"), "address": error.get("address")}
    if error.get("nsexception"):
        exception["name"] = error["nsexception"].get("name")
        exception["reason"] = error.get("reason")
    return {"file": path, "process": document.get("report", {}).get("process_name"),
            "osVersion": system.get("system_version"), "crashedThread": crashed, "exception": exception,
            "threads": threads, "binaryImages": images}


def main():
    args = [a for a in sys.argv[1:] if a != "--quiet"]
    quiet = "--quiet" in sys.argv
    started = time.perf_counter()
    paths = []
    for root in args:
        if os.path.isdir(root):
            for folder, _, names in os.walk(root):
                paths += [os.path.join(folder, n) for n in names if n.endswith(".json")]
        else:
            paths.append(root)
    reports = frames = attributed = 0
    for path in sorted(paths):
        with open(path, "rb") as handle:
            document = json.load(handle)
        mapped = map_report(path, document)
        reports += 1
        for thread in mapped["threads"]:
            frames += len(thread["frames"])
            attributed += sum(1 for f in thread["frames"] if f["image"] is not None)
        if not quiet:
            print(json.dumps({"file": path, "crashedThread": mapped["crashedThread"],
                              "exceptionType": mapped["exception"]["type"], "signal": mapped["exception"]["signal"],
                              "threads": len(mapped["threads"]),
                              "frames": sum(len(t["frames"]) for t in mapped["threads"]),
                              "attributed": sum(1 for t in mapped["threads"] for f in t["frames"] if f["image"]),
                              "images": len(mapped["binaryImages"])}, sort_keys=True))
    elapsed = time.perf_counter() - started
    rate = reports / elapsed if elapsed > 0 else 0
    print(f"python: {reports} reports ({frames} frames, {attributed} attributed) in {elapsed:.3f} s, "
          f"{rate:,.0f} reports/s", file=sys.stderr)


if __name__ == "__main__":
    main()
