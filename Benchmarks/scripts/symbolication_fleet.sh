#!/usr/bin/env bash
# A folder of crash reports symbolicated against ten dSYMs by `scan --dsym`: wall and CPU time, peak memory, and
# how many app frames came back with a function, for two folder sizes (memory should not grow with the reports).
#
#   Benchmarks/scripts/symbolication_fleet.sh [REPORTS...]      (default: 1000 4000)
#
# Builds ten arm64 iOS apps (App0 … App9, 100 compile units × 5 functions each, every name prefixed so that each
# image and its UUID differ) with the toolchain's clang, ld64.lld-19 and dsymutil-19, as
# symbolication_compare.sh does, into Benchmarks/data/symbolication-fleet (made once). Each generated report is a
# bug_type 309 `.ips` of one app with a second app loaded as a framework, 20 crashed-thread frames at random
# `__text` addresses of the two and one dyld frame already symbolicated; ten dSYMs are two more than the cache of
# open images holds, so images are opened again as reports move between apps.
set -euo pipefail
cd "$(dirname "$0")/../.."
SIZES=("$@"); [ ${#SIZES[@]} -gt 0 ] || SIZES=(1000 4000)
LLVM="${LLVM_BIN:-/usr/lib/llvm-19/bin}"
if ! command -v swift >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swift ]; then export PATH="/opt/swift/usr/bin:$PATH"; fi
DATA="Benchmarks/data/symbolication-fleet"
mkdir -p "$DATA/dsyms"
for app in 0 1 2 3 4 5 6 7 8 9; do
  [ -f "$DATA/dsyms/App$app.dSYM/Contents/Resources/DWARF/App$app" ] ||
    { Benchmarks/scripts/symbolication_build_image.sh "$DATA/dsyms" "App$app" 100 5 "app${app}_" &&
      rm -f "$DATA/dsyms/App$app"; }  # the dSYMs alone, as a CI artifact folder holds them
done
# name uuid text-vmaddr __text-start __text-size, one line per app (awk reads to the end: with pipefail, a reader
# that stops early would fail the pipeline).
for app in 0 1 2 3 4 5 6 7 8 9; do
  dwarf="$DATA/dsyms/App$app.dSYM/Contents/Resources/DWARF/App$app"
  uuid=$("$LLVM/llvm-dwarfdump" --uuid "$dwarf" | awk 'NR==1 {print $2}')
  segment=$("$LLVM/llvm-objdump" --macho --private-headers "$dwarf" |
    awk '$1=="segname" && $2=="__TEXT" {found=1} found && $1=="vmaddr" && !done {print $2; done=1}')
  text=$("$LLVM/llvm-objdump" --macho --section-headers "$dwarf" | awk '$2=="__text" && !done {print "0x"$4, "0x"$3; done=1}')
  echo "App$app $uuid $segment $text"
done > "$DATA/images"
swift build -c release --product apm-inspect >/dev/null
BIN="$(swift build -c release --show-bin-path)/apm-inspect"
for count in "${SIZES[@]}"; do
  folder="$DATA/reports-$count"
  if [ ! -d "$folder" ]; then
    mkdir -p "$folder"
    python3 - "$DATA/images" "$folder" "$count" <<'PY'
import json, random, sys
images = [line.split() for line in open(sys.argv[1])]
folder, count = sys.argv[2], int(sys.argv[3])
random.seed(count)
for n in range(count):
    picked = random.sample(images, 2)
    used, frames = [], []
    for index, (name, uuid, vmaddr, start, size) in enumerate(picked):
        base = 0x104000000 + index * 0x4000000
        used.append({"source": "P", "arch": "arm64", "base": base, "size": 0x400000, "uuid": uuid.lower(),
                     "path": f"/private/var/containers/Bundle/Application/X/{picked[0][0]}.app/{name}",
                     "name": name})
    for _ in range(20):
        index = random.randrange(2)
        _, _, vmaddr, start, size = picked[index]
        # Past the first instruction: a caller's frame is looked up at its return address - 1, which for the
        # first byte of __text lies before every function.
        address = int(start, 16) + 4 * random.randrange(1, int(size, 16) // 4)
        frames.append({"imageOffset": address - int(vmaddr, 16), "imageIndex": index})
    used.append({"source": "P", "arch": "arm64e", "base": 7548895232, "size": 540672,
                 "uuid": "0a1b2c3d-4e5f-3071-8293-a4b5c6d7e8f9", "path": "/usr/lib/dyld", "name": "dyld"})
    frames.append({"imageOffset": 111428, "symbol": "start", "symbolLocation": 1860, "imageIndex": 2})
    app = picked[0][0]
    header = {"app_name": app, "timestamp": "2026-11-20 14:32:07.00 +0100", "app_version": "1.0",
              "bug_type": "309", "os_version": "iPhone OS 17.1 (21B80)", "name": app,
              "incident_id": f"2F6B1E5C-8A0D-4C1B-9E7A-{n:012X}"}
    body = {"procName": app, "pid": 4000 + n % 1000, "cpuType": "ARM-64", "modelCode": "iPhone15,2",
            "captureTime": "2026-11-20 14:32:07.4120 +0100", "incident": header["incident_id"],
            "osVersion": {"train": "iPhone OS 17.1", "build": "21B80", "releaseType": "User"},
            "bundleInfo": {"CFBundleIdentifier": f"com.example.{app.lower()}", "CFBundleShortVersionString": "1.0",
                           "CFBundleVersion": "1"},
            "exception": {"type": "EXC_BAD_ACCESS", "signal": "SIGSEGV", "codes": "0x1, 0x10",
                          "subtype": "KERN_INVALID_ADDRESS at 0x0000000000000010"},
            "faultingThread": 0,
            "threads": [{"triggered": True, "id": 80211, "queue": "com.apple.main-thread", "frames": frames}],
            "usedImages": used}
    with open(f"{folder}/{app}-{n:05d}.ips", "w") as handle:
        handle.write(json.dumps(header) + "\n" + json.dumps(body, indent=2) + "\n")
PY
  fi
  echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
  /usr/bin/time -f "%e %U %S %M" -o "$DATA/time" "$BIN" scan "$folder" --dsym "$DATA/dsyms" -j 2 --format ndjson \
    > "$DATA/out-$count.ndjson"
  read -r wall user system peak < "$DATA/time"
  echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
  python3 - "$DATA/out-$count.ndjson" "$count" "$wall" "$user" "$system" "$peak" <<'PY'
import json, sys
path, count, wall, user, system, peak = sys.argv[1:]
reports = frames = resolved = 0
for line in open(path):
    envelope = json.loads(line)
    report = envelope.get("report") or {}
    reports += 1
    for thread in report.get("threads", []):
        for frame in thread.get("frames", []):
            if frame.get("image", "").startswith("App"):
                frames += 1
                resolved += bool(frame.get("symbol"))
print(f"{count} reports, 10 dSYMs: wall {wall} s, CPU {float(user) + float(system):.2f} s, peak {peak} KB; "
      f"{reports} read, {resolved} of {frames} app frames resolved")
sys.exit(0 if reports == int(count) and frames and resolved == frames else 1)
PY
done
