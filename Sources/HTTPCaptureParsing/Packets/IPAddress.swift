/// An IPv4 or IPv6 address, small and hashable for flow tables.
struct IPAddress: Hashable, Comparable {
    var high: UInt64
    var low: UInt64
    var isV6: Bool

    init(v4 value: UInt32) {
        high = 0
        low = UInt64(value)
        isV6 = false
    }

    init(v6 high: UInt64, _ low: UInt64) {
        self.high = high
        self.low = low
        isV6 = true
    }

    static func < (a: IPAddress, b: IPAddress) -> Bool {
        (a.isV6 ? 1 : 0, a.high, a.low) < (b.isV6 ? 1 : 0, b.high, b.low)
    }

    /// Dotted quad, or RFC 5952 IPv6 text (longest zero run compressed).
    var text: String {
        guard isV6 else { return Self.dotted(low) }
        var groups: [UInt16] = []
        for shift in stride(from: 48, through: 0, by: -16) {
            groups.append(UInt16(truncatingIfNeeded: high >> UInt64(shift)))
        }
        for shift in stride(from: 48, through: 0, by: -16) {
            groups.append(UInt16(truncatingIfNeeded: low >> UInt64(shift)))
        }
        var bestStart = -1
        var bestLength = 0
        var i = 0
        while i < groups.count {
            if groups[i] == 0 {
                var j = i
                while j < groups.count, groups[j] == 0 { j += 1 }
                if j - i > bestLength && j - i >= 2 {
                    bestStart = i
                    bestLength = j - i
                }
                i = j
            } else {
                i += 1
            }
        }
        func hex(_ slice: ArraySlice<UInt16>) -> String { slice.map { String($0, radix: 16) }.joined(separator: ":") }
        guard bestStart >= 0 else { return hex(groups[...]) }
        return hex(groups[0..<bestStart]) + "::" + hex(groups[(bestStart + bestLength)...])
    }
}

extension IPAddress {
    /// The dotted quad of the low 32 bits of `v`, and `:port` after it when given.
    ///
    /// Written into the string's storage: the interpolated form cost about 8,000 instructions, and a pcap names an
    /// endpoint for every transaction.
    static func dotted(_ v: UInt64, port: UInt16? = nil) -> String {
        String(unsafeUninitializedCapacity: 21) { out in
            var at = 0
            func put(_ number: UInt64) {
                var width = 1
                var limit: UInt64 = 10
                while number >= limit && width < 5 {
                    width += 1
                    limit *= 10
                }
                var rest = number
                for k in stride(from: width - 1, through: 0, by: -1) {
                    out[at + k] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
                    rest /= 10
                }
                at += width
            }
            for shift: UInt64 in [24, 16, 8, 0] {
                put(v >> shift & 0xFF)
                if shift > 0 {
                    out[at] = UInt8(ascii: ".")
                    at += 1
                }
            }
            if let port {
                out[at] = UInt8(ascii: ":")
                at += 1
                put(UInt64(port))
            }
            return at
        }
    }
}

/// An address and port.
struct Endpoint: Hashable, Comparable {
    var address: IPAddress
    var port: UInt16

    static func < (a: Endpoint, b: Endpoint) -> Bool { (a.address, a.port) < (b.address, b.port) }

    var text: String { address.isV6 ? "[\(address.text)]:\(port)" : IPAddress.dotted(address.low, port: port) }
}
