#!/usr/bin/env bash
# Regenerates the symbolication fixtures in Tests/SymbolicationTests/Fixtures from the sources in its src/ folder:
# Swift's clang cross-compiles them for iOS arm64 and macOS x86_64, ld64.lld links them without an SDK (no
# libSystem: nothing in the sources calls the C library, and the entry point is given with -e), dsymutil makes
# each dSYM, llvm-lipo makes the fat binary, and MANIFEST.md records what llvm-dwarfdump says of each file.
#
# Usage: Scripts/make-symbolication-fixtures.sh   (from anywhere; needs clang from the Swift toolchain,
# ld64.lld from Debian's lld, and dsymutil, llvm-dwarfdump, llvm-lipo from Debian's llvm: apt-get install lld-19 llvm-19; LLVM 14's dsymutil
# drops DWARF 5 forms that clang 21 writes).
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
fixtures="$here/Tests/SymbolicationTests/Fixtures"
src="$fixtures/src"
toolchain=${SWIFT_TOOLCHAIN_BIN:-/opt/swift/usr/bin}
clang="$toolchain/clang"
find_tool() {
    for candidate in "$@"; do
        if command -v "$candidate" >/dev/null 2>&1; then command -v "$candidate"; return; fi
    done
    echo "missing tool: $*" >&2
    exit 1
}
dsymutil=$(find_tool dsymutil-22 dsymutil-21 dsymutil-20 dsymutil-19)
dwarfdump=$(find_tool llvm-dwarfdump-22 llvm-dwarfdump-21 llvm-dwarfdump-20 llvm-dwarfdump-19 llvm-dwarfdump)
# Debian's ld64.lld (package lld-19 or later): the Swift toolchain's own ld64.lld refuses every Apple platform
# ("This version of lld does not support linking for platform iOS").
ld=$(find_tool ld64.lld-22 ld64.lld-21 ld64.lld-20 ld64.lld-19)
nm=$(find_tool llvm-nm-22 llvm-nm-21 llvm-nm-20 llvm-nm-19 "$toolchain/llvm-nm")
lipo=$(find_tool llvm-lipo-22 llvm-lipo-21 llvm-lipo-20 llvm-lipo-19 llvm-lipo llvm-lipo-14)

build=$(mktemp -d)
trap 'rm -rf "$build"' EXIT
# Objects are built under a fixed name inside the temporary folder, and every recorded path is mapped to /Demo,
# so neither the debug information nor the symbol table's object paths (N_OSO) depend on the checkout.
export ZERO_AR_DATE=1

# One unit per DWARF version the readers must handle, and one C++ unit.
#   unit        language  DWARF
units=(
    "main.c       c         5"
    "util.c       c         4"
    "swiftnames.c c         5"
    "shapes.cpp   c++       4"
)

compile() { # arch target
    local arch=$1 target=$2
    mkdir -p "$build/$arch"
    for line in "${units[@]}"; do
        read -r file language version <<<"$line"
        local extra=()
        if [ "$language" = "c++" ]; then extra=(-x c++ -std=c++17 -fno-exceptions -fno-rtti); fi
        (cd "$build" && "$clang" -target "$target" -c -O0 -g -gdwarf-"$version" "${extra[@]}" \
            -ffreestanding -fno-stack-protector -fno-builtin \
            -fdebug-prefix-map="$src"=/Demo/src -fdebug-prefix-map="$build"=/Demo/build \
            -fdebug-compilation-dir=/Demo \
            -I "$src" -o "$build/$arch/${file%.*}.o" "$src/$file")
    done
}

link() { # arch platform min sdk output
    local arch=$1 platform=$2 minimum=$3 output=$4
    "$ld" -arch "$arch" -platform_version "$platform" "$minimum" "$minimum" -e _main -undefined dynamic_lookup \
        -oso_prefix "$build/" -o "$build/$output" \
        "$build/$arch/main.o" "$build/$arch/util.o" "$build/$arch/swiftnames.o" "$build/$arch/shapes.o"
    (cd "$build" && "$dsymutil" --oso-prepend-path="$build" -o "$build/$output.dSYM" "$build/$output")
    # The relocation map (for Swift reflection sections) names the temporary folder and serves no reader here.
    rm -rf "$build/$output.dSYM/Contents/Resources/Relocations"
}

