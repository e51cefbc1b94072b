#!/usr/bin/env bash
# Network symbol sources end to end against the release binary: an S3-compatible server (moto, from PyPI) holding the
# fixture dSYM under its unified and lldb keys, and a plain HTTP server (python3 -m http.server) in the unified
# layout. `symbolicate --symbols …` must print the frames `--dsym` prints, and a second run must need no server.
set -euo pipefail
: "${BIN:?BIN must name the apm-inspect binary}"
PY="$(python3 -c 'import sys; print(sys.executable)')"
if ! "$PY" -c 'import moto.server, boto3' >/dev/null 2>&1; then
  "$PY" -m pip install -q 'moto[server]' || "$PY" -m pip install -q --break-system-packages 'moto[server]'
fi
T="$(mktemp -d)"
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  rm -rf "$T"
}
trap cleanup EXIT

free_port() { "$PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_for() {
  for _ in $(seq 1 100); do
    "$PY" -c "import urllib.request,sys; urllib.request.urlopen('$1', timeout=1)" >/dev/null 2>&1 && return 0
    "$PY" -c "import urllib.request,urllib.error,sys
try: urllib.request.urlopen('$1', timeout=1)
except urllib.error.HTTPError: sys.exit(0)
sys.exit(1)" >/dev/null 2>&1 && return 0
    sleep 0.2
  done
  echo "FAIL: nothing answers at $1"; return 1
}

DWARF=Tests/SymbolicationTests/Fixtures/Demo-fat.dSYM/Contents/Resources/DWARF/Demo-fat
REPORTS=(Tests/SymbolicationTests/Fixtures/reports/Demo-arm64-ios.crash Tests/SymbolicationTests/Fixtures/reports/Demo-x86_64-macos.crash)
UUIDS=(4c4c448655553144a1752df7479ac8fa 4c4c448e55553144a15d64c4e4fa849b)

# Checks that `symbolicate --symbols SOURCE` prints what `--dsym` prints for every fixture report (env: $@ before).
check_source() {
  local source="$1" cache="$2"; shift 2
  for report in "${REPORTS[@]}"; do
    "$BIN" symbolicate "$report" --dsym "$DWARF" > "$T/expected.txt"
    env "$@" "$BIN" symbolicate "$report" --symbols "$source" --symbol-cache "$cache" > "$T/got.txt" 2> "$T/got.err"
    grep -q "main.c:" "$T/expected.txt" || { echo "FAIL: --dsym did not symbolicate $report"; exit 1; }
    diff -u "$T/expected.txt" "$T/got.txt" || { echo "FAIL: $source gives other frames for $report"; cat "$T/got.err"; exit 1; }
    if grep -q "download-failed\|cannot download" "$T/got.err"; then cat "$T/got.err"; exit 1; fi
  done
  echo "  ok: $source"
}

echo "-- S3 (moto, checking SigV4: every request after the setup's 8 must be signed with the IAM key made here)"
S3_PORT="$(free_port)"
INITIAL_NO_AUTH_ACTION_COUNT=8 "$PY" -m moto.server -H 127.0.0.1 -p "$S3_PORT" > "$T/moto.log" 2>&1 &
PIDS+=($!)
wait_for "http://127.0.0.1:$S3_PORT/"
read -r KEY SECRET < <("$PY" - "http://127.0.0.1:$S3_PORT" "$DWARF" "${UUIDS[@]}" <<'PY'
import json, sys, boto3
endpoint, dwarf, uuids = sys.argv[1], sys.argv[2], sys.argv[3:]
iam = boto3.client("iam", endpoint_url=endpoint, region_name="us-east-1", aws_access_key_id="setup",
                   aws_secret_access_key="setup")
iam.create_user(UserName="ci")
iam.put_user_policy(UserName="ci", PolicyName="all", PolicyDocument=json.dumps(
    {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "*", "Resource": "*"}]}))
key = iam.create_access_key(UserName="ci")["AccessKey"]
s3 = boto3.client("s3", endpoint_url=endpoint, region_name="us-east-1", aws_access_key_id=key["AccessKeyId"],
                  aws_secret_access_key=key["SecretAccessKey"])
s3.create_bucket(Bucket="dsyms")
body = open(dwarf, "rb").read()
for uuid in uuids:
    s3.put_object(Bucket="dsyms", Key=f"unified/{uuid[:2]}/{uuid[2:]}/debuginfo", Body=body)
    upper = uuid.upper()
    lldb = "/".join([upper[i:i + 4] for i in range(0, 20, 4)] + [upper[20:]])
    s3.put_object(Bucket="dsyms", Key=f"by-uuid/{lldb}", Body=body)
print(key["AccessKeyId"], key["SecretAccessKey"])
PY
)
S3_ENV=("AWS_ACCESS_KEY_ID=$KEY" "AWS_SECRET_ACCESS_KEY=$SECRET" AWS_REGION=us-east-1
  "AWS_ENDPOINT_URL=http://127.0.0.1:$S3_PORT")
check_source "s3://dsyms/unified" "$T/cache-s3" "${S3_ENV[@]}"
check_source "lldb+s3://dsyms/by-uuid" "$T/cache-s3-lldb" "${S3_ENV[@]}"
# A wrong secret: the store refuses the signature, the run says so (without the secret) and still prints the report.
env "AWS_ACCESS_KEY_ID=$KEY" AWS_SECRET_ACCESS_KEY=not-the-secret "AWS_ENDPOINT_URL=http://127.0.0.1:$S3_PORT" \
  "$BIN" symbolicate "${REPORTS[0]}" --symbols s3://dsyms/unified --symbol-cache "$T/cache-wrong" > "$T/wrong.txt" 2> "$T/wrong.err"
grep -q "symbolicate\|Demo" "$T/wrong.txt" || { echo "FAIL: no report printed with a wrong secret"; exit 1; }
grep -q "cannot download s3://dsyms/unified/.*the server answered 403" "$T/wrong.err" \
  || { echo "FAIL: a refused signature was not said"; cat "$T/wrong.err"; exit 1; }
if grep -q "not-the-secret\|$SECRET" "$T/wrong.err"; then echo "FAIL: a secret reached standard error"; exit 1; fi
echo "  ok: a wrong secret is refused and said"

echo "-- HTTP (python3 -m http.server)"
mkdir -p "$T/served"
for uuid in "${UUIDS[@]}"; do
  mkdir -p "$T/served/${uuid:0:2}/${uuid:2}"
  cp "$DWARF" "$T/served/${uuid:0:2}/${uuid:2}/debuginfo"
done
HTTP_PORT="$(free_port)"
"$PY" -m http.server --bind 127.0.0.1 --directory "$T/served" "$HTTP_PORT" > "$T/http.log" 2>&1 &
HTTP_PID=$!
PIDS+=("$HTTP_PID")
wait_for "http://127.0.0.1:$HTTP_PORT/"
check_source "http://127.0.0.1:$HTTP_PORT" "$T/cache-http"
kill "$HTTP_PID"; wait "$HTTP_PID" 2>/dev/null || true
# The server is gone: the cache alone gives the same frames.
check_source "http://127.0.0.1:$HTTP_PORT" "$T/cache-http"
echo "symbol servers: ok"
