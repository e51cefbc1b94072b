/// Builds pcap and pcapng files from scripted packets, for tests only.
///
/// Frames are built byte by byte from the protocol layouts (Ethernet, SLL2, IPv4, IPv6, TCP, UDP), so every
/// timing in a generated capture is known exactly.
enum PacketWriter {
    struct Packet {
        var nanoseconds: Int64
        var frame: [UInt8]
        var interface: Int = 0
    }

    static func be16(_ v: Int) -> [UInt8] { [UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v)] }
    static func be32(_ v: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: v >> UInt32($0)) } }
    static func le16(_ v: Int) -> [UInt8] { be16(v).reversed() }
    static func le32(_ v: UInt32) -> [UInt8] { be32(v).reversed() }
    static func u32(_ v: UInt32, bigEndian: Bool) -> [UInt8] { bigEndian ? be32(v) : le32(v) }
    static func u16(_ v: Int, bigEndian: Bool) -> [UInt8] { bigEndian ? be16(v) : le16(v) }

    static func ethernet(_ ip: [UInt8], v6: Bool = false) -> [UInt8] {
        [0x00, 0x1C, 0x42, 0x00, 0x00, 0x01, 0x00, 0x1C, 0x42, 0x00, 0x00, 0x02] + be16(v6 ? 0x86DD : 0x0800) + ip
    }

    static func sll2(_ ip: [UInt8], v6: Bool = false) -> [UInt8] {
        be16(v6 ? 0x86DD : 0x0800) + [0, 0] + be32(2) + be16(1) + [4, 6] + [0x00, 0x1C, 0x42, 0, 0, 1, 0, 0] + ip
    }

    static func null(_ ip: [UInt8], v6: Bool = false) -> [UInt8] { le32(v6 ? 30 : 2) + ip }

    static func ipv4(_ source: [UInt8], _ destination: [UInt8], protocolNumber: UInt8, _ payload: [UInt8]) -> [UInt8] {
        let total = 20 + payload.count
        var header: [UInt8] = [0x45, 0] + be16(total) + [0x12, 0x34, 0x40, 0x00, 64, protocolNumber, 0, 0]
        header += source + destination
        var sum: UInt32 = 0
        for i in stride(from: 0, to: 20, by: 2) { sum += UInt32(header[i]) << 8 | UInt32(header[i + 1]) }
        while sum > 0xFFFF { sum = (sum & 0xFFFF) + (sum >> 16) }
        let checksum = ~UInt16(sum)
        header[10] = UInt8(checksum >> 8)
        header[11] = UInt8(checksum & 0xFF)
        return header + payload
    }

    static func ipv6(_ source: [UInt8], _ destination: [UInt8], next: UInt8, _ payload: [UInt8]) -> [UInt8] {
        [0x60, 0, 0, 0] + be16(payload.count) + [next, 64] + source + destination + payload
    }

    static func tcp(_ sport: Int, _ dport: Int, seq: UInt32, ack: UInt32, flags: UInt8, _ payload: [UInt8] = [])
        -> [UInt8]
    {
        be16(sport) + be16(dport) + be32(seq) + be32(ack) + [0x50, flags] + be16(65535) + [0, 0, 0, 0] + payload
    }

    static func udp(_ sport: Int, _ dport: Int, _ payload: [UInt8]) -> [UInt8] {
        be16(sport) + be16(dport) + be16(8 + payload.count) + [0, 0] + payload
    }

    /// A classic pcap file.
    static func pcap(_ packets: [Packet], linkType: UInt32, nanoseconds: Bool = false, bigEndian: Bool = false)
        -> [UInt8]
    {
        var out = u32(nanoseconds ? 0xA1B2_3C4D : 0xA1B2_C3D4, bigEndian: bigEndian)
        out += u16(2, bigEndian: bigEndian) + u16(4, bigEndian: bigEndian) + [0, 0, 0, 0, 0, 0, 0, 0]
        out += u32(262_144, bigEndian: bigEndian) + u32(linkType, bigEndian: bigEndian)
        for packet in packets {
            let seconds = UInt32(packet.nanoseconds / 1_000_000_000)
            let fraction = UInt32(packet.nanoseconds % 1_000_000_000 / (nanoseconds ? 1 : 1000))
            out += u32(seconds, bigEndian: bigEndian) + u32(fraction, bigEndian: bigEndian)
            out +=
                u32(UInt32(packet.frame.count), bigEndian: bigEndian)
                + u32(UInt32(packet.frame.count), bigEndian: bigEndian)
            out += packet.frame
        }
        return out
    }

    /// One pcapng interface: link type and `if_tsresol` exponent (6 = µs, 9 = ns).
    struct Interface {
        var linkType: Int
        var resolution: UInt8
    }

    static func block(_ type: UInt32, _ body: [UInt8], bigEndian: Bool) -> [UInt8] {
        var padded = body
        while padded.count % 4 != 0 { padded.append(0) }
        let length = UInt32(12 + padded.count)
        return u32(type, bigEndian: bigEndian) + u32(length, bigEndian: bigEndian) + padded
            + u32(length, bigEndian: bigEndian)
    }

    /// A pcapng section: SHB, IDBs, then one EPB per packet.
    static func pcapngSection(_ packets: [Packet], interfaces: [Interface], bigEndian: Bool = false) -> [UInt8] {
        var out = block(
            0x0A0D_0D0A,
            u32(0x1A2B_3C4D, bigEndian: bigEndian) + u16(1, bigEndian: bigEndian) + u16(0, bigEndian: bigEndian)
                + [UInt8](repeating: 0xFF, count: 8),
            bigEndian: bigEndian
        )
        for interface in interfaces {
            var body = u16(interface.linkType, bigEndian: bigEndian) + [0, 0] + u32(262_144, bigEndian: bigEndian)
            body += u16(9, bigEndian: bigEndian) + u16(1, bigEndian: bigEndian) + [interface.resolution, 0, 0, 0]
            body += [0, 0, 0, 0]
            out += block(1, body, bigEndian: bigEndian)
        }
        for packet in packets {
            let exponent = interfaces.indices.contains(packet.interface) ? interfaces[packet.interface].resolution : 6
            var divisor: Int64 = 1
            for _ in 0..<(9 - Int(exponent)) { divisor *= 10 }
            let ticks = UInt64(packet.nanoseconds / divisor)
            var body = u32(UInt32(packet.interface), bigEndian: bigEndian)
            body +=
                u32(UInt32(ticks >> 32), bigEndian: bigEndian) + u32(UInt32(ticks & 0xFFFF_FFFF), bigEndian: bigEndian)
            body +=
                u32(UInt32(packet.frame.count), bigEndian: bigEndian)
                + u32(UInt32(packet.frame.count), bigEndian: bigEndian)
            body += packet.frame
            out += block(6, body, bigEndian: bigEndian)
        }
        return out
    }
}

