#!/usr/bin/env python3
"""Writes synthetic KSCrash 2.x JSON crash reports for the KSCrash benchmark (kscrash_compare.sh).

    python3 Benchmarks/scripts/kscrash_generate.py --out DIR [--count 1000] [--seed 1]

Each file (`kscrash-00001.json` ...) has the shape of the reports in Corpus/kscrash: `report` (version 3.1.0 to
3.3.0, id, process_name, timestamp), `binary_images` (the app, 2-6 of its frameworks and 20-50 system libraries,
with image_addr, image_size, uuid, cpu_type / cpu_subtype), `process`, `system` (OS, device, bundle keys, memory,
application_stats), `crash.error` of one of three kinds (a Mach exception EXC_BAD_ACCESS / EXC_BREAKPOINT with its
signal, a bare signal SIGABRT / SIGTRAP under EXC_CRASH, or an NSException with name and reason under EXC_CRASH),
`crash.threads` (6-30 threads, one crashed with registers, 4-40 frames each with instruction_addr, object_addr,
object_name and, for most frames, symbol_name / symbol_addr; a few frames fall in no image) and `user`.
Deterministic for a seed; about 50-100 KB a file (indented as KSCrash writes them). All names, UUIDs and addresses are invented.
"""

import argparse
import json
import os
import random

APPS = ["Lanternfish", "Driftwood", "Ferrule", "Quillmate", "Harbourlight"]
FRAMEWORKS = ["CoreKit", "NetLayer", "Persistence", "UIComponents", "Analytics", "Rendering", "Payments"]
SYSTEM = ["CoreFoundation", "Foundation", "UIKitCore", "libobjc.A.dylib", "libsystem_kernel.dylib",
          "libsystem_pthread.dylib", "libdispatch.dylib", "libsystem_c.dylib", "libswiftCore.dylib",
          "libc++abi.dylib", "CFNetwork", "QuartzCore", "GraphicsServices", "libsystem_platform.dylib",
          "CoreGraphics", "Security", "libsqlite3.dylib", "CoreData", "WebKit", "JavaScriptCore", "AVFCore",
          "CoreMedia", "ImageIO", "libxpc.dylib", "libsystem_malloc.dylib", "dyld", "SwiftUI", "Combine",
          "CoreLocation", "MapKit", "StoreKit", "UserNotifications", "Network", "libz.1.dylib", "Metal",
          "CoreText", "AudioToolbox", "libnetwork.dylib", "BackBoardServices", "FrontBoardServices",
          "RunningBoardServices", "CoreServices", "OSLog", "IOKit", "libcompiler_rt.dylib", "libswiftDispatch.dylib",
          "libswiftFoundation.dylib", "AppSupport", "TextInput", "ManagedConfiguration"]
DEVICES = [("iPhone14,5", "D17AP"), ("iPhone15,2", "D73AP"), ("iPhone13,2", "D53gAP"), ("iPhone16,1", "D83AP"),
           ("iPad13,4", "J517AP")]
OSES = [("15.7", "19H12", "21.6.0"), ("16.6", "20G75", "22.6.0"), ("17.4.1", "21E236", "23.4.0"),
        ("17.5.1", "21F90", "23.5.0")]
VERBS = ["reload", "update", "render", "decode", "fetch", "apply", "commit", "layout", "observe", "flush"]
NOUNS = ["Rows", "Station", "Ledger", "Cache", "Session", "Tile", "Queue", "Snapshot", "Model", "Token"]
ERRORS = ["mach_bad_access", "mach_breakpoint", "signal_abort", "signal_trap", "nsexception"]
NS = [("NSInvalidArgumentException", "-[__NSCFNumber length]: unrecognized selector sent to instance 0x8000000000000000"),
      ("NSRangeException", "*** -[__NSArrayM objectAtIndex:]: index 7 beyond bounds [0 .. 3]"),
      ("NSInternalInconsistencyException", "Invalid update: invalid number of rows in section 0"),
      ("NSGenericException", "*** Collection <__NSArrayM: 0x283f1c0c0> was mutated while being enumerated.")]


