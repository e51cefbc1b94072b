# Shared measurement helpers for the comparison scripts (issue 21). Source it from a script that has already done
# `cd` to the repository root:
#
#   . Benchmarks/scripts/bench_lib.sh
#   bench_family crash            # the family column of the rows that follow (`crash:json` names a sub-table)
#   bench_python                  # sets PY to the real interpreter (never a version-manager shim)
#   bench_binary                  # sets BIN: $APM_INSPECT_BIN, else `swift build -c release --product apm-inspect`
#   load_check begin
#   bench_input DIR_OR_FILE...    # input_bytes of the rows that follow
#   measure NAME RUNS -- CMD...   # BENCH_STDIN / BENCH_STDOUT redirect the command's input and output
#   load_check end                # writes the rows measured since `begin`, flagged busy or idle
#
# Rows go to $BENCH_TSV (default Benchmarks/data/results-YYYY-MM-DD.tsv, appended; Benchmarks/compare.sh sets it)
# with the columns
#   family  tool  command  runs  wall_median  cpu_median  wall_min  peak_rss_kb  input_bytes  busy_flag
# (seconds, KB, bytes; cpu = user + system; busy_flag `busy` when other processes used more than
# $BENCH_MAX_OTHERS cores on average, default 0.25, in a 3-second probe before the row set or while it ran, else
# `idle`). Other processes' CPU is the machine's busy time from /proc/stat (steal included) less the CPU of this
# shell and its children (the measured commands and the tools around them, from bash's `times`): the 1-minute load average, which counts our own runs, cannot tell an idle machine
# from a busy one after a benchmark. Before each row set, a comment line `# rowset family=… date=… nproc=…
# load_before=… load_after=… others_before=… others_during=… busy=… python=… cpu=…` records the conditions;
# readers skip lines starting with `#`. Each command is run once untimed first (page cache, dyld), then RUNS times
# under `/usr/bin/time -f '%e %U %S %M'` (wall read from the clock around it, to the millisecond; CPU and peak RSS
# from GNU time, CPU in hundredths of a second).

BENCH_TSV="${BENCH_TSV:-Benchmarks/data/results-$(date -u +%F).tsv}"
BENCH_MAX_OTHERS="${BENCH_MAX_OTHERS:-0.25}"
BENCH_FAMILY="${BENCH_FAMILY:-unknown}"
BENCH_INPUT_BYTES="${BENCH_INPUT_BYTES:-0}"
BENCH_PENDING=""
BENCH_LOAD_BEFORE=""
BENCH_OTHERS_BEFORE=""
BENCH_JIFFIES0=""
BENCH_CLOCK0=""
BENCH_OWN0=0
BENCH_OWN_NOW=0
BENCH_HEADER=$'family\ttool\tcommand\truns\twall_median\tcpu_median\twall_min\tpeak_rss_kb\tinput_bytes\tbusy_flag'

bench_family() { BENCH_FAMILY="$1"; }

