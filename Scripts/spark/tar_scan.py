"""Feeds a batch of reports to `apm-inspect scan --format ndjson -` as one tar stream, and yields its NDJSON lines.

What the Spark and Ray recipes (fleet_job.py, ray_job.py) run on each partition. The reports arrive as bytes
(Spark `binaryFiles`, Ray Data `read_binary_files`: object storage works as well as a mount), so nothing is written
to the worker's disk: the bytes are written as tar members into the pipe, one process per partition, and scan
reads the archive member by member as it reads a sysdiagnose. Every envelope is named `-!/MEMBER`, MEMBER being
the report's path under the input root, so a file can be found again from the fleet report.

This is transport only: it parses nothing and aggregates nothing. The report is made by `apm-inspect report` over
the NDJSON, by the same Swift code that makes it from the files.
"""
import io
import subprocess
import tarfile
import threading
from urllib.parse import urlparse


def member_name(path, root):
    """The tar member name of `path` (a URI or a path): its path under `root`, never absolute, never `..`."""
    path, root = urlparse(path).path or path, (urlparse(root).path or root).rstrip("/")
    if root and path.startswith(root + "/"):
        path = path[len(root) + 1:]
    parts = [part for part in path.split("/") if part not in ("", ".", "..")]
    return "/".join(parts) or "report"


def scan_tar(binary, members, jobs=1):
    """The NDJSON lines (str, newline included) scan writes for `members`, an iterable of (name, bytes).

    A writer thread streams the tar into scan's standard input while this one reads its output, so neither pipe
    fills up and a partition's reports are never all in memory at once. Exit status 1 (a report could not be read)
    is kept: the envelope says so and the report counts it; anything else (a usage error, a signal) raises.
    """
    process = subprocess.Popen(
        [binary, "scan", "--format", "ndjson", "--jobs", str(jobs), "-"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    failure, errors = [], []

    def feed():
        try:
            with tarfile.open(fileobj=process.stdin, mode="w|", format=tarfile.PAX_FORMAT) as tar:
                for name, data in members:
                    data = bytes(data)
                    info = tarfile.TarInfo(name)
                    info.size, info.mode, info.mtime = len(data), 0o644, 0
                    tar.addfile(info, io.BytesIO(data))
        except BrokenPipeError:
            pass  # scan stopped reading: its exit status says why
        except BaseException as error:  # reported after scan exits, with its status
            failure.append(error)
        finally:
            try:
                process.stdin.close()
            except BrokenPipeError:
                pass

    def drain():
        errors.append(process.stderr.read())

    writer, reader = threading.Thread(target=feed), threading.Thread(target=drain)
    writer.start()
    reader.start()
    for line in process.stdout:
        yield line.decode("utf-8")
    writer.join()
    reader.join()
    status = process.wait()
    if failure:
        raise failure[0]
    if status not in (0, 1):
        message = b"".join(errors).decode("utf-8", "replace")[-2000:]
        raise RuntimeError("apm-inspect scan exited with %d: %s" % (status, message))