def uuid(rng):
    h = "%032X" % rng.getrandbits(128)
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def images(rng, app, container):
    out = []
    address = 0x100000000 + rng.randrange(0x1000) * 0x4000
    size = rng.randrange(0x80, 0x400) * 0x1000
    out.append({"image_addr": address, "image_vmaddr": 0, "image_size": size,
                "name": f"/private/var/containers/Bundle/Application/{container}/{app}.app/{app}",
                "uuid": uuid(rng), "cpu_type": 16777228, "cpu_subtype": 0})
    address += size + 0x4000
    for name in rng.sample(FRAMEWORKS, rng.randint(2, 6)):
        size = rng.randrange(0x20, 0x200) * 0x1000
        out.append({"image_addr": address, "image_vmaddr": 0, "image_size": size,
                    "name": f"/private/var/containers/Bundle/Application/{container}/{app}.app/Frameworks/"
                            f"{name}.framework/{name}",
                    "uuid": uuid(rng), "cpu_type": 16777228, "cpu_subtype": 0})
        address += size + 0x4000
    address = 0x180000000 + rng.randrange(0x100) * 0x100000
    for name in rng.sample(SYSTEM, rng.randint(20, 50)):
        size = rng.randrange(0x20, 0x600) * 0x1000
        path = (f"/usr/lib/{name}" if name.endswith(".dylib") else
                f"/System/Library/Frameworks/{name}.framework/{name}")
        out.append({"image_addr": address, "image_vmaddr": 0, "image_size": size, "name": path,
                    "uuid": uuid(rng), "cpu_type": 16777228, "cpu_subtype": 2})
        address += size + rng.randrange(1, 64) * 0x4000
    return out


