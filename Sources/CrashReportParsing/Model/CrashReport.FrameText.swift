import APMInspectCore
import ByteAccess

extension CrashReport {
    /// One text of a frame (symbol, file, raw line): its own, or a window on the frame's ``Frame/source``.
    ///
    /// The windows hold offsets only: the bytes they point into are referenced once per frame, not once per text,
    /// since every reference is an atomic retain when the frame is made and a release when it goes.
    enum FrameText: Sendable {
        case text(String)
        /// Bytes of the source, as written.
        case window(start: UInt32, end: UInt32)
        /// Bytes between a JSON string's quotes, escapes resolved when read.
        case json(start: UInt32, end: UInt32)

        /// A window on `range` of `source`, or the text itself when the offsets do not fit in 32 bits.
        static func window(_ range: Range<Int>, of source: SharedText, json: Bool = false) -> FrameText {
            guard range.lowerBound >= 0, let start = UInt32(exactly: range.lowerBound),
                let end = UInt32(exactly: range.upperBound)
            else {
                let text = source.window(range.lowerBound, range.upperBound) {
                    json ? JSONElement.decodedString(rawBytes: $0) : $0.string
                }
                return .text(text)
            }
            return json ? .json(start: start, end: end) : .window(start: start, end: end)
        }

        /// The text, read from `source` where it is a window.
        func string(_ source: SharedText?) -> String {
            switch self {
            case .text(let text):
                return text
            case .window(let start, let end):
                return source?.window(Int(start), Int(end)) { $0.string } ?? ""
            case .json(let start, let end):
                return source?.window(Int(start), Int(end)) { JSONElement.decodedString(rawBytes: $0) } ?? ""
            }
        }
    }
}
