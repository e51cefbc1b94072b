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
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fleet_driver  # noqa: E402  (beside this file; the driver's side only)
import tar_scan  # noqa: E402  (beside this file; sent to the workers by value)


def add_ray_arguments(parser):
    parser.add_argument("--address", help="a running Ray cluster (default: start a local one)")
    parser.add_argument("--num-cpus", type=int, default=2, help="CPUs of the local instance")
    parser.add_argument("--batch", type=int, default=400, help="reports per scan process")


def main():
    args = fleet_driver.parse_arguments(
        __doc__, "the apm-inspect binary, at this path on every worker", add_ray_arguments)

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

    with fleet_driver.envelope_file(args.ndjson) as ndjson:
        try:
            dataset = ray.data.read_binary_files(args.input, include_paths=True)
            lines = dataset.map_batches(scan_batch, batch_size=args.batch, batch_format="numpy")
            # Batches reach the driver as they are made: its memory is a few batches of NDJSON.
            batches = lines.iter_batches(batch_size=None, batch_format="numpy")
            envelopes = fleet_driver.write_envelopes(ndjson, (line for batch in batches for line in batch["line"]))
        finally:
            ray.shutdown()
        status = fleet_driver.run_report(binary, args, ndjson)
    print("ray_job: %d envelopes, report exit status %d" % (envelopes, status), file=sys.stderr)
    sys.exit(status)


if __name__ == "__main__":
    main()
