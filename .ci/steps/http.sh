#!/usr/bin/env bash
# Conformance for HTTP captures: every file of $SHARED/corpus/http through `inspect` and `http`.
# Each file must come out as the right kind with no error, except the file broken on purpose, which must get a
# clear error; nothing may die on a signal. Then spot checks of figures verified with tshark (reference §3).
set -euo pipefail
: "${BIN:?BIN must point at the release apm-inspect binary}"
: "${SHARED:?SHARED must point at the shared folder}"
CORPUS="$SHARED/corpus/http"
if [ ! -d "$CORPUS" ]; then
  echo "FAIL: $CORPUS is missing: the HTTP conformance corpus must sit beside the checkout"; exit 1
fi
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT

expected_kind() {
  case "$1" in
    *.har|*.zhar|*.har.gz) echo httpArchive ;;
    *.chlsj|*.chlsx) echo charlesSession ;;
    *.pcap|*.pcapng) echo packetCapture ;;
    *.mitm) echo unknown ;;  # mitmproxy native flows (tnetstring): not read by this version, on purpose
    *) echo "?" ;;
  esac
}

count=0
while IFS= read -r -d '' file; do
  case "$file" in *.md) continue ;; esac
  name="$(basename "$file")"
  want="$(expected_kind "$name")"
  status=0
  "$BIN" inspect --format json "$file" > "$OUT/one.json" 2> "$OUT/one.err" || status=$?
  if [ "$status" -gt 1 ]; then
    echo "FAIL: $name: inspect exited with $status (signal or usage error)"; cat "$OUT/one.err"; exit 1
  fi
  kind="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["kind"])' "$OUT/one.json")"
  if [ "$kind" != "$want" ]; then echo "FAIL: $name read as $kind, expected $want"; exit 1; fi
  if [ "$name" = "mitmproxy__brokenfile.har" ]; then
    [ "$status" -eq 1 ] || { echo "FAIL: $name is broken on purpose but was accepted"; exit 1; }
    grep -q "broken HAR file" "$OUT/one.err" || { echo "FAIL: $name: unclear error:"; cat "$OUT/one.err"; exit 1; }
    echo "  ok (clear error) $name: $(head -1 "$OUT/one.err")"
  else
    [ "$status" -eq 0 ] || { echo "FAIL: $name: inspect reported an error"; cat "$OUT/one.err"; exit 1; }
    echo "  ok $kind $name"
  fi
  if [ "$want" != unknown ]; then
    hstatus=0
    "$BIN" http "$file" > "$OUT/http.txt" 2> "$OUT/http.err" || hstatus=$?
    [ "$hstatus" -le 1 ] || { echo "FAIL: $name: http exited with $hstatus"; exit 1; }
    # Cut copies must never kill the reader either.
    size=$(wc -c < "$file")
    for cut in 23 100 $((size / 2)) $((size - 7)); do
      [ "$cut" -gt 0 ] && [ "$cut" -lt "$size" ] || continue
      head -c "$cut" "$file" > "$OUT/cut.bin"
      cstatus=0
      "$BIN" inspect --format json "$OUT/cut.bin" > /dev/null 2>&1 || cstatus=$?
      [ "$cstatus" -le 1 ] || { echo "FAIL: $name cut at $cut bytes: exit $cstatus"; exit 1; }
    done
  fi
  count=$((count + 1))
done < <(find "$CORPUS" -type f -print0 | sort -z)
[ "$count" -ge 1 ] || { echo "FAIL: no files in $CORPUS"; exit 1; }

echo "-- spot checks against figures verified with tshark"
"$BIN" http --format json \
  "$CORPUS/haralyzer__cnn-chrome.har" "$CORPUS/zeek__chrome-34-google.pcap" "$CORPUS/tcpdump__dns_udp.pcap" \
  "$CORPUS/tcpdump__tcp-handshake-nano.pcap" "$CORPUS/zeek__tls-1.2-handshake-failure.pcap" \
  "$CORPUS/mitmproxy__firefox.har" "$CORPUS/mitmproxy__successful_log.har" "$CORPUS/zeek__dns-two-responses.pcap" \
  "$CORPUS/zeek__pcapng-multi-interface.pcapng" > "$OUT/spot.json"
python3 - "$OUT/spot.json" <<'PY'
import json, sys
docs = {d["file"].rsplit("/", 1)[-1]: d["report"] for d in json.load(open(sys.argv[1]))}
def near(a, b, tol=0.01): return abs(a - b) <= tol
cnn = docs["haralyzer__cnn-chrome.har"]
assert cnn["summary"]["requests"] == 292, cnn["summary"]["requests"]
assert set(cnn["summary"]["protocols"]) == {"h2", "http/1.1"}, cnn["summary"]["protocols"]
google = docs["zeek__chrome-34-google.pcap"]["packets"]["connections"][0]
assert near(google["synAckMilliseconds"], 6.27), google
assert near(google["tls"]["serverHelloMilliseconds"], 8.02), google
assert near(google["tls"]["handshakeMilliseconds"], 22.25), google
assert google["tls"]["serverName"] == "google.de"
dns = docs["tcpdump__dns_udp.pcap"]["packets"]["dns"][0]
assert near(dns["responseMilliseconds"], 130.28), dns
nano = docs["tcpdump__tcp-handshake-nano.pcap"]["packets"]["connections"][0]
assert near(nano["synAckMilliseconds"], 127.52), nano
fail = docs["zeek__tls-1.2-handshake-failure.pcap"]
t = fail["transactions"][0]
assert t["outcome"] == "networkError" and "handshake_failure" in t["error"], t
assert fail["summary"]["networkErrorRate"] == 1
ff = docs["mitmproxy__firefox.har"]["transactions"]
assert any(x["provenance"]["sslIncludedInConnect"] is False for x in ff)
assert sum(1 for x in ff if x["fromCache"]) >= 5
mitm = docs["mitmproxy__successful_log.har"]["transactions"]
assert all(x["provenance"]["sslIncludedInConnect"] is not True for x in mitm)
two = docs["zeek__dns-two-responses.pcap"]["packets"]["dns"][0]
assert two["duplicateResponses"] == 1, two
multi = docs["zeek__pcapng-multi-interface.pcapng"]["packets"]
assert sorted(i["timestampResolution"] for i in multi["interfaces"]) == ["ns", "µs"], multi["interfaces"]
assert len(multi["dns"]) == 3 and all(d["responseMilliseconds"] >= 0 for d in multi["dns"]), multi["dns"]
print("  ok: cnn 292 requests; chrome-34 SYN/ACK 6.27, ServerHello 8.02, TLS 22.25 ms; dns_udp 130.28 ms;")
print("      handshake-nano 127.52 ms; handshake_failure is a network error; Firefox ssl outside connect;")
print("      duplicate DNS answer counted; pcapng ns + µs interfaces with 3 DNS pairs")
PY
echo "http conformance passed ($count files)"
