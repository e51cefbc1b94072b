#!/usr/bin/env bash
# Builds the C++ name set that `demangle` is measured on against llvm-cxxfilt (Scripts/cxx-demangle-oracle.py):
# every defined `_Z` symbol of the machine's shared libraries (the system's, LLVM's, the Swift toolchain's), without
# symbol versions, deduplicated and sorted, one per line, to standard output. Generated on each machine, never
# committed: it is tens of thousands of names of other projects' libraries.
# Usage: Scripts/cxx-demangle-names.sh [LIBRARY...]   (no arguments: every library of the default folders)
set -euo pipefail
NM="${NM:-$(command -v llvm-nm || command -v nm)}"
if [ "$#" -eq 0 ]; then
  shopt -s nullglob
  set -- /usr/lib/x86_64-linux-gnu/*.so* /usr/lib/aarch64-linux-gnu/*.so* /usr/lib/llvm-*/lib/*.so* \
    /opt/swift/usr/lib/*.so /opt/swift/usr/lib/swift/linux/*.so
fi
# Each file once, however many links name it.
for library in "$@"; do [ -f "$library" ] && readlink -f "$library"; done | LC_ALL=C sort -u | while read -r library; do
  "$NM" -D --defined-only "$library" 2>/dev/null || true
done | awk '{ name = $NF; sub(/@.*/, "", name); if (name ~ /^_Z/) print name }' | LC_ALL=C sort -u
