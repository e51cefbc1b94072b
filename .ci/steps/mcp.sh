#!/usr/bin/env bash
# `apm-inspect mcp` driven by a scripted MCP client over stdio (newline-delimited JSON-RPC 2.0): initialize, the six
# tools with their input schemas, every file of the shared corpus through the inspect tool compared byte for byte
# with `inspect --format json`, memory-limits, http, energy and report compared with their commands, then paths
# outside the allowed folders (.., a link to a file, a link to a folder) refused, an unknown tool, a line that is not
# JSON, and a clean end when the client closes standard input.
set -euo pipefail
: "${BIN:?BIN must point at the release apm-inspect binary}"
: "${SHARED:?SHARED must point at the shared folder}"
CORPUS="$SHARED/corpus"
[ -d "$CORPUS" ] || { echo "FAIL: $CORPUS is missing"; exit 1; }
T="$(mktemp -d)"
trap 'rm -rf "$T"' EXIT
PYTHON="$(python3 -c 'import sys;print(sys.executable)')"
"$PYTHON" - "$BIN" "$SHARED" "$T" <<'PY'
import json, os, select, subprocess, sys, time

BIN, SHARED, T = sys.argv[1:4]
CORPUS = os.path.join(SHARED, "corpus")
ENV = dict(os.environ, SOURCE_DATE_EPOCH="1700000000")

# A root of our own beside the shared one: a report inside, links out of it to a file and to a folder.
root, outside = os.path.join(T, "root"), os.path.join(T, "outside")
os.makedirs(os.path.join(root, "reports")); os.makedirs(outside)
jetsam = sorted(os.path.join(CORPUS, "jetsam", f) for f in os.listdir(os.path.join(CORPUS, "jetsam")) if f.endswith(".ips"))[0]
data = open(jetsam, "rb").read()
open(os.path.join(root, "reports", "one.ips"), "wb").write(data)
open(os.path.join(outside, "secret.ips"), "wb").write(data)
os.symlink(os.path.join(outside, "secret.ips"), os.path.join(root, "link.ips"))
os.symlink(outside, os.path.join(root, "reports", "elsewhere"))

