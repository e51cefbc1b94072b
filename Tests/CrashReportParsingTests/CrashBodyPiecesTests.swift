import APMInspectCore
import Testing

@testable import CrashReportParsing

/// A JSON body cut into pieces by a stray `}`: every piece is read as the body, and each is located.
///
/// From `apm-inspect fuzz --seed 1 --iterations 2000 Tests/SymbolicationTests/Fixtures` (finding
/// `ips-dropped-unknown-key-f54476f4`): the lenient reader closed the body at the stray brace and read the members
/// after it as an object without braces; the parser kept only the object with crash keys and dropped the other,
/// the added unknown key with it, with a note (no location) about "text after the JSON body".
@Suite struct CrashBodyPiecesTests {
    private func parse(_ text: String) throws -> CrashParseResult {
        try CrashReportParser().parse(Array(text.utf8))
    }

    private static let header309 =
        #"{"app_name":"Quill","timestamp":"2024-01-18 14:02:51.00 -0500","bug_type":"309","os_version":"iPhone OS 17.2.1 (21C66)","name":"Quill"}"#

    private static let threads =
        #""threads":[{"id":812744,"triggered":true,"frames":[{"imageOffset":4705932,"imageIndex":0}]}],"#
        + #""usedImages":[{"base":4308647936,"size":3833856,"name":"Quill","uuid":"BA653F7D-D052-38F8-BABE-C9CB4861DD33"}]"#

    private static let exception = #""exception":{"type":"EXC_CRASH","signal":"SIGABRT"}"#

    private func pieceWarnings(_ result: CrashParseResult) -> [Diagnostic] {
        result.diagnostics.filter { $0.code == .jsonBodyInPieces }
    }

    /// The fuzz finding's minimised input (a header cut at the front, then a body whose `{` a stray `}` closes two
    /// lines on), with the key the fuzz worker adds after the body's `{`.
    @Test func theFuzzFindingKeepsTheKeyBeforeTheStrayBrace() throws {
        let header =
            #"amp":"2026-11.demo","sharet_party":0,"bug_type":"309","os_version":"iPhone OS 16.1 (20B82)","#
            + #""roots_instaident_id":"2F2B1A0F9E"}"#
        let body = "{\"apmInspectFuzzUnknownKey\":1,\n.demo\"\n  },\n : 1,\n ,\n  \"exception\": {\n    \"codes\": \""
        let result = try parse(header + "\n" + body)
        #expect(result.report.unknownKeys?["apmInspectFuzzUnknownKey"] == .number("1"))
        #expect(result.report.exception != nil)
        let warning = try #require(pieceWarnings(result).first)
        #expect(warning.severity == .warning)
        // wording: the warning counts the members it kept.
        #expect(warning.message.contains("1 member(s)"))
        // The piece with the key: line 2, the body's `{`.
        #expect(warning.location?.line == 2)
        #expect(warning.location?.column == 1)
        #expect(warning.location?.byteOffset == header.utf8.count + 1)
        #expect(!result.diagnostics.contains { $0.code == .crashTextBesideBody })
    }

    /// The same finding from seed 4 (Corpus/crash, jetsam and watchdog and the fixtures' reports, 3000 inputs): the
    /// piece before the brace repeats the body's `bug_type`, which made it look like a header object.
    @Test func aPieceWithTheBodysBugTypeIsNotAHeader() throws {
        let header = #"party":0,"bug_type":"309","oon":"iPhon2)","roots__id":"2F6B1E"}"#
        let body =
            "{\"apmInspectFuzzUnknownKey\":1,\n  \"uplled\": 0,\n  \"bug_type\": \"30\"\"\n  }\"00\",\n"
            + "  \"procName\" : \"Harbor\",\n  \"pr"
        let result = try parse(header + "\n" + body)
        #expect(result.report.process == "Harbor")
        #expect(result.report.unknownKeys?["apmInspectFuzzUnknownKey"] == .number("1"))
        #expect(result.report.unknownKeys?["uplled"] == .number("0"))
        #expect(pieceWarnings(result).first?.location?.line == 2)
        #expect(!result.diagnostics.contains { $0.code == .jsonHeaderObjectInBody })
    }

