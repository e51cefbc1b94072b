#!/usr/bin/env bash
# The backend formats against their own references: every `--format sentry` event of Corpus/ and of
# $SHARED/corpus validated with `jsonschema` against Sentry's event schema (Relay's, in
# $SHARED/reference/schemas/sentry), every `--format otel` document parsed with the OTLP protocol's own JSON
# mapping (`google.protobuf.json_format.Parse` into ExportLogsServiceRequest) and its attributes checked, and every
# `--format sentry-envelope` file read back byte by byte (exact item lengths) and by the Sentry Python SDK's own
# envelope parser (`sentry_sdk.envelope.Envelope.deserialize`). Fails loudly when the schema or the Python packages
# are missing.
set -euo pipefail
: "${BIN:?BIN must name the apm-inspect binary}" "${SHARED:?SHARED must name the shared folder}"
SCHEMA="$SHARED/reference/schemas/sentry/event.schema.json"
[ -f "$SCHEMA" ] || { echo "FAIL: $SCHEMA is missing"; exit 1; }
PY="${PYTHON:-python3}"
IMPORTS='import jsonschema, sentry_sdk.envelope, opentelemetry.proto.collector.logs.v1.logs_service_pb2'
if ! "$PY" -c "$IMPORTS" 2>/dev/null; then
  "$PY" -m pip install -q jsonschema opentelemetry-proto sentry-sdk
fi
"$PY" -c "$IMPORTS" || { echo "FAIL: jsonschema, opentelemetry-proto and sentry-sdk are needed"; exit 1; }
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT
INPUTS=(Corpus/crash Corpus/watchdog Corpus/jetsam Corpus/kscrash Corpus/metrickit)
for folder in crash watchdog jetsam kscrash metrickit; do
  [ -d "$SHARED/corpus/$folder" ] && INPUTS+=("$SHARED/corpus/$folder")
done
# Exit status 1 is allowed: a few corpus files are damaged on purpose; the events of the others must be right.
"$BIN" scan --format sentry "${INPUTS[@]}" > "$OUT/sentry.ndjson" 2> "$OUT/sentry.err" || [ $? -le 1 ]
"$BIN" scan --format otel "${INPUTS[@]}" > "$OUT/otel.ndjson" 2> "$OUT/otel.err" || [ $? -le 1 ]
mkdir "$OUT/envelopes"
"$BIN" scan --format sentry-envelope -o "$OUT/envelopes" "${INPUTS[@]}" > /dev/null 2> "$OUT/envelope.err" \
  || [ $? -le 1 ]
# The id of a file's first event follows from its bytes alone: the same from a path and from standard input.
ONE=Corpus/crash/ios14.4_text_exc_bad_access_sigsegv_kern_invalid_address.crash
"$BIN" inspect --format sentry "$ONE" > "$OUT/one.ndjson" 2>/dev/null
"$BIN" inspect --format sentry - < "$ONE" > "$OUT/one-stdin.ndjson" 2>/dev/null
cmp -s "$OUT/one.ndjson" "$OUT/one-stdin.ndjson" || { echo "FAIL: standard input gives another event"; exit 1; }
"$PY" - "$ONE" "$OUT/one.ndjson" <<'PY'
import hashlib, json, sys
digest = hashlib.sha256(open(sys.argv[1], "rb").read()).digest()
raw = bytearray(hashlib.sha256(digest + (0).to_bytes(8, "big")).digest()[:16])
raw[6] = (raw[6] & 0x0F) | 0x80
raw[8] = (raw[8] & 0x3F) | 0x80
event = json.loads(open(sys.argv[2]).readline())
assert event["event_id"] == raw.hex(), (event["event_id"], raw.hex())
PY
# The oracle of the reference folder: the event sentry-cocoa's converter makes from a SentryCrash report. Its test
# compares `debug_meta.images`; ours must list the same images, in the same order.
RAW="$SHARED/corpus/kscrash/sentrycocoa__v3.2.0_ios10.3.1_exc_bad_access_raw_crash.json"
ORACLE="$SHARED/reference/schemas/sentry/examples/sentrycocoa__converted-event_from_raw-crash.json"
if [ -f "$RAW" ] && [ -f "$ORACLE" ]; then
  "$BIN" inspect --format sentry "$RAW" > "$OUT/oracle.ndjson" 2>/dev/null
  "$PY" - "$OUT/oracle.ndjson" "$ORACLE" <<'PY'
