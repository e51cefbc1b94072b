"""Times the index of a DeviceSupport-like folder source: COUNT copies of the fixture libsystem_kernel.dylib, each
with a UUID of its own and grown to SIZE bytes by a sparse tail (as large as real system libraries, at no disk
cost), in a tree shaped like `iOS DeviceSupport/<version> (<build>)/Symbols/...`, with the fixture's system crash
report symbolicated against it (`--symbols TREE`): cold (a new --symbol-cache each run: every file's headers read)
and cached (the folder's index reused: only the walk), median of 5 each; /usr/bin/time's peak memory of one run of
each.

Usage: python3 Scripts/measure-device-support-index.py BINARY REPO_ROOT [COUNT [SIZE]]
(docs/symbolication.md, "System frames: Xcode's DeviceSupport folders").
"""
import os, shutil, statistics, struct, subprocess, sys, tempfile, time

binary, root = sys.argv[1], sys.argv[2]
count = int(sys.argv[3]) if len(sys.argv) > 3 else 2000
size = int(sys.argv[4]) if len(sys.argv) > 4 else 8 << 20
os.chdir(root)
fixture = open("Tests/SymbolicationTests/SystemFixtures/libsystem_kernel.dylib", "rb").read()
report = "Tests/SymbolicationTests/SystemFixtures/reports/System-arm64e-ios.crash"

# The LC_UUID command's payload, so that each copy gets a UUID of its own.
ncmds = struct.unpack_from("<I", fixture, 16)[0]
at, uuid_at = 32, None
for _ in range(ncmds):
    cmd, cmdsize = struct.unpack_from("<II", fixture, at)
    if cmd == 0x1B:
        uuid_at = at + 8
    at += cmdsize
assert uuid_at is not None, "the fixture has no LC_UUID"

work = tempfile.mkdtemp()
tree = f"{work}/iOS DeviceSupport"
frameworks = ["UIKitCore", "Foundation", "CoreFoundation", "QuartzCore", "WebKit", "SwiftUI", "Combine", "Metal"]
for k in range(count):
    version = f"17.{k % 4} (21{'ABCD'[k % 4]}{100 + k % 4})"
    if k % 3 == 0:
        relative = f"{version}/Symbols/usr/lib/system/libsystem_{k}.dylib"
    else:
        name = f"{frameworks[k % len(frameworks)]}{k}"
        relative = f"{version}/Symbols/System/Library/PrivateFrameworks/{name}.framework/{name}"
    path = f"{tree}/{relative}"
    os.makedirs(os.path.dirname(path), exist_ok=True)
    data = bytearray(fixture)
    data[uuid_at:uuid_at + 16] = k.to_bytes(16, "big")
    with open(path, "wb") as handle:
        handle.write(data)
        handle.truncate(max(size, len(data)))


def run(cache):
    start = time.perf_counter()
    subprocess.run([binary, "symbolicate", report, "--symbols", tree, "--symbol-cache", cache],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


def peak(cache):
    result = subprocess.run(["/usr/bin/time", "-f", "%M", binary, "symbolicate", report, "--symbols", tree,
                             "--symbol-cache", cache], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    return int(result.stderr.strip().splitlines()[-1])


cold = [run(f"{work}/cold-{i}") for i in range(5)]
cold_peak = peak(f"{work}/cold-peak")
run(f"{work}/warm")
warm = [run(f"{work}/warm") for i in range(5)]
warm_peak = peak(f"{work}/warm")
shutil.rmtree(work)
print(f"{count} Mach-O files of {size} bytes each (sparse), {len(fixture)} bytes of Mach-O in each")
print("cold   median %.3f s  %s  peak %d KB" % (statistics.median(cold), ["%.3f" % x for x in cold], cold_peak))
print("cached median %.3f s  %s  peak %d KB" % (statistics.median(warm), ["%.3f" % x for x in warm], warm_peak))
