#!/usr/bin/env bash
# The JSON output contract (docs/json-output.md) as a JSON Schema: docs/schema/apm-inspect-output.schema.json
# (draft 2020-12) must accept the reviewed expected outputs under Corpus/*/expected/, `inspect --format json` of every
# file of Corpus/ and $SHARED/corpus (one object each; an archive, an array of its members), the array form of several files, and every line of
# `scan --format ndjson Corpus`. Then a negative self-check: envelopes broken on purpose must be rejected, so the step
# cannot pass by accepting anything. One Python process validates everything.
set -euo pipefail
: "${BIN:?BIN must name the apm-inspect binary}" "${SHARED:?SHARED must name the shared folder}"
SCHEMA=docs/schema/apm-inspect-output.schema.json
[ -f "$SCHEMA" ] || { echo "FAIL: $SCHEMA is missing"; exit 1; }
[ -d "$SHARED/corpus" ] || { echo "FAIL: $SHARED/corpus is missing: the conformance corpus must sit beside the checkout"; exit 1; }

# Python's jsonschema (Draft202012Validator), installed as spark.sh installs pyspark when it is missing.
if ! python3 -c 'import jsonschema.validators; jsonschema.validators.Draft202012Validator' 2>/dev/null; then
  echo "  installing jsonschema"
  python3 -m pip install --quiet jsonschema || python3 -m pip install --quiet --break-system-packages jsonschema
fi

python3 - "$BIN" "$SHARED/corpus" "$SCHEMA" <<'PY'
import copy, glob, json, os, subprocess, sys
from jsonschema.exceptions import best_match
from jsonschema.validators import Draft202012Validator

bin_path, shared_corpus, schema_path = sys.argv[1:4]
schema = json.load(open(schema_path, encoding="utf-8"))
Draft202012Validator.check_schema(schema)
validator = Draft202012Validator(schema)  # no format_checker: the schema uses patterns, not formats
failures = []
counts = {}

def check(label, document, group):
    counts[group] = counts.get(group, 0) + 1
    errors = list(validator.iter_errors(document))
    if errors:
        # best_match descends into oneOf/allOf to the deepest error: its path and message, not the whole document.
        e = best_match(errors)
        where = "/".join(str(p) for p in e.absolute_path) or "(root)"
        failures.append(f"{label}: at {where}: {e.message[:300]}")
    return not errors

def run(args, label):
    proc = subprocess.run([bin_path] + args, capture_output=True)
    if proc.returncode > 1:
        failures.append(f"{label}: exited with {proc.returncode}: {proc.stderr.decode(errors='replace')[:500]}")
        return None
    return proc.stdout.decode("utf-8")

def files_under(root, skip_expected):
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        if skip_expected and os.path.basename(dirpath) == "expected":
            continue
        for name in sorted(filenames):
            if skip_expected and name == "README.md":
                continue
            out.append(os.path.join(dirpath, name))
    return out

# (a) reviewed expected outputs
for path in sorted(glob.glob("Corpus/*/expected/*.json")):
    check(path, json.load(open(path, encoding="utf-8")), "expected outputs")

# (b) inspect --format json of every file: one object per file
corpus_files = files_under("Corpus", skip_expected=True)
archive_members = {}  # an archive given to inspect: how many envelopes it gave (its reports)
shared_files = files_under(shared_corpus, skip_expected=False)
kinds = {}
for path in corpus_files + shared_files:
    text = run(["inspect", "--format", "json", path], path)
    if text is None:
        continue
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        failures.append(f"{path}: output is not JSON: {error}")
        continue
    # A tar or tar.gz (a sysdiagnose) is read member by member: an array of the reports inside, each named
    # ARCHIVE!/member; any other file gives one object.
    if isinstance(document, list):
        # An archive that holds no report (the hostile ones) gives an empty array and says so on standard error.
        # Its reports, then (when it has findings) the archive's own envelope, of kind `archive`.
        strays = [d.get("file") for d in document
                  if not str(d.get("file", "")).startswith(path + "!/")
                  and not (d.get("file") == path and d.get("kind") == "archive")]
        if strays:
            failures.append(f"{path}: an array from one file must hold its archive members, got {strays[:3]}")
            continue
        archive_members[path] = len(document)
        documents = document
    elif isinstance(document, dict):
        documents = [document]
    else:
        failures.append(f"{path}: one file must give one object, got {type(document).__name__}")
        continue
    group = "Corpus files" if path in corpus_files else "shared corpus files"
    for document in documents:
        check(path, document, group)
        kinds[document.get("kind")] = kinds.get(document.get("kind"), 0) + 1