server = subprocess.Popen([BIN, "mcp", "--root", SHARED], cwd=root, env=ENV,
                          stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
failures = []
next_id = [0]
pending = b""

def fail(message):
    failures.append(message)
    print("FAIL: " + message)

def read_message(timeout=120):
    global pending
    deadline = time.time() + timeout
    while b"\n" not in pending:
        left = deadline - time.time()
        if left <= 0 or not select.select([server.stdout], [], [], left)[0]:
            raise SystemExit("FAIL: no answer from the server within %ds" % timeout)
        chunk = os.read(server.stdout.fileno(), 1 << 20)
        if not chunk:
            raise SystemExit("FAIL: the server closed its output: " + server.stderr.read().decode(errors="replace"))
        pending += chunk
    line, pending = pending.split(b"\n", 1)
    message = json.loads(line)  # anything on stdout but a JSON-RPC message breaks the client
    assert message.get("jsonrpc") == "2.0", message
    return message

def send_line(line):
    server.stdin.write(line + b"\n"); server.stdin.flush()

def request(method, params=None):
    next_id[0] += 1
    send_line(json.dumps({"jsonrpc": "2.0", "id": next_id[0], "method": method, "params": params or {}}).encode())
    message = read_message()
    assert message.get("id") == next_id[0], message
    return message

def call(tool, arguments):
    answer = request("tools/call", {"name": tool, "arguments": arguments})
    assert "result" in answer, answer
    result = answer["result"]
    return [c["text"] for c in result["content"] if c["type"] == "text"], result.get("isError", False)

def command(args):
    return subprocess.run([BIN] + args, cwd=root, env=ENV, capture_output=True).stdout.decode()

init = request("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                              "clientInfo": {"name": "ci-mcp", "version": "1"}})
assert init["result"]["serverInfo"]["name"] == "apm-inspect", init
send_line(b'{"jsonrpc":"2.0","method":"notifications/initialized"}')
tools = request("tools/list")["result"]["tools"]
names = sorted(t["name"] for t in tools)
if names != sorted(["inspect", "symbolicate", "memory-limits", "energy", "http", "report"]):
    fail("tools/list: %s" % names)
for t in tools:
    schema = t.get("inputSchema", {})
    if schema.get("type") != "object" or "paths" not in schema.get("required", []):
        fail("%s: input schema %s" % (t["name"], schema))

files = sorted(os.path.join(d, f) for d, _, fs in os.walk(CORPUS) for f in fs if not f.endswith(".md"))
same = 0
for path in files:
    texts, is_error = call("inspect", {"paths": [path]})
    expected = command(["inspect", "--format", "json", path])
    if texts[0] != expected:
        fail("inspect %s: the tool's JSON differs from the command's" % path)
    else:
        same += 1
print("  inspect: %d of %d corpus files give the command's JSON" % (same, len(files)))

for tool, arguments, args in [
    ("memory-limits", {"paths": [os.path.join(CORPUS, "jetsam")], "schemaVersion": 2},
     ["memory-limits", "--format", "json", "--schema-version", "2", os.path.join(CORPUS, "jetsam")]),
    ("http", {"paths": [os.path.join(CORPUS, "http")]}, ["http", "--format", "json", os.path.join(CORPUS, "http")]),
    ("energy", {"paths": [os.path.join(CORPUS, "powerlog")]}, ["energy", "--format", "json", os.path.join(CORPUS, "powerlog")]),
    ("report", {"paths": [CORPUS]}, ["report", "--format", "json", CORPUS]),
]:
    texts, _ = call(tool, arguments)
    expected = command(args)
    if not expected or texts[0] != expected:
        fail("%s: the tool's JSON differs from the command's" % tool)
    else:
        print("  %s: the command's JSON (%d bytes)" % (tool, len(expected)))

def refused(tool, arguments, code):
    texts, is_error = call(tool, arguments)
    got = json.loads(texts[0]).get("error", {}).get("code") if is_error else None
    if got != code:
        fail("%s %s: expected %s, got %s" % (tool, arguments, code, texts[0][:200]))

refused("inspect", {"paths": ["/etc/passwd"]}, "mcp.path-outside-roots")
# `..` climbing out of an allowed root to a file that exists wherever the check runs (the outside folder above).
climb = os.path.join(SHARED, os.path.relpath(os.path.join(outside, "secret.ips"), os.path.realpath(SHARED)))
if ".." not in climb.split(os.sep) or not os.path.isfile(climb):
    fail("the climbing path %s is not a real file reached through .." % climb)
refused("inspect", {"paths": [climb]}, "mcp.path-outside-roots")
refused("inspect", {"paths": ["link.ips"]}, "mcp.path-outside-roots")
refused("memory-limits", {"paths": ["reports"]}, "mcp.path-outside-roots")
refused("inspect", {"paths": ["-"]}, "mcp.invalid-arguments")
texts, is_error = call("inspect", {"paths": ["reports/one.ips"]})
if is_error or json.loads(texts[0])["kind"] != "jetsamEvent":
    fail("a report in the current folder was not read: %s" % texts[0][:200])

unknown = request("tools/call", {"name": "disassemble", "arguments": {"paths": ["x"]}})
if unknown.get("error", {}).get("code") != -32602:
    fail("unknown tool: %s" % unknown)
send_line(b'{"jsonrpc": "2.0", "id": 1000, "method": ')
parse = read_message()
if parse.get("id") is not None or parse.get("error", {}).get("code") != -32700:
    fail("a line that is not JSON: %s" % parse)
if "result" not in request("ping"):
    fail("no answer after the line that was not JSON")

server.stdin.close()
status = server.wait(timeout=60)
rest = server.stdout.read()
if status != 0 or rest.strip():
    fail("end of input: exit %d, left on stdout: %r" % (status, rest[:200]))
if failures:
    sys.exit(1)
print("  mcp: %d tool calls answered, refusals and protocol errors as expected" % next_id[0])
PY
