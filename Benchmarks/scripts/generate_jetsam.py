#!/usr/bin/env python3
"""Generate synthetic JetsamEvent reports (.ips, bug_type 298) for benchmarks and dedup tests.

Every file uses Apple's layout: line 1 is a one-line compact JSON header, then a newline, then the
body pretty-printed the way the report generator does it ("key" : value with a space before the
colon, 2-space indent, `\\/` escaped slashes, memoryStatus and processes spliced in as their own
pretty-printed values, cpuTime with 17 significant digits).

All values are invented (random UUIDs, random crashReporterKeys); nothing is copied from real reports.

    python3 generate_jetsam.py --out DIR --count 1000 --processes 400 --seed 1 [--duplicates N]

Deterministic: the same arguments give byte-identical files. Each file has:
  * 1 frontmost app killed `per-process-limit` at the limit of its (device, build)
    (constant MB per (device, build), plus 0-7 pages, so floor(bytes / 2^20) is that MB value);
  * 2-5 idle daemons killed `vm-pageshortage`;
  * sometimes (~30 %) a suspended background app killed `per-process-limit` at the inactive limit;
  * sometimes (~25 %) an app extension killed `per-process-limit` at its extension limit.

With --manifest PATH the expected per-(product, build) limits are written too,
so the Python baseline and apm-inspect can be checked against the generator's ground truth.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import uuid
from datetime import datetime, timedelta, timezone

# --------------------------------------------------------------------------------------------------
# Apple-style pretty printer
# --------------------------------------------------------------------------------------------------

_dumps = json.dumps


def esc(s: str) -> str:
    """JSON string the way NSJSONSerialization writes it: UTF-8 raw, `/` escaped as `\\/`."""
    return _dumps(s, ensure_ascii=False).replace("/", "\\/")


def scalar(v) -> str:
    if v is True:
        return "true"
    if v is False:
        return "false"
    if v is None:
        return "null"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return "%.17g" % v
    if isinstance(v, str):
        return esc(v)
    raise TypeError(type(v))


class Raw(str):
    """A pre-formatted JSON number (e.g. a double that must keep its exact text)."""


def pretty(v, depth: int = 0, first: int = 2, step: int = 2) -> str:
    """Pretty-print `v` whose opening bracket sits at nesting `depth`.

    Items of a container at depth d are indented first + d*step spaces; the closing bracket of a
    container at depth 0 is at column 0 (this is how Apple splices memoryStatus / processes in).
    """
    if isinstance(v, Raw):
        return str(v)
    if isinstance(v, dict):
        if not v:
            return "{}"
        ind = " " * (first + depth * step)
        close = " " * (first + (depth - 1) * step) if depth > 0 else ""
        parts = [ind + esc(k) + " : " + pretty(x, depth + 1, first, step) for k, x in v.items()]
        return "{\n" + ",\n".join(parts) + "\n" + close + "}"
    if isinstance(v, list):
        if not v:
            return "[]"
        ind = " " * (first + depth * step)
        close = " " * (first + (depth - 1) * step) if depth > 0 else ""
        parts = [ind + pretty(x, depth + 1, first, step) for x in v]
        return "[\n" + ",\n".join(parts) + "\n" + close + "]"
    return scalar(v)


SPLICED = ("memoryStatus", "processes")


def render_body(body: dict, first: int = 2, step: int = 2) -> str:
    """Top-level object: keys at `first` spaces; memoryStatus/processes spliced (close at column 0)."""
    ind = " " * first
    parts = []
    for k, v in body.items():
        if k in SPLICED:
            parts.append(ind + esc(k) + " : " + pretty(v, 0, first, step))
        else:
            parts.append(ind + esc(k) + " : " + pretty(v, 1, first, step))
    return "{\n" + ",\n".join(parts) + "\n}"


def render_header(header: dict) -> str:
    return _dumps(header, separators=(",", ":"), ensure_ascii=False)


def render_report(header: dict | None, body: dict, first: int = 2, step: int = 2,
                  final_newline: bool = False) -> str:
    text = render_body(body, first, step)
    if header is not None:
        text = render_header(header) + "\n" + text
    return text + ("\n" if final_newline else "")


# --------------------------------------------------------------------------------------------------
# Devices, builds and limits (invented but plausible numbers)
# --------------------------------------------------------------------------------------------------

MiB = 1 << 20

# identifier, RAM MB, SoC kernel suffix, frontmost limit MB (iOS 15 / 17 / 18), background (inactive)
# limit MB, builds supported (subset of BUILDS keys)
DEVICES = [
    ("iPhone8,2", 2048, "T8000", (1450, None, None), 700, ("15",)),
    ("iPhone10,1", 2048, "T8015", (1400, None, None), 680, ("15",)),
    ("iPhone11,8", 3072, "T8020", (1792, 1792, 1840), 900, ("15", "17", "18")),
    ("iPhone12,1", 4096, "T8030", (2098, 2098, 2150), 1100, ("15", "17", "18")),
    ("iPhone13,2", 4096, "T8101", (2098, 2098, 2150), 1100, ("15", "17", "18")),
    ("iPhone14,5", 4096, "T8110", (2098, 2110, 2150), 1100, ("15", "17", "18")),
    ("iPhone14,7", 6144, "T8110", (None, 3072, 3072), 1500, ("17", "18")),
    ("iPhone15,2", 6144, "T8120", (None, 3072, 3096), 1500, ("17", "18")),
    ("iPhone16,2", 8192, "T8130", (None, 4096, 4096), 2048, ("17", "18")),
    ("iPad7,11", 3072, "T8010", (1792, 1792, None), 900, ("15", "17")),
    ("iPad13,4", 8192, "T8103", (5120, 5120, 5376), 2560, ("15", "17", "18")),
    ("iPad14,1", 4096, "T8110", (2098, 2110, 2150), 1100, ("15", "17", "18")),
]

BUILDS = {
    # key: (os_version, darwin, xnu, kernel date, priority scale, iOS 18 fields, report year)
    "15": ("iPhone OS 15.8.3", "19H386", "21.6.0", "xnu-8020.240.18.709.2~1",
           "Wed Jul 24 21:43:10 PDT 2024", 1, False, 2024),
    "17": ("iPhone OS 17.5.1", "21F90", "23.5.0", "xnu-10063.122.3~3",
           "Wed May 22 21:56:49 PDT 2024", 10, False, 2024),
    "18": ("iPhone OS 18.3.2", "22D82", "24.3.0", "xnu-11215.82.4~1",
           "Fri Feb 28 20:24:18 PST 2025", 10, True, 2025),
}
BUILD_INDEX = {"15": 0, "17": 1, "18": 2}

# Extension kinds: (executable name suffix, limit MB)
EXTENSIONS = [
    ("WidgetExtension", 30),
    ("KeyboardExt", 66),
    ("ShareExtension", 120),
    ("NotificationServiceExtension", 24),
    ("BroadcastUploadExt", 50),
]

APP_NAMES = [
    "PixelCanvas", "TrailMapper", "Bookshelf Reader", "Pocket Chef", "HarborChat", "LumenPhoto",
    "CadenceRun", "Orbit Notes", "TideWatch", "Atlas Transit", "StudioMix", "QuillMail",
    "PaperKite", "Meadow", "FieldGuide", "NightSky Atlas", "Ledgerly", "SnapCollage",
    "RoverCam", "Mosaic", "Waypoint", "Brightline", "Kiln", "Foxglove",
]

DAEMONS = [
    "configd", "mediaserverd", "locationd", "CommCenter", "wifid", "bluetoothd", "apsd",
    "identityservicesd", "imagent", "runningboardd", "cfprefsd", "notifyd", "logd",
    "UserEventAgent", "powerd", "lsd", "fseventsd", "mDNSResponder", "mDNSResponderHelper",
    "sharingd", "searchd", "itunesstored", "accountsd", "assetsd", "nsurlsessiond", "dataaccessd",
    "homed", "healthd", "callservicesd", "coreduetd", "dasd", "symptomsd", "nehelper",
    "nesessionmanager", "trustd", "securityd", "keybagd", "mobileassetd", "assistantd", "suggestd",
    "photoanalysisd", "mediaanalysisd", "cloudd", "bird", "nanoregistryd", "findmydeviced", "geod",
    "familycircled", "ptpd", "wcd", "pasted", "ReportCrash", "diagnosticd", "adid", "akd",
    "installd", "tzd", "misd", "mobiletimerd", "nfcd", "seld", "passd", "remindd", "calaccessd",
    "contactsd", "druid", "filecoordinationd", "appstored", "gamed", "routined", "rapportd",
    "searchpartyd", "chronod", "backupd", "biomed", "duetexpertd", "contextstored", "siriknowledged",
    "triald", "amsaccountsd", "coreidvd", "fitnesscoachingd", "mediaremoted", "audiomxd",
    "thermalmonitord", "watchdogd", "wifianalyticsd", "usermanagerd", "containermanagerd",
    "mobile_storage_proxy", "lockdownd", "fairplayd.H2", "CloudKeychainProxy", "deleted",
    "stackshot", "spindump", "aggregated", "analyticsd", "osanalyticshelper", "dmd", "managedappdistributiond",
    "ScreenTimeAgent", "IMDPersistenceAgent", "BlueTool", "tccd", "locationpushd", "announced",
    "WirelessRadioManagerd", "mobileactivationd", "nearbyd", "proximitycontrold", "transparencyd",
    "mediaplaybackd", "avconferenced", "sociallayerd", "photolibraryd", "cloudphotod", "mstreamd",
    "intelligenceplatformd", "knowledgeconstructiond", "parsecd", "weatherd", "newsd", "NewsToday2",
    "kbd", "TextInputUIService", "PosterBoard", "DragUI", "InCallService", "MobileGestaltHelper",
    "com.apple.StreamingUnzipService", "com.apple.MobileSoftwareUpdate.CleanupPreparePathService",
    "com.apple.quicklook.ThumbnailsAgent", "com.apple.accessibility.mediaaccessibilityd",
    "com.apple.siri.embeddedspeech", "com.apple.CloudDocs.iCloudDriveFileProvider",
    "com.apple.Safari.SafeBrowsing.Service", "com.apple.AppleMediaServicesUI.SpyglassPurchases",
]

LARGEST_ZONES = ["APFS_4K_OBJS", "vm objects", "kext.kalloc.16384", "VM map entries",
                 "data.kalloc.1024", "kalloc.type0.128"]
FREEZE_SKIP = ["none", "none", "none", "disabled", "out-of-budget"]

TICKS_PER_SEC = 24_000_000  # mach timebase of A-series SoCs (24 MHz); reports do not say it


def truncate_name(name: str, n: int = 32) -> str:
    return name[:n]


def rand_uuid(rng: random.Random) -> str:
    return str(uuid.UUID(int=rng.getrandbits(128), version=4))


def rand_hex(rng: random.Random, n: int) -> str:
    return "%0*x" % (n, rng.getrandbits(4 * n))


def rpages_for_mb(mb: int, page_size: int, extra: int) -> int:
    """Smallest page count whose byte size reaches `mb` MiB, plus `extra` pages (< 1 MiB)."""
    return -(-mb * MiB // page_size) + extra


# Per-build key order of a process entry (emulates dictionary hash order; differs by OS).
PROC_KEY_ORDER = {
    "15": ["uuid", "states", "priority", "killDelta", "genCount", "age", "purgeable", "fds",
           "coalition", "rpages", "reason", "pid", "idleDelta", "freeze_skip_reason:", "physicalPages",
           "name", "cpuTime", "lifetimeMax"],
    "17": ["uuid", "states", "killDelta", "genCount", "age", "purgeable", "fds", "coalition",
           "rpages", "priority", "reason", "physicalPages", "freeze_skip_reason:", "pid", "idleDelta",
           "name", "cpuTime", "lifetimeMax"],
    "18": ["states", "genCount", "purgeable", "rpages", "physicalPages", "mem_regions", "uuid", "fds",
           "name", "priority", "csTrustLevel", "cpuTime", "freeze_skip_reason:", "idleDelta", "age",
           "coalition", "csFlags", "reason", "pid", "lifetimeMax", "killDelta"],
}


def order(d: dict, keys: list[str]) -> dict:
    out = {k: d[k] for k in keys if k in d}
    for k, v in d.items():  # keys not in the order list go last
        if k not in out:
            out[k] = v
    return out


class ReportBuilder:
    def __init__(self, rng: random.Random, nprocs: int):
        self.rng = rng
        self.nprocs = nprocs

    def proc(self, bk: str, *, pid: int, name: str, states: list[str], priority: int, rpages: int,
             coalition: int = 0, reason: str | None = None, trust: int = 7, cs_flags: int = 570434305,
             age_sec: float | None = None, kernel: bool = False, page_size: int = 16384) -> dict:
        rng = self.rng
        scale = BUILDS[bk][5]
        ios18 = BUILDS[bk][6]
        p: dict = {}
        p["uuid"] = "00000000-0000-0000-0000-000000000000" if kernel else rand_uuid(rng)
        p["states"] = states
        if reason:
            p["killDelta"] = rng.randint(9_000, 4_500_000)
            p["genCount"] = rng.randint(0, 3)
        if age_sec is None:
            age_sec = rng.uniform(30, 86400) if rng.random() < 0.7 else rng.uniform(86400, 6 * 86400)
        p["age"] = int(age_sec * TICKS_PER_SEC)
        lifetime = rpages + rng.randint(0, max(1, rpages // 3))
        if reason == "per-process-limit":
            lifetime = rpages - rng.randint(0, 3)  # killed at its hard limit: peak == footprint
        elif rng.random() < 0.05:
            lifetime = max(1, rpages - rng.randint(1, max(1, rpages // 2)))  # lifetimeMax < rpages happens
        p["purgeable"] = 0 if rng.random() < 0.7 else rng.randint(1, max(1, rpages // 20))
        p["fds"] = rng.choice((25, 50, 50, 100, 100, 200, 400))
        if coalition and (kernel or reason or "daemon" not in states or rng.random() < 0.25):
            p["coalition"] = coalition  # omitted when 0 (many daemons have none in our model)
        p["rpages"] = rpages
        p["priority"] = priority if scale == 10 else (priority // 10 if priority != 999 else 999)
        if reason:
            p["reason"] = reason
        p["pid"] = pid
        if "idle" in states and rng.random() < 0.3:
            p["idleDelta"] = rng.randint(1_000_000, 9_000_000_000)
        if not kernel and (reason or (priority < 20 and "idle" not in states) or rng.random() < 0.05):  # freezer candidates (low bands) and victims
            p["freeze_skip_reason:"] = rng.choice(FREEZE_SKIP)
        if not kernel and (reason or rng.random() < 0.08):
            internal = max(0, rpages - rng.randint(0, max(1, rpages // 4)))
            compressed = rng.randint(0, max(1, rpages // 4))
            p["physicalPages"] = {"internal": [internal, compressed]}
        p["name"] = truncate_name(name)
        cpu = rng.uniform(0.001, 4000.0) if not kernel else rng.uniform(20000, 90000)
        p["cpuTime"] = round(cpu, 6)  # microsecond values, printed with %.17g
        p["lifetimeMax"] = lifetime
        if ios18:
            p["mem_regions"] = rng.randint(40, 2500) if not kernel else rng.randint(5000, 9000)
            p["csTrustLevel"] = 0 if kernel else trust
            p["csFlags"] = 0 if kernel else cs_flags
        return order(p, PROC_KEY_ORDER[bk])

    def build(self, index: int, device, bk: str, reporter_key: str, when: datetime) -> tuple[dict, dict, dict]:
        rng = self.rng
        ident, ram_mb, soc, fg_limits, bg_limit_mb, _ = device
        osver, build, darwin, xnu, kdate, scale, ios18, _year = BUILDS[bk]
        page_size = 16384
        total_pages = ram_mb * MiB // page_size
        os_version = f"{osver} ({build})"
        incident = str(uuid.UUID(int=rng.getrandbits(128), version=4)).upper()

        procs: list[dict] = []
        truth = {"foreground": [], "background": [], "extension": [], "daemon": []}
        used_pids: set[int] = set()

        def new_pid(lo=60, hi=9000):
            while True:
                pid = rng.randint(lo, hi)
                if pid not in used_pids:
                    used_pids.add(pid)
                    return pid

        used_pids.update((0, 1))
        coal_next = [rng.randint(200, 900)]

        def coal():
            coal_next[0] += rng.randint(1, 40)
            return coal_next[0]

        P = self.proc
        # kernel_task and launchd: INTERNAL band
        procs.append(P(bk, pid=0, name="kernel_task", states=["daemon"], priority=999,
                       rpages=rng.randint(18000, 42000) * ram_mb // 4096, kernel=True,
                       age_sec=rng.uniform(2, 20) * 86400))
        procs.append(P(bk, pid=1, name="launchd", states=["daemon"], priority=999,
                       rpages=rng.randint(300, 700), coalition=1, trust=8))
        procs.append(P(bk, pid=new_pid(30, 60), name="SpringBoard", states=[], priority=160,
                       rpages=rng.randint(9000, 22000), coalition=coal(), trust=8))
        procs.append(P(bk, pid=new_pid(30, 60), name="backboardd",
                       states=["active"] if ios18 else ["daemon"], priority=170,
                       rpages=rng.randint(5000, 16000), coalition=coal(), trust=8))

        # The frontmost app killed per-process-limit, with a WebContent sharing its coalition.
        app = rng.choice(APP_NAMES)
        app_coal = coal()
        fg_mb = fg_limits[BUILD_INDEX[bk]]
        fg_rpages = rpages_for_mb(fg_mb, page_size, rng.randint(0, 7))
        procs.append(P(bk, pid=new_pid(3000, 9000), name=app, states=["frontmost"], priority=100,
                       rpages=fg_rpages, coalition=app_coal, reason="per-process-limit",
                       trust=5, cs_flags=rng.choice((570434307, 2717920001, 2717909761))))
        truth["foreground"].append(fg_rpages * page_size // MiB)
        procs.append(P(bk, pid=new_pid(3000, 9000), name="com.apple.WebKit.WebContent",
                       states=["frontmost"], priority=100, rpages=rng.randint(3000, 20000),
                       coalition=app_coal))
        procs.append(P(bk, pid=new_pid(3000, 9000), name="com.apple.WebKit.Networking",
                       states=["daemon"], priority=100, rpages=rng.randint(300, 1200),
                       coalition=app_coal))

        if rng.random() < 0.30:
            other = rng.choice([a for a in APP_NAMES if a != app])
            bg_rpages = rpages_for_mb(bg_limit_mb, page_size, rng.randint(0, 7))
            procs.append(P(bk, pid=new_pid(1000, 9000), name=other, states=["suspended"], priority=20,
                           rpages=bg_rpages, coalition=coal(), reason="per-process-limit", trust=5,
                           cs_flags=2717920001))
            truth["background"].append(bg_rpages * page_size // MiB)

        if rng.random() < 0.25:
            suffix, ext_mb = rng.choice(EXTENSIONS)
            host = rng.choice(APP_NAMES).replace(" ", "")[: 32 - len(suffix)]  # keep the suffix visible
            ext_rpages = rpages_for_mb(ext_mb, page_size, rng.randint(0, 7))
            procs.append(P(bk, pid=new_pid(1000, 9000), name=host + suffix, states=["background"],
                           priority=40, rpages=ext_rpages, coalition=coal(), reason="per-process-limit",
                           trust=5, cs_flags=2717920001))
            truth["extension"].append(ext_rpages * page_size // MiB)

        # Suspended apps
        for _ in range(rng.randint(3, 9)):
            procs.append(P(bk, pid=new_pid(1000, 9000), name=rng.choice(APP_NAMES),
                           states=["suspended"], priority=rng.choice((0, 20, 30)),
                           rpages=rng.randint(1500, 25000), coalition=coal(), trust=5,
                           cs_flags=2717920001))

        # Idle daemons killed vm-pageshortage
        for _ in range(rng.randint(2, 5)):
            procs.append(P(bk, pid=new_pid(), name=rng.choice(DAEMONS), states=["daemon", "idle"],
                           priority=0, rpages=rng.randint(150, 2500), coalition=coal(),
                           reason="vm-pageshortage"))

        # Fill with daemons and a few app extensions until nprocs.
        while len(procs) < self.nprocs:
            r = rng.random()
            if r < 0.06:
                suffix, _mb = rng.choice(EXTENSIONS)
                procs.append(P(bk, pid=new_pid(1000, 9000),
                               name=rng.choice(APP_NAMES).replace(" ", "") + suffix,
                               states=["suspended"], priority=rng.choice((0, 20, 40)),
                               rpages=rng.randint(300, 1800), coalition=coal(), trust=5,
                               cs_flags=2717920001))
            elif r < 0.45:
                procs.append(P(bk, pid=new_pid(), name=rng.choice(DAEMONS), states=["daemon", "idle"],
                               priority=rng.choice((0, 0, 0, 10, 20)), rpages=rng.randint(80, 3000),
                               coalition=coal()))
            else:
                procs.append(P(bk, pid=new_pid(), name=rng.choice(DAEMONS), states=["daemon"],
                               priority=rng.choice((40, 50, 80, 90, 120, 150, 170, 180, 180, 190)),
                               rpages=rng.randint(150, 9000), coalition=coal()))

        # Entries appear in band order (lowest band first); ties keep insertion order.
        procs.sort(key=lambda p: (p["priority"], p["pid"]))
        largest = max(procs, key=lambda p: p["rpages"])["name"]

        # memoryStatus: (active+inactive+free+speculative+wired+throttled+compressorSize) ~ 90-100 % RAM
        target = int(total_pages * rng.uniform(0.90, 0.99))
        wired = int(target * rng.uniform(0.16, 0.24))
        compressor = int(target * rng.uniform(0.08, 0.20))
        free = int(target * rng.uniform(0.005, 0.02))
        spec = int(target * rng.uniform(0.001, 0.01))
        rest = target - wired - compressor - free - spec
        active = int(rest * rng.uniform(0.50, 0.62))
        inactive = rest - active
        file_backed = int((active + inactive + spec) * rng.uniform(0.35, 0.55))
        anonymous = active + inactive + spec - file_backed
        zone_cap = ram_mb * MiB * 35 // 100 // 16384 * 16384
        memory_status = {
            "compressorSize": compressor,
            "compressions": rng.randint(5_000_000, 90_000_000),
            "decompressions": rng.randint(3_000_000, 60_000_000),
            "zoneMapCap": zone_cap,
            "largestZone": rng.choice(LARGEST_ZONES),
            "largestZoneSize": rng.randint(20, 120) * 1_048_576 + rng.randint(0, 63) * 16384,
            "pageSize": page_size,
            "uncompressed": int(compressor * rng.uniform(2.0, 3.5)),
            "zoneMapSize": rng.randint(250, 700) * 1_048_576,
            "memoryPages": {
                "active": active, "throttled": 0, "fileBacked": file_backed, "wired": wired,
                "anonymous": anonymous, "purgeable": rng.randint(0, 2000), "inactive": inactive,
                "free": free, "speculative": spec,
            },
        }

        date_str = when.strftime("%Y-%m-%d %H:%M:%S")
        tz = when.strftime("%z")
        header = {"bug_type": "298", "timestamp": f"{date_str}.00 {tz}", "os_version": os_version}
        if ios18:
            header["roots_installed"] = 0
        header["incident_id"] = incident
        kernel = (f"Darwin Kernel Version {darwin}: {kdate}; root:{xnu}/RELEASE_ARM64_{soc}")
        body_date = f"{date_str}.{rng.randint(1, 99):02d} {tz}"
        common = {
            "crashReporterKey": reporter_key, "kernel": kernel, "product": ident,
            "incident": incident, "date": body_date, "build": os_version,
        }
        if ios18:
            body = {"build": os_version, "product": ident, "kernel": kernel, "incident": incident,
                    "crashReporterKey": reporter_key, "date": body_date, "codeSigningMonitor": 2,
                    "bug_type": "298"}
        else:
            body = dict(common)
        body["timeDelta"] = rng.randint(3, 900)
        body["memoryStatus"] = memory_status
        body["largestProcess"] = largest
        body["genCounter"] = rng.randint(0, 40)
        body["processes"] = procs
        return header, body, truth


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True, help="output folder (created)")
    ap.add_argument("--count", type=int, default=1000, help="number of distinct reports")
    ap.add_argument("--processes", type=int, default=400, help="processes per report")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--duplicates", type=int, default=0,
                    help="also write N exact duplicates (same bytes, same incident) as .ips.synced")
    ap.add_argument("--manifest", default=None,
                    help="also write the expected per-(product, build) limits as JSON to this path "
                         "(keep it outside OUT so that it is not read as a report)")
    args = ap.parse_args(argv)

    rng = random.Random(args.seed)
    os.makedirs(args.out, exist_ok=True)

    # A population of physical devices (product + crashReporterKey), several reports each.
    fleet = []
    for dev in DEVICES:
        for _ in range(5):
            fleet.append((dev, rand_hex(rng, 40)))

    builder = ReportBuilder(rng, args.processes)
    written = []
    expected: dict[str, dict] = {}
    total_bytes = 0
    base = datetime(2024, 3, 1, 8, 0, 0, tzinfo=timezone(timedelta(hours=2)))
    for i in range(args.count):
        dev, key = rng.choice(fleet)
        bk = rng.choice(dev[5])
        year = BUILDS[bk][7]
        when = base.replace(year=year) + timedelta(seconds=rng.randint(0, 200 * 86400))
        header, body, truth = builder.build(i, dev, bk, key, when)
        text = render_report(header, body)
        name = f"JetsamEvent-{when.strftime('%Y-%m-%d-%H%M%S')}-{i:05d}.ips"
        path = os.path.join(args.out, name)
        data = text.encode("utf-8")
        with open(path, "wb") as f:
            f.write(data)
        total_bytes += len(data)
        written.append(path)
        row = expected.setdefault(f"{dev[0]}|{header['os_version']}",
                                  {"reports": 0, "foreground": [], "background": [], "extension": []})
        row["reports"] += 1
        for k in ("foreground", "background", "extension"):
            row[k].extend(truth[k])

    for j in range(args.duplicates):
        src = written[rng.randrange(len(written))]
        dst = os.path.join(args.out, os.path.basename(src)[:-4] + f"-dup{j:03d}.ips.synced")
        with open(src, "rb") as f, open(dst, "wb") as g:
            g.write(f.read())

    if args.manifest:
        mpath = args.manifest
        summary = {}
        for k, row in sorted(expected.items()):
            s = {"reports": row["reports"]}
            for cls in ("foreground", "background", "extension"):
                vals = sorted(row[cls])
                s[cls] = {"count": len(vals), "min": vals[0] if vals else None,
                          "max": vals[-1] if vals else None}
            summary[k] = s
        with open(mpath, "w") as f:
            json.dump({"seed": args.seed, "count": args.count, "processes": args.processes,
                       "duplicates": args.duplicates, "rows": summary}, f, indent=1, sort_keys=True)

    print(f"wrote {args.count} reports (+{args.duplicates} duplicates) to {args.out}: "
          f"{total_bytes / 1e6:.1f} MB, {total_bytes / max(1, args.count) / 1e3:.1f} KB/report",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
