/// The keyed container of ``JSONStreamEncoder``: keeps the members until the object is complete.
struct JSONStreamKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: JSONStreamEncoder

    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil(forKey key: Key) throws { try encoder.keep(key.stringValue, .null) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { try encoder.keep(key.stringValue, .bool(value)) }
    mutating func encode(_ value: String, forKey key: Key) throws {
        try encoder.keep(key.stringValue, .string(value))
    }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        try encoder.keep(key.stringValue, JSONStreamEncoder.number(value))
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        try encoder.keep(key.stringValue, JSONStreamEncoder.number(value))
    }
    mutating func encode(_ value: Int, forKey key: Key) throws {
        try encoder.keep(key.stringValue, .int(Int64(truncatingIfNeeded: value)))
    }
    mutating func encode(_ value: Int8, forKey key: Key) throws {
        try encoder.keep(key.stringValue, .int(Int64(truncatingIfNeeded: value)))
    }
    mutating func encode(_ value: Int16, forKey key: Key) throws {
        try encoder.keep(key.stringValue, .int(Int64(truncatingIfNeeded: value)))
    }
    mutating func encode(_ value: Int32, forKey key: Key) throws {
        try encoder.keep(key.stringValue, .int(Int64(truncatingIfNeeded: value)))
    }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try encoder.keep(key.stringValue, .int(value)) }
    mutating func encode(_ value: UInt, forKey key: Key) throws {
        try encoder.keep(key.stringValue, .uint(UInt64(truncatingIfNeeded: value)))
    }
    mutating func encode(_ value: UInt8, forKey key: Key) throws {
        try encoder.keep(key.stringValue, .uint(UInt64(truncatingIfNeeded: value)))
    }
    mutating func encode(_ value: UInt16, forKey key: Key) throws {
        try encoder.keep(key.stringValue, .uint(UInt64(truncatingIfNeeded: value)))
    }
    mutating func encode(_ value: UInt32, forKey key: Key) throws {
        try encoder.keep(key.stringValue, .uint(UInt64(truncatingIfNeeded: value)))
    }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try encoder.keep(key.stringValue, .uint(value)) }

    mutating func encode(_ value: some Encodable, forKey key: Key) throws {
        try encoder.keep(key.stringValue, .encodable(value))
    }

    // `encodeIfPresent` written out: the protocol's generic defaults instantiated metadata for every call.

    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }

    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }

    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }

    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }

    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }

    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }

    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }

    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }

    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }

    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }

    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }

    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }

    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }

    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }

    mutating func encodeIfPresent(_ value: (some Encodable)?, forKey key: Key) throws {
        if let value { try encoder.keep(key.stringValue, .encodable(value)) }
    }

    // Nested containers are filled after they are handed out, at any time until the object is complete: they
    // collect a tree, written at their turn.

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type,
        forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let nested = JSONTree.ObjectBox()
        let child = JSONTreeEncoder(key: key)
        child.result = .object(nested)
        keepIfOpen(key.stringValue, .tree(.object(nested)))
        return KeyedEncodingContainer(JSONTreeKeyedContainer<NestedKey>(encoder: child, box: nested))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = JSONTree.ArrayBox()
        let child = JSONTreeEncoder(key: key)
        child.result = .array(nested)
        keepIfOpen(key.stringValue, .tree(.array(nested)))
        return JSONTreeUnkeyedContainer(encoder: child, box: nested)
    }

    mutating func superEncoder() -> any Encoder { superEncoder(named: "super") }

    mutating func superEncoder(forKey key: Key) -> any Encoder { superEncoder(named: key.stringValue) }

    private func superEncoder(named name: String) -> any Encoder {
        let child = JSONTreeEncoder(key: JSONTreeIndexKey(name: name))
        keepIfOpen(name, .treeEncoder(child))
        return child
    }

    /// The non-throwing container calls: a member after the object was written is lost, which the next throwing
    /// call or the object's own completion reports.
    private func keepIfOpen(_ key: String, _ value: JSONStreamMember.Value) {
        do {
            try encoder.keep(key, value)
        } catch {
            encoder.reportMisuse(error)
        }
    }
}
