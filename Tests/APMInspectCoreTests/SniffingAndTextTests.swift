import Testing

@testable import APMInspectCore

@Suite struct SniffingAndTextTests {
    private static let sniffCases: [([UInt8], ContentFormat)] = [
        (Array("{\"bug_type\":\"298\"}\n{}".utf8), ContentFormat.ips),
        (Array("{\n \"product\" : 1}".utf8), .json),
        (Array("Incident Identifier: 1\nHardware Model: iPhone8,2\n".utf8), .crashText),
        (Array("SQLite format 3".utf8) + [0, 1, 2], .sqlite),
        ([0x1F, 0x8B, 8, 0], .gzip),
        ([0xD4, 0xC3, 0xB2, 0xA1, 2, 0], .pcap),
        ([0x0A, 0x0D, 0x0D, 0x0A, 0, 0], .pcapng),
        ([0x78, 0x9C, 1, 2], .zlib),
        (Array("hello world".utf8), .text),
        ([0, 1, 2, 3, 200], .binary),
        ([], .empty),
        (Array(#"timestamp":"x","bug_type":"298"}"#.utf8) + [0x0A, 0x7B, 0x7D], .ips),
        (Array(#"{"bug_type":"298"}"#.utf8) + [0x0A, 0x00, 0x01, 0xFF], .ips),
    ]

    @Test(arguments: sniffCases)
    func sniffsByContent(bytes: [UInt8], expected: ContentFormat) {
        #expect(ContentSniffer.format(of: bytes) == expected)
    }

    @Test func parsesAppleTimestamps() throws {
        let time = try #require(AppleTimestamp("2016-04-15 23:52:13.13 +0200"))
        #expect(time.iso8601 == "2016-04-15T23:52:13.13+02:00")
        #expect(time.utcOffsetSeconds == 7200)
        #expect(abs(time.secondsSince1970 - 1_460_757_133.13) < 0.001)
        #expect(AppleTimestamp("2021-12-16T05:54:00Z")?.iso8601 == "2021-12-16T05:54:00+00:00")
        #expect(AppleTimestamp("2019-10-10 23:30:39.4812 -0700")?.fractionDigits == "4812")
        #expect(AppleTimestamp("2019-13-10 23:30:39 -0700") == nil)
        #expect(AppleTimestamp("yesterday") == nil)
    }

    @Test func splitsOSVersions() {
        let iOS = OSVersion(parsing: "iPhone OS 13.3.1 (17D50)")
        #expect(iOS.name == "iPhone OS")
        #expect(iOS.version == "13.3.1")
        #expect(iOS.build == "17D50")
        #expect(iOS.major == 13)
        #expect(iOS.platform == .iOS)
        #expect(!iOS.isBeta)
        #expect(OSVersion(parsing: "iPhone OS 18.0 (22A5350a)").isBeta)
        #expect(OSVersion(parsing: "macOS 14.5 (23F79)").platform == .macOS)
        #expect(OSVersion(parsing: "Watch OS 7.0.1 (18R395)").platform == .watchOS)
    }
}
