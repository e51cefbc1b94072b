#!/usr/bin/env bash
# The committed manual pages (docs/man) are what the command definitions give today (Scripts/make-man-pages.sh).
set -euo pipefail
Scripts/make-man-pages.sh --check
