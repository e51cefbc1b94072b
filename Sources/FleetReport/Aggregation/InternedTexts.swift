import ByteAccess

/// Distinct texts kept as bytes in one buffer, each named by an id that follows arrival.
///
/// The crash ledger holds several texts per crash that are new with nearly every report (its path, its incident
/// id, an unsymbolicated signature): as a `String` in an array and a dictionary each cost its bytes plus about a
/// hundred bytes of headers and table slots. Here one costs its bytes, its end offset and a slot of an open
/// addressing table of ids, so a fleet report's memory grows far less with the number of reports.
struct InternedTexts {
    private var bytes: [UInt8] = []
    /// Where each text ends in `bytes`; it starts where the previous one ends.
    private var ends: [Int] = []
    /// Ids by hash, -1 for an empty slot; the count is a power of two and at most three quarters are taken.
    private var slots: [Int32] = []

    /// Distinct texts so far.
    var count: Int { ends.count }

    /// Non-ASCII texts by `String` equality (canonical equivalence), as the `[String: Int32]` before this did.
    ///
    /// Equal Strings may differ in bytes (`é` and `e` with a combining accent). They are rare: a dictionary will do.
    private var unicodeIds: [String: Int32] = [:]

    /// The id of `text`, a new one when no equal `String` was seen before.
    mutating func intern(_ text: String) -> Int32 {
        var text = text
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.withBorrowedUTF8 { intern(bytes: $0) } }
        if let id = unicodeIds[text] { return id }
        // A few characters are canonically ASCII: such a text takes the ASCII text's id.
        var form = Self.asciiForm(of: text) ?? text
        let id = form.withBorrowedUTF8 { intern(bytes: $0) }
        unicodeIds[text] = id
        return id
    }

    /// The ASCII text a non-ASCII `text` is canonically equal to (KELVIN SIGN is `K`), nil when there is none.
    static func asciiForm(of text: String) -> String? {
        var ascii = ""
        for character in text {
            guard let match = Self.asciiCharacters.first(where: { $0 == character }) else { return nil }
            ascii.append(match)
        }
        return ascii.isEmpty ? nil : ascii
    }

    /// About the bytes the texts take: their bytes, their ends and the table's slots.
    var approximateBytes: Int { bytes.capacity + ends.capacity * 8 + slots.count * 4 + unicodeIds.count * 64 }

    /// The ASCII characters, `\r\n` included (one `Character`).
    private static let asciiCharacters: [Character] = (0..<128).map { Character(Unicode.Scalar(UInt8($0))) } + ["\r\n"]

    mutating func intern(bytes text: BorrowedBytes) -> Int32 {
        if (ends.count + 1) * 4 > slots.count * 3 { grow() }
        let mask = slots.count - 1
        var slot = Self.hash(text) & mask
        while slots[slot] >= 0 {
            let id = slots[slot]
            if equals(Int(id), text) { return id }
            slot = (slot + 1) & mask
        }
        let id = Int32(truncatingIfNeeded: ends.count)
        bytes.append(contentsOf: text)
        ends.append(bytes.count)
        slots[slot] = id
        return id
    }

    private mutating func grow() {
        let capacity = max(64, slots.count * 2)
        slots = [Int32](repeating: -1, count: capacity)
        let mask = capacity - 1
        for id in ends.indices {
            let slot = withBytes(id) { text in
                var slot = Self.hash(text) & mask
                while slots[slot] >= 0 { slot = (slot + 1) & mask }
                return slot
            }
            slots[slot] = Int32(truncatingIfNeeded: id)
        }
    }

    /// Seeded per process (`Hasher`), so texts chosen to collide cannot make the table quadratic.
    private static func hash(_ text: BorrowedBytes) -> Int {
        var hasher = Hasher()
        var at = 0
        while let word = text.word(at: at) {
            hasher.combine(word)
            at += 8
        }
        for byte in text.slice(from: at) { hasher.combine(byte) }
        hasher.combine(text.count)
        return hasher.finalize()
    }

    /// The bytes of text `id` (which must be below ``count``).
    func withBytes<T>(_ id: Int, _ body: (BorrowedBytes) -> T) -> T {
        let start = id == 0 ? 0 : ends[id - 1]
        return bytes.withBorrowedBytes { body($0.slice(start..<ends[id])) }
    }

    private func equals(_ id: Int, _ text: BorrowedBytes) -> Bool {
        withBytes(id) { $0.equals(text) }
    }

    /// The text of `id`, nil for an id not given out.
    func string(_ id: Int32) -> String? {
        guard id >= 0, Int(id) < ends.count else { return nil }
        return withBytes(Int(id)) { $0.string }
    }

    /// True when `id` is the text `text` (without making a `String` of it).
    func equals(_ id: Int32, _ text: StaticString) -> Bool {
        guard id >= 0, Int(id) < ends.count else { return false }
        return text.withBorrowedUTF8 { equals(Int(id), $0) }
    }

    /// True when text `lhs` comes before text `rhs` in byte order.
    func precedes(_ lhs: Int, _ rhs: Int) -> Bool {
        withBytes(lhs) { left in withBytes(rhs) { right in left.compare(right) < 0 } }
    }

    /// Each text's place in byte order, by id: ids follow arrival, ranks do not (texts are distinct: no ties).
    func ranks() -> [Int] {
        let order = ends.indices.sorted { precedes($0, $1) }
        var ranks = [Int](repeating: 0, count: ends.count)
        for (position, index) in order.enumerated() { ranks[index] = position }
        return ranks
    }
}
