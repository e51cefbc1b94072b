#!/usr/bin/env python3
"""A stand-in for Sentry's envelope endpoint, for CI: records what `sentry-cli send-envelope` posts, then compares.

    sentry-envelope-sink.py serve RECEIVED_DIR PORT_FILE
        Listens on 127.0.0.1 on a free port (written to PORT_FILE once listening) and stores the body of each
        POST /api/<project>/envelope/ as RECEIVED_DIR/<n>.envelope (gzip or deflate bodies decoded), answering
        200 with the event id as Relay does. Anything else is answered 404 and recorded as RECEIVED_DIR/<n>.rejected.

    sentry-envelope-sink.py compare SENT_DIR RECEIVED_DIR
        Checks that every envelope of SENT_DIR arrived exactly once, as an envelope holding one event item of the
        same id, and that sentry-cli's parse and re-encoding kept every field of the event (only the fields listed in
        DROPPED_BY_SENTRY_CLI, which its event model does not have, may be missing). Exits 1 with the reasons
        otherwise.
"""
import gzip
import http.server
import json
import os
import sys
import threading
import zlib

# Fields of our events that the Sentry Rust SDK's event model (which sentry-cli parses envelopes with) has no place
# for, so that sentry-cli drops them without an error. Relay keeps them when the envelope is sent with --raw.
DROPPED_BY_SENTRY_CLI = {"threads.values[].main"}
# Values its model leaves out when re-encoding because they are the protocol's defaults: the same event to Sentry.
DEFAULTS = {"level": "error", "threads.values[].crashed": False, "threads.values[].current": False}


def serve(received, port_file):
    os.makedirs(received, exist_ok=True)
    lock = threading.Lock()
    counter = [0]

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length)
            encoding = (self.headers.get("Content-Encoding") or "").lower()
            if encoding == "gzip":
                body = gzip.decompress(body)
            elif encoding == "deflate":
                body = zlib.decompress(body)
            elif encoding not in ("", "identity"):
                self.answer(415, b'{"detail":"unsupported content encoding"}')
                return
            accepted = self.path.rstrip("/").endswith("/envelope")
            with lock:
                counter[0] += 1
                name = f"{counter[0]:06d}." + ("envelope" if accepted else "rejected")
            with open(os.path.join(received, name), "wb") as output:
                output.write(body)
            if not accepted:
                self.answer(404, b'{"detail":"not an envelope endpoint"}')
                return
            try:
                event_id = json.loads(body.split(b"\n", 1)[0]).get("event_id", "")
            except ValueError:
                event_id = ""
            self.answer(200, json.dumps({"id": event_id}).encode())

        def answer(self, status, payload):
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    with open(port_file + ".tmp", "w") as output:
        output.write(str(server.server_address[1]))
    os.replace(port_file + ".tmp", port_file)
    server.serve_forever()


def read_envelope(data):
    """The envelope header and its items as (item header, payload bytes), by the item lengths."""
    header_line, rest = data.split(b"\n", 1)
    header = json.loads(header_line)
    items = []
    while rest.strip():
        item_line, rest = rest.split(b"\n", 1)
        item = json.loads(item_line)
        if "length" in item:
            payload, rest = rest[: item["length"]], rest[item["length"] :]
            rest = rest[1:] if rest.startswith(b"\n") else rest
        else:
            payload, _, rest = rest.partition(b"\n")
        items.append((item, payload))
    return header, items


def losses(sent, received, path=""):
    """Paths (with list indices written `[]`) where `sent` has something `received` lacks or changed."""
    found = []
    if isinstance(sent, dict):
        if not isinstance(received, dict):
            return [path or "."]
        for key, value in sent.items():
            child = f"{path}.{key}" if path else key
            if key not in received:
                if child not in DEFAULTS or DEFAULTS[child] != value:
                    found.append(child)
            else:
                found += losses(value, received[key], child)
    elif isinstance(sent, list):
        if not isinstance(received, list) or len(received) != len(sent):
            return [path + "[]"]
        for a, b in zip(sent, received):
            found += losses(a, b, path + "[]")
    elif isinstance(sent, float) or isinstance(received, float):
        if not isinstance(received, (int, float)) or abs(sent - received) > 1e-3:
            found.append(path)
    elif sent != received:
        found.append(path)
    return found


def compare(sent_dir, received_dir):
    sent = {}
    for name in sorted(os.listdir(sent_dir)):
        header, items = read_envelope(open(os.path.join(sent_dir, name), "rb").read())
        sent[header["event_id"]] = json.loads(items[0][1])
    problems = []
    rejected = [n for n in os.listdir(received_dir) if n.endswith(".rejected")]
    if rejected:
        problems.append(f"{len(rejected)} requests went elsewhere than the envelope endpoint")
    arrived = {}
    for name in sorted(n for n in os.listdir(received_dir) if n.endswith(".envelope")):
        header, items = read_envelope(open(os.path.join(received_dir, name), "rb").read())
        events = [json.loads(payload) for item, payload in items if item.get("type") == "event"]
        if len(events) != 1:
            problems.append(f"{name}: {len(events)} event items")
            continue
        event = events[0]
        # sentry-cli writes the header's id with dashes, the event's without: the same UUID.
        if event.get("event_id") != str(header.get("event_id", "")).replace("-", ""):
            problems.append(f"{name}: header id {header.get('event_id')}, event id {event.get('event_id')}")
        if event["event_id"] in arrived:
            problems.append(f"{event['event_id']} arrived twice")
        arrived[event["event_id"]] = event
    missing = sorted(set(sent) - set(arrived))
    extra = sorted(set(arrived) - set(sent))
    if missing:
        problems.append(f"{len(missing)} envelopes never arrived, first {missing[0]}")
    if extra:
        problems.append(f"{len(extra)} events arrived that were not sent, first {extra[0]}")
    dropped = {}
    for event_id, event in sent.items():
        if event_id not in arrived:
            continue
        for path in losses(event, arrived[event_id]):
            dropped.setdefault(path, []).append(event_id)
    for path, ids in sorted(dropped.items()):
        if path not in DROPPED_BY_SENTRY_CLI:
            problems.append(f"sentry-cli lost or changed {path} in {len(ids)} events, first {ids[0]}")
    for problem in problems:
        print("FAIL: " + problem)
    allowed = sorted(p for p in dropped if p in DROPPED_BY_SENTRY_CLI)
    print(f"sentry-cli: {len(arrived)} of {len(sent)} envelopes arrived, one event each, every field kept"
          + (f" except {', '.join(allowed)} (not in its event model)" if allowed else ""))
    return 1 if problems else 0


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "serve":
        serve(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 4 and sys.argv[1] == "compare":
        sys.exit(compare(sys.argv[2], sys.argv[3]))
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
