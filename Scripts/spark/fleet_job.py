#!/usr/bin/env python3
"""The fleet report (`apm-inspect report`) of a directory or bucket of reports, with Apache Spark doing the parsing.

Map: `binaryFiles` reads the reports (a path, `file:`, `s3a://`, `gs://` …) into partitions; each partition is
streamed as one tar into `apm-inspect scan --format ndjson -` (tar_scan.py), which parses every report and writes
one envelope per line; all partitions run in parallel and their NDJSON is kept on the executors' disks. Reduce:
the driver fetches the envelopes, a partition at a time, into one NDJSON file on its local disk and runs
`apm-inspect report` over it. Every figure of the report (crash groups, watchdog, OOM and its
truth table, memory limits, hangs, resource kills, MetricKit, per-day counts, inputs) is made by the same Swift code
as `report` over the files, so the two agree by construction; .ci/steps/spark.sh checks that they do, section by
section, on a mixed set of reports. No aggregation is re-implemented here.

    fleet_job.py --bin .build/release/apm-inspect --input DIR_OR_URI --output report.json [--master local[2]]
                 [--partitions N] [--ndjson KEEP.ndjson] [--ship-binary] [-- REPORT_OPTION...]

Options after `--` go to `apm-inspect report` (`--format html`, `--since 2024-06-01`, `--app ID` …).
See docs/scale-out.md for what runs where and what it costs.
"""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fleet_driver  # noqa: E402  (beside this file; the driver's side only)
import tar_scan  # noqa: E402  (beside this file; shipped to the executors with addPyFile)


def add_spark_arguments(parser):
    parser.add_argument("--master", default="local[2]")
    parser.add_argument("--partitions", type=int, default=0, help="minimum partitions (default: 4 per core)")
    parser.add_argument("--max-partition-bytes", default="8m",
                        help="spark.files.maxPartitionBytes: binaryFiles packs small files into partitions of this "
                             "size, whatever --partitions asks (at Spark's 128m, 32 MB of reports are one partition)")
    parser.add_argument("--ship-binary", action="store_true",
                        help="send --bin to the executors with addFile instead of expecting it at the same path")


def main():
    args = fleet_driver.parse_arguments(
        __doc__, "the apm-inspect binary (on every executor, or --ship-binary)", add_spark_arguments)

    from pyspark import SparkConf, SparkContext, SparkFiles, StorageLevel

    binary = os.path.abspath(args.bin)
    began = time.monotonic()
    conf = (SparkConf().setMaster(args.master).setAppName("apm-inspect fleet report")
            .set("spark.ui.enabled", "false").set("spark.ui.showConsoleProgress", "false")
            .set("spark.driver.memory", "1g").set("spark.files.maxPartitionBytes", args.max_partition_bytes))
    context = SparkContext(conf=conf)
    context.setLogLevel("ERROR")
    context.addPyFile(tar_scan.__file__)
    context._jsc.hadoopConfiguration().set("mapreduce.input.fileinputformat.input.dir.recursive", "true")
    if args.ship_binary:
        context.addFile(binary)
    shipped, root = args.ship_binary, args.input

    def scan_partition(files):
        import tar_scan as executor_side  # the copy addPyFile shipped

        program = SparkFiles.get(os.path.basename(binary)) if shipped else binary
        members = ((executor_side.member_name(path, root), data) for path, data in files)
        return executor_side.scan_tar(program, members)

    with fleet_driver.envelope_file(args.ndjson) as ndjson:
        try:
            partitions = args.partitions or 4 * context.defaultParallelism
            lines = context.binaryFiles(args.input, minPartitions=partitions).mapPartitions(scan_partition)
            # toLocalIterator runs one job per partition, one after the other: the scans run first, all partitions
            # in parallel, and their NDJSON waits on the executors' disks, from where the driver fetches one
            # partition at a time (its memory is a partition's NDJSON, never the whole).
            started = time.monotonic()
            lines.persist(StorageLevel.DISK_ONLY)
            lines.count()
            scanned = time.monotonic()
            envelopes = fleet_driver.write_envelopes(ndjson, lines.toLocalIterator(prefetchPartitions=True))
        finally:
            context.stop()
        fetched = time.monotonic()
        status = fleet_driver.run_report(binary, args, ndjson)
    print("fleet_job: %d envelopes, report exit status %d; Spark start %.1f s, scan %.1f s, fetch %.1f s, report %.1f s"
          % (envelopes, status, started - began, scanned - started, fetched - scanned, time.monotonic() - fetched),
          file=sys.stderr)
    sys.exit(status)


if __name__ == "__main__":
    main()
