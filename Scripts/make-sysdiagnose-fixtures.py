#!/usr/bin/env python3
"""Builds the sysdiagnose-shaped and hostile archives in Corpus/sysdiagnose/ from the project's own Corpus files.

    python3 Scripts/make-sysdiagnose-fixtures.py

Deterministic (fixed mtimes, sorted members, gzip mtime 0), so re-running gives the same bytes.
"""
import gzip
import io
import os
import tarfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "Corpus", "sysdiagnose")
STEM = "sysdiagnose_2024.03.01_10-20-30-0800_iPhone-OS_iPhone_21D61"
MTIME = 1709317230


def add(tar, name, data, mode=0o644):
    info = tarfile.TarInfo(name)
    info.size = len(data)
    info.mtime = MTIME
    info.mode = mode
    tar.addfile(info, io.BytesIO(data))


def add_dir(tar, name):
    info = tarfile.TarInfo(name)
    info.type = tarfile.DIRTYPE
    info.mtime = MTIME
    info.mode = 0o755
    tar.addfile(info)


def read(*parts):
    with open(os.path.join(ROOT, *parts), "rb") as handle:
        return handle.read()


def write_tar_gz(path, build):
    with open(path, "wb") as handle:
        with gzip.GzipFile(fileobj=handle, mode="wb", mtime=0, filename="", compresslevel=9) as gz:
            with tarfile.open(fileobj=gz, mode="w", format=tarfile.USTAR_FORMAT) as tar:
                build(tar)
    with gzip.open(path, "rb") as check:
        return len(check.read(1 << 20))


def sysdiagnose(tar):
    add_dir(tar, STEM)
    add_dir(tar, STEM + "/crashes_and_spins")
    add(tar, STEM + "/remotectl_dumpstate.txt",
        b"Local device\n\tUUID: 00000000-0000-0000-0000-000000000000\n\tProperties:\n"
        b"\t\tProductType => iPhone15,3\n\t\tOSVersion => 17.3\n\t\tBuildVersion => 21D61\n")
    crash = [
        ("crashes_and_spins/Lumen-2024-02-28-101500.ips", ("Corpus", "crash", "ios14.4_text_exc_bad_access_sigsegv_kern_invalid_address.crash")),
        ("crashes_and_spins/Lumen-2024-02-29-090000.ips", ("Corpus", "crash", "ios14.4_text_exc_bad_access_sigsegv_kern_invalid_address.crash")),
        ("crashes_and_spins/Harbor-2024-02-27-120000.ips", ("Corpus", "crash", "ios17.2.1_309_json_exc_crash_sigabrt_nsexception_leb_unknown_keys.ips")),
        ("crashes_and_spins/Pixelia-2024-02-26-094217.ips", ("Corpus", "watchdog", "ios16.1_309_frontboard_scene-update_8badf00d_sync_network.ips")),
        ("crashes_and_spins/JetsamEvent-2024-02-25-230000.ips", ("Corpus", "jetsam", "ios16.5_iPhone14-7_priority-x10_freeze-skip-reason_per-process-limit.ips")),
        ("crashes_and_spins/Retired/JetsamEvent-2024-02-20-080000.ips", ("Corpus", "jetsam", "ios13.3.1_iPhone8-2_frontmost-per-process-limit_1450MB.ips")),
    ]
    for name, source in crash:
        add(tar, STEM + "/" + name, read(*source))
    powerlogs = sorted(p for p in os.listdir(os.path.join(ROOT, "Corpus", "powerlog")) if p.endswith(".PLSQL")) \
        if os.path.isdir(os.path.join(ROOT, "Corpus", "powerlog")) else []
    if powerlogs:
        add_dir(tar, STEM + "/logs/powerlogs")
        add(tar, STEM + "/logs/powerlogs/powerlog_2024-03-01_10-20_1A2B3C4D.PLSQL", read("Corpus", "powerlog", powerlogs[0]))
    add(tar, STEM + "/logs/SystemVersion/SystemVersion.plist",
        b"<?xml version=\"1.0\"?><plist version=\"1.0\"><dict><key>ProductBuildVersion</key><string>21D61</string></dict></plist>")
    add(tar, STEM + "/crashes_and_spins/._Lumen-2024-02-28-101500.ips", b"\x00\x05\x16\x07AppleDouble decoy")
    add(tar, STEM + "/ps.txt", b"USER PID %CPU COMMAND\nmobile 412 0.0 Lumen\n")


def traversal(tar):
    add(tar, "../../outside.ips", read("Corpus", "jetsam", "ios13.3.1_iPhone8-2_frontmost-per-process-limit_1450MB.ips"))
    add(tar, "/absolute/evil.ips", b"{\"bug_type\":\"298\"}\n{}\n")
    add(tar, "ok/JetsamEvent-2024-01-01.ips", read("Corpus", "jetsam", "ios13.3.1_iPhone8-2_frontmost-per-process-limit_1450MB.ips"))


def links(tar):
    info = tarfile.TarInfo("reports/escape.ips")
    info.type = tarfile.SYMTYPE
    info.linkname = "/etc/passwd"
    info.mtime = MTIME
    tar.addfile(info)
    info = tarfile.TarInfo("reports/hard.ips")
    info.type = tarfile.LNKTYPE
    info.linkname = "../../etc/shadow"
    info.mtime = MTIME
    tar.addfile(info)


class Zeros:
    """A stream of zero bytes, so the bomb is never held in memory."""

    def read(self, size=-1):
        return b"\x00" * (size if size and size > 0 else 0)


def bomb(tar):
    # 600 MiB of zeros compresses to about 600 KB: over scan's 256 MiB per-member bound, so it must be skipped
    # without being held in memory.
    info = tarfile.TarInfo("zeros.ips")
    info.size = 600 << 20
    info.mtime = MTIME
    tar.addfile(info, Zeros())


def main():
    os.makedirs(OUT, exist_ok=True)
    write_tar_gz(os.path.join(OUT, STEM + ".tar.gz"), sysdiagnose)
    hostile = os.path.join(OUT, "hostile")
    os.makedirs(hostile, exist_ok=True)
    write_tar_gz(os.path.join(hostile, "traversal.tar.gz"), traversal)
    write_tar_gz(os.path.join(hostile, "links.tar.gz"), links)
    write_tar_gz(os.path.join(hostile, "bomb.tar.gz"), bomb)
    write_tar_gz(os.path.join(hostile, "truncated-source.tar.gz"), sysdiagnose)
    with open(os.path.join(hostile, "truncated-source.tar.gz"), "rb") as handle:
        data = handle.read()
    os.remove(os.path.join(hostile, "truncated-source.tar.gz"))
    with open(os.path.join(hostile, "truncated.tar.gz"), "wb") as handle:
        handle.write(data[: len(data) * 2 // 3])
    print(f"wrote {STEM}.tar.gz and 4 hostile archives to {OUT}")


if __name__ == "__main__":
    main()
