import ByteAccess
import FuzzReplaySupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// ``OutputBytes``, ``BorrowedBytes/writeAll(_:)`` and ``withScratchUTF8(capacity:_:then:)``: the output side of
/// the byte-access module, which the JSON writer, the atos output and the spools write through.
@Suite struct OutputBytesTests {
    /// One piece of output and the bytes it must add, as `String` or `Array` would write them.
    private enum Piece {
        case byte(UInt8)
        case bytes([UInt8])
        case literal(StaticString)
        case repeating(UInt8, Int)
        case decimal(UInt64, negative: Bool)
        case hexadecimal(UInt64)

        var expected: [UInt8] {
            switch self {
            case .byte(let byte): [byte]
            case .bytes(let bytes): bytes
            case .literal(let text): text.withUTF8Buffer { Array($0) }
            case .repeating(let byte, let count): [UInt8](repeating: byte, count: max(0, count))
            case .decimal(let value, let negative): Array(((negative ? "-" : "") + String(value)).utf8)
            case .hexadecimal(let value): Array(String(value, radix: 16).utf8)
            }
        }

        func write(into output: inout OutputBytes) {
            switch self {
            case .byte(let byte): output.append(byte)
            case .bytes(let bytes): bytes.withBorrowedBytes { output.append($0) }
            case .literal(let text): output.append(text)
            case .repeating(let byte, let count): output.append(repeating: byte, count: count)
            case .decimal(let value, let negative): output.append(decimal: value, negative: negative)
            case .hexadecimal(let value): output.append(hexadecimal: value)
            }
        }
    }

    private static func randomValue(_ random: inout SeededGenerator) -> UInt64 {
        // Every digit count, the edges included.
        switch random.below(4) {
        case 0: random.pick([0, 9, 10, 15, 16, 99, 100, UInt64.max, UInt64.max - 1, 1 << 63])
        case 1: random.next() >> UInt64(random.below(64))
        default: UInt64(random.below(1_000))
        }
    }

    private static func randomPiece(_ random: inout SeededGenerator) -> Piece {
        switch random.below(6) {
        case 0: .byte(UInt8(truncatingIfNeeded: random.next()))
        // Lengths on both sides of the copy's 8- and 16-byte word paths, and past a doubling.
        case 1:
            .bytes((0..<random.pick([0, 1, 7, 8, 9, 15, 16, 17, 40, 300])).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        case 2: .literal(random.pick(["", ",", "\":", "\" : ", "{\"crashReporterKey\":"]))
        case 3: .repeating(UInt8(ascii: " "), random.below(40) - 5)
        case 4: .decimal(randomValue(&random), negative: random.chance())
        default: .hexadecimal(randomValue(&random))
        }
    }

    @Test func appendsWriteWhatStringsAndArraysWriteAcrossGrowth() {
        var random = SeededGenerator(seed: 0x0B17_E5)
        for _ in 0..<300 {
            // From the smallest buffer, so most documents grow it several times.
            var output = OutputBytes(capacity: 0)
            defer { output.deallocate() }
            var expected: [UInt8] = []
            for _ in 0..<random.below(60) {
                let piece = Self.randomPiece(&random)
                piece.write(into: &output)
                expected += piece.expected
                #expect(output.count <= output.capacity)
            }
            #expect(output.count == expected.count)
            #expect(output.bytes.array == expected)
        }
    }

    @Test func reservedRoomIsThereWithoutGrowingAgain() {
        var output = OutputBytes(capacity: 16)
        defer { output.deallocate() }
        output.append("0123456789")
        output.reserve(100)
        let capacity = output.capacity
        #expect(capacity >= 110)
        output.append(repeating: UInt8(ascii: "x"), count: 100)
        #expect(output.capacity == capacity)
        #expect(output.string == "0123456789" + String(repeating: "x", count: 100))
    }

    @Test func aWrongDigitCountWritesWrongTextInsideTheStorage() {
        var output = OutputBytes(capacity: 16)
        defer { output.deallocate() }
        output.append(decimal: 12_345, negative: false, digits: 3)
        output.append(UInt8(ascii: " "))
        output.append(decimal: 7, negative: true, digits: 0)
        output.append(UInt8(ascii: " "))
        output.append(decimal: 42, negative: false, digits: 99)
        #expect(output.string == "345 -7 " + String(repeating: "0", count: 18) + "42")
    }

    @Test func resizingKeepsTheHeldBytes() {
        var output = OutputBytes(capacity: 16)
        defer { output.deallocate() }
        output.append(repeating: UInt8(ascii: "a"), count: 5_000)
        // Never below what is held: the bytes stay.
        output.resize(capacity: 64)
        #expect(output.capacity == 5_000)
        #expect(output.bytes.array == [UInt8](repeating: UInt8(ascii: "a"), count: 5_000))
        output.removeAll()
        output.resize(capacity: 64)
        #expect(output.capacity == 64 && output.count == 0 && output.bytes.isEmpty)
        output.append("after")
        #expect(output.string == "after")
    }

    @Test func writeAllHandsEveryByteOverInOrderThroughShortWritesAndInterruptions() {
        let source = (0..<1_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        var written: [UInt8] = []
        var calls = 0
        let ok = source.withBorrowedBytes { bytes in
            bytes.writeAll { start, count, before in
                calls += 1
                #expect(before == written.count)
                if calls % 5 == 0 {
                    errno = EINTR
                    return -1
                }
                // A pipe that takes at most 64 bytes at a time.
                let n = min(count, 64)
                written += UnsafeRawBufferPointer(start: start, count: n)
                return n
            }
        }
        #expect(ok)
        #expect(written == source)
    }

    @Test func writeAllStopsWhenTheCallFailsOrWritesNothing() {
        let source = [UInt8](repeating: 1, count: 100)
        for failure in [0, -1] {
            var calls = 0
            let ok = source.withBorrowedBytes { bytes in
                bytes.writeAll { _, count, _ in
                    calls += 1
                    errno = EIO
                    return calls == 1 ? min(count, 10) : failure
                }
            }
            #expect(!ok)
            #expect(calls == 2)
        }
        // Nothing to write succeeds without a call.
        #expect([UInt8]().withBorrowedBytes { $0.writeAll { _, _, _ in -1 } })
    }

    @Test func scratchTextKeepsWhatFitsAndDropsTheRest() {
        let timestamp = withScratchUTF8(
            capacity: 10,
            { writer in
                for byte in "2026-12-07T23:10:00".utf8 { writer.append(byte) }
            },
            then: { $0.string }
        )
        #expect(timestamp == "2026-12-07")
        let empty = withScratchUTF8(capacity: -3, { $0.append(UInt8(ascii: "x")) }, then: { $0.count })
        #expect(empty == 0)
    }
}
