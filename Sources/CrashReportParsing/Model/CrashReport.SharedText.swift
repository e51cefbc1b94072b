import ByteAccess

extension CrashReport {
    /// The bytes of a report, shared by the frames and images whose texts point into them.
    final class SharedText: Sendable {
        let bytes: [UInt8]

        init(_ bytes: [UInt8]) {
            self.bytes = bytes
        }

        /// `body` applied to the bytes from `start` to `end`, clamped to the bytes there are.
        func window<Result>(_ start: Int, _ end: Int, _ body: (BorrowedBytes) -> Result) -> Result {
            bytes.withBorrowedBytes { body($0.slice(start..<end)) }
        }
    }
}
