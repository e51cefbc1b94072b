import PropertyBased
import Testing

@testable import APMInspectCore

/// The direct writer writes numbers of up to three decimals from their digits: it must write exactly what the
/// encoder writes from `description` (Swift's shortest round-trip form without a trailing `.0`).
@Suite struct JSONNumberWritingTests {
    private static func direct(_ value: Double) -> String {
        let sink = JSONByteSink()
        JSONObjectWriter.append(number: value, to: sink)
        return sink.string
    }

    private static func encoder(_ value: Double) -> String {
        if case .number(let text) = JSONStreamEncoder.number(value) { return text }
        return "null"
    }

    /// Milliseconds as captures hold them (m / 10^k for k up to 4, around the 10^15 bound), and raw bit patterns.
    private static let values = Gen.int(in: 0...Int(Int32.max)).map { seed -> Double in
        var state = UInt64(seed) &* 0x9E37_79B9_7F4A_7C15 | 1
        func next() -> UInt64 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return state
        }
        let sign: Double = next() & 1 == 0 ? 1 : -1
        switch next() % 5 {
        case 0: return Double(bitPattern: next())
        case 1: return sign * Double(next() % 1_000_000) / 1000
        case 2: return sign * Double(next() % 2_000_000_000_000_000) / [1, 10, 100, 1000, 10_000][Int(next() % 5)]
        case 3: return sign * Double(next() % 100_000) / [3, 7, 1000, 1e6][Int(next() % 4)]
        default: return sign * (Double(next() % 1_000_000_000) / 1000 + [0, 1e-9, 0.0005][Int(next() % 3)])
        }
    }

    @Test func writesAsTheEncoder() async {
        await propertyCheck(input: Self.values) { value in
            #expect(Self.direct(value) == Self.encoder(value), "\(value.bitPattern)")
        }
    }

    @Test(arguments: [
        0, -0.0, 0.5, -0.5, 0.001, -0.001, 0.0005, 1e-7, 3, -17, 12.345, 250.000001, 999_999_999_999.999,
        999_999_999_999.9999, 1e12, 1e15, 1e16, 1e21, 123_456.789, 0.1, 0.2, 0.30000000000000004, 100.05, 4.35,
        .nan, .infinity, -.infinity, .leastNonzeroMagnitude, .greatestFiniteMagnitude,
    ])
    func edgeCasesWriteAsTheEncoder(_ value: Double) {
        #expect(Self.direct(value) == Self.encoder(value), "\(value)")
    }
}