/// A scripted TCP conversation that keeps the sequence numbers right.
struct TCPScript {
    var client: (ip: [UInt8], port: Int)
    var server: (ip: [UInt8], port: Int)
    var v6 = false
    var clientSeq: UInt32 = 1_000
    var serverSeq: UInt32 = 500_000
    var packets: [PacketWriter.Packet] = []
    var frame: ([UInt8], Bool) -> [UInt8] = { ip, v6 in PacketWriter.ethernet(ip, v6: v6) }

    init(client: ([UInt8], Int), server: ([UInt8], Int), v6: Bool = false) {
        self.client = (client.0, client.1)
        self.server = (server.0, server.1)
        self.v6 = v6
    }

    private func ip(fromClient: Bool, _ segment: [UInt8]) -> [UInt8] {
        let (s, d) = fromClient ? (client.ip, server.ip) : (server.ip, client.ip)
        return v6 ? PacketWriter.ipv6(s, d, next: 6, segment) : PacketWriter.ipv4(s, d, protocolNumber: 6, segment)
    }

    mutating func emit(_ ms: Double, fromClient: Bool, flags: UInt8, _ payload: [UInt8] = [], seq: UInt32? = nil) {
        let (sport, dport) = fromClient ? (client.port, server.port) : (server.port, client.port)
        let mySeq = seq ?? (fromClient ? clientSeq : serverSeq)
        let ack = fromClient ? serverSeq : clientSeq
        let segment = PacketWriter.tcp(sport, dport, seq: mySeq, ack: ack, flags: flags, payload)
        packets.append(
            PacketWriter.Packet(
                nanoseconds: Self.base + Int64(ms * 1_000_000),
                frame: frame(ip(fromClient: fromClient, segment), v6)
            )
        )
    }

    /// Capture epoch used by every generated file: 2024-03-01T12:00:00Z.
    static let base: Int64 = 1_709_294_400 * 1_000_000_000

    mutating func handshake(syn: Double, synAck: Double, ack: Double) {
        emit(syn, fromClient: true, flags: 0x02)
        clientSeq &+= 1
        emit(synAck, fromClient: false, flags: 0x12)
        serverSeq &+= 1
        emit(ack, fromClient: true, flags: 0x10)
    }

    mutating func send(_ ms: Double, fromClient: Bool, _ bytes: [UInt8]) {
        emit(ms, fromClient: fromClient, flags: 0x18, bytes)
        if fromClient { clientSeq &+= UInt32(bytes.count) } else { serverSeq &+= UInt32(bytes.count) }
    }

    /// Bytes the sender sent that the capture never saw: the sequence numbers move on, no packet is written.
    mutating func lose(fromClient: Bool, _ bytes: [UInt8]) {
        if fromClient { clientSeq &+= UInt32(bytes.count) } else { serverSeq &+= UInt32(bytes.count) }
    }

    /// Sends `bytes` again with the sequence number they had (a retransmission).
    mutating func resend(_ ms: Double, fromClient: Bool, _ bytes: [UInt8], endingAt: UInt32) {
        emit(ms, fromClient: fromClient, flags: 0x18, bytes, seq: endingAt &- UInt32(bytes.count))
    }

    mutating func fin(_ ms: Double, fromClient: Bool) {
        emit(ms, fromClient: fromClient, flags: 0x11)
        if fromClient { clientSeq &+= 1 } else { serverSeq &+= 1 }
    }

    mutating func reset(_ ms: Double, fromClient: Bool) { emit(ms, fromClient: fromClient, flags: 0x14) }
}
