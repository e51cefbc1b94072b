import APMInspectCore
import Foundation
import Testing

@testable import PowerLogReading

/// `PowerLogTime` keeps the local offset instead of the wall clock: it must behave exactly as the struct of three
/// stored properties it replaced (same values, equality, hashing and JSON), and stay small, since every row of a
/// database holds one.
@Suite struct PowerLogTimeTests {
    /// The struct as it was: what the compiler synthesises for the three stored properties.
    private struct StoredTime: Equatable, Hashable, Codable {
        var raw: Double
        var clockOffset: Double
        var wallClock: AppleTimestamp?
    }

    private static func stored(_ time: PowerLogTime) -> StoredTime {
        StoredTime(raw: time.raw, clockOffset: time.clockOffset, wallClock: time.wallClock)
    }

    /// Raw values and offsets a database can hold, plausible or not.
    private static let cases: [(raw: Double, clockOffset: Double, utcOffset: Int)] = [
        (1_000_000_000, 0, 0), (1_699_142_000.123_456, 3_600.5, -14_400), (0, 0, 3_600), (-0.0, 0, 0),
        (1e300, 0, 0), (.nan, 0, 0), (.infinity, 0, 0), (1_000_000_000, 0, 18 * 3600 + 1),
        (1_000_000_000, 0, Int.max), (-62_135_596_801, 0, 0), (253_402_300_799.9995, 0, 0),
    ]

    /// The compact form gives the wall clock the reader built before, and the same JSON as the stored form.
    @Test func compactTimesMatchTheStoredForm() throws {
        for item in Self.cases {
            let compact = PowerLogTime(raw: item.raw, clockOffset: item.clockOffset, utcOffset: item.utcOffset)
            let wall = AppleTimestamp.fromSeconds(item.raw + item.clockOffset, utcOffset: item.utcOffset)
            #expect(compact.wallClock == wall)
            let given = PowerLogTime(raw: item.raw, clockOffset: item.clockOffset, wallClock: wall)
            let old = StoredTime(raw: item.raw, clockOffset: item.clockOffset, wallClock: wall)
            #expect(try StoredFormJSON.text(compact) == StoredFormJSON.text(old))
            #expect(try StoredFormJSON.text(given) == StoredFormJSON.text(old))
            // NaN is unequal to itself in both forms.
            #expect((compact == given) == (old == old))
            if old == old { #expect(compact.hashValue == old.hashValue && given.hashValue == old.hashValue) }
        }
        let implausible = PowerLogTime(raw: 1e300, clockOffset: 0, utcOffset: 0)
        #expect(implausible.wallClock == nil)
        #expect(try !StoredFormJSON.text(implausible).contains("wallClock"))
    }

    /// A wall clock the offset cannot rebuild (other fraction digits, another instant, nil for a plausible date) is
    /// kept as given, and survives changes of `raw` and `clockOffset`, as a stored property did.
    @Test func givenWallClocksAreKept() throws {
        let written = try #require(AppleTimestamp("2016-07-25 19:49:19.19 -0400"))
        var time = PowerLogTime(raw: 5, clockOffset: 0, wallClock: written)
        #expect(time.wallClock == written)
        time.raw = 1_000_000_000
        time.clockOffset = 7
        #expect(time.wallClock == written)
        var none = PowerLogTime(raw: 1_000_000_000, clockOffset: 0, wallClock: nil)
        #expect(none.wallClock == nil)
        #expect(none != PowerLogTime(raw: 1_000_000_000, clockOffset: 0, utcOffset: 0))
        var compact = PowerLogTime(raw: 1_000_000_000, clockOffset: 0, utcOffset: 3_600)
        let before = compact.wallClock
        compact.raw = 2_000_000_000
        #expect(compact.wallClock == before)
        compact.wallClock = nil
        #expect(compact.wallClock == nil)
        none.wallClock = written
        #expect(none.wallClock == written)
        let decoded = try JSONDecoder().decode(PowerLogTime.self, from: Data(try StoredFormJSON.text(time).utf8))
        #expect(decoded == time)
        #expect(Self.stored(decoded) == Self.stored(time))
    }

    /// The per-row footprint does not grow.
    ///
    /// A dense database's JSON read holds every battery sample, so a byte more here is a megabyte more per million
    /// rows. With the wall clock stored (`StoredTime`) a time took 96 bytes and a sample
    /// 176 (x86_64); a field added or widened must be a decision, not an accident.
    @Test func perRowFootprintDoesNotGrow() {
        #expect(MemoryLayout<PowerLogTime>.stride <= 24)
        #expect(MemoryLayout<PowerLogReport.Battery.Sample>.stride <= 72)
        #expect(MemoryLayout<PowerLogTime>.stride < MemoryLayout<StoredTime>.stride)
        #expect(MemoryLayout<PowerLogReport.Screen.Change>.stride <= 32)
    }

    /// Equality and hashing follow the three values whatever the form: a compact time equals the same values given.
    @Test func equalityIgnoresTheForm() {
        let compact = PowerLogTime(raw: 1_000_000_000, clockOffset: 2, utcOffset: -3_600)
        let given = PowerLogTime(raw: 1_000_000_000, clockOffset: 2, wallClock: compact.wallClock)
        #expect(compact == given)
        #expect(Set([compact, given]).count == 1)
        #expect(compact != PowerLogTime(raw: 1_000_000_000, clockOffset: 2, utcOffset: 0))
        // Two offsets past ±18 h both give nil: equal, as two nil wall clocks were.
        let far = PowerLogTime(raw: 1_000_000_000, clockOffset: 2, utcOffset: 100_000)
        #expect(far == PowerLogTime(raw: 1_000_000_000, clockOffset: 2, utcOffset: -100_000))
    }
}
