import ByteAccess

/// Reads the clear-text part of a TLS connection from both reassembled streams.
struct TLSScanner {
    /// One TLS record with the time it arrived.
    struct Record {
        var type: UInt8
        var offset: Int
        var time: Int64?
        var length: Int
    }

    var handshake = PacketAnalysis.TLSHandshake()
    var clientHelloTime: Int64?
    var handshakeDoneTime: Int64?
    /// First client application-data record after the handshake (the request), and the first server one after it.
    var firstRequestTime: Int64?
    var firstResponseTime: Int64?
    var lastServerTime: Int64?
    var fatalAlert = false
    /// When the first clear-text fatal alert arrived.
    var alertTime: Int64?

    /// True when `bytes` start with a TLS handshake record.
    static func looksLikeTLS(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 3 else { return false }
        return bytes[0] == 0x16 && bytes[1] == 0x03 && bytes[2] <= 0x04
    }

    static func records(_ stream: TCPStream) -> [Record] {
        var out: [Record] = []
        var offset = 0
        let bytes = stream.bytes
        while offset + 5 <= bytes.count {
            let type = bytes[offset]
            guard (20...24).contains(type), bytes[offset + 1] == 0x03 || bytes[offset + 1] == 0x02 else { break }
            let length = Int(bytes[offset + 3]) << 8 | Int(bytes[offset + 4])
            out.append(Record(type: type, offset: offset, time: stream.time(at: offset), length: length))
            offset += 5 + length
        }
        return out
    }

    /// Scans the client and server streams of one connection.
    init(client: TCPStream, server: TCPStream) {
        let clientRecords = Self.records(client)
        let serverRecords = Self.records(server)
        let clientMessages = Self.handshakeBytes(client, clientRecords)
        let serverMessages = Self.handshakeBytes(server, serverRecords)
        clientHelloTime = clientRecords.first { $0.type == 22 }?.time
        Self.messages(clientMessages) { type, body in
            if type == 1 { parseClientHello(body) }
        }
        var serverHelloSeen = false
        Self.messages(serverMessages) { type, body in
            if type == 2, !serverHelloSeen {
                serverHelloSeen = true
                parseServerHello(body)
            }
        }
        let serverHelloTime = serverHelloSeen ? serverRecords.first { $0.type == 22 }?.time : nil
        if let start = clientHelloTime, let end = serverHelloTime {
            handshake.serverHelloMilliseconds = Double(end - start) / 1e6
        }
        // Alerts in clear: before that side switched to encryption.
        for (records, stream) in [(serverRecords, server), (clientRecords, client)] {
            var encrypted = false
            for record in records {
                if record.type == 20 { encrypted = true }
                if record.type == 21, !encrypted, record.length == 2, record.offset + 7 <= stream.bytes.count {
                    let level = stream.bytes[record.offset + 5]
                    let description = stream.bytes[record.offset + 6]
                    if handshake.alert == nil {
                        handshake.alert =
                            "\(level == 2 ? "fatal" : "warning") \(Self.alertName(description)) (\(description))"
                    }
                    if level == 2, !fatalAlert {
                        fatalAlert = true
                        alertTime = record.time
                    }
                }
            }
        }
        let isTLS13 = handshake.version == "TLS 1.3"
        if isTLS13 {
            // After ServerHello all is encrypted: the handshake ends with the client's Finished, its first
            // encrypted record after the ServerHello (a compatibility CCS may come first).
            let finished = clientRecords.first { $0.type == 23 }
            handshakeDoneTime = finished?.time ?? clientRecords.first { $0.type == 20 }?.time
            let appData = clientRecords.filter { $0.type == 23 }.dropFirst().first
            firstRequestTime = appData?.time
        } else if serverHelloSeen {
            // TLS 1.2: the server's Finished is the first record after its ChangeCipherSpec.
            if let ccs = serverRecords.firstIndex(where: { $0.type == 20 }) {
                let next = serverRecords.indices.contains(ccs + 1) ? serverRecords[ccs + 1] : serverRecords[ccs]
                handshakeDoneTime = next.time
            }
            firstRequestTime = clientRecords.first { $0.type == 23 }?.time
        }
        if let start = clientHelloTime, let end = handshakeDoneTime {
            handshake.handshakeMilliseconds = Double(end - start) / 1e6
        }
        if let request = firstRequestTime {
            let reply = serverRecords.first { $0.type == 23 && ($0.time ?? Int64.min) >= request && $0.time != nil }
            firstResponseTime = reply?.time
        }
        lastServerTime = serverRecords.last?.time
    }

    /// The concatenated payloads of the clear-text handshake records (up to the side's ChangeCipherSpec).
    private static func handshakeBytes(_ stream: TCPStream, _ records: [Record]) -> [UInt8] {
        var out: [UInt8] = []
        for record in records {
            if record.type == 20 { break }
            guard record.type == 22 else { continue }
            let start = record.offset + 5
            let end = Swift.min(stream.bytes.count, start + record.length)
            guard start <= end else { break }
            out.append(contentsOf: stream.bytes[start..<end])
            if out.count > 1 << 20 { break }
        }
        return out
    }

