#!/usr/bin/env python3
"""The fleet report (`apm-inspect report`) of a directory or bucket of reports, with Ray Data doing the parsing.

The Ray twin of fleet_job.py: `read_binary_files` reads the reports (a path, `s3://`, `gs://` …), `map_batches`
streams each batch as one tar into `apm-inspect scan --format ndjson -` (tar_scan.py), and the driver streams the
envelopes into one NDJSON file on its local disk and runs `apm-inspect report` over it, so every figure is made by
the same Swift code as `report` over the files (.ci/steps/ray.sh checks that they agree, section by section).

    ray_job.py --bin .build/release/apm-inspect --input DIR_OR_URI --output report.json [--num-cpus 2]
               [--address auto] [--batch 400] [--ndjson KEEP.ndjson] [-- REPORT_OPTION...]

Without --address, Ray starts a local instance with --num-cpus workers (what CI runs).
"""
import argparse
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tar_scan  # noqa: E402  (beside this file; sent to the workers by value)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin", required=True, help="the apm-inspect binary, at this path on every worker")
    parser.add_argument("--input", required=True, help="a directory or URI of reports, read recursively")
    parser.add_argument("--output", required=True, help="where the report goes (report's -o)")
    parser.add_argument("--address", help="a running Ray cluster (default: start a local one)")
    parser.add_argument("--num-cpus", type=int, default=2, help="CPUs of the local instance")
    parser.add_argument("--batch", type=int, default=400, help="reports per scan process")
    parser.add_argument("--ndjson", help="keep the envelopes in this file (default: a temporary file)")
    parser.add_argument("report_options", nargs="*", help="after --: options for apm-inspect report")
    args = parser.parse_args()

    import ray
    from ray import cloudpickle

    cloudpickle.register_pickle_by_value(tar_scan)  # workers need not find the module on their path
    if args.address:
        ray.init(address=args.address, logging_level="ERROR")
    else:
        ray.init(num_cpus=args.num_cpus, include_dashboard=False, logging_level="ERROR", log_to_driver=False)
    ray.data.DataContext.get_current().enable_progress_bars = False
    binary, root = os.path.abspath(args.bin), args.input

    def scan_batch(batch):
        members = ((tar_scan.member_name(path, root), data) for path, data in zip(batch["path"], batch["bytes"]))
        return {"line": list(tar_scan.scan_tar(binary, members))}

    work = tempfile.mkdtemp(prefix="apm-inspect-fleet-")
    ndjson = args.ndjson or os.path.join(work, "envelopes.ndjson")
    envelopes = 0
    try:
        dataset = ray.data.read_binary_files(args.input, include_paths=True)
        lines = dataset.map_batches(scan_batch, batch_size=args.batch, batch_format="numpy")
        # Batches reach the driver as they are made: its memory is a few batches of NDJSON.
        with open(ndjson, "w", encoding="utf-8") as out:
            for batch in lines.iter_batches(batch_size=None, batch_format="numpy"):
                for line in batch["line"]:
                    out.write(line)
                    envelopes += 1
    finally:
        ray.shutdown()
    try:
        command = [binary, "report", "--format", "json", *args.report_options, "-o", args.output, ndjson]
        status = subprocess.run(command, check=False).returncode
    finally:
        if not args.ndjson:
            os.remove(ndjson)
        os.rmdir(work)
    print("ray_job: %d envelopes, report exit status %d" % (envelopes, status), file=sys.stderr)
    sys.exit(status)


if __name__ == "__main__":
    main()
