"""Generates a folder symbol source and reports that need it, for symbols_benchmark.sh.

  symbols_generate.py OUT --dsyms 1000 --reports 10000 [--seed 5]

OUT/dsyms holds DSYMS bundles, each the arm64 fixture dSYM's DWARF file with its LC_UUID replaced by a UUID of its
own (App-N.dSYM/Contents/Resources/DWARF/Demo); OUT/reports holds REPORTS copies of the fixture text crash report,
each naming one of those UUIDs for its Demo image (spread evenly, seeded), so every report needs one bundle.
"""
import argparse, os, random, uuid

root = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
fixtures = os.path.join(root, "Tests", "SymbolicationTests", "Fixtures")
dwarf = open(os.path.join(fixtures, "Demo-arm64.dSYM", "Contents", "Resources", "DWARF", "Demo-arm64"), "rb").read()
report = open(os.path.join(fixtures, "reports", "Demo-arm64-ios.crash"), encoding="utf-8").read()
ORIGINAL = "4c4c448655553144a1752df7479ac8fa"
assert dwarf.count(bytes.fromhex(ORIGINAL)) == 1, "the fixture's LC_UUID is not where it was"
assert report.count("<" + ORIGINAL + ">") == 1, "the fixture report no longer names the Demo image's UUID"

parser = argparse.ArgumentParser()
parser.add_argument("out")
parser.add_argument("--dsyms", type=int, default=1000)
parser.add_argument("--reports", type=int, default=10000)
parser.add_argument("--seed", type=int, default=5)
args = parser.parse_args()
rng = random.Random(args.seed)
uuids = [uuid.UUID(int=rng.getrandbits(128)).hex for _ in range(args.dsyms)]
for n, u in enumerate(uuids):
    folder = os.path.join(args.out, "dsyms", f"App-{n}.dSYM", "Contents", "Resources", "DWARF")
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "Demo"), "wb") as f:
        f.write(dwarf.replace(bytes.fromhex(ORIGINAL), bytes.fromhex(u)))
os.makedirs(os.path.join(args.out, "reports"), exist_ok=True)
for n in range(args.reports):
    u = uuids[n % len(uuids)]
    text = report.replace("<" + ORIGINAL + ">", "<" + u + ">").replace("[4242]", f"[{1000 + n % 50000}]")
    with open(os.path.join(args.out, "reports", f"report-{n}.crash"), "w", encoding="utf-8") as f:
        f.write(text)
print(f"{args.dsyms} dSYMs and {args.reports} reports in {args.out}")
