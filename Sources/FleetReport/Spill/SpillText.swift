/// A text as bytes, sorted in byte order: what a spilled count of distinct texts holds.
struct SpillText: SpillItem, Equatable {
    var bytes: [UInt8]

    init(_ text: String) {
        bytes = Array(text.utf8)
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    var spillSize: Int { 40 + bytes.count }

    func write(to writer: inout SpillWriter) {
        writer.write(bytes: bytes)
    }

    static func read(from reader: inout SpillReader) -> SpillText? {
        reader.byteArray().map { SpillText(bytes: $0) }
    }

    static func precedes(_ lhs: SpillText, _ rhs: SpillText) -> Bool {
        lhs.bytes.lexicographicallyPrecedes(rhs.bytes)
    }
}
