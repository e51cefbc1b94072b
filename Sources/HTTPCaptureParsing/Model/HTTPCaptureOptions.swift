/// Limits and choices for reading captures; the defaults are safe for hostile input.
public struct HTTPCaptureOptions: Sendable, Equatable {
    /// Largest decompressed size accepted for `.zhar` / `.har.gz` and gzip HTTP bodies.
    public var maxDecompressedBytes: Int
    /// Replace the values of `Authorization`, `Cookie`, `Set-Cookie` and `Proxy-Authorization` by `[redacted]`.
    public var redactSecrets: Bool
    /// Keep request and response headers in the transactions.
    public var keepHeaders: Bool
    /// Most packets read from one capture.
    public var maxPackets: Int
    /// Most bytes buffered per TCP direction for HTTP and TLS reassembly.
    public var maxStreamBytes: Int
    /// Rebuild a streamed HAR's transactions (`HTTPCaptureStream/forEachTransaction(_:)`) a chunk ahead on a
    /// second thread while the caller takes the current chunk.
    ///
    /// Off by default, so a library caller's work stays on its own thread unless it asks; `apm-inspect http` leaves
    /// it off. On a 100 MB HAR written as JSON on two cores it took about a fifth off the wall time for about a third
    /// more CPU (handing transactions between threads costs allocator and cache work).
    public var buildsAhead: Bool

    /// Options with the given limits; the defaults bound memory for hostile input.
    public init(
        maxDecompressedBytes: Int = 1 << 30,
        redactSecrets: Bool = true,
        keepHeaders: Bool = true,
        maxPackets: Int = 50_000_000,
        maxStreamBytes: Int = 64 << 20,
        buildsAhead: Bool = false
    ) {
        self.maxDecompressedBytes = maxDecompressedBytes
        self.redactSecrets = redactSecrets
        self.keepHeaders = keepHeaders
        self.maxPackets = maxPackets
        self.maxStreamBytes = maxStreamBytes
        self.buildsAhead = buildsAhead
    }
}
