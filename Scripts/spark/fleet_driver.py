"""The driver side that fleet_job.py (Spark) and ray_job.py (Ray) share: their common options, the NDJSON file the
envelopes are gathered in, and `apm-inspect report` over it.

Only the map step differs between the two engines (how the reports reach tar_scan.py on the workers); what the
driver does with the envelopes is the same, so it is written once here.
"""
import argparse
import contextlib
import os
import subprocess
import tempfile


def parse_arguments(doc, bin_help, add_engine_arguments):
    """The options of a recipe: --bin, --input, --output, the engine's own, --ndjson, and report's after `--`."""
    parser = argparse.ArgumentParser(description=doc.split("\n")[0])
    parser.add_argument("--bin", required=True, help=bin_help)
    parser.add_argument("--input", required=True, help="a directory or URI of reports, read recursively")
    parser.add_argument("--output", required=True, help="where the report goes (report's -o)")
    add_engine_arguments(parser)
    parser.add_argument("--ndjson", help="keep the envelopes in this file (default: a temporary file)")
    parser.add_argument("report_options", nargs="*", help="after --: options for apm-inspect report")
    return parser.parse_args()


@contextlib.contextmanager
def envelope_file(keep):
    """The path the envelopes are gathered at: `keep` (--ndjson) when given, else a temporary file removed after."""
    if keep:
        yield keep
        return
    work = tempfile.mkdtemp(prefix="apm-inspect-fleet-")
    path = os.path.join(work, "envelopes.ndjson")
    try:
        yield path
    finally:
        if os.path.exists(path):
            os.remove(path)
        os.rmdir(work)


def write_envelopes(path, lines):
    """Writes the NDJSON `lines` (newline included) to `path` as they come; returns how many there were."""
    count = 0
    with open(path, "w", encoding="utf-8") as out:
        for line in lines:
            out.write(line)
            count += 1
    return count


def run_report(binary, args, ndjson):
    """`apm-inspect report --format json` over the envelopes, with the options after `--`; returns its exit status."""
    command = [binary, "report", "--format", "json", *args.report_options, "-o", args.output, ndjson]
    return subprocess.run(command, check=False).returncode
