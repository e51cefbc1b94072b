#!/usr/bin/env bash
# Generates the benchmark inputs (once) and runs the package-benchmark suites.
#   Benchmarks/run.sh [extra arguments for `swift package benchmark`]
set -euo pipefail
cd "$(dirname "$0")"
[ -d data/jetsam-1000-400 ] || python3 scripts/generate_jetsam.py --out data/jetsam-1000-400 --count 1000 --processes 400 --seed 1
[ -d data/jetsam-large ] || python3 scripts/generate_jetsam.py --out data/jetsam-large --count 1 --processes 2000 --seed 2
swift package --allow-writing-to-package-directory benchmark --no-progress "$@"
