import Foundation
import Testing

@testable import APMInspectCore

extension Diagnostic.Code {
    fileprivate static let testA = Self("test.a")
    fileprivate static let testB = Self("test.b")
}

@Suite struct DiagnosticLogTests {
    @Test func eachKindIsListedUpToItsCapThenCounted() {
        var log = DiagnosticLog(perKind: 3, total: 100)
        var made = 0
        for index in 0..<10 {
            log.add(
                .testA,
                .warning,
                {
                    made += 1
                    return "a \(index)"
                }(),
                at: SourceLocation(byteOffset: index)
            )
        }
        log.add(.testB, .note, "b", at: nil)
        let all = log.finished()
        #expect(all.map(\.code) == [.testA, .testA, .testA, .testB, .moreNotListed])
        // wording: the note counts what it stands for and names their code.
        #expect(all.last?.message == "7 more of the same (test.a) not listed")
        #expect(all.first?.location?.byteOffset == 0)
        // Messages of the diagnostics left out are never made.
        #expect(made == 3)
    }

    @Test func theTotalCapsKindsAndDiagnostics() {
        var log = DiagnosticLog(perKind: 2, total: 4)
        for kind in 0..<10 { log.add(Diagnostic.Code("test.kind-\(kind)"), .warning, "m\(kind)", at: nil) }
        let all = log.finished()
        #expect(all.prefix(4).map(\.code.rawValue) == (0..<4).map { "test.kind-\($0)" })
        #expect(all.filter { $0.code == .moreKindsNotListed }.count == 1)
        #expect(all.count == 5)
    }

    @Test func listsCutByTheTotalAreCountedPerKind() {
        var log = DiagnosticLog(perKind: 5, total: 3)
        for _ in 0..<4 { log.add(.testA, .warning, "x", at: nil) }
        log.add(.testB, .warning, "y", at: nil)
        #expect(
            log.finished().map(\.code) == [.testA, .testA, .testA, .moreNotListed, .moreNotListed]
        )
    }
}

@Suite struct LineStartIndexTests {
    @Test(arguments: [0, 1, 2, 3, 4, 5])
    func answersAsTheScanFromTheStartDoes(seed: UInt64) {
        var state = seed &* 0x9E37_79B9_7F4A_7C15 &+ 1
        func next() -> UInt64 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return state
        }
        let length = Int(next() % 3_000)
        let bytes = (0..<length).map { _ in next() % 7 == 0 ? UInt8(0x0A) : UInt8(0x61 + next() % 26) }
        let index = LineStartIndex()
        for offset in [-5, 0, length, length + 9] + (0..<200).map({ _ in Int(next() % UInt64(length + 1)) }) {
            #expect(
                index.location(in: bytes, byteOffset: offset) == TextPosition.location(in: bytes, byteOffset: offset)
            )
        }
    }

    @Test func anEmptyBufferIsLineOneColumnOne() {
        let location = LineStartIndex().location(in: [UInt8](), byteOffset: 3)
        #expect(location.line == 1 && location.column == 1 && location.byteOffset == 0)
    }

    @Test func manyLookupsInALargeDocumentStayCheap() throws {
        // 100,000 values a line each: every lookup used to scan from the start; each must still land on its own line.
        let text = "[" + Array(repeating: "\"x\"", count: 100_000).joined(separator: ",\n") + "]"
        let document = try JSONDocument(text: text)
        var wrong = 0
        var count = 0
        for element in document.root.elements {
            count += 1
            if document.location(ofByte: element.byteOffset).line != count { wrong += 1 }
        }
        #expect(count == 100_000)
        #expect(wrong == 0)
    }
}

@Suite struct DiagnosticCodeTests {
    @Test(arguments: ["archive.member-too-large", "a.b", "har.bad-timing", "input.unreadable-body", "x.y2.z-3"])
    func wellFormed(_ raw: String) {
        #expect(Diagnostic.Code(raw).isWellFormed)
    }

    @Test(arguments: ["", "archive", "Archive.member", "a..b", "a.-b", "a.b-", "a.b c", "a.b_c", ".a", "a."])
    func malformed(_ raw: String) {
        #expect(!Diagnostic.Code(raw).isWellFormed)
    }

    @Test func theCodeIsWrittenBesideTheMessageAndReadBack() throws {
        let diagnostic = Diagnostic(.warning, .archiveTruncated, "cut", at: SourceLocation(byteOffset: 4))
        let direct = try SortedJSONEncoder().encode(diagnostic)
        #expect(direct.contains(#""code":"archive.truncated""#))
        let sorted = JSONEncoder()
        sorted.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let encoded = try sorted.encode(diagnostic)
        // The direct writer and the synthesised encoding agree, key for key.
        #expect(String(decoding: encoded, as: UTF8.self) == direct)
        #expect(try JSONDecoder().decode(Diagnostic.self, from: encoded) == diagnostic)
        // JSON from before codes existed still reads, with a code that says so.
        let old = Data(#"{"severity":"note","message":"m"}"#.utf8)
        #expect(try JSONDecoder().decode(Diagnostic.self, from: old).code == .uncoded)
    }

    @Test func anInputErrorKeepsItsCodeUnderInput() {
        let error = InputError(.syntax, "not JSON", at: SourceLocation(byteOffset: 1))
        let diagnostic = Diagnostic.input(.error, error)
        #expect(diagnostic.code.rawValue == "input.syntax")
        #expect(diagnostic.location == error.location)
    }
}

@Suite struct DiagnosticLogGroupTests {
    /// A group splits one code's cap: each field's mistyped values are listed up to the cap on their own.
    @Test func aGroupIsCappedOnItsOwn() {
        var log = DiagnosticLog(perKind: 2, total: 100)
        for _ in 0..<5 { log.add(.archiveTruncated, .warning, "s", at: nil, group: "states") }
        log.add(.archiveTruncated, .warning, "r", at: nil, group: "rpages")
        let all = log.finished()
        #expect(all.filter { $0.code == .archiveTruncated }.map(\.message) == ["s", "s", "r"])
        #expect(all.filter { $0.code == .moreNotListed }.count == 1)
    }
}
