import APMInspectCore
import FuzzSupport

@testable import HTTPCaptureParsing

/// HTTP/1 messages on one reassembled stream: the first byte chooses the side and the request methods to pair.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTP1(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = fuzzBytes(start, count)
    guard let mode = bytes.first else { return 0 }
    let stream = Array(bytes.dropFirst())
    let isResponse = mode & 1 != 0
    let choices = ["GET", "HEAD", "CONNECT", "POST"]
    let methods = (0..<Int(mode >> 1 & 7)).map { choices[(Int(mode >> 4) + $0) % choices.count] }
    _ = HTTP1Message.looksLikeRequest(stream)
    let first = HTTP1Message.parseAll(stream, isResponse: isResponse, methods: methods, maxDecoded: 1 << 20)
    let second = HTTP1Message.parseAll(stream, isResponse: isResponse, methods: methods, maxDecoded: 1 << 20)
    fuzzRequire(first.count == second.count, "two parses of the same stream differ")
    fuzzRequire(first.count <= stream.count, "more messages than bytes")
    return 0
}
