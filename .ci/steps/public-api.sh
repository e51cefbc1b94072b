#!/usr/bin/env bash
# The public API stays the documented library API (docs/library.md): at most 800 public declarations in Sources/,
# each with a `///` doc comment (Scripts/check-public-api.py says what counts). Run beside the format lint.
set -euo pipefail
cd "$(dirname "$0")/../.."
python3 Scripts/check-public-api.py
