/// The little-endian encoding of spilled items: fixed-width integers and length-prefixed bytes.
struct SpillWriter {
    var bytes: [UInt8] = []

    mutating func write(_ value: UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    mutating func write(_ value: Int64) { write(UInt64(bitPattern: value)) }

    mutating func write(_ value: Int) { write(Int64(truncatingIfNeeded: value)) }

    mutating func write(_ value: Int32) {
        let bits = UInt32(bitPattern: value)
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: bits >> UInt32(shift))) }
    }

    mutating func write(_ value: Double) { write(value.bitPattern) }

    /// A flag byte, then the value when there is one.
    mutating func write(_ value: Double?) {
        bytes.append(value == nil ? 0 : 1)
        if let value { write(value) }
    }

    mutating func write(_ value: Int64?) {
        bytes.append(value == nil ? 0 : 1)
        if let value { write(value) }
    }

    mutating func write(bytes value: [UInt8]) {
        write(value.count)
        bytes += value
    }
}

/// Reads what ``SpillWriter`` wrote; every read is checked, so a short or damaged run reads as nil.
struct SpillReader {
    let bytes: [UInt8]
    private(set) var offset = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    var isAtEnd: Bool { offset >= bytes.count }

    mutating func uint64() -> UInt64? {
        guard bytes.count - offset >= 8 else { return nil }
        var value: UInt64 = 0
        for index in 0..<8 { value |= UInt64(bytes[offset + index]) << UInt64(index * 8) }
        offset += 8
        return value
    }

    mutating func int64() -> Int64? { uint64().map { Int64(bitPattern: $0) } }

    mutating func int() -> Int? { int64().map { Int(truncatingIfNeeded: $0) } }

    mutating func int32() -> Int32? {
        guard bytes.count - offset >= 4 else { return nil }
        var value: UInt32 = 0
        for index in 0..<4 { value |= UInt32(bytes[offset + index]) << UInt32(index * 8) }
        offset += 4
        return Int32(bitPattern: value)
    }

    mutating func double() -> Double? { uint64().map { Double(bitPattern: $0) } }

    mutating func flagByte() -> UInt8? {
        guard offset < bytes.count else { return nil }
        offset += 1
        return bytes[offset - 1]
    }

    mutating func flag() -> Bool? {
        guard offset < bytes.count else { return nil }
        offset += 1
        return bytes[offset - 1] != 0
    }

    /// An optional value: nil in the outer level when the bytes are short.
    mutating func optionalDouble() -> Double?? {
        guard let present = flag() else { return nil }
        guard present else { return .some(nil) }
        guard let value = double() else { return nil }
        return .some(value)
    }

    mutating func optionalInt64() -> Int64?? {
        guard let present = flag() else { return nil }
        guard present else { return .some(nil) }
        guard let value = int64() else { return nil }
        return .some(value)
    }

    mutating func byteArray() -> [UInt8]? {
        guard let count = int(), count >= 0, bytes.count - offset >= count else { return nil }
        defer { offset += count }
        return Array(bytes[offset..<(offset + count)])
    }
}
