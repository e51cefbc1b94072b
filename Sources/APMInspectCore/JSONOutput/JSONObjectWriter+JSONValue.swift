/// Kept JSON (`JSONValue`, the unknown fields a model keeps verbatim) written as its `encode(to:)` writes it through
/// ``SortedJSONEncoder``: objects in key order, the last of equal keys only, numbers in their written-back form.
extension JSONObjectWriter {
    package mutating func write(_ name: StaticString, _ value: JSONValue) {
        key(name)
        Self.write(value, into: sink, pretty: pretty, depth: depth + 1)
    }

    package mutating func write(_ name: StaticString, _ value: JSONValue?) {
        guard let value else { return }
        write(name, value)
    }

    /// A dictionary of kept values, as a `[String: JSONValue]` encodes: an object of its keys in UTF-8 order.
    package mutating func write(_ name: StaticString, _ members: [String: JSONValue]) {
        key(name)
        let keys = members.keys.sorted { JSONTree.compareUTF8($0, $1) < 0 }
        Self.writeObject(count: keys.count, into: sink, pretty: pretty, depth: depth + 1) {
            JSONTree.writeString(keys[$0], into: sink)
        } value: { k in
            Self.write(members[keys[k]] ?? .null, into: sink, pretty: pretty, depth: depth + 2)
        }
    }

    static func write(_ value: JSONValue, into sink: JSONByteSink, pretty: Bool, depth: Int) {
        switch value {
        case .null: sink.append(literal: "null")
        case .bool(let flag): sink.append(literal: flag ? "true" : "false")
        case .number(let text): write(number: text, into: sink)
        case .string(let text): JSONTree.writeString(text, into: sink)
        case .array(let values):
            writeArray(count: values.count, into: sink, pretty: pretty, depth: depth) { k in
                write(values[k], into: sink, pretty: pretty, depth: depth + 1)
            }
        case .object(let members):
            // As the streaming encoder orders an object's members: as they are when strictly increasing, else
            // sorted with the last of equal keys kept.
            let order = KeyOrderCache.withCurrentThread { $0.order(count: members.count) { members[$0].key } }
            writeObject(count: order?.count ?? members.count, into: sink, pretty: pretty, depth: depth) {
                JSONTree.writeString(members[order?[$0] ?? $0].key, into: sink)
            } value: {
                write(members[order?[$0] ?? $0].value, into: sink, pretty: pretty, depth: depth + 1)
            }
        }
    }

    /// A kept number's text in the form its `encode(to:)` writes it.
    static func write(number text: String, into sink: JSONByteSink) {
        switch JSONValue.encodedForm(ofNumber: text) {
        case .double(let number): append(number: number, to: sink)
        case .int(let number): sink.append(decimal: number)
        case .uint(let number): sink.append(decimal: number)
        case .text(let text): JSONTree.writeString(text, into: sink)
        }
    }

    /// An object at `depth` of `count` members, given in the order they are written: `key` writes a member's
    /// quoted key, `value` its value, one level deeper.
    static func writeObject(
        count: Int,
        into sink: JSONByteSink,
        pretty: Bool,
        depth: Int,
        key: (Int) -> Void,
        value: (Int) -> Void
    ) {
        sink.append(UInt8(ascii: "{"))
        for k in 0..<count {
            if pretty {
                sink.append(lineBreakIndentedBy: 2 * (depth + 1), comma: k > 0)
            } else if k > 0 {
                sink.append(UInt8(ascii: ","))
            }
            key(k)
            sink.append(literal: pretty ? " : " : ":")
            value(k)
        }
        if pretty {
            if count == 0 { sink.append(UInt8(ascii: "\n")) }
            sink.append(lineBreakIndentedBy: 2 * depth, comma: false)
        }
        sink.append(UInt8(ascii: "}"))
    }
}
