#!/usr/bin/env python3
"""Writes N crash reports varied from the project's Corpus: signatures, app versions, OS versions, devices, dates.

The fleet report and the Spark recipe are tested and measured on these (never on real users' reports). The
template is Corpus/crash/ios17.2.1_309_json_exc_crash_sigabrt_nsexception_leb_unknown_keys.ips, trimmed to its
crashed thread (about 4 KB a report); one report in ten is the KSCrash report
Corpus/kscrash/v3.1.0_ios16.6_arm64_nsexception_unrecognized_selector.json, so KSCrash crashes are grouped with
the rest. Signatures follow a long tail (signature k about 1/(k+1) as often as the first); the last five only
occur in the newest version, so the report has groups that are new in it. Same seed, same files.

With `--mixed F`, a share F of the reports are of the other kinds the fleet report aggregates, each a Corpus file
varied in its incident id, date, device and app version where the format carries them: KSCrash hangs, watchdog
kills and memory terminations (Corpus/kscrash), Apple watchdog terminations (Corpus/watchdog), JetsamEvents
(Corpus/jetsam, plus ones that kill the generated crashes' app at its limit, by UUID or by name, and `.synced`
copies), MetricKit metric and diagnostic payloads (Corpus/metrickit), resource reports 202 and 206
(Corpus/system), and a few files the report skips (a HAR capture, a text fragment without a signature).

    generate_reports.py OUT_DIR --count 5000 [--seed 7] [--signatures 60] [--mixed 0.4]
"""
import argparse
import copy
import datetime
import json
import os
import random
import re
import uuid

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
IPS = os.path.join(ROOT, "Corpus/crash/ios17.2.1_309_json_exc_crash_sigabrt_nsexception_leb_unknown_keys.ips")
KSCRASH = os.path.join(ROOT, "Corpus/kscrash/v3.1.0_ios16.6_arm64_nsexception_unrecognized_selector.json")
VERSIONS = ["3.3.0", "3.4.0", "3.4.1", "3.10.0"]  # 3.10.0 is the newest: versions order as numbers
BUILDS = {"3.3.0": "790", "3.4.0": "812", "3.4.1": "820", "3.10.0": "901"}
DEVICES = ["iPhone15,3", "iPhone14,7", "iPhone13,2", "iPhone16,2", "iPad13,4", "iPhone12,1"]
SYSTEMS = [("17.2.1", "21C66"), ("17.4", "21E219"), ("16.6", "20G75"), ("17.5.1", "21F90")]
START = datetime.datetime(2024, 5, 1, tzinfo=datetime.timezone(datetime.timedelta(hours=-5)))


def load_ips():
    with open(IPS, encoding="utf-8") as handle:
        header, body = handle.read().split("\n", 1)
    header, body = json.loads(header), json.loads(body)
    faulting = body["faultingThread"]
    body["threads"] = [body["threads"][faulting]]
    body["faultingThread"] = 0
    for key in ("vmSummary", "trialInfo", "asi"):
        body.pop(key, None)
    return header, body


def ips_template(header, body):
    """The JSON `.ips` as text with placeholders: substituting strings is ten times faster than a deep copy."""
    head = dict(header, timestamp="@TS@", app_version="@VER@", build_version="@BUILD@", os_version="@OSV@",
                incident_id="@ID@")
    report = copy.deepcopy(body)
    report.update(captureTime="@CT@", incident="@ID@", modelCode="@DEV@")
    report["osVersion"].update(train="@TRAIN@", build="@OSB@")
    report["bundleInfo"].update(CFBundleShortVersionString="@VER@", CFBundleVersion="@BUILD@")
    for frame in report["lastExceptionBacktrace"]:
        if frame.get("symbol") == "-[HBRMooringCache mooringAtIndex:]":
            frame["symbol"] = "-[HBRMooringCache@K@ mooringAtIndex:]"
    return json.dumps(head, separators=(",", ":")) + "\n" + json.dumps(report)


def kscrash_template(kscrash):
    report = copy.deepcopy(kscrash)
    report["report"].update(id="@ID@", timestamp="@TS@")
    report["system"].update(CFBundleShortVersionString="@VER@", CFBundleVersion="@BUILD@", machine="@DEV@",
                            system_version="@SYS@", os_version="@OSB@")
    for thread in report["crash"]["threads"]:
        for frame in thread.get("backtrace", {}).get("contents", []):
            if frame.get("symbol_name") == "-[DKTideTable reloadRowsForStation:]":
                frame["symbol_name"] = "-[DKTideTable@K@ reloadRowsForStation:]"
    return json.dumps(report)


