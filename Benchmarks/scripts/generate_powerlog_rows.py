#!/usr/bin/env python3
"""Writes a PowerLog database with N battery rows, the shape of the hostile-inputs `sqlite-rows` case.

usage: Benchmarks/scripts/generate_powerlog_rows.py --rows N --out PATH

The tables are those of Scripts/hostile-inputs.py (`write_powerlog`): iOS 15 table shapes, a time offset, 24 hours of
energy for three consumers, 20 process exits, and N battery rows (levels falling, charging alternating row by row).
Deterministic; an existing file at PATH is replaced. Python 3 standard library only.
"""
import argparse
import importlib.util
import os

HERE = os.path.dirname(os.path.abspath(__file__))

parser = argparse.ArgumentParser()
parser.add_argument("--rows", type=int, required=True)
parser.add_argument("--out", required=True)
args = parser.parse_args()
spec = importlib.util.spec_from_file_location("hostile_inputs", os.path.join(HERE, "..", "..", "Scripts", "hostile-inputs.py"))
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
if os.path.exists(args.out):
    os.remove(args.out)
module.write_powerlog(args.out, battery_rows=args.rows)
print(f"{args.out}: {args.rows} battery rows, {os.path.getsize(args.out)} bytes")