    @Test func knownAndUnknownKeysOnBothSidesOfTheBraceAreRead() throws {
        let body =
            #"{"procName":"Quill","pid":3344,"futureKey":[1,2],"procRole":"Foreground""# + "\n},\n"
            + #""faultingThread":0,"# + Self.exception + "," + Self.threads + "}"
        let result = try parse(Self.header309 + "\n" + body)
        let report = result.report
        #expect(report.process == "Quill")
        #expect(report.pid == 3344)
        #expect(report.role == "Foreground")
        #expect(report.exception?.signal == "SIGABRT")
        #expect(report.threads.count == 1)
        #expect(report.crashedThread == 0)
        #expect(report.binaryImages.count == 1)
        #expect(report.unknownKeys?["futureKey"] == .array([.number("1"), .number("2")]))
        let warnings = pieceWarnings(result)
        #expect(warnings.count == 1)
        // The members after the brace, which start on line 4 of the file.
        #expect(warnings.first?.location?.line == 4)
    }

    @Test func membersAfterTheBraceOfAWholeBodyAreKept() throws {
        let body =
            #"{"procName":"Quill","# + Self.exception + "," + Self.threads + "\n},\n"
            + #""futureKey":"after","pid":7}"#
        let result = try parse(Self.header309 + "\n" + body)
        #expect(result.report.pid == 7)
        #expect(result.report.unknownKeys?["futureKey"] == .string("after"))
        #expect(pieceWarnings(result).first?.location?.line == 4)
    }

    /// Known keys repeated across pieces: the first in the file is read, as within one object.
    @Test func aRepeatedKeyReadsTheFirstPiece() throws {
        let body = #"{"pid":1"# + "\n},\n" + #""procName":"Quill","pid":2,"# + Self.threads + "}"
        let result = try parse(Self.header309 + "\n" + body)
        #expect(result.report.pid == 1)
        #expect(result.report.process == "Quill")
    }

    @Test func aSecondWholeReportIsNotMergedAndIsLocated() throws {
        let first = #"{"procName":"Quill","pid":1,"# + Self.exception + "," + Self.threads + "}"
        let second = #"{"procName":"Other","pid":2,"otherKey":true,"# + Self.exception + "," + Self.threads + "}"
        let result = try parse(Self.header309 + "\n" + first + "\n" + second)
        #expect(result.report.process == "Quill")
        #expect(result.report.pid == 1)
        #expect(result.report.unknownKeys == nil)
        let warning = try #require(result.diagnostics.first { $0.code == .crashSecondBodyIgnored })
        #expect(warning.location?.line == 3)
        #expect(pieceWarnings(result).isEmpty)
    }

    /// A header line too long to be one is read as body: its members are kept with the body's, and said to be so.
    @Test func aHeaderObjectInTheBodyIsKeptAndLocated() throws {
        let body = #"{"procName":"Quill","# + Self.exception + "," + Self.threads + "}"
        let container = IPSContainer(bytes: Array((Self.header309 + "\n" + body).utf8), maxHeaderLineBytes: 16)
        #expect(container.header == nil)
        let result = try CrashReportParser().parse(container)
        #expect(result.report.process == "Quill")
        #expect(result.report.unknownKeys?["app_name"] == .string("Quill"))
        let warning = try #require(result.diagnostics.first { $0.code == .jsonHeaderObjectInBody })
        #expect(warning.location?.line == 1)
    }

    @Test func textAfterTheBodyIsLocated() throws {
        let body = #"{"procName":"Quill","# + Self.exception + "," + Self.threads + "}"
        let result = try parse(Self.header309 + "\n" + body + "\n\nSystem Profile:\nModel: MacBookPro18,3, 8 cores\n")
        #expect(result.report.process == "Quill")
        let note = try #require(result.diagnostics.first { $0.code == .crashTextBesideBody })
        #expect(note.location?.line == 5)
    }

    /// A 308 (OS fault) is read as a crash report when its body is shaped like one, in pieces too.
    @Test func aBodyInPiecesCanBeCrashShaped() throws {
        let header = #"{"bug_type":"308","os_version":"iPhone OS 17.4 (21E219)","name":"Quill"}"#
        let body = "{" + Self.threads + "\n},\n" + Self.exception + "}"
        let container = IPSContainer(bytes: Array((header + "\n" + body).utf8))
        #expect(CrashReportParser.isCrashReport(container))
        let result = try CrashReportParser().parse(container)
        #expect(result.report.exception?.type == "EXC_CRASH")
        #expect(result.report.threads.count == 1)
    }