MIXED = [  # (weight, family, Corpus file)
    (6, "kscrash", "Corpus/kscrash/v3.7.0_ios18.2_arm64_hang_recovered_sqlite_main_thread.json"),
    (4, "kscrash", "Corpus/kscrash/v3.7.0_ios18.2_arm64_watchdog_0x8badf00d_launch_hang.json"),
    (4, "kscrash", "Corpus/kscrash/v3.9.0_ios18.2_arm64_termination_memory_limit.json"),
    (3, "kscrash", "Corpus/kscrash/v2.0_ios12.4_arm64_sigabrt_abort_signal.json"),
    (5, "ips", "Corpus/watchdog/ios16.1_309_frontboard_scene-update_8badf00d_sync_network.ips"),
    (3, "ips", "Corpus/watchdog/ios17.2_309_runningboard_process-exit_app_uuid_thermal.ips"),
    (2, "text", "Corpus/watchdog/ios13.6_text_springboard_scene-create_8badf00d_semaphore.crash"),
    (2, "text", "Corpus/crash/ios14.4_text_exc_bad_access_sigsegv_kern_invalid_address.crash"),
    (6, "jetsam", "Corpus/jetsam/ios16.5_iPhone14-7_priority-x10_freeze-skip-reason_per-process-limit.ips"),
    (3, "jetsam", "Corpus/jetsam/ios18.5_iPhone16-2_cs-fields_sustained-memory-pressure_unknown-keys.ips"),
    (3, "jetsam", "Corpus/jetsam/ios13.3.1_iPhone8-2_frontmost-per-process-limit_1450MB.ips"),
    (8, "harbor-jetsam", None),
    (5, "metrickit", "Corpus/metrickit/ios17.4_metric_payload.json"),
    (2, "metrickit", "Corpus/metrickit/ios16.4.1_two_payloads_hangs_per_thread_tree.json"),
    (2, "metrickit", "Corpus/metrickit/ios17.5_crash_objc_exception_nsrangeexception.json"),
    (2, "metrickit", "Corpus/metrickit/ios27.0_diagnostic_report_memory_exception.json"),
    (1, "metrickit", "Corpus/metrickit/ios27.0_diagnostic_report_crash_bad_access.json"),
    (3, "system", "Corpus/system/ios26.2_206_cpu_usage_fatal_nightjar_process_killed.ips"),
    (3, "system", "Corpus/system/ios26.2_202_cpu_usage_nightjar_action_none.ips"),
    (1, "as-is", "Corpus/http/firefox_cache-hits_local-offset.har"),
    (1, "as-is", "Corpus/crash/fragment_indented_4sp_from_exception_type_null_frame_no_images.txt"),
]
OTHER_VERSIONS = ["3.1.6", "3.1.8", "3.2.0", "4.0.0", "4.1.0", ""]  # "" : a report without a version
HARBOR_UUID = "ba653f7d-d052-38f8-babe-c9cb4861dd33"  # the main binary of the crash template's app


def apple_time(when, fraction="00"):
    return when.strftime("%Y-%m-%d %H:%M:%S.") + fraction + when.strftime(" %z")


def set_keys(node, values):
    """Replaces, at any depth, the value of every key named in `values` (a function of the old value)."""
    if isinstance(node, dict):
        for key in list(node):
            if key in values:
                node[key] = values[key](node[key])
            else:
                set_keys(node[key], values)
    elif isinstance(node, list):
        for item in node:
            set_keys(item, values)


