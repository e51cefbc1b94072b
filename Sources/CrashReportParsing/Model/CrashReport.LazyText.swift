import APMInspectCore
import ByteAccess

extension CrashReport {
    /// A binary image's text (path, UUID): text of its own, or a range of the report's bytes that becomes text
    /// when asked for.
    ///
    /// Most readers never look at the paths and UUIDs of the system libraries a report lists; a `String` each cost
    /// an allocation per image. A window costs one retain of the shared bytes, and reads to exactly what reading the
    /// bytes at once gave. (Frames keep their texts as ``FrameText``, with one reference per frame.)
    enum LazyText: Sendable, Equatable {
        case text(String)
        case shared(SharedText, start: Int, end: Int)
        /// A UUID as written, read as ``CrashTextReader/normalizeUUID(_:)-(TextBytes)`` gives it.
        case uuid(SharedText, start: Int, end: Int)
        /// The bytes between a JSON string's quotes, escapes resolved when read.
        case json(SharedText, start: Int, end: Int)

        var string: String {
            switch self {
            case .text(let text):
                return text
            case .shared(let shared, let start, let end):
                return shared.window(start, end) { $0.string }
            case .uuid(let shared, let start, let end):
                return shared.window(start, end) { CrashTextReader.normalizeUUID(TextBytes($0)) }
            case .json(let shared, let start, let end):
                return shared.window(start, end) { JSONElement.decodedString(rawBytes: $0) }
            }
        }

        /// False only when the text certainly does not contain `needle` (ASCII, no `\\`), decided without making
        /// the text where it is a window: a JSON window can spell a byte as `\\u…`, so one that holds such an
        /// escape may contain anything.
        func mayContain(_ needle: StaticString) -> Bool {
            switch self {
            case .text(let text):
                return text.containsBytes(needle.description)
            case .shared(let shared, let start, let end), .uuid(let shared, let start, let end):
                return shared.window(start, end) { Self.find(needle, in: $0) }
            case .json(let shared, let start, let end):
                return shared.window(start, end) { Self.find(needle, in: $0) || Self.find("\\u", in: $0) }
            }
        }

        /// True when the text certainly starts with one of the system paths `/System/`, `/usr/lib/` or
        /// `/Library/Apple/`, decided on the bytes where the text is a window (a JSON window with the slashes written
        /// plain or as `\\/`); false also when that cannot be told without making the text.
        var startsWithSystemPath: Bool {
            switch self {
            case .text(let text):
                return Self.systemPaths.contains { text.utf8.starts(with: $0.plain) }
            case .shared(let shared, let start, let end), .uuid(let shared, let start, let end):
                return shared.window(start, end) { bytes in Self.systemPaths.contains { bytes.starts(with: $0.plain) } }
            case .json(let shared, let start, let end):
                return shared.window(start, end) { bytes in
                    Self.systemPaths.contains { bytes.starts(with: $0.plain) || bytes.starts(with: $0.escaped) }
                }
            }
        }

        /// The system path prefixes, as UTF-8 and as JSON writes them with `\\/`.
        private static let systemPaths: [(plain: [UInt8], escaped: [UInt8])] = [
            "/System/", "/usr/lib/", "/Library/Apple/",
        ]
        .map { path in (Array(path.utf8), path.utf8.flatMap { $0 == 0x2F ? [0x5C, 0x2F] : [$0] }) }

        private static func find(_ needle: StaticString, in bytes: BorrowedBytes) -> Bool {
            bytes.contains(needle)
        }

        static func == (lhs: LazyText, rhs: LazyText) -> Bool { lhs.string == rhs.string }
    }
}
