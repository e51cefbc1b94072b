import APMInspectCore
import FuzzSupport

@testable import HTTPCaptureParsing

/// The TLS scanner on a client and a server stream: the first two bytes say where the client stream ends.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTLS(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = fuzzBytes(start, count)
    guard bytes.count >= 2 else { return 0 }
    let rest = Array(bytes[2...])
    let split = min(rest.count, Int(bytes[0]) << 8 | Int(bytes[1]))
    var client = TCPStream()
    client.bytes = Array(rest[..<split])
    client.marks = [TCPStream.Mark(offset: 0, time: 1_000)]
    var server = TCPStream()
    server.bytes = Array(rest[split...])
    server.marks = [
        TCPStream.Mark(offset: 0, time: 2_000), TCPStream.Mark(offset: server.bytes.count / 2, time: 3_000),
    ]
    let first = TLSScanner(client: client, server: server)
    let second = TLSScanner(client: client, server: server)
    fuzzRequire(first.handshake == second.handshake, "two scans of the same streams differ")
    fuzzCheckEncodes(first.handshake, "the TLS handshake")
    return 0
}
