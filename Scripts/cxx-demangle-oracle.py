#!/usr/bin/env python3
"""Compares `apm-inspect demangle` with LLVM's demangler (llvm-cxxfilt 15 or newer) on a list of mangled names.

LLVM's answer comes from llvm-cxxfilt when the one on PATH is LLVM 15 or newer; otherwise from the Swift toolchain's
llvm-nm (its LLVM is newer than 15, and `llvm-nm -C` prints names through the same demangler as llvm-cxxfilt) over
an object file assembled with the toolchain's clang whose symbols are the names. Prints the agreement, the classes
of the differences with examples, and exits 1 below --min-agreement (percent).

Usage: cxx-demangle-oracle.py --bin BIN --names FILE [--sample N] [--min-agreement 99.5] [--show 5]
"""
import argparse
import collections
import os
import re
import shutil
import subprocess
import sys
import tempfile


def llvm_version(tool):
    try:
        text = subprocess.run([tool, "--version"], capture_output=True, text=True, check=False).stdout
    except OSError:
        return 0
    match = re.search(r"LLVM version (\d+)", text)
    return int(match.group(1)) if match else 0


def with_cxxfilt(tool, names):
    text = subprocess.run([tool], input="\n".join(names) + "\n", capture_output=True, text=True, check=True).stdout
    return text.split("\n")[: len(names)]


def with_nm(nm, clang, names):
    with tempfile.TemporaryDirectory() as work:
        source = os.path.join(work, "names.s")
        with open(source, "w") as handle:
            handle.write(".text\n")
            for name in names:
                quoted = name.replace("\\", "\\\\").replace('"', '\\"')
                handle.write(f'.globl "{quoted}"\n"{quoted}":\n')
        obj = os.path.join(work, "names.o")
        subprocess.run([clang, "-c", "-x", "assembler", source, "-o", obj], check=True)
        listed = subprocess.run([nm, "-p", "-j", obj], capture_output=True, text=True, check=True).stdout
        if listed.split("\n")[: len(names)] != names:
            sys.exit("FAIL: llvm-nm lists the symbols in another order than they were written")
        shown = subprocess.run([nm, "-p", "-j", "-C", obj], capture_output=True, text=True, check=True).stdout
        return shown.split("\n")[: len(names)]


def llvm_answers(names):
    cxxfilt = os.environ.get("LLVM_CXXFILT") or shutil.which("llvm-cxxfilt")
    if cxxfilt and llvm_version(cxxfilt) >= 15:
        return with_cxxfilt(cxxfilt, names), f"{cxxfilt} (LLVM {llvm_version(cxxfilt)})"
    for folder in [os.environ.get("LLVM_TOOLCHAIN_BIN"), "/opt/swift/usr/bin", os.path.dirname(shutil.which("swift") or "")]:
        if not folder:
            continue
        nm, clang = os.path.join(folder, "llvm-nm"), os.path.join(folder, "clang")
        if os.access(nm, os.X_OK) and os.access(clang, os.X_OK) and llvm_version(nm) >= 15:
            return with_nm(nm, clang, names), f"{nm} -C (LLVM {llvm_version(nm)})"
    sys.exit("FAIL: no LLVM 15+ demangler: llvm-cxxfilt 15+ or the Swift toolchain's llvm-nm and clang are needed")


def difference_class(name, ours, llvm):
    if llvm == name:
        return "LLVM keeps the name mangled, ours demangles it"
    if ours == name:
        return "ours keeps the name mangled, LLVM demangles it"
    same = 0
    while same < min(len(ours), len(llvm)) and ours[same] == llvm[same]:
        same += 1
    if llvm.endswith(ours[same:]) and len(llvm) > len(ours):
        inserted = llvm[same : len(llvm) - (len(ours) - same)]
        if not inserted.strip():
            return "spacing: LLVM's `(* (…))` in a function type whose result is a pointer to function"
        if inserted.endswith(" "):
            return "LLVM prints the return type of a local entity's enclosing function (GNU omits it)"
        if inserted.startswith("("):
            return "LLVM prints the parameters of a function whose address is a template argument"
    if "decltype" in ours:
        return "decltype expressions: spacing and parentheses"
    return "other"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--names", required=True)
    parser.add_argument("--sample", type=int, default=0, help="evenly spaced names, at most this many (0: all)")
    parser.add_argument("--min-agreement", type=float, default=0.0)
    parser.add_argument("--show", type=int, default=3)
    args = parser.parse_args()
    with open(args.names, encoding="utf-8", errors="replace") as handle:
        names = [line.strip() for line in handle if line.strip()]
    if args.sample and len(names) > args.sample:
        names = [names[i * len(names) // args.sample] for i in range(args.sample)]
    if not names:
        sys.exit("FAIL: no names")
    llvm, oracle = llvm_answers(names)
    ours = subprocess.run([args.bin, "demangle"], input="\n".join(names) + "\n", capture_output=True, text=True,
                          check=True).stdout.split("\n")[: len(names)]
    if len(ours) != len(names) or len(llvm) != len(names):
        sys.exit(f"FAIL: {len(names)} names, {len(ours)} answers from us, {len(llvm)} from LLVM")
    classes = collections.defaultdict(list)
    same = 0
    for name, a, b in zip(names, ours, llvm):
        if a == b:
            same += 1
        else:
            classes[difference_class(name, a, b)].append((name, a, b))
    percent = 100.0 * same / len(names)
    print(f"c++ demangle: {len(names)} names, {same} the same as {oracle}: {percent:.3f} %")
    for label, rows in sorted(classes.items(), key=lambda item: -len(item[1])):
        print(f"  {len(rows):6d}  {label}")
        for name, a, b in rows[: args.show]:
            print(f"          {name[:160]}\n            ours: {a[:300]}\n            llvm: {b[:300]}")
    if percent < args.min_agreement:
        print(f"FAIL: {percent:.3f} % is under {args.min_agreement} %")
        sys.exit(1)


main()
