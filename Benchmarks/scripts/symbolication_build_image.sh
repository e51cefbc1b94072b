#!/usr/bin/env bash
# Builds one generated arm64 iOS executable and its dSYM for the symbolication benchmarks: OUT/NAME and
# OUT/NAME.dSYM, from symbolication_generate.py's C sources (UNITS compile units × FUNCTIONS functions, names
# prefixed with PREFIX), with the toolchain's clang, ld64.lld and dsymutil from LLVM (default /usr/lib/llvm-19/bin).
#
#   Benchmarks/scripts/symbolication_build_image.sh OUT NAME UNITS FUNCTIONS [PREFIX]
set -euo pipefail
OUT="$1"; NAME="$2"; UNITS="$3"; FUNCTIONS="$4"; PREFIX="${5:-}"
LLVM="${LLVM_BIN:-/usr/lib/llvm-19/bin}"
if ! command -v swift >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swift ]; then export PATH="/opt/swift/usr/bin:$PATH"; fi
CLANG="$(dirname "$(command -v swift)")/clang"
WORK="$OUT/build-$NAME"
rm -rf "$WORK"; mkdir -p "$WORK/src" "$WORK/obj"
python3 "$(dirname "$0")/symbolication_generate.py" --out "$WORK/src" --units "$UNITS" --functions "$FUNCTIONS" \
  --prefix "$PREFIX"
find "$WORK/src" -name '*.c' -print0 | xargs -0 -P 2 -n 50 sh -c '
  for source in "$@"; do
    case "$source" in *dwarf4*) version=4 ;; *) version=5 ;; esac
    "'"$CLANG"'" -target arm64-apple-ios14.0 -O1 -gdwarf-$version -fdebug-prefix-map="$PWD"=/'"$NAME"' -c "$source" \
      -o "'"$WORK"'/obj/$(basename "$source" .c).o"
  done' sh
"$LLVM/ld64.lld" -arch arm64 -platform_version ios 14.0 14.0 -e "_${PREFIX}unit0_function0" -undefined dynamic_lookup \
  -o "$OUT/$NAME" "$WORK"/obj/*.o
"$LLVM/dsymutil" "$OUT/$NAME" -o "$OUT/$NAME.dSYM"
rm -rf "$WORK"
