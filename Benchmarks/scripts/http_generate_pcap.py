#!/usr/bin/env python3
"""Writes a large synthetic pcap (Ethernet, IPv4) for benchmarks: DNS lookups and HTTP/1.1 keep-alive
connections with several requests each, responses split over MSS-sized segments.

Usage: http_generate_pcap.py --out FILE [--connections 4000] [--requests 5] [--seed 1]
Deterministic for a seed. Standard library only.
"""
import argparse
import random
import struct


def checksum(header):
    s = sum(struct.unpack("!10H", header))
    while s > 0xFFFF:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


def ipv4(src, dst, proto, payload):
    header = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(payload), 0, 0x4000, 64, proto, 0, src, dst)
    header = header[:10] + struct.pack("!H", checksum(header)) + header[12:]
    return header + payload


def frame(ip):
    return b"\x00\x1c\x42\x00\x00\x01\x00\x1c\x42\x00\x00\x02\x08\x00" + ip


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--connections", type=int, default=4000)
    parser.add_argument("--requests", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    packets = []
    client = bytes([10, 0, 0, 2])
    resolver = bytes([10, 0, 0, 1])
    t = 1_709_287_200.0
    for c in range(args.connections):
        server = bytes([198, 51, (c // 250) % 250, c % 250 + 1])
        name = f"h{c % 500}.example.com".encode()
        qname = b"".join(bytes([len(p)]) + p for p in name.split(b".")) + b"\x00"
        sport = 40000 + c % 20000
        dns_id = c & 0xFFFF
        query = struct.pack("!HHHHHH", dns_id, 0x0100, 1, 0, 0, 0) + qname + struct.pack("!HH", 1, 1)
        answer = struct.pack("!HHHHHH", dns_id, 0x8180, 1, 1, 0, 0) + qname + struct.pack("!HH", 1, 1)
        answer += b"\xc0\x0c" + struct.pack("!HHIH", 1, 1, 60, 4) + server
        udp = lambda sp, dp, p: struct.pack("!HHHH", sp, dp, 8 + len(p), 0) + p
        packets.append((t, frame(ipv4(client, resolver, 17, udp(sport, 53, query)))))
        t += rng.uniform(0.002, 0.06)
        packets.append((t, frame(ipv4(resolver, client, 17, udp(53, sport, answer)))))
        cseq, sseq = rng.randint(0, 2**32 - 1), rng.randint(0, 2**32 - 1)

        def tcp(from_client, flags, payload=b""):
            nonlocal cseq, sseq
            sp, dp = (sport, 80) if from_client else (80, sport)
            seq, ack = (cseq, sseq) if from_client else (sseq, cseq)
            seg = struct.pack("!HHIIBBHHH", sp, dp, seq, ack, 0x50, flags, 65535, 0, 0) + payload
            src, dst = (client, server) if from_client else (server, client)
            packets.append((t, frame(ipv4(src, dst, 6, seg))))
            grow = len(payload) + (1 if flags & 0x03 else 0)
            if from_client:
                cseq = (cseq + grow) & 0xFFFFFFFF
            else:
                sseq = (sseq + grow) & 0xFFFFFFFF

        t += 0.001
        tcp(True, 0x02)
        t += rng.uniform(0.005, 0.08)
        tcp(False, 0x12)
        t += 0.0002
        tcp(True, 0x10)
        for r in range(args.requests):
            t += rng.uniform(0.0005, 0.01)
            tcp(True, 0x18, f"GET /v1/item/{c}/{r} HTTP/1.1\r\nHost: {name.decode()}\r\nAccept: */*\r\n\r\n".encode())
            t += rng.uniform(0.01, 0.3)
            status = rng.choices([200, 404, 500], weights=[90, 7, 3])[0]
            body = bytes(rng.getrandbits(8) for _ in range(rng.randint(100, 9000)))
            response = f"HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n".encode() + body
            for i in range(0, len(response), 1448):
                tcp(False, 0x18, response[i:i + 1448])
                t += 0.0003
        t += 0.001
        tcp(True, 0x11)
        tcp(False, 0x11)
        t += rng.uniform(0.0, 0.02)
    packets.sort(key=lambda p: p[0])
    with open(args.out, "wb") as out:
        out.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 262144, 1))
        for ts, data in packets:
            sec = int(ts)
            out.write(struct.pack("<IIII", sec, int(round((ts - sec) * 1e6)) % 1000000, len(data), len(data)))
            out.write(data)
    print(f"{args.out}: {len(packets)} packets, {args.connections} connections")


if __name__ == "__main__":
    main()