    /// `translate` reads its extras from the same pieces as the report.
    @Test func theTranslationReadsThePiecesToo() throws {
        let body =
            #"{"procName":"Quill","faultingThread":0,"# + Self.exception + "\n},\n" + Self.threads
            + #","bundleInfo":{"DTAppStoreToolsBuild":"15C500"}}"#
        let translation = try CrashTextTranslator().translation(of: Array((Self.header309 + "\n" + body).utf8))
        #expect(translation.text.contains("15C500"))
    }

    /// A known key met again (here in the piece after the stray brace) is not read by its field, which takes the
    /// first; its value is kept in unknownKeys and the warning points at it, so nothing goes unsaid.
    @Test func aKnownKeyRepeatedInALaterPieceIsKeptAndLocated() throws {
        let body =
            #"{"procName":"Quill","pid":3344"# + "\n},\n"
            + #""pid":9999,"# + Self.exception + "," + Self.threads + "}"
        let result = try parse(Self.header309 + "\n" + body)
        #expect(result.report.pid == 3344)
        #expect(result.report.unknownKeys?["pid"] == .number("9999"))
        let warning = try #require(result.diagnostics.first { $0.code == .crashRepeatedKey })
        #expect(warning.severity == .warning)
        #expect(warning.location?.line == 4)
        #expect(warning.location?.column == 7)
    }

    /// The same in one whole object: strict JSON allows the repeat, and the later value used to vanish.
    @Test func aKnownKeyRepeatedInOneObjectIsKept() throws {
        let body =
            #"{"procName":"Quill","procName":"Quill Helper","# + Self.exception + "," + Self.threads + "}"
        let result = try parse(Self.header309 + "\n" + body)
        #expect(result.report.process == "Quill")
        #expect(result.report.unknownKeys?["procName"] == .string("Quill Helper"))
        #expect(result.diagnostics.contains { $0.code == .crashRepeatedKey })
    }

    /// A known key spelled with escapes is not matched by its field; it is kept rather than counted as read.
    @Test func aKnownKeySpelledWithEscapesIsKept() throws {
        let body = #"{"procName":"Quill","p\u0069d":41,"# + Self.exception + "," + Self.threads + "}"
        let result = try parse(Self.header309 + "\n" + body)
        #expect(result.report.pid == nil)
        #expect(result.report.unknownKeys?["pid"] == .number("41"))
        #expect(result.diagnostics.contains { $0.code == .crashEscapedKey })
    }

    /// Kept values never share a name, so the JSON output (one member per name) keeps each: the second unknown
    /// `futureKey` (after a `futureKey#2` the file itself has) and the third `pid` get names of their own.
    @Test func repeatedKeysKeepEveryValueInTheOutput() throws {
        let body =
            #"{"futureKey#2":"c","procName":"Quill","pid":1,"futureKey":"a","pid":2,"futureKey":"b","pid":3,"#
            + Self.exception + "," + Self.threads + "}"
        let result = try parse(Self.header309 + "\n" + body)
        #expect(result.report.pid == 1)
        let unknown = try #require(result.report.unknownKeys)
        #expect(unknown["pid"] == .number("2"))
        #expect(unknown["pid#2"] == .number("3"))
        #expect(unknown["futureKey"] == .string("a"))
        #expect(unknown["futureKey#3"] == .string("b"))
        #expect(unknown["futureKey#2"] == .string("c"))
        let json = try SortedJSONEncoder().encode(result.report)
        for value in [
            #""pid":2"#, #""pid#2":3"#, #""futureKey":"a""#, #""futureKey#3":"b""#,
            #""futureKey#2":"c""#,
        ] {
            #expect(json.contains(value), "\(value) missing from the output")
        }
    }

    @Test func distinctNamesSkipNamesAlreadyTaken() {
        var kept: [String: Int] = [:]
        let names = ["a", "a", "a#2", "a", "b"].map { CrashJSONReader.distinctName($0, among: &kept) }
        #expect(names == ["a", "a#2", "a#2#2", "a#3", "b"])
    }

    /// Many repeats are listed a few times and counted, not one diagnostic each.
    @Test func repeatsAreCappedInTheDiagnostics() throws {
        let repeats = (0..<500).map { #""pid":\#($0)"# }.joined(separator: ",")
        let body = #"{"procName":"Quill","# + repeats + "," + Self.exception + "," + Self.threads + "}"
        let result = try parse(Self.header309 + "\n" + body)
        #expect(result.report.pid == 0)
        let listed = result.diagnostics.filter { $0.code == .crashRepeatedKey }
        #expect(listed.count == 5)
        #expect(result.diagnostics.contains { $0.code == .moreNotListed })
    }
}
