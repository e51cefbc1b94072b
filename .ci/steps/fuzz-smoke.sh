#!/usr/bin/env bash
# Fuzz smoke: every libFuzzer target of Fuzz/ built with ASan, its committed fail cases replayed, then a fixed-seed
# bounded run over seeds from Corpus/. Any crash, sanitizer report, timeout or OOM fails CI (Fuzz/smoke.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."
bash Fuzz/smoke.sh
