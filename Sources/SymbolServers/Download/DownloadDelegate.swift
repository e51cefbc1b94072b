import AsyncHTTPClient
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
/// Called on one event loop, one callback at a time (AsyncHTTPClient's contract), hence the unchecked Sendable.
final class DownloadDelegate: HTTPClientResponseDelegate, @unchecked Sendable {
    struct Outcome: Sendable {
        var status: UInt
        var received: Int64
        /// The `Content-Length` the server announced, when it did.
        var announced: Int64?
        var writeFailed: Bool
    }

    /// Thrown into the request when the body grows past the limit (or announces it will).
    struct TooLarge: Error {}

    private let descriptor: Int32
    private let maxBytes: Int64
    private var outcome = Outcome(status: 0, received: 0, announced: nil, writeFailed: false)

    init(descriptor: Int32, maxBytes: Int64) {
        self.descriptor = descriptor
        self.maxBytes = maxBytes
    }

    func didReceiveHead(task: HTTPClient.Task<Outcome>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        outcome.status = head.status.code
        outcome.announced = head.headers.first(name: "content-length").flatMap { Int64($0) }
        if outcome.status == 200, let announced = outcome.announced, announced > maxBytes {
            task.fail(reason: TooLarge())
        }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Outcome>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        // Only a 200's body is the file; an error page is counted, never kept.
        outcome.received += Int64(buffer.readableBytes)
        if outcome.received > maxBytes {
            task.fail(reason: TooLarge())
            return task.eventLoop.makeSucceededVoidFuture()
        }
        if outcome.status == 200, !outcome.writeFailed {
            buffer.withUnsafeReadableBytes { raw in
                var offset = 0
                while offset < raw.count, let base = raw.baseAddress {
                    let written = write(descriptor, base + offset, raw.count - offset)
                    if written < 0 {
                        if errno == EINTR { continue }
                        outcome.writeFailed = true
                        return
                    }
                    offset += written
                }
            }
        }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didFinishRequest(task: HTTPClient.Task<Outcome>) throws -> Outcome { outcome }
}
