import Foundation

/// Realistic inputs of every family, built here or read from the repository's `Corpus/`.
enum Fixtures {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func corpus(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: repository.appendingPathComponent("Corpus").appendingPathComponent(path)))
    }

    /// A committed Mach-O fixture of the symbolication tests (`Tests/SymbolicationTests/Fixtures/<path>`).
    static func machO(_ path: String) throws -> [UInt8] {
        let url = repository.appendingPathComponent("Tests/SymbolicationTests/Fixtures").appendingPathComponent(path)
        return [UInt8](try Data(contentsOf: url))
    }

    static let ips = Array(
        """
        {"app_name":"Demo","bug_type":"309","os_version":"iPhone OS 17.2.1 (21C66)","timestamp":"2024-01-05 10:00:00.00 +0100"}
        {"pid":412,"procName":"Demo","exception":{"type":"EXC_CRASH","signal":"SIGABRT"},"threads":[{"frames":[{"imageOffset":1234,"imageIndex":0}]}],"usedImages":[{"base":4294967296,"size":16384,"name":"Demo"}],"faultingThread":0}
        """.utf8
    )

    static let crashText = Array(
        """
        Incident Identifier: 6156848E-344E-4D9E-84E0-87AFD0D0AE7B
        Hardware Model:      iPhone12,1
        Process:             Demo [412]
        Exception Type:  EXC_BAD_ACCESS (SIGSEGV)
        Triggered by Thread:  0

        Thread 0 Crashed:
        0   libsystem_kernel.dylib        \t0x00000001bd1e5414 __pthread_kill + 8
        1   Demo                          \t0x0000000104a01234 main + 40

        Binary Images:
        0x104a00000 - 0x104a07fff Demo arm64  <2c1b2f7d4c1a3b2e9f0a1b2c3d4e5f60> /var/containers/Bundle/Application/Demo.app/Demo

        """.utf8
    )

    /// A classic little-endian pcap with two Ethernet/IPv4/UDP packets.
    static let pcap: [UInt8] = {
        var out: [UInt8] = [0xD4, 0xC3, 0xB2, 0xA1, 2, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0]
        out += le32(65535) + le32(1)
        for n in 0..<2 {
            let packet = ethernetUDP(payload: Array("query \(n)".utf8))
            out += le32(1_700_000_000 + UInt32(n)) + le32(0) + le32(UInt32(packet.count)) + le32(UInt32(packet.count))
            out += packet
        }
        return out
    }()

    /// A little-endian pcapng: section header, interface description, one enhanced packet block.
    static let pcapng: [UInt8] = {
        var out: [UInt8] = []
        out += block(0x0A0D_0D0A, le32(0x1A2B_3C4D) + [1, 0, 0, 0] + [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])
        out += block(1, [1, 0, 0, 0] + le32(65535))
        let packet = ethernetUDP(payload: Array("hello".utf8))
        var body = le32(0) + le32(0) + le32(1) + le32(UInt32(packet.count)) + le32(UInt32(packet.count)) + packet
        while body.count % 4 != 0 { body.append(0) }
        out += block(6, body)
        return out
    }()

    /// A ustar archive with two small files.
    static let tar: [UInt8] = {
        var out: [UInt8] = []
        for (name, text) in [("logs/a.txt", "first file\n"), ("logs/b.txt", "second\n")] {
            var header = [UInt8](repeating: 0, count: 512)
            func put(_ string: String, at offset: Int) {
                for (k, byte) in string.utf8.enumerated() { header[offset + k] = byte }
            }
            put(name, at: 0)
            put("0000644", at: 100)
            put(octal(text.utf8.count, digits: 11), at: 124)
            put("00000000000", at: 136)
            put("        ", at: 148)
            put("0", at: 156)
            put("ustar", at: 257)
            put("00", at: 263)
            let sum = header.reduce(0) { $0 + Int($1) }
            put(octal(sum, digits: 6) + "\0 ", at: 148)
            out += header
            var data = Array(text.utf8)
            data += [UInt8](repeating: 0, count: (512 - data.count % 512) % 512)
            out += data
        }
        out += [UInt8](repeating: 0, count: 1024)
        return out
    }()

    static func octal(_ value: Int, digits: Int) -> String {
        let text = String(value, radix: 8)
        return String(repeating: "0", count: max(digits - text.count, 0)) + text
    }

    static func le32(_ value: UInt32) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * UInt32($0))) }
    }

    private static func block(_ type: UInt32, _ body: [UInt8]) -> [UInt8] {
        let length = UInt32(12 + body.count)
        return le32(type) + le32(length) + body + le32(length)
    }

    private static func ethernetUDP(payload: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0x08, 0x00]
        let total = 20 + 8 + payload.count
        out += [0x45, 0, UInt8(total >> 8), UInt8(total & 0xFF), 0, 0, 0, 0, 64, 17, 0, 0, 10, 0, 0, 1, 10, 0, 0, 2]
        let udp = 8 + payload.count
        out += [0x14, 0xE9, 0x00, 0x35, UInt8(udp >> 8), UInt8(udp & 0xFF), 0, 0]
        return out + payload
    }
}