import json, sys
ours = json.loads(open(sys.argv[1]).readline())["debug_meta"]["images"]
theirs = json.load(open(sys.argv[2]))["debug_meta"]["images"]
# Ours are `apple` images (`uuid`, `name`: the type sentry-cli's model reads), sentry-cocoa's `macho` ones (`debug_id`,
# `code_file`): the same facts under the two types' names.
mine_key = lambda i: (i["uuid"].lower(), int(i["image_addr"], 16), i.get("image_size"), i["name"])
key = lambda i: (i["debug_id"].lower(), int(i["image_addr"], 16), i.get("image_size"), i["code_file"])
assert [i["type"] for i in ours] == ["apple"] * len(ours), "not apple images"
assert [mine_key(i) for i in ours] == [key(i) for i in theirs], "debug_meta.images differ from sentry-cocoa's"
# The crashed thread's registers, the Mach exception and the faulting address, as sentry-cocoa writes them.
event = json.loads(open(sys.argv[1]).readline())
oracle = json.load(open(sys.argv[2]))
crashed = lambda e: next(t for t in e["threads"]["values"] if t.get("crashed"))["stacktrace"]["registers"]
mine_registers, their_registers = crashed(event), crashed(oracle)
for name, value in their_registers.items():
    assert int(mine_registers[name], 16) == int(value, 16), (name, mine_registers.get(name), value)
mine_mechanism = event["exception"]["values"][0]["mechanism"]
their_mechanism = oracle["exception"]["values"][0]["mechanism"]
assert mine_mechanism["meta"]["mach_exception"] == their_mechanism["meta"]["mach_exception"], mine_mechanism
assert int(mine_mechanism["data"]["relevant_address"], 16) == int(their_mechanism["data"]["relevant_address"], 16)
assert mine_mechanism["meta"]["signal"]["number"] == their_mechanism["meta"]["signal"]["number"]
# Not asserted by its test, but the same facts: each thread it lists has our frames, oldest first, with the same
# addresses, packages, in_app and functions. Where the report redacted a symbol it writes `<redacted>` (with the
# image base as symbol address in app frames) and we write no function: those two fields are compared elsewhere.
mine = {t["id"]: t for t in json.loads(open(sys.argv[1]).readline())["threads"]["values"]}
frames = 0
for thread in json.load(open(sys.argv[2]))["threads"]["values"]:
    theirs = thread.get("stacktrace", {}).get("frames", [])
    ours_frames = mine[thread["id"]].get("stacktrace", {}).get("frames", [])
    assert len(theirs) == len(ours_frames), f"thread {thread['id']}: {len(theirs)} frames, ours {len(ours_frames)}"
    for a, b in zip(theirs, ours_frames):
        for key in ("instruction_addr", "image_addr"):
            assert int(a[key], 16) == int(b[key], 16), (thread["id"], key, a, b)
        for key in ("package", "in_app", "filename", "lineno"):
            assert a.get(key) == b.get(key), (thread["id"], key, a, b)
        if a.get("function") != "<redacted>":
            assert a.get("function") == b.get("function"), (thread["id"], a, b)
            if "symbol_addr" in a:
                assert int(a["symbol_addr"], 16) == int(b["symbol_addr"], 16), (thread["id"], a, b)
        else:
            assert "function" not in b, (thread["id"], b)
        frames += 1
print(f"backends: debug_meta.images ({len(ours)}), thread frames ({frames}), {len(their_registers)} registers and "
      "the mechanism equal sentry-cocoa's for its oracle")
PY
else
  echo "FAIL: the sentry-cocoa oracle pair is missing"; exit 1
fi
"$PY" - "$SCHEMA" "$OUT" <<'PY'
import json, os, re, sys
import jsonschema
from sentry_sdk.envelope import Envelope
from google.protobuf import json_format
from opentelemetry.proto.collector.logs.v1 import logs_service_pb2

