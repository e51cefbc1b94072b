/// Decodes link-layer framing down to IP, then IP down to TCP or UDP.
enum LinkLayer {
    /// A transport segment found in a packet.
    struct Segment {
        enum Transport {
            case tcp(seq: UInt32, ack: UInt32, flags: UInt8, window: UInt16)
            case udp
        }

        var source: Endpoint
        var destination: Endpoint
        var transport: Transport
        var payload: ByteView
        /// True when the capture holds fewer payload bytes than the IP header says were sent.
        var truncated: Bool
    }

    /// Why a packet gave no segment.
    enum Skip {
        case unsupportedLink
        case notIP
        case fragment
        case otherTransport
        case malformed
    }

    static func name(_ linkType: UInt16) -> String {
        switch linkType {
        case 0: "NULL"
        case 1: "ETHERNET"
        case 12, 14, 101: "RAW"
        case 108: "LOOP"
        case 113: "LINUX_SLL"
        case 228: "IPV4"
        case 229: "IPV6"
        case 258: "PKTAP"
        case 276: "LINUX_SLL2"
        default: "LINKTYPE_\(linkType)"
        }
    }

    /// The IP packet inside a frame of `linkType`, or why there is none.
    static func ipPayload(_ data: ByteView, linkType: UInt16, depth: Int = 0) -> Result<ByteView, SkipError> {
        switch linkType {
        case 1:
            // iOS rvictl captures are labelled Ethernet but hold bare IP: trust the EtherType first.
            if let type = data.u16(12), type == 0x0800 || type == 0x86DD || type == 0x8100 || type == 0x88A8 {
                return ethernet(data)
            }
            if let first = data.u8(0), first >> 4 == 4 || first >> 4 == 6, plausibleIP(data) { return .success(data) }
            return ethernet(data)
        case 0, 108:
            guard let raw = data.u32(0, bigEndian: linkType == 108) else { return .failure(SkipError(.malformed)) }
            let family = raw > 0xFFFF ? raw.byteSwapped : raw
            guard family == 2 || family == 24 || family == 28 || family == 30 else {
                return .failure(SkipError(.notIP))
            }
            return .success(data.suffix(from: 4))
        case 12, 14, 101, 228, 229:
            return .success(data)
        case 113:
            guard let protocolType = data.u16(14) else { return .failure(SkipError(.malformed)) }
            guard protocolType == 0x0800 || protocolType == 0x86DD else { return .failure(SkipError(.notIP)) }
            return .success(data.suffix(from: 16))
        case 276:
            guard let protocolType = data.u16(0) else { return .failure(SkipError(.malformed)) }
            guard protocolType == 0x0800 || protocolType == 0x86DD else { return .failure(SkipError(.notIP)) }
            return .success(data.suffix(from: 20))
        case 258:
            guard depth == 0, let headerLength = data.u32(0, bigEndian: false),
                let inner = data.u32(4, bigEndian: false),
                headerLength >= 8, Int(headerLength) <= data.count
            else { return .failure(SkipError(.malformed)) }
            return ipPayload(
                data.suffix(from: Int(headerLength)),
                linkType: UInt16(truncatingIfNeeded: inner),
                depth: 1
            )
        default:
            return .failure(SkipError(.unsupportedLink))
        }
    }

    struct SkipError: Error {
        var reason: Skip
        init(_ reason: Skip) { self.reason = reason }
    }

    private static func plausibleIP(_ data: ByteView) -> Bool {
        guard let first = data.u8(0) else { return false }
        if first >> 4 == 4 {
            guard let total = data.u16(2) else { return false }
            return first & 0x0F >= 5 && Int(total) >= 20
        }
        guard let payload = data.u16(4) else { return false }
        return Int(payload) + 40 >= data.count - 64
    }

    private static func ethernet(_ data: ByteView) -> Result<ByteView, SkipError> {
        var offset = 12
        var tags = 0
        while let type = data.u16(offset) {
            switch type {
            case 0x8100, 0x88A8, 0x9100:
                offset += 4
                tags += 1
                if tags > 4 { return .failure(SkipError(.malformed)) }
            case 0x0800, 0x86DD:
                return .success(data.suffix(from: offset + 2))
            default:
                return .failure(SkipError(.notIP))
            }
        }
        return .failure(SkipError(.malformed))
    }

