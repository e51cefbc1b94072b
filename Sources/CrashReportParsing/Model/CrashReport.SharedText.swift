extension CrashReport {
    /// The bytes of a report, shared by the frames and images whose texts point into them.
    final class SharedText: Sendable {
        let bytes: [UInt8]

        init(_ bytes: [UInt8]) {
            self.bytes = bytes
        }

        /// `body` applied to the bytes from `start` to `end`, clamped to the bytes there are.
        func window<Result>(_ start: Int, _ end: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
            let lower = min(max(start, 0), bytes.count)
            let upper = min(max(end, lower), bytes.count)
            return bytes.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[lower..<upper])) }
        }
    }
}