# (c) scan --format ndjson Corpus, line by line
text = run(["scan", "--format", "ndjson", "Corpus"], "scan --format ndjson Corpus")
for number, line in enumerate((text or "").splitlines(), 1):
    try:
        document = json.loads(line)
    except json.JSONDecodeError as error:
        failures.append(f"scan ndjson line {number}: not JSON: {error}")
        continue
    if not isinstance(document, dict):
        failures.append(f"scan ndjson line {number}: not one envelope")
        continue
    check(f"scan ndjson line {number} ({document.get('file')})", document, "scan ndjson lines")

# (d) the array form: two files, then every Corpus file in one run
pairs = [corpus_files[:2], corpus_files]
for files in pairs:
    label = f"inspect --format json of {len(files)} files"
    text = run(["inspect", "--format", "json"] + files, label)
    if text is None:
        continue
    document = json.loads(text)
    # One envelope a file, an archive's reports in its place.
    expected = sum(archive_members.get(f, 1) for f in files)
    if not isinstance(document, list) or len(document) != expected:
        failures.append(f"{label}: expected an array of {expected} envelopes")
        continue
    check(label, document, "array documents")

# Negative self-check: each broken copy of a valid envelope must be rejected.
base = json.load(open("Corpus/jetsam/expected/ios13.3.1_iPhone8-2_frontmost-per-process-limit_1450MB.ips.json", encoding="utf-8"))
crash = json.load(open("Corpus/crash/expected/ios14.4_text_exc_bad_access_sigsegv_kern_invalid_address.crash.json", encoding="utf-8"))
broken = []
if not (validator.is_valid(base) and validator.is_valid(crash)):
    failures.append("negative self-check: the envelopes it starts from are not valid themselves")
else:
    b = copy.deepcopy(base); del b["kind"]; broken.append(("kind dropped", b))
    b = copy.deepcopy(base); b["report"]["pageSize"] = str(b["report"]["pageSize"]); broken.append(("pageSize as a string", b))
    b = copy.deepcopy(base); b["report"]["processes"][0]["rpages"] = "12"; broken.append(("rpages as a string", b))
    b = copy.deepcopy(base); b["schemaVersion"] = 2; broken.append(("schemaVersion 2", b))
    b = copy.deepcopy(base); b.pop("schemaVersion", None); broken.append(("schemaVersion dropped", b))
    b = copy.deepcopy(base); b["diagnostics"] = [{"severity": "fatal", "message": "x"}]; broken.append(("unknown severity", b))
    b = copy.deepcopy(crash); b["report"]["binaryImages"][0]["base"] = int(b["report"]["binaryImages"][0]["base"], 16)
    broken.append(("image base as a number", b))
    b = copy.deepcopy(crash); b["report"] = None; broken.append(("report null without error", b))
    broken.append(("array holding a broken envelope", [base, broken[0][1]]))
    for what, document in broken:
        if validator.is_valid(document):
            failures.append(f"negative self-check: an envelope with {what} was accepted")
print(f"  ok negative self-check: {len(broken)} broken envelopes rejected" if broken and not any(
    f.startswith("negative") for f in failures) else "  negative self-check FAILED")

for group, n in counts.items():
    print(f"  {n:4} {group} validated")
print("  kinds seen by inspect: " + ", ".join(f"{k} {v}" for k, v in sorted(kinds.items(), key=str)))
for group in ("expected outputs", "Corpus files", "shared corpus files", "scan ndjson lines", "array documents"):
    if counts.get(group, 0) == 0:
        failures.append(f"no {group} were validated")
if failures:
    print(f"FAIL: {len(failures)} problems against {schema_path}")
    for f in failures[:200]:
        print("  " + f)
    sys.exit(1)
print(f"  ok: {sum(counts.values())} documents valid against {schema_path}")
PY
