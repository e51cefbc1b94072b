import APMInspectCore

/// Walks the records of a pcap or pcapng file.
///
/// pcap: µs and ns magic in both byte orders; link type masked to 16 bits. pcapng: every section with its own
/// byte order, interfaces with `if_tsresol` and `if_tsoffset`, EPB, SPB, the obsolete PB, NRB counted; unknown
/// blocks skipped by length.
struct PacketContainerReader {
    /// What the container header said.
    struct Info {
        var format = "pcap"
        var version = ""
        var byteOrders: [String] = []
        var sections = 0
        var interfaces: [PacketAnalysis.Interface] = []
        var nameResolutionRecords = 0
        var customBlocks = 0
        var decryptionSecrets = 0
        var blockCounts: [String: Int] = [:]
    }

    struct PCAPNGInterface {
        var linkType: UInt16
        /// Nanoseconds per tick numerator / denominator handled as a multiplier and divisor.
        var unitsPerSecond: UInt64
        var offsetSeconds: Int64
    }

    var info = Info()
    var log = DiagnosticLog()

    /// Largest accepted distance of a time stamp from 1970, in ns (about year 2112 either way): any two accepted
    /// time stamps can be subtracted without overflow.
    static let maxTimestamp: Int64 = 4_500_000_000_000_000_000

    static func sane(_ nanoseconds: Int64) -> Int64? {
        nanoseconds > -maxTimestamp && nanoseconds < maxTimestamp ? nanoseconds : nil
    }

    /// Calls `body` for every packet; stops after `maxPackets`.
    mutating func read(
        _ view: ByteView,
        maxPackets: Int,
        body: (PacketRecord) -> Void
    ) throws(HTTPCaptureError) {
        guard let magic = view.u32(0, bigEndian: false) else {
            throw HTTPCaptureError(.syntax, "too short for a capture file header")
        }
        if magic == 0x0A0D_0D0A {
            info.format = "pcapng"
            try readPCAPNG(view, maxPackets: maxPackets, body: body)
        } else {
            info.format = "pcap"
            try readPCAP(view, magic: magic, maxPackets: maxPackets, body: body)
        }
    }

    private mutating func readPCAP(
        _ view: ByteView,
        magic: UInt32,
        maxPackets: Int,
        body: (PacketRecord) -> Void
    ) throws(HTTPCaptureError) {
        let bigEndian: Bool
        let nanos: Bool
        switch magic {
        case 0xA1B2_C3D4: (bigEndian, nanos) = (false, false)
        case 0xA1B2_3C4D: (bigEndian, nanos) = (false, true)
        case 0xD4C3_B2A1: (bigEndian, nanos) = (true, false)
        case 0x4D3C_B2A1: (bigEndian, nanos) = (true, true)
        default: throw HTTPCaptureError(.syntax, "not a pcap file: unknown magic", at: SourceLocation(byteOffset: 0))
        }
        guard view.count >= 24, let major = view.u16(4, bigEndian: bigEndian),
            let minor = view.u16(6, bigEndian: bigEndian), let snap = view.u32(16, bigEndian: bigEndian),
            let linkField = view.u32(20, bigEndian: bigEndian)
        else {
            throw HTTPCaptureError(
                .syntax,
                "pcap file header cut short (24 bytes needed)",
                at: SourceLocation(byteOffset: 0)
            )
        }
        info.version = "\(major).\(minor)"
        info.byteOrders = [bigEndian ? "big-endian" : "little-endian"]
        info.sections = 1
        let linkType = UInt16(truncatingIfNeeded: linkField & 0xFFFF)
        info.interfaces = [
            PacketAnalysis.Interface(
                linkType: Int(linkType),
                linkTypeName: LinkLayer.name(linkType),
                snapLength: Int(snap),
                timestampResolution: nanos ? "ns" : "µs"
            )
        ]
        var offset = 24
        var packets = 0
        while offset < view.count {
            guard let seconds = view.u32(offset, bigEndian: bigEndian),
                let fraction = view.u32(offset + 4, bigEndian: bigEndian),
                let included = view.u32(offset + 8, bigEndian: bigEndian),
                let original = view.u32(offset + 12, bigEndian: bigEndian)
            else {
                log.add(
                    .pcapTruncatedRecord,
                    .warning,
                    "the last record header is cut short; stopped there",
                    at: SourceLocation(byteOffset: offset)
                )
                break
            }
            let start = offset + 16
            let length = Int(included)
            if length > view.count - start {
                log.add(
                    .pcapTruncatedRecord,
                    .warning,
                    "record \(packets + 1) claims \(length) bytes but the file ends first; read what is there",
                    at: SourceLocation(byteOffset: offset)
                )
            }
            if length > 0x1000_0000 {
                log.add(
                    .pcapBadRecord,
                    .error,
                    "record length \(length) is absurd; stopped",
                    at: SourceLocation(byteOffset: offset)
                )
                break
            }
            guard let data = view.slice(start, length) else { break }
            let nanoseconds = Int64(seconds) * 1_000_000_000 + Int64(fraction) * (nanos ? 1 : 1000)
            body(
                PacketRecord(
                    timestamp: Self.sane(nanoseconds),
                    linkType: linkType,
                    data: data,
                    originalLength: Int(original)
                )
            )
            packets += 1
            if packets >= maxPackets {
                log.add(.pcapPacketLimit, .warning, "stopped after \(maxPackets) packets (the limit)", at: nil)
                break
            }
            offset = start + length
        }
    }

