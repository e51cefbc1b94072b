/// The parts of a DNS message needed to pair queries with answers.
struct DNSMessage {
    var id: UInt16
    var isResponse: Bool
    var truncated: Bool
    var rcode: UInt8
    var name: String
    var type: UInt16
    var answers: [String]
    var addresses: [IPAddress]

    /// Parses a DNS message (without the TCP length prefix); nil when it is not one.
    init?(_ view: ByteView) {
        guard let id = view.u16(0), let flags = view.u16(2), let questions = view.u16(4), let answerCount = view.u16(6)
        else { return nil }
        guard flags & 0x7800 == 0 || flags & 0x7800 == 0x2800 else { return nil }  // QUERY or UPDATE opcodes only
        self.id = id
        isResponse = flags & 0x8000 != 0
        truncated = flags & 0x0200 != 0
        rcode = UInt8(flags & 0x000F)
        name = ""
        type = 0
        answers = []
        addresses = []
        var offset = 12
        for index in 0..<Int(questions) {
            guard let (qname, next) = Self.name(view, at: offset), let qtype = view.u16(next) else { return nil }
            if index == 0 {
                name = qname
                type = qtype
            }
            offset = next + 4
        }
        for _ in 0..<Swift.min(Int(answerCount), 64) {
            guard let (_, next) = Self.name(view, at: offset), let rtype = view.u16(next),
                let length = view.u16(next + 8)
            else { break }
            let data = next + 10
            switch rtype {
            case 1 where length == 4:
                if let value = view.u32(data) {
                    let address = IPAddress(v4: value)
                    addresses.append(address)
                    answers.append(address.text)
                }
            case 28 where length == 16:
                if let high = view.u64(data), let low = view.u64(data + 8) {
                    let address = IPAddress(v6: high, low)
                    addresses.append(address)
                    answers.append(address.text)
                }
            case 5:
                if let (cname, _) = Self.name(view, at: data) { answers.append("CNAME " + cname) }
            default:
                break
            }
            offset = data + Int(length)
        }
    }

    /// Reads a possibly compressed name; returns it and the offset after it in the original position.
    static func name(_ view: ByteView, at start: Int) -> (String, Int)? {
        var labels: [String] = []
        var offset = start
        var end: Int?
        var jumps = 0
        var total = 0
        while true {
            guard let length = view.u8(offset) else { return nil }
            if length == 0 {
                offset += 1
                break
            }
            if length & 0xC0 == 0xC0 {
                guard let low = view.u8(offset + 1), jumps < 16 else { return nil }
                if end == nil { end = offset + 2 }
                offset = Int(length & 0x3F) << 8 | Int(low)
                jumps += 1
                continue
            }
            guard length & 0xC0 == 0, let label = view.slice(offset + 1, Int(length)), label.count == Int(length) else {
                return nil
            }
            labels.append(label.string)
            total += Int(length) + 1
            if total > 255 { return nil }
            offset += 1 + Int(length)
        }
        return (labels.isEmpty ? "." : labels.joined(separator: "."), end ?? offset)
    }

    static func typeName(_ type: UInt16) -> String {
        switch type {
        case 1: "A"
        case 2: "NS"
        case 5: "CNAME"
        case 6: "SOA"
        case 12: "PTR"
        case 15: "MX"
        case 16: "TXT"
        case 28: "AAAA"
        case 33: "SRV"
        case 64: "SVCB"
        case 65: "HTTPS"
        case 255: "ANY"
        default: "TYPE\(type)"
        }
    }

    static func rcodeName(_ rcode: UInt8) -> String {
        switch rcode {
        case 0: "NOERROR"
        case 1: "FORMERR"
        case 2: "SERVFAIL"
        case 3: "NXDOMAIN"
        case 4: "NOTIMP"
        case 5: "REFUSED"
        default: "RCODE\(rcode)"
        }
    }
}
