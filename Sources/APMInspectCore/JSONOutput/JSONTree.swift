import ByteAccess

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A JSON value being encoded, written out with sorted keys by ``JSONTree/write(_:into:pretty:)``.
///
/// Containers are reference boxes because `Encoder` hands out a container first and fills it afterwards.
enum JSONTree {
    case null
    case bool(Bool)
    /// A number already formatted as JSON.
    case number(String)
    case string(String)
    case object(ObjectBox)
    case array(ArrayBox)

    /// The members of an object in the order they were encoded; a key encoded twice keeps its last value.
    final class ObjectBox {
        var members: [(key: String, value: JSONTree)] = []

        init() {
            // Model types have a handful to a few dozen members: growing from one slot cost more than the writing.
            members.reserveCapacity(8)
        }

        func set(_ key: String, _ value: JSONTree) {
            members.append((key, value))
        }
    }

    /// The elements of an array.
    final class ArrayBox {
        var values: [JSONTree] = []
    }
}

extension JSONTree {
    /// Writes `value` as JSON: compact, or Foundation's pretty layout (two spaces, `"key" : value`, empty
    /// containers as an opening line, a blank line and the closing bracket); keys sorted by their UTF-8 bytes.
    static func write(
        _ value: JSONTree,
        into output: JSONByteSink,
        pretty: Bool,
        depth: Int = 0,
        orders: KeyOrders = KeyOrders()
    ) {
        switch value {
        case .null: output.append(literal: "null")
        case .bool(let flag): output.append(literal: flag ? "true" : "false")
        case .number(let text): output.append(text)
        case .string(let text): writeString(text, into: output)
        case .array(let box):
            output.append(UInt8(ascii: "["))
            if pretty {
                output.append(UInt8(ascii: "\n"))
                if box.values.isEmpty { output.append(UInt8(ascii: "\n")) }
            }
            for (k, element) in box.values.enumerated() {
                if k > 0 { output.append(literal: pretty ? ",\n" : ",") }
                if pretty { indent(depth + 1, into: output) }
                write(element, into: output, pretty: pretty, depth: depth + 1, orders: orders)
            }
            if pretty {
                if !box.values.isEmpty { output.append(UInt8(ascii: "\n")) }
                indent(depth, into: output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let box):
            output.append(UInt8(ascii: "{"))
            if pretty {
                output.append(UInt8(ascii: "\n"))
                if box.members.isEmpty { output.append(UInt8(ascii: "\n")) }
            }
            var first = true
            for k in orders.order(of: box.members) {
                if !first { output.append(literal: pretty ? ",\n" : ",") }
                first = false
                if pretty { indent(depth + 1, into: output) }
                writeString(box.members[k].key, into: output)
                output.append(literal: pretty ? " : " : ":")
                write(box.members[k].value, into: output, pretty: pretty, depth: depth + 1, orders: orders)
            }
            if pretty {
                if !box.members.isEmpty { output.append(UInt8(ascii: "\n")) }
                indent(depth, into: output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    /// The sorted member order of recently written key sequences: objects of one type repeat their keys (a
    /// report's frames, images, registers), so the order is worked out once per sequence, not once per object.
    final class KeyOrders {
        private var recent: [(keys: [String], order: [Int])] = []
        private var next = 0

        /// Member positions in key order (UTF-8 bytes, as Foundation sorts), the last of equal keys only.
        func order(of members: [(key: String, value: JSONTree)]) -> [Int] {
            for entry in recent where entry.keys.count == members.count {
                var same = true
                // Byte for byte, not `==`: two spellings of one character sort apart (see ``KeyOrderCache``).
                for k in members.indices where compareUTF8(entry.keys[k], members[k].key) != 0 {
                    same = false
                    break
                }
                if same { return entry.order }
            }
            let order = JSONTree.sortedMembers(members)
            let entry = (keys: members.map(\.key), order: order)
            if recent.count < 16 {
                recent.append(entry)
            } else {
                recent[next] = entry
                next = (next + 1) % recent.count
            }
            return order
        }
    }

    fileprivate static func sortedMembers(_ members: [(key: String, value: JSONTree)]) -> [Int] {
        sortedKeyOrder(members.map(\.key))
    }

    /// Positions of `keys` in key order (UTF-8 bytes, as Foundation sorts), the last of equal keys only.
    ///
    /// Keys are equal as Strings, as in Foundation's dictionary: canonically equivalent spellings (`é` and `e` +
    /// U+0301) are one member, holding the last value, wherever their bytes sort. Such spellings need a non-ASCII
    /// byte, so ASCII keys are merged by their bytes alone.
    static func sortedKeyOrder(_ keys: [String]) -> [Int] {
        var positions = Array(keys.indices)
        if !keys.allSatisfy(isASCII) {
            var last: [String: Int] = [:]
            for (position, key) in keys.enumerated() { last[key] = position }
            positions = positions.filter { last[keys[$0]] == $0 }
        }
        let order = positions.sorted { a, b in
            let comparison = compareUTF8(keys[a], keys[b])
            return comparison == 0 ? a < b : comparison < 0
        }
        var result: [Int] = []
        result.reserveCapacity(order.count)
        for position in order {
            if let last = result.last, keys[last] == keys[position] {
                result[result.count - 1] = position
            } else {
                result.append(position)
            }
        }
        return result
    }

    /// True when the `count` keys are already in strictly increasing UTF-8 order and all ASCII (so that no two
    /// are canonically equivalent spellings, which ``sortedKeyOrder(_:)`` merges): then they are written as they
    /// come, without sorting.
    static func isStrictlyOrdered(count: Int, key: (Int) -> String) -> Bool {
        guard count > 0 else { return true }
        var previous = key(0)
        guard isASCII(previous) else { return false }
        for k in 1..<max(count, 1) {
            let next = key(k)
            if compareUTF8(previous, next) >= 0 || !isASCII(next) { return false }
            previous = next
        }
        return true
    }

    static func isASCII(_ text: String) -> Bool {
        var text = text
        return text.withBorrowedUTF8 { JSONObjectWriter.isASCII($0, withoutBackslash: false) }
    }

    /// memcmp order of the UTF-8 bytes; a prefix sorts first.
    static func compareUTF8(_ left: String, _ right: String) -> Int32 {
        var left = left
        var right = right
        return left.withUTF8 { a in
            right.withUTF8 { b in
                let shared = min(a.count, b.count)
                if shared > 0, let x = a.baseAddress, let y = b.baseAddress {
                    let order = memcmp(x, y, shared)
                    if order != 0 { return order }
                }
                return a.count == b.count ? 0 : (a.count < b.count ? -1 : 1)
            }
        }
    }

    private static func indent(_ depth: Int, into output: JSONByteSink) {
        output.append(repeating: UInt8(ascii: " "), count: 2 * depth)
    }

    /// Quotes and escapes as Foundation does with `.withoutEscapingSlashes`: `"` `\` and control characters only.
    static func writeString(_ text: String, into output: JSONByteSink) {
        var text = text
        text.withBorrowedUTF8 { writeString(utf8: $0, into: output) }
    }

    /// ``writeString(_:into:)`` for the UTF-8 bytes of a string.
    static func writeString(utf8 bytes: BorrowedBytes, into output: JSONByteSink) {
        guard !bytes.isEmpty else {
            output.append(literal: #""""#)
            return
        }
        // Most text needs no escaping: then it is written in one piece.
        if !needsEscaping(bytes) {
            output.append(quoted: bytes)
            return
        }
        output.append(UInt8(ascii: "\""))
        let count = bytes.count
        var runStart = 0
        var i = 0
        while i < count {
            // Eight bytes at a time while none needs escaping: most text needs none.
            while i + 8 <= count, !mayNeedEscaping(bytes.word(uncheckedAt: i)) {
                i += 8
            }
            guard i < count else { break }
            let byte = bytes[unchecked: i]
            i += 1
            guard byte < 0x20 || byte == 0x22 || byte == 0x5C else { continue }
            output.append(bytes.slice(runStart..<(i - 1)))
            runStart = i
            switch byte {
            case 0x22: output.append(literal: #"\""#)
            case 0x5C: output.append(literal: #"\\"#)
            case 0x0A: output.append(literal: #"\n"#)
            case 0x0D: output.append(literal: #"\r"#)
            case 0x09: output.append(literal: #"\t"#)
            case 0x08: output.append(literal: #"\b"#)
            case 0x0C: output.append(literal: #"\f"#)
            default:
                output.append(literal: #"\u00"#)
                output.append(hexDigit(byte >> 4))
                output.append(hexDigit(byte & 0x0F))
            }
        }
        output.append(bytes.slice(runStart..<count))
        output.append(UInt8(ascii: "\""))
    }

    /// True when one of the bytes may need escaping (exact when false): whole words, the last one overlapping the
    /// one before, or for fewer than eight bytes a word padded with spaces.
    @inline(__always)
    private static func needsEscaping(_ bytes: BorrowedBytes) -> Bool {
        let count = bytes.count
        guard count >= 8 else {
            var word: UInt64 = 0x2020_2020_2020_2020
            for k in 0..<count {
                let shift = UInt64(k &* 8)
                word = word & ~(0xFF << shift) | UInt64(bytes[unchecked: k]) << shift
            }
            return mayNeedEscaping(word)
        }
        var i = 0
        while i + 8 <= count {
            if mayNeedEscaping(bytes.word(uncheckedAt: i)) { return true }
            i += 8
        }
        return i < count && mayNeedEscaping(bytes.word(uncheckedAt: count - 8))
    }

    /// True when one of the eight bytes of `word` may be `"`, `\` or below 0x20 (exact when false).
    @inline(__always)
    private static func mayNeedEscaping(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high: UInt64 = 0x8080_8080_8080_8080
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let zeroInQuote = (quote &- ones) & ~quote
        let zeroInBackslash = (backslash &- ones) & ~backslash
        let below = (word &- ones &* 0x20) & ~word
        return (zeroInQuote | zeroInBackslash | below) & high != 0
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 { nibble < 10 ? 0x30 + nibble : 0x57 + nibble }
}
