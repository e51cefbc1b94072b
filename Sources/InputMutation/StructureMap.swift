/// Where an input's structure is: the spans the structure-aware mutators aim at and the offsets where cutting the
/// input is most likely to reach an error path (a parser's end-of-input handling at each structural boundary).
public struct StructureMap: Sendable, Equatable {
    /// What a span holds, which decides how it is mutated.
    public enum Role: Sendable, Equatable, Hashable {
        /// Any JSON value (scalar or container) with its quotes or brackets.
        case jsonValue
        /// A JSON object key with its quotes.
        case jsonKey
        /// A JSON number.
        case jsonNumber
        /// A JSON object or array.
        case jsonContainer
        /// A text line without its line end.
        case line
        /// The value of a `Key: Value` line.
        case fieldValue
        /// A whitespace-separated column of a frame or binary-image line.
        case frameColumn
        /// A binary length or count, `width` bytes wide.
        case lengthField(width: Int, bigEndian: Bool)
        /// An ASCII octal number field of a tar header.
        case octalField
        /// Magic, flags, types and checksums: bytes whose values select code paths.
        case headerBytes
        /// A whole `.debug_line` table, its initial length first (little-endian DWARF).
        case dwarfLineTable
        /// A whole `.debug_info` unit, its initial length first (little-endian DWARF).
        case dwarfUnit
        /// The one-byte form code of an abbreviation's attribute or of a line-table entry format.
        case dwarfForm
        /// SQL of an SQLite schema row, mutated in place (its length is recorded elsewhere).
        case schemaText
    }

    /// A byte range of the input and what the bytes in it are.
    public struct Span: Sendable, Equatable {
        /// The bytes of the span, within the input.
        public var range: Range<Int>
        /// What the bytes are, which picks the mutators.
        public var role: Role

        package init(_ range: Range<Int>, _ role: Role) {
            self.range = range
            self.role = role
        }
    }

    /// The most spans kept: a bound on memory for very large inputs (the first ones are kept).
    package static let maxSpans = 200_000

    /// The format the map was built for.
    public var family: InputFamily
    /// Offsets strictly inside the input where a structure starts or ends, ascending and unique.
    public var boundaries: [Int]
    /// The structure's spans, in input order (at most `maxSpans`).
    public var spans: [Span]

    package init(family: InputFamily, boundaries: [Int] = [], spans: [Span] = []) {
        self.family = family
        self.boundaries = boundaries
        self.spans = spans
    }

    /// The map of `bytes` read as `family`; never fails (damaged structure just yields fewer spans).
    public static func build(for bytes: [UInt8], family: InputFamily) -> StructureMap {
        var map = StructureMap(family: family)
        switch family {
        case .json: map.addJSON(bytes)
        case .crashText: map.addText(bytes, crashReport: true)
        case .text: map.addText(bytes, crashReport: false)
        case .pcap: map.addPcap(bytes)
        case .pcapng: map.addPcapng(bytes)
        case .sqlite: map.addSQLite(bytes)
        case .tar: map.addTar(bytes)
        case .gzip: map.addGzip(bytes)
        case .zlib: map.addZlib(bytes)
        case .machO: map.addMachO(bytes)
        case .dwarfLine: map.addDWARFLineSection(bytes)
        case .binary: break
        }
        map.normalise(count: bytes.count)
        return map
    }

    /// The spans with `role`.
    package func spans(_ role: Role) -> [Span] {
        spans.filter { $0.role == role }
    }

    /// The roles present, in a stable order.
    package var roles: [Role] {
        var seen: Set<Role> = []
        var ordered: [Role] = []
        for span in spans where seen.insert(span.role).inserted { ordered.append(span.role) }
        return ordered
    }

    mutating func add(_ range: Range<Int>, _ role: Role) {
        guard spans.count < Self.maxSpans, !range.isEmpty else { return }
        spans.append(Span(range, role))
    }

    mutating func boundary(_ offset: Int) {
        guard boundaries.count < Self.maxSpans else { return }
        boundaries.append(offset)
    }

    /// Drops what lies outside the input and sorts the boundaries.
    private mutating func normalise(count: Int) {
        spans.removeAll { $0.range.lowerBound < 0 || $0.range.upperBound > count }
        boundaries = Array(Set(boundaries.filter { $0 > 0 && $0 < count })).sorted()
    }
}