    private mutating func readPCAPNG(
        _ view: ByteView,
        maxPackets: Int,
        body: (PacketRecord) -> Void
    ) throws(HTTPCaptureError) {
        var offset = 0
        var bigEndian = false
        var interfaces: [PCAPNGInterface] = []
        var packets = 0
        var sawSection = false
        while offset < view.count {
            guard let rawType = view.u32(offset, bigEndian: false) else { break }
            if rawType == 0x0A0D_0D0A {
                // A new section: its byte-order magic decides how everything in it is read.
                guard let orderMagic = view.u32(offset + 8, bigEndian: false) else {
                    log.add(
                        .pcapTruncatedBlock,
                        .warning,
                        "section header cut short",
                        at: SourceLocation(byteOffset: offset)
                    )
                    break
                }
                if orderMagic == 0x1A2B_3C4D {
                    bigEndian = false
                } else if orderMagic == 0x4D3C_2B1A {
                    bigEndian = true
                } else {
                    if !sawSection {
                        throw HTTPCaptureError(
                            .syntax,
                            "pcapng section header with an unknown byte-order magic",
                            at: SourceLocation(byteOffset: offset + 8)
                        )
                    }
                    log.add(
                        .pcapBadSection,
                        .error,
                        "section with an unknown byte-order magic; stopped",
                        at: SourceLocation(byteOffset: offset)
                    )
                    break
                }
                sawSection = true
                info.sections += 1
                let order = bigEndian ? "big-endian" : "little-endian"
                if !info.byteOrders.contains(order) { info.byteOrders.append(order) }
                if let major = view.u16(offset + 12, bigEndian: bigEndian),
                    let minor = view.u16(offset + 14, bigEndian: bigEndian),
                    info.version.isEmpty
                {
                    info.version = "\(major).\(minor)"
                }
                interfaces = []
            }
            guard sawSection else {
                throw HTTPCaptureError(.syntax, "pcapng file does not start with a section header")
            }
            guard let type = view.u32(offset, bigEndian: bigEndian),
                let length = view.u32(offset + 4, bigEndian: bigEndian)
            else {
                log.add(
                    .pcapTruncatedBlock,
                    .warning,
                    "block header cut short; stopped",
                    at: SourceLocation(byteOffset: offset)
                )
                break
            }
            let blockLength = Int(length)
            guard blockLength >= 12, blockLength % 4 == 0 else {
                log.add(
                    .pcapBadBlock,
                    .error,
                    "block length \(blockLength) is invalid; stopped",
                    at: SourceLocation(byteOffset: offset)
                )
                break
            }
            if blockLength > view.count - offset {
                log.add(
                    .pcapTruncatedBlock,
                    .warning,
                    "the last block is cut short",
                    at: SourceLocation(byteOffset: offset)
                )
            }
            let block =
                view.slice(offset + 8, blockLength - 12) ?? .empty
            switch type {
            case 0x0A0D_0D0A:
                info.blockCounts["SHB", default: 0] += 1
            case 0x0000_0001:
                info.blockCounts["IDB", default: 0] += 1
                let linkType = block.u16(0, bigEndian: bigEndian) ?? 0
                let snap = block.u32(4, bigEndian: bigEndian) ?? 0
                var interface = PCAPNGInterface(linkType: linkType, unitsPerSecond: 1_000_000, offsetSeconds: 0)
                var resolution = "µs"
                var optionOffset = 8
                while let code = block.u16(optionOffset, bigEndian: bigEndian),
                    let optionLength = block.u16(optionOffset + 2, bigEndian: bigEndian), code != 0
                {
                    let value = optionOffset + 4
                    if code == 9, let raw = block.u8(value) {
                        let exponent = UInt64(raw & 0x7F)
                        if raw & 0x80 == 0, exponent <= 18 {
                            var units: UInt64 = 1
                            for _ in 0..<exponent { units *= 10 }
                            interface.unitsPerSecond = units
                            resolution =
                                exponent == 9 ? "ns" : exponent == 6 ? "µs" : exponent == 3 ? "ms" : "10^-\(exponent) s"
                        } else if raw & 0x80 != 0, exponent <= 62 {
                            interface.unitsPerSecond = 1 << exponent
                            resolution = "2^-\(exponent) s"
                        }
                    } else if code == 14, let raw = block.u64(value, bigEndian: bigEndian) {
                        interface.offsetSeconds = Int64(bitPattern: raw)
                    }
                    optionOffset = value + (Int(optionLength) + 3) & ~3
                }
                interfaces.append(interface)
                info.interfaces.append(
                    PacketAnalysis.Interface(
                        linkType: Int(linkType),
                        linkTypeName: LinkLayer.name(linkType),
                        snapLength: Int(snap),
                        timestampResolution: resolution
                    )
                )
            case 0x0000_0006, 0x0000_0002:
                info.blockCounts[type == 6 ? "EPB" : "PB", default: 0] += 1
                let interfaceID =
                    type == 6
                    ? Int(block.u32(0, bigEndian: bigEndian) ?? 0) : Int(block.u16(0, bigEndian: bigEndian) ?? 0)
                guard interfaces.indices.contains(interfaceID) else {
                    log.add(
                        .pcapUnknownInterface,
                        .warning,
                        "packet refers to interface \(interfaceID), which is not defined",
                        at: SourceLocation(byteOffset: offset)
                    )
                    break
                }
                let interface = interfaces[interfaceID]
                guard let high = block.u32(4, bigEndian: bigEndian), let low = block.u32(8, bigEndian: bigEndian),
                    let captured = block.u32(12, bigEndian: bigEndian),
                    let original = block.u32(16, bigEndian: bigEndian)
                else { break }
                guard let data = block.slice(20, Int(captured)) else { break }
                if data.count < Int(captured) {
                    // The slice is clamped to the block: say so, or a 4 GB claim passes as a 16-byte packet.
                    log.add(
                        .pcapPacketLength,
                        .warning,
                        "packet claims \(captured) captured bytes but its block holds \(data.count); those are read",
                        at: SourceLocation(byteOffset: offset)
                    )
                }
                let ticks = UInt64(high) << 32 | UInt64(low)
                let units = Swift.max(1, interface.unitsPerSecond)
                let seconds = Int64(clamping: ticks / units) &+ interface.offsetSeconds
                let remainder = ticks % units
                let nanos = Int64(clamping: remainder.multipliedFullWidth(by: 1_000_000_000).low / units)
                let (total, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
                let timestamp: Int64? = overflow ? nil : Self.sane(total &+ nanos)
                body(
                    PacketRecord(
                        timestamp: timestamp,
                        linkType: interface.linkType,
                        data: data,
                        originalLength: Int(original)
                    )
                )
                packets += 1
            case 0x0000_0003:
                info.blockCounts["SPB", default: 0] += 1
                guard let first = interfaces.first, let original = block.u32(0, bigEndian: bigEndian) else { break }
                let data = block.slice(4, Int(original)) ?? block.suffix(from: 4)
                body(PacketRecord(timestamp: nil, linkType: first.linkType, data: data, originalLength: Int(original)))
                packets += 1
            case 0x0000_0004:
                info.blockCounts["NRB", default: 0] += 1
                var recordOffset = 0
                while let code = block.u16(recordOffset, bigEndian: bigEndian),
                    let recordLength = block.u16(recordOffset + 2, bigEndian: bigEndian), code != 0
                {
                    info.nameResolutionRecords += 1
                    recordOffset += 4 + (Int(recordLength) + 3) & ~3
                }
            case 0x0000_0005:
                info.blockCounts["ISB", default: 0] += 1
            case 0x0000_000A:
                info.blockCounts["DSB", default: 0] += 1
                info.decryptionSecrets += 1
            case 0x0000_0BAD, 0x4000_0BAD:
                info.blockCounts["CB", default: 0] += 1
                info.customBlocks += 1
            default:
                info.blockCounts["other", default: 0] += 1
            }
            if packets >= maxPackets {
                log.add(.pcapPacketLimit, .warning, "stopped after \(maxPackets) packets (the limit)", at: nil)
                break
            }
            offset += blockLength
        }
        if info.blockCounts["SPB", default: 0] > 0 {
            log.add(
                .pcapUntimedPackets,
                .note,
                "Simple Packet Blocks carry no time stamps: their packets are not timed",
                at: nil
            )
        }
    }
}