    private static func messages(_ bytes: [UInt8], _ body: (UInt8, ByteView) -> Void) {
        bytes.withBorrowedBytes { raw in
            let view = ByteView(raw)
            var offset = 0
            var count = 0
            while let type = view.u8(offset), let length = view.u24(offset + 1), count < 64 {
                guard let message = view.slice(offset + 4, length) else { break }
                body(type, message)
                // Only the hellos are read; after them the handshake may be encrypted (TLS 1.3) or irrelevant.
                if type == 2 || type == 1 { if offset + 4 + length > view.count { break } }
                offset += 4 + length
                count += 1
            }
        }
    }

    private mutating func parseClientHello(_ body: ByteView) {
        guard let legacy = body.u16(0), let sessionLength = body.u8(34) else { return }
        var offset = 35 + Int(sessionLength)
        guard let suitesLength = body.u16(offset) else { return }
        offset += 2 + Int(suitesLength)
        guard let compressionLength = body.u8(offset) else { return }
        offset += 1 + Int(compressionLength)
        var versions: [String] = []
        Self.extensions(body, from: offset) { type, data in
            switch type {
            case 0:
                // server_name: list length, then (type 0, length, name).
                if let nameLength = data.u16(3), let name = data.slice(5, Int(nameLength)) {
                    handshake.serverName = name.string
                }
            case 16:
                handshake.alpnOffered = Self.alpnList(data)
            case 43:
                guard let length = data.u8(0) else { return }
                var i = 1
                while i + 1 <= Int(length), let version = data.u16(i) {
                    if version & 0x0F0F != 0x0A0A { versions.append(Self.versionName(version)) }
                    i += 2
                }
            default:
                break
            }
        }
        handshake.offeredVersions = versions.isEmpty ? [Self.versionName(legacy)] : versions
    }

    private mutating func parseServerHello(_ body: ByteView) {
        guard let legacy = body.u16(0), let sessionLength = body.u8(34) else { return }
        var offset = 35 + Int(sessionLength)
        guard let suite = body.u16(offset) else { return }
        handshake.cipherSuite = "0x" + String(suite, radix: 16, uppercase: true).leftPadded(4)
        offset += 3
        var selected: UInt16?
        Self.extensions(body, from: offset) { type, data in
            if type == 43 { selected = data.u16(0) }
            if type == 16 { handshake.alpn = Self.alpnList(data).first }
        }
        handshake.version = Self.versionName(selected ?? legacy)
    }

    private static func extensions(_ body: ByteView, from offset: Int, _ visit: (UInt16, ByteView) -> Void) {
        guard let total = body.u16(offset) else { return }
        var i = offset + 2
        let end = Swift.min(body.count, i + Int(total))
        var count = 0
        while i + 4 <= end, let type = body.u16(i), let length = body.u16(i + 2), count < 128 {
            if let data = body.slice(i + 4, Int(length)) { visit(type, data) }
            i += 4 + Int(length)
            count += 1
        }
    }

    private static func alpnList(_ data: ByteView) -> [String] {
        guard let total = data.u16(0) else { return [] }
        var out: [String] = []
        var i = 2
        while i < Swift.min(data.count, 2 + Int(total)), let length = data.u8(i), out.count < 16 {
            guard let name = data.slice(i + 1, Int(length)) else { break }
            out.append(name.string)
            i += 1 + Int(length)
        }
        return out
    }

    static func versionName(_ version: UInt16) -> String {
        switch version {
        case 0x0300: "SSL 3.0"
        case 0x0301: "TLS 1.0"
        case 0x0302: "TLS 1.1"
        case 0x0303: "TLS 1.2"
        case 0x0304: "TLS 1.3"
        case 0x7F00...0x7FFF: "TLS 1.3 draft \(version & 0xFF)"
        default: "0x" + String(version, radix: 16, uppercase: true).leftPadded(4)
        }
    }

    static func alertName(_ code: UInt8) -> String {
        switch code {
        case 0: "close_notify"
        case 10: "unexpected_message"
        case 20: "bad_record_mac"
        case 22: "record_overflow"
        case 40: "handshake_failure"
        case 42: "bad_certificate"
        case 43: "unsupported_certificate"
        case 44: "certificate_revoked"
        case 45: "certificate_expired"
        case 46: "certificate_unknown"
        case 47: "illegal_parameter"
        case 48: "unknown_ca"
        case 49: "access_denied"
        case 50: "decode_error"
        case 51: "decrypt_error"
        case 70: "protocol_version"
        case 71: "insufficient_security"
        case 80: "internal_error"
        case 86: "inappropriate_fallback"
        case 90: "user_canceled"
        case 109: "missing_extension"
        case 110: "unsupported_extension"
        case 112: "unrecognized_name"
        case 116: "certificate_required"
        case 120: "no_application_protocol"
        default: "alert"
        }
    }
}

extension String {
    func leftPadded(_ width: Int) -> String { String(repeating: "0", count: Swift.max(0, width - count)) + self }
}
