/// The keyed container of ``JSONTreeEncoder``.
struct JSONTreeKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: JSONTreeEncoder
    let box: JSONTree.ObjectBox

    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil(forKey key: Key) throws { box.set(key.stringValue, .null) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { box.set(key.stringValue, .bool(value)) }
    mutating func encode(_ value: String, forKey key: Key) throws { box.set(key.stringValue, .string(value)) }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        box.set(key.stringValue, try JSONTreeEncoder.number(value, at: codingPath + [key]))
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        box.set(key.stringValue, try JSONTreeEncoder.number(value, at: codingPath + [key]))
    }
    mutating func encode(_ value: Int, forKey key: Key) throws { box.set(key.stringValue, .number(String(value))) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { box.set(key.stringValue, .number(String(value))) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { box.set(key.stringValue, .number(String(value))) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { box.set(key.stringValue, .number(String(value))) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { box.set(key.stringValue, .number(String(value))) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { box.set(key.stringValue, .number(String(value))) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { box.set(key.stringValue, .number(String(value))) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { box.set(key.stringValue, .number(String(value))) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { box.set(key.stringValue, .number(String(value))) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { box.set(key.stringValue, .number(String(value))) }

    mutating func encode(_ value: some Encodable, forKey key: Key) throws {
        box.set(key.stringValue, try JSONTreeEncoder.tree(value, parent: encoder, key: key))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type,
        forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let nested = JSONTree.ObjectBox()
        box.set(key.stringValue, .object(nested))
        let child = JSONTreeEncoder(parent: encoder, key: key)
        child.result = .object(nested)
        return KeyedEncodingContainer(JSONTreeKeyedContainer<NestedKey>(encoder: child, box: nested))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = JSONTree.ArrayBox()
        box.set(key.stringValue, .array(nested))
        let child = JSONTreeEncoder(parent: encoder, key: key)
        child.result = .array(nested)
        return JSONTreeUnkeyedContainer(encoder: child, box: nested)
    }

    mutating func superEncoder() -> any Encoder { superEncoder(named: "super") }

    mutating func superEncoder(forKey key: Key) -> any Encoder { superEncoder(named: key.stringValue) }

    private func superEncoder(named name: String) -> any Encoder {
        let child = JSONTreeEncoder(parent: encoder, key: JSONTreeIndexKey(name: name))
        let box = self.box
        child.onRelease = { box.set(name, $0) }
        return child
    }
}

/// The unkeyed container of ``JSONTreeEncoder``.
struct JSONTreeUnkeyedContainer: UnkeyedEncodingContainer {
    let encoder: JSONTreeEncoder
    let box: JSONTree.ArrayBox

    var codingPath: [any CodingKey] { encoder.codingPath }
    var count: Int { box.values.count }

    private var nextKey: JSONTreeIndexKey { JSONTreeIndexKey(index: box.values.count) }

    mutating func encodeNil() throws { box.values.append(.null) }
    mutating func encode(_ value: Bool) throws { box.values.append(.bool(value)) }
    mutating func encode(_ value: String) throws { box.values.append(.string(value)) }
    mutating func encode(_ value: Double) throws {
        box.values.append(try JSONTreeEncoder.number(value, at: codingPath + [nextKey]))
    }
    mutating func encode(_ value: Float) throws {
        box.values.append(try JSONTreeEncoder.number(value, at: codingPath + [nextKey]))
    }
    mutating func encode(_ value: Int) throws { box.values.append(.number(String(value))) }
    mutating func encode(_ value: Int8) throws { box.values.append(.number(String(value))) }
    mutating func encode(_ value: Int16) throws { box.values.append(.number(String(value))) }
    mutating func encode(_ value: Int32) throws { box.values.append(.number(String(value))) }
    mutating func encode(_ value: Int64) throws { box.values.append(.number(String(value))) }
    mutating func encode(_ value: UInt) throws { box.values.append(.number(String(value))) }
    mutating func encode(_ value: UInt8) throws { box.values.append(.number(String(value))) }
    mutating func encode(_ value: UInt16) throws { box.values.append(.number(String(value))) }
    mutating func encode(_ value: UInt32) throws { box.values.append(.number(String(value))) }
    mutating func encode(_ value: UInt64) throws { box.values.append(.number(String(value))) }

    mutating func encode(_ value: some Encodable) throws {
        box.values.append(try JSONTreeEncoder.tree(value, parent: encoder, key: nextKey))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        let nested = JSONTree.ObjectBox()
        let child = JSONTreeEncoder(parent: encoder, key: nextKey)
        child.result = .object(nested)
        box.values.append(.object(nested))
        return KeyedEncodingContainer(JSONTreeKeyedContainer<NestedKey>(encoder: child, box: nested))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = JSONTree.ArrayBox()
        let child = JSONTreeEncoder(parent: encoder, key: nextKey)
        child.result = .array(nested)
        box.values.append(.array(nested))
        return JSONTreeUnkeyedContainer(encoder: child, box: nested)
    }

    mutating func superEncoder() -> any Encoder {
        let position = box.values.count
        let child = JSONTreeEncoder(parent: encoder, key: nextKey)
        box.values.append(.null)
        let box = self.box
        child.onRelease = { value in
            if position < box.values.count { box.values[position] = value }
        }
        return child
    }
}

/// The single-value container of ``JSONTreeEncoder``.
struct JSONTreeSingleValueContainer: SingleValueEncodingContainer {
    let encoder: JSONTreeEncoder

    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil() throws { encoder.result = .null }
    mutating func encode(_ value: Bool) throws { encoder.result = .bool(value) }
    mutating func encode(_ value: String) throws { encoder.result = .string(value) }
    mutating func encode(_ value: Double) throws { encoder.result = try JSONTreeEncoder.number(value, at: codingPath) }
    mutating func encode(_ value: Float) throws { encoder.result = try JSONTreeEncoder.number(value, at: codingPath) }
    mutating func encode(_ value: Int) throws { encoder.result = .number(String(value)) }
    mutating func encode(_ value: Int8) throws { encoder.result = .number(String(value)) }
    mutating func encode(_ value: Int16) throws { encoder.result = .number(String(value)) }
    mutating func encode(_ value: Int32) throws { encoder.result = .number(String(value)) }
    mutating func encode(_ value: Int64) throws { encoder.result = .number(String(value)) }
    mutating func encode(_ value: UInt) throws { encoder.result = .number(String(value)) }
    mutating func encode(_ value: UInt8) throws { encoder.result = .number(String(value)) }
    mutating func encode(_ value: UInt16) throws { encoder.result = .number(String(value)) }
    mutating func encode(_ value: UInt32) throws { encoder.result = .number(String(value)) }
    mutating func encode(_ value: UInt64) throws { encoder.result = .number(String(value)) }

    mutating func encode(_ value: some Encodable) throws {
        // The value encodes itself into this same encoder, as Foundation's single-value containers do.
        try value.encode(to: encoder)
    }
}

/// A coding key for array positions and `super` members in coding paths.
struct JSONTreeIndexKey: CodingKey {
    var stringValue: String
    var intValue: Int?

    init(index: Int) {
        self.stringValue = "Index \(index)"
        self.intValue = index
    }

    init(name: String) {
        self.stringValue = name
        self.intValue = nil
    }

    init?(stringValue: String) { self.init(name: stringValue) }
    init?(intValue: Int) { self.init(index: intValue) }
}
