import Testing

@testable import APMInspectCore

@Suite struct TarReaderTests {
    private func read(_ bytes: [UInt8], options: TarReader.Options = .init()) throws -> ([TarEntry], [Diagnostic]) {
        var entries: [TarEntry] = []
        let diagnostics = try TarReader(options: options).read(bytes: bytes) { entries.append($0) }
        return (entries, diagnostics)
    }

    private static let report = Array("{\"bug_type\":\"298\"}\n{}\n".utf8)

    @Test(arguments: [false, true])
    func readsMembersPlainAndCompressed(compressed: Bool) throws {
        let tar = TarFixture.tar([
            .init(name: "sysdiagnose_x/", type: UInt8(ascii: "5")),
            .init(name: "sysdiagnose_x/crashes_and_spins/JetsamEvent-2024-01-01.ips", data: Self.report),
            .init(name: "./sysdiagnose_x//logs/empty.txt"),
        ])
        let (entries, diagnostics) = try read(compressed ? TarFixture.gzip(tar) : tar)
        #expect(
            entries.map(\.path) == [
                "sysdiagnose_x", "sysdiagnose_x/crashes_and_spins/JetsamEvent-2024-01-01.ips",
                "sysdiagnose_x/logs/empty.txt",
            ]
        )
        #expect(entries[0].kind == .directory)
        #expect(entries[1].data == Self.report)
        #expect(diagnostics.isEmpty)
    }

    @Test func traversalAndAbsolutePathsAreSkipped() throws {
        let tar = TarFixture.tar([
            .init(name: "../../etc/passwd", data: Array("x".utf8)),
            .init(name: "/etc/shadow", data: Array("y".utf8)),
            .init(name: "a/../../escape", data: Array("z".utf8)),
            .init(name: "a/./b/../ok.ips", data: Self.report),
        ])
        let (entries, diagnostics) = try read(tar)
        #expect(entries.map(\.path) == ["a/ok.ips"])
        #expect(diagnostics.filter { $0.message.contains("climbs out") }.count == 3)
    }

    @Test func linksAreReportedNotFollowed() throws {
        let tar = TarFixture.tar([
            .init(name: "link.ips", type: UInt8(ascii: "2"), link: "/etc/passwd"),
            .init(name: "hard.ips", type: UInt8(ascii: "1"), link: "../../etc/shadow"),
        ])
        let (entries, diagnostics) = try read(tar)
        #expect(entries.first?.kind == .symbolicLink(target: "/etc/passwd"))
        #expect(entries.last?.kind == .hardLink(target: "../../etc/shadow"))
        #expect(entries.allSatisfy { $0.data.isEmpty })
        #expect(diagnostics.filter { $0.message.contains("not followed") }.count == 2)
    }

    @Test func bombsAreBounded() throws {
        let zeros = [UInt8](repeating: 0, count: 3 << 20)
        let tar = TarFixture.tar([.init(name: "big.bin", data: zeros)])
        let options = TarReader.Options(maxTotalBytes: 1 << 20, maxEntries: 10, maxEntryBytes: 1 << 19)
        #expect(throws: InputError.self) { try read(TarFixture.gzip(tar), options: options) }
        let generous = TarReader.Options(maxTotalBytes: 1 << 24, maxEntries: 10, maxEntryBytes: 1 << 19)
        let (entries, diagnostics) = try read(tar, options: generous)
        #expect(entries.first?.skippedForSize == true)
        #expect(diagnostics.contains { $0.message.contains("over the") })
        let many = TarFixture.tar((0..<20).map { .init(name: "f\($0).txt", data: [1]) })
        let (few, stop) = try read(many, options: generous)
        #expect(few.count == 10)
        #expect(stop.contains { $0.message.contains("more than 10 members") })
    }

    @Test func truncationKeepsEarlierMembers() throws {
        // Incompressible bytes in the second member, so cutting the compressed tail cuts only that member.
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        let noise = (0..<4000).map { _ -> UInt8 in
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: seed >> 33)
        }
        let tar = TarFixture.tar([.init(name: "one.ips", data: Self.report), .init(name: "two.ips", data: noise)])
        let cut = Array(tar.prefix(1024 + 512 + 1000))
        let (entries, diagnostics) = try read(cut)
        #expect(entries.map(\.path) == ["one.ips"])
        #expect(diagnostics.contains { $0.message.contains("truncated") })
        let gzCut = Array(TarFixture.gzip(tar).dropLast(1500))
        let (gzEntries, gzDiagnostics) = try read(gzCut)
        #expect(gzEntries.first?.path == "one.ips")
        #expect(gzDiagnostics.contains { $0.message.contains("truncated") })
    }

    @Test func damagedHeaderStopsWithAFinding() throws {
        var tar = TarFixture.tar([.init(name: "a.ips", data: Self.report), .init(name: "b.ips", data: Self.report)])
        tar[1024 + 10] ^= 0xFF
        let (entries, diagnostics) = try read(tar)
        #expect(entries.map(\.path) == ["a.ips"])
        #expect(diagnostics.contains { $0.message.contains("checksum") })
    }

    @Test func sysdiagnoseNamesAndDumpstate() throws {
        var facts = try #require(
            SysdiagnoseFacts(name: "/x/sysdiagnose_2023.05.24_13-29-15-0700_iPhone-OS_iPhone_19H349.tar.gz")
        )
        #expect(facts.date?.iso8601 == "2023-05-24T13:29:15-07:00")
        #expect(facts.platform == "iPhone-OS")
        #expect(facts.device == "iPhone")
        #expect(facts.osBuild == "19H349")
        facts.readDumpstate("Local device\n\tProperties:\n\t\tProductType => iPhone14,2\n\t\tOSVersion => 15.7.6\n")
        #expect(facts.productType == "iPhone14,2")
        #expect(facts.osVersion == "15.7.6")
        #expect(SysdiagnoseFacts(name: "reports.tar.gz") == nil)
        let old = try #require(
            SysdiagnoseFacts(name: "sysdiagnose_2019.02.13_15-50-14+0100_iPhone_OS_iPhone_16C101.tar.gz")
        )
        #expect(old.platform == "iPhone_OS")
        #expect(old.osBuild == "16C101")
    }
}