def mixed_report(family, text, rng, when, incident, device, version):
    """One report of `family` made from the Corpus file `text`: a new incident, date, device and app version."""
    build = str(100 + OTHER_VERSIONS.index(version)) if version else ""
    if family == "kscrash":
        report = json.loads(text)
        report["report"]["id"] = incident
        stamp = report["report"].get("timestamp")
        report["report"]["timestamp"] = (int(when.timestamp()) * 1_000_000 + rng.randrange(1_000_000)
                                         if isinstance(stamp, int) else
                                         when.astimezone(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"))
        report["system"].update(machine=device, CFBundleShortVersionString=version, CFBundleVersion=build)
        return json.dumps(report)
    if family == "ips":
        head, body = text.split("\n", 1)
        header, report = json.loads(head), json.loads(body)
        header.update(timestamp=apple_time(when), incident_id=incident, app_version=version, build_version=build)
        report.update(captureTime=apple_time(when, "0000"), incident=incident, modelCode=device)
        report.setdefault("bundleInfo", {}).update(CFBundleShortVersionString=version, CFBundleVersion=build)
        return json.dumps(header) + "\n" + json.dumps(report, indent=2)
    if family in ("text", "system"):
        if family == "system":
            head, text = text.split("\n", 1)
            header = json.loads(head)
            header.update(timestamp=apple_time(when), incident_id=incident, app_version=version)
            text = json.dumps(header) + "\n" + text
        text = re.sub(r"(?m)^(Incident Identifier: *)\S+", lambda m: m.group(1) + incident, text)
        text = re.sub(r"(?m)^(Date/Time: *)\S+ \S+ \S+", lambda m: m.group(1) + apple_time(when, "000"), text)
        text = re.sub(r"(?mi)^(Hardware model: *)\S+", lambda m: m.group(1) + device, text)
        return re.sub(r"(?m)^(Version: *)\S+ \((\S+)\)", lambda m: "%s%s (%s)" % (m.group(1), version or "???", build or "?"), text)
    if family == "jetsam":
        head, body = text.split("\n", 1)
        header, report = json.loads(head), json.loads(body)
        header.update(timestamp=apple_time(when), incident_id=incident)
        report.update(incident=incident, date=apple_time(when), product=device)
        return json.dumps(header) + "\n" + json.dumps(report, indent=2)
    if family == "metrickit":
        report = json.loads(text)
        day = when.astimezone(datetime.timezone.utc).strftime("%Y-%m-%d")
        set_keys(report, {"appVersion": lambda _: version, "applicationVersion": lambda _: version,
                          "appBuildVersion": lambda _: build, "applicationBuildVersion": lambda _: build,
                          "deviceType": lambda _: device,
                          "timeStampBegin": lambda _: day + " 00:00:00 +0000",
                          "timeStampEnd": lambda _: day + " 23:59:00 +0000"})
        return json.dumps(report, indent=1)
    return text


def harbor_jetsam(rng, when, incident, device):
    """A JetsamEvent that kills the generated crashes' app (Harbor): by its UUID, or by name only, at its limit or
    for memory pressure, beside a daemon and another app."""
    harbor = {"pid": rng.randrange(300, 9000), "name": "Harbor", "states": ["frontmost"], "rpages": 184320,
              "reason": rng.choice(["per-process-limit", "per-process-limit", "highwater", "vm-pageshortage"])}
    if rng.random() < 0.7:
        harbor["uuid"] = HARBOR_UUID
    body = {"product": device, "incident": incident, "date": apple_time(when, "12"),
            "build": "iPhone OS 17.2.1 (21C66)", "memoryStatus": {"pageSize": 16384}, "largestProcess": "Harbor",
            "processes": [harbor, {"pid": 88, "name": "mediaserverd", "states": ["daemon"], "rpages": 900},
                          {"pid": 412, "name": "Weather", "states": ["suspended"], "rpages": 5200,
                           "reason": "vm-pageshortage"}]}
    header = {"bug_type": "298", "timestamp": apple_time(when), "os_version": "iPhone OS 17.2.1 (21C66)",
              "incident_id": incident}
    return json.dumps(header) + "\n" + json.dumps(body, indent=2) + "\n"


def fill(template, values):
    for key, value in values.items():
        template = template.replace(key, value)
    return template


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--count", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--signatures", type=int, default=60)
    parser.add_argument("--mixed", type=float, default=0.0,
                        help="share of reports of the other kinds (KSCrash, watchdog, JetsamEvent, MetricKit, 202/206)")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    header, body = load_ips()
    with open(KSCRASH, encoding="utf-8") as handle:
        kscrash = json.load(handle)
    ips, ks = ips_template(header, body), kscrash_template(kscrash)
    texts = {path: open(os.path.join(ROOT, path), encoding="utf-8").read() for _, _, path in MIXED if path}
    weights = [1.0 / (k + 1) for k in range(args.signatures)]
    newest_only = set(range(max(0, args.signatures - 5), args.signatures))
    os.makedirs(args.out, exist_ok=True)
    for i in range(args.count):
        folder = os.path.join(args.out, "batch%04d" % (i // 1000))
        if i % 1000 == 0:
            os.makedirs(folder, exist_ok=True)
        k = rng.choices(range(args.signatures), weights)[0]
        version = VERSIONS[-1] if k in newest_only else rng.choice(VERSIONS)
        device = rng.choice(DEVICES)
        system, build = rng.choice(SYSTEMS)
        when = START + datetime.timedelta(seconds=rng.randrange(60 * 86400))
        incident = str(uuid.UUID(int=rng.getrandbits(128))).upper()
        if args.mixed > 0 and rng.random() < args.mixed:
            _, family, path = rng.choices(MIXED, [w for w, _, _ in MIXED])[0]
            other = rng.choice(OTHER_VERSIONS)
            if family == "harbor-jetsam":
                text, base = harbor_jetsam(rng, when, incident, device), "JetsamEvent.ips"
            else:
                text, base = mixed_report(family, texts[path], rng, when, incident, device, other), os.path.basename(path)
            name = "%07d_%s" % (i, base)
            with open(os.path.join(folder, name), "w", encoding="utf-8") as handle:
                handle.write(text)
            if family.endswith("jetsam") and rng.random() < 0.1:  # the copy a device syncs: counted once
                with open(os.path.join(folder, name + ".synced"), "w", encoding="utf-8") as handle:
                    handle.write(text)
            continue
        values = {"@K@": str(k) if k else "", "@VER@": version, "@BUILD@": BUILDS[version], "@DEV@": device,
                  "@OSB@": build, "@ID@": incident}
        if i % 10 == 9:
            values.update({"@TS@": when.astimezone(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
                           "@SYS@": system})
            name, text = "kscrash_%07d.json" % i, fill(ks, values)
        else:
            values.update({"@TS@": when.strftime("%Y-%m-%d %H:%M:%S.00 %z"),
                           "@CT@": when.strftime("%Y-%m-%d %H:%M:%S.0000 %z"),
                           "@OSV@": "iPhone OS %s (%s)" % (system, build), "@TRAIN@": "iPhone OS " + system})
            name, text = "crash_%07d.ips" % i, fill(ips, values)
        with open(os.path.join(folder, name), "w", encoding="utf-8") as handle:
            handle.write(text)


if __name__ == "__main__":
    main()
