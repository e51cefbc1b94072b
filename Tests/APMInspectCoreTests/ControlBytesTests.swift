import ByteAccess
import FuzzReplaySupport
import Testing

@testable import APMInspectCore

/// The sniffer's word-at-a-time count of control bytes against the byte loop it replaced.
@Suite struct ControlBytesTests {
    /// Bytes around every class boundary of the count: the allowed controls, their neighbours, 0x1F/0x20, NUL, and
    /// bytes with the high bit set (whose low seven bits look like controls).
    private static let alphabet: [UInt8] = [
        0x00, 0x01, 0x08, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x0E, 0x1F, 0x20, 0x21, 0x41, 0x7F, 0x80, 0x89, 0x8A, 0x9F,
        0xA0, 0xFF,
    ]

    @Test func agreesWithTheByteLoopOnRandomBytes() {
        var random = SeededGenerator(seed: 0x5EED_C0DE)
        for _ in 0..<3_000 {
            let count = random.below(90)
            let dense = random.chance()
            let bytes = (0..<count).map { _ in
                dense || random.below(8) == 0 ? random.pick(Self.alphabet) : UInt8(ascii: "a")
            }
            bytes.withBorrowedBytes { buffer in
                let fast = ContentSniffer.controlBytes(buffer)
                let slow = ContentSniffer.controlBytesByByte(buffer)
                #expect(fast.count == slow.count && fast.sawNUL == slow.sawNUL, "\(bytes)")
            }
        }
    }

    @Test func eachByteValueAtEachPositionOfAWord() {
        for value in UInt8.min...UInt8.max {
            for position in 0..<17 {
                var bytes = [UInt8](repeating: UInt8(ascii: "x"), count: 17)
                bytes[position] = value
                bytes.withBorrowedBytes { buffer in
                    let fast = ContentSniffer.controlBytes(buffer)
                    let counted = value < 0x20 && ![0x09, 0x0A, 0x0C, 0x0D].contains(value)
                    #expect(fast.count == (counted ? 1 : 0), "byte \(value) at \(position)")
                    #expect(fast.sawNUL == (value == 0), "byte \(value) at \(position)")
                }
            }
        }
    }
}
