extension CrashReport {
    /// The bytes of a text report, shared by the frames whose raw lines point into them.
    final class SharedText: Sendable {
        let bytes: [UInt8]

        init(_ bytes: [UInt8]) {
            self.bytes = bytes
        }
    }

    /// A frame's raw line: text of its own, or a range of the report's bytes that becomes text when asked for.
    ///
    /// A report has hundreds of frame lines and few readers look at them; a `String` each cost an allocation, a
    /// copy and a UTF-8 check per frame, a sixth of a text report's parse time.
    enum RawLine: Sendable, Equatable {
        case text(String)
        case shared(SharedText, start: Int, end: Int)

        var string: String {
            switch self {
            case .text(let text):
                return text
            case .shared(let shared, let start, let end):
                let lower = min(max(start, 0), shared.bytes.count)
                let upper = min(max(end, lower), shared.bytes.count)
                return shared.bytes.withUnsafeBufferPointer {
                    String(decoding: UnsafeBufferPointer(rebasing: $0[lower..<upper]), as: UTF8.self)
                }
            }
        }

        static func == (lhs: RawLine, rhs: RawLine) -> Bool { lhs.string == rhs.string }
    }
}
