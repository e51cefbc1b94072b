/// The unkeyed container of ``JSONStreamEncoder``: writes each element as it comes.
struct JSONStreamUnkeyedContainer: UnkeyedEncodingContainer {
    let encoder: JSONStreamEncoder

    var codingPath: [any CodingKey] { encoder.codingPath }
    var count: Int { encoder.elementCount }

    mutating func encodeNil() throws { try encoder.element(.null) }
    mutating func encode(_ value: Bool) throws { try encoder.element(.bool(value)) }
    mutating func encode(_ value: String) throws { try encoder.element(.string(value)) }
    mutating func encode(_ value: Double) throws { try encoder.element(JSONStreamEncoder.number(value)) }
    mutating func encode(_ value: Float) throws { try encoder.element(JSONStreamEncoder.number(value)) }
    mutating func encode(_ value: Int) throws { try encoder.element(.int(Int64(truncatingIfNeeded: value))) }
    mutating func encode(_ value: Int8) throws { try encoder.element(.int(Int64(truncatingIfNeeded: value))) }
    mutating func encode(_ value: Int16) throws { try encoder.element(.int(Int64(truncatingIfNeeded: value))) }
    mutating func encode(_ value: Int32) throws { try encoder.element(.int(Int64(truncatingIfNeeded: value))) }
    mutating func encode(_ value: Int64) throws { try encoder.element(.int(value)) }
    mutating func encode(_ value: UInt) throws { try encoder.element(.uint(UInt64(truncatingIfNeeded: value))) }
    mutating func encode(_ value: UInt8) throws { try encoder.element(.uint(UInt64(truncatingIfNeeded: value))) }
    mutating func encode(_ value: UInt16) throws { try encoder.element(.uint(UInt64(truncatingIfNeeded: value))) }
    mutating func encode(_ value: UInt32) throws { try encoder.element(.uint(UInt64(truncatingIfNeeded: value))) }
    mutating func encode(_ value: UInt64) throws { try encoder.element(.uint(value)) }

    mutating func encode(_ value: some Encodable) throws { try encoder.element(encoding: value) }

    // A nested container is filled after it is handed out: from the first one on, the rest of the array is kept as
    // a tree and written when the array is complete.

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        let nested = JSONTree.ObjectBox()
        let child = JSONTreeEncoder(key: JSONTreeIndexKey(index: count))
        child.result = .object(nested)
        appendPending(.object(nested))
        return KeyedEncodingContainer(JSONTreeKeyedContainer<NestedKey>(encoder: child, box: nested))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = JSONTree.ArrayBox()
        let child = JSONTreeEncoder(key: JSONTreeIndexKey(index: count))
        child.result = .array(nested)
        appendPending(.array(nested))
        return JSONTreeUnkeyedContainer(encoder: child, box: nested)
    }

    mutating func superEncoder() -> any Encoder {
        let child = JSONTreeEncoder(key: JSONTreeIndexKey(index: count))
        let pending = encoder.pendingArray()
        let position = pending.values.count
        appendPending(.null)
        child.onRelease = { value in
            if position < pending.values.count { pending.values[position] = value }
        }
        return child
    }

    private func appendPending(_ value: JSONTree) {
        guard case .unkeyed = encoder.state else {
            encoder.reportMisuse(encoder.error("an element written after its array was complete"))
            return
        }
        encoder.pendingArray().values.append(value)
        encoder.elementCount += 1
    }
}
