import ByteAccess

/// Writes the members of one JSON object straight into the output, in the order given: the other half of
/// ``JSONDirectEncodable``.
///
/// Keys are written as given, unescaped: they are the adopting type's coding keys, plain ASCII identifiers. Values
/// are written as ``SortedJSONEncoder`` writes them from `encode(to:)`; the optional forms write nothing for nil,
/// as `encodeIfPresent` does.
package struct JSONObjectWriter {
    /// The document's encoder state, for members written through their `encode(to:)`.
    let context: JSONStreamContext
    let sink: JSONByteSink
    let pretty: Bool
    /// Nesting depth of the object itself: its members are one level deeper.
    let depth: Int
    private var isEmpty = true

    init(context: JSONStreamContext, depth: Int) {
        self.context = context
        self.sink = context.sink
        self.pretty = context.pretty
        self.depth = depth
    }

    /// Writes the object `value` describes at `depth`.
    static func write(_ value: some JSONDirectEncodable, context: JSONStreamContext, depth: Int) {
        var writer = JSONObjectWriter(context: context, depth: depth)
        let sink = context.sink
        sink.append(UInt8(ascii: "{"))
        value.writeJSONMembers(into: &writer)
        writer.close()
    }

    private func close() {
        if pretty {
            // Foundation's empty object is an opening line, a blank line and the closing brace.
            if isEmpty { sink.append(UInt8(ascii: "\n")) }
            sink.append(lineBreakIndentedBy: 2 * depth, comma: false)
        }
        sink.append(UInt8(ascii: "}"))
    }

    @inline(__always)
    mutating func key(_ name: StaticString) {
        guard pretty else {
            sink.append(key: name, first: isEmpty)
            isEmpty = false
            return
        }
        sink.append(prettyKey: name, first: isEmpty, indent: 2 * (depth + 1))
        isEmpty = false
    }

    package mutating func write(_ name: StaticString, _ value: Int) {
        key(name)
        sink.append(decimal: Int64(truncatingIfNeeded: value))
    }

    package mutating func write(_ name: StaticString, _ value: Int?) {
        guard let value else { return }
        write(name, value)
    }

    package mutating func write(_ name: StaticString, _ value: Int64?) {
        guard let value else { return }
        key(name)
        sink.append(decimal: value)
    }

    package mutating func write(_ name: StaticString, _ value: UInt64?) {
        guard let value else { return }
        key(name)
        sink.append(decimal: value)
    }

    package mutating func write(_ name: StaticString, _ value: Bool) {
        key(name)
        sink.append(literal: value ? "true" : "false")
    }

    package mutating func write(_ name: StaticString, _ value: Bool?) {
        guard let value else { return }
        write(name, value)
    }

    package mutating func write(_ name: StaticString, _ value: String) {
        key(name)
        JSONTree.writeString(value, into: sink)
    }

    package mutating func write(_ name: StaticString, _ value: String?) {
        guard let value else { return }
        write(name, value)
    }

    /// A string given as its UTF-8 bytes, which must be exactly the bytes of the `String` `encode(to:)` writes:
    /// text kept as a window on a report's bytes is written without becoming a `String`.
    package mutating func write(_ name: StaticString, utf8 value: BorrowedBytes) {
        key(name)
        JSONTree.writeString(utf8: value, into: sink)
    }

    /// A number as `encode(to:)` writes a `Double`: Swift's shortest form without a trailing `.0`, `null` when not
    /// finite.
    package mutating func write(_ name: StaticString, _ value: Double) {
        key(name)
        Self.append(number: value, to: sink)
    }

    package mutating func write(_ name: StaticString, _ value: Double?) {
        guard let value else { return }
        write(name, value)
    }

    static func append(number value: Double, to sink: JSONByteSink) {
        // Milliseconds and seconds with up to three decimals (the timings of a HAR, by the million) are written
        // from their digits. Such a value is the nearest Double to m / 1000 with m below 10^15, so its shortest
        // round-trip form, which `description` writes, is that decimal: no other decimal of at most 15 digits
        // reads as the same Double.
        if value == 0 {
            // The start of every transaction's phases: `description` gives "0.0" and "-0.0", written without ".0".
            sink.append(literal: value.sign == .minus ? "-0" : "0")
            return
        }
        let scaled = value * 1000
        if scaled.magnitude < 1e15 {
            let rounded = scaled.rounded()
            if rounded / 1000 == value, let thousandths = Int64(exactly: rounded) {
                if thousandths < 0 { sink.append(UInt8(ascii: "-")) }
                let magnitude = thousandths.magnitude
                sink.append(decimal: magnitude / 1000)
                var fraction = magnitude % 1000
                if fraction != 0 {
                    var digits = 3
                    while fraction % 10 == 0 {
                        fraction /= 10
                        digits -= 1
                    }
                    sink.append(UInt8(ascii: "."))
                    sink.append(decimal: fraction, width: digits)
                }
                return
            }
        }
        if case .number(let text) = JSONStreamEncoder.number(value) {
            sink.append(text)
        } else {
            sink.append(literal: "null")
        }
    }

    /// A nested object that writes itself.
    package mutating func write<Value: JSONDirectEncodable>(_ name: StaticString, _ value: Value) {
        key(name)
        Self.write(value, context: context, depth: depth + 1)
    }

    /// A member without a writer of its own, written through its `encode(to:)` as ``SortedJSONEncoder`` writes it.
    ///
    /// A type can write its common members directly and leave the rare or foreign ones (a family's summary, a value
    /// registered from outside) to the encoder. What its encoding throws fails the document.
    package mutating func write(_ name: StaticString, encoding value: some Encodable) {
        key(name)
        context.write(value, depth: depth + 1)
    }

    package mutating func write(_ name: StaticString, encoding value: (some Encodable)?) {
        guard let value else { return }
        write(name, encoding: value)
    }

    /// An explicit `null`, as `encodeNil(forKey:)` writes it.
    package mutating func writeNull(_ name: StaticString) {
        key(name)
        sink.append(literal: "null")
    }

    package mutating func write<Value: JSONDirectEncodable>(_ name: StaticString, _ value: Value?) {
        guard let value else { return }
        write(name, value)
    }

    /// An array of strings.
    package mutating func write(_ name: StaticString, _ elements: [String]) {
        key(name)
        Self.writeArray(count: elements.count, into: sink, pretty: pretty, depth: depth + 1) { k in
            JSONTree.writeString(elements[k], into: sink)
        }
    }

    package mutating func write(_ name: StaticString, _ elements: [String]?) {
        guard let elements else { return }
        write(name, elements)
    }

    /// An array of unsigned integers (page counts).
    package mutating func write(_ name: StaticString, _ elements: [UInt64]?) {
        guard let elements else { return }
        key(name)
        Self.writeArray(count: elements.count, into: sink, pretty: pretty, depth: depth + 1) { k in
            sink.append(decimal: elements[k])
        }
    }

    /// An array at `depth` of `count` elements, each written by `element` after its separator and indent: the one
    /// place the array layout (Foundation's: a blank line inside an empty pretty array) is written.
    static func writeArray(
        count: Int,
        into sink: JSONByteSink,
        pretty: Bool,
        depth: Int,
        element: (Int) -> Void
    ) {
        sink.append(UInt8(ascii: "["))
        for k in 0..<count {
            if pretty {
                sink.append(lineBreakIndentedBy: 2 * (depth + 1), comma: k > 0)
            } else if k > 0 {
                sink.append(UInt8(ascii: ","))
            }
            element(k)
        }
        if pretty {
            if count == 0 { sink.append(UInt8(ascii: "\n")) }
            sink.append(lineBreakIndentedBy: 2 * depth, comma: false)
        }
        sink.append(UInt8(ascii: "]"))
    }

    /// A hex value as its `encode(to:)` writes it: the string of its ``HexValue/description``.
    package mutating func write(_ name: StaticString, _ value: HexValue) {
        key(name)
        sink.append(hexString: value.value)
    }

    package mutating func write(_ name: StaticString, _ value: HexValue?) {
        guard let value else { return }
        write(name, value)
    }

    /// An array of hex values (exception codes).
    package mutating func write(_ name: StaticString, _ elements: [HexValue]?) {
        guard let elements else { return }
        key(name)
        Self.writeArray(count: elements.count, into: sink, pretty: pretty, depth: depth + 1) { k in
            sink.append(hexString: elements[k].value)
        }
    }

    /// An array of values that write themselves, as `encode(to:)` writes an array of them.
    package mutating func write<Element: JSONDirectEncodable>(_ name: StaticString, _ elements: [Element]) {
        key(name)
        // The array is a member, one level below the object; its elements one more.
        Self.writeArray(count: elements.count, into: sink, pretty: pretty, depth: depth + 1) { k in
            Self.write(elements[k], context: context, depth: depth + 2)
        }
    }

    package mutating func write<Element: JSONDirectEncodable>(_ name: StaticString, _ elements: [Element]?) {
        guard let elements else { return }
        write(name, elements)
    }

    /// True when `bytes` are all ASCII (and, with `withoutBackslash`, hold no `\`): then they are exactly the
    /// `String` that decoding them gives, repaired UTF-8 or resolved JSON escapes alike, and can be written as they
    /// are.
    package static func isASCII(_ bytes: BorrowedBytes, withoutBackslash: Bool) -> Bool {
        let count = bytes.count
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high: UInt64 = 0x8080_8080_8080_8080
        let backslashes = ones &* 0x5C
        var i = 0
        while i + 8 <= count {
            let word = bytes.word(uncheckedAt: i)
            if word & high != 0 { return false }
            if withoutBackslash {
                let match = word ^ backslashes
                if (match &- ones) & ~match & high != 0 { return false }
            }
            i += 8
        }
        while i < count {
            let byte = bytes[unchecked: i]
            if byte >= 0x80 || (withoutBackslash && byte == 0x5C) { return false }
            i += 1
        }
        return true
    }
}

extension JSONObjectWriter {
    /// A timestamp as its `encode(to:)` writes it: the string of its ISO 8601 form.
    package mutating func write(_ name: StaticString, _ value: AppleTimestamp?) {
        guard let value else { return }
        value.withISO8601UTF8 { write(name, utf8: $0) }
    }
}
