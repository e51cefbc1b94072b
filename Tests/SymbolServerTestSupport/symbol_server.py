"""A symbol server for the tests: serves a folder over HTTP on 127.0.0.1 and an ephemeral port (printed first).

Every request's path is appended to the log file, so a test can count what was asked. Paths under /hang/ are never
answered, paths under /error/ answer 503, and paths under /short/ announce the whole file but send half of it and
close the connection.
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
        with open(LOG, "a") as log:
            log.write(self.path + "\n")
        path = self.path.split("?")[0]
        if path.startswith("/hang/"):
            time.sleep(3600)
            return
        if path.startswith("/error/"):
            self.send_response(503)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        short = path.startswith("/short/")
        if short:
            path = path[len("/short"):]
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
        self.send_response(200)
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