def frame(rng, imgs, app_bias):
    if rng.random() < 0.02:  # an address in no loaded image (JIT, a corrupted stack)
        return {"instruction_addr": 0x2a0000000 + rng.randrange(1 << 20) * 4, "object_addr": 0, "object_name": None}
    image = imgs[rng.randrange(min(len(imgs), 7))] if rng.random() < app_bias else rng.choice(imgs)
    start = image["image_addr"] + 4 * rng.randrange(image["image_size"] // 8)
    addr = start + 4 * rng.randrange(1, 200)
    name = os.path.basename(image["name"])
    entry = {"instruction_addr": addr, "object_addr": image["image_addr"], "object_name": name}
    if rng.random() < 0.85:
        entry["symbol_name"] = f"-[{name[:2].upper()}{rng.choice(NOUNS)}Controller {rng.choice(VERBS)}{rng.choice(NOUNS)}:]" \
            if rng.random() < 0.4 else f"{name.split('.')[0].lower()}_{rng.choice(VERBS)}_{rng.randrange(999)}"
        entry["symbol_addr"] = start
    return entry


def error(rng, kind):
    if kind == "mach_bad_access":
        address = rng.choice([0, 16, 0x28, rng.getrandbits(36)])
        return {"mach": {"exception": 1, "exception_name": "EXC_BAD_ACCESS", "code": 1,
                         "code_name": "KERN_INVALID_ADDRESS", "subcode": address},
                "signal": {"signal": 11, "name": "SIGSEGV", "code": 0, "code_name": "SEGV_NOOP"},
                "address": address, "type": "mach"}
    if kind == "mach_breakpoint":
        return {"mach": {"exception": 6, "exception_name": "EXC_BREAKPOINT", "code": 1, "subcode": rng.getrandbits(33)},
                "signal": {"signal": 5, "name": "SIGTRAP", "code": 0}, "address": 0, "type": "mach"}
    if kind in ("signal_abort", "signal_trap"):
        number, name = (6, "SIGABRT") if kind == "signal_abort" else (5, "SIGTRAP")
        return {"mach": {"exception": 10, "exception_name": "EXC_CRASH", "code": 0, "subcode": 0},
                "signal": {"signal": number, "name": name, "code": 0}, "address": 0, "type": "signal"}
    name, reason = rng.choice(NS)
    return {"mach": {"exception": 10, "exception_name": "EXC_CRASH", "code": 0, "subcode": 0},
            "signal": {"signal": 6, "name": "SIGABRT", "code": 0}, "address": 0, "reason": reason,
            "type": "nsexception", "nsexception": {"name": name, "userInfo": "{\n    key = 1;\n}"}}


def report(rng, n):
    app = rng.choice(APPS)
    container = uuid(rng)
    imgs = images(rng, app, container)
    machine, model = rng.choice(DEVICES)
    version, build, kernel = rng.choice(OSES)
    kind = rng.choice(ERRORS)
    thread_count = rng.randint(6, 30)
    crashed = 0 if rng.random() < 0.7 else rng.randrange(thread_count)
    threads = []
    for index in range(thread_count):
        depth = rng.randint(12, 40) if index == crashed else rng.randint(4, 16)
        thread = {"backtrace": {"contents": [frame(rng, imgs, 0.5 if index == crashed else 0.2) for _ in range(depth)],
                                "skipped": 0},
                  "index": index, "name": None, "crashed": index == crashed, "current_thread": index == crashed}
        if index == 0:
            thread["dispatch_queue"] = "com.apple.main-thread"
        if index == crashed:
            basic = {f"x{i}": rng.getrandbits(rng.choice([8, 34, 40])) for i in range(29)}
            basic.update({"fp": 0x16d000000 + rng.getrandbits(20), "lr": thread["backtrace"]["contents"][1]["instruction_addr"],
                          "sp": 0x16d000000 + rng.getrandbits(20), "pc": thread["backtrace"]["contents"][0]["instruction_addr"],
                          "cpsr": 0x60000000})
            thread["registers"] = {"basic": basic, "exception": {"exception": 0x92000006, "esr": 0x92000006, "far": 16}}
        threads.append(thread)
    stamp = 1_700_000_000 + n * 613 + rng.randrange(600)
    bundle = f"com.example.{app.lower()}"
    short = f"{rng.randint(1, 6)}.{rng.randint(0, 9)}.{rng.randint(0, 9)}"
    return {
        "report": {"version": rng.choice(["3.1.0", "3.2.0", "3.3.0"]), "id": uuid(rng), "process_name": app,
                   "timestamp": stamp, "type": "standard"},
        "binary_images": imgs,
        "process": {"zombies": {}},
        "system": {"system_name": "iOS", "system_version": version, "machine": machine, "model": model,
                   "kernel_version": f"Darwin Kernel Version {kernel}: invented build string", "os_version": build,
                   "jailbroken": False, "boot_time": stamp - 86_400, "app_start_time": stamp - rng.randrange(30, 9000),
                   "CFBundleExecutablePath": imgs[0]["name"], "CFBundleExecutable": app, "CFBundleIdentifier": bundle,
                   "CFBundleName": app, "CFBundleVersion": short.replace(".", ""), "CFBundleShortVersionString": short,
                   "app_uuid": imgs[0]["uuid"], "cpu_arch": "arm64", "cpu_type": 16777228, "cpu_subtype": 2,
                   "binary_cpu_type": 16777228, "binary_cpu_subtype": 0, "time_zone": "UTC", "process_name": app,
                   "process_id": rng.randrange(300, 9000), "parent_process_id": 1, "parent_process_name": "launchd",
                   "device_app_hash": "%040x" % rng.getrandbits(160), "build_type": "app store",
                   "storage": 127989493760,
                   "memory": {"size": 6227214336, "usable": 5843124224, "free": rng.randrange(1 << 28, 1 << 30)},
                   "application_stats": {"application_active": True, "application_in_foreground": True,
                                         "launches_since_last_crash": rng.randint(1, 9),
                                         "sessions_since_last_crash": rng.randint(1, 9),
                                         "active_time_since_last_crash": round(rng.uniform(1, 900), 1),
                                         "background_time_since_last_crash": 0, "sessions_since_launch": 1,
                                         "active_time_since_launch": round(rng.uniform(1, 900), 1),
                                         "background_time_since_launch": 0}},
        "crash": {"error": error(rng, kind), "threads": threads},
        "user": {"session": {"launches": rng.randint(1, 50)}},
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True)
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    os.makedirs(args.out, exist_ok=True)
    for n in range(1, args.count + 1):
        with open(os.path.join(args.out, f"kscrash-{n:05d}.json"), "w") as handle:
            json.dump(report(rng, n), handle, indent=2)
            handle.write("\n")


if __name__ == "__main__":
    main()
