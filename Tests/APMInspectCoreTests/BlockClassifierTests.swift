import ByteAccess
import FuzzReplaySupport
import Testing

@testable import APMInspectCore

/// The classification of a 64-byte block that the bracket matcher skips strings and values with: the SSE2 compares
/// (`block_scan.h`, x86-64) must mark exactly the bytes the 64-bit word classification marks, every byte value at
/// every position, so the matcher gives the same ends on either path (`OpaqueContainerTests` holds the matcher itself
/// to byte-by-byte scans).
@Suite struct BlockClassifierTests {
    private static func expectSame(_ block: [UInt8], _ context: String) {
        block.withBorrowedBytes { buffer in
            let fast = JSONScanning.BlockFlags(buffer, at: 0)
            let words = JSONScanning.BlockFlags(wordsOf: buffer, at: 0)
            #expect(fast.quotes == words.quotes, "\(context) quotes")
            #expect(fast.controls == words.controls, "\(context) controls")
            #expect(fast.brackets == words.brackets, "\(context) brackets")
            // The word classification also sends blocks with `|` to the escape-aware path; both send a backslash.
            let backslash = block.contains(UInt8(ascii: "\\"))
            let bar = block.contains(UInt8(ascii: "|"))
            #expect((fast.escapes != 0) == backslash, "\(context) escapes")
            #expect((words.escapes != 0) == (backslash || bar), "\(context) word escapes")
            var expected: UInt64 = 0
            for (k, byte) in block.enumerated() where byte == UInt8(ascii: "\"") { expected |= 1 << UInt64(k) }
            #expect(fast.quotes == expected, "\(context) quote bits")
        }
    }

    @Test func everyByteValueAtEveryPosition() {
        let filler = [UInt8](repeating: UInt8(ascii: "a"), count: 64)
        for value in 0...255 {
            for position in 0..<64 {
                var block = filler
                block[position] = UInt8(value)
                Self.expectSame(block, "byte \(value) at \(position)")
            }
        }
    }

    @Test func randomBlocksOfJSONBytes() {
        var random = SeededGenerator(seed: 0x626C_6F63)
        let alphabet: [UInt8] =
            Array(#""\{}[]|:, a0"#.utf8) + [0x00, 0x09, 0x0A, 0x1F, 0x20, 0x7F, 0x80, 0xC3, 0xFF, 0x5B | 0x80]
        for round in 0..<20_000 {
            let block = (0..<64).map { _ in
                random.chance() ? alphabet[random.below(alphabet.count)] : UInt8(truncatingIfNeeded: random.next())
            }
            Self.expectSame(block, "round \(round)")
        }
    }

    @Test func blocksAtUnalignedOffsets() {
        var random = SeededGenerator(seed: 0x6F66_6673)
        let bytes = (0..<4096).map { _ in UInt8(truncatingIfNeeded: random.next() % 0x7F) }
        bytes.withBorrowedBytes { buffer in
            for offset in 0..<(4096 - 64) {
                let fast = JSONScanning.BlockFlags(buffer, at: offset)
                let words = JSONScanning.BlockFlags(wordsOf: buffer, at: offset)
                #expect(fast.quotes == words.quotes && fast.brackets == words.brackets, "offset \(offset)")
                #expect(fast.controls == words.controls, "offset \(offset)")
            }
        }
    }

    /// The end of a run of string text, byte by byte: the first quote or control byte not escaped.
    private static func referenceStringRun(_ bytes: [UInt8], from start: Int) -> (end: Int, hasEscapes: Bool) {
        var p = start
        var escapes = false
        while p < bytes.count {
            let b = bytes[p]
            if b == UInt8(ascii: "\"") || b < 0x20 { return (p, escapes) }
            if b == UInt8(ascii: "\\") {
                escapes = true
                p += 2
                continue
            }
            p += 1
        }
        return (bytes.count, escapes)
    }

    /// The string scan's sixteen-byte SSE2 steps end each run where a byte-by-byte scan does: quotes, backslash runs
    /// and control bytes at every offset of a step, and runs ending in the last partial step.
    @Test func stringRunsEndWhereAByteScanEnds() {
        var random = SeededGenerator(seed: 0x7374_7273)
        let alphabet: [UInt8] = Array(#"a\"\/é"#.utf8) + [0x00, 0x0A, 0x1F, 0x20, 0x7F, 0xFF]
        for round in 0..<3_000 {
            let count = random.below(80)
            let plainRun = random.below(4) == 0
            let bytes = (0..<count).map { _ in
                plainRun && random.below(10) > 0 ? UInt8(ascii: "x") : alphabet[random.below(alphabet.count)]
            }
            bytes.withBorrowedBytes { buffer in
                for start in 0...count {
                    let fast = JSONScanning.scanStringRun(buffer, from: start)
                    let reference = Self.referenceStringRun(bytes, from: start)
                    #expect(fast.end == reference.end, "round \(round) from \(start)")
                    #expect(fast.hasEscapes == reference.hasEscapes, "round \(round) from \(start)")
                }
            }
        }
    }
}
