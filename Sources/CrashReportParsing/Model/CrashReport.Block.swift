import APMInspectCore
import ByteAccess

extension CrashReport {
    /// A free-text block of the report, kept verbatim.
    public struct Block: Sendable, Equatable, Codable {
        /// The block's heading as written (`Kernel Triage`, `VM Region Info` …).
        public var title: String
        /// The block's lines, without their line breaks.
        public var lines: [String] {
            get {
                switch storage {
                case .lines(let lines): lines
                case .text(let text): Self.lines(of: text)
                }
            }
            set { storage = .lines(newValue) }
        }
        /// The lines, or (for a JSON value holding the whole block) the text they are split from when read.
        ///
        /// A JSON report's `vmSummary` alone is some 30 lines: a `String` each, made for every report and rarely
        /// read, cost more than the rest of the report's header.
        var storage: Storage

        enum Storage: Sendable {
            case lines([String])
            case text(String)
        }

        package init(title: String, lines: [String]) {
            self.title = title
            self.storage = .lines(lines)
        }

        /// A block whose lines are those of `text` (see ``lines(of:)``), split when they are read.
        init(title: String, text: String) {
            self.title = title
            self.storage = .text(text)
        }

        /// Appends a line in place (appending through ``lines`` would copy them all each time).
        mutating func append(line: String) {
            var lines: [String]
            switch storage {
            case .lines(let current): lines = current
            case .text(let text): lines = Self.lines(of: text)
            }
            // Dropped from the storage first, so the array is uniquely referenced and grows in place.
            storage = .lines([])
            lines.append(line)
            storage = .lines(lines)
        }

        /// The lines of a text value, keeping blank lines inside it but not a trailing newline's empty line.
        ///
        /// Splits on the UTF-8 bytes: a `\n` byte is a line break unless a `\r` precedes it, since `\r\n` is one
        /// Character that a Character-level split on `"\n"` leaves whole.
        static func lines(of text: String) -> [String] {
            var text = text
            var result = text.withBorrowedUTF8 { bytes -> [String] in
                var pieces: [String] = []
                var start = 0
                var from = 0
                while let i = bytes.firstIndex(of: UInt8(0x0A), from: from) {
                    from = i + 1
                    guard i == 0 || bytes[unchecked: i - 1] != 0x0D else { continue }
                    pieces.append(bytes.slice(start..<i).string)
                    start = i + 1
                }
                pieces.append(bytes.slice(from: start).string)
                return pieces
            }
            while result.last?.isEmpty == true { result.removeLast() }
            return result
        }

        private enum CodingKeys: String, CodingKey {
            case title, lines
        }

        /// Reads the JSON form back, as `encode(to:)` writes it.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            title = try container.decode(String.self, forKey: .title)
            storage = .lines(try container.decode([String].self, forKey: .lines))
        }

        /// Writes the JSON form documented in docs/json-output.md.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(title, forKey: .title)
            try container.encode(lines, forKey: .lines)
        }

        /// Equal when they say the same thing: equality by content, never by storage.
        public static func == (lhs: Block, rhs: Block) -> Bool {
            lhs.title == rhs.title && lhs.lines == rhs.lines
        }
    }
}
