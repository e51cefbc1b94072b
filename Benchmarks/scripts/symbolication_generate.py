#!/usr/bin/env python3
"""Writes C sources for the symbolication benchmark: UNITS compile units of FUNCTIONS functions each, every
function calling two always_inline helpers (so the DWARF has inline chains), half the units DWARF 4 and half
DWARF 5 (the build script picks the flag by the file name). With --prefix, the function names differ, and so do the
images and their UUIDs (symbolication_fleet.sh builds ten)."""
import argparse
import os

parser = argparse.ArgumentParser()
parser.add_argument("--out", required=True)
parser.add_argument("--units", type=int, default=1000)
parser.add_argument("--functions", type=int, default=5)
parser.add_argument("--prefix", default="", help="prepended to every function name, so that images differ")
args = parser.parse_args()
os.makedirs(args.out, exist_ok=True)
for unit in range(args.units):
    version = 4 if unit % 2 == 0 else 5
    lines = [
        f"static inline __attribute__((always_inline)) int inner_{unit}(int x) {{ return x * {unit % 7 + 3} + {unit}; }}",
        f"static inline __attribute__((always_inline)) int outer_{unit}(int x) {{",
        f"    int y = inner_{unit}(x);",
        "    return y ^ (x >> 2);",
        "}",
    ]
    for function in range(args.functions):
        lines += [
            f"int {args.prefix}unit{unit}_function{function}(int count) {{",
            "    int sum = 0;",
            "    for (int i = 0; i < count; i++) {",
            f"        sum += outer_{unit}(i + {function});",
            "    }",
            "    return sum;",
            "}",
        ]
    with open(os.path.join(args.out, f"u{unit:05d}_dwarf{version}.c"), "w") as handle:
        handle.write("\n".join(lines) + "\n")
