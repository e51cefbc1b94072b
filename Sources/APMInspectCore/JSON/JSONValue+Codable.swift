extension JSONValue: Codable {
    private struct DynamicKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }

        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Reads the JSON form back, as `encode(to:)` writes it.
    public init(from decoder: any Decoder) throws {
        if let container = try? decoder.container(keyedBy: DynamicKey.self) {
            var members: [Member] = []
            for key in container.allKeys {
                members.append(Member(key: key.stringValue, value: try container.decode(JSONValue.self, forKey: key)))
            }
            self = .object(members)
            return
        }
        if var container = try? decoder.unkeyedContainer() {
            var values: [JSONValue] = []
            while !container.isAtEnd { values.append(try container.decode(JSONValue.self)) }
            self = .array(values)
            return
        }
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .number(String(value))
        } else if let value = try? container.decode(UInt64.self) {
            self = .number(String(value))
        } else if let value = try? container.decode(Double.self) {
            self = .number(String(value))
        } else {
            self = .string(try container.decode(String.self))
        }
    }

    /// Writes the JSON form documented in docs/json-output.md.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .bool(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .number(let text):
            var container = encoder.singleValueContainer()
            switch Self.encodedForm(ofNumber: text) {
            case .double(let value): try container.encode(value)
            case .int(let value): try container.encode(value)
            case .uint(let value): try container.encode(value)
            case .text(let value): try container.encode(value)
            }
        case .string(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .array(let values):
            var container = encoder.unkeyedContainer()
            for value in values { try container.encode(value) }
        case .object(let members):
            var container = encoder.container(keyedBy: DynamicKey.self)
            for member in members { try container.encode(member.value, forKey: DynamicKey(stringValue: member.key)) }
        }
    }
}

extension JSONValue {
    /// How a kept number is written back: the one decision shared by `encode(to:)` and the direct writer
    /// (`JSONObjectWriter`), which must agree byte for byte.
    enum EncodedNumber {
        case double(Double)
        case int(Int64)
        case uint(UInt64)
        case text(String)
    }

    static func encodedForm(ofNumber text: String) -> EncodedNumber {
        // A negative zero ("-0", or an underflow such as -1e-400) is written as the Double -0 so its sign survives
        // being read back: Int64 and UInt64 would both make it 0.
        if text.hasPrefix("-"), let value = Double(text), value == 0 { return .double(value) }
        if let value = Int64(text) { return .int(value) }
        if let value = UInt64(text) { return .uint(value) }
        if let value = Double(text), value.isFinite { return .double(value) }
        // Not a number Swift can represent: keep the text rather than lose it.
        return .text(text)
    }
}
