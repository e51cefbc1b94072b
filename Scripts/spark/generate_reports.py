#!/usr/bin/env python3
"""Writes N crash reports varied from the project's Corpus: signatures, app versions, OS versions, devices, dates.

The fleet report and the Spark recipe are tested and measured on these (never on real users' reports). The
template is Corpus/crash/ios17.2.1_309_json_exc_crash_sigabrt_nsexception_leb_unknown_keys.ips, trimmed to its
crashed thread (about 4 KB a report); one report in ten is the KSCrash report
Corpus/kscrash/v3.1.0_ios16.6_arm64_nsexception_unrecognized_selector.json, so KSCrash crashes are grouped with
the rest. Signatures follow a long tail (signature k about 1/(k+1) as often as the first); the last five only
occur in the newest version, so the report has groups that are new in it. Same seed, same files.

    generate_reports.py OUT_DIR --count 5000 [--seed 7] [--signatures 60]
"""
import argparse
import copy
import datetime
import json
import os
import random
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
    args = parser.parse_args()
    rng = random.Random(args.seed)
    header, body = load_ips()
    with open(KSCRASH, encoding="utf-8") as handle:
        kscrash = json.load(handle)
    ips, ks = ips_template(header, body), kscrash_template(kscrash)
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
