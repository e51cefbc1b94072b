extension CrashReport {
    /// The bytes of a report, shared by the frames whose texts point into them.
    final class SharedText: Sendable {
        let bytes: [UInt8]

        init(_ bytes: [UInt8]) {
            self.bytes = bytes
        }
    }

    /// A frame's text (its raw line, its symbol): text of its own, or a range of the report's bytes that becomes
    /// text when asked for.
    ///
    /// A report has hundreds of frames and most readers look at a few of them (the crashed thread's); a `String`
    /// each cost an allocation, a copy and a UTF-8 check per frame: a sixth of a text report's parse time for raw
    /// lines, a tenth of a JSON report's for symbols. A window costs one retain of the shared bytes. It is used
    /// only where the source bytes are exactly the text (no escapes to resolve), so reading it gives what the
    /// eager `String(decoding:as:)` gave.
    enum LazyText: Sendable, Equatable {
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

        static func == (lhs: LazyText, rhs: LazyText) -> Bool { lhs.string == rhs.string }
    }
}