compile arm64 arm64-apple-ios14.0
compile x86_64 x86_64-apple-macos11
link arm64 ios 14.0 Demo-arm64
link x86_64 macos 11.0 Demo-x86_64
"$lipo" -create "$build/Demo-arm64" "$build/Demo-x86_64" -output "$build/Demo-fat"
# The fat binary's slices are the thin binaries byte for byte (same UUIDs), so its dSYM is the thin dSYMs' DWARF
# files joined the same way (dsymutil would call Apple's lipo, which Linux lacks).
mkdir -p "$build/Demo-fat.dSYM/Contents/Resources/DWARF"
sed 's/Demo-arm64/Demo-fat/g' "$build/Demo-arm64.dSYM/Contents/Info.plist" >"$build/Demo-fat.dSYM/Contents/Info.plist"
"$lipo" -create "$build/Demo-arm64.dSYM/Contents/Resources/DWARF/Demo-arm64" \
    "$build/Demo-x86_64.dSYM/Contents/Resources/DWARF/Demo-x86_64" \
    -output "$build/Demo-fat.dSYM/Contents/Resources/DWARF/Demo-fat"

rm -rf "$fixtures"/Demo-*
for name in Demo-arm64 Demo-x86_64 Demo-fat; do
    cp "$build/$name" "$fixtures/$name"
    cp -R "$build/$name.dSYM" "$fixtures/$name.dSYM"
done

# What llvm-nm lists for each slice (defined symbols by address): the symbol table reader's oracle.
mkdir -p "$fixtures/expected"
rm -f "$fixtures"/expected/*.nm
for arch in arm64 x86_64; do
    "$nm" --defined-only -n "$fixtures/Demo-$arch" >"$fixtures/expected/Demo-$arch.nm"
done

uuids() { "$dwarfdump" --uuid "$1" | sed -E 's/^UUID: ([0-9A-F-]+) \(([^)]+)\) .*/| `\1` | \2 |/'; }
{
    echo "# Symbolication fixtures: manifest"
    echo
    echo "Generated by \`Scripts/make-symbolication-fixtures.sh\` (do not edit by hand; rerun the script)."
    echo "Sources in \`src/\`: \`main.c\` (DWARF 5, inline chain scale → adjust → compute), \`util.c\` (DWARF 4, inline"
    echo "chain rotate → mix → checksum), \`swiftnames.c\` (DWARF 5, C functions with Swift-mangled assembler names:"
    echo "\`\$s\`, \`\$S\` and \`_T0\` eras), \`shapes.cpp\` (DWARF 4, C++ namespace \`demo::geometry\`, class method)."
    echo "Compiled \`-O0 -g\` (so the always_inline chains keep every level) by \`$("$clang" --version | head -n 1)\`;"
    echo "linked by \`ld64.lld -e _main -undefined dynamic_lookup\` (no SDK); dSYMs by \`$("$dsymutil" --version | grep -o 'LLVM version [0-9.]*')\`"
    echo "dsymutil; fat binary by llvm-lipo. Debug paths are mapped to \`/Demo/src\` and the compilation directory \`/Demo\`."
    echo "\`expected/Demo-<arch>.nm\` is \`llvm-nm --defined-only -n\` of each thin binary (the symbol table oracle)."
    echo
    echo "| File | What | Size (bytes) |"
    echo "|---|---|---|"
    for name in Demo-arm64 Demo-x86_64 Demo-fat; do
        case $name in
            Demo-arm64) what="thin executable, iOS 14.0 arm64" ;;
            Demo-x86_64) what="thin executable, macOS 11.0 x86_64" ;;
            Demo-fat) what="fat executable (arm64 + x86_64) made by llvm-lipo from the two above" ;;
        esac
        echo "| \`$name\` | $what | $(wc -c <"$fixtures/$name") |"
        dwarf="$name.dSYM/Contents/Resources/DWARF/$name"
        echo "| \`$dwarf\` | its dSYM | $(wc -c <"$fixtures/$dwarf") |"
    done
    echo
    echo "## UUIDs (\`llvm-dwarfdump --uuid\`)"
    echo
    echo "| File | UUID | Arch |"
    echo "|---|---|---|"
    for name in Demo-arm64 Demo-x86_64 Demo-fat; do
        uuids "$fixtures/$name" | sed "s/^/| \`$name\` /"
        uuids "$fixtures/$name.dSYM/Contents/Resources/DWARF/$name" | sed "s/^/| \`$name.dSYM\` /"
    done
} >"$fixtures/MANIFEST.md"
echo "fixtures written to $fixtures"
