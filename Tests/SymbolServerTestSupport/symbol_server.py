"""A symbol server for the tests: serves a folder over HTTP on 127.0.0.1 and an ephemeral port (printed first).

Every request's path is appended to the log file (with its `Range` header after a space, when it has one), so a test
can count what was asked. Paths under /hang/ are never answered, paths under /error/ answer 503, and paths under
/short/ announce the whole file but send half of it and close the connection, unless the request asks for a range.
Paths under /flaky/ cut every answer (a range too) at half of what it announces while the file `flaky-on` exists
in the served folder. A `Range: bytes=N-` request is answered 206 with the rest of the file (416 past its end), as
long as its `If-Range`, when sent, is the file's ETag.
"""
import http.server
import os
import signal
import sys
import time

ROOT = os.path.realpath(sys.argv[1])
LOG = sys.argv[2]


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        asked = self.headers.get("Range")
        with open(LOG, "a") as log:
            log.write(self.path + (" " + asked if asked else "") + "\n")
        path = self.path.split("?")[0]
        if path.startswith("/hang/"):
            time.sleep(3600)
            return
        if path.startswith("/error/"):
            self.send_response(503)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        short = path.startswith("/short/") and asked is None
        if path.startswith("/short/"):
            path = path[len("/short"):]
        if path.startswith("/flaky/"):
            path = path[len("/flaky"):]
            short = os.path.exists(os.path.join(ROOT, "flaky-on"))
        full = os.path.realpath(os.path.join(ROOT, path.lstrip("/")))
        if not full.startswith(ROOT + os.sep) or not os.path.isfile(full):
            body = b"not found"
            self.send_response(404)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        with open(full, "rb") as file:
            data = file.read()
        etag = '"%x-%x"' % (len(data), int(os.path.getmtime(full)))
        start = 0
        validator = self.headers.get("If-Range")
        if asked and asked.startswith("bytes=") and asked.endswith("-") and validator in (None, etag):
            start = int(asked[len("bytes="):-1])
            if start >= len(data):
                self.send_response(416)
                self.send_header("Content-Range", "bytes */%d" % len(data))
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            self.send_response(206)
            self.send_header("Content-Range", "bytes %d-%d/%d" % (start, len(data) - 1, len(data)))
        else:
            self.send_response(200)
        data = data[start:]
        self.send_header("ETag", etag)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if short:
            self.wfile.write(data[: len(data) // 2])
            self.wfile.flush()
            self.close_connection = True
            return
        self.wfile.write(data)


signal.signal(signal.SIGTERM, signal.SIG_DFL)
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
print(server.server_address[1], flush=True)
server.serve_forever()
