#!/usr/bin/env bash
# Writes the manual pages (docs/man/apm-inspect.1 and one apm-inspect.COMMAND.1 per command) from the command
# definitions themselves, with swift-argument-parser's GenerateManual plugin, so --help and man never disagree.
#
#   Scripts/make-man-pages.sh            regenerate docs/man
#   Scripts/make-man-pages.sh --check    exit 1 when docs/man differs from what the definitions give (CI)
#
# The pages are tidied for mdoc (Scripts/tidy-man-pages.py) and must pass `mandoc -Tlint -W warning`
# (.ci/steps/man-pages.sh checks both).
#
# The date is pinned so that regenerating changes nothing unless a definition did. View one with
# `man -l docs/man/apm-inspect.inspect.1`.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v swift >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swift ]; then export PATH="/opt/swift/usr/bin:$PATH"; fi
DATE=2026-11-28
swift package --allow-writing-to-package-directory generate-manual --multi-page --date "$DATE" \
  --authors "apm-inspect contributors" >/dev/null
OUT=.build/plugins/GenerateManual/outputs/apm-inspect
# The plugin's pages hold the help text as written (several sentences a line, blank lines, indented examples);
# tidied, they pass `mandoc -Tlint` and the examples keep their lines.
python3 Scripts/tidy-man-pages.py "$OUT"
if [ "${1:-}" = "--check" ]; then
  if ! diff -r "$OUT" docs/man; then
    echo "docs/man is stale: run Scripts/make-man-pages.sh and commit the result"
    exit 1
  fi
  echo "man pages up to date ($(ls docs/man | wc -l) pages)"
else
  rm -rf docs/man
  cp -r "$OUT" docs/man
  echo "wrote $(ls docs/man | wc -l) pages to docs/man"
fi
