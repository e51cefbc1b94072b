/// The single-value container of ``JSONStreamEncoder``.
struct JSONStreamSingleValueContainer: SingleValueEncodingContainer {
    let encoder: JSONStreamEncoder

    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil() throws { try encoder.writeScalar(.null) }
    mutating func encode(_ value: Bool) throws { try encoder.writeScalar(.bool(value)) }
    mutating func encode(_ value: String) throws { try encoder.writeScalar(.string(value)) }
    mutating func encode(_ value: Double) throws { try encoder.writeScalar(JSONStreamEncoder.number(value)) }
    mutating func encode(_ value: Float) throws { try encoder.writeScalar(JSONStreamEncoder.number(value)) }
    mutating func encode(_ value: Int) throws { try encoder.writeScalar(.int(Int64(truncatingIfNeeded: value))) }
    mutating func encode(_ value: Int8) throws { try encoder.writeScalar(.int(Int64(truncatingIfNeeded: value))) }
    mutating func encode(_ value: Int16) throws { try encoder.writeScalar(.int(Int64(truncatingIfNeeded: value))) }
    mutating func encode(_ value: Int32) throws { try encoder.writeScalar(.int(Int64(truncatingIfNeeded: value))) }
    mutating func encode(_ value: Int64) throws { try encoder.writeScalar(.int(value)) }
    mutating func encode(_ value: UInt) throws { try encoder.writeScalar(.uint(UInt64(truncatingIfNeeded: value))) }
    mutating func encode(_ value: UInt8) throws { try encoder.writeScalar(.uint(UInt64(truncatingIfNeeded: value))) }
    mutating func encode(_ value: UInt16) throws { try encoder.writeScalar(.uint(UInt64(truncatingIfNeeded: value))) }
    mutating func encode(_ value: UInt32) throws { try encoder.writeScalar(.uint(UInt64(truncatingIfNeeded: value))) }
    mutating func encode(_ value: UInt64) throws { try encoder.writeScalar(.uint(value)) }

    mutating func encode(_ value: some Encodable) throws {
        // The value encodes itself into this same encoder, as Foundation's single-value containers do.
        try value.encode(to: encoder)
    }
}
