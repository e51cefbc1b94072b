import FuzzSupport

@testable import APMInspectCore

/// gzip and zlib streams: the one-shot decompression against the streaming inflater fed in three pieces.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGzip(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = fuzzBytes(start, count)
    let limit = 1 << 20
    let whole = try? Inflate.decompress(bytes, maxOutputBytes: limit)
    if let whole { fuzzRequire(whole.bytes.count <= limit, "more output than the limit") }
    // Cut points derived from the input so the mutator can move them.
    let a = bytes.count / 3
    let b = bytes.count - bytes.count / 4
    guard let inflater = try? Inflater() else { return 0 }
    var pieces: [UInt8] = []
    var ended = false
    var failed = false
    // Every piece is fed: a member may end in one piece and the next member start in the following one.
    for range in [0..<a, a..<b, b..<bytes.count] where !failed {
        do {
            let (out, done) = try inflater.feed(Array(bytes[range]), maxOutputBytes: limit)
            pieces += out
            ended = done
        } catch {
            failed = true
        }
    }
    fuzzRequire((whole == nil) == failed, "one-shot and streaming disagree on whether the data is corrupt")
    if let whole, !failed {
        fuzzRequire(pieces == whole.bytes, "streaming and one-shot output differ")
        fuzzRequire(ended == !whole.isTruncated, "streaming and one-shot disagree on the end of the stream")
    }
    return 0
}
