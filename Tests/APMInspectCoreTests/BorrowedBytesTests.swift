import ByteAccess
import FuzzReplaySupport
import Testing

/// ``BorrowedBytes`` and ``ByteCursor``: every read past the end is nil or a failure, never a trap, and the fast
/// searches agree with a plain loop.
@Suite struct BorrowedBytesTests {
    @Test func readsOutsideTheBytesAreNil() {
        [UInt8]([1, 2, 3]).withBorrowedBytes { bytes in
            #expect(bytes[0] == 1 && bytes[2] == 3)
            #expect(bytes[-1] == nil && bytes[3] == nil && bytes[Int.max] == nil && bytes[Int.min] == nil)
            #expect(bytes.uint16(at: 1) == 0x0203 && bytes.uint16(at: 1, bigEndian: false) == 0x0302)
            #expect(bytes.uint16(at: 2) == nil && bytes.uint32(at: 0) == nil && bytes.uint64(at: Int.max) == nil)
            #expect(bytes.word(at: 0) == nil)
            #expect(bytes.slice(2..<100).array == [3] && bytes.slice(-5..<1).array == [1])
            #expect(bytes.slice(from: 9).isEmpty && bytes.prefix(-1).isEmpty)
        }
    }

    @Test func scratchBytesReadBackWhatWasWrittenAndNoMore() {
        let mime = Array("  Application/JSON; charset=utf-8".utf8)
        let essence = withScratchElements(of: UInt8.self, count: 16) { scratch -> [UInt8] in
            for (k, byte) in mime[2..<18].enumerated() { scratch[k] = byte &- 0x41 < 26 ? byte | 0x20 : byte }
            #expect(scratch.borrowedBytes(count: 16).equals("application/json"))
            #expect(scratch.borrowedBytes(count: 11).equals("application"))
            #expect(scratch.borrowedBytes(count: -3).isEmpty)
            return scratch.borrowedBytes(count: 99).array
        }
        #expect(essence == Array("application/json".utf8))
    }

    @Test func substringSearchAgreesWithAPlainLoop() {
        var random = SeededGenerator(seed: 0xB17E_5EA6)
        for _ in 0..<2_000 {
            let text = (0..<random.below(80)).map { _ in random.pick([0x61, 0x62, 0x0A]) as UInt8 }
            let pattern = (0..<(1 + random.below(4))).map { _ in random.pick([0x61, 0x62, 0x0A]) as UInt8 }
            let start = random.below(10)
            var expected: Int?
            if pattern.count <= text.count, start <= text.count - pattern.count {
                expected = (start...(text.count - pattern.count)).first {
                    Array(text[$0..<($0 + pattern.count)]) == pattern
                }
            }
            let found = text.withBorrowedBytes { $0.firstIndex(of: pattern, from: start) }
            #expect(found == expected, "\(text) \(pattern) from \(start)")
            let byte = text.withBorrowedBytes { $0.firstIndex(of: pattern[0], from: start) }
            #expect(byte == (start < text.count ? text[start...].firstIndex(of: pattern[0]) : nil))
        }
    }

    @Test func literalComparisons() {
        Array("HTTP/1.1 200 OK".utf8).withBorrowedBytes { bytes in
            #expect(bytes.hasPrefix("HTTP/1.") && bytes.hasSuffix(" OK") && !bytes.hasSuffix("HTTP/1.1 200 OK!"))
            #expect(bytes.equals("HTTP/1.1 200 OK") && !bytes.equals("HTTP/1.1"))
            #expect(bytes.contains("200") && bytes.firstIndex(of: "200") == 9 && bytes.lastIndex(of: "T") == 2)
            #expect(bytes.matches("OK", at: 13) && !bytes.matches("OK", at: 14) && !bytes.matches("OK", at: -1))
        }
    }

    @Test func cursorReadsLEB128AndFailsWithoutMoving() throws {
        try [UInt8]([0xE5, 0x8E, 0x26, 0x7F, 0x80]).withBorrowedBytes { (bytes) throws(ByteCursorFailure) in
            var cursor = ByteCursor(bytes)
            #expect(try cursor.readULEB128() == 624_485)
            #expect(try cursor.readSLEB128() == -1)
            #expect(throws: ByteCursorFailure.truncatedLEB128(offset: 4)) { try cursor.readULEB128() }
            #expect(cursor.offset == 4)
            #expect(throws: ByteCursorFailure.truncated(needed: 2, offset: 4)) {
                try cursor.readUnsigned(size: 2, littleEndian: true)
            }
            #expect(throws: ByteCursorFailure.outside(offset: 6)) { try cursor.seek(to: 6) }
        }
        let overlong = [UInt8](repeating: 0x80, count: 10) + [0]
        overlong.withBorrowedBytes { bytes in
            var cursor = ByteCursor(bytes)
            #expect(throws: ByteCursorFailure.overlongLEB128(offset: 0)) { try cursor.readULEB128() }
        }
        let tooBig: [UInt8] = [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02]
        tooBig.withBorrowedBytes { bytes in
            var cursor = ByteCursor(bytes)
            #expect(throws: ByteCursorFailure.overflowingLEB128(offset: 0)) { try cursor.readULEB128() }
        }
    }

    @Test func cStringsNeedTheirTerminator() throws {
        try Array("ab\0c".utf8).withBorrowedBytes { (bytes) throws(ByteCursorFailure) in
            var cursor = ByteCursor(bytes)
            #expect(try cursor.readCStringRange() == 0..<2)
            #expect(throws: ByteCursorFailure.unterminated(offset: 3)) { try cursor.readCStringRange() }
        }
    }
}
