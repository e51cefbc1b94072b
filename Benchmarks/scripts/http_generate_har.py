#!/usr/bin/env python3
"""Writes a large synthetic HAR 1.2 file shaped like a Chrome DevTools export, for benchmarks.

Usage: http_generate_har.py --out FILE [--mb 100] [--seed 1]

Entries cycle over ~60 hosts with h2 and http/1.1, pseudo-headers, _initiator stacks, _transferSize, reused
connections (-1), cache hits, 4xx/5xx and status-0 failures, and base64 bodies of a few KB, until the file
reaches the requested size. Deterministic for a seed. Standard library only.
"""
import argparse
import base64
import json
import random
from datetime import datetime, timedelta, timezone


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--mb", type=float, default=100)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    hosts = [f"api{i}.example.com" for i in range(20)] + [f"cdn{i}.example.net" for i in range(30)] + [
        f"www{i}.example.org" for i in range(10)]
    kinds = [("application/json", "fetch"), ("image/jpeg", "image"), ("text/html", "document"),
             ("application/javascript", "script"), ("text/css", "stylesheet"), ("font/woff2", "font")]
    target = int(args.mb * 1024 * 1024)
    start = datetime(2024, 3, 1, 10, 0, 0, tzinfo=timezone.utc)
    with open(args.out, "w") as out:
        out.write('{"log": {"version": "1.2", "creator": {"name": "WebInspector", "version": "537.36"}, '
                  '"pages": [{"startedDateTime": "2024-03-01T10:00:00.000Z", "id": "page_1", "title": "bench", '
                  '"pageTimings": {"onContentLoad": 900.5, "onLoad": 1800.25}}], "entries": [\n')
        written = 0
        index = 0
        seen = set()
        while written < target:
            host = rng.choice(hosts)
            mime, resource = rng.choice(kinds)
            reused = host in seen and rng.random() < 0.8
            seen.add(host)
            status = rng.choices([200, 204, 304, 404, 500, 0], weights=[80, 4, 6, 5, 3, 2])[0]
            dns = -1 if reused else round(rng.uniform(1, 80), 3)
            ssl = -1 if reused else round(rng.uniform(10, 120), 3)
            connect = -1 if reused else round(ssl + rng.uniform(5, 60), 3)
            t = {"blocked": round(rng.uniform(0, 20), 3), "dns": dns, "ssl": ssl, "connect": connect,
                 "send": round(rng.uniform(0, 2), 3), "wait": round(rng.lognormvariate(4, 0.8), 3),
                 "receive": round(rng.uniform(0, 200), 3), "_blocked_queueing": round(rng.uniform(0, 5), 3)}
            total = sum(v for k, v in t.items() if not k.startswith("_") and k != "ssl" and v > 0)
            body = base64.b64encode(rng.randbytes(rng.randint(200, 6000))).decode()
            when = (start + timedelta(milliseconds=index * 7.3)).isoformat(timespec="milliseconds").replace("+00:00", "Z")
            path = f"/v{rng.randint(1, 3)}/{resource}/{index}?q={rng.randint(0, 99999)}"
            entry = {
                "_initiator": {"type": "script", "stack": {"callFrames": [
                    {"functionName": f"f{j}", "scriptId": str(j), "url": f"https://{host}/app.js", "lineNumber": j,
                     "columnNumber": j * 3} for j in range(rng.randint(1, 6))]}},
                "_priority": rng.choice(["VeryHigh", "High", "Medium", "Low"]), "_resourceType": resource,
                "cache": {}, "connection": "443", "pageref": "page_1",
                "request": {"method": "GET" if resource != "fetch" or rng.random() < 0.7 else "POST",
                            "url": f"https://{host}{path}", "httpVersion": "http/2.0", "headers": [
                                {"name": ":authority", "value": host}, {"name": ":method", "value": "GET"},
                                {"name": ":path", "value": path}, {"name": ":scheme", "value": "https"},
                                {"name": "accept", "value": "*/*"}, {"name": "cookie", "value": "sid=%08x" % index},
                                {"name": "user-agent", "value": "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X)"}],
                            "queryString": [{"name": "q", "value": path.rsplit("=", 1)[-1]}], "cookies": [],
                            "headersSize": -1, "bodySize": 0},
                "response": {"status": status, "statusText": "", "httpVersion": "http/2.0" if status else "",
                             "headers": [{"name": "content-type", "value": mime},
                                         {"name": "cache-control", "value": "max-age=60"}],
                             "cookies": [], "content": {"size": len(body) * 3 // 4, "mimeType": mime, "text": body,
                                                        "encoding": "base64"},
                             "redirectURL": "", "headersSize": -1, "bodySize": -1,
                             "_transferSize": len(body) // 2 + 300, "_error": None if status else "net::ERR_FAILED"},
                "serverIPAddress": f"198.51.{index % 200}.{index % 250}", "startedDateTime": when,
                "time": round(total, 3), "timings": t}
            if status == 304 and rng.random() < 0.5:
                entry["_fromCache"] = "disk"
            text = ("," if index else "") + json.dumps(entry, separators=(",", ":")) + "\n"
            out.write(text)
            written += len(text)
            index += 1
        out.write("]}}\n")
    print(f"{args.out}: {index} entries, {written / 1048576:.1f} MB")


if __name__ == "__main__":
    main()