schema_path, out = sys.argv[1], sys.argv[2]
schema = json.load(open(schema_path))
validator = jsonschema.Draft7Validator(schema, format_checker=jsonschema.Draft7Validator.FORMAT_CHECKER)
# The schema's DebugImage also admits any object: each image is checked against AppleDebugImage itself.
apple_image = jsonschema.Draft7Validator(
    {"$ref": "#/definitions/AppleDebugImage", "definitions": schema["definitions"]},
    format_checker=jsonschema.Draft7Validator.FORMAT_CHECKER,
)
events = [json.loads(line) for line in open(os.path.join(out, "sentry.ndjson")) if line.strip()]
assert len(events) >= 30, f"only {len(events)} Sentry events from the corpus"
kinds = set()
for event in events:
    errors = sorted(validator.iter_errors(event), key=lambda e: list(e.path))
    assert not errors, f"{event['event_id']}: {errors[0].message} at {list(errors[0].path)}"
    assert re.fullmatch(r"[0-9a-f]{32}", event["event_id"]), event["event_id"]
    assert event["platform"] == "cocoa" and event["level"] in ("fatal", "error", "warning")
    value = event["exception"]["values"][0]
    assert value["mechanism"]["handled"] is False and value["mechanism"]["type"]
    for frames in [value.get("stacktrace", {}).get("frames", [])] + [
        t.get("stacktrace", {}).get("frames", []) for t in event.get("threads", {}).get("values", [])
    ]:
        for frame in frames:
            for key in ("instruction_addr", "image_addr", "symbol_addr"):
                if key in frame:
                    assert re.fullmatch(r"0x[0-9a-f]+", frame[key]), (key, frame[key])
    for image in event.get("debug_meta", {}).get("images", []):
        assert image["type"] == "apple"
        errors = list(apple_image.iter_errors({k: v for k, v in image.items() if k != "type"}))
        assert not errors, f"{event['event_id']}: {errors[0].message} in {image}"
        assert re.fullmatch(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", image["uuid"])
    kinds.add(event["tags"]["kind"])
for needed in ("crash", "watchdog", "oom", "metrickit_crash", "metrickit_hang"):
    assert needed in kinds, f"no {needed} event among {sorted(kinds)}"
# The same bytes give the same id (copies such as `.ips.synced` dedupe); different events never share one.
by_id = {}
for event in events:
    same = by_id.setdefault(event["event_id"], event)
    assert same == event, f"{event['event_id']}: two different events share an id"

documents = [line for line in open(os.path.join(out, "otel.ndjson")) if line.strip()]
records = 0
metric_records = 0
hangs_saying_recovered = 0
names = set()
for text in documents:
    request = json_format.Parse(text, logs_service_pb2.ExportLogsServiceRequest())
    for resource_logs in request.resource_logs:
        for scope_logs in resource_logs.scope_logs:
            for record in scope_logs.log_records:
                attributes = {a.key: a.value for a in record.attributes}
                names.add(record.event_name)
                assert attributes["event.name"].string_value == record.event_name
                if record.event_name == "metrickit.metric_payload":
                    metric_records += 1
                    assert record.severity_number == 9
                    assert any(k.startswith("metrickit.app_exit.") for k in attributes), sorted(attributes)
                    continue
                records += 1
                assert "exception.type" in attributes and "apm_inspect.kind" in attributes
                if record.event_name == "app.crash":
                    assert record.severity_number == 21, record
                    # The same incident as the Sentry event of that id: a stack trace exactly when it has frames.
                    twin = by_id[attributes["app.crash.id"].string_value.replace("-", "")]
                    assert twin["exception"]["values"][0]["type"] == attributes["exception.type"].string_value
                    has_frames = bool(twin["exception"]["values"][0].get("stacktrace", {}).get("frames"))
                    assert has_frames == ("exception.stacktrace" in attributes), record
                if record.event_name == "app.jank" and attributes["apm_inspect.kind"].string_value == "metrickit_hang":
                    assert attributes["metrickit.diagnostic.hang.hang_duration"].double_value > 0
                elif record.event_name == "app.jank":
                    # A crash reporter's hang (KSCrash): whether it recovered, and its length when both times are known.
                    # Apple's hang reports (bug_type 222, 228, 310 …) do not say whether the app came back.
                    assert attributes["apm_inspect.kind"].string_value == "hang", record
                    recovered = attributes.get("apm_inspect.hang_recovered")
                    assert recovered is None or recovered.string_value in ("true", "false"), record
                    hangs_saying_recovered += recovered is not None
                    assert record.severity_number == 17, record
assert records == len(events), f"{records} OTLP records, {len(events)} Sentry events"
assert hangs_saying_recovered >= 1, "no hang says whether it recovered"
assert {"app.crash", "app.jank", "metrickit.metric_payload"} <= names, names

envelopes = sorted(os.listdir(os.path.join(out, "envelopes")))
assert len(envelopes) == len(by_id), f"{len(envelopes)} envelopes, {len(by_id)} distinct events"
for name in envelopes:
    data = open(os.path.join(out, "envelopes", name), "rb").read()
    header, rest = data.split(b"\n", 1)
    item, rest = rest.split(b"\n", 1)
    header, item = json.loads(header), json.loads(item)
    assert name == header["event_id"] + ".envelope" and item["type"] == "event"
    payload = rest[: item["length"]]
    assert rest[item["length"]:] == b"\n", f"{name}: the item length is not the payload's"
    assert json.loads(payload)["event_id"] == header["event_id"]
    parsed = Envelope.deserialize(data)
    assert [i.type for i in parsed.items] == ["event"], f"{name}: {[i.type for i in parsed.items]}"
    assert parsed.get_event() == by_id[header["event_id"]], f"{name}: the SDK reads another event"
# Why one envelope per event: concatenated, the second envelope is no second event to a parser.
first, second = (open(os.path.join(out, "envelopes", n), "rb").read() for n in envelopes[:2])
joined = Envelope.deserialize(first + second)
assert [i.type for i in joined.items].count("event") == 1, [i.type for i in joined.items]
print(f"backends: {len(events)} Sentry events valid against the schema ({sorted(kinds)}), "
      f"{len(documents)} OTLP documents with {records} event records and {metric_records} metric payloads parsed, {len(envelopes)} envelopes exact")
PY
