import APMInspectCore
import CrashReportParsing
import Foundation
import Testing

@testable import ReportInspection

/// `anonymize`'s library: identifiers replaced consistently, the report still read the same, image UUIDs kept.
@Suite struct ReportAnonymizerTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func corpus(_ relative: String) throws -> [UInt8] {
        Array(try Data(contentsOf: root.appendingPathComponent("Corpus/\(relative)")))
    }

    static func contains(_ haystack: [UInt8], _ needle: String) -> Bool {
        let needle = Array(needle.utf8)
        guard !needle.isEmpty, haystack.count >= needle.count else { return false }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if Array(haystack[start..<start + needle.count]) == needle { return true }
        }
        return false
    }

    /// A text crash report of an app in its container, run from a Mac user's folder, with two binary images.
    static func textReport(key: String, incident: String, user: String, container: String) -> String {
        """
        Incident Identifier: \(incident)
        CrashReporter Key:   \(key)
        Hardware Model:      iPhone12,1
        Process:             Lumen [2211]
        Path:                /private/var/containers/Bundle/Application/\(container)/Lumen.app/Lumen
        Identifier:          com.brightleaf.lumen
        Version:             57 (2.3.1)
        Code Type:           ARM-64 (Native)
        Parent Process:      launchd [1]

        Date/Time:           2021-03-09 19:42:17.3861 +0100
        OS Version:          iPhone OS 14.4 (18D52)
        Report Version:      104

        Exception Type:  EXC_BAD_ACCESS (SIGSEGV)
        Exception Subtype: KERN_INVALID_ADDRESS at 0x0000000000000010
        Triggered by Thread:  0

        Thread 0 Crashed:
        0   Lumen                         \t0x00000001025a4b80 ThumbnailCache.entry(for:) + 64 (/Users/\(user)/src/Lumen/ThumbnailCache.swift:42)
        1   Lumen                         \t0x00000001025a7878 main + 212
        2   libdyld.dylib                 \t0x00000001a3f1f8f0 start + 4

        Binary Images:
        0x1025a0000 - 0x102763fff Lumen arm64  <d61e2520a303382fb51d1d5d1c045cb6> /private/var/containers/Bundle/Application/\(container)/Lumen.app/Lumen
        0x1a3f1e000 - 0x1a3f53fff libdyld.dylib arm64e  <8b3f5a2c71a83b0e9c5b7e8a1c2d3e4f> /usr/lib/system/libdyld.dylib

        """
    }

    @Test func sameValueGetsTheSameStandInAcrossFiles() throws {
        var anonymizer = ReportAnonymizer(salt: Array("s".utf8))
        let key = "d54e5650c0d93c4ae24b6fd65aea58a02e15592d"
        let container = "8EBB5EC6-9562-4143-A70D-D2D459060232"
        let first = Self.textReport(
            key: key,
            incident: "2C81E17F-3922-4B00-9E4A-15A6AD2951F8",
            user: "anna",
            container: container
        )
        let second = Self.textReport(
            key: key,
            incident: "5F0A2B7C-1D3E-4F56-8A9B-0C1D2E3F4A5B",
            user: "anna",
            container: container
        )
        let a = anonymizer.anonymize(Array(first.utf8), path: "a.crash")
        let b = anonymizer.anonymize(Array(second.utf8), path: "b.crash")
        let copyA = try #require(a.bytes, "\(a.diagnostics)")
        let copyB = try #require(b.bytes, "\(b.diagnostics)")
        for original in [key, container, "/Users/anna/", "2C81E17F-3922-4B00-9E4A-15A6AD2951F8"] {
            #expect(!Self.contains(copyA, original), "\(original) left in the copy")
        }
        #expect(!Self.contains(copyB, "5F0A2B7C-1D3E-4F56-8A9B-0C1D2E3F4A5B"))
        let textA = String(decoding: copyA, as: UTF8.self)
        let textB = String(decoding: copyB, as: UTF8.self)
        func value(after label: String, in text: String) -> String? {
            text.split(separator: "\n").first { $0.hasPrefix(label) }.map {
                $0.dropFirst(label.count).trimmingCharacters(in: .whitespaces)
            }
        }
        let keyA = try #require(value(after: "CrashReporter Key:", in: textA))
        #expect(keyA == value(after: "CrashReporter Key:", in: textB))
        #expect(keyA.count == key.count && keyA.allSatisfy(\.isHexDigit) && keyA != key)
        let incidentA = try #require(value(after: "Incident Identifier:", in: textA))
        #expect(incidentA != value(after: "Incident Identifier:", in: textB))
        #expect(UUID(uuidString: incidentA) != nil)
        #expect(value(after: "Path:", in: textA) == value(after: "Path:", in: textB))
        #expect(a.counts[.userName] == 1 && a.counts[.containerUUID] == 2 && a.counts[.crashReporterKey] == 1)
        // Binary image UUIDs are what symbolication matches: never replaced.
        #expect(Self.contains(copyA, "<d61e2520a303382fb51d1d5d1c045cb6>"))
        #expect(Self.contains(copyA, "<8b3f5a2c71a83b0e9c5b7e8a1c2d3e4f>"))
        #expect(anonymizer.table.distinctCount(.crashReporterKey) == 1)
        #expect(anonymizer.table.distinctCount(.incidentIdentifier) == 2)
    }

    @Test func theSaltDecidesTheStandIns() throws {
        let report = Array(
            Self.textReport(
                key: "d54e5650c0d93c4ae24b6fd65aea58a02e15592d",
                incident: "2C81E17F-3922-4B00-9E4A-15A6AD2951F8",
                user: "anna",
                container: "8EBB5EC6-9562-4143-A70D-D2D459060232"
            ).utf8
        )
        var one = ReportAnonymizer(salt: Array("one".utf8))
        var again = ReportAnonymizer(salt: Array("one".utf8))
        var other = ReportAnonymizer(salt: Array("two".utf8))
        let first = try #require(one.anonymize(report, path: "x").bytes)
        #expect(again.anonymize(report, path: "x").bytes == first)
        #expect(other.anonymize(report, path: "x").bytes != first)
    }

    /// Every crash, JetsamEvent, KSCrash, MetricKit and HAR file of the corpus: the copy reads as the same kind with
    /// the same signature (the anonymizer refuses to give a copy otherwise), and its images keep their UUIDs.
    @Test(arguments: ["crash", "jetsam", "kscrash", "metrickit", "watchdog", "system", "http"])
    func corpusCopiesReadTheSame(family: String) throws {
        let folder = Self.root.appendingPathComponent("Corpus/\(family)")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        var anonymizer = ReportAnonymizer(salt: Array("corpus".utf8))
        var copied = 0
        for name in names where name != "README.md" && name != "expected" {
            let path = folder.appendingPathComponent(name).path
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue else {
                continue
            }
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
            let result = anonymizer.anonymize(bytes, path: name)
            #expect(
                !result.diagnostics.contains { $0.code == .anonymizeChangedReport },
                "\(name): \(result.diagnostics)"
            )
            guard let copy = result.bytes else {
                #expect(result.diagnostics.contains { $0.code == .anonymizeUnsupported }, "\(name)")
                continue
            }
            copied += 1
            let original = anonymizer.inspector.inspect(bytes: bytes, path: name)
            let reread = anonymizer.inspector.inspect(bytes: copy, path: name)
            #expect(reread.kind == original.kind, "\(name)")
            if case .crash(let before)? = original.report, case .crash(let after)? = reread.report {
                #expect(after.signature == before.signature, "\(name)")
                #expect(after.binaryImages.map(\.uuid) == before.binaryImages.map(\.uuid), "\(name)")
            }
        }
        #expect(copied > 0)
    }

    @Test func corpusIdentifiersAreGone() throws {
        var anonymizer = ReportAnonymizer(salt: Array("x".utf8))
        let text = try Self.corpus("crash/ios14.4_text_exc_bad_access_sigsegv_kern_invalid_address.crash")
        let copy = try #require(anonymizer.anonymize(text, path: "x").bytes)
        for original in [
            "2C81E17F-3922-4B00-9E4A-15A6AD2951F8", "d54e5650c0d93c4ae24b6fd65aea58a02e15592d",
            "8EBB5EC6-9562-4143-A70D-D2D459060232",
        ] {
            #expect(Self.contains(text, original))
            #expect(!Self.contains(copy, original))
        }
        let json = try Self.corpus("crash/ios17.2.1_309_json_exc_crash_sigabrt_nsexception_leb_unknown_keys.ips")
        let jsonCopy = try #require(anonymizer.anonymize(json, path: "y").bytes)
        #expect(!Self.contains(jsonCopy, "ED53A149-C5B1-43A9-8859-4CE9F19B9973"), "deviceIdentifierForVendor")
        let before = anonymizer.inspector.inspect(bytes: json, path: "y")
        let after = anonymizer.inspector.inspect(bytes: jsonCopy, path: "y")
        guard case .crash(let report)? = before.report, case .crash(let copied)? = after.report else {
            throw Failure.notACrash
        }
        #expect(!report.binaryImages.isEmpty)
        #expect(copied.binaryImages.map(\.uuid) == report.binaryImages.map(\.uuid))
        // As written in the file (with dashes): still there, byte for byte.
        #expect(Self.contains(jsonCopy, "a962c859-38e4-3e5b-a063-64d65f984e9c"))
    }

    enum Failure: Error { case notACrash }

    /// A HAR as browsers write it, with credentials in headers, cookies, and addresses of both families.
    static let har = """
        {"log": {"version": "1.2", "creator": {"name": "WebInspector", "version": "537.36"},
        "entries": [{"startedDateTime": "2024-05-01T10:00:00.000Z", "time": 120,
        "request": {"method": "GET", "url": "https://api.example.com/v1/items?from=10.1.2.3", "httpVersion": "HTTP/2",
          "headers": [{"name": "Authorization", "value": "Bearer eyJhbGciOiJIUzI1NiJ9.c2VjcmV0"},
                      {"value": "session=AbC123; theme=dark", "name": "cookie"}],
          "cookies": [{"name": "session", "value": "AbC123"}], "queryString": [], "headersSize": -1, "bodySize": 0},
        "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/2",
          "headers": [{"name": "Set-Cookie", "value": "session=ZZtop99; Path=/; HttpOnly"},
                      {"name": "Content-Type", "value": "application/json"}],
          "cookies": [{"name": "session", "value": "ZZtop99", "path": "/"}],
          "content": {"size": 2, "mimeType": "application/json"}, "redirectURL": "", "headersSize": -1, "bodySize": 2},
        "cache": {}, "timings": {"send": 1, "wait": 100, "receive": 19},
        "serverIPAddress": "81.2.69.160"},
        {"startedDateTime": "2024-05-01T10:00:01.000Z", "time": 80,
        "request": {"method": "GET", "url": "https://api.example.com/v1/me", "httpVersion": "HTTP/2",
          "headers": [["Proxy-Authorization", "Basic dXNlcjpwYXNz"]], "cookies": [], "queryString": [],
          "headersSize": -1, "bodySize": 0},
        "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/2", "headers": [], "cookies": [],
          "content": {"size": 0, "mimeType": "text/plain"}, "redirectURL": "", "headersSize": -1, "bodySize": 0},
        "cache": {}, "timings": {"send": 1, "wait": 70, "receive": 9},
        "serverIPAddress": "[2a00:1450:4007:80f::200e]"}]}}
        """

    @Test func httpCaptureSecretsAndAddressesAreReplaced() throws {
        var anonymizer = ReportAnonymizer(salt: Array("h".utf8))
        let bytes = Array(Self.har.utf8)
        let result = anonymizer.anonymize(bytes, path: "x.har")
        let copy = try #require(result.bytes, "\(result.diagnostics)")
        for secret in [
            "eyJhbGciOiJIUzI1NiJ9", "AbC123", "ZZtop99", "dXNlcjpwYXNz", "81.2.69.160", "2a00:1450:4007:80f::200e",
            "10.1.2.3",
        ] {
            #expect(!Self.contains(copy, secret), "\(secret) left in the copy")
        }
        let text = String(decoding: copy, as: UTF8.self)
        #expect(text.contains("\"Bearer redacted-"))
        #expect(text.contains("\"Basic redacted-"))
        #expect(text.contains("2001:db8::"))
        #expect(["192.0.2.", "198.51.100.", "203.0.113."].contains { text.contains($0) })
        // Timestamps look like colon-separated runs but are not addresses.
        #expect(text.contains("2024-05-01T10:00:00.000Z"))
        #expect(text.contains("application/json"))
        #expect(result.counts[.httpSecret] == 6)
        #expect(result.counts[.ipAddress] == 3)
        let reread = anonymizer.inspector.inspect(bytes: copy, path: "x.har")
        #expect(reread.kind == .httpArchive && reread.failure == nil)
    }

    @Test func aPacketCaptureIsRefused() throws {
        var anonymizer = ReportAnonymizer(salt: [1])
        let result = anonymizer.anonymize(try Self.corpus("http/generated_http1_dns.pcap"), path: "x.pcap")
        #expect(result.bytes == nil)
        #expect(result.diagnostics.map(\.code) == [.anonymizeUnsupported])
    }

    @Test func hostileInputDoesNotTrap() throws {
        var anonymizer = ReportAnonymizer(salt: [2])
        let report = try Self.corpus("crash/ios17.2.1_309_json_exc_crash_sigabrt_nsexception_leb_unknown_keys.ips")
        for cut in stride(from: 0, to: report.count, by: max(1, report.count / 40)) {
            _ = anonymizer.anonymize(Array(report.prefix(cut)), path: "cut")
        }
        let har = Array(Self.har.utf8)
        for cut in stride(from: 0, to: har.count, by: 37) {
            let result = anonymizer.anonymize(Array(har.prefix(cut)), path: "cut.har")
            if let copy = result.bytes { #expect(!Self.contains(copy, "AbC123;")) }
        }
        // Lines of megabytes without a break, in a text report and in a capture: paths, keys and colons.
        let text = try Self.corpus("crash/ios14.4_text_exc_bad_access_sigsegv_kern_invalid_address.crash")
        var line = "CrashReporter Key: " + String(repeating: "/Users/", count: 200_000)
        line += String(repeating: "a:b:", count: 400_000) + String(repeating: "\"", count: 100_000) + "\n"
        let huge = anonymizer.anonymize(text + Array(line.utf8), path: "huge.crash")
        #expect(huge.kind == .crashReport)
        let hugeHAR = Self.har.replacingOccurrences(
            of: "session=ZZtop99",
            with: String(repeating: "1:2:3:4:", count: 300_000) + String(repeating: "9.9.9.", count: 300_000)
        )
        let hugeCapture = anonymizer.anonymize(Array(hugeHAR.utf8), path: "huge.har")
        #expect(hugeCapture.kind == .httpArchive)
        _ = anonymizer.anonymize([0x1F, 0x8B, 0x08, 0x00], path: "cut.gz")
        _ = anonymizer.anonymize(Array(repeating: UInt8(ascii: "["), count: 100_000), path: "deep.har")
    }
}
