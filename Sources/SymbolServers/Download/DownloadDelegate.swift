import AsyncHTTPClient
import ByteAccess
import NIOCore
import NIOHTTP1

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Streams one response body into an open file, abandoning it past a byte limit, so a download never sits in
/// memory whole and a hostile server cannot fill the disk.
///
/// A download that resumes (the file already holds `resumeFrom` bytes and the request asked for the rest) takes a
/// 206 whose range starts there and appends it; a 200 means the server sent the whole file again, so the file is
/// emptied first. Called on one event loop, one callback at a time (AsyncHTTPClient's contract), hence the unchecked
/// Sendable.
final class DownloadDelegate: HTTPClientResponseDelegate, @unchecked Sendable {
    struct Outcome: Sendable {
        var status: UInt
        var received: Int64
        /// The `Content-Length` the server announced, when it did.
        var announced: Int64?
        var writeFailed: Bool
        /// Where this body starts in the file: the resumed-from length for a 206 that continues it, else 0.
        var start: Int64 = 0
        /// The whole file's length a 206's `Content-Range` gives.
        var total: Int64?
        /// A 206 whose range does not start where the file ends: its body is not kept.
        var misplaced = false
        /// The `ETag` (else `Last-Modified`) that a resumed request sends as `If-Range`.
        var validator: String?

        /// Bytes of the file written so far (what a later request resumes from).
        var held: Int64 { start + (isKept ? received : 0) }
        /// True when the body is part of the file: a 200, or a 206 that continues it.
        var isKept: Bool { status == 200 || (status == 206 && !misplaced) }
    }

    /// Thrown into the request when the body grows past the limit (or announces it will).
    struct TooLarge: Error {}

    private let descriptor: Int32
    private let maxBytes: Int64
    private let resumeFrom: Int64
    private var outcome = Outcome(status: 0, received: 0, announced: nil, writeFailed: false)

    init(descriptor: Int32, maxBytes: Int64, resumeFrom: Int64 = 0) {
        self.descriptor = descriptor
        self.maxBytes = maxBytes
        self.resumeFrom = resumeFrom
    }

    /// What was received until now, also after the request failed (a cut connection keeps what came).
    var progress: Outcome { outcome }

    func didReceiveHead(task: HTTPClient.Task<Outcome>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        outcome.status = head.status.code
        outcome.announced = head.headers.first(name: "content-length").flatMap { Int64($0) }
        outcome.validator = head.headers.first(name: "etag") ?? head.headers.first(name: "last-modified")
        switch outcome.status {
        case 206:
            let range = head.headers.first(name: "content-range").flatMap(Self.contentRange)
            outcome.total = range?.total
            if range?.start == resumeFrom, resumeFrom > 0 {
                outcome.start = resumeFrom
            } else {
                outcome.misplaced = true
            }
        case 200 where resumeFrom > 0:
            // The whole file again (the server ignored the range, or the file changed): start over.
            if ftruncate(descriptor, 0) != 0 || lseek(descriptor, 0, SEEK_SET) < 0 { outcome.writeFailed = true }
        default: break
        }
        let whole = outcome.status == 206 ? outcome.total : outcome.announced
        if outcome.isKept, let whole, whole > maxBytes {
            task.fail(reason: TooLarge())
        }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Outcome>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        // Only the file's bytes are kept; an error page is counted, never kept.
        outcome.received += Int64(buffer.readableBytes)
        if outcome.start + outcome.received > maxBytes {
            task.fail(reason: TooLarge())
            return task.eventLoop.makeSucceededVoidFuture()
        }
        if outcome.isKept, !outcome.writeFailed {
            let written = buffer.readableBytesView.withContiguousBorrowedBytes { bytes in
                bytes.writeAll { start, count, _ in write(descriptor, start, count) }
            }
            if !written { outcome.writeFailed = true }
        }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didFinishRequest(task: HTTPClient.Task<Outcome>) throws -> Outcome { outcome }

    /// `bytes 1000-4999/5000` → (1000, 5000); nil for any other value (`bytes */5000`, a missing total).
    static func contentRange(_ value: String) -> (start: Int64, total: Int64)? {
        guard value.hasPrefix("bytes "), let dash = value.firstIndex(of: "-"), let slash = value.firstIndex(of: "/"),
            dash < slash, let start = Int64(value[value.index(value.startIndex, offsetBy: 6)..<dash]),
            let total = Int64(value[value.index(after: slash)...]), start >= 0, total > start
        else { return nil }
        return (start, total)
    }
}