    /// The TCP or UDP segment inside an IP packet.
    static func segment(_ ip: ByteView) -> Result<Segment, SkipError> {
        guard let first = ip.u8(0) else { return .failure(SkipError(.malformed)) }
        var source: IPAddress
        var destination: IPAddress
        var protocolNumber: UInt8
        var payloadOffset: Int
        var payloadLength: Int
        switch first >> 4 {
        case 4:
            let headerLength = Int(first & 0x0F) * 4
            guard headerLength >= 20, let total = ip.u16(2), let fragment = ip.u16(6), let proto = ip.u8(9),
                let src = ip.u32(12), let dst = ip.u32(16)
            else { return .failure(SkipError(.malformed)) }
            if fragment & 0x3FFF != 0 { return .failure(SkipError(.fragment)) }
            source = IPAddress(v4: src)
            destination = IPAddress(v4: dst)
            protocolNumber = proto
            payloadOffset = headerLength
            // Some stacks (TSO captures) write 0 as the total length: then use what was captured.
            payloadLength = total == 0 ? ip.count - headerLength : Int(total) - headerLength
        case 6:
            guard let length = ip.u16(4), let next = ip.u8(6), let sh = ip.u64(8), let sl = ip.u64(16),
                let dh = ip.u64(24), let dl = ip.u64(32)
            else { return .failure(SkipError(.malformed)) }
            source = IPAddress(v6: sh, sl)
            destination = IPAddress(v6: dh, dl)
            protocolNumber = next
            payloadOffset = 40
            payloadLength = Int(length)
            // Extension headers: hop-by-hop, routing, destination options; a fragment header means a fragment.
            var hops = 0
            while [0, 43, 60, 51].contains(protocolNumber), hops < 8 {
                guard let nextHeader = ip.u8(payloadOffset), let extLength = ip.u8(payloadOffset + 1) else {
                    return .failure(SkipError(.malformed))
                }
                let size = protocolNumber == 51 ? (Int(extLength) + 2) * 4 : (Int(extLength) + 1) * 8
                protocolNumber = nextHeader
                payloadOffset += size
                payloadLength -= size
                hops += 1
            }
            if protocolNumber == 44 { return .failure(SkipError(.fragment)) }
        default:
            return .failure(SkipError(.notIP))
        }
        guard payloadLength >= 0 else { return .failure(SkipError(.malformed)) }
        let available = ip.count - payloadOffset
        let truncated = available < payloadLength
        guard let body = ip.slice(payloadOffset, Swift.min(payloadLength, Swift.max(0, available))) else {
            return .failure(SkipError(.malformed))
        }
        switch protocolNumber {
        case 6:
            guard let sport = body.u16(0), let dport = body.u16(2), let seq = body.u32(4), let ack = body.u32(8),
                let offsetByte = body.u8(12), let flags = body.u8(13), let window = body.u16(14)
            else { return .failure(SkipError(.malformed)) }
            let dataOffset = Int(offsetByte >> 4) * 4
            guard dataOffset >= 20 else { return .failure(SkipError(.malformed)) }
            return .success(
                Segment(
                    source: Endpoint(address: source, port: sport),
                    destination: Endpoint(address: destination, port: dport),
                    transport: .tcp(seq: seq, ack: ack, flags: flags, window: window),
                    payload: body.suffix(from: dataOffset),
                    truncated: truncated
                )
            )
        case 17:
            guard let sport = body.u16(0), let dport = body.u16(2), let length = body.u16(4) else {
                return .failure(SkipError(.malformed))
            }
            let payload = body.slice(8, Swift.max(0, Int(length) - 8)) ?? body.suffix(from: 8)
            return .success(
                Segment(
                    source: Endpoint(address: source, port: sport),
                    destination: Endpoint(address: destination, port: dport),
                    transport: .udp,
                    payload: payload,
                    truncated: truncated || payload.count < Int(length) - 8
                )
            )
        default:
            return .failure(SkipError(.otherTransport))
        }
    }
}