# PY: the interpreter `python3` resolves to, found once (sys.executable), checked to be a real executable and not a
# shim script (pyenv, asdf): a shim costs tens of ms of CPU per start, which would be charged to the Python peer.
# PYTHON=/path/to/python3 overrides the look-up.
bench_python() {
  if [ -n "${PY:-}" ]; then return 0; fi
  PY="${PYTHON:-$(python3 -c 'import sys; print(sys.executable)')}"
  local real
  real="$(readlink -f "$PY")"
  if [ ! -x "$real" ] || [ "$(head -c 2 "$real")" = '#!' ] || [[ "$real" == */shims/* ]]; then
    echo "bench_lib: $PY ($real) looks like a shim, not an interpreter; set PYTHON=/path/to/python3" >&2
    return 1
  fi
  PY="$real"
  export BENCH_PYTHON_VERSION="$("$PY" -c 'import platform; print(platform.python_implementation(), platform.python_version())')"
  echo "python: $PY ($BENCH_PYTHON_VERSION; \`python3\` on PATH is $(command -v python3))" >&2
  export PY
}

# BIN: $APM_INSPECT_BIN when set (a binary built elsewhere), else a release build of the product, as before.
bench_binary() {
  if [ -n "${APM_INSPECT_BIN:-}" ]; then
    BIN="$APM_INSPECT_BIN"
  elif [ -n "${BIN:-}" ]; then
    : # the older scripts' BIN=… still works
  else
    if ! command -v swift >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swift ]; then export PATH="/opt/swift/usr/bin:$PATH"; fi
    # The Swift runtime linked statically, as a deployed binary would be (docs/performance.md, Start-up): it needs
    # libcurl's development files for FoundationNetworking (Debian: libcurl4-openssl-dev).
    swift build -c release --product apm-inspect --static-swift-stdlib --scratch-path .build-static >/dev/null
    BIN="$(swift build -c release --static-swift-stdlib --scratch-path .build-static --show-bin-path)/apm-inspect"
  fi
  [ -x "$BIN" ] || { echo "bench_lib: no apm-inspect binary at $BIN" >&2; return 1; }
  echo "apm-inspect: $BIN" >&2
}

# Sum of the sizes of the given files and folders (apparent bytes), for the input_bytes column.
bench_input() { BENCH_INPUT_BYTES="$(du -sb "$@" | awk '{s += $1} END {print s + 0}')"; }

bench_load() { cut -d' ' -f1 /proc/loadavg; }

# Seconds of CPU the whole machine has spent busy since boot (user, nice, system, irq, softirq, steal).
bench_busy_seconds() {
  awk -v hz="$(getconf CLK_TCK)" '/^cpu / {printf "%.2f", ($2 + $3 + $4 + $7 + $8 + $9) / hz; exit}' /proc/stat
}

bench_now() { date +%s%N; }

# CPU seconds this shell and every child it has waited for have used (bash's `times`): the measured commands, and the
# /usr/bin/time, awk and date runs around them, which for a 50 ms command are a good part of the row set's CPU.
# Sets BENCH_OWN_NOW. `times` runs in this shell, written to a file: in a pipe or `$(...)` it would run in a forked
# subshell, whose own and children's times start at zero.
bench_own_seconds() {
  local file
  file="$(mktemp "${TMPDIR:-/tmp}/bench-times.XXXXXX")"
  times > "$file"
  BENCH_OWN_NOW="$(awk '{for (i = 1; i <= NF; i++) {split($i, t, "m"); sub("s", "", t[2]); s += t[1] * 60 + t[2]}}
    END {printf "%.2f", s}' "$file")"
  rm -f "$file"
}

# Average cores other processes used between BUSY0/CLOCK0 and now, given OWN seconds of our own CPU.
bench_others() {
  awk -v b0="$1" -v b1="$(bench_busy_seconds)" -v t0="$2" -v t1="$(bench_now)" -v own="$3" \
    'BEGIN { e = (t1 - t0) / 1e9; o = (b1 - b0 - own) / (e > 0 ? e : 1); printf "%.2f", (o < 0 ? 0 : o) }'
}

# load_check begin | end: what else ran on the machine around a row set; `end` writes the set's rows.
load_check() {
  case "$1" in
    begin)
      BENCH_LOAD_BEFORE="$(bench_load)"
      local busy0 clock0
      busy0="$(bench_busy_seconds)"; clock0="$(bench_now)"
      sleep 3
      BENCH_OTHERS_BEFORE="$(bench_others "$busy0" "$clock0" 0)"
      BENCH_JIFFIES0="$(bench_busy_seconds)"; BENCH_CLOCK0="$(bench_now)"; bench_own_seconds
      BENCH_OWN0="$BENCH_OWN_NOW"
      BENCH_PENDING="$(mktemp "${TMPDIR:-/tmp}/bench-rows.XXXXXX")"
      echo "before: other processes used $BENCH_OTHERS_BEFORE cores (3 s probe); load $BENCH_LOAD_BEFORE, nproc $(nproc)" >&2 ;;
    end)
      local after busy others
      after="$(bench_load)"
      bench_own_seconds
      others="$(bench_others "$BENCH_JIFFIES0" "$BENCH_CLOCK0" \
        "$(awk -v a="$BENCH_OWN0" -v b="$BENCH_OWN_NOW" 'BEGIN {printf "%.2f", b - a}')")"
      busy="$(awk -v a="$BENCH_OTHERS_BEFORE" -v b="$others" -v m="$BENCH_MAX_OTHERS" \
        'BEGIN { print (a + 0 > m + 0 || b + 0 > m + 0) ? "busy" : "idle" }')"
      echo "during: other processes used $others cores; load $after, nproc $(nproc): $busy" >&2
      if [ "$busy" = busy ]; then
        echo "WARNING: machine busy (other processes above $BENCH_MAX_OTHERS cores): these figures are not for publication" >&2
      fi
      mkdir -p "$(dirname "$BENCH_TSV")"
      [ -s "$BENCH_TSV" ] || printf '%s\n' "$BENCH_HEADER" > "$BENCH_TSV"
      {
        printf '# rowset family=%s date=%s nproc=%s load_before=%s load_after=%s others_before=%s others_during=%s busy=%s python=%s cpu=%s\n' \
          "$BENCH_FAMILY" "$(date -u +%FT%TZ)" "$(nproc)" "$BENCH_LOAD_BEFORE" "$after" "$BENCH_OTHERS_BEFORE" \
          "$others" "$busy" \
          "$(printf '%s' "${BENCH_PYTHON_VERSION:-none}" | tr ' ' '_')" \
          "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//' | tr ' ' '_')"
        awk -v f="$busy" 'BEGIN {OFS = "\t"} {print $0, f}' "$BENCH_PENDING"
      } >> "$BENCH_TSV"
      rm -f "$BENCH_PENDING"; BENCH_PENDING="" ;;
    *) echo "load_check begin|end" >&2; return 2 ;;
  esac
}

bench_median() { sort -g | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }

# measure NAME RUNS -- CMD...: median wall, median CPU (user + system), min wall and max peak RSS over RUNS runs.
measure() {
  local name="$1" runs="$2"; shift 2
  [ "${1:-}" = "--" ] && shift
  local in="${BENCH_STDIN:-/dev/null}" out="${BENCH_STDOUT:-/dev/null}" timefile
  timefile="$(mktemp "${TMPDIR:-/tmp}/bench-time.XXXXXX")"
  local command
  command="$(printf '%q ' "$@")"; command="${command% }"
  [ "$in" = /dev/null ] || command="$command < $(printf '%q' "$in")"
  [ "$out" = /dev/null ] || command="$command > $(printf '%q' "$out")"
  if ! "$@" < "$in" > "$out" 2>"$timefile.err"; then
    echo "measure: '$name' failed: $command" >&2; cat "$timefile.err" >&2; rm -f "$timefile" "$timefile.err"; return 1
  fi
  local walls=() cpus=() peak=0 wall user system rss
  local start end
  for _ in $(seq "$runs"); do
    start="$(date +%s%N)"
    /usr/bin/time -f '%e %U %S %M' -o "$timefile" "$@" < "$in" > "$out" 2>"$timefile.err" || {
      echo "measure: '$name' failed: $command" >&2; cat "$timefile.err" "$timefile" >&2; rm -f "$timefile" "$timefile.err"; return 1; }
    end="$(date +%s%N)"
    read -r wall user system rss < <(tail -1 "$timefile")
    # GNU time prints wall in hundredths; the clock around it gives milliseconds for short commands (it adds the
    # fork and exec of /usr/bin/time itself, under a millisecond, to both sides alike).
    walls+=("$(awk -v a="$start" -v b="$end" 'BEGIN {printf "%.4f", (b - a) / 1e9}')")
    cpus+=("$(awk -v u="$user" -v s="$system" 'BEGIN {printf "%.2f", u + s}')")
    [ "$rss" -gt "$peak" ] && peak="$rss"
  done
  rm -f "$timefile" "$timefile.err"
  local wmed cmed wmin
  wmed="$(printf '%s\n' "${walls[@]}" | bench_median)"
  cmed="$(printf '%s\n' "${cpus[@]}" | bench_median)"
  wmin="$(printf '%s\n' "${walls[@]}" | sort -g | head -1)"
  printf '  %-46s wall %7.3f s (min %7.3f)  CPU %7.3f s  peak RSS %8.1f MB%s\n' "$name" "$wmed" "$wmin" "$cmed" \
    "$(awk -v k="$peak" 'BEGIN {print k / 1024}')" \
    "$(awk -v b="$BENCH_INPUT_BYTES" -v w="$wmed" 'BEGIN {if (b > 0 && w > 0) printf "  %.0f MB/s", b / 1048576 / w}')"
  if [ -n "$BENCH_PENDING" ]; then
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$BENCH_FAMILY" "$name" "$(printf '%s' "$command" | tr '\t\n' '  ')" \
      "$runs" "$wmed" "$cmed" "$wmin" "$peak" "$BENCH_INPUT_BYTES" >> "$BENCH_PENDING"
  else
    echo "measure: no load_check begin before '$name'; row not written" >&2
  fi
}
