/// The timing a QUIC (HTTP/3) connection shows without its keys: every packet after the first Initial is
/// encrypted, so only packet kinds, directions and times are read.
struct QUICFlow {
    var client: Endpoint
    var server: Endpoint
    var version: UInt32 = 0
    var firstClientInitial: Int64?
    var firstServerPacket: Int64?
    /// The client's first 1-RTT (short header) packet: the handshake is done on its side.
    var firstClientShort: Int64?
    /// The server's first 1-RTT packet after the client's first one.
    var firstServerShortAfterRequest: Int64?
    var lastServerPacket: Int64?
    var clientBytes: Int64 = 0
    var serverBytes: Int64 = 0

    /// True when `payload` starts like a QUIC packet (fixed bit set; long headers carry a version).
    static func looksLikeQUIC(_ payload: ByteView) -> Bool {
        guard let first = payload.u8(0), first & 0x40 != 0 else { return false }
        if first & 0x80 != 0 { return payload.u32(1) != nil && payload.count >= 20 }
        return payload.count >= 9
    }

    mutating func add(_ payload: ByteView, fromClient: Bool, time: Int64?) {
        guard let first = payload.u8(0) else { return }
        let long = first & 0x80 != 0
        if fromClient {
            clientBytes += Int64(payload.count)
            if long, firstClientInitial == nil, (first & 0x30) >> 4 == 0 {
                firstClientInitial = time
                version = payload.u32(1) ?? 0
            }
            if !long, firstClientShort == nil { firstClientShort = time }
        } else {
            serverBytes += Int64(payload.count)
            if firstServerPacket == nil { firstServerPacket = time }
            if let time { lastServerPacket = time }
            if !long, firstServerShortAfterRequest == nil, let request = firstClientShort, let time, time >= request {
                firstServerShortAfterRequest = time
            }
        }
    }

    var versionName: String {
        switch version {
        case 0x0000_0001: "QUIC v1"
        case 0x6B33_43CF: "QUIC v2"
        case 0: "QUIC"
        default: "QUIC 0x" + String(version, radix: 16)
        }
    }
}
