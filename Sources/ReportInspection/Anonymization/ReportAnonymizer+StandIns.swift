extension ReportAnonymizer {
    /// The IPv4 networks reserved for documentation (RFC 5737): a stand-in there can never be someone's address.
    private static let documentationNetworks = ["192.0.2", "198.51.100", "203.0.113"]

    /// The stand-in of `value` of `category`, in a shape the report's readers still accept.
    static func standIn(
        _ value: String,
        category: AnonymizedCategory,
        _ keyed: inout StandInTable.KeyedBytes
    ) -> String {
        switch category {
        case .crashReporterKey, .incidentIdentifier, .serialNumber, .containerUUID:
            return sameShape(value, &keyed)
        case .deviceName:
            return "Device-" + keyed.hex(6)
        case .userName:
            return "user-" + keyed.hex(6)
        case .ipAddress where value.contains(":"):
            // RFC 3849's documentation prefix.
            return "2001:db8::" + keyed.hex(4) + ":" + keyed.hex(4)
        case .ipAddress:
            let network = documentationNetworks[Int(keyed.next() % 3)]
            return network + "." + String(1 + Int(keyed.next() % 254))
        case .httpSecret:
            return secretStandIn(value, header: nil, &keyed)
        }
    }

    /// A cookie or credential's stand-in; an `Authorization` value keeps its scheme (`Bearer`, `Basic`).
    static func secretStandIn(_ value: String, header: String?, _ keyed: inout StandInTable.KeyedBytes) -> String {
        let redacted = "redacted-" + keyed.hex(12)
        guard header == "authorization" || header == "proxy-authorization",
            let space = value.firstIndex(of: " ")
        else { return redacted }
        let scheme = value[..<space]
        let isToken = scheme.count <= 32 && scheme.utf8.allSatisfy { ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A }
        return isToken && !scheme.isEmpty ? String(scheme) + " " + redacted : redacted
    }

    /// Each hexadecimal digit replaced by one, each other letter or digit by one of its class, the rest kept: a
    /// UUID stays a UUID, a 40-digit key keeps its length, an uppercase serial stays uppercase.
    static func sameShape(_ value: String, _ keyed: inout StandInTable.KeyedBytes) -> String {
        let isHex = value.utf8.allSatisfy { isHexDigit($0) || $0 == UInt8(ascii: "-") }
        let upper = value.utf8.contains { (0x41...0x5A).contains($0) }
        var out: [UInt8] = []
        out.reserveCapacity(value.utf8.count)
        for byte in value.utf8 {
            let random = keyed.next()
            switch byte {
            case _ where isHex && isHexDigit(byte):
                let digit = Array((upper ? "0123456789ABCDEF" : "0123456789abcdef").utf8)[Int(random & 0x0F)]
                out.append(digit)
            case 0x30...0x39: out.append(0x30 + random % 10)
            case 0x41...0x5A: out.append(0x41 + random % 26)
            case 0x61...0x7A: out.append(0x61 + random % 26)
            default: out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }
}
