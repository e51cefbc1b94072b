#!/usr/bin/env bash
# Symbolication oracle (issue 16): for every fixture dSYM, every slice, and every byte address of __text, our
# `apm-inspect atos --format json` must agree with llvm-symbolizer --inlines on the function, file, line, column
# and inline chain of each frame. Any difference fails the step; the counts are printed. Missing fixtures or a
# missing llvm-symbolizer fail it too (never a silent skip).
set -euo pipefail
: "${BIN:?BIN must name the apm-inspect binary}"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
FIXTURES="$ROOT/Tests/SymbolicationTests/Fixtures"
SYMBOLIZER="${LLVM_SYMBOLIZER:-$(command -v llvm-symbolizer || true)}"
OBJDUMP="${LLVM_OBJDUMP:-$(command -v llvm-objdump || true)}"
if [ -z "$SYMBOLIZER" ] || [ -z "$OBJDUMP" ]; then
  echo "FAIL: llvm-symbolizer and llvm-objdump are needed (Debian: apt-get install llvm)"; exit 1
fi
shopt -s nullglob
THUMB_FIXTURES="$ROOT/Tests/SymbolicationTests/ThumbFixtures"
dsyms=("$FIXTURES"/*.dSYM "$THUMB_FIXTURES"/*.dSYM)
if [ "${#dsyms[@]}" -eq 0 ]; then echo "FAIL: no fixture dSYM in $FIXTURES"; exit 1; fi
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
echo "oracle: $("$SYMBOLIZER" --version | grep -i version | head -1)"
total_addresses=0
total_frames=0
failed=0
for dsym in "${dsyms[@]}"; do
  name="$(basename "$dsym" .dSYM)"
  dwarf="$dsym/Contents/Resources/DWARF/$name"
  [ -f "$dwarf" ] || { echo "FAIL: $dwarf is missing"; exit 1; }
  archs="$("$OBJDUMP" --macho --universal-headers "$dwarf" 2>/dev/null | awk '/^architecture /{print $2}')"
  [ -n "$archs" ] || archs="$("$OBJDUMP" --macho --private-header "$dwarf" \
    | awk '/MH_MAGIC/{a = tolower($2); if (a == "arm") a = a tolower($3); print a}')"
  for arch in $archs; do
    case "$arch" in X86_64) arch=x86_64 ;; ARM64) arch=arm64 ;; esac
    # __text's address and size, from the dSYM's own section headers.
    read -r start size < <("$OBJDUMP" --macho --arch="$arch" --section-headers "$dwarf" \
      | awk '$2=="__text"{print "0x"$4, "0x"$3; exit}')
    [ -n "${start:-}" ] || { echo "FAIL: no __text in $dwarf ($arch)"; exit 1; }
    python3 -c "
import sys
start, size = int('$start', 16), int('$size', 16)
print('\n'.join(hex(a) for a in range(start, start + size)))" > "$WORK/addresses"
    xargs "$BIN" atos -o "$dsym" -arch "$arch" --format json < "$WORK/addresses" > "$WORK/ours.json"
    "$SYMBOLIZER" --inlines --no-demangle --output-style=JSON --default-arch="$arch" --obj="$dwarf" \
      < "$WORK/addresses" > "$WORK/llvm.json"
    if ! python3 - "$WORK/ours.json" "$WORK/llvm.json" "$name ($arch)" > "$WORK/compare.txt" <<'PY'
import json, sys
ours_path, llvm_path, label = sys.argv[1:4]
ours = json.load(open(ours_path))
llvm = []
with open(llvm_path) as handle:
    text = handle.read().strip()
    # One JSON array per input line, or one array for all of them, depending on the version.
    try:
        parsed = json.loads(text)
        llvm = parsed if isinstance(parsed, list) else [parsed]
    except json.JSONDecodeError:
        for line in text.splitlines():
            value = json.loads(line)
            llvm.extend(value if isinstance(value, list) else [value])
if len(ours) != len(llvm):
    print(f"{label}: {len(ours)} answers from us, {len(llvm)} from llvm-symbolizer"); sys.exit(1)
def theirs(entry):
    frames = []
    for f in entry.get("Symbol", []):
        if not f.get("FunctionName") and not f.get("FileName"):
            continue
        frames.append((f.get("FunctionName") or None, f.get("FileName") or None, f.get("Line") or None,
                       f.get("Column") or None))
    return frames
def mine(entry):
    return [(l["symbol"] or None, l.get("file"), l.get("line"), l.get("column")) for l in entry["locations"]]
differences = 0
frames = 0
for a, b in zip(ours, llvm):
    if int(a["address"], 16) != int(b["Address"], 16):
        print(f"{label}: answers out of step at {a['address']} / {b['Address']}"); sys.exit(1)
    x, y = mine(a), theirs(b)
    frames += len(y)
    if x != y:
        differences += 1
        if differences <= 20:
            print(f"{label} {a['address']}:\n  ours: {x}\n  llvm: {y}")
print(f"{label}: {len(ours)} addresses, {frames} frames, {differences} differences")
sys.exit(1 if differences else 0)
PY
    then
      failed=1
    fi
    cat "$WORK/compare.txt"
    total_addresses=$((total_addresses + $(wc -l < "$WORK/addresses")))
  done
done
echo "symbolication oracle: $total_addresses addresses compared"
if [ "$failed" -ne 0 ]; then echo "FAIL: symbolication differs from llvm-symbolizer"; exit 1; fi

# armv7 return addresses (issue 45): every call site of the Thumb fixture, its return address written as the link
# register holds it (the Thumb bit set for Thumb callers), must read as llvm-symbolizer reads the call instruction.
python3 "$ROOT/Scripts/thumb-call-site-oracle.py" --bin "$BIN" --fixtures "$THUMB_FIXTURES" \
  --symbolizer "$SYMBOLIZER" --objdump "$OBJDUMP" --nm "$(command -v llvm-nm || echo llvm-nm)"

# `uuid` against llvm-dwarfdump --uuid on every fixture file (binaries and dSYMs): the same lines, in the same order.
DWARFDUMP="${LLVM_DWARFDUMP:-$(command -v llvm-dwarfdump || true)}"
[ -n "$DWARFDUMP" ] || { echo "FAIL: llvm-dwarfdump is needed (Debian: apt-get install llvm)"; exit 1; }
uuid_files=0
for file in "$FIXTURES"/Demo-* "$FIXTURES"/*.dSYM/Contents/Resources/DWARF/* "$THUMB_FIXTURES/LedgerCore" \
  "$THUMB_FIXTURES"/*.dSYM/Contents/Resources/DWARF/*; do
  [ -f "$file" ] || continue
  "$DWARFDUMP" --uuid "$file" > "$WORK/uuid.llvm"
  "$BIN" uuid "$file" > "$WORK/uuid.ours"
  if ! diff -u "$WORK/uuid.llvm" "$WORK/uuid.ours"; then echo "FAIL: uuid differs from llvm-dwarfdump on $file"; exit 1; fi
  uuid_files=$((uuid_files + 1))
done
[ "$uuid_files" -ge 8 ] || { echo "FAIL: only $uuid_files fixture files for uuid"; exit 1; }
echo "uuid: $uuid_files files, the same lines as llvm-dwarfdump --uuid"

# `demangle` against swift-demangle --simplified on the fixtures' Swift names (from their symbol tables).
SWIFT_DEMANGLE="${SWIFT_DEMANGLE:-$(command -v swift-demangle || true)}"
[ -n "$SWIFT_DEMANGLE" ] || { echo "FAIL: swift-demangle (the Swift toolchain's) is needed"; exit 1; }
NM="${LLVM_NM:-$(command -v llvm-nm || true)}"
[ -n "$NM" ] || { echo "FAIL: llvm-nm is needed (Debian: apt-get install llvm)"; exit 1; }
"$NM" --defined-only -j "$FIXTURES/Demo-arm64" "$FIXTURES/Demo-x86_64" | grep -E '^_?(\$[sS]|_T0)' | sort -u > "$WORK/swift-names"
[ "$(wc -l < "$WORK/swift-names")" -ge 2 ] || { echo "FAIL: no Swift names in the fixtures"; exit 1; }
# swift-demangle is given the names without the Mach-O underscore: it reads `_$s` either way but `__T0` only
# without it, where ours (like atos) takes both.
sed 's/^_//' "$WORK/swift-names" | "$SWIFT_DEMANGLE" --simplified --compact > "$WORK/demangle.swift"
"$BIN" demangle < "$WORK/swift-names" > "$WORK/demangle.ours"
if ! diff -u "$WORK/demangle.swift" "$WORK/demangle.ours"; then echo "FAIL: demangle differs from swift-demangle"; exit 1; fi
echo "demangle: $(wc -l < "$WORK/swift-names") Swift names, the same as swift-demangle --simplified"

# Swift 1-3 manglings (`_T…`, read by our own old-mangling demangler): every name the same as swift-demangle's, with
# and without the Mach-O underscore.
python3 "$ROOT/Scripts/swift-old-manglings.py" 7 3000 > "$WORK/old-names"
"$SWIFT_DEMANGLE" --simplified < "$WORK/old-names" > "$WORK/old.swift"
"$BIN" demangle < "$WORK/old-names" > "$WORK/old.ours"
if ! cmp -s "$WORK/old.swift" "$WORK/old.ours"; then
  paste -d '\n' "$WORK/old-names" "$WORK/old.swift" "$WORK/old.ours" | paste - - - | awk -F'\t' '$2 != $3' | head -20
  echo "FAIL: demangle differs from swift-demangle on Swift 1-3 names"; exit 1
fi
sed 's/^/_/' "$WORK/old-names" | "$BIN" demangle | cmp -s "$WORK/old.swift" - \
  || { echo "FAIL: demangle reads Swift 1-3 names differently with the Mach-O underscore"; exit 1; }
echo "demangle: $(wc -l < "$WORK/old-names") Swift 1-3 names, the same as swift-demangle --simplified"

# System libraries without DWARF (the DeviceSupport fixtures, issue 45): at every byte of __text and 32 past it, our
# symbol-table answer (the nearest preceding symbol and the offset into it, nothing past the section) must be
# llvm-symbolizer's (FunctionName, Address - StartAddress).
SYSTEM_FIXTURES="$ROOT/Tests/SymbolicationTests/SystemFixtures"
# The armv7 dylib is copied away from its dSYM first: llvm-symbolizer reads a `NAME.dSYM` beside a binary by itself.
mkdir -p "$WORK/symtab-only"
cp "$THUMB_FIXTURES/LedgerCore" "$WORK/symtab-only/LedgerCore"
for lib in "$SYSTEM_FIXTURES/libsystem_kernel.dylib" "$SYSTEM_FIXTURES/UIKitCore" "$WORK/symtab-only/LedgerCore"; do
  [ -f "$lib" ] || { echo "FAIL: $lib is missing"; exit 1; }
  read -r start size < <("$OBJDUMP" --macho --section-headers "$lib" | awk '$2=="__text"{print "0x"$4, "0x"$3; exit}')
  python3 -c "
start, size = int('$start', 16), int('$size', 16)
print('\n'.join(hex(a) for a in range(start - 4, start + size + 32)))" > "$WORK/system-addresses"
  xargs "$BIN" atos -o "$lib" --format json < "$WORK/system-addresses" > "$WORK/system-ours.json"
  "$SYMBOLIZER" --no-demangle --output-style=JSON --obj="$lib" < "$WORK/system-addresses" > "$WORK/system-llvm.json"
  python3 - "$WORK/system-ours.json" "$WORK/system-llvm.json" "$(basename "$lib")" <<'PY'
import json, sys
ours = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read().strip()
try:
    parsed = json.loads(text)
    llvm = parsed if isinstance(parsed, list) else [parsed]
except json.JSONDecodeError:
    llvm = [json.loads(line) for line in text.splitlines()]
assert len(ours) == len(llvm), f"{len(ours)} answers from us, {len(llvm)} from llvm-symbolizer"
differences = 0
for a, b in zip(ours, llvm):
    address = int(b["Address"], 16)
    symbol = (b.get("Symbol") or [{}])[0]
    theirs = (symbol["FunctionName"], address - int(symbol["StartAddress"], 16)) if symbol.get("FunctionName") else None
    found = a["locations"][0] if a["locations"] else None
    mine = (found["symbol"], found["symbolOffset"]) if found else None
    if mine != theirs:
        differences += 1
        if differences <= 10: print(f"{sys.argv[3]} {b['Address']}: ours {mine}, llvm-symbolizer {theirs}")
if differences:
    print(f"FAIL: {sys.argv[3]}: {differences} of {len(ours)} addresses differ"); sys.exit(1)
print(f"{sys.argv[3]}: {len(ours)} addresses, the same symbol and offset as llvm-symbolizer")
PY
done

# C++ names against LLVM's demangler (llvm-cxxfilt 15 or newer, else the Swift toolchain's llvm-nm -C): the `_Z`
# symbols of the machine's large C++ libraries, an evenly spaced sample of 25,000 so the step stays short; at least
# 99.5 % must read the same. The full set (every shared library, 100,000 names and more): Scripts/cxx-demangle-names.sh.
shopt -s nullglob
cxx_libraries=(/usr/lib/llvm-*/lib/libLLVM-*.so /usr/lib/x86_64-linux-gnu/libstdc++.so.6 /usr/lib/aarch64-linux-gnu/libstdc++.so.6
  /usr/lib/*-linux-gnu/libicu*.so.[0-9]* /usr/lib/*-linux-gnu/libboost_*.so.* /opt/swift/usr/lib/liblldb.so)
bash "$ROOT/Scripts/cxx-demangle-names.sh" "${cxx_libraries[@]}" > "$WORK/cxx-names"
[ "$(wc -l < "$WORK/cxx-names")" -ge 10000 ] || { echo "FAIL: only $(wc -l < "$WORK/cxx-names") C++ names found"; exit 1; }
python3 "$ROOT/Scripts/cxx-demangle-oracle.py" --bin "$BIN" --names "$WORK/cxx-names" --sample 25000 --min-agreement 99.5
echo "symbolication oracle passed"
