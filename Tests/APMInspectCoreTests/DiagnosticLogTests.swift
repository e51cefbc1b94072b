import Testing

@testable import APMInspectCore

@Suite struct DiagnosticLogTests {
    @Test func eachKindIsListedUpToItsCapThenCounted() {
        var log = DiagnosticLog(perKind: 3, total: 100)
        var made = 0
        for index in 0..<10 {
            log.add(
                "a",
                .warning,
                {
                    made += 1
                    return "a \(index)"
                }(),
                at: SourceLocation(byteOffset: index)
            )
        }
        log.add("b", .note, "b", at: nil)
        let all = log.finished()
        #expect(all.map(\.message) == ["a 0", "a 1", "a 2", "b", "7 more of the same (a) not listed"])
        #expect(all.first?.location?.byteOffset == 0)
        // Messages of the diagnostics left out are never made.
        #expect(made == 3)
    }

    @Test func theTotalCapsKindsAndDiagnostics() {
        var log = DiagnosticLog(perKind: 2, total: 4)
        for kind in 0..<10 { log.add("kind \(kind)", .warning, "m\(kind)", at: nil) }
        let all = log.finished()
        #expect(all.prefix(4).map(\.message) == ["m0", "m1", "m2", "m3"])
        #expect(all.contains { $0.message == "6 more diagnostics of other kinds not listed" })
        #expect(all.count == 5)
    }

    @Test func listsCutByTheTotalAreCountedPerKind() {
        var log = DiagnosticLog(perKind: 5, total: 3)
        for _ in 0..<4 { log.add("x", .warning, "x", at: nil) }
        log.add("y", .warning, "y", at: nil)
        #expect(
            log.finished().map(\.message) == [
                "x", "x", "x", "1 more of the same (x) not listed", "1 more of the same (y) not listed",
            ]
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
