#!/usr/bin/env bash
# Hostile inputs (issue 14): Scripts/hostile-inputs.py at CI scale against the release binary. Every generated
# input must give a clear error or a partial result: never a signal, a usage error, a hang, unbounded memory,
# a leftover temporary file or a change to the input folder. Sizes: docs/robustness.md.
set -euo pipefail
: "${BIN:?BIN must name the apm-inspect binary}"
# The real interpreter, not a shim: the harness measures its children with os.wait4.
PYTHON="$(python3 -c 'import sys; print(sys.executable)')"
# The unreadable-file case runs as uid 65534 when CI runs as root (root reads everything); without setpriv that
# check cannot be made, so it fails rather than being skipped.
if [ "$(id -u)" -eq 0 ] && ! command -v setpriv >/dev/null 2>&1; then
  echo "FAIL: running as root without setpriv (util-linux): the unreadable-file case cannot run unprivileged"; exit 1
fi
WORK="$(mktemp -d)"
chmod 755 "$WORK"
trap 'chmod -R u+rwx "$WORK" 2>/dev/null; rm -rf "$WORK"' EXIT
REPORT="${HOSTILE_REPORT:-$WORK/hostile.md}"
status=0
nice "$PYTHON" Scripts/hostile-inputs.py --bin "$BIN" --scale ci --workdir "$WORK/inputs" --markdown "$REPORT" \
  || status=$?
if [ "$status" -ne 0 ]; then
  echo "FAIL: hostile inputs: some runs did not meet their expectation (table: $REPORT)"
  grep -F '**FAIL**' "$REPORT" || true
  exit 1
fi
echo "hostile inputs passed"
