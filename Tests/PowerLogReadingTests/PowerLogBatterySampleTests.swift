import APMInspectCore
import Foundation
import Testing

@testable import PowerLogReading

/// `Battery.Sample` keeps its readings as doubles with presence bits: it must behave exactly as the struct of
/// optional stored properties it replaced (same values, equality, hashing and JSON).
@Suite struct PowerLogBatterySampleTests {
    /// The struct as it was: what the compiler synthesises for the stored optionals.
    private struct StoredSample: Equatable, Hashable, Codable {
        var at: PowerLogTime
        var level: Double?
        var rawLevel: Double?
        var voltageMillivolts: Double?
        var currentMilliamps: Double?
        var temperatureCelsius: Double?
        var isCharging: Bool?
        var externalConnected: Bool?
    }

    /// Every reading present or absent (zero, negative zero, NaN and infinity among the present ones).
    @Test func samplesMatchTheStoredForm() throws {
        let at = PowerLogTime(raw: 1_000_000_000, clockOffset: 0, utcOffset: 3_600)
        let values: [Double] = [0, -0.0, 42.5, .nan, -.infinity]
        for mask in 0..<32 {
            func reading(_ bit: Int) -> Double? { mask & (1 << bit) != 0 ? values[bit] : nil }
            let charging: Bool? = mask % 3 == 0 ? nil : mask % 3 == 1
            let sample = PowerLogReport.Battery.Sample(
                at: at,
                level: reading(0),
                rawLevel: reading(1),
                voltageMillivolts: reading(2),
                currentMilliamps: reading(3),
                temperatureCelsius: reading(4),
                isCharging: charging,
                externalConnected: mask % 2 == 0 ? nil : true
            )
            let old = StoredSample(
                at: at,
                level: reading(0),
                rawLevel: reading(1),
                voltageMillivolts: reading(2),
                currentMilliamps: reading(3),
                temperatureCelsius: reading(4),
                isCharging: charging,
                externalConnected: mask % 2 == 0 ? nil : true
            )
            #expect(sample.level?.bitPattern == old.level?.bitPattern)
            #expect(sample.rawLevel?.bitPattern == old.rawLevel?.bitPattern)
            #expect(sample.voltageMillivolts?.bitPattern == old.voltageMillivolts?.bitPattern)
            #expect(sample.currentMilliamps?.bitPattern == old.currentMilliamps?.bitPattern)
            #expect(sample.temperatureCelsius?.bitPattern == old.temperatureCelsius?.bitPattern)
            #expect(try StoredFormJSON.text(sample) == StoredFormJSON.text(old))
            // NaN (bit 3) is unequal to itself in both forms.
            #expect((sample == sample) == (old == old))
            if old == old { #expect(sample.hashValue == old.hashValue) }
            let decoder = JSONDecoder()
            decoder.nonConformingFloatDecodingStrategy = .convertFromString(
                positiveInfinity: "inf",
                negativeInfinity: "-inf",
                nan: "nan"
            )
            let text = try StoredFormJSON.text(old)
            let decoded = try decoder.decode(PowerLogReport.Battery.Sample.self, from: Data(text.utf8))
            #expect(try StoredFormJSON.text(decoded) == StoredFormJSON.text(old))
        }
    }

    /// Setting a reading to nil and back, as a stored optional allowed.
    @Test func readingsCanBeClearedAndSet() {
        let at = PowerLogTime(raw: 1, clockOffset: 0, utcOffset: 0)
        var sample = PowerLogReport.Battery.Sample(at: at, level: 50, rawLevel: 49.5)
        #expect(sample.bestLevel == 49.5)
        sample.rawLevel = nil
        #expect(sample.bestLevel == 50)
        sample.level = nil
        #expect(sample.bestLevel == nil)
        #expect(sample == PowerLogReport.Battery.Sample(at: at, level: nil))
        sample.temperatureCelsius = 0
        #expect(sample.temperatureCelsius == 0)
        #expect(sample != PowerLogReport.Battery.Sample(at: at, level: nil))
    }
}
