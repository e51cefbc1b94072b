import Foundation
import Testing

/// `apm-inspect anonymize`: copies written only into OUT, never beside the inputs; the summary holds no values.
@Suite struct AnonymizeCommandTests {
    /// Every file under `folder` with its size and modification time, to compare before and after a run.
    static func listing(_ folder: String) throws -> [String] {
        let manager = FileManager.default
        let names = try #require(manager.subpaths(atPath: folder)).sorted()
        return try names.map { name in
            let attributes = try manager.attributesOfItem(atPath: folder + "/" + name)
            return "\(name) \(attributes[.size] ?? 0) \(attributes[.modificationDate] ?? 0)"
        }
    }

    static func temporaryFolder() throws -> String {
        let path = NSTemporaryDirectory() + "anonymize-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func aFolderOfReportsIsCopiedIntoOutAndNothingBesideIt() throws {
        let work = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: work) }
        let inputs = work + "/in"
        try FileManager.default.createDirectory(atPath: inputs, withIntermediateDirectories: true)
        let root = BuiltCommandTests.root.path
        for name in [
            "crash/ios14.4_text_exc_bad_access_sigsegv_kern_invalid_address.crash",
            "crash/ios17.2.1_309_json_exc_crash_sigabrt_nsexception_leb_unknown_keys.ips",
            "jetsam/ios13.3.1_iPhone8-2_frontmost-per-process-limit_1450MB.ips",
            "jetsam/ios13.3.1_iPhone8-2_second-report_per-process-limit_1450MB.ips",
            "http/generated_http1_dns.pcap",
        ] {
            try FileManager.default.copyItem(
                atPath: root + "/Corpus/" + name,
                toPath: inputs + "/" + String(name.split(separator: "/").last ?? "")
            )
        }
        let before = try Self.listing(inputs)
        let binary = try BuiltCommandTests.binary()
        let run = try BuiltCommandTests.run(binary, ["anonymize", inputs, "-o", work + "/out", "--format", "json"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try Self.listing(inputs) == before)
        let written = try FileManager.default.contentsOfDirectory(atPath: work + "/out").sorted()
        #expect(written.count == 4)
        #expect(!written.contains { $0.hasSuffix(".pcap") })
        let summary = try #require(
            try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        )
        #expect(summary["written"] as? Int == 4)
        #expect(summary["skipped"] as? Int == 1)
        // Neither the copies nor the summary hold an original identifier.
        for original in ["d54e5650c0d93c4ae24b6fd65aea58a02e15592d", "2C81E17F-3922-4B00-9E4A-15A6AD2951F8"] {
            #expect(!run.stdout.contains(original))
            for name in written {
                let bytes = try String(contentsOfFile: work + "/out/" + name, encoding: .utf8)
                #expect(!bytes.contains(original), "\(original) in \(name)")
            }
        }
        // The two JetsamEvents of one phone share a stand-in key, as they shared the key.
        func key(_ name: String) throws -> String? {
            let text = try String(contentsOfFile: work + "/out/" + name, encoding: .utf8)
            guard let range = text.range(of: #""crashReporterKey"\s*:\s*"[^"]*""#, options: .regularExpression)
            else { return nil }
            return String(text[range])
        }
        let first = try key("ios13.3.1_iPhone8-2_frontmost-per-process-limit_1450MB.ips")
        #expect(first != nil)
        #expect(first == (try key("ios13.3.1_iPhone8-2_second-report_per-process-limit_1450MB.ips")))
    }

    @Test func anOutputInsideOrBesideTheInputsIsRefused() throws {
        let work = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: work) }
        let report = work + "/a.crash"
        try FileManager.default.copyItem(
            atPath: BuiltCommandTests.root.path
                + "/Corpus/crash/ios14.4_text_exc_bad_access_sigsegv_kern_invalid_address.crash",
            toPath: report
        )
        let binary = try BuiltCommandTests.binary()
        let before = try Self.listing(work)
        for arguments in [
            ["anonymize", work, "-o", work + "/out"],
            ["anonymize", report, "-o", report],
            ["anonymize", report, report, "-o", work],
        ] {
            let run = try BuiltCommandTests.run(binary, arguments)
            #expect(run.status == 2, "\(arguments): \(run.stderr)")
            #expect(run.stderr.contains("error: -o "))
        }
        #expect(try Self.listing(work) == before)
    }

    @Test func oneReportFromStandardInputGoesToTheFileNamed() throws {
        let work = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: work) }
        let source =
            BuiltCommandTests.root.path + "/Corpus/crash/ios14.4_text_exc_bad_access_sigsegv_kern_invalid_address.crash"
        let binary = try BuiltCommandTests.binary()
        let run = try BuiltCommandTests.run(
            binary,
            ["anonymize", "-", "-o", work + "/copy.crash", "--salt", "x"],
            stdin: source
        )
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("- -> "))
        #expect(run.stdout.contains("crashReporterKey 1"))
        let copy = try String(contentsOfFile: work + "/copy.crash", encoding: .utf8)
        #expect(copy.contains("<d61e2520a303382fb51d1d5d1c045cb6>"))
        #expect(!copy.contains("d54e5650c0d93c4ae24b6fd65aea58a02e15592d"))
        let again = try BuiltCommandTests.run(
            binary,
            ["anonymize", source, "-o", work + "/again.crash", "--salt", "x"]
        )
        #expect(again.status == 0)
        #expect(try String(contentsOfFile: work + "/again.crash", encoding: .utf8) == copy)
    }

    @Test func aNamedPacketCaptureIsAnError() throws {
        let work = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: work) }
        let run = try BuiltCommandTests.run(
            try BuiltCommandTests.binary(),
            ["anonymize", "Corpus/http/generated_http1_dns.pcap", "-o", work + "/x.pcap"]
        )
        #expect(run.status == 1)
        #expect(run.stderr.contains("packet capture is not rewritten"))
        #expect(!FileManager.default.fileExists(atPath: work + "/x.pcap"))
    }

    @Test func theReportsOfASysdiagnoseAreWrittenAsSeparateFiles() throws {
        let work = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: work) }
        let archive = "Corpus/sysdiagnose/sysdiagnose_2024.03.01_10-20-30-0800_iPhone-OS_iPhone_21D61.tar.gz"
        let before = try Self.listing(BuiltCommandTests.root.path + "/Corpus/sysdiagnose")
        let run = try BuiltCommandTests.run(
            try BuiltCommandTests.binary(),
            ["anonymize", archive, "-o", work + "/out", "--salt", "a"]
        )
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try Self.listing(BuiltCommandTests.root.path + "/Corpus/sysdiagnose") == before)
        let written = try FileManager.default.contentsOfDirectory(atPath: work + "/out").sorted()
        #expect(written.contains("Lumen-2024-02-28-101500.ips"))
        #expect(written.contains("JetsamEvent-2024-02-20-080000.ips"))
        // Members that are not reports (ps.txt, SystemVersion.plist) are listed as skipped, never copied.
        #expect(!written.contains("ps.txt"))
        #expect(run.stdout.contains("ps.txt: skipped: "))
    }
}
