import Foundation
import PropertyBased
import Testing

@testable import APMInspectCore

/// ``AppleTimestamp/iso8601`` is written into a byte buffer for fields in their parsed ranges, and from padded
/// strings otherwise: both must give what the padded form always gave, for any field values a library user can set.
@Suite struct AppleTimestampISO8601Tests {
    /// The padded form the timestamp was always written in (offset magnitude taken without trapping).
    private static func reference(_ time: AppleTimestamp) -> String {
        func pad(_ value: some BinaryInteger, _ width: Int) -> String {
            let text = String(value)
            return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
        }
        let sign = time.utcOffsetSeconds < 0 ? "-" : "+"
        let magnitude = time.utcOffsetSeconds.magnitude
        let fraction = time.fractionDigits.isEmpty ? "" : "." + time.fractionDigits
        return "\(pad(time.year, 4))-\(pad(time.month, 2))-\(pad(time.day, 2))T\(pad(time.hour, 2)):"
            + "\(pad(time.minute, 2)):\(pad(time.second, 2))\(fraction)\(sign)\(pad(magnitude / 3600, 2)):"
            + "\(pad(magnitude % 3600 / 60, 2))"
    }

    /// One member written by the direct writer, for comparison with the encoder.
    private struct Holder: JSONDirectEncodable {
        var time: AppleTimestamp?
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(time, forKey: .time)
        }
        enum CodingKeys: String, CodingKey { case time }
        func writeJSONMembers(into object: inout JSONObjectWriter) { object.write("time", time) }
    }

    private static func check(_ time: AppleTimestamp) throws {
        let expected = reference(time)
        #expect(time.iso8601 == expected)
        #expect(time.withISO8601UTF8 { $0.string } == expected)
        let direct = try SortedJSONEncoder().encode(Holder(time: time))
        let viaEncoder = try SortedJSONEncoder().encode(["time": expected])
        #expect(direct == viaEncoder, "\(expected)")
    }

    private static let base = AppleTimestamp("2016-07-25 19:49:19.19 -0400")

    @Test func parsedTimestampsAreWrittenAsBefore() throws {
        for text in [
            "2016-07-25 19:49:19.19 -0400", "2021-12-16T05:54:00Z", "2019-10-10 23:30:39.4812 -0700",
            "0000-01-01 00:00:00 +0000", "9999-12-31 23:59:59.999999999 +1400", "2023-03-01 08:05:09 -00:30",
        ] {
            let time = try #require(AppleTimestamp(text), "\(text)")
            try Self.check(time)
        }
    }

    /// A field value: mostly in range, sometimes at or past its edges, sometimes any `Int` at all.
    private static func field(_ state: inout UInt64) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        switch z % 8 {
        case 0: return Int(truncatingIfNeeded: z)
        case 1: return [Int.min, Int.max, -1, 100, 10_000, 9999, 359_999, 360_000, -360_000][Int(z >> 8 % 9)]
        case 2: return Int(z >> 8 % 400_000) - 200_000
        default: return Int(z >> 8 % 100)
        }
    }

    @Test func anyFieldValuesAreWrittenAsBefore() async throws {
        let base = try #require(Self.base)
        let fractions = ["", "19", "000000000000000000000000000000000001", "é\"\\\u{1}"]
        await propertyCheck(input: Gen.int(in: 0...Int(Int32.max))) { seed in
            var state = UInt64(seed)
            var time = base
            time.year = Self.field(&state)
            time.month = Self.field(&state)
            time.day = Self.field(&state)
            time.hour = Self.field(&state)
            time.minute = Self.field(&state)
            time.second = Self.field(&state)
            time.utcOffsetSeconds = Self.field(&state)
            time.fractionDigits = fractions[Int(UInt64(Self.field(&state).magnitude) % 4)]
            do { try Self.check(time) } catch { Issue.record("\(error)") }
        }
    }
}
