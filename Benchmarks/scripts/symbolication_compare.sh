#!/usr/bin/env bash
# Side-by-side timing of `apm-inspect atos` and llvm-symbolizer, each in one process, on the same addresses of a
# large generated dSYM; the answers are compared too (function, file, line, column, inline chain).
#
#   Benchmarks/scripts/symbolication_compare.sh [UNITS] [FUNCTIONS] [ADDRESSES] [RUNS]
#   (defaults: 1000 compile units × 5 functions, 100,000 addresses, 3 runs)
#
# Needs Debian's clang-capable Swift toolchain, lld-19 and llvm-19 (ld64.lld-19, dsymutil and llvm-symbolizer
# from /usr/lib/llvm-19/bin), as Scripts/make-symbolication-fixtures.sh does. Data goes to
# Benchmarks/data/symbolication-UNITS-FUNCTIONS (made once). Prints the median wall and CPU (user + system) time
# and the highest peak memory of each, and the load average before and after (bench_lib.sh's `measure` and
# `load_check`; rows to $BENCH_TSV, family `symbolication`). APM_INSPECT_BIN=path/to/apm-inspect skips the build.
set -euo pipefail
cd "$(dirname "$0")/../.."
UNITS="${1:-1000}"; FUNCTIONS="${2:-5}"; COUNT="${3:-100000}"; RUNS="${4:-3}"
LLVM="${LLVM_BIN:-/usr/lib/llvm-19/bin}"
if ! command -v swift >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swift ]; then export PATH="/opt/swift/usr/bin:$PATH"; fi
. Benchmarks/scripts/bench_lib.sh
bench_family symbolication
bench_python
DATA="Benchmarks/data/symbolication-$UNITS-$FUNCTIONS"
if [ ! -f "$DATA/Bench.dSYM/Contents/Resources/DWARF/Bench" ]; then
  rm -rf "$DATA"; mkdir -p "$DATA"
  Benchmarks/scripts/symbolication_build_image.sh "$DATA" Bench "$UNITS" "$FUNCTIONS"
fi
DWARF="$DATA/Bench.dSYM/Contents/Resources/DWARF/Bench"
read -r start size < <("$LLVM/llvm-objdump" --macho --section-headers "$DWARF" | awk '$2=="__text"{print "0x"$4, "0x"$3; exit}')
"$PY" -c "
import random
random.seed(1)
start, size = int('$start', 16), int('$size', 16)
print('\n'.join(hex(start + 4 * random.randrange(size // 4)) for _ in range($COUNT)))" > "$DATA/addresses"
bench_binary
echo "dSYM: $(du -k "$DWARF" | cut -f1) KB, __text $((size)) bytes, $UNITS units × $FUNCTIONS functions, $COUNT addresses"
bench_input "$DWARF"
cat "$DWARF" > /dev/null
load_check begin
BENCH_STDIN="$DATA/addresses"
BENCH_STDOUT="$DATA/ours.json" measure "apm-inspect atos --format json" "$RUNS" -- "$BIN" atos -o "$DATA/Bench.dSYM" --format json
measure "apm-inspect atos -i (text)" "$RUNS" -- "$BIN" atos -o "$DATA/Bench.dSYM" -i
BENCH_STDOUT="$DATA/llvm.json" measure "llvm-symbolizer --inlines JSON" "$RUNS" -- "$LLVM/llvm-symbolizer" --inlines \
  --no-demangle --output-style=JSON --obj="$DWARF"
measure "llvm-symbolizer --inlines (text)" "$RUNS" -- "$LLVM/llvm-symbolizer" --inlines --obj="$DWARF"
load_check end
unset BENCH_STDIN
"$PY" - "$DATA/ours.json" "$DATA/llvm.json" <<'PY'
import json, sys
ours = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read().strip()
try:
    llvm = json.loads(text)
    llvm = llvm if isinstance(llvm, list) else [llvm]
except json.JSONDecodeError:
    llvm = [v for line in text.splitlines() for v in (lambda x: x if isinstance(x, list) else [x])(json.loads(line))]
def theirs(e):
    return [(f.get("FunctionName") or None, f.get("FileName") or None, f.get("Line") or None, f.get("Column") or None)
            for f in e.get("Symbol", []) if f.get("FunctionName") or f.get("FileName")]
def mine(e):
    return [(l["symbol"] or None, l.get("file"), l.get("line"), l.get("column")) for l in e["locations"]]
differences = sum(1 for a, b in zip(ours, llvm) if mine(a) != theirs(b))
print(f"answers compared: {len(ours)} ours, {len(llvm)} llvm-symbolizer, {differences} differences")
sys.exit(1 if differences or len(ours) != len(llvm) else 0)
PY
