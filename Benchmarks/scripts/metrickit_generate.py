#!/usr/bin/env python3
"""Writes synthetic MetricKit payload files for the fleet-view benchmark (metrickit_compare.sh).

    python3 Benchmarks/scripts/metrickit_generate.py --out DIR [--count 1000] [--seed 1]

Each file is what an app writes from `MXMetricManagerSubscriber`: a JSON array holding one MXMetricPayload
(`jsonRepresentation()` layout: unit strings such as "2,810 sec" and "200 ms", histograms keyed "0", "1" ...) and,
in every third file, one MXDiagnosticPayload with a hang or CPU-exception diagnostic (metadata only, a two-frame
call-stack tree). App versions, device types and OS builds come from small fixed lists; counts are random but
deterministic for a seed. All values are invented.
"""

import argparse
import json
import os
import random

VERSIONS = ["3.0.2", "3.1.0", "3.1.4", "3.2.0", "3.2.1"]
DEVICES = ["iPhone12,1", "iPhone13,2", "iPhone14,5", "iPhone15,2", "iPhone15,3", "iPad13,4"]
OSES = ["iPhone OS 16.7.2 (20H115)", "iPhone OS 17.4.1 (21E236)", "iPhone OS 17.5.1 (21F90)"]
FOREGROUND = ["Normal", "Abnormal", "AppWatchdog", "MemoryResourceLimit", "BadAccess", "IllegalInstruction"]
BACKGROUND = FOREGROUND + ["MemoryPressure", "SuspendedWithLockedFile", "CPUResourceLimit",
                           "BackgroundTaskAssertionTimeout"]


def grouped(n):
    return f"{n:,}"


def histogram(rng, edges, unit, scale):
    buckets = {}
    for i, (start, end) in enumerate(zip(edges, edges[1:])):
        buckets[str(i)] = {"bucketStart": f"{grouped(start)} {unit}", "bucketEnd": f"{grouped(end)} {unit}",
                           "bucketCount": rng.randint(0, scale)}
    return {"histogramNumBuckets": len(buckets), "histogramValue": buckets}


def metric_payload(rng, day):
    version, device, os_version = rng.choice(VERSIONS), rng.choice(DEVICES), rng.choice(OSES)
    fg = {}
    for reason in FOREGROUND:
        key = "cumulativeNormalAppExitCount" if reason == "Normal" else f"cumulative{reason}ExitCount"
        fg[key] = rng.randint(0, 20 if reason == "Normal" else 3)
    bg = {}
    for reason in BACKGROUND:
        key = "cumulativeNormalAppExitCount" if reason == "Normal" else f"cumulative{reason}ExitCount"
        bg[key] = rng.randint(0, 30 if reason in ("Normal", "MemoryPressure") else 4)
    return {
        "appVersion": version,
        "timeStampBegin": f"2024-04-{day:02d} 00:00:00 +0000",
        "timeStampEnd": f"2024-04-{day:02d} 23:59:00 +0000",
        "metaData": {"appBuildVersion": version.replace(".", ""), "osVersion": os_version, "regionFormat": "US",
                     "deviceType": device, "platformArchitecture": "arm64e",
                     "bundleIdentifier": "com.example.fernway", "pid": 0},
        "cpuMetrics": {"cumulativeCPUTime": f"{grouped(rng.randint(10, 900))} sec"},
        "memoryMetrics": {"peakMemoryUsage": f"{grouped(rng.randint(100_000, 700_000))} kB"},
        "applicationTimeMetrics": {"cumulativeForegroundTime": f"{grouped(rng.randint(60, 7200))} sec",
                                   "cumulativeBackgroundTime": f"{grouped(rng.randint(0, 3600))} sec"},
        "applicationLaunchMetrics": {
            "histogrammedTimeToFirstDraw": histogram(rng, [0, 200, 400, 600, 800, 1000, 1500, 2000], "ms", 12),
            "histogrammedApplicationResumeTime": histogram(rng, [0, 100, 200, 300], "ms", 20),
        },
        "applicationResponsivenessMetrics": {
            "histogrammedApplicationHangTime": histogram(rng, [0, 250, 1000, 3000, 6000], "ms", 8),
        },
        "applicationExitMetrics": {"foregroundExitData": fg, "backgroundExitData": bg},
    }


def diagnostic_payload(rng, day):
    kind = rng.choice(["hangDiagnostics", "cpuExceptionDiagnostics"])
    diagnostic = {
        "version": "1.0.0",
        "diagnosticMetaData": {"appVersion": rng.choice(VERSIONS), "appBuildVersion": "400",
                               "osVersion": rng.choice(OSES), "deviceType": rng.choice(DEVICES),
                               "platformArchitecture": "arm64e", "bundleIdentifier": "com.example.fernway"},
        "callStackTree": {"callStackPerThread": kind == "hangDiagnostics", "callStacks": [{
            "threadAttributed": True,
            "callStackRootFrames": [{"binaryUUID": "6C3E5A41-2B7D-4F0E-9A1C-3D5B7E9F1A2C", "address": 4345678912,
                                     "binaryName": "Fernway", "offsetIntoBinaryTextSegment": 123456,
                                     "sampleCount": 20, "subFrames": [{
                                         "binaryUUID": "6C3E5A41-2B7D-4F0E-9A1C-3D5B7E9F1A2C",
                                         "address": 4345600000, "binaryName": "Fernway",
                                         "offsetIntoBinaryTextSegment": 44544, "sampleCount": 20}]}]}]},
    }
    if kind == "hangDiagnostics":
        diagnostic["diagnosticMetaData"]["hangDuration"] = f"{grouped(rng.randint(250, 9000))} ms"
    else:
        diagnostic["diagnosticMetaData"]["totalCPUTime"] = f"{rng.randint(60, 200)} sec"
        diagnostic["diagnosticMetaData"]["totalSampledTime"] = f"{rng.randint(180, 300)} sec"
    return {"timeStampBegin": f"2024-04-{day:02d} 00:00:00 +0000",
            "timeStampEnd": f"2024-04-{day:02d} 23:59:00 +0000", kind: [diagnostic]}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True)
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    os.makedirs(args.out, exist_ok=True)
    for index in range(args.count):
        day = 1 + index % 28
        payloads = [metric_payload(rng, day)]
        if index % 3 == 0:
            payloads.append(diagnostic_payload(rng, day))
        with open(os.path.join(args.out, f"metrickit-{index:06d}.json"), "w") as out:
            json.dump(payloads, out, indent=2, separators=(",", " : "))


if __name__ == "__main__":
    main()
